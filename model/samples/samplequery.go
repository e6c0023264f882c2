package samples

import (
	"androprof/model/flame"
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	layersmodel "androprof/model/layers"
)

// SampleSet is the samples of a profile an analysis looks at: a selection of them, each frame
// classified. Every view of a sampled run is one of its methods.
type SampleSet struct {
	Profile         *SampleProfile
	LayerClassifier layersmodel.LayerClassifier
	Selection       SampleSelection
	Total           int    // samples in the profile
	Kept            int    // samples the selection keeps
	LeftOut         int    // Total - Kept
	LeftOutWhy      string // the selection, as people read it ("" when it keeps everything)

	kept   []int32             // indices into Profile.Samples
	layers []layersmodel.Layer // per symbol
	comps  []string            // per symbol; "" for VM frames whose component the thread's name decides
	tcomps []string            // per thread: the VM component its name says
}

// SampleRow is one row of a table of samples: a layer, an image, a symbol or a component.
type SampleRow struct {
	Key       string // what the row is, for people: the layer's, image's or symbol's name
	Image     string
	Symbol    string
	SymbolID  int32 // -1 unless the row is one symbol
	Layer     layersmodel.Layer
	Component string
	Self      int // samples whose leaf frame is this (perf report's "self")
	Total     int // samples with this anywhere on their stack, each counted once
	SelfPct   float64
	TotalPct  float64
}

// ThreadRow is one thread's samples by the layer of their leaf frame.
type ThreadRow struct {
	PID, TID int
	Comm     string
	Samples  int
	Layers   [6]int            // index Layer-1
	Top      layersmodel.Layer // the layer with the most samples
}

// LayerTimeline is the samples of each layer (by leaf frame) in equal slices of time.
type LayerTimeline struct {
	StartNS, BucketNS int64
	Counts            [][6]int // per bucket; index Layer-1
	// Before counts the samples dated before StartNS, which no bucket holds: a recording whose
	// samples go back in time has samples before its first, at negative times.
	Before int
}

// Select classifies the profile's frames with c and keeps the samples sel selects.
func (p *SampleProfile) Select(c layersmodel.LayerClassifier, sel SampleSelection) *SampleSet {
	s := &SampleSet{Profile: p, LayerClassifier: c, Selection: sel, Total: len(p.Samples)}
	s.layers = make([]layersmodel.Layer, len(p.Symbols))
	s.comps = make([]string, len(p.Symbols))
	for i, sym := range p.Symbols {
		s.layers[i], s.comps[i] = c.Classify(sym, "")
		if s.layers[i] == layersmodel.LayerVM && s.comps[i] == layersmodel.VMRuntime {
			s.comps[i] = "" // unnamed by its symbol: the thread's name may say
		}
	}
	s.tcomps = make([]string, len(p.Threads))
	threadKept := make([]bool, len(p.Threads))
	for i, t := range p.Threads {
		s.tcomps[i] = layersmodel.VMThreadComponent(t.Comm)
		threadKept[i] = (len(sel.TIDs) == 0 || containsInt(sel.TIDs, t.TID)) &&
			(len(sel.ThreadNames) == 0 || ThreadNameMatches(sel.ThreadNames, t.Comm))
	}
	focus := s.focusNodes()
	for i, r := range p.Samples {
		if !threadKept[r.Thread] || sel.FromNS > 0 && r.TimeNS < sel.FromNS || sel.ToNS > 0 && r.TimeNS >= sel.ToNS ||
			focus != nil && !focus[r.Node] {
			continue
		}
		s.kept = append(s.kept, int32(i))
	}
	s.Kept, s.LeftOut = len(s.kept), s.Total-len(s.kept)
	if s.LeftOut > 0 {
		s.LeftOutWhy = sel.describe()
	}
	return s
}

