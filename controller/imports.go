package controller

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"androprof/emulator"
	"androprof/internal/proc"
	"androprof/model"
)

// Importer brings emulator traces into the workspace: files of any supported format, or a
// program run under QEMU with the counting plugin. Each import is one transaction.
type Importer struct {
	Store     WorkspaceStore
	Methods   *MethodAnalysis  // cached method traces to forget after an import; may be nil
	Heap      *HeapAnalysis    // cached heap runs to forget after an import; may be nil
	Cohort    uint64           // bytes of allocation per cohort for heap logs; 0: model.DefaultCohort
	MethodLog MethodLogOptions // for DPA and RMP logs
	Analysis  *Analysis        // cached runs to forget after an import; may be nil
	ISAs      []model.ISA      // what log text without encodings is (nil: decided from the logs)
	Arch      string           // guest for RunProgram ("arm", "mipsel", …); "" reads the ELF header
	CacheDir  string           // where the plugin is built; "" for the user's cache directory
	KeepDir   string           // keep the plugin's raw files here; "" to discard them
	Stdout    io.Writer        // the program's output during RunProgram; nil discards it

	source string // the imported runs' source as people know it; "" names the files read
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
}

// ImportFiles imports files or directories into run: QEMU logs are read together (a
// translation log and an exec log may be separate files), basic-block profiles one by one, and
// a method trace (Traceview, DPA, RMP), a heap log or an HPROF dump becomes a run of its own.
func (im Importer) ImportFiles(ctx context.Context, run string, paths []string, progress func(done, total int64)) error {
	if len(paths) == 0 {
		return errors.New("nothing to import")
	}
	if st, err := os.Stat(paths[0]); err == nil && !st.IsDir() {
		heap, err := heapFormat(paths[0])
		if err != nil {
			return err
		}
		if heap != "" {
			if len(paths) > 1 {
				return errMixed
			}
			return im.importHeap(ctx, run, paths[0], heap, progress)
		}
		format, err := methodFormat(paths[0])
		if err != nil {
			return err
		}
		if format >= 0 {
			if len(paths) > 1 {
				return errMixed
			}
			return im.importMethodTrace(ctx, run, paths[0], format, progress)
		}
	}
	var logs, profiles []string
	for _, p := range paths {
		f, err := emulator.DetectFormat(p)
		if err != nil {
			return err
		}
		switch f {
		case emulator.FormatQEMULog:
			logs = append(logs, p)
		case emulator.FormatBBProfile:
			profiles = append(profiles, p)
		default:
			return fmt.Errorf("%s: %s files cannot be imported as emulator runs", p, f)
		}
	}
	total := totalSize(profiles)
	err := im.Store.ImportRun(ctx, run, im.sourceOr("import "+strings.Join(paths, " ")), func(sink model.BlockSink) error {
		var done int64
		for _, p := range profiles {
			if err := readBBProfile(ctx, p, sink, func(n int64) {
				if progress != nil {
					progress(done+n, total)
				}
			}); err != nil {
				return err
			}
			done += fileSize(p)
		}
		if len(logs) == 0 {
			return nil
		}
		return emulator.ImportLogs(ctx, logs, im.ISAs, sink, progress)
	})
	im.forget(run)
	return err
}

func (im Importer) forget(run string) {
	if im.Analysis != nil {
		im.Analysis.Forget(run)
	}
}

func readBBProfile(ctx context.Context, path string, sink model.BlockSink, progress func(int64)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	cr := &emulator.CountingReader{R: f}
	return emulator.ReadBBProfile(cr, path, &progressSink{BlockSink: sink, ctx: ctx, read: cr, report: progress})
}

// progressSink reports bytes read and notices cancellation while a reader feeds the store.
type progressSink struct {
	model.BlockSink
	ctx    context.Context
	read   *emulator.CountingReader
	report func(int64)
	n      int
}

func (p *progressSink) Block(pid int, b *model.Block) error {
	p.n++
	if p.n%1024 == 0 {
		if err := p.ctx.Err(); err != nil {
			return err
		}
		if p.report != nil {
			p.report(p.read.N)
		}
	}
	return p.BlockSink.Block(pid, b)
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

func totalSize(paths []string) int64 {
	var n int64
	for _, p := range paths {
		n += fileSize(p)
	}
	return n
}

// RunProgram runs a guest program under QEMU with the counting plugin and imports what it
// counted into run. A program that exits non-zero or dies of a signal is still imported (its
// counts up to the end are real), and the *proc.ExitError is returned after the
// import so the caller can say so.
func (im Importer) RunProgram(ctx context.Context, run, program string, args []string, progress func(msg string)) error {
	var exitErr *proc.ExitError
	opts := emulator.RunOptions{Program: program, Args: args, Arch: im.Arch, KeepDir: im.KeepDir, CacheDir: im.CacheDir}
	if im.Stdout != nil {
		opts.Stdout, opts.Stderr = im.Stdout, im.Stdout
	}
	source := "run " + filepath.Base(program) + " " + strings.Join(args, " ")
	err := im.Store.ImportRun(ctx, run, strings.TrimSpace(source), func(sink model.BlockSink) error {
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
	IsBBProfile() bool // else a file imported by format detection
	File() string      // the file's name, e.g. "demo-methods.trace"
}

// demoSource is a demo run's source as the runs list shows it: the file a user can find in
// assets/demo, not the temporary copy it was imported from.
func demoSource(d DemoRun) string { return "demo: " + d.File() + " (built in)" }

// ImportDemo imports the demo runs that the workspace does not have yet, so a first start and
// `androprof screenshot` show real data. It returns the names it imported.
func (im Importer) ImportDemo(ctx context.Context, demos map[string]DemoRun) ([]string, error) {
	have, err := im.Store.Runs(ctx)
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
		if !demos[name].IsBBProfile() {
			if err := im.importDemoFile(ctx, name, demos[name]); err != nil {
				return nil, fmt.Errorf("demo run %s: %w", name, err)
			}
			continue
		}
		err := im.Store.ImportRun(ctx, name, demoSource(demos[name]), func(sink model.BlockSink) error {
			r, err := demos[name].Open()
			if err != nil {
				return err
			}
			defer r.Close()
			return emulator.ReadBBProfile(r, name, sink)
		})
		if err != nil {
			return nil, fmt.Errorf("demo run %s: %w", name, err)
		}
		im.forget(name)
	}
	return names, nil
}

// importDemoFile imports a demo trace, heap log or dump through the same path as a file the
// user picks.
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
