package cli

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"androprof/controller"
	"androprof/formats/heaplog"
	"androprof/internal/corpus"
	"androprof/internal/fastlane"
	"androprof/model/heap"
	"androprof/store/workspacedb"
)

// logTally is an independent count of a raw heap log, to check what the import stored.
type logTally struct {
	allocated, freed     heap.HeapCount
	perCohort            map[uint64]uint64 // born bytes per cohort
	spans                map[uint64]bool   // cohorts covered by an object born before them
	end                  uint64
	threadBytes, classes map[uint32]uint64
}

func tallyLog(t *testing.T, path string, cohort uint64) *logTally {
	t.Helper()
	r, err := heaplog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := &logTally{perCohort: map[uint64]uint64{}, spans: map[uint64]bool{}, threadBytes: map[uint32]uint64{}, classes: map[uint32]uint64{}}
	type obj struct {
		size  uint64
		array bool
	}
	live := map[uint64]obj{}
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e.Kind {
		case heap.HeapAlloc:
			live[e.Object] = obj{e.Size, e.Array}
			s.allocated.Objects++
			s.allocated.Bytes += e.Size
			s.perCohort[e.Time/cohort] += e.Size
			for k := e.Time/cohort + 1; k*cohort < e.Time+e.Size; k++ {
				s.spans[k] = true
			}
			s.threadBytes[e.Thread] += e.Size
			s.classes[e.Class] += e.Size
			s.end = e.Time + e.Size
		case heap.HeapFree:
			o, ok := live[e.Object]
			if !ok {
				t.Fatalf("%s line %d: death of an object that is not live", path, r.Line())
			}
			delete(live, e.Object)
			s.freed.Objects++
			s.freed.Bytes += o.size
		}
	}
	return s
}

// requireJava skips a test that runs Java programs in the fast lane (-short), and where java,
// javac or gcc (the agents' compiler) is missing.
func requireJava(t *testing.T) {
	t.Helper()
	fastlane.Needs(t, "Java")
	for _, tool := range []string{"java", "javac", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (scripts/deps.sh installs openjdk-17-jdk-headless and gcc)", tool)
		}
	}
}

