package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"androprof/internal/corpus"
)

// diffOut is `diff --json`'s output as a script reads it.
type diffOut struct {
	Measure string `json:"measure"`
	TotalA  int64  `json:"total_a"`
	TotalB  int64  `json:"total_b"`
	Rows    []struct {
		Key           string   `json:"key"`
		SelfA         int64    `json:"self_a"`
		SelfB         int64    `json:"self_b"`
		SelfChangePts *float64 `json:"self_change_pts"`
		Unchanged     bool     `json:"unchanged"`
	} `json:"rows"`
}

// diffJSONOf runs `diff A B --json` with more flags, checks its keys are snake_case, and reads it.
func diffJSONOf(t *testing.T, db string, args ...string) diffOut {
	t.Helper()
	out := mustRun(t, db, append([]string{"diff"}, append(args, "--json")...)...)
	var v any
	json.Unmarshal([]byte(out), &v)
	if bad := badKeys(v, ""); len(bad) > 0 {
		t.Errorf("keys not snake_case: %v", bad)
	}
	var d diffOut
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return d
}

// Two method traces of two programs diff on the clock the header names; every row's self times add up to the
// totals, and B against A is A against B negated, row by row.
func TestDiffMethodTraces(t *testing.T) {
	t.Parallel()
	db := demoRunsDB(t, func(run string) bool { return run == "demo-methods" })
	mustRun(t, db, "import", "--run", "exc", corpus.File(t, "perflib-exception.trace"))
	out := mustRun(t, db, "diff", "demo-methods", "exc", "--threshold", "2")
	for _, want := range []string{`diff "demo-methods" → "exc" by function: `, "time in µs (", "SELF Δ PTS", "under 2 points unchanged"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	ab := diffJSONOf(t, db, "demo-methods", "exc", "--by", "path")
	ba := diffJSONOf(t, db, "exc", "demo-methods", "--by", "path")
	var selfA, selfB int64
	changed := 0
	back := map[string]float64{}
	for _, r := range ba.Rows {
		back[r.Key] = *r.SelfChangePts
	}
	for _, r := range ab.Rows {
		selfA, selfB = selfA+r.SelfA, selfB+r.SelfB
		if *r.SelfChangePts != 0 {
			changed++
		}
		if *r.SelfChangePts != -back[r.Key] {
			t.Errorf("%q: %v points, swapped %v", r.Key, *r.SelfChangePts, back[r.Key])
		}
	}
	if ab.TotalA == 0 || changed == 0 || selfA != ab.TotalA || selfB != ab.TotalB || ab.Measure == "" {
		t.Errorf("%s: self times %d, %d; totals %d, %d", ab.Measure, selfA, selfB, ab.TotalA, ab.TotalB)
	}
}

// Emulator runs diff by function and image in instructions; a sampled run against itself
// changes nothing; --top keeps the largest changes.
func TestDiffEmulatorAndSampledRuns(t *testing.T) {
	t.Parallel()
	db := demoRunsDB(t, func(run string) bool {
		return run == "demo-sieve-arm" || run == "demo-sieve-thumb" || run == "demo-vertical-phases"
	})
	out := mustRun(t, db, "diff", "demo-sieve-arm", "demo-sieve-thumb", "--top", "2", "--threshold", "0")
	if !strings.Contains(out, "by function: instructions executed (counted") || strings.Count(out, "\n") != 7 || !strings.Contains(out, "more changed (--top 2)") {
		t.Errorf("top 2:\n%s", out)
	}
	img := diffJSONOf(t, db, "demo-sieve-arm", "demo-sieve-thumb", "--by", "image")
	if len(img.Rows) == 0 || img.TotalA == 0 || img.TotalB == 0 {
		t.Errorf("by image: %+v", img)
	}
	same := diffJSONOf(t, db, "demo-vertical-phases", "demo-vertical-phases")
	for _, r := range same.Rows {
		if !r.Unchanged || *r.SelfChangePts != 0 {
			t.Errorf("a run against itself: %+v", r)
		}
	}
	if out := mustRun(t, db, "diff", "demo-vertical-phases", "demo-vertical-phases"); !strings.Contains(out, "(no row changed by the threshold or more)") {
		t.Errorf("against itself:\n%s", out)
	}
}

// Mistakes name what is wrong: the run, the kinds, the flag.
func TestDiffRefuses(t *testing.T) {
	t.Parallel()
	db := demoRunsDB(t, func(run string) bool { return run == "demo-sieve-arm" || run == "demo-methods" })
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"diff", "demo-methods"}, 2, "diff takes two runs"},
		{[]string{"diff", "demo-methods", "nope"}, 1, `run "nope" is not in`},
		{[]string{"diff", "demo-methods", "demo-sieve-arm"}, 1, "a diff compares two runs of one kind"},
		{[]string{"diff", "demo-sieve-arm", "demo-sieve-arm", "--by", "path"}, 1, "emulator runs have no stacks"},
		{[]string{"diff", "demo-methods", "demo-methods", "--by", "class"}, 2, `unknown grouping "class"`},
		{[]string{"diff", "demo-methods", "demo-methods", "--clock", "sundial"}, 1, `clock "sundial"`},
		{[]string{"diff", "demo-methods", "demo-methods", "--threshold", "-1"}, 2, "--threshold"},
	} {
		code, _, errOut := runCLI(t, db, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}
