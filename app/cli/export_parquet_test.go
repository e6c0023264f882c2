package cli

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	pqexport "androprof/export/parquet"
	"androprof/internal/corpus"
	"androprof/model/cost"

	pq "github.com/parquet-go/parquet-go"
)

// parquetDemo is the demo files of every kind, imported under names a path cannot hold as they
// are (a '/', a '='), so the partition folders' escaping is exercised too.
var parquetDemo = map[string]string{
	"suite/sieve-arm":       "demo-sieve-arm.bbprofile.gz",
	"suite/sieve-arm=cache": "demo-sieve-arm-cache.bbprofile.gz",
	"suite/sieve-x86-64":    "demo-sieve-x86-64.bbprofile.gz",
	"traces/methods":        "demo-methods.trace.gz",
	"heap/threads":          "demo-heap-threads.heaplog.gz",
	"heap/dump":             "demo-heap-dump.hprof.gz",
	"samples/vertical 100%": "demo-vertical-phases.perfscript.gz",
}

// parquetWorkspace imports parquetDemo through `androprof import` and exports it as Parquet
// through `androprof export --format parquet --json`: the workspace, the folder and what the
// command said.
func parquetWorkspace(t *testing.T) (db, dir string, said map[string]any) {
	t.Helper()
	files := map[string]string{}
	for run, f := range parquetDemo {
		files[run] = filepath.Join("..", "..", "assets", "demo", f)
	}
	// A real trace with recursion on thread-CPU time alone: nested calls, and real time NULL.
	if p := filepath.Join(corpus.Dir(), "sns-logout.trace"); !testing.Short() && exists(p) {
		files["traces/sns logout"] = p
	}
	db, _ = importedRuns(t, files)
	dir = filepath.Join(t.TempDir(), "pq")
	return db, dir, exportParquetJSON(t, db, dir)
}

func exportParquetJSON(t *testing.T, db, dir string, args ...string) map[string]any {
	t.Helper()
	var said map[string]any
	out := mustRun(t, db, append([]string{"export", "--format", "parquet", "--out", dir, "--json"}, args...)...)
	if err := json.Unmarshal([]byte(out), &said); err != nil {
		t.Fatalf("export --json: %v\n%s", err, out)
	}
	return said
}

// TestParquetEqualsReport: every table's rows, read back with parquet-go, are the rows
// `androprof report --json` (and `runs --json`, `export --format folded`) prints for the same
// run, number for number, NULL where the report says null or the trace has no such clock.
func TestParquetEqualsReport(t *testing.T) {
	t.Parallel()
	db, dir, said := parquetWorkspace(t)
	if said["runs"] != float64(len(pqRuns(t, db))) || said["out"] != dir {
		t.Fatalf("export said %v", said)
	}
	for _, r := range pqRuns(t, db) {
		run, kind := r["name"].(string), r["kind"].(string)
		got := pqRead[pqexport.RunRow](t, dir, pqexport.TableRuns, kind, run)
		want := map[string]any{"source": r["source"], "imported_at": r["created_at"], "processes": r["processes"],
			"blocks": r["blocks"], "instructions": r["instructions"]}
		pqSameRows(t, "runs of "+run, pqRowsOf(got), []map[string]any{want})
		t.Run(kind+" "+strings.ReplaceAll(run, "/", "_"), func(t *testing.T) {
			switch kind {
			case "emulator":
				emulatorEqualsReport(t, db, dir, run)
			case "methods":
				methodsEqualReport(t, db, dir, run)
			case "heap":
				heapLogEqualsReport(t, db, dir, run)
			case "heapdump":
				dumpEqualsReport(t, db, dir, run)
			case "samples":
				samplesEqualFolded(t, db, dir, run)
			default:
				t.Errorf("no comparison for kind %s", kind)
			}
		})
	}
	pqCheckCounts(t, dir, said)
}

// pqRuns is runs --json's list.
func pqRuns(t *testing.T, db string) []map[string]any {
	var runs []map[string]any
	if err := json.Unmarshal([]byte(mustRun(t, db, "runs", "--json")), &runs); err != nil {
		t.Fatal(err)
	}
	return runs
}

