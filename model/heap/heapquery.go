package heap

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"androprof/internal/human"

	modelmodel "androprof/model"
)

// Queries over a HeapProfile: the series, histograms and tables of seed 001 chapter 5 (and the
// characteristics of its tables 4.1–4.3). All are pure and deterministic; none changes p.

// Regroup returns p with cohorts factor times as large, as if it had been built with that
// cohort: buckets (and the cohort keys) are divided by factor and their cells merged. It lets a
// user change the cohort after import to any multiple of the one imported with; a factor below
// 2 returns a copy.
func (p *HeapProfile) Regroup(factor int) *HeapProfile {
	f := uint64(max(factor, 1))
	q := *p
	q.Header.Props = maps.Clone(p.Header.Props)
	q.Cohort = p.Cohort * f
	q.Classes = slices.Clone(p.Classes)
	q.Threads = slices.Clone(p.Threads)
	q.GCs = slices.Clone(p.GCs)

	type cellKey struct {
		scope       HeapScope
		key, bucket uint64
	}
	merged := make(map[cellKey]int, len(p.Cells))
	q.Cells = nil
	for _, c := range p.Cells {
		c.Bucket /= f
		if c.Scope == ScopeCohort {
			c.Key /= f
		}
		k := cellKey{c.Scope, c.Key, c.Bucket}
		i, ok := merged[k]
		if !ok {
			merged[k] = len(q.Cells)
			q.Cells = append(q.Cells, c)
			continue
		}
		m := &q.Cells[i]
		m.Born.plus(c.Born)
		m.Survived.plus(c.Survived)
		m.Died.plus(c.Died)
		m.Lifetime += c.Lifetime
		m.ArrayLifetime += c.ArrayLifetime
	}
	slices.SortFunc(q.Cells, compareHeapCells)

	type ptrKey struct {
		snapshot bool
		bucket   uint64
		distance int
	}
	ptrs := make(map[ptrKey]int, len(p.Pointers))
	q.Pointers = nil
	for _, r := range p.Pointers {
		r.Bucket /= f
		k := ptrKey{r.Snapshot, r.Bucket, r.Distance}
		if i, ok := ptrs[k]; ok {
			q.Pointers[i].Count += r.Count
			continue
		}
		ptrs[k] = len(q.Pointers)
		q.Pointers = append(q.Pointers, r)
	}
	slices.SortFunc(q.Pointers, compareHeapPointers)
	return &q
}

// HeapMetric is what a heap chart plots per key over time.
type HeapMetric uint8

// The metrics of seed figures 5.1–5.6 (by cohort), 5.9–5.10 (by size), 5.11–5.16 (by thread)
// and 5.17–5.19 (by class).
const (
	LiveBytes        HeapMetric = iota + 1 // heap volume
	LiveObjects                            // live objects
	LiveArrayBytes                         // heap volume of arrays
	LiveArrayObjects                       // live arrays
	// AvgLifetime is the average lifetime, in bytes of allocation, of the key's objects that
	// died so far: as in the seed, it changes only when objects are collected.
	AvgLifetime
	AvgArrayLifetime // AvgLifetime of arrays
)

// String names the metric as a chart's axis would.
func (m HeapMetric) String() string {
	switch m {
	case LiveBytes:
		return "live bytes"
	case LiveObjects:
		return "live objects"
	case LiveArrayBytes:
		return "live array bytes"
	case LiveArrayObjects:
		return "live arrays"
	case AvgLifetime:
		return "average lifetime"
	case AvgArrayLifetime:
		return "average array lifetime"
	}
	return fmt.Sprintf("HeapMetric(%d)", uint8(m))
}

func (m HeapMetric) average() bool { return m == AvgLifetime || m == AvgArrayLifetime }

