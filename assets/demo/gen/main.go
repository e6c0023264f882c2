// Command gen makes the workbench's demo data set with the real runner: it cross-compiles the
// samples, runs each under qemu-user with the counting plugin, and writes one gzipped
// basic-block profile per run into assets/demo, with ARM and Thumb already told apart (the
// files travel without their ELF). Needs gcc-arm-linux-gnueabihf, gcc-mipsel-linux-gnu,
// gcc-aarch64-linux-gnu, gcc (x86_64-linux-gnu-gcc, on an amd64 machine) and qemu-user. It also runs the Java samples under the project's JVMTI heap agent, one gzipped
// heap log each, and writes a HotSpot heap dump of the cache sample (openjdk-17-jdk-headless).
// The debian runs are Debian's own stripped, dynamically linked programs (internal/debpkg; needs
// apt and network once, then the cache).
// It also records the Java sample demo.Phases under perf with the perf map agent (linux-perf, as root).
// Run from the repository root: go run ./assets/demo/gen [emulator|debian [NAME...]|heap|vertical]
// (NAME: only those emulator or debian runs, e.g. demo-sieve-arm64, leaving the other files as
// they are).
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"androprof/emulator"
	"androprof/formats/bbprofile"
	"androprof/internal/debpkg"
	"androprof/isaprofiles"
	"androprof/jvm"
	"androprof/model"
)

// demo is one run of the data set: the same source built for each instruction set, as in seed
// 000's ARM/MIPS comparison (ARM, Thumb, MIPS, AArch64, x86-64), plus a program that forks, for
// the per-process views. Names sort each build beside its twins.
type demo struct {
	name, source, cc string
	flags, args      []string
	cache            string // a built-in profile whose memory hierarchy the run simulates; "" counts only
}

var demos = []demo{
	{"demo-sieve-arm", "sieve.c", "arm-linux-gnueabihf-gcc", []string{"-marm"}, []string{"20000"}, ""},
	{"demo-sieve-thumb", "sieve.c", "arm-linux-gnueabihf-gcc", []string{"-mthumb"}, []string{"20000"}, ""},
	{"demo-sieve-mips", "sieve.c", "mipsel-linux-gnu-gcc", nil, []string{"20000"}, ""},
	{"demo-sieve-arm64", "sieve.c", "aarch64-linux-gnu-gcc", nil, []string{"20000"}, ""},
	{"demo-sieve-x86-64", "sieve.c", "x86_64-linux-gnu-gcc", nil, []string{"20000"}, ""},
	{"demo-forker-arm", "forker.c", "arm-linux-gnueabihf-gcc", []string{"-marm"}, nil, ""},
	// The sieve again with its caches simulated (androprof run --cache), for the Estimate tab's
	// memory step: under the Cortex-A8's hierarchy, and an AArch64 core's.
	{"demo-sieve-arm-cache", "sieve.c", "arm-linux-gnueabihf-gcc", []string{"-marm"}, []string{"20000"}, "cortex-a8"},
	{"demo-sieve-arm64-cache", "sieve.c", "aarch64-linux-gnu-gcc", nil, []string{"20000"}, "cortex-a55"},
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
	for _, name := range os.Args[min(2, len(os.Args)):] {
		only[name] = true
	}
	if which == "" || which == "emulator" {
		emulatorDemos(tmp)
	}
	if which == "" || which == "debian" {
		debianDemos()
	}
	if which == "" || which == "heap" {
		heapDemos(tmp)
	}
	if which == "" || which == "vertical" {
		verticalDemo(tmp)
	}
}

// only names the runs to make, when the command line names some: the others' files stay.
var only = map[string]bool{}

func wanted(name string) bool { return len(only) == 0 || only[name] }

func emulatorDemos(tmp string) {
	for _, d := range demos {
		if !wanted(d.name) {
			continue
		}
		bin := filepath.Join(tmp, d.name)
		args := append([]string{"-O2", "-static", "-o", bin}, d.flags...)
		if out, err := exec.Command(d.cc, append(args, filepath.Join("assets", "samples", d.source))...).CombinedOutput(); err != nil {
			fail(fmt.Errorf("%s: %v\n%s", d.cc, err, out))
		}
		opts := emulator.RunOptions{Program: bin, Args: d.args}
		if d.cache != "" {
			p, err := isaprofiles.Builtin(d.cache)
			if err != nil {
				fail(err)
			}
			g := p.Memory.Geometry()
			opts.Cache, opts.CacheSource = &g, "profile "+p.Name
		}
		run(d.name, opts, func(c *bbprofile.Collector) error {
			renameProcesses(c, d.name)
			return nil
		})
	}
}