// pqCheckCounts: the files, rows and bytes export --json says are those under the folder.
func pqCheckCounts(t *testing.T, dir string, said map[string]any) {
	t.Helper()
	files, bytes, rows := 0, int64(0), map[string]float64{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if e.Name() != pqexport.FileName {
			t.Errorf("a file not named %s: %s", pqexport.FileName, p)
		}
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		pf, err := pq.OpenFile(f, st.Size())
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		rel, _ := filepath.Rel(dir, p)
		rows[strings.Split(rel, string(filepath.Separator))[0]] += float64(pf.NumRows())
		files++
		bytes += st.Size()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	saidRows, _ := said["rows"].(map[string]any)
	for table, n := range saidRows {
		if rows[table] != n {
			t.Errorf("export said %v rows of %s; the files hold %v", n, table, rows[table])
		}
	}
	if said["files"] != float64(files) || said["bytes"] != float64(bytes) {
		t.Errorf("export said %v files, %v bytes; the folder holds %d, %d", said["files"], said["bytes"], files, bytes)
	}
}

// emulatorEqualsReport compares emulator_costs with report --by B --json for every grouping,
// and emulator_syscalls with report --by syscall --per-thread --json.
func emulatorEqualsReport(t *testing.T, db, dir, run string) {
	costs := pqRead[pqexport.EmulatorCostRow](t, dir, pqexport.TableEmulatorCosts, "emulator", run)
	cols := []string{"key", "pid", "block_id", "category", "image", "image_kind", "instructions", "blocks_executed", "cycles", "time_s", "energy_j"}
	for _, by := range cost.Groupings {
		rep := pqReport(t, db, "--run", run, "--by", string(by))
		var got []map[string]any
		for _, r := range costs {
			if r.ReportBy == string(by) {
				if r.Profile != rep["profile"] || r.FrequencyGHz != rep["frequency_ghz"] {
					t.Errorf("by %s: priced under %s at %g GHz; report: %v at %v", by, r.Profile, r.FrequencyGHz, rep["profile"], rep["frequency_ghz"])
				}
				got = append(got, pqColumns(r))
			}
		}
		pqSameRows(t, "emulator_costs by "+string(by), got, pqPick(pqRows(rep), cols, nil))
	}
	rep := pqReport(t, db, "--run", run, "--by", "syscall", "--per-thread")
	calls := pqRead[pqexport.EmulatorSyscallRow](t, dir, pqexport.TableEmulatorSyscalls, "emulator", run)
	pqSameRows(t, "emulator_syscalls", pqRowsOf(calls), pqPick(pqRows(rep), []string{"pid", "tid", "number", "name", "calls", "instructions_before"}, nil))
}

// methodsEqualReport compares method_times with report --by method --pid TID for each thread,
// and method_calls with report --callees of every caller.
func methodsEqualReport(t *testing.T, db, dir, run string) {
	times := pqRead[pqexport.MethodTimeRow](t, dir, pqexport.TableMethodTimes, "methods", run)
	threads := pqRows(pqReport(t, db, "--run", run, "--by", "thread"))
	if len(threads) == 0 {
		t.Fatal("report --by thread has no threads")
	}
	for _, th := range threads {
		tid := th["tid"].(float64)
		rep := pqReport(t, db, "--run", run, "--by", "method", "--pid", strconv.Itoa(int(tid)))
		var got []map[string]any
		for _, r := range times {
			if float64(r.TID) == tid {
				got = append(got, pqColumns(r))
			}
		}
		want := pqPick(pqRows(rep), []string{"key", "name", "package", "method_id", "incl_cpu_us", "excl_cpu_us", "incl_real_us", "excl_real_us", "calls", "recursive_calls"},
			map[string]string{"key": "method"})
		for _, w := range want {
			w["package"] = pqOr(w["package"], "") // JSON leaves an empty package out
			w["method_id"] = pqOr(w["method_id"], 0.0)
			pqClockNulls(w, rep["clock"].(string), "incl_cpu_us", "excl_cpu_us", "incl_real_us", "excl_real_us")
		}
		pqSameRows(t, fmt.Sprintf("method_times of thread %v", tid), got, want)
	}
	edges := pqRead[pqexport.MethodCallRow](t, dir, pqexport.TableMethodCalls, "methods", run)
	if len(edges) == 0 {
		t.Fatal("no method_calls rows")
	}
	for _, m := range relativesToAsk(times, edges) {
		rep := pqReport(t, db, "--run", run, "--callers", m, "--callees", m)
		pqSameRelatives(t, m, edges, rep["callees"].([]any), true)
		pqSameRelatives(t, m, edges, rep["callers"].([]any), false)
	}
}

// relativesToAsk are the methods whose callers and callees the test asks report for: the first
// 12 by name with a recursive edge and the first 12 without (each question reads the trace
// again; a big trace has thousands). A name two methods share (report asks which) and the
// synthetic "(toplevel)" are left out.
func relativesToAsk(times []pqexport.MethodTimeRow, edges []pqexport.MethodCallRow) []string {
	ids := map[string]map[uint64]bool{}
	for _, r := range times {
		if ids[r.Method] == nil {
			ids[r.Method] = map[uint64]bool{}
		}
		ids[r.Method][r.MethodID] = true
	}
	nested := map[string]bool{}
	for _, e := range edges {
		if e.CallerNestedCalls > 0 || e.CalleeNestedCalls > 0 {
			nested[e.Caller], nested[e.Callee] = true, true
		}
	}
	var out []string
	taken := map[bool]int{}
	for _, m := range slices.Sorted(maps.Keys(ids)) {
		if len(ids[m]) == 1 && !strings.HasPrefix(m, "(") && taken[nested[m]] < 12 {
			out = append(out, m)
			taken[nested[m]]++
		}
	}
	return out
}

// pqSameRelatives compares report --callees M's rows (callees) or --callers M's with
// method_calls summed over threads: the plain row is the edge's calls less those nested on the
// listing's side (the caller's for callees, the callee's for callers), the recursive row those.
func pqSameRelatives(t *testing.T, m string, edges []pqexport.MethodCallRow, listed []any, callees bool) {
	t.Helper()
	type key struct {
		id        float64
		recursive bool
	}
	want := map[key][3]any{}
	add := func(k key, calls int64, cpu, real *int64) {
		w := want[k]
		w[0] = pqAdd(w[0], &calls)
		w[1], w[2] = pqAdd(w[1], cpu), pqAdd(w[2], real)
		want[k] = w
	}
	neg := func(v *int64) *int64 {
		if v == nil {
			return nil
		}
		return ptrTo(-*v)
	}
	for _, e := range edges {
		other, nc, ncpu, nreal := e.CallerID, e.CalleeNestedCalls, e.CalleeNestedCPUus, e.CalleeNestedRealus
		if callees {
			other, nc, ncpu, nreal = e.CalleeID, e.CallerNestedCalls, e.CallerNestedCPUus, e.CallerNestedRealus
		}
		if callees && e.Caller != m || !callees && e.Callee != m {
			continue
		}
		plain := key{float64(other), false}
		add(plain, e.Calls, e.InclCPUus, e.InclRealus)
		add(plain, -nc, neg(ncpu), neg(nreal))
		add(key{float64(other), true}, nc, ncpu, nreal)
	}
	for k, v := range want {
		if v[0] == 0.0 { // Relatives lists no edge without calls
			delete(want, k)
		}
	}
	got := map[key][3]any{}
	for _, c := range listed {
		c := c.(map[string]any)
		got[key{c["method_id"].(float64), c["recursive"].(bool)}] = [3]any{c["calls"], c["incl_cpu_us"], c["incl_real_us"]}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s of %s (callees %v): report %v, parquet %v", m, m, callees, got, want)
	}
}

// pqAdd sums a column into a JSON number; a NULL makes the sum NULL (JSON's null).
func pqAdd(sum any, v *int64) any {
	if v == nil {
		return nil
	}
	if sum == nil {
		sum = 0.0
	}
	return sum.(float64) + float64(*v)
}

func ptrTo[T any](v T) *T { return &v }

// heapLogEqualsReport compares heap_log_rows with report --by S --json for each scope.
func heapLogEqualsReport(t *testing.T, db, dir, run string) {
	all := pqRead[pqexport.HeapLogRow](t, dir, pqexport.TableHeapLogRows, "heap", run)
	for _, scope := range []string{"cohort", "thread", "class", "size"} {
		rep := pqReport(t, db, "--run", run, "--by", scope)
		var got []map[string]any
		for _, r := range all {
			if r.Scope == scope {
				if float64(r.CohortBytes) != rep["cohort_bytes"] {
					t.Errorf("cohort %d bytes; report %v", r.CohortBytes, rep["cohort_bytes"])
				}
				got = append(got, pqColumns(r))
			}
		}
		want := pqPick(pqRows(rep), []string{"name", "key", "array", "live_objects", "live_bytes", "total_objects", "total_bytes",
			"array_objects", "array_bytes", "died_objects", "avg_lifetime_bytes"}, map[string]string{"array": "is_array"})
		for _, w := range want {
			w["is_array"] = pqOr(w["is_array"], false)
			if w["died_objects"] == 0.0 {
				w["avg_lifetime_bytes"] = nil // report prints "-": none died
			}
		}
		pqSameRows(t, "heap_log_rows by "+scope, got, want)
	}
}

// dumpEqualsReport compares dump_classes with report --by class and --by retained, of every
// heap and of each.
func dumpEqualsReport(t *testing.T, db, dir, run string) {
	all := pqRead[pqexport.DumpClassRow](t, dir, pqexport.TableDumpClasses, "heapdump", run)
	heaps := []any{nil}
	heaps = append(heaps, pqReport(t, db, "--run", run)["heaps"].([]any)...)
	for _, heap := range heaps {
		args := []string{"--run", run}
		if heap != nil {
			args = append(args, "--heap", heap.(string))
		}
		got := map[string]map[string]any{}
		for _, r := range all {
			if (r.Heap == nil && heap == nil) || (r.Heap != nil && *r.Heap == heap) {
				if got[r.Class] != nil {
					t.Errorf("heap %v: class %s has two rows", heap, r.Class)
				}
				got[r.Class] = pqColumns(r)
			}
		}
		want := map[string]map[string]any{}
		zero := map[string]any{"instances": 0.0, "instance_bytes": 0.0, "arrays": 0.0, "array_bytes": 0.0,
			"reachable_instances": 0.0, "shallow_bytes": 0.0, "retained_bytes": 0.0}
		row := func(name string) map[string]any {
			if want[name] == nil {
				want[name] = map[string]any{"class": name}
				for k, v := range zero {
					want[name][k] = v
				}
			}
			return want[name]
		}
		for _, c := range pqRows(pqReport(t, db, append(args, "--by", "class")...)) {
			w := row(c["name"].(string))
			for _, k := range []string{"instances", "instance_bytes", "arrays", "array_bytes"} {
				w[k] = c[k]
			}
		}
		for _, c := range pqRows(pqReport(t, db, append(args, "--by", "retained")...)) {
			if c["instances"] == 0.0 && got[c["name"].(string)] == nil { // a class with no object: no row
				continue
			}
			w := row(c["name"].(string)) // a name two classes share is one row, summed
			w["reachable_instances"] = w["reachable_instances"].(float64) + c["instances"].(float64)
			w["shallow_bytes"] = w["shallow_bytes"].(float64) + c["shallow"].(float64)
			w["retained_bytes"] = w["retained_bytes"].(float64) + c["retained"].(float64)
		}
		for name, w := range want {
			w["heap"], w["run"], w["kind"], w["schema_version"] = heap, run, "heapdump", 1.0
			if !reflect.DeepEqual(got[name], w) {
				t.Errorf("heap %v, class %s: parquet %v, report %v", heap, name, got[name], w)
			}
		}
		if len(got) != len(want) || len(got) == 0 {
			t.Errorf("heap %v: %d classes in parquet, %d in the reports", heap, len(got), len(want))
		}
	}
}

// samplesEqualFolded compares sample_stacks with export --format folded --pid TID of each
// thread, and their sum with the folded stacks of every thread.
func samplesEqualFolded(t *testing.T, db, dir, run string) {
	stacks := pqRead[pqexport.SampleStackRow](t, dir, pqexport.TableSampleStacks, "samples", run)
	byThread := map[int32][]string{}
	sum := map[string]int64{}
	for _, r := range stacks {
		if r.Depth != int32(strings.Count(r.Stack, ";")+1) || !strings.HasSuffix(r.Stack, r.Leaf) {
			t.Errorf("row %+v: depth or leaf is not its stack's", r)
		}
		byThread[r.TID] = append(byThread[r.TID], fmt.Sprintf("%s %d", r.Stack, r.Samples))
		sum[r.Stack] += r.Samples
	}
	for tid, lines := range byThread {
		want := pqFolded(t, db, run, "--pid", strconv.Itoa(int(tid)))
		if !slices.Equal(lines, want) {
			t.Errorf("thread %d: %d parquet rows, %d folded lines; first %q vs %q", tid, len(lines), len(want), lines[0], want[0])
		}
	}
	every := map[string]int64{}
	for _, l := range pqFolded(t, db, run) {
		at := strings.LastIndexByte(l, ' ')
		n, _ := strconv.ParseInt(l[at+1:], 10, 64)
		every[l[:at]] += n
	}
	if !reflect.DeepEqual(sum, every) || len(sum) == 0 {
		t.Errorf("stacks summed over threads (%d) are not export --format folded's (%d)", len(sum), len(every))
	}
}

// pqFolded is export --format folded's lines.
func pqFolded(t *testing.T, db, run string, args ...string) []string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "x.folded")
	mustRun(t, db, append([]string{"export", "--run", run, "--format", "folded", "--out", out}, args...)...)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// Exporting into the same folder again replaces each run's files: no row twice, and a run