// cellDelta is what one cell adds to a metric's numerator and (for averages) denominator.
func (m HeapMetric) cellDelta(c *HeapCell) (num, den float64) {
	switch m {
	case LiveBytes:
		return float64(c.Born.Bytes) - float64(c.Died.Bytes), 0
	case LiveObjects:
		return float64(c.Born.Objects) - float64(c.Died.Objects), 0
	case LiveArrayBytes:
		return float64(c.Born.ArrayBytes) - float64(c.Died.ArrayBytes), 0
	case LiveArrayObjects:
		return float64(c.Born.ArrayObjects) - float64(c.Died.ArrayObjects), 0
	case AvgLifetime:
		return float64(c.Lifetime), float64(c.Died.Objects)
	case AvgArrayLifetime:
		return float64(c.ArrayLifetime), float64(c.Died.ArrayObjects)
	}
	return 0, 0
}

// OtherKey is the Key of the series, histogram cohort or row that merges the keys left out.
const OtherKey = math.MaxUint64

// HeapSeries is one line of a heap chart: a key's values at the chart's times.
type HeapSeries struct {
	Key    uint64 // the scope's key; OtherKey for the merged rest
	Label  string
	Values []float64
}

// Times are the times a heap chart samples: every bucket boundary before End (0, C, 2C, …),
// then End. The value at a boundary counts the buckets before it; the value at End counts all.
func (p *HeapProfile) Times() []uint64 {
	c := p.cohort()
	n := (p.End + c - 1) / c // boundaries before End
	times := make([]uint64, 0, n+1)
	for k := range n {
		times = append(times, k*c)
	}
	return append(times, p.End)
}

func (p *HeapProfile) cohort() uint64 {
	if p.Cohort == 0 {
		return DefaultCohort
	}
	return p.Cohort
}

// pointOf is the index of the first time in Times whose value counts bucket b.
func pointOf(b uint64, last int) int {
	if b >= uint64(last) {
		return last
	}
	return int(b) + 1
}

// scopeCells are p's cells of one scope (p.Cells is sorted by scope first).
func (p *HeapProfile) scopeCells(s HeapScope) []HeapCell {
	lo, _ := slices.BinarySearchFunc(p.Cells, s, func(c HeapCell, s HeapScope) int { return cmp.Compare(c.Scope, s) })
	hi, _ := slices.BinarySearchFunc(p.Cells, s+1, func(c HeapCell, s HeapScope) int { return cmp.Compare(c.Scope, s) })
	return p.Cells[lo:hi]
}

// heapKeyRun is the cells of one key, in bucket order.
type heapKeyRun struct {
	key   uint64
	cells []HeapCell
	peak  float64
}

func keyRuns(cells []HeapCell) []heapKeyRun {
	var runs []heapKeyRun
	for i := 0; i < len(cells); {
		j := i + 1
		for j < len(cells) && cells[j].Key == cells[i].Key {
			j++
		}
		runs = append(runs, heapKeyRun{key: cells[i].Key, cells: cells[i:j]})
		i = j
	}
	return runs
}

// Series gives the lines of a chart of metric by scope at the times of Times, in the order
// the seed stacks them, bottom first: cohorts oldest first, threads by start, classes by name,
// sizes ascending. Keys whose values are all zero are left out (a cohort without arrays is not
// in the array charts), except, for averages, keys with deaths. When more than maxSeries keys remain (maxSeries > 0), the maxSeries−1
// with the highest peaks keep their line and the rest become one last line, Key OtherKey,
// their sum (for averages, their weighted average). Stacked charts draw StackHeapSeries of the
// result; long runs can be thinned with DownsampleHeapSeries.
func (p *HeapProfile) Series(scope HeapScope, metric HeapMetric, maxSeries int) (times []uint64, series []HeapSeries) {
	times = p.Times()
	last := len(times) - 1
	runs := keyRuns(p.scopeCells(scope))

	kept := runs[:0:0]
	for _, r := range runs {
		var died bool
		r.peak, died = peakOf(r.cells, metric, last)
		if r.peak != 0 || died {
			kept = append(kept, r)
		}
	}
	names := p.keyNames(scope)
	order := p.keyOrder(scope, names)
	slices.SortStableFunc(kept, func(x, y heapKeyRun) int { return order(x.key, y.key) })

	var rest []heapKeyRun
	if maxSeries > 0 && len(kept) > maxSeries {
		kept, rest = splitByPeak(kept, maxSeries-1)
	}
	for _, r := range kept {
		series = append(series, HeapSeries{Key: r.key, Label: names(r.key), Values: fill(metric, last, r)})
	}
	if len(rest) > 0 {
		series = append(series, HeapSeries{Key: OtherKey, Label: "other", Values: fill(metric, last, rest...)})
	}
	return times, series
}

