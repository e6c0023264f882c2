package traceview

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"androprof/internal/corpus"
	callsmodel "androprof/model/calls"
)

// These tests hold the method table of every corpus trace to what Android's dmtracedump
// computes for it (thread-CPU exclusive and inclusive times, calls). How the expected numbers
// were derived:
//   - perflib-basic, -exception, -mismatched: by hand, record by record, from dmtracedump's rules
//     (testdata/dmtracedump/model.py says them in prose); the derivation is in the comments below.
//   - every file: testdata/dmtracedump/*.golden, written by model.py, an independent re-statement
//     of those rules that shares no code with this package. Spot values from the large files
//     were checked by hand against their records (TestCorpusSpotValues).

// dmtRow is one line of dmtracedump's method table: thread-CPU times in µs.
type dmtRow struct {
	excl, incl            uint64
	calls, recursiveCalls int64
}

func methodTable(p *callsmodel.CallProfile) map[uint64]dmtRow {
	out := map[uint64]dmtRow{}
	for id, t := range p.ByMethod() {
		out[id] = dmtRow{t.ExclusiveCPU, t.InclusiveCPU, t.Calls, t.RecursiveCalls}
	}
	return out
}

func TestDmtracedumpPerflibByHand(t *testing.T) {
	const top = callsmodel.TopLevelMethod
	for _, tc := range []struct {
		file string
		want map[uint64]dmtRow
	}{
		// Thread 11, thread-CPU µs: three exits with an empty stack at 3, 7, 9 (orphans: entry 0,
		// so inclusive = exit time; exclusive = time since the previous event: 0, 4, 2), foo 16→23
		// around bar 19→21, Debug.stopMethodTracing entered at 45 and VMDebug.stopMethodTracing at
		// 61, both still open at the end (closed at 61). (toplevel) gets 16−9 + 45−23 = 29 and
		// spans 61−3 = 58.
		{"perflib-basic.trace", map[uint64]dmtRow{
			top:        {29, 58, 0, 0},
			0x627f5868: {0, 3, 1, 0},   // VMDebug.startMethodTracing
			0x6287d9d0: {4, 7, 1, 0},   // Debug.startMethodTracing(String,int,int)
			0x6287d960: {2, 9, 1, 0},   // Debug.startMethodTracing(String)
			0x62ae8a48: {5, 7, 1, 0},   // Basic.foo: 19−16 + 23−21
			0x62ae8a10: {2, 2, 1, 0},   // Basic.bar
			0x6287dae8: {16, 16, 1, 0}, // Debug.stopMethodTracing: 61−45, open at the end
			0x627f59f0: {0, 0, 1, 0},   // VMDebug.stopMethodTracing: entered at the last event
		}},
		// Orphans at 3, 6, 9; foo 14 → bar 17 → baz 20 → RuntimeException.<init> 26 →
		// Exception.<init> 29 → Throwable.<init> 31 → emptyList 34–36, fillInStackTrace 38 →
		// nativeFillInStackTrace 41–50, fillIn exits 53; the <init>s exit at 55, 57, 59; then
		// baz, bar and foo are unrolled (action 2) at 62, 64, 66; stopMethodTracing 69, 72.
		{"perflib-exception.trace", map[uint64]dmtRow{
			top:        {8, 69, 0, 0}, // 14−9 + 69−66; 72−3
			0x627f5868: {0, 3, 1, 0},
			0x6287d9d0: {3, 6, 1, 0},
			0x6287d960: {3, 9, 1, 0},
			0x62ae8ce8: {5, 52, 1, 0}, // foo: 17−14 + 66−64
			0x62ae8c78: {5, 47, 1, 0}, // bar: 20−17 + 64−62
			0x62ae8cb0: {9, 42, 1, 0}, // baz: 26−20 + 62−59
			0x627ec4a0: {5, 33, 1, 0}, // RuntimeException.<init>: 29−26 + 59−57
			0x627ec588: {4, 28, 1, 0}, // Exception.<init>: 31−29 + 57−55
			0x627e6390: {7, 24, 1, 0}, // Throwable.<init>: 34−31 + 38−36 + 55−53
			0x6281a708: {2, 2, 1, 0},  // Collections.emptyList
			0x627e6670: {6, 15, 1, 0}, // fillInStackTrace: 41−38 + 53−50
			0x627e6518: {9, 9, 1, 0},  // nativeFillInStackTrace
			0x6287dae8: {3, 3, 1, 0},
			0x627f59f0: {0, 0, 1, 0},
		}},
		// Orphans at 3, 6, 9; baz 15–17; then bar and foo exit with an empty stack at 19 and 21:
		// more orphans, inclusive 19 and 21 since time 0, exclusive 2 each.
		{"perflib-mismatched.trace", map[uint64]dmtRow{
			top:        {8, 23, 0, 0}, // 15−9 + 23−21; 26−3
			0x627f5868: {0, 3, 1, 0},
			0x6287d9d0: {3, 6, 1, 0},
			0x6287d960: {3, 9, 1, 0},
			0x62ae8b60: {2, 2, 1, 0},  // baz
			0x62ae8b28: {2, 19, 1, 0}, // bar
			0x62ae8b98: {2, 21, 1, 0}, // foo
			0x6287dae8: {3, 3, 1, 0},
			0x627f59f0: {0, 0, 1, 0},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, p := readCorpus(t, tc.file)
			got := methodTable(p)
			for id, w := range tc.want {
				if got[id] != w {
					t.Errorf("method %#x: got %+v, want %+v", id, got[id], w)
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("%d methods in the table, want %d", len(got), len(tc.want))
			}
		})
	}
}

// TestPerflibExpectations cross-checks with perflib's own VmTraceParserTest: the call tree it
// expects (as caller→callee edges), and its testMethodStats2 invariant that the exclusive times
// of all methods sum to the top-level call's inclusive time.
func TestPerflibExpectations(t *testing.T) {
	const top = callsmodel.TopLevelMethod
	for _, tc := range []struct {
		file  string
		edges [][2]uint64
		// perflib nests the orphans into a chain (each exit without an enter becomes the caller of
		// everything before it); dmtracedump's inclusive times, counted from 0, must nest the same way.
		chain []uint64
	}{
		{"perflib-basic.trace", [][2]uint64{{0x62ae8a48, 0x62ae8a10}, {0x6287dae8, 0x627f59f0},
			{top, 0x62ae8a48}, {top, 0x6287dae8}}, []uint64{0x627f5868, 0x6287d9d0, 0x6287d960}},
		{"perflib-exception.trace", [][2]uint64{{0x62ae8ce8, 0x62ae8c78}, {0x62ae8c78, 0x62ae8cb0},
			{0x62ae8cb0, 0x627ec4a0}, {0x627ec4a0, 0x627ec588}, {0x627ec588, 0x627e6390},
			{0x627e6390, 0x6281a708}, {0x627e6390, 0x627e6670}, {0x627e6670, 0x627e6518},
			{0x6287dae8, 0x627f59f0}}, []uint64{0x627f5868, 0x6287d9d0, 0x6287d960}},
		{"perflib-mismatched.trace", [][2]uint64{{top, 0x62ae8b60}, {0x6287dae8, 0x627f59f0}},
			[]uint64{0x627f5868, 0x6287d9d0, 0x6287d960, 0x62ae8b28, 0x62ae8b98}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, p := readCorpus(t, tc.file)
			for _, e := range tc.edges {
				if p.Edges[callsmodel.CallEdge{TID: 11, Caller: e[0], Callee: e[1]}].Calls != 1 {
					t.Errorf("no call %#x → %#x", e[0], e[1])
				}
			}
			m := methodTable(p)
			for i := 1; i < len(tc.chain); i++ {
				if m[tc.chain[i]].incl <= m[tc.chain[i-1]].incl {
					t.Errorf("%#x (%d µs) should contain %#x (%d µs)", tc.chain[i], m[tc.chain[i]].incl, tc.chain[i-1], m[tc.chain[i-1]].incl)
				}
			}
			var sum uint64
			for _, r := range m {
				sum += r.excl
			}
			if sum != m[top].incl {
				t.Errorf("exclusive times sum to %d, (toplevel) spans %d", sum, m[top].incl)
			}
		})
	}
}