// exported alone leaves the others as they were.
func TestParquetReexportReplaces(t *testing.T) {
	t.Parallel()
	db, dir, first := parquetWorkspace(t)
	again := exportParquetJSON(t, db, dir)
	if !reflect.DeepEqual(first["rows"], again["rows"]) {
		t.Errorf("rows: first export %v, second %v", first["rows"], again["rows"])
	}
	pqCheckCounts(t, dir, again)
	one := exportParquetJSON(t, db, dir, "--run", "traces/methods", "--profile", "cortex-a8")
	if one["runs"] != 1.0 {
		t.Errorf("--run one run: %v", one)
	}
	pqCheckCounts(t, dir, again) // the folder still holds the whole export, once
	if code, _, errOut := runCLI(t, db, "export", "--format", "parquet", "--out", dir, "--run", "nosuch"); code == 0 || !strings.Contains(errOut, "nosuch") {
		t.Errorf("an unknown run: exit %d, %q", code, errOut)
	}
	if code, _, _ := runCLI(t, db, "export", "--format", "parquet", "--out", dir, "--pid", "3"); code != 2 {
		t.Errorf("--pid with parquet: exit %d, want a usage error", code)
	}
}

// --profile prices every emulator run under it, as report --profile does.
func TestParquetProfile(t *testing.T) {
	t.Parallel()
	db, _ := importedRuns(t, map[string]string{"a": filepath.Join("..", "..", "assets", "demo", "demo-sieve-arm.bbprofile.gz")})
	dir := filepath.Join(t.TempDir(), "pq")
	exportParquetJSON(t, db, dir, "--profile", "cortex-a55")
	costs := pqRead[pqexport.EmulatorCostRow](t, dir, pqexport.TableEmulatorCosts, "emulator", "a")
	rep := pqReport(t, db, "--run", "a", "--by", "function", "--profile", "cortex-a55")
	var got []map[string]any
	for _, r := range costs {
		if r.ReportBy == "function" {
			got = append(got, pqColumns(r))
		}
	}
	pqSameRows(t, "functions under cortex-a55", got, pqPick(pqRows(rep), []string{"key", "cycles", "time_s", "energy_j"}, nil))
	if costs[0].Profile != rep["profile"] || !strings.Contains(costs[0].Profile, "A55") {
		t.Errorf("profile %q; report %v", costs[0].Profile, rep["profile"])
	}
}