// splitByPeak keeps the n runs with the highest peaks (the earlier on ties), in their order.
func splitByPeak(runs []heapKeyRun, n int) (kept, rest []heapKeyRun) {
	idx := make([]int, len(runs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(runs[b].peak, runs[a].peak) })
	keep := make([]bool, len(runs))
	for _, i := range idx[:n] {
		keep[i] = true
	}
	for i, r := range runs {
		if keep[i] {
			kept = append(kept, r)
		} else {
			rest = append(rest, r)
		}
	}
	return kept, rest
}

// peakOf is the highest value of one key's line, walking its cells without building the line,
// and for averages whether any of its objects died (a line of zero lifetimes still counts).
func peakOf(cells []HeapCell, m HeapMetric, last int) (peak float64, died bool) {
	var num, den float64
	value := func() float64 {
		if !m.average() {
			return num
		}
		if den == 0 {
			return 0
		}
		return num / den
	}
	for i := range cells {
		n, d := m.cellDelta(&cells[i])
		num += n
		den += d
		if i+1 == len(cells) || pointOf(cells[i+1].Bucket, last) != pointOf(cells[i].Bucket, last) {
			peak = max(peak, value())
		}
	}
	return peak, den > 0
}

// fill builds the line of one run, or of several merged.
func fill(m HeapMetric, last int, runs ...heapKeyRun) []float64 {
	num := make([]float64, last+1)
	var den []float64
	if m.average() {
		den = make([]float64, last+1)
	}
	for _, r := range runs {
		for i := range r.cells {
			n, d := m.cellDelta(&r.cells[i])
			at := pointOf(r.cells[i].Bucket, last)
			num[at] += n
			if den != nil {
				den[at] += d
			}
		}
	}
	for i := 1; i <= last; i++ {
		num[i] += num[i-1]
		if den != nil {
			den[i] += den[i-1]
		}
	}
	if den != nil {
		for i := range num {
			if den[i] == 0 {
				num[i] = 0
			} else {
				num[i] /= den[i]
			}
		}
	}
	return num
}

// StackHeapSeries returns the running sums of series, bottom first: what a chart of stacked
// lines draws (go-chart fills each line to the axis, so the view draws them top down).
func StackHeapSeries(series []HeapSeries) []HeapSeries {
	out := make([]HeapSeries, len(series))
	var sum []float64
	for i, s := range series {
		if sum == nil {
			sum = make([]float64, len(s.Values))
		}
		v := make([]float64, len(s.Values))
		for j, x := range s.Values {
			if j < len(sum) {
				sum[j] += x
				v[j] = sum[j]
			} else {
				v[j] = x
			}
		}
		out[i] = HeapSeries{Key: s.Key, Label: s.Label, Values: v}
	}
	return out
}

