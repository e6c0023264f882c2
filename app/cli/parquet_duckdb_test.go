package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"androprof/internal/corpus"
	"androprof/internal/fastlane"
	"androprof/internal/runset"
)

// duckdbNodeVersion is the @duckdb/node-api the test (and scripts/scale.sh) installs.
const duckdbNodeVersion = "1.5.6-r.1"

// duckdbNode installs @duckdb/node-api into the user's cache folder once (npm reaches the
// registry, or its own cache offline) and returns the folder scripts/duckdb-query.mjs needs.
func duckdbNode(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "androprof", "duckdb-node-"+duckdbNodeVersion)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api", "package.json")); err == nil {
		return dir
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".duckdb-node-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("npm", "install", "--prefix", tmp, "--no-audit", "--no-fund", "--prefer-offline", "@duckdb/node-api@"+duckdbNodeVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install @duckdb/node-api: %v\n%s", err, out)
	}
	if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
		if _, statErr := os.Stat(dir); statErr != nil { // another test process may have won the race
			t.Fatal(err)
		}
	}
	return dir
}

// duckdbQuery runs sql with real DuckDB and returns its last result's rows, each a map of
// column to value (JSON's: numbers are float64, NULL is nil).
func duckdbQuery(t *testing.T, nodeDir, sql string) []map[string]any {
	t.Helper()
	cmd := exec.Command("node", filepath.Join("..", "..", "scripts", "duckdb-query.mjs"))
	cmd.Env = append(os.Environ(), "DUCKDB_NODE_DIR="+nodeDir)
	cmd.Stdin = strings.NewReader(sql)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v\n%s\n%s", err, stderr.String(), sql)
	}
	var results []struct {
		Columns []string `json:"columns"`
		Rows    [][]any  `json:"rows"`
	}
	if err := json.Unmarshal(out, &results); err != nil || len(results) == 0 {
		t.Fatalf("duckdb printed %q: %v", out, err)
	}
	last := results[len(results)-1]
	rows := make([]map[string]any, len(last.Rows))
	for i, r := range last.Rows {
		rows[i] = map[string]any{}
		for j, c := range last.Columns {
			rows[i][c] = r[j]
		}
	}
	return rows
}

// docQuery is one question of docs/parquet.md's "Queries across runs": its heading and SQL.
type docQuery struct{ title, sql string }

