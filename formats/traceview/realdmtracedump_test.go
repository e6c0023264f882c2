package traceview

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"androprof/internal/corpus"
	"androprof/internal/fastlane"
	"androprof/model/calls"
)

// These tests hold the workbench to the real dmtracedump (Debian's package of Android's
// art/tools/dmtracedump), run on every method trace of the corpus: its method table (exclusive
// and inclusive thread-CPU µs, calls and recursive calls) and every parent and child row of its
// inclusive profile. The goldens of model.py restate dmtracedump's rules; this is the tool itself.

// dmtMaxShown bounds the differences a failure lists after the first.
const dmtMaxShown = 5

func TestRealDmtracedump(t *testing.T) {
	fastlane.Needs(t, "dmtracedump")
	tool, err := exec.LookPath("dmtracedump")
	if err != nil {
		t.Fatalf("dmtracedump is not installed (scripts/deps.sh installs the Debian package dmtracedump): %v", err)
	}
	dir := filepath.Dir(corpus.File(t, "README.md"))
	traces := corpusTraces(t, dir)
	for _, name := range traces {
		t.Run(name, func(t *testing.T) {
			out, err := runDmtracedump(t, tool, filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			_, p := readCorpus(t, name)
			report(t, "method table", compareMethodTable(p, out))
			report(t, "parents and children", compareRelatives(p, out))
			t.Logf("%d methods, %d parent and child rows compared", len(out.methods), out.relativeRows())
		})
	}
}

// TestDmtracedumpOutputParse holds the reader of dmtracedump's text to a block of
// sns-logout's output as the tool prints it: parents above the method's line, recursive rows
// below "+++++", an ART name with its source file.
func TestDmtracedumpOutputParse(t *testing.T) {
	const text = `Total cycles: 58

Exclusive elapsed times for each method, not including time spent in
children, sorted by exclusive time.

    Usecs  self %  sum %  Method
   129068    2.31   2.31  [30] android/view/ViewGroup.drawChild (J)Z
       29   50.00  50.00  [0] (toplevel)

======================================================================

Inclusive elapsed times for each method and its parents and children,
sorted by inclusive time.

index  %/total %/self  index     calls         usecs name
----------------------------------------------------
                99.2%   [29]      9/103       846218 android/view/ViewGroup.dispatchDraw (L;)V
               +++++++++++++++++++++++++
                        [29]     94/103      2615473 android/view/ViewGroup.dispatchDraw (L;)V
[30]    15.2%                     9+94        846218 android/view/ViewGroup.drawChild (J)Z
                 2.1%   excl                   17800
                50.0%    [7]      9/9         423109 a.B.c ()V	B.java
               +++++++++++++++++++++++++
                         [7]     90/99       1200000 a.B.c ()V	B.java

======================================================================

Exclusive elapsed time for each class, summed over all the methods
in the class.

   Cycles %/total Cumul.%  Calls+Recur  Class
---------------------------------------------
   129068     2.3     2.3      9+94     android/view/ViewGroup
   129068    846218   100.0   100.0      9+94     [30] drawChild (J)Z
        0         0     0.0   100.0      0+1      [31] unseen ()V
`
	out, err := parseDmtracedump(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	m := out.methods[30]
	want := dmtdMethod{name: "android/view/ViewGroup.drawChild (J)Z", excl: 129068, incl: 846218, topExcl: 17800,
		calls: 9, recursive: 94, hasBlock: true, hasCalls: true, relatives: []string{
			"parent android/view/ViewGroup.dispatchDraw (L;)V 9/103 846218",
			"parent+ android/view/ViewGroup.dispatchDraw (L;)V 94/103 2615473",
			"child a.B.c ()V 9/9 423109",
			"child+ a.B.c ()V 90/99 1200000"}}
	if m == nil || fmt.Sprint(*m) != fmt.Sprint(want) {
		t.Errorf("[30]: got %+v\nwant %+v", m, want)
	}
	if out.totalCycles != 58 || out.methods[0].excl != 29 || out.methods[7].name != "a.B.c ()V" {
		t.Errorf("total %d, (toplevel) %+v, [7] %+v", out.totalCycles, out.methods[0], out.methods[7])
	}
	if u := out.methods[31]; u == nil || !u.hasCalls || u.recursive != 1 || u.name != "android/view/ViewGroup.unseen ()V" {
		t.Errorf("[31] from the class section: %+v", u)
	}
}

// corpusTraces lists the method traces in the corpus folder.
func corpusTraces(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	for _, pattern := range []string{"*.trace", "*.trace.gz"} {
		found, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			names = append(names, filepath.Base(f))
		}
	}
	if len(names) == 0 {
		t.Fatalf("no *.trace or *.trace.gz in %s", dir)
	}
	slices.Sort(names)
	return names
}

// runDmtracedump profiles a trace with the real tool, which reads only plain files: a gzip
// is unpacked to a temporary file first.
func runDmtracedump(t *testing.T, tool, path string) (*dmtOut, error) {
	t.Helper()
	if strings.HasSuffix(path, ".gz") {
		path = gunzipTo(t, path)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(t.Context(), tool, path)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("dmtracedump %s: %v: %s", filepath.Base(path), err, strings.TrimSpace(stderr.String()))
	}
	if !strings.Contains(stdout.String(), "Inclusive elapsed times") {
		return nil, fmt.Errorf("dmtracedump %s printed no profile: %s", filepath.Base(path), strings.TrimSpace(stderr.String()))
	}
	return parseDmtracedump(&stdout)
}

func gunzipTo(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(path), ".gz"))
	w, err := os.Create(plain)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(w, zr); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return plain
}

