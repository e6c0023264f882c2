// Command gen makes the workbench's demo data set with the real runner: it cross-compiles the
// samples, runs each under qemu-user with the counting plugin, and writes one gzipped
// basic-block profile per run into assets/demo, with ARM and Thumb already told apart (the
// files travel without their ELF). Needs gcc-arm-linux-gnueabihf, gcc-mipsel-linux-gnu and
// qemu-user. It also runs the Java samples under the project's JVMTI heap agent, one gzipped
// heap log each, and writes a HotSpot heap dump of the cache sample (openjdk-17-jdk-headless).
// Run from the repository root: go run ./assets/demo/gen [emulator|heap]
package main

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"androprof/emulator"
	"androprof/jvm"
	"androprof/model"
)

// demo is one run of the data set: the same source built three ways, as in seed 000's ARM/MIPS
// comparison, plus a program that forks, for the per-process views.
type demo struct {
	name, source, cc string
	flags, args      []string
}

var demos = []demo{
	{"demo-sieve-arm", "sieve.c", "arm-linux-gnueabihf-gcc", []string{"-marm"}, []string{"20000"}},
	{"demo-sieve-thumb", "sieve.c", "arm-linux-gnueabihf-gcc", []string{"-mthumb"}, []string{"20000"}},
	{"demo-sieve-mips", "sieve.c", "mipsel-linux-gnu-gcc", nil, []string{"20000"}},
	{"demo-forker-arm", "forker.c", "arm-linux-gnueabihf-gcc", []string{"-marm"}, nil},
}

func main() {
	tmp, err := os.MkdirTemp("", "androprof-demo")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	which := ""
	if len(os.Args) > 1 {
		which = os.Args[1]
	}
	if which == "" || which == "emulator" {
		emulatorDemos(tmp)
	}
	if which == "" || which == "heap" {
		heapDemos(tmp)
	}
}

func emulatorDemos(tmp string) {
	for _, d := range demos {
		bin := filepath.Join(tmp, d.name)
		args := append([]string{"-O2", "-static", "-o", bin}, d.flags...)
		if out, err := exec.Command(d.cc, append(args, filepath.Join("assets", "samples", d.source))...).CombinedOutput(); err != nil {
			fail(fmt.Errorf("%s: %v\n%s", d.cc, err, out))
		}
		c := emulator.NewCollector()
		if err := emulator.Run(context.Background(), emulator.RunOptions{Program: bin, Args: d.args}, c, nil); err != nil {
			fail(err)
		}
		archs := map[int]string{}
		arch, err := emulator.GuestArch(bin)
		if err != nil {
			fail(err)
		}
		for _, p := range c.Processes {
			archs[p.PID] = arch
		}
		renameProcesses(c, d.name)
		if err := write(filepath.Join("assets", "demo", d.name+".bbprofile.gz"), c, archs); err != nil {
			fail(err)
		}
		fmt.Printf("%s: %d processes, %d blocks, %d instructions\n", d.name, len(c.Processes), len(c.Blocks), c.Instructions())
	}
}

// renameProcesses drops the temporary directory from program names.
func renameProcesses(c *emulator.Collector, name string) {
	for i := range c.Processes {
		c.Processes[i] = model.Process{PID: c.Processes[i].PID, ParentPID: c.Processes[i].ParentPID, Name: name}
	}
}

func write(path string, c *emulator.Collector, archs map[int]string) error {
	return writeGzip(path, func(w io.Writer) error { return emulator.WriteBBProfile(w, c, archs) })
}

// heapDemos are the Java samples' heap logs: a growing cache (stairs in figure 5.1), short-lived
// garbage, and many threads (figures 5.11–5.16); small arguments keep the files small.
func heapDemos(tmp string) {
	jdk, err := jvm.FindJDK()
	if err != nil {
		fail(err)
	}
	classes := filepath.Join(tmp, "classes")
	if err := jvm.CompileSamples(context.Background(), "", classes); err != nil {
		fail(err)
	}
	for _, d := range []struct{ name, class, args string }{
		{"demo-heap-cache", "demo.Cache", "10 3000 20000"},
		{"demo-heap-garbage", "demo.Garbage", "40000"},
		{"demo-heap-threads", "demo.Threads", "8 2000 4"},
	} {
		log := filepath.Join(tmp, d.name+".heaplog")
		args := append([]string{"-Xmx64m", "-cp", classes, d.class}, strings.Fields(d.args)...)
		if err := jvm.Run(context.Background(), jvm.RunOptions{Java: jdk.Java, Args: args, Log: log, Stdout: io.Discard}); err != nil {
			fail(err)
		}
		if err := gzipFile(log, filepath.Join("assets", "demo", d.name+".heaplog.gz")); err != nil {
			fail(err)
		}
		fmt.Printf("%s: java %s\n", d.name, strings.Join(args[3:], " "))
	}
	// The dump: what the cache sample holds at its end, written by HotSpot itself.
	dump := filepath.Join(tmp, "cache.hprof")
	out, err := exec.Command(jdk.Java, "-Xmx64m", "-cp", classes, "demo.Cache", "10", "3000", "20000", dump).CombinedOutput()
	if err != nil {
		fail(fmt.Errorf("%s: %v\n%s", jdk.Java, err, out))
	}
	if err := gzipFile(dump, filepath.Join("assets", "demo", "demo-heap-dump.hprof.gz")); err != nil {
		fail(err)
	}
	fmt.Println("demo-heap-dump: HotSpot heap dump of demo.Cache")
}

func gzipFile(from, to string) error {
	return writeGzip(to, func(w io.Writer) error {
		f, err := os.Open(from)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(w, f)
		return err
	})
}

// writeGzip writes path, gzipped at the best compression, without a name or time in the
// header so a rerun on the same input writes the same bytes.
func writeGzip(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err := write(zw); err != nil {
		f.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