// DownsampleHeapSeries keeps at most maxPoints of the times (at least the first and the last)
// by taking every k-th, and the same points of every series. The kept values are exact, as
// every point is a cumulative count at its time; only the detail between them goes. A 10 GB log
// at 256 KB cohorts has 40 000 points, more than a chart's pixels.
func DownsampleHeapSeries(times []uint64, series []HeapSeries, maxPoints int) ([]uint64, []HeapSeries) {
	n := len(times)
	if maxPoints < 2 {
		maxPoints = 2
	}
	if n <= maxPoints {
		return times, series
	}
	k := (n - 1 + maxPoints - 2) / (maxPoints - 1) // ceil((n−1)/(maxPoints−1))
	var keep []int
	for i := 0; i < n-1; i += k {
		keep = append(keep, i)
	}
	keep = append(keep, n-1)
	t := make([]uint64, len(keep))
	for j, i := range keep {
		t[j] = times[i]
	}
	out := make([]HeapSeries, len(series))
	for s, line := range series {
		v := make([]float64, len(keep))
		for j, i := range keep {
			if i < len(line.Values) {
				v[j] = line.Values[i]
			}
		}
		out[s] = HeapSeries{Key: line.Key, Label: line.Label, Values: v}
	}
	return t, out
}

// keyNames labels the keys of a scope: a cohort's span ("0–256 KB"), a thread's or class's
// name ("thread 7", "class 12" when the log does not name it), a size class's bound ("24 B").
func (p *HeapProfile) keyNames(s HeapScope) func(uint64) string {
	switch s {
	case ScopeCohort:
		c := p.cohort()
		return func(k uint64) string { return byteSpan(k*c, (k+1)*c) }
	case ScopeThread:
		names := make(map[uint64]string, len(p.Threads))
		for _, t := range p.Threads {
			if t.Name != "" {
				names[uint64(t.ID)] = t.Name
			}
		}
		return func(k uint64) string {
			if n, ok := names[k]; ok {
				return n
			}
			return "thread " + strconv.FormatUint(k, 10)
		}
	case ScopeClass:
		names := make(map[uint64]string, len(p.Classes))
		for _, c := range p.Classes {
			if c.Name != "" {
				names[uint64(c.ID)] = c.Name
			}
		}
		return func(k uint64) string {
			if n, ok := names[k]; ok {
				return n
			}
			return "class " + strconv.FormatUint(k, 10)
		}
	case ScopeSize:
		return human.Bytes
	}
	return func(k uint64) string { return strconv.FormatUint(k, 10) }
}

// keyOrder is the seed's stacking order of a scope's keys.
func (p *HeapProfile) keyOrder(s HeapScope, names func(uint64) string) func(x, y uint64) int {
	switch s {
	case ScopeThread:
		start := make(map[uint64]uint64, len(p.Threads))
		for _, t := range p.Threads {
			start[uint64(t.ID)] = t.Start
		}
		return func(x, y uint64) int {
			sx, okx := start[x]
			sy, oky := start[y]
			if okx != oky { // undeclared threads last
				if okx {
					return -1
				}
				return 1
			}
			if c := cmp.Compare(sx, sy); c != 0 {
				return c
			}
			return cmp.Compare(x, y)
		}
	case ScopeClass:
		return func(x, y uint64) int {
			if c := strings.Compare(names(x), names(y)); c != 0 {
				return c
			}
			return cmp.Compare(x, y)
		}
	}
	return cmp.Compare[uint64]
}

// byteSpan writes a span of bytes with its unit once when both ends share it: "0–256 KB",
// "256–512 KB", "768 KB–1 MB".
func byteSpan(from, to uint64) string {
	fv, fu := human.BytesParts(from)
	tv, tu := human.BytesParts(to)
	if fu == tu || from == 0 {
		return fv + "–" + tv + " " + tu
	}
	return fv + " " + fu + "–" + tv + " " + tu
}

