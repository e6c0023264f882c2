// Package cli is the androprof command line. It holds everything main does except opening
// windows, so it builds and tests without cgo.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"androprof/controller"
	"androprof/internal/termtext"
)

// GUI is what only the app package can do, because it needs Fyne's driver.
type GUI interface {
	Run(ws *controller.Workspace) error
}

// exitError carries an exit status other than 1.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

// errUsage marks mistakes in the command line itself; they exit 2.
var errUsage = errors.New("usage")

// Env is where a command reads and writes; tests swap in buffers.
type Env struct {
	Stdin          io.Reader // what `androprof run` hands the program; nil: nothing
	Stdout, Stderr io.Writer
	GUI            GUI
	Demos          map[string]controller.DemoRun // the demo runs the binary carries
	Databases      controller.Databases          // how workspace files are opened (store/workspacedb)
}

const usage = `androprof — estimate and explain what a mobile program costs

usage:
  androprof [--db FILE]                                 open the workbench
  androprof profile list [--json]                       built-in and stored profiles
  androprof profile show NAME|FILE [--json]             a profile's categories and costs
  androprof profile check FILE...                       validate profile files (exit 1 on errors)
  androprof profile import FILE...                      keep profile files in the database
  androprof profile export NAME|FILE --out FILE         write a profile as XML
  androprof profile categorize --profile NAME|FILE [--json] LOG...
                                                        instructions seen in QEMU logs, by category
  androprof import [--run NAME] [--arch arm|mips|aarch64|x86_64] [--json] FILE|DIR...
                   [--measured] [--pid N] [--round N] [--area RES] [--callers C,...] [--cohort SIZE] [--weak-retains]
                   [--app PKG,...] [--threads NAME,...] [--tid N,...] [--from S] [--to S]
                                                        import QEMU logs, basic-block profiles,
                                                        a method trace (Traceview, DPA, RMP),
                                                        a heap log, an HPROF heap dump or
                                                        perf script text (a sampled run)
  androprof import --jobs N|all [--json] [flags as above] FILE|DIR...
                                                        many runs at once: every file a run named
                                                        by its path, N read at once (all: a core
                                                        each); failures listed, the rest stored
  androprof run [--run NAME] [--profile P] [--arch A] [--sysroot DIR] [--keep DIR] [--quiet]
                [--cache[=l1i=32k:4:64,l1d=32k:4:64,l2=512k:8:64[,l3=…]]]
                [--summary FILE] [--json] -- PROGRAM [ARGS...]
                                                        run a guest program under QEMU and import it;
                                                        the program keeps stdin/stdout/stderr and its
                                                        exit status, the summary goes to stderr;
                                                        --cache simulates the profile's caches (or
                                                        LEVEL=SIZE:WAYS:LINE[:REPL][:wa|nwa] by hand)
  androprof heap [--run NAME] [--cohort SIZE] [--keep DIR] [--mutations] [--json] -- java [ARGS...]
                                                        run a Java program under the heap agent
                                                        and import its heap log; --mutations also
                                                        records its reference stores (figure 5.22)
  androprof vertical [--run NAME] [--rate HZ] [--call-graph fp|dwarf] [--app PKG,...]
                     [--threads NAME,...] [--from S] [--to S] [--keep DIR] [--quiet]
                     [--summary FILE] [--json] -- java [ARGS...]
                                                        record a Java program under perf with the
                                                        JIT map agent and import its samples (Java,
                                                        VM, native libraries, kernel); the program
                                                        keeps its stdio and exit status
  androprof runs [--json] [--delete NAME]               the runs in the workspace
  androprof demo                                        import the demo runs (sample programs)
  androprof report --run NAME [--profile P] [--by pid|bb|insn|category|function|image|layer]
                   [--pid N] [--top N] [--frequency-ghz F] [--misses-first] [--json|--csv]
                                                        cycles, time and energy of a run; without
                                                        --profile under the window's default for its
                                                        instruction set (ARM, Thumb: Cortex-A8; MIPS: 74K;
                                                        AArch64, x86-64: the rule of README "Command line");
                                                        misses, stalls and pipeline cycles where known,
                                                        and the estimate step by step under the table
  androprof report --run NAME --by syscall [--pid N] [--per-thread] [--top N] [--json]
                                                        its system calls per process or thread
  androprof report --compare RUN[:PID],... [--by image] [--profile P] [--json|--csv]
                                                        emulator runs side by side (image by image),
                                                        each under its own set's default, with fig. 5.2
  androprof report --run TRACE [--by method|class|package|thread] [--pid TID] [--find TEXT]
                   [--top N] [--raw-names] [--json]     the profile table of a method trace (methods as
                                                        Java reads them; --raw-names: as the trace names them)
  androprof report --run HEAP [--by summary|cohort|thread|class|package|size] [--cohort SIZE]
                   [--find TEXT] [--top N] [--json]     a heap log's tables (seed 001 tables 4.x, 5.1–5.3)
  androprof report --run DUMP [--by summary|class|package|retained|dominators] [--of OBJECT] [--heap NAME]
                   [--find TEXT] [--top N] [--json]
  androprof report --run DUMP --path-to OBJECT|CLASS [--json]   why is it alive: the shortest path from a GC root
  androprof report --compare BEFORE,AFTER [--find TEXT] [--top N] [--json]   two heap dumps, most grown first
                                                        a heap dump's classes and packages
  androprof report --run SAMPLES [--by layer|image|symbol|component|thread] [--threads NAME,...]
                   [--tid N,...] [--from S] [--to S] [--focus PKG_OR_METHOD,...] [--app PKG,...]
                   [--find TEXT] [--top N] [--json|--csv]
                                                        a sampled run's samples per layer, image,
                                                        symbol (seed 004 table V), component, thread
  androprof report --run SAMPLES --callers SYMBOL|--callees SYMBOL [--image IMAGE] [targets] [--json|--csv]
                                                        a symbol's callers and callees (figure 13)
  androprof report --run TRACE --callers METHOD|--callees METHOD [--pid TID] [--top N] [--raw-names] [--json]
                                                        a method's parents or children, recursive calls apart (dmtracedump)
  androprof estimate --instructions N --cpi C [--frequency-ghz F] [--power-w W]
                   [--memory-energy-nj E] [--base-instructions N] [--base-misses N] [--json]
                                                        the calculator of seed figure 5.2
  androprof estimate --run NAME [--profile P] [--pid N] [--frequency-ghz F] [--json]
                                                        a run's estimate step by step: category cycles,
                                                        pipeline cycles, memory stalls, total, time and
                                                        energy, beside figure 5.2, with the gap named
  androprof chart (--run NAME [--by G] [--pid N] | --compare RUN[:PID],...) [--profile P]
                  [--metric cycles|time|energy|instructions|sources] [--kind bar|column|pie] --out FILE.png|.svg|.csv
                                                        the analysis window's charts as files (sources:
                                                        category, pipeline and memory stall cycles per row)
  androprof chart --run HEAP --figure 5.1..5.23|NAME [--cohort SIZE] --out FILE.png|.svg|.csv
  androprof chart --run DUMP --figure dump-classes|dump-packages|dump-sizes|dump-pointers [--heap NAME] --out F
                                                        the heap figures of seed 001 chapter 5
  androprof chart --run SAMPLES --by layer-time|layer|image|symbol|component|thread|flame [targets]
                  [--buckets N] [--counts] --out FILE.png|.svg|.csv
                                                        a sampled run's layers over time, tables
                                                        as bars, or its mixed-mode flame graph
  androprof chart --run TRACE --by flame [--pid TID] [--clock cpu|real] [--find RE] [--raw-names]
                  [--focus RE] [--only RE] [--hide A;B;C] [--merge NAME] --out FILE.png|.svg|.csv
                                                        a method trace's flame graph (icicle), searched
                                                        and focused as the Flame tab does (docs/flame.md)
  androprof export --run NAME --format chrome|perfetto|speedscope|folded|pprof|html --out FILE [--pid TID]
                  [--clock cpu|wall] [--focus RE] [--only RE] [--hide PATH] [--merge NAME] [--json]
                                                        a run for other tools (docs/export.md): Chrome JSON,
                                                        Perfetto, speedscope, folded stacks (focus applies),
                                                        pprof; html: any run's self-contained report
  androprof diff RUN_A RUN_B [--by function|path|image] [--clock cpu|wall] [--threshold PCT] [--top N]
                 [--focus RE] [--only RE] [--hide PATH] [--merge NAME]
                 [--raw-names] [--json]                 what changed from run A to run B (two method traces,
                                                        sampled runs or emulator runs), largest change first,
                                                        in points of each run's own total (docs/flame.md)

Every command takes --db FILE (default: ` + "%s" + `).
`

