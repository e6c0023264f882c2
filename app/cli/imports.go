package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/proc"
	"androprof/internal/termtext"
	"androprof/model"
	"androprof/model/calls"
	"androprof/model/cost"
)

// progressPrinter prints "what: N%" to stderr at most every half second, so a long import on a
// terminal shows it is alive without flooding a log.
func progressPrinter(env Env, what string) func(done, total int64) {
	var last time.Time
	return func(done, total int64) {
		if total < 1<<20 || time.Since(last) < 500*time.Millisecond { // small files need no progress
			return
		}
		last = time.Now()
		fmt.Fprintf(env.Stderr, "%s: %d%% (%d of %d MB)\n", what, done*100/total, done>>20, total>>20)
	}
}

// archISAs turns --arch into what log text without encodings is.
func archISAs(arch string) ([]cost.ISA, error) {
	switch strings.ToLower(arch) {
	case "":
		return nil, nil
	case "arm", "armeb":
		return []cost.ISA{cost.ARM, cost.Thumb}, nil
	case "mips", "mipsel":
		return []cost.ISA{cost.MIPS}, nil
	case "aarch64", "arm64":
		return []cost.ISA{cost.AArch64}, nil
	case "x86_64", "amd64":
		return []cost.ISA{cost.X86_64}, nil
	}
	return nil, fmt.Errorf("%w: --arch %q: want arm, mips, aarch64 or x86_64", errUsage, arch)
}

func runImport(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("import", env)
	run := fs.String("run", "", "run `NAME` (default: the first file's name)")
	arch := fs.String("arch", "", "`arm|mips|aarch64|x86_64`: the guest of logs that print no encodings")
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	var mlog controller.MethodLogOptions
	fs.BoolVar(&mlog.Measured, "measured", false, "DPA/RMP: keep times as measured, without the overhead deduction")
	fs.IntVar(&mlog.PID, "pid", 0, "DPA: the process `PID` to import (default: the first)")
	fs.IntVar(&mlog.Round, "round", 0, "RMP: the profiling round `N` to import (default: the first)")
	area := fs.String("area", "", "RMP: only this resolution: `process|thread|method|loop`")
	callers := fs.String("callers", "", "RMP zoom-in: only what these `CALLER,...` call, directly or not")
	var cohort cohortFlag
	fs.Var(&cohort, "cohort", "heap logs: bytes of allocation per cohort, e.g. `256K` (default 256K)")
	weak := fs.Bool("weak-retains", false, "heap dumps: weak, soft, phantom and finalizer references retain their referents")
	var target targetFlags
	target.addRecording(fs)
	var jobs jobsFlag
	fs.Var(&jobs, "jobs", "`N|all`: every file (a folder's QEMU logs together) a run of its own, N read at once (all: one per core); the failures are listed at the end")
	paths, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return fmt.Errorf("%w: import takes FILE or DIRECTORY...", errUsage)
	}
	if *area != "" || *callers != "" {
		a := &calls.ProfilingArea{}
		if *area != "" {
			if a.Resolution, err = calls.ParseProbeResolution(*area); err != nil {
				return fmt.Errorf("%w: --area: %v", errUsage, err)
			}
		}
		if *callers != "" {
			a.Callers = strings.Split(*callers, ",")
		}
		mlog.Area = a
	}
	isas, err := archISAs(*arch)
	if err != nil {
		return err
	}
	samples, err := target.recording()
	if err != nil {
		return err
	}
	if jobs.set {
		if err := batchRefuses(*run); err != nil {
			return err
		}
	} else if *run == "" {
		*run = controller.RunNameOf(paths[0])
	}
	ws, err := openDB(env, *dbPath, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	im := ws.Importer()
	im.ISAs = isas
	im.MethodLog = mlog
	im.Cohort = cohort.bytes
	im.WeakRetains = *weak
	im.Samples = samples
	im.Say = func(msg string) { fmt.Fprintln(env.Stderr, "androprof:", printable(msg, "")) }
	if jobs.set {
		return batchImport(ctx, im, paths, jobs.n, *asJSON, env)
	}
	if err := im.ImportFiles(ctx, *run, paths, progressPrinter(env, "importing")); err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("import into run %s cancelled, the workspace is unchanged", runText(*run))
		}
		return fmt.Errorf("import into run %s failed, the workspace is unchanged: %w", runText(*run), err)
	}
	return printStored(ctx, ws, *run, *asJSON, env)
}

// printStored says what a run holds once its import is committed.
func printStored(ctx context.Context, ws *controller.Workspace, run string, asJSON bool, env Env) error {
	after, said := stored(ctx, run, env)
	defer said()
	return printRun(after, ws, run, asJSON, env)
}