// focusNodes marks the calling contexts with a focused Java frame in them; nil without a focus.
func (s *SampleSet) focusNodes() []bool {
	if len(s.Selection.Focus) == 0 {
		return nil
	}
	symHit := make([]bool, len(s.Profile.Symbols))
	for i, sym := range s.Profile.Symbols {
		if l := s.layers[i]; l != layersmodel.LayerApp && l != layersmodel.LayerJavaLib {
			continue
		}
		class, method, _ := layersmodel.JavaName(sym.Symbol)
		for _, f := range s.Selection.Focus {
			if layersmodel.HasJavaPrefix(class+"."+method, f) {
				symHit[i] = true
			}
		}
	}
	hit := make([]bool, len(s.Profile.Nodes))
	for i, n := range s.Profile.Nodes { // parents come first
		hit[i] = symHit[n.Symbol] || n.Parent >= 0 && hit[n.Parent]
	}
	return hit
}

// Layer is the layer of a symbol of the profile.
func (s *SampleSet) Layer(symbol int32) layersmodel.Layer { return s.layers[symbol] }

// component is a symbol's component on a thread.
func (s *SampleSet) component(symbol, thread int32) string {
	if c := s.comps[symbol]; c != "" {
		return c
	}
	if c := s.tcomps[thread]; c != "" {
		return c
	}
	return layersmodel.VMRuntime
}

// each calls f for every kept sample with its stack's symbols, leaf first. The slice is reused.
func (s *SampleSet) each(f func(r SampleRec, stack []int32)) {
	var stack []int32
	for _, i := range s.kept {
		r := s.Profile.Samples[i]
		stack = stack[:0]
		for n := r.Node; n >= 0; n = s.Profile.Nodes[n].Parent {
			stack = append(stack, s.Profile.Nodes[n].Symbol)
		}
		f(r, stack)
	}
}

// tally counts rows by key: self for the leaf's key, total once per sample for every key on
// the stack. A row's start gives its readable Key when the map key is not one.
type tally struct {
	rows  map[string]*SampleRow
	seen  map[string]int // key → the sample it was last counted for
	order []string
}

func (t *tally) add(sample int, key string, leaf bool, start func() SampleRow) {
	row, ok := t.rows[key]
	if !ok {
		r := start()
		if r.Key == "" {
			r.Key = key
		}
		row = &r
		t.rows[key] = row
		t.order = append(t.order, key)
	}
	if leaf {
		row.Self++
	}
	if last, ok := t.seen[key]; !ok || last != sample {
		t.seen[key] = sample
		row.Total++
	}
}

// group makes the rows of a table whose rows keyOf names, largest self first.
func (s *SampleSet) group(keyOf func(symbol, thread int32) (string, func() SampleRow)) []SampleRow {
	t := &tally{rows: map[string]*SampleRow{}, seen: map[string]int{}}
	n := 0
	s.each(func(r SampleRec, stack []int32) {
		n++
		for i, sym := range stack {
			key, start := keyOf(sym, r.Thread)
			t.add(n, key, i == 0, start)
		}
	})
	rows := make([]SampleRow, 0, len(t.order))
	for _, k := range t.order {
		r := *t.rows[k]
		if s.Kept > 0 {
			r.SelfPct = 100 * float64(r.Self) / float64(s.Kept)
			r.TotalPct = 100 * float64(r.Total) / float64(s.Kept)
		}
		rows = append(rows, r)
	}
	slices.SortStableFunc(rows, func(a, b SampleRow) int {
		return cmp.Or(cmp.Compare(b.Self, a.Self), cmp.Compare(b.Total, a.Total), strings.Compare(a.Key, b.Key))
	})
	return rows
}

// ByLayer is the samples per layer: self by leaf frame, total with the layer anywhere on the stack.
func (s *SampleSet) ByLayer() []SampleRow {
	rows := s.group(func(sym, _ int32) (string, func() SampleRow) {
		l := s.layers[sym]
		return l.String(), func() SampleRow { return SampleRow{Layer: l, SymbolID: -1} }
	})
	slices.SortStableFunc(rows, func(a, b SampleRow) int { return cmp.Compare(a.Layer, b.Layer) })
	return rows
}

// ByImage is the samples per image (the program, each library, the kernel, the JIT map).
func (s *SampleSet) ByImage() []SampleRow {
	return s.group(func(sym, _ int32) (string, func() SampleRow) {
		img := s.Profile.Symbols[sym].Image
		return img, func() SampleRow { return SampleRow{Image: img, Layer: s.layers[sym], SymbolID: -1} }
	})
}