// pqRead reads one run's file of a table, escaped as the export escapes its name; a run with
// no rows in the table has no file, and no rows.
func pqRead[T any](t *testing.T, dir, table, kind, run string) []T {
	t.Helper()
	path := filepath.Join(dir, table, "kind="+kind, "run="+pqexport.EscapeRun(run), pqexport.FileName)
	rows, err := pq.ReadFile[T](path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// pqReport is report --json's answer.
func pqReport(t *testing.T, db string, args ...string) map[string]any {
	t.Helper()
	var v map[string]any
	out := mustRun(t, db, append(append([]string{"report"}, args...), "--json")...)
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("report %v: %v", args, err)
	}
	return v
}

// pqRows are a report's "rows".
func pqRows(rep map[string]any) []map[string]any {
	var out []map[string]any
	for _, r := range rep["rows"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

// pqPick keeps the keys of each row, named as columns (rename: a JSON key's column, where it
// differs); a key the row leaves out is nil, as the column is NULL. A key not a row's at all
// (the report's "profile") is taken from the row's report by the caller.
func pqPick(rs []map[string]any, keys []string, rename map[string]string) []map[string]any {
	out := make([]map[string]any, len(rs))
	for i, r := range rs {
		out[i] = map[string]any{}
		for _, k := range keys {
			out[i][cmp.Or(rename[k], k)] = r[k]
		}
	}
	return out
}

// pqOr is v, or or when v is nil or zero.
func pqOr[T comparable](v any, or T) any {
	if x, ok := v.(T); v == nil || ok && x == *new(T) {
		return or
	}
	return v
}

// pqClockNulls makes the times of a clock the trace did not record nil, as the columns are.
func pqClockNulls(w map[string]any, clock string, keys ...string) {
	for _, k := range keys {
		if strings.Contains(k, "cpu") && clock == "wall" || strings.Contains(k, "real") && clock == "thread-cpu" {
			w[k] = nil
		}
	}
}

// pqSameRows compares each row's columns that want names: same count, same order, same values.
func pqSameRows(t *testing.T, what string, got, want []map[string]any) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d parquet rows, %d report rows", what, len(got), len(want))
		return
	}
	for i := range want {
		for k, w := range want[i] {
			if g, ok := got[i][k]; !ok || !reflect.DeepEqual(g, w) {
				t.Errorf("%s: row %d column %s: parquet %v, report %v", what, i, k, g, w)
				return
			}
		}
	}
}

// pqRowsOf is columnsOf of each row.
func pqRowsOf[T any](rs []T) []map[string]any {
	out := make([]map[string]any, len(rs))
	for i, r := range rs {
		out[i] = pqColumns(r)
	}
	return out
}

// pqColumns is a row's columns by name, as JSON decodes numbers (float64), NULL as nil.
func pqColumns(row any) map[string]any {
	out := map[string]any{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		for i := range v.NumField() {
			f, fv := v.Type().Field(i), v.Field(i)
			if f.Anonymous {
				walk(fv)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
			out[name] = pqJSONValue(fv)
		}
	}
	walk(reflect.ValueOf(row))
	return out
}

// pqJSONValue is v as encoding/json decodes it into an any.
func pqJSONValue(v reflect.Value) any {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Int32, reflect.Int64:
		return float64(v.Int())
	case reflect.Uint64:
		return float64(v.Uint())
	case reflect.Float64:
		if math.IsNaN(v.Float()) {
			return "NaN"
		}
		return v.Float()
	}
	return v.Interface()
}
