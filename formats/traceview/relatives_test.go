package traceview

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"androprof/model/calls"
)

// These tests hold the parents and children of every method of every corpus trace to
// dmtracedump's inclusive profile: one row per caller or callee, "count/total" calls and
// inclusive time, with the recursive rows (those dmtracedump prints below its "+++++" line)
// apart. The expected rows are testdata/dmtracedump/*.relatives.golden, written by model.py
// --relatives, which says the rules in prose and shares no code with the project.

// relativeKinds are model.py's names for the four lists, in its order.
var relativeKinds = []string{"parent", "parent+", "child", "child+"}

// TestDmtracedumpRelativesGolden compares every method's relatives with the model's.
func TestDmtracedumpRelativesGolden(t *testing.T) {
	compareGoldens(t, ".relatives.golden", relativesGolden)
}

// TestDrawChildRelativesByHand is finding 4 of issue 23 as dmtracedump prints it for
// sns-logout: ViewGroup.drawChild is called 103 times, all from ViewGroup.dispatchDraw: 9 calls
// with no other drawChild below them (846,218 µs: the method's own inclusive time) and 94
// nested in an outer drawChild (2,615,473 µs, below the "+++++" line). One row of 103 calls and
// 3,461,691 µs would be more than the method's inclusive time.
func TestDrawChildRelativesByHand(t *testing.T) {
	_, p := readCorpus(t, "sns-logout.trace")
	const drawChild, dispatchDraw = 0x410fdf40, 0x410fdc00
	parents, children := p.Relatives(p.Edges, calls.RecursiveEdges(p.Tree), drawChild, 0)
	want := []string{"0x410fdc00 plain 9/103 846218", "0x410fdc00 recursive 94/103 2615473"}
	if got := relativeRows(parents); !slices.Equal(got, want) {
		t.Errorf("drawChild's parents %v, want %v", got, want)
	}
	if incl := p.ByMethod()[drawChild].InclusiveCPU; incl != 846218 {
		t.Errorf("drawChild inclusive %d µs", incl)
	}
	// dispatchDraw's own children: drawChild again, split by whether dispatchDraw was nested.
	_, children = p.Relatives(p.Edges, calls.RecursiveEdges(p.Tree), dispatchDraw, 0)
	for _, w := range []string{"0x410fdf40 plain 9/103 846218", "0x410fdf40 recursive 94/103 2615473"} {
		if !slices.Contains(relativeRows(children), w) {
			t.Errorf("dispatchDraw's children %v lack %s", relativeRows(children), w)
		}
	}
}

func relativeRows(rs []calls.Relative) []string {
	var out []string
	for _, r := range rs {
		kind := "plain"
		if r.Recursive {
			kind = "recursive"
		}
		out = append(out, fmt.Sprintf("%#x %s %d/%d %d", r.Method, kind, r.Calls, r.TotalCalls, r.InclusiveCPU))
	}
	return out
}

// relativesGolden prints every method's relatives the way model.py --relatives does.
func relativesGolden(p *calls.CallProfile) string {
	type line struct {
		method, rel uint64
		kind        int
		text        string
	}
	rec := calls.RecursiveEdges(p.Tree)
	var lines []line
	for id := range p.ByMethod() {
		parents, children := p.Relatives(p.Edges, rec, id, 0)
		for i, list := range [][]calls.Relative{parents, children} {
			for _, r := range list {
				kind := 2 * i
				if r.Recursive {
					kind++
				}
				lines = append(lines, line{id, r.Method, kind, fmt.Sprintf("%s\t%s\t%s\t%d\t%d\t%d\n",
					dmtIdent(p, id), relativeKinds[kind], dmtIdent(p, r.Method), r.Calls, r.TotalCalls, r.InclusiveCPU)})
			}
		}
	}
	slices.SortFunc(lines, func(a, b line) int {
		return cmp.Or(compareIDs(a.method, b.method), cmp.Compare(a.kind, b.kind), compareIDs(a.rel, b.rel))
	})
	var sb strings.Builder
	for _, l := range lines {
		sb.WriteString(l.text)
	}
	return sb.String()
}

// dmtIdent names a method as model.py does: its id, or the synthetic method's name.
func dmtIdent(p *calls.CallProfile, id uint64) string {
	if dmtRank(id) < 2 {
		return p.Methods[id].Class
	}
	return fmt.Sprintf("%#x", id)
}

func compareIDs(a, b uint64) int {
	return cmp.Or(cmp.Compare(dmtRank(a), dmtRank(b)), cmp.Compare(a, b))
}

// dmtRank puts (toplevel) and (unknown) before the trace's methods, as model.py does.
func dmtRank(id uint64) int {
	switch id {
	case calls.TopLevelMethod:
		return 0
	case calls.UnknownMethod:
		return 1
	}
	return 2
}
