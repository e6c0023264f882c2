package controller

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"androprof/emulator"
	"androprof/formats"
	"androprof/internal/countio"
	"androprof/internal/lockwait"
	"androprof/internal/proc"
	"androprof/internal/termtext"
	"androprof/model"
	"androprof/model/cost"
)

// Importer brings emulator traces into the workspace: files of any supported format, or a
// program run under QEMU with the counting plugin. Each import is one transaction.
type Importer struct {
	Cohort    uint64           // bytes of allocation per cohort for heap logs; 0: model.DefaultCohort
	MethodLog MethodLogOptions // for DPA and RMP logs
	Samples   SampleOptions    // for sampled recordings (perf script, simpleperf)
	// WeakRetains counts weak, soft, phantom and finalizer referents as retained by their
	// references in heap dumps' retained sizes.
	WeakRetains bool
	Mutations   bool       // RunJava logs every reference store (figure 5.22; jvm.RunOptions.Mutations)
	ISAs        []cost.ISA // what log text without encodings is (nil: decided from the logs)
	Arch        string     // guest for RunProgram ("arm", "mipsel", …); "" reads the ELF header
	CacheDir    string     // where the plugin is built; "" for the user's cache directory
	KeepDir     string     // keep the plugin's raw files here; "" to discard them
	Stdout      io.Writer  // the program's output during RunProgram; nil discards it
	Stderr      io.Writer  // the program's error output during RunProgram; nil: Stdout
	Stdin       io.Reader  // the program's input during RunProgram; nil: none (/dev/null)
	Sysroot     string     // RunProgram's guest loader and libraries (emulator.RunOptions.Sysroot)
	// Cache, when set, has RunProgram simulate this hierarchy's misses per block (nil: counts
	// only); CacheSource says where it came from ("profile cortex-a8", "--cache"), stored with
	// the run so the window can say which geometry its misses are for.
	Cache       *cost.CacheGeometry
	CacheSource string
	Say         func(msg string) // what an import waits for (a FIFO without a writer); nil says nothing

	store  WorkspaceStore
	forget func(run string) // the workspace's: drops what the analyses cached of a run
	source string           // the imported runs' source as people know it; "" names the files read
}

// sourceOr is the source recorded for a run imported from files: im.source, else files.
func (im Importer) sourceOr(files string) string {
	if im.source != "" {
		return im.source
	}
	return files
}

// WorkspaceStore is the database as imports need it: emulator runs and method traces.
type WorkspaceStore interface {
	RunStore
	MethodStore
	HeapStore
	SampleStore
}

// MethodLogOptions choose what of a DPA or RMP log is imported (Traceview ignores them).
type MethodLogOptions = formats.MethodOptions

// SayWaits is ctx telling say when an import into it waits for another writer of the
// workspace (another androprof, the window, sqlite3): the window's progress dialog says it.
func SayWaits(ctx context.Context, say func(msg string)) context.Context {
	return lockwait.WithSay(ctx, say)
}

