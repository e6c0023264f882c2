package emulator

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"androprof/emulator/elfsym"
	"androprof/formats/bbprofile"
	"androprof/internal/cbuild"
	"androprof/internal/countio"
	"androprof/internal/proc"
	"androprof/model/cost"
)

// pluginSource is the TCG plugin, carried by the binary so it can build the plugin wherever
// gcc exists (Debian's qemu-user ships no plugins).
//
//go:embed plugin/bbcount.c
var pluginSource []byte

// pluginCacheSim is the plugin's cache simulator (docs/cachesim.md), a header it includes.
//
//go:embed plugin/cachesim.h
var pluginCacheSim []byte

// pluginCFlags are part of the cache key, so changing them rebuilds. Warnings are errors, as
// for the JVMTI agent (jvm/runner.go): a warning in code that runs inside QEMU is a bug to fix.
var pluginCFlags = []string{"-O2", "-shared", "-fPIC", "-fvisibility=hidden", "-pthread", "-Wall", "-Wextra", "-Werror"}

// RunOptions says what to run under QEMU and where its output goes.
type RunOptions struct {
	Program string   // guest program: a 32-bit ARM or MIPS, or a 64-bit AArch64 or x86-64 ELF
	Args    []string // its arguments
	// Arch overrides the QEMU target read from the ELF header: arm, armeb, mipsel, mips,
	// aarch64 or x86_64 (a "qemu-" prefix is accepted).
	Arch string
	// KeepDir, when set, receives the raw per-process profiles (bbprofile-PID.txt).
	KeepDir string
	// CacheDir holds built plugins; default os.UserCacheDir()/androprof.
	CacheDir string
	// Sysroot is where the guest's dynamic loader and libraries are (qemu's -L). Empty: a
	// folder above the program that holds its loader (a Debian package tree extracted with
	// dpkg-deb -x), else a Debian cross sysroot (/usr/arm-linux-gnueabihf, …), else none:
	// the host's own loader, which is the guest's when the host runs the guest's kind (x86-64).
	Sysroot string
	// Stdin, Stdout and Stderr are the guest's; nil means /dev/null.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Cache, when set, has the plugin simulate this hierarchy per guest thread and count each
	// block's fetches, reads, writes and misses (docs/cachesim.md); nil counts blocks only.
	// Its costs are ignored: a run keeps the geometry alone.
	Cache *cost.CacheGeometry
	// CacheSource says where Cache came from ("profile cortex-a8", "--cache"), handed to the
	// sink's cost.CacheSink.Geometry with the geometry.
	CacheSource string
}

// sysroots maps each QEMU user-mode target the runner supports to the Debian cross sysroots
// that hold its dynamic loader, for dynamically linked programs. An x86-64 host has none for
// x86_64 (/usr/x86_64-linux-gnu is the cross sysroot of other hosts): there the guest's
// loader and libraries are the host's own, which QEMU opens without -L (and `-L /` would
// change nothing: QEMU's path lookup ignores the prefix "/"). Likewise aarch64 on an arm64 host.
var sysroots = map[string][]string{
	"arm":     {"/usr/arm-linux-gnueabihf", "/usr/arm-linux-gnueabi"},
	"armeb":   {"/usr/armeb-linux-gnueabi"},
	"mipsel":  {"/usr/mipsel-linux-gnu"},
	"mips":    {"/usr/mips-linux-gnu"},
	"aarch64": {"/usr/aarch64-linux-gnu"},
	"x86_64":  {"/usr/x86_64-linux-gnu"},
}

// supported says which programs the runner takes, for its refusals.
const supported = "32-bit ARM and MIPS, and 64-bit AArch64 and x86-64 Linux programs"