// A real Java program run through `androprof heap`: what the workspace keeps adds up, and
// agrees with an independent count of the raw log the agent wrote.
func TestHeapCommandTotalsAddUp(t *testing.T) {
	requireJava(t)
	dir := t.TempDir()
	classes := javaSampleClasses(t)
	db := filepath.Join(dir, "w.db")
	keep := filepath.Join(dir, "keep")
	const cohort = 64 << 10
	code, out, errOut := runCLI(t, db, "heap", "--run", "threads", "--cohort", "64K", "--keep", keep, "--json",
		"--", "java", "-cp", classes, "demo.Threads", "6", "3000", "4")
	if code != 0 {
		t.Fatalf("androprof heap: exit %d\n%s\n%s", code, out, errOut)
	}
	var summary struct {
		TotalAllocation uint64 `json:"total_allocation_bytes"`
		LiveBytes       uint64 `json:"live_bytes"`
		Threads         int    `json:"threads"`
	}
	if err := json.Unmarshal([]byte(out), &summary); err != nil {
		t.Fatalf("--json output %q: %v", out, err)
	}
	raw := tallyLog(t, filepath.Join(keep, "heap.heaplog"), cohort)

	ws, err := controller.OpenWorkspace(workspacedb.Databases(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	p, err := ws.HeapLogs.Profile(context.Background(), "threads", 1)
	if err != nil {
		t.Fatal(err)
	}
	if p.Cohort != cohort {
		t.Fatalf("cohort %d, want %d", p.Cohort, cohort)
	}
	// allocated = sum of sizes
	if p.Allocated.Bytes != raw.allocated.Bytes || p.Allocated.Objects != raw.allocated.Objects || p.End != raw.end ||
		summary.TotalAllocation != raw.allocated.Bytes {
		t.Errorf("allocated %+v end %d (json %d), the log's sizes sum to %+v end %d", p.Allocated, p.End, summary.TotalAllocation, raw.allocated, raw.end)
	}
	// live at the end = allocated − freed
	if p.Freed.Bytes != raw.freed.Bytes || p.Freed.Objects != raw.freed.Objects {
		t.Errorf("freed %+v, the log frees %+v", p.Freed, raw.freed)
	}
	ch := p.Characteristics()
	if ch.LiveBytes != raw.allocated.Bytes-raw.freed.Bytes || summary.LiveBytes != ch.LiveBytes {
		t.Errorf("live at the end %d (json %d), want allocated − freed = %d", ch.LiveBytes, summary.LiveBytes, raw.allocated.Bytes-raw.freed.Bytes)
	}
	// per-thread, per-class, per-cohort and per-size sums equal the totals; survivors are the live
	born := map[heap.HeapScope]heap.HeapCount{}
	survived := map[heap.HeapScope]uint64{}
	cohortBytes := map[uint64]uint64{}
	threadBytes, classBytes := map[uint32]uint64{}, map[uint32]uint64{}
	for _, c := range p.Cells {
		b := born[c.Scope]
		b.Objects += c.Born.Objects
		b.Bytes += c.Born.Bytes
		born[c.Scope] = b
		survived[c.Scope] += c.Survived.Bytes
		switch c.Scope {
		case heap.ScopeCohort:
			cohortBytes[c.Key] += c.Born.Bytes
		case heap.ScopeThread:
			threadBytes[uint32(c.Key)] += c.Born.Bytes
		case heap.ScopeClass:
			classBytes[uint32(c.Key)] += c.Born.Bytes
		}
	}
	for _, s := range []heap.HeapScope{heap.ScopeCohort, heap.ScopeThread, heap.ScopeClass, heap.ScopeSize} {
		if born[s].Bytes != p.Allocated.Bytes || born[s].Objects != p.Allocated.Objects || survived[s] != ch.LiveBytes {
			t.Errorf("scope %d: born %+v survived %d, want %+v and %d", s, born[s], survived[s], p.Allocated, ch.LiveBytes)
		}
	}
	for id, n := range raw.threadBytes {
		if threadBytes[id] != n {
			t.Errorf("thread %d: %d bytes stored, the log allocates %d", id, threadBytes[id], n)
		}
	}
	for id, n := range raw.classes {
		if classBytes[id] != n {
			t.Errorf("class %d: %d bytes stored, the log allocates %d", id, classBytes[id], n)
		}
	}
	// cohorts cover the run without gaps: every window has births or lies inside an object
	for k := uint64(0); k*cohort < p.End; k++ {
		if cohortBytes[k] != raw.perCohort[k] {
			t.Errorf("cohort %d: %d bytes stored, the log's births in it sum to %d", k, cohortBytes[k], raw.perCohort[k])
		}
		if cohortBytes[k] == 0 && !raw.spans[k] {
			t.Errorf("cohort %d (%d–%d bytes) is a gap: no births and no object spanning it", k, k*cohort, (k+1)*cohort)
		}
	}
	// The six workers allocated exactly what the program says, each in its own name.
	var workers int
	for _, r := range p.Table(heap.ScopeThread) {
		if len(r.Name) > 7 && r.Name[:7] == "worker-" {
			workers++
		}
	}
	if workers != 6 || summary.Threads < 7 {
		t.Errorf("%d worker threads of %d threads, want 6", workers, summary.Threads)
	}
	var nodes uint64
	for _, r := range p.Table(heap.ScopeClass) {
		if r.Name == "demo/Threads$Node" {
			nodes = r.Total.Objects
		}
	}
	if nodes != 6*3000 {
		t.Errorf("demo/Threads$Node allocated %d times, want %d", nodes, 6*3000)
	}

	// Every figure draws from the stored run, and report prints every table.
	for _, fig := range []string{"5.1", "5.5", "5.7", "5.8", "5.11", "5.17", "5.21", "5.23"} {
		png := filepath.Join(dir, "fig"+fig+".png")
		if code, _, errOut := runCLI(t, db, "chart", "--run", "threads", "--figure", fig, "--out", png); code != 0 {
			t.Errorf("chart --figure %s: exit %d: %s", fig, code, errOut)
		}
	}
	for _, by := range []string{"summary", "cohort", "thread", "class", "package", "size"} {
		if code, _, errOut := runCLI(t, db, "report", "--run", "threads", "--by", by, "--cohort", "128K"); code != 0 {
			t.Errorf("report --by %s: exit %d: %s", by, code, errOut)
		}
	}
	if code, _, errOut := runCLI(t, db, "report", "--run", "threads", "--cohort", "100K"); code != 2 {
		t.Errorf("a cohort that is not a multiple: exit %d: %s", code, errOut)
	}
}

// Both corpus dumps import through the command line, and their class tables print.
func TestImportCorpusDumps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	for _, name := range []string{"ahat-RI.hprof", "perflib-dialer.hprof"} {
		path := corpus.File(t, name)
		code, out, errOut := runCLI(t, db, "import", "--run", name, path)
		if code != 0 {
			t.Fatalf("import %s: exit %d\n%s%s", name, code, out, errOut)
		}
		code, out, errOut = runCLI(t, db, "report", "--run", name, "--by", "class", "--top", "5", "--json")
		var rep struct {
			Rows []struct {
				Name string `json:"name"`
			} `json:"rows"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Rows) != 5 {
			t.Errorf("report %s: exit %d %q %s", name, code, out, errOut)
		}
		png := filepath.Join(dir, name+".png")
		if code, _, errOut := runCLI(t, db, "chart", "--run", name, "--figure", "dump-pointers", "--out", png); code != 0 {
			t.Errorf("chart %s: exit %d: %s", name, code, errOut)
		}
	}
	code, out, _ := runCLI(t, db, "report", "--run", "perflib-dialer.hprof", "--heap", "app", "--by", "package", "--json")
	if code != 0 || !json.Valid([]byte(out)) {
		t.Errorf("dialer app heap packages: exit %d %q", code, out)
	}
}

// `heap --mutations` records the reference stores of a real program: the run counts pointer
// mutations, the text report no longer says there are none, and figure 5.22 draws.
func TestHeapMutations(t *testing.T) {
	requireJava(t)
	if _, err := os.Stat("/usr/share/java/asm.jar"); err != nil {
		t.Skip("no /usr/share/java/asm.jar (scripts/deps.sh installs libasm-java)")
	}
	dir := t.TempDir()
	classes := javaSampleClasses(t)
	db := filepath.Join(dir, "w.db")
	code, out, errOut := runCLI(t, db, "heap", "--mutations", "--json", "--", "java", "-cp", classes, "demo.Mutate", "3000")
	if code != 0 {
		t.Fatalf("heap --mutations: exit %d\n%s\n%s", code, out, errOut)
	}
	var summary struct {
		Run       string `json:"run"`
		Mutations uint64 `json:"pointer_mutations"`
	}
	if err := json.Unmarshal([]byte(out), &summary); err != nil {
		t.Fatalf("--json output %q: %v", out, err)
	}
	if summary.Run != "demo.Mutate" || summary.Mutations == 0 {
		t.Errorf("run %q with %d pointer mutations, want demo.Mutate with some", summary.Run, summary.Mutations)
	}
	code, out, errOut = runCLI(t, db, "report", "--run", "demo.Mutate")
	if code != 0 || strings.Contains(out, "no pointer mutations") {
		t.Errorf("report: exit %d\n%s%s", code, out, errOut)
	}
	png := filepath.Join(dir, "fig5.22.png")
	if code, _, errOut := runCLI(t, db, "chart", "--run", "demo.Mutate", "--figure", "5.22", "--out", png); code != 0 {
		t.Fatalf("chart --figure 5.22: exit %d: %s", code, errOut)
	}
	if st, err := os.Stat(png); err != nil || st.Size() == 0 {
		t.Errorf("figure 5.22: %v", err)
	}
}