// TestDmtracedumpGolden compares the whole method table of every corpus trace with the one the
// independent model derived.
func TestDmtracedumpGolden(t *testing.T) {
	compareGoldens(t, ".golden", dmtGolden)
}

// corpusGoldenTraces are the corpus traces model.py wrote goldens for.
var corpusGoldenTraces = []string{"perflib-basic", "perflib-exception", "perflib-mismatched", "jag-dmtrace", "sns-logout", "art-trace-regular"}

// compareGoldens checks, for every corpus trace, what text makes of its profile against
// testdata/dmtracedump/NAME+suffix, naming the first line that differs.
func compareGoldens(t *testing.T, suffix string, text func(*callsmodel.CallProfile) string) {
	for _, name := range corpusGoldenTraces {
		t.Run(name, func(t *testing.T) {
			file := name + ".trace"
			if name == "art-trace-regular" {
				file += ".gz"
			}
			_, p := readCorpus(t, file)
			want, err := os.ReadFile(filepath.Join("testdata", "dmtracedump", name+suffix))
			if err != nil {
				t.Fatal(err)
			}
			got := text(p)
			if got != string(want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Fatalf("line %d:\n got  %s\n want %s", i+1, gl[i], wl[i])
					}
				}
				t.Fatalf("%d lines, want %d", len(gl), len(wl))
			}
		})
	}
}

// dmtGolden prints a profile's method table the way model.py does.
func dmtGolden(p *callsmodel.CallProfile) string {
	rows := p.ByMethod()
	ids := make([]uint64, 0, len(rows))
	for id := range rows {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, compareIDs)
	var sb strings.Builder
	for _, id := range ids {
		r, m := rows[id], p.Methods[id]
		ident, name := fmt.Sprintf("%#x", id), m.Class+"."+m.Name+" "+m.Signature
		if dmtRank(id) < 2 {
			ident, name = m.Class, m.Class
		}
		fmt.Fprintf(&sb, "%s\t%d\t%d\t%d\t%d\t%s\n", ident, r.ExclusiveCPU, r.InclusiveCPU, r.Calls, r.RecursiveCalls, name)
	}
	return sb.String()
}