// GuestArch reads a program's ELF header and names the qemu-user target that runs it:
// 32-bit ARM little-endian → arm, big → armeb; MIPS little → mipsel, big → mips; 64-bit
// AArch64 (little-endian) → aarch64; x86-64 → x86_64. Anything else (32-bit x86, RISC-V,
// big-endian AArch64, …) is refused by name: the plugin has no instruction set for it.
func GuestArch(program string) (string, error) {
	f, err := elf.Open(program)
	if err != nil {
		var fe *elf.FormatError
		if errors.As(err, &fe) {
			return "", fmt.Errorf("%s is not an ELF program (%s): androprof runs %s", program, startsWith(program), supported)
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return "", err // already names the file
		}
		return "", fmt.Errorf("%s: %w", program, err)
	}
	defer f.Close()
	little := f.Data == elf.ELFDATA2LSB
	switch f.Class {
	case elf.ELFCLASS32:
		switch {
		case f.Machine == elf.EM_ARM && little:
			return "arm", nil
		case f.Machine == elf.EM_ARM:
			return "armeb", nil
		case f.Machine == elf.EM_MIPS && little:
			return "mipsel", nil
		case f.Machine == elf.EM_MIPS:
			return "mips", nil
		}
	case elf.ELFCLASS64:
		switch {
		case f.Machine == elf.EM_AARCH64 && little:
			return "aarch64", nil
		case f.Machine == elf.EM_X86_64 && little:
			return "x86_64", nil
		}
	}
	kind := elfKind(f.Class, f.Machine)
	if !little {
		kind += " big-endian"
	}
	return "", fmt.Errorf("%s is a %s program: androprof runs %s under qemu-user (use --arch to force one)",
		program, kind, supported)
}

// elfKind names a class and machine as a person says them: "64-bit X86_64".
func elfKind(class elf.Class, machine elf.Machine) string {
	bits := map[elf.Class]string{elf.ELFCLASS32: "32-bit", elf.ELFCLASS64: "64-bit"}[class]
	if bits == "" {
		bits = "unknown-class"
	}
	return bits + " " + strings.TrimPrefix(machine.String(), "EM_")
}

// startsWith says what a file that is not ELF begins with, for the refusal: a script's "#!"
// line, or its first bytes.
func startsWith(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "unreadable"
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case n == 0:
		return "it is empty"
	case bytes.HasPrefix(head, []byte("#!")):
		return "it starts with #!: a script"
	}
	return fmt.Sprintf("it starts with %q", head[:min(n, 4)])
}

// BuildPlugin compiles the embedded plugin with gcc into cacheDir, once per version of its
// source, and returns the shared object's path.
func BuildPlugin(cacheDir string) (string, error) {
	so, err := cbuild.Build(cacheDir, cbuild.Source{Name: "bbcount", Code: pluginSource, Flags: pluginCFlags,
		Headers: map[string][]byte{"cachesim.h": pluginCacheSim}, What: "the QEMU plugin"})
	if errors.Is(err, cbuild.ErrNoGCC) {
		return "", &proc.MissingToolError{Tool: "gcc", Package: "gcc", Purpose: "to build the QEMU plugin"}
	}
	return so, err
}