// report fails t with the differences found, the first one first.
func report(t *testing.T, what string, diffs []string) {
	t.Helper()
	if len(diffs) == 0 {
		return
	}
	shown := diffs[:min(len(diffs), dmtMaxShown)]
	t.Errorf("%s: %d differences from dmtracedump; first:\n  %s", what, len(diffs), strings.Join(shown, "\n  "))
}

// dmtTime picks the clock dmtracedump reads, the record's first time field: thread-CPU unless
// the trace has only wall-clock time.
func dmtTime(p *calls.CallProfile, cpu, wall uint64) uint64 {
	if p.Clock.HasCPU() {
		return cpu
	}
	return wall
}

// methodIDs maps dmtracedump's index to the workbench's method id by full name (dmtracedump's
// ids are its own ranks); a name the workbench does not know, or knows twice, is a difference.
func methodIDs(p *calls.CallProfile, out *dmtOut) (map[int]uint64, []string) {
	byName := map[string][]uint64{}
	for id, m := range p.Methods {
		byName[calls.MethodName(m)] = append(byName[calls.MethodName(m)], id)
	}
	ids, diffs := map[int]uint64{}, []string(nil)
	for _, i := range slices.Sorted(maps.Keys(out.methods)) {
		d := out.methods[i]
		switch found := byName[d.name]; {
		case d.name == "":
			diffs = append(diffs, fmt.Sprintf("[%d]: dmtracedump never prints its full name", i))
		case len(found) != 1:
			diffs = append(diffs, fmt.Sprintf("[%d] %s: %d workbench methods of that name", i, d.name, len(found)))
		default:
			ids[i] = found[0]
		}
	}
	return ids, diffs
}

// compareMethodTable compares every method's row: exclusive and inclusive time, and calls
// wherever dmtracedump prints them; a method the workbench gives time that dmtracedump does not
// print is a difference too.
func compareMethodTable(p *calls.CallProfile, out *dmtOut) []string {
	ids, diffs := methodIDs(p, out)
	if total := dmtTime(p, p.TotalCPU(), p.TotalWall()); total != out.totalCycles {
		diffs = append(diffs, fmt.Sprintf("total cycles: dmtracedump %d, workbench %d", out.totalCycles, total))
	}
	rows := p.ByMethod()
	for _, i := range slices.Sorted(maps.Keys(ids)) {
		d, w := out.methods[i], rows[ids[i]]
		field := func(what string, dmt, wb any) {
			if dmt != wb {
				diffs = append(diffs, fmt.Sprintf("[%d] %s: %s dmtracedump %v, workbench %v", i, d.name, what, dmt, wb))
			}
		}
		field("exclusive", d.excl, dmtTime(p, w.ExclusiveCPU, w.ExclusiveWall))
		field("inclusive", d.incl, dmtTime(p, w.InclusiveCPU, w.InclusiveWall))
		if d.hasCalls {
			field("calls", fmt.Sprintf("%d+%d", d.calls, d.recursive), fmt.Sprintf("%d+%d", w.Calls, w.RecursiveCalls))
		}
	}
	printed := map[uint64]bool{}
	for _, id := range ids {
		printed[id] = true
	}
	for _, id := range slices.Sorted(maps.Keys(rows)) {
		if w := rows[id]; !printed[id] && (w.ExclusiveCPU|w.InclusiveCPU|w.ExclusiveWall|w.InclusiveWall) != 0 {
			diffs = append(diffs, fmt.Sprintf("%s: workbench %+v, not in dmtracedump's output", calls.MethodName(p.Methods[id]), w))
		}
	}
	return diffs
}

// compareRelatives compares the parent and child rows of every method dmtracedump prints a
// block for (those with inclusive time), as "kind name count/total inclusive".
func compareRelatives(p *calls.CallProfile, out *dmtOut) []string {
	ids, _ := methodIDs(p, out)
	rec := calls.RecursiveEdges(p.Tree)
	var diffs []string
	for _, i := range slices.Sorted(maps.Keys(ids)) {
		d := out.methods[i]
		if !d.hasBlock {
			continue
		}
		parents, children := p.Relatives(p.Edges, rec, ids[i], 0)
		got := append(relativeTexts(p, "parent", parents), relativeTexts(p, "child", children)...)
		onlyDmt, onlyWb := setDiff(d.relatives, got), setDiff(got, d.relatives)
		for k := range max(len(onlyDmt), len(onlyWb)) {
			diffs = append(diffs, fmt.Sprintf("[%d] %s: dmtracedump %q, workbench %q", i, d.name, at(onlyDmt, k), at(onlyWb, k)))
		}
	}
	return diffs
}

// relativeTexts prints relatives as parseDmtracedump keeps dmtracedump's rows.
func relativeTexts(p *calls.CallProfile, kind string, rs []calls.Relative) []string {
	var out []string
	for _, r := range rs {
		k := kind
		if r.Recursive {
			k += "+"
		}
		out = append(out, fmt.Sprintf("%s %s %d/%d %d", k, r.Name, r.Calls, r.TotalCalls, dmtTime(p, r.InclusiveCPU, r.InclusiveWall)))
	}
	return out
}

// setDiff is a's rows missing from b, sorted, counting repeats.
func setDiff(a, b []string) []string {
	left := map[string]int{}
	for _, s := range b {
		left[s]++
	}
	var out []string
	for _, s := range a {
		if left[s] > 0 {
			left[s]--
			continue
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}