// stored is the context for what a command does after its run was committed, and what it says
// at its end. A Ctrl-C after the commit undoes nothing, so it is no failure: the summary is
// still read (not cancelled midway), and the command then says the run is complete.
func stored(ctx context.Context, run string, env Env) (context.Context, func()) {
	return context.WithoutCancel(ctx), func() {
		if ctx.Err() != nil {
			fmt.Fprintf(env.Stderr, "androprof: interrupted after run %q was stored; it is complete\n", run)
		}
	}
}

// reportHint is the command that reports run, with args, to show after an import: the name
// quoted for a POSIX shell, so pasting it runs nothing the name holds (a run is named after
// its file by default, and a file may be named "$(rm -rf ~).trace").
func reportHint(run string, args ...string) string {
	return strings.Join(append([]string{"androprof report --run", termtext.Shell(run)}, args...), " ")
}

// runText is a run name as messages quote it: cut, so a refused name of 10 KB is not echoed
// whole, and Go-quoted, so nothing in it acts on the terminal.
func runText(run string) string { return strconv.Quote(termtext.Cut(run, 80)) }

// printRun says what a run now holds.
func printRun(ctx context.Context, ws *controller.Workspace, run string, asJSON bool, env Env) error {
	runs, err := ws.Runs(ctx)
	if err != nil {
		return err
	}
	for _, r := range runs {
		if r.Name != run {
			continue
		}
		k, err := kindOf(run, r.Kind)
		if err != nil {
			return err
		}
		return k.stored(ctx, ws, r, asJSON, env)
	}
	return fmt.Errorf("run %q: %w", run, cost.ErrNotFound)
}

// printEmulatorRun says what an emulator run holds once stored.
func printEmulatorRun(ctx context.Context, ws *controller.Workspace, r model.RunInfo, asJSON bool, env Env) error {
	if asJSON {
		return writeRunInfoJSON(r, env)
	}
	_, err := fmt.Fprintf(env.Stdout, "run %q: %s, %s, %s executed\n", r.Name, human.Count(r.Processes, "process", "processes"),
		human.Count(r.Blocks, "block", "blocks"), human.Count(r.Instructions, "instruction", "instructions"))
	return err
}

// printMethodRun says that a method trace was stored, and how to report it.
func printMethodRun(ctx context.Context, ws *controller.Workspace, r model.RunInfo, asJSON bool, env Env) error {
	if asJSON {
		return writeRunInfoJSON(r, env)
	}
	_, err := fmt.Fprintf(env.Stdout, "run %q: a method trace (%s)\n", r.Name, reportHint(r.Name, "--by", "method"))
	return err
}

// writeRunInfoJSON is what import --json says of a run whose kind adds nothing to its counts.
func writeRunInfoJSON(r model.RunInfo, env Env) error {
	return writeJSON(env.Stdout, map[string]any{"run": r.Name, "kind": r.Kind, "processes": r.Processes, "blocks": r.Blocks, "instructions": r.Instructions})
}

func runProgram(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("run", env)
	run := fs.String("run", "", "run `NAME` to create or add to (default: the program's name)")
	profile := fs.String("profile", "", "profile `NAME|FILE` for the summary printed afterwards (and the hierarchy of a bare --cache)")
	keep := fs.String("keep", "", "keep the plugin's raw basic-block profiles in `DIR`")
	arch := fs.String("arch", "", "guest `arm|armeb|mipsel|mips|aarch64|x86_64` (default: from the ELF header)")
	sysroot := fs.String("sysroot", "", "guest loader and libraries in `DIR` (qemu -L; default: a folder above the program holding its loader, else the Debian cross sysroot)")
	var cache cacheFlag
	fs.Var(&cache, "cache", "simulate caches: bare, the profile's hierarchy (--profile's, else the default for the program's instruction set); `=l1i=32k:4:64,l1d=32k:4:64,l2=512k:8:64[,l3=…]` by hand (LEVEL=SIZE:WAYS:LINE[:lru|plru|random|round-robin][:wa|nwa])")
	var wf wrapperFlags
	wf.add(fs)
	prog, err := parseCommand(fs, args)
	if err != nil {
		return err
	}
	if prog, err = cache.takeSpec(prog); err != nil {
		return err
	}
	if len(prog) == 0 {
		return fmt.Errorf("%w: run takes -- PROGRAM [ARGS...]", errUsage)
	}
	if *arch != "" {
		if _, err := archISAs(*arch); err != nil {
			return err
		}
	}
	if *run == "" {
		*run = filepath.Base(prog[0])
	}
	ws, err := openDB(env, *dbPath, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	// A wrapper, as time and perf record are: the program has the user's standard input, output
	// and error, and its exit status is the command's; the workbench speaks on standard error.
	im := ws.Importer()
	if im.Cache, im.CacheSource, err = cache.geometry(ctx, ws.Profiles, *profile, prog[0], *arch); err != nil {
		return err
	}
	im.KeepDir, im.Arch, im.Sysroot = *keep, *arch, *sysroot
	im.Stdin, im.Stdout, im.Stderr = env.Stdin, env.Stdout, env.Stderr
	say := func(msg string) { fmt.Fprintln(env.Stderr, "androprof:", msg) }
	if wf.quiet {
		say = nil
	}
	err = stopped(ctx, im.RunProgram(ctx, *run, prog[0], prog[1:], say), filepath.Base(prog[0]))
	var exitErr *proc.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return err
	}
	status := 0
	if exitErr != nil {
		status = exitErr.Status()
		if !wf.quiet {
			fmt.Fprintf(env.Stderr, "androprof: %v; what it executed until then was imported\n", exitErr)
		}
	}
	if wf.silent() {
		return exitStatus(status)
	}
	ctx, said := stored(ctx, *run, env)
	defer said()
	if err := writeRunSummary(ctx, ws, *run, *profile, wf.summary, wf.asJSON, env); err != nil {
		return err
	}
	return exitStatus(status)
}