// ImportFiles imports files or directories into run: QEMU logs are read together (a
// translation log and an exec log may be separate files), basic-block profiles one by one, and
// a method trace (Traceview, DPA, RMP), a heap log, an HPROF dump or a sampled recording (perf
// script) becomes a run of its own.
// Each file is opened once and recognised once (package formats); progress counts the bytes
// of them all, and cancelling ctx stops the read.
func (im Importer) ImportFiles(ctx context.Context, run string, paths []string, progress func(done, total int64)) error {
	if len(paths) == 0 {
		return errors.New("nothing to import")
	}
	defer im.forget(run) // whatever the analyses cached of run is stale once anything was written
	// The store says through ctx when it waits for another writer.
	ctx = lockwait.WithSay(ctx, im.Say)
	p := countio.NewProgress(ctx, progress)
	var ins []*formats.Input
	for _, path := range paths {
		files, err := formats.ExpandDirs([]string{path})
		if err != nil {
			return err
		}
		first := len(ins)
		for _, name := range files {
			f, err := im.open(ctx, name)
			if err != nil {
				return err
			}
			defer f.Close()
			in, err := formats.Recognize(f, p)
			if err != nil {
				return stopped(ctx, err)
			}
			if d := ins[first:]; len(d) > 0 && in.Format != d[0].Format {
				return fmt.Errorf("%s is %s but %s is %s: import them separately", in.Name, in.Format.Name, d[0].Name, d[0].Format.Name)
			}
			ins = append(ins, in)
		}
	}
	// A method trace, heap log, dump or sampled recording is a run of its own (alone, or alone
	// in its folder); emulator files import together.
	if slices.ContainsFunc(ins, func(in *formats.Input) bool { return in.Format.Kind != model.RunKindEmulator }) {
		if len(ins) > 1 {
			return errMixed
		}
		return stopped(ctx, im.importRun(ctx, run, im.sourceOr("import "+ins[0].Name), ins[0], p))
	}
	err := im.store.ImportRun(ctx, run, im.sourceOr("import "+strings.Join(paths, " ")), func(sink cost.BlockSink) error {
		for _, f := range formats.All { // each format's files together, in the registry's order
			var group []*formats.Input
			for _, in := range ins {
				if in.Format == f {
					group = append(group, in)
				}
			}
			if len(group) > 0 {
				if err := f.ReadBlocks(group, im.options(), sink); err != nil {
					return err
				}
			}
		}
		p.Finish()
		return nil
	})
	return stopped(ctx, err)
}