// run runs one demo program and writes its profile, after tidy has made it fit to travel.
func run(name string, opts emulator.RunOptions, tidy func(*bbprofile.Collector) error) {
	c := bbprofile.NewCollector()
	if err := emulator.Run(context.Background(), opts, c, nil); err != nil {
		fail(err)
	}
	arch, err := emulator.GuestArch(opts.Program)
	if err != nil {
		fail(err)
	}
	archs := map[int]string{}
	for _, p := range c.Processes {
		archs[p.PID] = arch
	}
	if err := tidy(c); err != nil {
		fail(err)
	}
	if err := write(filepath.Join("assets", "demo", name+".bbprofile.gz"), c, archs); err != nil {
		fail(err)
	}
	fmt.Printf("%s: %d processes, %d images, %d blocks, %d instructions\n", name, len(c.Processes), len(c.Images), len(c.Blocks), c.Instructions())
}

// debianDemo is a real program as Debian ships it, run from a mini root of its packages.
type debianDemo struct {
	name    string
	arch    string   // Debian architecture: armhf, mipsel, arm64, amd64
	pkgs    []string // every package the program needs (debpkg.Root follows no dependencies)
	program string   // in the root
	args    []string // it reads the generated text on standard input
}

// bzip2Pkgs is bzip2 with its library and glibc: the cost is in libbz2, as issue 13 asks to show.
var bzip2Pkgs = []string{"bzip2", "libbz2-1.0", "libc6"}

var debianRuns = []debianDemo{
	{"demo-bzip2-arm", "armhf", bzip2Pkgs, "/bin/bzip2", []string{"-c"}},
	{"demo-bzip2-mips", "mipsel", bzip2Pkgs, "/bin/bzip2", []string{"-c"}},
	{"demo-bzip2-arm64", "arm64", bzip2Pkgs, "/bin/bzip2", []string{"-c"}},
	{"demo-bzip2-x86-64", "amd64", bzip2Pkgs, "/bin/bzip2", []string{"-c"}},
}

// debianDemos runs each Debian program on the same generated text, its output discarded, and
// writes its profile with the images' paths as the guest sees them: the blocks already carry
// the names read from the files, so the profile keeps them where the files are not.
func debianDemos() {
	input := text(1_500_000)
	cache, err := debpkg.CacheDir()
	if err != nil {
		fail(err)
	}
	for _, d := range debianRuns {
		if !wanted(d.name) {
			continue
		}
		root, err := debpkg.Root(context.Background(), cache, d.arch, d.pkgs...)
		if err != nil {
			fail(err)
		}
		// Standard input rather than a file name: the count must not depend on the length of a
		// temporary folder's name, which the program copies and measures.
		opts := emulator.RunOptions{Program: filepath.Join(root, d.program), Args: d.args, Sysroot: root, Stdin: bytes.NewReader(input)}
		run(d.name, opts, func(c *bbprofile.Collector) error {
			// The process keeps the program's name: it is how a reader without the files tells
			// the program's image from the libraries.
			renameProcesses(c, path.Base(d.program))
			return guestPaths(c, root)
		})
	}
}

// guestPaths rewrites image paths from the host's cache (ROOT/lib/…) to the guest's view
// (/lib/…), in the images and in the blocks that name them.
func guestPaths(c *bbprofile.Collector, root string) error {
	resolved, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	guest := func(p string) string {
		for _, r := range []string{resolved, root} {
			if rest, ok := strings.CutPrefix(p, r+"/"); ok {
				return "/" + rest
			}
		}
		return p
	}
	for i := range c.Images {
		c.Images[i].Path = guest(c.Images[i].Path)
	}
	for _, b := range c.Blocks {
		b.Image = guest(b.Image)
	}
	return nil
}