// BySymbol is seed 004's table V: samples per (image, symbol).
func (s *SampleSet) BySymbol() []SampleRow {
	return s.group(func(sym, _ int32) (string, func() SampleRow) {
		ss := s.Profile.Symbols[sym]
		return ss.Image + "\x00" + ss.Symbol, func() SampleRow { return s.symbolRow(sym) }
	})
}

func (s *SampleSet) symbolRow(sym int32) SampleRow {
	ss := s.Profile.Symbols[sym]
	return SampleRow{Key: layersmodel.DisplaySymbol(ss), Image: ss.Image, Symbol: layersmodel.DisplaySymbol(ss), SymbolID: sym, Layer: s.layers[sym], Component: s.comps[sym]}
}

// ByComponent is the samples per layer and component: "vm / GC", "native / libc.so.6".
func (s *SampleSet) ByComponent() []SampleRow {
	return s.group(func(sym, thread int32) (string, func() SampleRow) {
		l, c := s.layers[sym], s.comps[sym]
		if l == layersmodel.LayerVM {
			c = s.component(sym, thread)
		}
		return l.String() + " / " + c, func() SampleRow { return SampleRow{Layer: l, Component: c, SymbolID: -1} }
	})
}

// ByThread is each thread's samples by leaf layer, most samples first.
func (s *SampleSet) ByThread() []ThreadRow {
	rows := make([]ThreadRow, len(s.Profile.Threads))
	for i, t := range s.Profile.Threads {
		rows[i] = ThreadRow{PID: t.PID, TID: t.TID, Comm: t.Comm}
	}
	s.each(func(r SampleRec, stack []int32) {
		row := &rows[r.Thread]
		row.Samples++
		row.Layers[s.layers[stack[0]]-1]++
	})
	out := rows[:0]
	for _, r := range rows {
		if r.Samples == 0 {
			continue
		}
		for i, n := range r.Layers {
			if r.Top == 0 || n > r.Layers[r.Top-1] {
				r.Top = layersmodel.Layer(i + 1)
			}
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b ThreadRow) int { return cmp.Compare(b.Samples, a.Samples) })
	return out
}

// MaxTimelineBuckets bounds the columns of a layer timeline: more than any chart has pixels, and
// few enough that no number asked for runs out of memory.
const MaxTimelineBuckets = 100_000

// Timeline is the leaf layers of the kept samples in buckets equal slices of the selected time,
// from the selection's start (or the recording's first sample) to its end (or the last sample).
// A sample dated before the start, as a recording that goes back in time has, is counted in
// Before rather than drawn, and no time, however far out, can make it index out of the buckets.
// It has buckets columns, at most MaxTimelineBuckets.
func (s *SampleSet) Timeline(buckets int) LayerTimeline {
	buckets = min(max(buckets, 1), MaxTimelineBuckets)
	from, to := max(s.Selection.FromNS, 0), s.Selection.ToNS
	if to <= 0 {
		for _, r := range s.Profile.Samples {
			to = max(to, r.TimeNS+1, r.TimeNS) // TimeNS+1 wraps at the largest time
		}
	}
	tl := LayerTimeline{StartNS: from, BucketNS: bucketWidth(from, to, buckets), Counts: make([][6]int, buckets)}
	s.each(func(r SampleRec, stack []int32) {
		if r.TimeNS < from {
			tl.Before++
			return
		}
		// From r.TimeNS ≥ from the unsigned difference is exact even where the signed one wraps.
		b := min((uint64(r.TimeNS)-uint64(from))/uint64(tl.BucketNS), uint64(buckets-1))
		tl.Counts[b][s.layers[stack[0]]-1]++
	})
	return tl
}

// bucketWidth divides from…to into buckets slices of at least 1 ns, the last one ending at or
// after to, without overflowing however wide the span.
func bucketWidth(from, to int64, buckets int) int64 {
	if to <= from {
		return 1
	}
	span := uint64(to) - uint64(from)
	w := span / uint64(buckets)
	if span%uint64(buckets) != 0 {
		w++
	}
	return int64(min(w, math.MaxInt64))
}