// open opens a file to import. Opening a FIFO waits until something writes to it: the wait is
// said (im.Say), and cancelling ctx ends it.
func (im Importer) open(ctx context.Context, name string) (*os.File, error) {
	st, err := os.Stat(name)
	if err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		return os.Open(name)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(name)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-time.After(fifoPatience):
	}
	if im.Say != nil {
		im.Say(fmt.Sprintf("%s is a FIFO: waiting for a program to write to it (cancel to stop)", name))
	}
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
		// Opening the FIFO for writing lets the waiting open return; nothing is written. The
		// reader's open may not have reached the kernel yet (a loaded machine), and a writer
		// without a reader is refused, so it is tried until the reader has returned.
		for {
			if w, err := os.OpenFile(name, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			select {
			case o := <-done:
				if o.f != nil {
					o.f.Close()
				}
				return nil, ctx.Err()
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
}

// fifoPatience is how long opening a FIFO may wait before the wait is said: a writer that is
// already there connects at once.
const fifoPatience = 300 * time.Millisecond

var errMixed = errors.New("a method trace, heap log, heap dump or sampled recording is imported on its own, into a run of its own")

// stopped is err, or ctx's error when the import stopped because ctx was cancelled: the
// readers report it as a failed read of their file.
func stopped(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

func (im Importer) options() formats.Options {
	return formats.Options{ISAs: im.ISAs, Method: im.MethodLog, WeakRetains: im.WeakRetains}
}

// importRun imports one file that makes a run of its own: a method trace, a heap log, a dump or
// a sampled recording.
func (im Importer) importRun(ctx context.Context, run, source string, in *formats.Input, p *countio.Progress) error {
	if read, ok := runImports[in.Format.Kind]; ok {
		return read(im, ctx, run, source, in, p)
	}
	return fmt.Errorf("%s: %s files cannot be imported", in.Name, in.Format.Name)
}

// runImports is how a file of each kind that makes a run of its own is imported: the one
// place the importer tells kinds apart (emulator files import together, in ImportFiles).
var runImports = map[model.RunKind]func(im Importer, ctx context.Context, run, source string, in *formats.Input, p *countio.Progress) error{
	model.RunKindMethods:  Importer.importMethodTrace,
	model.RunKindHeap:     Importer.importHeap,
	model.RunKindHeapDump: Importer.importHeap,
	model.RunKindSamples:  Importer.importSamples,
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// RunProgram runs a guest program under QEMU with the counting plugin and imports what it
// counted into run. A program that exits non-zero or dies of a signal is still imported (its
// counts up to the end are real), and the *proc.ExitError is returned after the
// import so the caller can say so.
func (im Importer) RunProgram(ctx context.Context, run, program string, args []string, progress func(msg string)) error {
	if im.Cache != nil { // refused before QEMU starts and before the store is touched
		if err := im.Cache.Validate(); err != nil {
			return fmt.Errorf("cache geometry: %w", err)
		}
	}
	var exitErr *proc.ExitError
	opts := emulator.RunOptions{Program: program, Args: args, Arch: im.Arch, KeepDir: im.KeepDir, CacheDir: im.CacheDir,
		Sysroot: im.Sysroot, Stdin: im.Stdin, Stdout: im.Stdout, Stderr: im.Stderr, Cache: im.Cache, CacheSource: im.CacheSource}
	if opts.Stderr == nil {
		opts.Stderr = im.Stdout
	}
	source := "run " + filepath.Base(program) + " " + strings.Join(args, " ")
	ctx = lockwait.WithSay(ctx, progress) // the store says when it waits for another writer
	err := im.store.ImportRun(ctx, run, strings.TrimSpace(source), func(sink cost.BlockSink) error {
		err := emulator.Run(ctx, opts, sink, progress)
		if errors.As(err, &exitErr) && exitErr.Imported > 0 {
			return nil // keep what was counted; report the exit below
		}
		return err
	})
	im.forget(run)
	if err != nil {
		return err
	}
	if exitErr != nil {
		return exitErr
	}
	return nil
}

// DemoRun is a run that ships with the binary.
type DemoRun interface {
	Open() (io.ReadCloser, error)
	File() string // the file's name, e.g. "demo-methods.trace"
}

// demoSource is a demo run's source as the runs list shows it: the file a user can find in
// assets/demo, not the temporary copy it was imported from.
func demoSource(d DemoRun) string { return "demo: " + d.File() + " (built in)" }

// ImportDemo imports the demo runs that the workspace does not have yet, so a first start and
// the screenshot tour (cmd/tour) show real data. It returns the names it imported.
func (im Importer) ImportDemo(ctx context.Context, demos map[string]DemoRun) ([]string, error) {
	have, err := im.store.Runs(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for name := range demos {
		if !slices.ContainsFunc(have, func(r model.RunInfo) bool { return r.Name == name }) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		if err := im.importDemoFile(ctx, name, demos[name]); err != nil {
			return nil, fmt.Errorf("demo run %s: %w", name, err)
		}
	}
	return names, nil
}

// importDemoFile imports a demo run through the same path as a file the user picks.
func (im Importer) importDemoFile(ctx context.Context, name string, d DemoRun) error {
	r, err := d.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	dir, err := os.MkdirTemp("", "androprof-demo")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	im.source = demoSource(d)
	return im.ImportFiles(ctx, name, []string{path}, nil)
}

// RunNameOf is the run name an imported file suggests, the same in the window and on the
// command line: its name without a .gz and without its own extension (x.trace.gz: x), or "run".
// Any file name gives a name model.CheckRunName takes, so no import is refused for the name it
// was not given: control characters and broken bytes are written as escapes (a\nb: `a\nb`),
// spaces around it trimmed, and a name longer than model.MaxRunName cut.
func RunNameOf(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".gz")
	base = strings.TrimSpace(termtext.Escape(strings.TrimSuffix(base, filepath.Ext(base))))
	if len(base) > model.MaxRunName {
		base = strings.TrimSpace(strings.ToValidUTF8(base[:model.MaxRunName], "")) // no half letter at the cut
	}
	if base == "" || base == "." || base == string(filepath.Separator) {
		return "run"
	}
	return base
}

// ProgramISA is the instruction set a guest program starts in, from arch ("arm", "mipsel", …)
// or else its ELF header: what picks the default profile (and so the cache geometry) of a run
// before it has executed anything. ARM programs are ARM, whatever Thumb code they run.
func ProgramISA(program, arch string) (cost.ISA, error) {
	if arch == "" {
		var err error
		if arch, err = emulator.GuestArch(program); err != nil {
			return "", err
		}
	}
	switch strings.TrimPrefix(strings.ToLower(arch), "qemu-") {
	case "arm", "armeb":
		return cost.ARM, nil
	case "mips", "mipsel":
		return cost.MIPS, nil
	case "aarch64", "arm64":
		return cost.AArch64, nil
	case "x86_64", "amd64":
		return cost.X86_64, nil
	}
	return "", fmt.Errorf("unknown guest %q (want arm, armeb, mipsel, mips, aarch64 or x86_64)", arch)
}