// text is deterministic English-like prose: sentences of made-up words whose frequencies fall
// off as in real text, so bzip2 sorts and codes it as it would a document rather than a
// repeated pattern (which sends it to its fallback sort). Its own generator keeps the bytes
// the same across Go versions.
func text(size int) []byte {
	syllables := strings.Fields("ka to ri en ma lo su ne fi da par ter com ing ion al ver sta pro tion ble con men ist ous")
	seed := uint64(13)
	next := func(n int) int { // 64-bit LCG (Knuth's MMIX constants), high bits
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(n))
	}
	words := make([]string, 3000)
	for i := range words {
		var w strings.Builder
		for range 1 + next(4) {
			w.WriteString(syllables[next(len(syllables))])
		}
		words[i] = w.String()
	}
	var out bytes.Buffer
	for out.Len() < size {
		for s := range 3 + next(5) {
			for i := range 4 + next(12) {
				w := words[next(len(words))*next(len(words))/len(words)] // a product of uniforms: common words are common
				if i == 0 {
					w = strings.ToUpper(w[:1]) + w[1:]
				}
				if i > 0 || s > 0 {
					out.WriteByte(' ')
				}
				out.WriteString(w)
			}
			out.WriteByte('.')
		}
		out.WriteString("\n\n")
	}
	return out.Bytes()
}

// renameProcesses drops the temporary directory from program names.
func renameProcesses(c *bbprofile.Collector, name string) {
	for i := range c.Processes {
		c.Processes[i] = model.Process{PID: c.Processes[i].PID, ParentPID: c.Processes[i].ParentPID, Name: name}
	}
}

func write(path string, c *bbprofile.Collector, archs map[int]string) error {
	return writeGzip(path, func(w io.Writer) error { return bbprofile.Write(w, c, archs) })
}

// heapDemos are the Java samples' heap logs: a growing cache (stairs in figure 5.1), short-lived
// garbage, many threads (figures 5.11–5.16), and reference stores of known direction recorded
// with --mutations (figure 5.22); small arguments keep the files small.
func heapDemos(tmp string) {
	jdk, err := jvm.FindJDK()
	if err != nil {
		fail(err)
	}
	classes := filepath.Join(tmp, "classes")
	if err := jvm.CompileSamples(context.Background(), "", classes); err != nil {
		fail(err)
	}
	for _, d := range []struct {
		name, class, args string
		mutations         bool
	}{
		{"demo-heap-cache", "demo.Cache", "10 3000 20000", false},
		{"demo-heap-garbage", "demo.Garbage", "40000", false},
		{"demo-heap-threads", "demo.Threads", "8 2000 4", false},
		{"demo-heap-mutate", "demo.Mutate", "20000", true},
	} {
		log := filepath.Join(tmp, d.name+".heaplog")
		args := append([]string{"-Xmx64m", "-cp", classes, d.class}, strings.Fields(d.args)...)
		opts := jvm.RunOptions{Java: jdk.Java, Args: args, Log: log, Mutations: d.mutations, Stdout: io.Discard, Stderr: io.Discard}
		if err := jvm.Run(context.Background(), opts); err != nil {
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

// verticalDemo records demo.Phases (its four phases: application, Java library, native, kernel)
// under perf with the perf map agent, as `androprof vertical` does, and keeps perf script's
// text. Needs linux-perf, root (or kernel.perf_event_paranoid ≤ 1), openjdk-17-jdk-headless and
// gcc. At 250 Hz the file stays small and each phase still has a few hundred samples.
func verticalDemo(tmp string) {
	classes := filepath.Join(tmp, "vertical-classes")
	if err := jvm.CompileSamples(context.Background(), "", classes); err != nil {
		fail(err)
	}
	lib, err := jvm.BuildPhasesNative("")
	if err != nil {
		fail(err)
	}
	args := []string{"-Dphases.native=" + lib, "-cp", classes, "demo.Phases"}
	rec, err := jvm.RecordVertical(context.Background(), jvm.VerticalOptions{Args: args, RateHz: 250, Stdout: io.Discard}, nil)
	if err != nil {
		fail(err)
	}
	defer rec.Close()
	if rec.Exit != nil {
		fail(rec.Exit)
	}
	if err := gzipFile(rec.Script, filepath.Join("assets", "demo", "demo-vertical-phases.perfscript.gz")); err != nil {
		fail(err)
	}
	fmt.Println("demo-vertical-phases: java demo.Phases under perf at 250 Hz with the perf map agent")
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