// Neighbours are a symbol's callers (the frames right outside it) and callees (right inside it)
// over the kept samples, each counted once per sample: seed 004's figure 13. Total is the
// samples through that edge; the symbol's own leaf samples are a callee row "(self)".
func (s *SampleSet) Neighbours(symbol int32) (callers, callees []SampleRow) {
	up := &tally{rows: map[string]*SampleRow{}, seen: map[string]int{}}
	down := &tally{rows: map[string]*SampleRow{}, seen: map[string]int{}}
	n := 0
	s.each(func(_ SampleRec, stack []int32) {
		n++
		for i, sym := range stack {
			if sym != symbol {
				continue
			}
			if i+1 < len(stack) {
				c := stack[i+1]
				up.add(n, strconv.Itoa(int(c)), false, func() SampleRow { return s.symbolRow(c) })
			}
			if i > 0 {
				c := stack[i-1]
				down.add(n, strconv.Itoa(int(c)), false, func() SampleRow { return s.symbolRow(c) })
			} else {
				down.add(n, "(self)", false, func() SampleRow {
					r := s.symbolRow(symbol)
					r.Key, r.Symbol, r.SymbolID = "(self)", "(self)", -1
					return r
				})
			}
		}
	})
	finish := func(t *tally) []SampleRow {
		rows := make([]SampleRow, 0, len(t.order))
		for _, k := range t.order {
			r := *t.rows[k]
			if s.Kept > 0 {
				r.TotalPct = 100 * float64(r.Total) / float64(s.Kept)
			}
			rows = append(rows, r)
		}
		slices.SortStableFunc(rows, func(a, b SampleRow) int {
			return cmp.Or(cmp.Compare(b.Total, a.Total), strings.Compare(a.Symbol, b.Symbol))
		})
		return rows
	}
	return finish(up), finish(down)
}

// FindSymbols are the profile's symbols whose name contains text (any case), in the profile's order.
func (s *SampleSet) FindSymbols(text string) []int32 {
	text = strings.ToLower(text)
	var ids []int32
	for i, sym := range s.Profile.Symbols {
		if strings.Contains(strings.ToLower(layersmodel.DisplaySymbol(sym)), text) {
			ids = append(ids, int32(i))
		}
	}
	return ids
}

// Flame merges the kept samples' stacks into a flame graph, outermost frames under the root "all".
func (s *SampleSet) Flame() *flame.Node {
	nodes := s.Profile.Nodes
	total := make([]int64, len(nodes))
	self := make([]int64, len(nodes))
	for _, i := range s.kept {
		self[s.Profile.Samples[i].Node]++
	}
	for i := len(nodes) - 1; i >= 0; i-- { // children come after their parents
		total[i] += self[i]
		if p := nodes[i].Parent; p >= 0 {
			total[p] += total[i]
		}
	}
	root := &flame.Node{Name: "all", Total: int64(s.Kept)}
	made := make([]*flame.Node, len(nodes))
	for i, n := range nodes {
		if total[i] == 0 {
			continue
		}
		sym := s.Profile.Symbols[n.Symbol]
		f := &flame.Node{Name: layersmodel.DisplaySymbol(sym), Origin: sym.Image, Layer: s.layers[n.Symbol], Self: self[i], Total: total[i]}
		made[i] = f
		parent := root
		if n.Parent >= 0 {
			parent = made[n.Parent]
		}
		parent.Children = append(parent.Children, f)
	}
	var sortKids func(f *flame.Node)
	sortKids = func(f *flame.Node) {
		slices.SortStableFunc(f.Children, func(a, b *flame.Node) int {
			return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Origin, b.Origin))
		})
		for _, c := range f.Children {
			sortKids(c)
		}
	}
	sortKids(root)
	return root
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

// seconds writes a time from a recording's start, "1.25 s", or open for 0 (start or end).
func seconds(ns int64, open string) string {
	if ns == 0 {
		return open
	}
	return strconv.FormatFloat(float64(ns)/1e9, 'f', -1, 64) + " s"
}