// SizeHistogram gives the bars of seed figure 5.7 (live false: the objects allocated) or 5.8
// (live true: the objects still live at the end), one bar per size class in sizes, stacked by
// the cohort of the objects' birth, oldest first. Values are percentages of all the objects
// counted, so every bar together make 100. With more than maxCohorts cohorts (maxCohorts > 0),
// the maxCohorts−1 with the most objects keep their series and the rest merge into one last
// series, Key OtherKey.
func (p *HeapProfile) SizeHistogram(live bool, maxCohorts int) (sizes []uint64, cohorts []HeapSeries) {
	cells := p.scopeCells(ScopeSize)
	count := func(c *HeapCell) uint64 {
		if live {
			return c.Survived.Objects
		}
		return c.Born.Objects
	}
	perSize := make(map[uint64]uint64)
	perCohort := make(map[uint64]uint64)
	var total uint64
	for i := range cells {
		n := count(&cells[i])
		if n == 0 {
			continue
		}
		perSize[cells[i].Key] += n
		perCohort[cells[i].Bucket] += n
		total += n
	}
	if total == 0 {
		return nil, nil
	}
	sizes = slices.Sorted(maps.Keys(perSize))
	col := make(map[uint64]int, len(sizes))
	for i, s := range sizes {
		col[s] = i
	}

	keys := slices.Sorted(maps.Keys(perCohort))
	row := make(map[uint64]int, len(keys)) // cohort → index in cohorts
	if maxCohorts > 0 && len(keys) > maxCohorts {
		top := slices.Clone(keys)
		slices.SortStableFunc(top, func(a, b uint64) int { return cmp.Compare(perCohort[b], perCohort[a]) })
		keep := make(map[uint64]bool, maxCohorts-1)
		for _, k := range top[:maxCohorts-1] {
			keep[k] = true
		}
		keys = slices.DeleteFunc(keys, func(k uint64) bool { return !keep[k] })
	}
	label := p.keyNames(ScopeCohort)
	for i, k := range keys {
		row[k] = i
		cohorts = append(cohorts, HeapSeries{Key: k, Label: label(k), Values: make([]float64, len(sizes))})
	}
	other := -1
	for i := range cells {
		n := count(&cells[i])
		if n == 0 {
			continue
		}
		r, ok := row[cells[i].Bucket]
		if !ok {
			if other < 0 {
				other = len(cohorts)
				cohorts = append(cohorts, HeapSeries{Key: OtherKey, Label: "other", Values: make([]float64, len(sizes))})
			}
			r = other
		}
		cohorts[r].Values[col[cells[i].Key]] += float64(n)
	}
	for _, s := range cohorts {
		for j := range s.Values {
			s.Values[j] = 100 * s.Values[j] / float64(total)
		}
	}
	return sizes, cohorts
}

// HeapRow is one line of the seed's tables 5.1–5.3: a thread, class, size, cohort or package.
type HeapRow struct {
	Key     uint64 // the scope's key; 0 for packages
	Name    string
	Array   bool // classes: an array class
	Classes int  // packages: how many classes; classes: 1

	Live        HeapCount // at the end (Born − Died: the Survived)
	LivePercent float64   // of all live objects at the end, 0–100
	Total       HeapCount // allocated
	Died        HeapCount

	Lifetime, ArrayLifetime uint64  // Σ lifetimes of the Died, in bytes of allocation
	AvgLifetime             float64 // Lifetime / Died.Objects; 0 when none died
	AvgArrayLifetime        float64 // ArrayLifetime / Died.ArrayObjects; 0 when none died
}

// Table gives a row per key of scope, sorted as the seed's tables: most live objects first,
// then most allocated, then by name. Every declared class or thread has a row, even one that
// never allocated (a loaded class with no instance).
func (p *HeapProfile) Table(scope HeapScope) []HeapRow {
	rows := make(map[uint64]*HeapRow)
	names := p.keyNames(scope)
	row := func(k uint64) *HeapRow {
		r, ok := rows[k]
		if !ok {
			r = &HeapRow{Key: k, Name: names(k)}
			rows[k] = r
		}
		return r
	}
	switch scope {
	case ScopeClass:
		for _, c := range p.Classes {
			row(uint64(c.ID)).Array = c.Array
		}
	case ScopeThread:
		for _, t := range p.Threads {
			row(uint64(t.ID))
		}
	}
	for _, c := range p.scopeCells(scope) {
		r := row(c.Key)
		r.Total.plus(c.Born)
		r.Live.plus(c.Survived)
		r.Died.plus(c.Died)
		r.Lifetime += c.Lifetime
		r.ArrayLifetime += c.ArrayLifetime
		if scope == ScopeClass && c.Born.ArrayObjects > 0 {
			r.Array = true
		}
	}
	out := make([]HeapRow, 0, len(rows))
	for _, r := range rows {
		if scope == ScopeClass {
			r.Classes = 1
		}
		out = append(out, *r)
	}
	return finishRows(out)
}