// Run executes one command line and returns the process exit status.
func Run(ctx context.Context, args []string, env Env) int {
	err := run(ctx, args, env)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(env.Stderr, "androprof:", printable(ee.err.Error(), "\n\t"))
		}
		return ee.code
	}
	var help *flagHelp
	if errors.As(err, &help) {
		help.write(env.Stdout)
		return 0
	}
	if errors.Is(err, errUsage) { // one line and where to read more: a usage of 77 lines hides the mistake
		fmt.Fprintln(env.Stderr, "androprof:", printable(err.Error(), "\n\t"))
		fmt.Fprintln(env.Stderr, "see androprof help")
		return 2
	}
	fmt.Fprintln(env.Stderr, "androprof:", printable(err.Error(), "\n\t"))
	return 1
}

func run(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fs, dbPath := newFlags("androprof", env)
		pos, err := parse(fs, args)
		var help *flagHelp
		if errors.As(err, &help) { // androprof -h: every command, not the one flag of the window
			fmt.Fprintf(env.Stdout, usage, env.Databases.DefaultPath)
			return nil
		}
		if err != nil {
			return err
		}
		if len(pos) > 0 {
			return fmt.Errorf("%w: unexpected %q", errUsage, pos[0])
		}
		ws, err := openDB(env, *dbPath, true)
		if err != nil {
			return err
		}
		defer ws.Close()
		return env.GUI.Run(ws)
	}
	switch args[0] {
	case "profile":
		if len(args) < 2 {
			return fmt.Errorf("%w: profile needs a subcommand", errUsage)
		}
		return runProfile(ctx, args[1], args[2:], env)
	case "import":
		return runImport(ctx, args[1:], env)
	case "run":
		return runProgram(ctx, args[1:], env)
	case "heap":
		return runHeap(ctx, args[1:], env)
	case "vertical":
		return runVertical(ctx, args[1:], env)
	case "runs":
		return runRuns(ctx, args[1:], env)
	case "demo":
		return runDemo(ctx, args[1:], env)
	case "report":
		return runReport(ctx, args[1:], env)
	case "estimate":
		return runEstimate(ctx, args[1:], env)
	case "chart":
		return runChart(ctx, args[1:], env)
	case "export":
		return runExport(ctx, args[1:], env)
	case "diff":
		return runDiff(ctx, args[1:], env)
	case "help", "-h", "--help":
		fmt.Fprintf(env.Stdout, usage, env.Databases.DefaultPath)
		return nil
	}
	return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
}

