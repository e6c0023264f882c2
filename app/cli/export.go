package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/termtext"
	"androprof/model"
)

// runExport is `androprof export`: a run written in a format another tool opens.
func runExport(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("export", env)
	run := fs.String("run", "", "run `NAME` (parquet: NAME,NAME,...; default every run)")
	format := fs.String("format", "", "`chrome|perfetto|speedscope|folded|pprof|html|parquet` (the run's kind has some of them; html: any run's self-contained report; parquet: the workspace's runs as Hive-partitioned Parquet, docs/parquet.md)")
	out := fs.String("out", "", "output `FILE` (parquet: a folder)")
	profile := fs.String("profile", "", "parquet: price emulator runs with profile `NAME|FILE` (default: each run's, as report prices it)")
	tid := fs.Int("pid", 0, "one thread `TID` (default: every thread)")
	clock := fs.String("clock", "", "method traces: `cpu|wall` time (default: real time when the trace has it)")
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	var focus focusFlags
	focus.add(fs)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if err := focus.foldedOnly(*format); err != nil {
		return err
	}
	if *format == "parquet" {
		if *tid != 0 || *clock != "" {
			return fmt.Errorf("%w: export --format parquet writes every thread on every clock: no --pid or --clock", errUsage)
		}
		return exportParquet(ctx, env, *dbPath, parquetArgs{out: *out, runs: *run, profile: *profile, asJSON: *asJSON})
	}
	if *profile != "" {
		return fmt.Errorf("%w: --profile prices the emulator runs of export --format parquet", errUsage)
	}
	if *run == "" || *out == "" || *format == "" {
		return fmt.Errorf("%w: export takes --run NAME --format FORMAT --out FILE", errUsage)
	}
	if *clock == "real" {
		*clock = "wall"
	}
	if *clock != "" && *clock != "cpu" && *clock != "wall" {
		return fmt.Errorf("%w: --clock is cpu or wall, not %q", errUsage, *clock)
	}
	ws, err := openDB(env, *dbPath, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	kind, err := ws.RunKind(ctx, *run) // a mistyped name is said cut, as report says it
	if err != nil {
		return err
	}
	if *clock != "" && kind != model.RunKindMethods {
		return fmt.Errorf("%w: --clock is for method traces; run %s is %s", errUsage, controller.RunText(*run), model.RunKindText(kind))
	}
	if !slices.ContainsFunc(controller.ExportFormats(kind), func(f controller.ExportFormat) bool { return f.Name == *format }) {
		nf := &controller.ErrNoExportFormat{Run: *run, Kind: kind, Format: *format}
		return fmt.Errorf("%w: %s", errUsage, nf.Error())
	}
	var s controller.ExportSummary
	err = writeOut(*out, env, func(w io.Writer) error {
		s, err = ws.Export(ctx, *run, *format, controller.ExportOptions{TID: *tid, Clock: *clock, Focus: focus.opts}, w)
		return focus.check(s.Focused, err)
	})
	if err != nil {
		return err
	}
	if *asJSON {
		j := map[string]any{"out": *out, "run": s.Run, "format": s.Format, "events": s.Events,
			"slices": s.Slices, "threads": s.Threads, "clock": s.Clock, "partial": s.Partial}
		if focus.asked() {
			j["focus"] = focus.focusJSON(s.Focused)
		}
		return writeJSON(env.Stdout, j)
	}
	fmt.Fprintf(env.Stdout, "%s: %s\n", printable(*out, ""), exportText(s, *out))
	if s.Partial != "" {
		fmt.Fprintf(env.Stdout, "note: %s\n", s.Partial)
	}
	if line := focusLine(s.Focused, s.Clock != ""); line != "" {
		fmt.Fprintln(env.Stdout, line)
	}
	return nil
}

// exportText says what an export wrote and what opens it.
func exportText(s controller.ExportSummary, out string) string {
	text := s.Text()
	switch s.Format {
	case "html":
	case "pprof":
		text += " (go tool pprof " + termtext.Shell(out) + ")"
	default:
		for _, kind := range model.RunKinds {
			for _, f := range controller.ExportFormats(kind) {
				if f.Name == s.Format {
					return text + " (opens in " + f.Opens + ")"
				}
			}
		}
	}
	return text
}

// parquetProgress says how far an export is on stderr, at most every half second (a few runs
// take less: they print nothing).
func parquetProgress(env Env) func(controller.ParquetProgress) {
	start, last := time.Now(), time.Now()
	return func(p controller.ParquetProgress) {
		if time.Since(last) < 500*time.Millisecond || time.Since(start) < time.Second {
			return
		}
		last = time.Now()
		fmt.Fprintf(env.Stderr, "exporting: %d of %d runs, %s, %s\n", p.Done, p.Total, human.Count(p.Rows, "row", "rows"), human.Bytes(uint64(p.Bytes)))
	}
}

// parquetArgs are export --format parquet's flags.
type parquetArgs struct {
	out, runs, profile string
	asJSON             bool
}

// exportParquet is export --format parquet: the workspace's runs (or --run's) as
// Hive-partitioned Parquet in the folder --out (docs/parquet.md).
func exportParquet(ctx context.Context, env Env, dbPath string, a parquetArgs) error {
	if a.out == "" {
		return fmt.Errorf("%w: export --format parquet takes --out DIR", errUsage)
	}
	var runs []string
	if a.runs != "" {
		for _, r := range strings.Split(a.runs, ",") {
			runs = append(runs, strings.TrimSpace(r))
		}
	}
	ws, err := openDB(env, dbPath, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	s, err := ws.ExportParquet(ctx, a.out, controller.ParquetOptions{Runs: runs, Profile: a.profile, Progress: parquetProgress(env)})
	if err != nil && ctx.Err() != nil { // Ctrl-C: 130, as every command a signal stops
		return &exitError{code: stopCode(ctx), err: fmt.Errorf("%s: the runs exported before it are in place; the run being exported keeps its previous files",
			context.Cause(ctx))}
	}
	if err != nil {
		return err
	}
	if a.asJSON {
		return writeJSON(env.Stdout, map[string]any{"out": s.Out, "runs": s.Runs, "files": s.Files, "rows": s.Rows, "bytes": s.Bytes})
	}
	var rows int64
	for _, n := range s.Rows {
		rows += n
	}
	fmt.Fprintf(env.Stdout, "%s: %s, %s, %s in %s (DuckDB: read_parquet('%s/TABLE/**/*.parquet', hive_partitioning=true); docs/parquet.md)\n",
		printable(s.Out, ""), human.Count(s.Runs, "run", "runs"), human.Count(s.Files, "file", "files"), human.Count(rows, "row", "rows"),
		human.Bytes(uint64(s.Bytes)), printable(s.Out, ""))
	return nil
}