// finishRows fills the averages and percentages and sorts.
func finishRows(rows []HeapRow) []HeapRow {
	var live uint64
	for _, r := range rows {
		live += r.Live.Objects
	}
	for i := range rows {
		r := &rows[i]
		r.AvgLifetime = modelmodel.Ratio(r.Lifetime, r.Died.Objects)
		r.AvgArrayLifetime = modelmodel.Ratio(r.ArrayLifetime, r.Died.ArrayObjects)
		if live > 0 {
			r.LivePercent = 100 * float64(r.Live.Objects) / float64(live)
		}
	}
	slices.SortFunc(rows, compareHeapRows)
	return rows
}

func compareHeapRows(x, y HeapRow) int {
	if c := cmp.Compare(y.Live.Objects, x.Live.Objects); c != 0 {
		return c
	}
	if c := cmp.Compare(y.Total.Objects, x.Total.Objects); c != 0 {
		return c
	}
	if c := strings.Compare(x.Name, y.Name); c != 0 {
		return c
	}
	return cmp.Compare(x.Key, y.Key)
}

// Packages gives table 5.3: the class rows summed by package (see HeapPackage), sorted as Table.
func (p *HeapProfile) Packages() []HeapRow {
	declared := make(map[uint64]bool, len(p.Classes))
	for _, c := range p.Classes {
		declared[uint64(c.ID)] = true
	}
	byName := make(map[string]*HeapRow)
	for _, c := range p.Table(ScopeClass) {
		name := "(undeclared classes)"
		if declared[c.Key] {
			name = HeapPackage(c.Name)
		}
		r, ok := byName[name]
		if !ok {
			r = &HeapRow{Name: name}
			byName[name] = r
		}
		r.Classes++
		r.Live.plus(c.Live)
		r.Total.plus(c.Total)
		r.Died.plus(c.Died)
		r.Lifetime += c.Lifetime
		r.ArrayLifetime += c.ArrayLifetime
	}
	out := make([]HeapRow, 0, len(byName))
	for _, r := range byName {
		out = append(out, *r)
	}
	return finishRows(out)
}

// HeapPackage is the package a class counts in for table 5.3: its name up to the last '/' or
// '.' ("java/lang"), an array class's element class's package, "(primitive arrays)" for
// arrays of primitives ("[I", "int[]") and "(default package)" for a name with no package.
func HeapPackage(class string) string {
	elem := strings.TrimLeft(class, "[")
	if elem != class { // JVM internal form
		if len(elem) < 2 || elem[0] != 'L' || !strings.HasSuffix(elem, ";") {
			return "(primitive arrays)"
		}
		elem = elem[1 : len(elem)-1]
	} else if strings.HasSuffix(elem, "[]") { // Java's form
		elem = strings.TrimRight(elem, "[]")
		switch elem {
		case "boolean", "byte", "char", "short", "int", "long", "float", "double":
			return "(primitive arrays)"
		}
	}
	if i := strings.LastIndexAny(elem, "/."); i > 0 {
		return elem[:i]
	}
	return "(default package)"
}

// FilterHeapRows keeps the rows whose name holds text, ignoring case (table 5.2: the classes
// of the app's own package). An empty text keeps every row.
func FilterHeapRows(rows []HeapRow, text string) []HeapRow {
	text = strings.ToLower(text)
	var out []HeapRow
	for _, r := range rows {
		if strings.Contains(strings.ToLower(r.Name), text) {
			out = append(out, r)
		}
	}
	return out
}