// newFlags makes a flag set with the --db flag every command shares. The flag package says
// nothing itself: a mistake is one line of usage error (Run), -h the command's flags.
func newFlags(name string, env Env) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	db := fs.String("db", env.Databases.DefaultPath, "workspace database `file`")
	return fs, db
}

// flagHelp is -h or --help after a command: its flags are written to standard output.
type flagHelp struct{ fs *flag.FlagSet }

func (h *flagHelp) Error() string { return "help requested" }

func (h *flagHelp) write(w io.Writer) {
	fmt.Fprintf(w, "androprof %s flags (androprof help: every command):\n", h.fs.Name())
	h.fs.SetOutput(w)
	h.fs.PrintDefaults()
}

// parse accepts flags before and after positional arguments, as users type them.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			return nil, &flagHelp{fs}
		} else if err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// parseCommand parses the flags of a wrapper (run, heap, vertical): everything after "--", or
// from the first positional argument on, is the program and its arguments.
func parseCommand(fs *flag.FlagSet, args []string) ([]string, error) {
	var prog []string
	for i, a := range args {
		if a == "--" {
			args, prog = args[:i], args[i+1:]
			break
		}
	}
	pos, err := parse(fs, args)
	if err != nil {
		return nil, err
	}
	return append(pos, prog...), nil
}

// openDB opens the workspace of a command; write says the command may create it.
func openDB(env Env, path string, write bool) (*controller.Workspace, error) {
	return controller.OpenWorkspace(env.Databases, path, write)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printable shows s on a terminal as it is, but for control characters other than those in
// keep, which are written as Go escapes (\x1b, \u202e), and bytes that are not UTF-8 (\xff):
// a file or run name must not move the cursor, recolour the terminal or break a table's
// lines. It is termtext's rule, the one every report, table and chart of names follows.
func printable(s, keep string) string { return termtext.EscapeExcept(s, keep) }