// Run runs one program under qemu-user with the basic-block plugin and streams every process
// it created (forked children included) into sink, parents first. progress, when not nil,
// hears what is happening in words. Cancelling ctx kills QEMU and its forked children and
// returns a *proc.StoppedError without importing. A guest that exits non-zero or dies of a
// signal gives a *proc.ExitError after its profiles were fed to sink.
func Run(ctx context.Context, opts RunOptions, sink cost.BlockSink, progress func(string)) error {
	say := func(format string, args ...any) {
		if progress != nil {
			progress(fmt.Sprintf(format, args...))
		}
	}
	if opts.Cache != nil { // refused before anything runs: the geometry is the user's words
		if err := opts.Cache.Validate(); err != nil {
			return fmt.Errorf("cache geometry: %w", err)
		}
	}
	name := filepath.Base(opts.Program)
	arch := strings.TrimPrefix(opts.Arch, "qemu-")
	if arch == "" {
		var err error
		if arch, err = GuestArch(opts.Program); err != nil {
			return err
		}
	} else if _, ok := sysroots[arch]; !ok {
		return fmt.Errorf("unknown guest architecture %q: want arm, armeb, mipsel, mips, aarch64 or x86_64", opts.Arch)
	} else if _, err := os.Stat(opts.Program); err != nil {
		return err
	}
	qemuName := "qemu-" + arch
	qemu, err := exec.LookPath(qemuName)
	if err != nil {
		return &proc.MissingToolError{Tool: qemuName, Package: "qemu-user", Purpose: "to run " + name}
	}

	cacheDir := opts.CacheDir
	if cacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return fmt.Errorf("no cache directory for the QEMU plugin: %w", err)
		}
		cacheDir = filepath.Join(base, "androprof")
	}
	say("preparing the QEMU plugin")
	plugin, err := BuildPlugin(cacheDir)
	if err != nil {
		return err
	}

	outDir, err := proc.OutputDir(opts.KeepDir, "androprof-run-")
	if err != nil {
		return fmt.Errorf("directory for the profiles: %w", err)
	}
	defer os.RemoveAll(outDir)

	pluginArgs := plugin + ",outdir=" + strings.ReplaceAll(outDir, ",", ",,")
	if opts.Cache != nil {
		pluginArgs += ",cache=" + pluginCacheArg(*opts.Cache)
	}
	args := []string{"-plugin", pluginArgs}
	root := opts.Sysroot
	if root == "" {
		root = sysrootFor(opts.Program, arch)
	} else if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return fmt.Errorf("sysroot %s is not a folder", root)
	}
	if root != "" {
		args = append(args, "-L", root)
	}
	// Separate debug files of the guest's libraries, as Debian's -dbgsym packages install them.
	debugDirs := []string{"/usr/lib/debug"}
	if root != "" {
		debugDirs = append([]string{filepath.Join(root, "usr", "lib", "debug")}, debugDirs...)
	}
	args = append(append(args, opts.Program), opts.Args...)
	cmd, tail := proc.Wrapped(ctx, append([]string{qemu}, args...), opts.Stdin, opts.Stdout, opts.Stderr)

	say("running %s under %s", name, qemuName)
	runErr := proc.Run(cmd)
	if ctx.Err() != nil {
		return proc.Stopped(ctx, name+" under "+qemuName)
	}
	var exitErr *exec.ExitError
	// ErrWaitDelay: QEMU exited but a forked child still holds its output open; go on.
	if runErr != nil && !errors.As(runErr, &exitErr) && !errors.Is(runErr, exec.ErrWaitDelay) {
		return fmt.Errorf("starting %s: %w", qemuName, runErr)
	}

	files, err := profileFiles(outDir)
	if err != nil {
		return err
	}
	if opts.KeepDir != "" { // kept before reading, so a file the reader refuses can be looked at
		for i, f := range files {
			files[i] = filepath.Join(opts.KeepDir, filepath.Base(f))
			if err := os.Rename(f, files[i]); err != nil {
				return fmt.Errorf("keeping %s: %w", filepath.Base(f), err)
			}
		}
	}
	var modes *ELFModes // nil: the encodings decide; only ARM programs mix two instruction sets
	if arch == "arm" || arch == "armeb" {
		modes, _ = LoadELFModes(opts.Program)
	}
	imported := 0
	for _, f := range files {
		say("reading %s", filepath.Base(f))
		if err := importProfile(ctx, f, profileReading{modes, debugDirs, opts.CacheSource}, sink); err != nil {
			return err
		}
		imported++
	}
	if exitErr != nil && imported == 0 && strings.Contains(tail.LastWith(qemuPrefixes...), "Could not load plugin") {
		return fmt.Errorf("%s could not load the profiling plugin %s: %s", qemuName, plugin, tail.LastWith(qemuPrefixes...))
	}
	if exitErr != nil {
		kept := "no profile was written"
		if imported > 0 {
			kept = fmt.Sprintf("%d process profile(s) were read up to that point", imported)
		}
		return &proc.ExitError{Program: name, Under: qemuName, ExitCode: exitErr.ExitCode(),
			Signal: proc.SignalOf(exitErr.ProcessState), SignalNumber: proc.SignalNumber(exitErr.ProcessState),
			Imported: imported, Detail: tail.LastWith(qemuPrefixes...), Kept: kept, Said: tail.LastLineWithout(qemuPrefixes...)}
	}
	if imported == 0 {
		return fmt.Errorf("%s ran %s but the plugin wrote no profile: %s", qemuName, name, tail.LastLine())
	}
	return nil
}