// HeapCharacteristics are the figures of the seed's tables 4.1–4.3, and a few more a summary
// shows. Bytes are bytes; "time" is total allocation.
type HeapCharacteristics struct {
	TotalAllocation uint64 // bytes allocated
	TotalObjects    uint64 // objects allocated
	MaxLive         uint64 // largest live heap, bytes
	MaxLiveObjects  uint64 // its objects
	MaxLiveAt       uint64 // when
	LiveObjects     uint64 // at the end
	LiveBytes       uint64 // at the end
	FreedObjects    uint64
	LoadedClasses   int // declared classes
	ArrayClasses    int // declared array classes
	Threads         int
	GCs             int
	Mutations       uint64 // pointer mutations counted (both ends live)
	UnknownFrees    uint64
}

// Characteristics sums p up as the seed's tables 4.1–4.3 do.
func (p *HeapProfile) Characteristics() HeapCharacteristics {
	ch := HeapCharacteristics{
		TotalAllocation: p.Allocated.Bytes,
		TotalObjects:    p.Allocated.Objects,
		MaxLive:         p.MaxLive.Bytes,
		MaxLiveObjects:  p.MaxLive.Objects,
		MaxLiveAt:       p.MaxLiveAt,
		LiveObjects:     p.Allocated.Objects - p.Freed.Objects,
		LiveBytes:       p.Allocated.Bytes - p.Freed.Bytes,
		FreedObjects:    p.Freed.Objects,
		LoadedClasses:   len(p.Classes),
		Threads:         len(p.Threads),
		GCs:             len(p.GCs),
		UnknownFrees:    p.UnknownFrees,
	}
	for _, c := range p.Classes {
		if c.Array {
			ch.ArrayClasses++
		}
	}
	for _, r := range p.Pointers {
		if !r.Snapshot {
			ch.Mutations += r.Count
		}
	}
	return ch
}

// PointerSeries gives seed figure 5.22 (snapshot false: pointer mutations) or 5.23 (true: heap
// snapshots): for each time bucket with records, its start time, and the share in percent of
// each distance bucket among that bucket's pointers. percent[i][j] is for times[i] and
// buckets[j]; buckets go from the most negative to the most positive.
func (p *HeapProfile) PointerSeries(snapshot bool) (times []uint64, buckets []int, percent [][]float64) {
	perTime := make(map[uint64]map[int]uint64)
	dist := make(map[int]bool)
	for _, r := range p.Pointers {
		if r.Snapshot != snapshot || r.Count == 0 {
			continue
		}
		m := perTime[r.Bucket]
		if m == nil {
			m = make(map[int]uint64)
			perTime[r.Bucket] = m
		}
		m[r.Distance] += r.Count
		dist[r.Distance] = true
	}
	buckets = slices.Sorted(maps.Keys(dist))
	c := p.cohort()
	for _, b := range slices.Sorted(maps.Keys(perTime)) {
		m := perTime[b]
		var total uint64
		for _, n := range m {
			total += n
		}
		row := make([]float64, len(buckets))
		for j, d := range buckets {
			row[j] = 100 * float64(m[d]) / float64(total)
		}
		times = append(times, b*c)
		percent = append(percent, row)
	}
	return times, buckets, percent
}

// PointerTotals gives the pointers of every time summed per distance bucket, buckets
// ascending: one histogram of mutations, or of a single snapshot.
func (p *HeapProfile) PointerTotals(snapshot bool) (buckets []int, counts []uint64) {
	sum := make(map[int]uint64)
	for _, r := range p.Pointers {
		if r.Snapshot == snapshot && r.Count > 0 {
			sum[r.Distance] += r.Count
		}
	}
	buckets = slices.Sorted(maps.Keys(sum))
	counts = make([]uint64, len(buckets))
	for i, b := range buckets {
		counts[i] = sum[b]
	}
	return buckets, counts
}