// TestCorpusInvariants checks what must hold on any trace: per thread, exclusive times (with
// (toplevel)'s) sum to the thread's span on both clocks; (toplevel)'s inclusive time is the sum
// of the spans; on a thread without orphans the level-1 calls cover the span less (toplevel)'s
// exclusive time; every call ends no earlier than it starts.
func TestCorpusInvariants(t *testing.T) {
	for _, file := range []string{"perflib-basic.trace", "perflib-exception.trace", "perflib-mismatched.trace",
		"jag-dmtrace.trace", "sns-logout.trace", "art-trace-regular.trace.gz"} {
		t.Run(file, func(t *testing.T) {
			f, err := os.Open(corpus.File(t, file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			b := callsmodel.NewCallBuilder()
			orphans := map[int]int{}
			calls := 0
			b.OnCall = func(c callsmodel.Call) {
				calls++
				if c.Orphan {
					orphans[c.TID]++
				}
				if c.EndCPU < c.StartCPU || c.EndWall < c.StartWall {
					t.Errorf("call %+v ends before it starts", c)
				}
			}
			if err := NewReader(f, file).Feed(b); err != nil {
				t.Fatal(err)
			}
			p := b.Finish()
			hasWall := p.Clock.HasWall()
			exclCPU, exclWall := map[int]uint64{}, map[int]uint64{}
			var n int64
			for k, m := range p.PerThread {
				exclCPU[k.TID] += m.ExclusiveCPU
				exclWall[k.TID] += m.ExclusiveWall
				n += m.Calls + m.RecursiveCalls
			}
			if int(n) != calls {
				t.Errorf("%d calls in the table, %d handed to OnCall", n, calls)
			}
			for _, th := range p.Threads {
				if th.Events == 0 {
					continue
				}
				if exclCPU[th.TID] != th.ElapsedCPU() || hasWall && exclWall[th.TID] != th.ElapsedWall() {
					t.Errorf("thread %d: exclusive sums %d/%d, spans %d/%d", th.TID, exclCPU[th.TID], exclWall[th.TID], th.ElapsedCPU(), th.ElapsedWall())
				}
				topExcl := p.PerThread[callsmodel.ThreadMethod{TID: th.TID, Method: callsmodel.TopLevelMethod}]
				if orphans[th.TID] == 0 && th.Level1CPU != th.ElapsedCPU()-topExcl.ExclusiveCPU {
					t.Errorf("thread %d: level-1 calls %d µs, span less (toplevel) %d µs", th.TID, th.Level1CPU, th.ElapsedCPU()-topExcl.ExclusiveCPU)
				}
			}
			if top := p.ByMethod()[callsmodel.TopLevelMethod]; top.InclusiveCPU != p.TotalCPU() {
				t.Errorf("(toplevel) inclusive %d, total %d", top.InclusiveCPU, p.TotalCPU())
			}
			if p.Anomalies.Mismatched != 0 || p.Anomalies.Backwards != 0 {
				t.Errorf("anomalies %+v: dmtracedump would have stopped", p.Anomalies)
			}
		})
	}
}

// TestCorpusSpotValues holds a few methods of the large traces to values worked out by hand from
// their records (the records are quoted).
func TestCorpusSpotValues(t *testing.T) {
	for _, tc := range []struct {
		file string
		id   uint64
		want dmtRow
	}{
		// jag-dmtrace, thread 12, String.valueOf(int): 834→841 (Integer.toString 835–841 inside),
		// 4092→4107 (toString 4094–4106), 4161→4166 (toString 4161–4165): inclusive 7+15+5,
		// exclusive 1+0 + 2+1 + 0+1.
		{"jag-dmtrace.trace", 0x9f253560, dmtRow{5, 27, 3, 0}},
		// sns-logout, thread 3, LayoutInflater.from: entered at 225126 (getSystemService next at
		// 225179), again inside at 225324 (next event 225377), inner exit 226184 (previous 226129),
		// outer exit 226815 (previous 226760): inclusive only for the outer call, 226815−225126;
		// exclusive 53+53+55+55; one call and one recursive call.
		{"sns-logout.trace", 0x411b9ac8, dmtRow{216, 1689, 1, 1}},
		// art-trace-regular, thread 21491, Fragment.performResume: entered twice at 542513, both
		// exits at 545926; ART's thread clock did not move between neighbouring events.
		{"art-trace-regular.trace.gz", 0x1018, dmtRow{0, 3413, 1, 1}},
	} {
		_, p := readCorpus(t, tc.file)
		if got := methodTable(p)[tc.id]; got != tc.want {
			t.Errorf("%s %#x: got %+v, want %+v", tc.file, tc.id, got, tc.want)
		}
	}
}
