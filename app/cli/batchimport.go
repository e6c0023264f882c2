package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"androprof/controller"
	"androprof/internal/human"
)

// jobsFlag is import --jobs: how many files are read at once; "all" (0) is one per core.
type jobsFlag struct {
	set bool
	n   int
}

func (j *jobsFlag) String() string {
	if !j.set {
		return ""
	}
	return strconv.Itoa(j.n)
}

func (j *jobsFlag) Set(s string) error {
	if s == "all" {
		j.set, j.n = true, 0
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return fmt.Errorf("want a number of files at once (1 or more) or all, not %q", s)
	}
	j.set, j.n = true, n
	return nil
}

// batchImport is import --jobs: every file (a folder's QEMU logs together) a run of its own,
// read in parallel; the failures are listed at the end and make the status 1.
func batchImport(ctx context.Context, im controller.Importer, paths []string, jobs int, asJSON bool, env Env) error {
	start := time.Now()
	res, err := im.ImportBatch(ctx, paths, controller.BatchOptions{Jobs: jobs, Progress: batchProgressPrinter(env)})
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	if asJSON {
		if jerr := writeJSON(env.Stdout, batchJSON(res, time.Since(start))); jerr != nil {
			return jerr
		}
	} else {
		printBatch(res, time.Since(start), env)
	}
	switch {
	case err != nil:
		return &exitError{code: stopCode(ctx), err: fmt.Errorf("%s: the %s stored before it are complete; the run being written was not stored, nor were those after it",
			context.Cause(ctx), human.Count(len(res.Runs), "run", "runs"))}
	case len(res.Failures) > 0:
		return &exitError{code: 1, err: fmt.Errorf("%d of %d runs failed (listed above) and left nothing in the workspace; the other %d are stored",
			len(res.Failures), len(res.Failures)+len(res.Runs), len(res.Runs))}
	}
	return nil
}

// batchProgressPrinter says how far a batch is on stderr at most every half second.
func batchProgressPrinter(env Env) func(controller.BatchProgress) {
	var last time.Time
	return func(p controller.BatchProgress) {
		if time.Since(last) < 500*time.Millisecond && p.FilesDone < p.Files {
			return
		}
		last = time.Now()
		fmt.Fprintf(env.Stderr, "importing: %d of %d files, %d of %d MB, %s stored, %d failed\n",
			p.FilesDone, p.Files, p.BytesDone>>20, p.Bytes>>20, human.Count(p.Runs, "run", "runs"), p.Failures)
	}
}

// printBatch says what a batch import stored, failed and skipped.
func printBatch(res controller.BatchResult, took time.Duration, env Env) {
	fmt.Fprintf(env.Stdout, "%s stored in %.1f s (%s), %d failed, %d skipped\n",
		human.Count(len(res.Runs), "run", "runs"), took.Seconds(), human.Count(res.Jobs, "job", "jobs"), len(res.Failures), len(res.Skipped))
	for _, f := range res.Failures {
		fmt.Fprintf(env.Stdout, "failed: run %s: %s\n", runText(f.Run), printable(f.Err.Error(), ""))
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(env.Stdout, "skipped: %s: %s\n", printable(s.File, ""), s.Reason)
	}
}

// batchJSON is import --jobs --json: docs/batch-import.md describes its keys.
func batchJSON(res controller.BatchResult, took time.Duration) map[string]any {
	runs := make([]map[string]any, 0, len(res.Runs))
	for _, r := range res.Runs {
		runs = append(runs, map[string]any{"run": r.Run, "kind": r.Kind, "files": r.Files})
	}
	failures := make([]map[string]any, 0, len(res.Failures))
	for _, f := range res.Failures {
		failures = append(failures, map[string]any{"run": f.Run, "files": f.Files, "error": f.Err.Error()})
	}
	skipped := make([]map[string]any, 0, len(res.Skipped))
	for _, s := range res.Skipped {
		skipped = append(skipped, map[string]any{"file": s.File, "reason": s.Reason})
	}
	return map[string]any{"jobs": res.Jobs, "seconds": took.Seconds(), "runs": runs, "failures": failures, "skipped": skipped}
}

// batchRefuses is the flags import --jobs cannot take: each file names its own run.
func batchRefuses(run string) error {
	if strings.TrimSpace(run) != "" {
		return fmt.Errorf("%w: --run and --jobs: with --jobs every file is a run named after its path", errUsage)
	}
	return nil
}