// docQueries reads the section's `sql` blocks, each under its ### heading, from the document
// itself, so the document cannot drift from what the test runs.
func docQueries(t *testing.T) []docQuery {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "parquet.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Queries across runs\n")
	if !ok {
		t.Fatal(`docs/parquet.md has no "## Queries across runs" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var qs []docQuery
	for _, part := range strings.Split(section, "\n### ")[1:] {
		title, body, _ := strings.Cut(part, "\n")
		for _, m := range regexp.MustCompile("(?s)```sql\n(.*?)```").FindAllStringSubmatch(body, -1) {
			qs = append(qs, docQuery{title, m[1]})
		}
	}
	return qs
}

// The DuckDB answers to every query of docs/parquet.md, on a generated lab (internal/runset)
// imported and exported through the command line, equal what `androprof report --json` says of
// the same runs. A query the test has no check for fails it, so a new question in the document
// comes with its check.
func TestParquetQueriesEqualReport(t *testing.T) {
	fastlane.Needs(t, "node and npm's @duckdb/node-api")
	nodeDir := duckdbNode(t)
	db, pq, files := exportedLab(t)
	checks := map[string]func(t *testing.T, got []map[string]any){
		"The method whose exclusive time grew most between two sets of runs": func(t *testing.T, got []map[string]any) {
			compareRows(t, got, wantMethodGrowth(t, db, files), "method")
		},
		"The ten functions with the most energy across a benchmark suite, per core": func(t *testing.T, got []map[string]any) {
			compareRows(t, got, wantSuiteEnergy(t, db, files), "profile", "function")
		},
		"A class's retained bytes over a series of dumps": func(t *testing.T, got []map[string]any) {
			compareRows(t, got, wantRetainedSeries(t, db, files), "run")
		},
	}
	qs := docQueries(t)
	if len(qs) != len(checks) {
		t.Errorf("docs/parquet.md has %d queries, the test checks %d", len(qs), len(checks))
	}
	for _, q := range qs {
		t.Run(q.title, func(t *testing.T) {
			check := checks[q.title]
			if check == nil {
				t.Fatalf("no check for the query %q of docs/parquet.md", q.title)
			}
			got := duckdbQuery(t, nodeDir, strings.ReplaceAll(q.sql, "'DIR/", "'"+filepath.ToSlash(pq)+"/"))
			if len(got) == 0 {
				t.Fatal("the query answered no rows")
			}
			check(t, got)
		})
	}
}

// exportedLab generates 4 commits' runs, imports each file as the run `import --jobs` names
// it, and exports the workspace as Parquet.
func exportedLab(t *testing.T) (db, pq string, files []runset.File) {
	t.Helper()
	dir := t.TempDir()
	o := runset.Options{N: 4 * runset.PerCommit, Seed: 1, Demo: filepath.Join("..", "..", "assets", "demo")}
	if _, err := os.Stat(corpus.Dir()); err == nil {
		o.Corpus = corpus.Dir()
	}
	files, err := runset.Generate(filepath.Join(dir, "lab"), o)
	if err != nil {
		t.Fatal(err)
	}
	db = filepath.Join(dir, "ws.db")
	for _, f := range files {
		mustRun(t, db, "import", "--run", f.Run(), filepath.Join(dir, "lab", f.Path))
	}
	pq = filepath.Join(dir, "parquet")
	mustRun(t, db, "export", "--format", "parquet", "--out", pq)
	return db, pq, files
}

// runsMatching are the runs of files whose names match pattern, in order.
func runsMatching(files []runset.File, pattern string) []string {
	re := regexp.MustCompile(pattern)
	var runs []string
	for _, f := range files {
		if re.MatchString(f.Run()) {
			runs = append(runs, f.Run())
		}
	}
	return runs
}

// wantMethodGrowth is the first query's answer from report --by method of every app trace:
// the exclusive thread-CPU time of each method averaged over the first and the second half
// of the commits, the five that grew most.
func wantMethodGrowth(t *testing.T, db string, files []runset.File) []map[string]any {
	runs := runsMatching(files, `^commit-\d+/app$`)
	commits := 0
	for _, f := range files {
		commits = max(commits, f.Commit+1)
	}
	type sums struct{ before, after *float64 }
	per := map[string]*sums{}
	var nBefore, nAfter float64
	for _, run := range runs {
		var commit int
		fmt.Sscanf(run, "commit-%d/app", &commit)
		after := commit >= commits/2
		if after {
			nAfter++
		} else {
			nBefore++
		}
		for _, r := range pqRows(pqReport(t, db, "--run", run, "--by", "method")) {
			s := per[r["key"].(string)]
			if s == nil {
				s = &sums{}
				per[r["key"].(string)] = s
			}
			v, ok := r["excl_cpu_us"].(float64)
			if !ok {
				continue
			}
			slot := &s.before
			if after {
				slot = &s.after
			}
			if *slot == nil {
				*slot = new(float64)
			}
			**slot += v
		}
	}
	var want []map[string]any
	for m, s := range per {
		row := map[string]any{"method": m, "before_us": nil, "after_us": nil}
		growth := 0.0
		if s.before != nil {
			row["before_us"] = *s.before / nBefore
			growth -= *s.before / nBefore
		}
		if s.after != nil {
			row["after_us"] = *s.after / nAfter
			growth += *s.after / nAfter
		}
		row["growth_us"] = growth
		want = append(want, row)
	}
	slices.SortFunc(want, func(a, b map[string]any) int {
		return cmp.Or(cmp.Compare(b["growth_us"].(float64), a["growth_us"].(float64)), cmp.Compare(a["method"].(string), b["method"].(string)))
	})
	return want[:min(5, len(want))]
}

// wantSuiteEnergy is the second query's answer from report --by function of every sieve and
// bzip2 run: per profile, each function's energy, instructions and time summed over runs and
// processes, the ten with the most energy (unknown energy last).
func wantSuiteEnergy(t *testing.T, db string, files []runset.File) []map[string]any {
	type key struct{ profile, function string }
	type sums struct {
		energy                *float64
		instructions, timeSec float64
		runs                  map[string]bool
	}
	per := map[key]*sums{}
	for _, run := range runsMatching(files, `^commit-\d+/(sieve|bzip2)-(arm|thumb|mips|arm64|x86-64)$`) {
		rep := pqReport(t, db, "--run", run, "--by", "function")
		for _, r := range pqRows(rep) {
			k := key{rep["profile"].(string), r["key"].(string)}
			s := per[k]
			if s == nil {
				s = &sums{runs: map[string]bool{}}
				per[k] = s
			}
			s.instructions += r["instructions"].(float64)
			s.timeSec += r["time_s"].(float64)
			s.runs[run] = true
			if e, ok := r["energy_j"].(float64); ok {
				if s.energy == nil {
					s.energy = new(float64)
				}
				*s.energy += e
			}
		}
	}
	byProfile := map[string][]map[string]any{}
	for k, s := range per {
		row := map[string]any{"profile": k.profile, "function": k.function, "energy_j": nil,
			"instructions": s.instructions, "time_s": s.timeSec, "runs": float64(len(s.runs))}
		if s.energy != nil {
			row["energy_j"] = *s.energy
		}
		byProfile[k.profile] = append(byProfile[k.profile], row)
	}
	var want []map[string]any
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range byProfile {
			if !yield(p) {
				return
			}
		}
	}) {
		rows := byProfile[p]
		slices.SortFunc(rows, func(a, b map[string]any) int {
			return cmp.Or(cmpEnergy(b["energy_j"], a["energy_j"]), cmp.Compare(a["function"].(string), b["function"].(string)))
		})
		want = append(want, rows[:min(10, len(rows))]...)
	}
	return want
}

// cmpEnergy orders energies with unknown (nil) below every known one.
func cmpEnergy(a, b any) int {
	x, okA := a.(float64)
	y, okB := b.(float64)
	switch {
	case !okA || !okB:
		return cmp.Compare(boolInt(okA), boolInt(okB))
	}
	return cmp.Compare(x, y)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// wantRetainedSeries is the third query's answer from report --by retained of every app dump:
// the leak's entries, their retained bytes and the growth since the dump before.
func wantRetainedSeries(t *testing.T, db string, files []runset.File) []map[string]any {
	var want []map[string]any
	var prev any
	for _, run := range runsMatching(files, `^dumps/app-\d+$`) {
		for _, r := range pqRows(pqReport(t, db, "--run", run, "--by", "retained")) {
			if r["name"] != "com/example/LeakEntry" {
				continue
			}
			row := map[string]any{"run": run, "reachable_instances": r["instances"], "retained_bytes": r["retained"], "growth_bytes": nil}
			if prev != nil {
				row["growth_bytes"] = r["retained"].(float64) - prev.(float64)
			}
			prev = r["retained"]
			want = append(want, row)
		}
	}
	slices.SortFunc(want, func(a, b map[string]any) int { return cmp.Compare(a["run"].(string), b["run"].(string)) })
	return want
}

// compareRows fails on every column of want that got has otherwise, row by row in order;
// names are the columns that name a row in messages. Floats agree to 1e-9 of their size
// (DuckDB and Go add in other orders); everything else exactly.
func compareRows(t *testing.T, got, want []map[string]any, names ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d rows, report says %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		var id []string
		for _, n := range names {
			id = append(id, fmt.Sprint(want[i][n]))
		}
		for col, w := range want[i] {
			if g := got[i][col]; !sameValue(g, w) {
				t.Errorf("row %d (%s): %s is %v, report says %v", i, strings.Join(id, " "), col, g, w)
			}
		}
	}
}

func sameValue(got, want any) bool {
	g, okG := got.(float64)
	w, okW := want.(float64)
	if okG && okW {
		return math.Abs(g-w) <= 1e-9*math.Max(math.Abs(g), math.Abs(w))
	}
	return got == want
}