// exitStatus is the program's exit status as the command's.
func exitStatus(status int) error {
	if status == 0 {
		return nil
	}
	return &exitError{code: status, err: errors.New("")} // the program had its say
}

// writeRunSummary prices the run per process and writes it to file, or to standard error.
func writeRunSummary(ctx context.Context, ws *controller.Workspace, run, profile, file string, asJSON bool, env Env) error {
	costs := ws.Costs
	p, err := pricingProfile(ctx, ws.Profiles, costs, profile, run, 0)
	if err != nil {
		return err
	}
	rep, err := costs.Report(ctx, cost.ReportOptions{Run: run, Profile: p, By: cost.ByPID})
	if err != nil {
		return err
	}
	return toSummary(file, env, func(w io.Writer) error { return writeSummary(w, rep, asJSON) })
}

// wrapperFlags are those of the commands that run a program as a wrapper does (run, vertical):
// what the workbench says on standard error, and where its summary goes.
type wrapperFlags struct {
	quiet   bool
	summary string
	asJSON  bool
}

func (w *wrapperFlags) add(fs *flag.FlagSet) {
	fs.BoolVar(&w.quiet, "quiet", false, "say nothing but errors: no progress, no summary")
	fs.StringVar(&w.summary, "summary", "", "write the summary to `FILE` instead of standard error")
	fs.BoolVar(&w.asJSON, "json", false, "write the summary as JSON for scripts")
}

// silent says nothing is to be written after the program: quiet, and no summary file.
func (w *wrapperFlags) silent() bool { return w.quiet && w.summary == "" }

// toSummary has write write a wrapper's summary to file, or to standard error when file is "":
// standard output is the program's.
func toSummary(file string, env Env, write func(io.Writer) error) error {
	if file == "" {
		return write(env.Stderr)
	}
	return writeOut(file, env, write)
}

// writeSummary writes a cost report as text, or as JSON for scripts.
func writeSummary(w io.Writer, rep *cost.Report, asJSON bool) error {
	if asJSON {
		return writeJSON(w, reportJSON(rep))
	}
	return writeReportText(w, rep)
}

// defaultProfile is the profile a run (or its process pid) is priced with when no --profile
// is given: the window's, by the one rule (controller.Profiles.DefaultProfile) for the
// instruction set it executed most, so the summary, report and the window agree.
func defaultProfile(ctx context.Context, profiles controller.Profiles, a *controller.Analysis, run string, pid int) (*cost.Profile, error) {
	d, err := a.Load(ctx, run)
	if err != nil {
		return nil, err
	}
	return defaultFor(ctx, profiles, d.MainISA(pid))
}

// defaultFor is the window's default profile for isa, among every profile there is.
func defaultFor(ctx context.Context, profiles controller.Profiles, isa cost.ISA) (*cost.Profile, error) {
	infos, err := profiles.List(ctx)
	if err != nil {
		return nil, err
	}
	return profiles.Default(ctx, infos, isa)
}

func runDemo(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("demo", env)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	ws, err := openDB(env, *dbPath, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	names, err := ws.Importer().ImportDemo(ctx, env.Demos)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		fmt.Fprintln(env.Stdout, "the workspace has the demo runs already")
	}
	for _, n := range names {
		if err := printRun(ctx, ws, n, false, env); err != nil {
			return err
		}
	}
	return nil
}