// sysrootFor gives qemu's -L for a dynamically linked program: the nearest folder above it
// that holds its loader (the root of an extracted package tree, whose libraries sit beside
// the loader), else a Debian cross sysroot that does. QEMU_LD_PREFIX, when set, wins.
func sysrootFor(program, arch string) string {
	interp := elfsym.Interp(program)
	if os.Getenv("QEMU_LD_PREFIX") != "" || interp == "" {
		return ""
	}
	abs, err := filepath.Abs(program)
	if err != nil {
		return ""
	}
	for dir := filepath.Dir(abs); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, interp)); err == nil {
			return dir
		}
	}
	for _, root := range sysroots[arch] {
		if _, err := os.Stat(filepath.Join(root, interp)); err == nil {
			return root
		}
	}
	return ""
}

// profileFiles lists the plugin's files, every parent before its children (the first process
// first). Pids wrap around, so a child's pid may be lower than its parent's: the order comes from
// each file's process line (docs/bbprofile-format.md), then the pid.
func profileFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	type pf struct {
		pid, ppid int
		path      string
	}
	var fs []pf
	byPID := map[int]int{} // pid → its parent, for the processes of this run
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, "bbprofile-") || !strings.HasSuffix(n, ".txt") {
			continue
		}
		path := filepath.Join(dir, n)
		pid, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(n, "bbprofile-"), ".txt"))
		ppid := parentPID(path)
		fs = append(fs, pf{pid, ppid, path})
		byPID[pid] = ppid
	}
	depth := func(pid int) int { // generations below the first process
		d := 0
		for p, ok := byPID[pid]; ok && d <= len(byPID); p, ok = byPID[p] {
			d++
		}
		return d
	}
	sort.Slice(fs, func(i, j int) bool {
		if di, dj := depth(fs[i].pid), depth(fs[j].pid); di != dj {
			return di < dj
		}
		return fs[i].pid < fs[j].pid
	})
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.path
	}
	return out, nil
}

// parentPID reads the parent pid from a profile's process line ("process PID PPID ..."), 0 when
// the file has none (the reader will say what is wrong with it).
func parentPID(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 0; i < 2 && sc.Scan(); i++ {
		if fields := strings.Fields(sc.Text()); len(fields) >= 3 && fields[0] == "process" {
			ppid, _ := strconv.Atoi(fields[2])
			return ppid
		}
	}
	return 0
}

// pluginCacheArg is a validated geometry as the plugin's cache= argument:
// l1i:SIZE:WAYS:LINE:REPLACEMENT:wa|nwa;l1d:…;l2:…[;l3:…], sizes in bytes. QEMU splits plugin
// arguments at commas, so levels are separated by semicolons.
func pluginCacheArg(g cost.CacheGeometry) string {
	parts := make([]string, len(g.Levels))
	for i, l := range g.Levels {
		wa := "wa"
		if !l.WriteAllocate {
			wa = "nwa"
		}
		parts[i] = fmt.Sprintf("%s:%d:%d:%d:%s:%s", l.Name, l.SizeBytes, l.Ways, l.LineBytes, l.Replacement, wa)
	}
	return strings.Join(parts, ";")
}

// profileReading is what the reader of a run's profiles is told beyond the file.
type profileReading struct {
	modes          *ELFModes // nil: the encodings decide ARM or Thumb
	debugDirs      []string
	geometrySource string // where the run's cache geometry came from
}

func importProfile(ctx context.Context, path string, how profileReading, sink cost.BlockSink) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	// The plugin writes a file whole at the process's end; an empty one was opened by a process
	// that died before its first write: QEMU itself, whose own words precede this.
	if st, err := f.Stat(); err == nil && st.Size() == 0 {
		return fmt.Errorf("%s is empty: its process died while the plugin was writing it (QEMU itself failed)", path)
	}
	br := bbprofile.NewReader(&countio.Reader{R: f, Progress: countio.NewProgress(ctx, nil)}, path)
	br.DebugDirs = how.debugDirs
	br.GeometrySource = how.geometrySource
	if modes := how.modes; modes != nil {
		br.ModeAt = func(p *bbprofile.Process, pc uint64) (cost.ISA, bool) { return modes.ModeAt(p.StartCode, pc) }
	}
	if err := br.Feed(sink); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	return nil
}

// qemuPrefixes start QEMU's and the plugin's own words ("qemu: uncaught target signal 11 ..."),
// not the guest's.
var qemuPrefixes = []string{"qemu", "bbcount plugin"}
