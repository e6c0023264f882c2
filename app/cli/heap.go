package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"androprof/internal/proc"
)

// parseBytes reads a size such as 262144, 256K, 256KB, 1M or 1.5MiB (binary units, as the
// seed's "256KB" cohorts are).
func parseBytes(s string) (uint64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := 1.0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult, t = 1<<10, t[:n-1]
		case 'M':
			mult, t = 1<<20, t[:n-1]
		case 'G':
			mult, t = 1<<30, t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v < 1 || v*mult > 1<<40 {
		return 0, fmt.Errorf("%q is not a size in bytes (e.g. 256K, 1M)", s)
	}
	return uint64(v * mult), nil
}

// cohortFlag is the --cohort flag of import and heap: bytes of allocation per cohort.
type cohortFlag struct{ bytes uint64 }

func (c *cohortFlag) String() string { return strconv.FormatUint(c.bytes, 10) }
func (c *cohortFlag) Set(s string) (err error) {
	c.bytes, err = parseBytes(s)
	return err
}

// runHeap runs a Java program under the heap agent and imports its heap log.
func runHeap(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("heap", env)
	run := fs.String("run", "", "run `NAME` (default: the main class or jar)")
	keep := fs.String("keep", "", "keep the heap log in `DIR`")
	var cohort cohortFlag
	fs.Var(&cohort, "cohort", "bytes of allocation per cohort, e.g. `256K` (default 256K)")
	mutations := fs.Bool("mutations", false, "record every reference store (putfield, aastore) for figure 5.22; slower")
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	argv, err := parseCommand(fs, args)
	if err != nil {
		return err
	}
	if len(argv) == 0 {
		return fmt.Errorf("%w: heap takes -- java [ARGS...]", errUsage)
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
	im.KeepDir = *keep
	im.Cohort = cohort.bytes
	im.Mutations = *mutations
	im.Stdout = os.Stderr
	say := func(msg string) { fmt.Fprintln(env.Stderr, printable(msg, "")) }
	err = stopped(ctx, im.RunJava(ctx, *run, argv, say), "java")
	var exitErr *proc.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return err
	}
	if perr := printStored(ctx, ws, *run, *asJSON, env); perr != nil {
		return perr
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "androprof: %v; its heap log until then was imported\n", err)
		return &exitError{code: 1}
	}
	return nil
}

// javaRunName names a heap run after what java runs: the class after the options, or the jar.
func javaRunName(argv []string) string {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-cp" || a == "-classpath" || a == "--class-path" || a == "-p" || a == "--module-path":
			i++
		case a == "-jar" && i+1 < len(argv):
			return strings.TrimSuffix(filepath.Base(argv[i+1]), ".jar")
		case !strings.HasPrefix(a, "-"):
			return strings.TrimSuffix(filepath.Base(a), ".java")
		}
	}
	return "java"
}
