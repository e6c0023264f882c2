package traceview

import (
	"fmt"
	"math/rand/v2"

	"androprof/model/calls"
)

// traceGen makes a plausible method trace one event at a time, so tests and the benchmark can
// write traces of any size without holding them: threads take turns in bursts, calls nest up to
// a depth, some methods recurse, some calls end by exception (unroll), the first exits of a
// thread may be orphans (frames from before tracing), a few ids are undeclared, and clocks may
// start near the 32-bit wrap.
type traceGen struct {
	rng      *rand.Rand
	threads  []*genThread
	methods  []calls.MethodInfo
	callees  map[uint64][]uint64 // a fixed call graph: each method calls a few others
	maxDepth int
	cur      *genThread
	burst    int
	unknown  bool // emit some undeclared method ids
}

type genThread struct {
	tid       int
	stack     []uint64
	cpu, wall uint64
	orphans   int // exits without enters still to emit first
}

func newTraceGen(seed uint64, threads, methods, maxDepth int, start uint64) *traceGen {
	g := &traceGen{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), maxDepth: maxDepth}
	for i := range methods {
		g.methods = append(g.methods, calls.MethodInfo{
			ID:    uint64(0x1000 + 4*i),
			Class: fmt.Sprintf("com/example/pkg%d/Class%d", i%7, i%31), Name: fmt.Sprintf("m%d", i),
			Signature: "(I)V", File: fmt.Sprintf("Class%d.java", i%31), Line: i % 500,
		})
	}
	g.callees = map[uint64][]uint64{}
	for _, m := range g.methods {
		for range 1 + g.rng.IntN(6) {
			g.callees[m.ID] = append(g.callees[m.ID], g.method())
		}
	}
	for i := range threads {
		g.threads = append(g.threads, &genThread{tid: i + 1, cpu: start + uint64(i), wall: start + uint64(3*i), orphans: i % 3})
	}
	return g
}

func (g *traceGen) threadInfos() []calls.ThreadInfo {
	var out []calls.ThreadInfo
	for _, t := range g.threads {
		out = append(out, calls.ThreadInfo{TID: t.tid, Name: fmt.Sprintf("worker %d", t.tid)})
	}
	return out
}

func (g *traceGen) method() uint64 {
	if g.unknown && g.rng.IntN(200) == 0 {
		return 0xF0000
	}
	// Skewed: a few methods are hot, as in real traces.
	n := len(g.methods)
	i := int(float64(n) * g.rng.Float64() * g.rng.Float64())
	return g.methods[i].ID
}

func (g *traceGen) next() calls.MethodEvent {
	if g.cur == nil || g.burst == 0 {
		g.cur = g.threads[g.rng.IntN(len(g.threads))]
		g.burst = 1 + g.rng.IntN(40)
	}
	g.burst--
	t := g.cur
	d := uint64(g.rng.IntN(8))
	t.cpu += d
	t.wall += d + uint64(g.rng.IntN(5))
	e := calls.MethodEvent{TID: t.tid, ThreadCPU: t.cpu, Wall: t.wall}
	switch {
	case t.orphans > 0:
		t.orphans--
		e.Method, e.Action = g.method(), calls.Exit
	case len(t.stack) == 0 || len(t.stack) < g.maxDepth && g.rng.IntN(2) == 0:
		e.Method = g.method()
		if n := len(t.stack); n > 0 {
			top := t.stack[n-1]
			if cs := g.callees[top]; len(cs) > 0 {
				e.Method = cs[g.rng.IntN(len(cs))]
			}
			if g.rng.IntN(20) == 0 {
				e.Method = top // recursion
			}
		}
		t.stack = append(t.stack, e.Method)
	default:
		e.Method, e.Action = t.stack[len(t.stack)-1], calls.Exit
		if g.rng.IntN(50) == 0 {
			e.Action = calls.Unroll
		}
		t.stack = t.stack[:len(t.stack)-1]
	}
	return e
}

// project keeps the times a clock carries, as a reader gives them back.
func project(e calls.MethodEvent, c calls.Clock) calls.MethodEvent {
	if !c.HasCPU() {
		e.ThreadCPU = 0
	}
	if !c.HasWall() {
		e.Wall = 0
	}
	return e
}
