package cli

import (
	"context"
	"fmt"
	"io"
	"slices"

	"androprof/controller"
	"androprof/internal/termtext"
	"androprof/model"
)

// runExport is `androprof export`: a run written in a format another tool opens.
func runExport(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("export", env)
	run := fs.String("run", "", "run `NAME`")
	format := fs.String("format", "", "`chrome|perfetto|speedscope|folded|pprof|html` (the run's kind has some of them; html: any run's self-contained report)")
	out := fs.String("out", "", "output `FILE`")
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
