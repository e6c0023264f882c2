package samples

import (
	"strings"

	"androprof/model/layers"
)

// SampleBuilder keeps a recording's samples as a SampleProfile while a reader streams them:
// symbols and calling contexts are interned, so memory grows with the program's distinct
// stacks and by 24 bytes per sample, never with the text of the stacks.
type SampleBuilder struct {
	target  SampleSelection // the recording's target: threads and a time window (Focus is analysis)
	p       SampleProfile
	threads map[[2]int]int32
	symbols map[layers.SampleSymbol]int32
	nodes   map[StackNode]int32
	firstNS int64
	started bool
	unnamed Frame // the frame of a sample that came without one
}

// NewSampleBuilder starts a profile; samples outside target are counted in LeftOut, not kept.
func NewSampleBuilder(target SampleSelection) *SampleBuilder {
	return &SampleBuilder{target: target, threads: map[[2]int]int32{}, symbols: map[layers.SampleSymbol]int32{},
		nodes: map[StackNode]int32{}, unnamed: Frame{Image: "[unknown]"}}
}

// Sample keeps one sample (a SampleSink).
func (b *SampleBuilder) Sample(s *Sample) error {
	if !b.started {
		b.started, b.firstNS = true, s.TimeNS
	}
	t := s.TimeNS - b.firstNS
	if !b.inTarget(s, t) {
		b.p.LeftOut++
		return nil
	}
	stack := s.Stack
	if len(stack) == 0 {
		stack = []Frame{b.unnamed}
	}
	node := int32(-1)
	for i := len(stack) - 1; i >= 0; i-- { // outermost first
		node = b.node(node, b.symbol(stack[i]))
	}
	b.p.Samples = append(b.p.Samples, SampleRec{Thread: b.thread(s), Node: node, TimeNS: t, Period: s.Period})
	return nil
}

func (b *SampleBuilder) inTarget(s *Sample, t int64) bool {
	sel := b.target
	if sel.FromNS > 0 && t < sel.FromNS || sel.ToNS > 0 && t >= sel.ToNS {
		return false
	}
	if len(sel.TIDs) > 0 && !containsInt(sel.TIDs, s.TID) {
		return false
	}
	return len(sel.ThreadNames) == 0 || ThreadNameMatches(sel.ThreadNames, s.Comm)
}

// ThreadNameMatches says whether a thread name is one of names; a name ending in '*' matches
// every thread name it starts.
func ThreadNameMatches(names []string, comm string) bool {
	for _, n := range names {
		if p, ok := strings.CutSuffix(n, "*"); ok && strings.HasPrefix(comm, p) || n == comm {
			return true
		}
	}
	return false
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func (b *SampleBuilder) thread(s *Sample) int32 {
	key := [2]int{s.PID, s.TID}
	id, ok := b.threads[key]
	if !ok {
		id = int32(len(b.p.Threads))
		b.threads[key] = id
		b.p.Threads = append(b.p.Threads, SampleThread{PID: s.PID, TID: s.TID})
	}
	b.p.Threads[id].Comm = s.Comm // a thread may rename itself; its last name is what people know
	return id
}

func (b *SampleBuilder) symbol(f Frame) int32 {
	key := layers.SampleSymbol{Image: f.Image, Symbol: f.Symbol}
	id, ok := b.symbols[key]
	if !ok {
		id = int32(len(b.p.Symbols))
		b.symbols[key] = id
		b.p.Symbols = append(b.p.Symbols, key)
	}
	return id
}

func (b *SampleBuilder) node(parent, symbol int32) int32 {
	key := StackNode{Parent: parent, Symbol: symbol}
	id, ok := b.nodes[key]
	if !ok {
		id = int32(len(b.p.Nodes))
		b.nodes[key] = id
		b.p.Nodes = append(b.p.Nodes, key)
	}
	return id
}

// Finish returns the profile, with the recording's header.
func (b *SampleBuilder) Finish(h SampleHeader) *SampleProfile {
	p := b.p
	p.Header = h
	if b.p.LeftOut > 0 {
		p.LeftOutWhy = b.target.describe()
	}
	return &p
}

// describe says what a target keeps, for totals ("threads phase-*, 1.0 s to 3.0 s").
func (sel SampleSelection) describe() string {
	var parts []string
	if len(sel.ThreadNames) > 0 {
		parts = append(parts, "threads "+strings.Join(sel.ThreadNames, ","))
	}
	if len(sel.TIDs) > 0 {
		parts = append(parts, "thread ids "+joinInts(sel.TIDs))
	}
	if sel.FromNS > 0 || sel.ToNS > 0 {
		parts = append(parts, "time "+seconds(sel.FromNS, "start")+" to "+seconds(sel.ToNS, "end"))
	}
	if len(sel.Focus) > 0 {
		parts = append(parts, "focus "+strings.Join(sel.Focus, ","))
	}
	return strings.Join(parts, ", ")
}
