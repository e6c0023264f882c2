package cli

import (
	"context"
	"fmt"

	"androprof/internal/human"
	"androprof/internal/termtext"
)

// runExport is `androprof export`: a run written in a format another tool opens.
func runExport(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("export", env)
	run := fs.String("run", "", "method run `NAME`")
	format := fs.String("format", "pprof", "`pprof` (go tool pprof opens it)")
	out := fs.String("out", "", "output `FILE`")
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *run == "" || *out == "" || *format != "pprof" {
		return fmt.Errorf("%w: export takes --run NAME --format pprof --out FILE", errUsage)
	}
	ws, err := openDB(env, *dbPath, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	if _, err := ws.RunKind(ctx, *run); err != nil { // a mistyped name is said cut, as report says it
		return err
	}
	p, err := ws.Methods.Pprof(ctx, *run)
	if err != nil {
		return err
	}
	if err := writeOut(*out, env, p.Write); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env.Stdout, map[string]any{"out": *out, "samples": len(p.Sample), "functions": len(p.Function)})
	}
	fmt.Fprintf(env.Stdout, "%s: %s, %s (go tool pprof %s)\n", printable(*out, ""), human.Count(len(p.Sample), "call path", "call paths"),
		human.Count(len(p.Function), "method", "methods"), termtext.Shell(*out))
	return nil
}
