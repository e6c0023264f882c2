package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"androprof/jvm"
)

// runVertical records a Java program under perf with the perf map agent and imports its samples
// as a vertical profile (seed 004). A wrapper, as perf record is: the program has the user's
// standard input, output and error and its exit status is the command's; the workbench speaks
// on standard error.
func runVertical(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("vertical", env)
	run := fs.String("run", "", "run `NAME` (default: the main class or jar)")
	rate := fs.Int("rate", 1000, "samples per second per thread (`HZ`)")
	callGraph := fs.String("call-graph", "fp", "call stacks by frame pointers or DWARF unwinding: `fp|dwarf`")
	keep := fs.String("keep", "", "keep perf.data, perf.script and the JIT map perf-PID.map in `DIR`")
	var wf wrapperFlags
	wf.add(fs)
	var target targetFlags
	target.addRecording(fs)
	argv, err := parseCommand(fs, args)
	if err != nil {
		return err
	}
	if len(argv) == 0 {
		return fmt.Errorf("%w: vertical takes -- java [ARGS...]", errUsage)
	}
	cg := jvm.CallGraph(*callGraph)
	if cg != jvm.CallGraphFP && cg != jvm.CallGraphDWARF {
		return fmt.Errorf("%w: --call-graph %q: want fp or dwarf", errUsage, *callGraph)
	}
	if *rate <= 0 {
		return fmt.Errorf("%w: --rate %d: want samples per second, e.g. 1000", errUsage, *rate)
	}
	samples, err := target.recording()
	if err != nil {
		return err
	}
	java, jargs, err := jvm.Command(argv)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *run == "" {
		*run = javaRunName(argv)
	}
	ws, err := openDB(env, *dbPath, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	im := ws.Importer()
	im.KeepDir, im.Samples = *keep, samples
	im.Stdin, im.Stdout, im.Stderr = env.Stdin, env.Stdout, env.Stderr
	say := func(msg string) { fmt.Fprintln(env.Stderr, "androprof:", printable(msg, "")) }
	if wf.quiet {
		say = nil
	}
	rec, err := im.RecordVertical(ctx, *run, jvm.VerticalOptions{Java: java, Args: jargs, RateHz: *rate, CallGraph: cg}, say)
	if err != nil {
		if rec == nil || errors.Is(err, context.Canceled) {
			return stopped(ctx, err, "perf and java")
		}
		return fmt.Errorf("import into run %s failed, the workspace is unchanged: %w", runText(*run), err)
	}
	for _, w := range rec.Warnings {
		fmt.Fprintln(env.Stderr, "androprof: warning:", printable(w, ""))
	}
	status := 0
	if rec.Exit != nil {
		status = rec.Exit.Status()
		if !wf.quiet {
			fmt.Fprintf(env.Stderr, "androprof: %s; they were imported\n", printable(rec.Exit.Error(), ""))
		}
	}
	if wf.silent() {
		return exitStatus(status)
	}
	if a := rec.Agent; a != nil && !wf.quiet {
		fmt.Fprintf(env.Stderr, "androprof: the perf map agent named %d code ranges in %.1f ms of CPU, %.2f%% of the program's %.2f s\n",
			a.Entries, a.AgentCPU.Seconds()*1000, 100*a.Share(), a.ProcessCPU.Seconds())
	}
	ctx, said := stored(ctx, *run, env)
	defer said()
	err = toSummary(wf.summary, env, func(w io.Writer) error {
		out := env
		out.Stdout = w
		return printRun(ctx, ws, *run, wf.asJSON, out)
	})
	if err != nil {
		return err
	}
	return exitStatus(status)
}
