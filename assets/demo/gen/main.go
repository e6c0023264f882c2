// Command gen makes the workbench's demo data set with the real runner: it cross-compiles the
// samples, runs each under qemu-user with the counting plugin, and writes one gzipped
// basic-block profile per run into assets/demo, with ARM and Thumb already told apart (the
// files travel without their ELF). Needs gcc-arm-linux-gnueabihf, gcc-mipsel-linux-gnu and
// qemu-user. Run from the repository root: go run ./assets/demo/gen
package main

import (
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"androprof/emulator"
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
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err := emulator.WriteBBProfile(zw, c, archs); err != nil {
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
