package cli

import (
	"context"
	"fmt"
	"io"
	"slices"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/termtext"
	"androprof/model"
)

// runExport is `androprof export`: a run written in a format another tool opens.
func runExport(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("export", env)
	run := fs.String("run", "", "run `NAME`")
	format := fs.String("format", "", "`chrome|perfetto|speedscope|folded|pprof` (the run's kind has some of them)")
	out := fs.String("out", "", "output `FILE`")
	tid := fs.Int("pid", 0, "one thread `TID` (default: every thread)")
	clock := fs.String("clock", "", "method traces: `cpu|wall` time (default: real time when the trace has it)")
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	if _, err := parse(fs, args); err != nil {
		return err
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
		s, err = ws.Export(ctx, *run, *format, controller.ExportOptions{TID: *tid, Clock: *clock}, w)
		return err
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env.Stdout, map[string]any{"out": *out, "run": s.Run, "format": s.Format, "events": s.Events,
			"slices": s.Slices, "threads": s.Threads, "clock": s.Clock, "partial": s.Partial})
	}
	fmt.Fprintf(env.Stdout, "%s: %s\n", printable(*out, ""), exportText(s, *out))
	if s.Partial != "" {
		fmt.Fprintf(env.Stdout, "note: %s\n", s.Partial)
	}
	return nil
}

// exportText says what an export wrote and what opens it.
func exportText(s controller.ExportSummary, out string) string {
	text := human.Count(s.Events, "record", "records")
	if s.Slices > 0 {
		text = human.Count(s.Slices, "call", "calls") + " as slices, " + text
	}
	if s.Threads > 0 {
		text += " on " + human.Count(s.Threads, "thread", "threads")
	}
	if s.Clock != "" {
		text += ", " + s.Clock
	}
	switch s.Format {
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
