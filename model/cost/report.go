package cost

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	modelmodel "androprof/model"
)

// Grouping is what a report has one row per.
type Grouping string

// The groupings of `androprof report --by`.
const (
	ByPID         Grouping = "pid"
	ByBlock       Grouping = "bb"
	ByInstruction Grouping = "insn"
	ByCategory    Grouping = "category"
	ByFunction    Grouping = "function"
	ByImage       Grouping = "image" // program, each library, the loader, code with no file
	ByLayer       Grouping = "layer" // the images' kinds: program, libraries, loader, no file
)

// Groupings lists them in the order the window's tabs show them.
var Groupings = []Grouping{ByPID, ByBlock, ByInstruction, ByCategory, ByFunction, ByImage, ByLayer}

// NoImage names the group of blocks whose trace named no image (QEMU logs, older profiles).
const NoImage = "(no image)"

// ParseGrouping accepts the names of `--by`.
func ParseGrouping(s string) (Grouping, error) {
	for _, g := range Groupings {
		if string(g) == s {
			return g, nil
		}
	}
	return "", fmt.Errorf("unknown grouping %q (want pid, bb, insn, category, function, image or layer)", s)
}

// RunData is a run loaded for analysis: small enough to keep (one entry per block).
type RunData struct {
	Info      modelmodel.RunInfo
	Processes []ProcessSummary
	Blocks    []BlockSummary
	Images    []Image   // every process's; none when the trace names none
	Syscalls  []Syscall // every thread's; none when the trace has none

	// Geometry is the cache hierarchy the run's misses were simulated for (zero: the run was
	// not simulated), and GeometrySource where it came from ("profile cortex-a8", "--cache").
	Geometry       CacheGeometry
	GeometrySource string
	// Cache is each block's simulated accesses and misses, summed over threads, in the order
	// of Blocks (Fetches filled in); nil when the run was not simulated.
	Cache []CacheCounts

	// The blocks' instruction mixes again, as indexes into insns, so a profile is applied by
	// classifying each distinct instruction once and then only indexing arrays.
	insns   []Instruction
	mixIdx  []int32 // per mix entry, block after block
	mixN    []int64
	mixFrom []int32 // block i's entries are mixIdx[mixFrom[i]:mixFrom[i+1]]

	blockKeys []string // names of the blocks, made once: a report may list all of them
}

// NewRunData indexes a run's blocks once, so each report after it only indexes arrays.
func NewRunData(run string, procs []ProcessSummary, blocks []BlockSummary) *RunData {
	d := &RunData{Info: modelmodel.RunInfo{Name: run, Processes: len(procs), Blocks: len(blocks)}, Processes: procs, Blocks: blocks}
	for _, p := range procs {
		d.Info.Instructions += p.Instructions
	}
	index := map[Instruction]int32{}
	d.mixFrom = make([]int32, 0, len(blocks)+1)
	for _, b := range blocks {
		d.mixFrom = append(d.mixFrom, int32(len(d.mixIdx)))
		for _, m := range b.Mix {
			i, ok := index[m.Instruction]
			if !ok {
				i = int32(len(d.insns))
				index[m.Instruction] = i
				d.insns = append(d.insns, m.Instruction)
			}
			d.mixIdx = append(d.mixIdx, i)
			d.mixN = append(d.mixN, m.Count)
		}
	}
	d.mixFrom = append(d.mixFrom, int32(len(d.mixIdx)))
	d.blockKeys = make([]string, len(blocks))
	var buf []byte
	for i := range blocks {
		buf = appendBlockKey(buf[:0], &blocks[i])
		d.blockKeys[i] = string(buf)
	}
	return d
}

// MainISA is the instruction set of most instructions the run executed, or process pid when
// pid is not 0 ("" when nothing ran): the one a profile has to price.
func (d *RunData) MainISA(pid int) ISA {
	n := map[ISA]int64{}
	for _, b := range d.Blocks {
		if pid == 0 || b.PID == pid {
			n[b.ISA] += b.Executions * int64(b.Insns)
		}
	}
	var best ISA
	for isa, c := range n {
		if c > n[best] || (c == n[best] && isa < best) {
			best = isa
		}
	}
	return best
}

// ReportOptions chooses what a report shows.
type ReportOptions struct {
	Run          string
	Profile      *Profile
	By           Grouping
	PID          int     // 0: every process
	FrequencyGHz float64 // 0: the profile's reference frequency, else DefaultFrequencyGHz
	Top          int     // 0: every row; else only the most costly rows (totals still cover all)
	// BlockCycles is the machine model's steady-state cycles for one execution of each block, in
	// the order of RunData.Blocks, NaN for a block it did not price (the category cost stands);
	// nil when no model priced the run. Pipeline names the model ("llvm-mca-16 -mcpu=cortex-a8").
	BlockCycles []float64
	Pipeline    string
	// PipelineNote is what whoever ran the model says beside its cycles, or instead of them
	// ("llvm-mca-16 is not installed"); the waterfall shows it.
	PipelineNote string
	// MissesFirst orders the rows by their misses, L1's first, then L2's and L3's, instead of
	// by cycles: the hottest missing blocks first. Rows without misses (a run not simulated, a
	// grouping finer than a block) keep the order by cycles.
	MissesFirst bool
}

// ReportRow is one group's cost. Key names the group: a pid, "pid:sym@0xpc(ISA)", a mnemonic
// ("BNE (ARM)"), a category, a function, an image or a layer (an image kind).
type ReportRow struct {
	Key          string
	PID          int       // set when the row belongs to one process
	BlockID      int64     // set by ByBlock, for drilling down
	Category     string    // set by ByInstruction
	Image        string    // set by ByBlock, ByFunction and ByImage: the image's name
	ImageKind    ImageKind // with Image, and by ByLayer
	Instructions int64
	Blocks       int64 // block executions that contributed
	Cycles       float64
	TimeS        float64
	EnergyJ      float64
	// UnknownPower counts the instructions priced in a category with no known power: when
	// they are all of them, EnergyJ is not an estimate (see EnergyKnown), whatever it sums to.
	UnknownPower int64

	// PipelineCycles is Cycles with each block the machine model priced at its model cycles
	// (the category cost where it did not); PipelineInsns counts the instructions it priced.
	// Both 0 when the report has no model (ReportOptions.BlockCycles nil).
	PipelineCycles float64
	PipelineInsns  int64
	// Cache is the group's simulated accesses and misses; nil when the run was not simulated,
	// and for instruction and category rows (the simulation counts per block, and a block's
	// misses cannot be shared out among its instructions). The total has them either way.
	// StallCycles is its misses × the profile's miss cycles per level.
	Cache       *CacheCounts
	StallCycles float64
	// PipelineKnown tells that the report has the model's cycles and the row is made of whole
	// blocks: the model prices a block, not an instruction, so instruction and category rows
	// have none. StallKnown tells that the row has misses and every level of the run's
	// geometry has its miss cycles in the profile (else StallCycles is what the priced levels
	// add, and Report.Waterfall says which are not).
	PipelineKnown bool
	StallKnown    bool
}

// EnergyKnown tells whether the row's energy is an estimate: false when every instruction of
// it is priced without a power, so tables, CSV, charts and JSON say "unknown", never 0 J.
func (r ReportRow) EnergyKnown() bool { return r.Instructions == 0 || r.UnknownPower < r.Instructions }

// Report is a table of costs with its totals.
type Report struct {
	Run              string
	Profile          string
	By               Grouping
	FrequencyGHz     float64
	FrequencyAssumed bool    // no frequency given and none in the profile
	ReferenceGHz     float64 // the profile's own clock, at which its power was measured (0: none)
	Rows             []ReportRow
	Total            ReportRow
	// Coverage says how much of Total the profile really prices (instructions in Undefined,
	// another processor's instruction set, unknown power), for the warning beside the numbers.
	Coverage Coverage
	// Waterfall is the estimate step by step for Total: category → pipeline → memory stalls.
	Waterfall Waterfall

	input WaterfallInput // what Waterfall was priced with, for RowWaterfall and Columns
}

// RowWaterfall is one row's estimate step by step, priced as the total's.
func (r *Report) RowWaterfall(row ReportRow) Waterfall { return NewWaterfall(r.input, row) }

// reportGroup accumulates one report row before its key is formatted.
type reportGroup struct {
	first     int // a block of the group, to name it
	insn      int32
	category  int
	lastBlock int // the last block counted in Blocks, so a block counts once per group
	row       ReportRow
}

// Check rejects options no report can answer, before a run is read for them.
func (opts ReportOptions) Check() error {
	if opts.Profile == nil {
		return fmt.Errorf("a report needs a profile")
	}
	if !slices.Contains(Groupings, opts.By) {
		return fmt.Errorf("unknown grouping %q", opts.By)
	}
	return nil
}

// Report groups the run's costs under a profile. Every grouping is the same walk over blocks:
// a block contributes executions × its instruction mix to the groups it touches and, to the
// groups made of whole blocks, its pipeline cycles and cache counts.
func (d *RunData) Report(opts ReportOptions) (*Report, error) {
	if err := d.check(opts); err != nil {
		return nil, err
	}
	rep := &Report{Run: opts.Run, Profile: opts.Profile.Name, By: opts.By, FrequencyGHz: opts.FrequencyGHz,
		ReferenceGHz: opts.Profile.Reference.FrequencyGHz}
	if rep.FrequencyGHz <= 0 {
		rep.FrequencyGHz = opts.Profile.Reference.FrequencyGHz
	}
	if rep.FrequencyGHz <= 0 {
		rep.FrequencyGHz, rep.FrequencyAssumed = DefaultFrequencyGHz, true
	}
	hz := rep.FrequencyGHz * 1e9

	w := d.newReportWalk(opts, hz)
	if opts.By == ByPID { // processes that ran nothing still get a row
		for _, p := range d.Processes {
			if opts.PID == 0 || p.PID == opts.PID {
				w.groups[w.group(int64(p.PID), -1)].row.PID = p.PID
			}
		}
	}
	for bi := range d.Blocks {
		b := &d.Blocks[bi]
		if b.Executions != 0 && (opts.PID == 0 || b.PID == opts.PID) {
			w.block(bi)
		}
	}
	w.growCaches()

	prices := newMissPrices(opts.Profile.Memory, d.Geometry)
	rep.Total = w.totalRow(prices)
	rep.Total.TimeS = rep.Total.Cycles / hz
	for _, p := range d.Processes {
		if opts.PID == 0 || p.PID == opts.PID {
			rep.Total.Blocks += p.BlocksExecuted
		}
	}
	counts := make([]InstructionCount, 0, len(w.executed))
	for i, n := range w.executed {
		if n > 0 {
			counts = append(counts, InstructionCount{Instruction: d.insns[i], Count: n})
		}
	}
	rep.Coverage = NewCoverage(w.pr.classifier, counts)
	rep.Rows = w.rows(w.order(), hz, prices)

	rep.input = WaterfallInput{Profile: opts.Profile, FrequencyGHz: rep.FrequencyGHz, Pipeline: opts.Pipeline,
		Priced: opts.BlockCycles != nil, PipelineNote: opts.PipelineNote,
		ReferenceForeign: rep.Coverage.Foreign*2 > rep.Coverage.Instructions}
	if d.Cache != nil {
		rep.input.Geometry, rep.input.GeometrySource = d.Geometry, d.GeometrySource
	}
	rep.Waterfall = NewWaterfall(rep.input, rep.Total)
	return rep, nil
}

// check rejects options this run cannot be reported with.
func (d *RunData) check(opts ReportOptions) error {
	if err := opts.Check(); err != nil {
		return err
	}
	if opts.BlockCycles != nil && len(opts.BlockCycles) != len(d.Blocks) {
		return fmt.Errorf("the machine model priced %d blocks, but run %q has %d", len(opts.BlockCycles), d.Info.Name, len(d.Blocks))
	}
	if d.Cache != nil && len(d.Cache) != len(d.Blocks) {
		return fmt.Errorf("run %q has cache counts for %d blocks of %d", d.Info.Name, len(d.Cache), len(d.Blocks))
	}
	return nil
}

// pricing is a profile applied to the run's distinct instructions once, so that the walk over
// blocks only indexes arrays.
type pricing struct {
	classifier *Classifier
	catNames   []string
	cycles     []float64
	joules     []float64 // energy of one execution
	cats       []int
	noPower    []int64 // 1 where the instruction's category has no power
}

func (d *RunData) price(p *Profile, hz float64) pricing {
	pr := pricing{classifier: NewClassifier(p), catNames: p.CategoryNames(), cycles: make([]float64, len(d.insns)),
		joules: make([]float64, len(d.insns)), cats: make([]int, len(d.insns)), noPower: make([]int64, len(d.insns))}
	catIndex := map[string]int{}
	for i, n := range pr.catNames {
		catIndex[n] = i
	}
	for i, in := range d.insns {
		c := pr.classifier.Classify(in)
		pr.cycles[i], pr.joules[i], pr.cats[i] = c.Cycles, c.Cycles/hz*c.PowerMW/1000, catIndex[c.Name]
		if c.PowerMW == 0 {
			pr.noPower[i] = 1
		}
	}
	return pr
}

// reportWalk gathers a report's groups block by block. Groups live in one slice (a report may
// have 100,000 of them); byKey finds them by pid, symbol id, instruction or category, and
// blockGroup by block index.
type reportWalk struct {
	d          *RunData
	opts       ReportOptions
	pr         pricing
	fine       bool // instructions or categories: groups of parts of blocks
	multi      bool // several processes in the report: names carry their pid
	groups     []reportGroup
	blockGroup []int32 // ByBlock: block index → group, -1 before its first execution
	byKey      map[int64]int
	symbols    map[groupName]int64 // function, image or layer → key
	caches     []CacheCounts       // per group of whole blocks, when the run was simulated
	executed   []int64             // per instruction, for the coverage
	total      ReportRow           // the pipeline cycles of every block walked
	totalCache CacheCounts
}

func (d *RunData) newReportWalk(opts ReportOptions, hz float64) *reportWalk {
	w := &reportWalk{d: d, opts: opts, pr: d.price(opts.Profile, hz), fine: opts.By == ByInstruction || opts.By == ByCategory,
		multi: opts.PID == 0 && len(d.Processes) > 1, groups: make([]reportGroup, 0, 64), byKey: map[int64]int{},
		symbols: map[groupName]int64{}, executed: make([]int64, len(d.insns))}
	if opts.By == ByBlock {
		w.groups = make([]reportGroup, 0, len(d.Blocks))
		w.blockGroup = make([]int32, len(d.Blocks))
		for i := range w.blockGroup {
			w.blockGroup[i] = -1
		}
	}
	if d.Cache != nil && !w.fine {
		w.caches = make([]CacheCounts, 0, cap(w.groups))
	}
	return w
}

// group is the index of the group of key, made for block bi (-1: none) if it is new.
func (w *reportWalk) group(key int64, bi int) int {
	if w.blockGroup != nil { // a map of 100,000 blocks would cost more than the report
		if w.blockGroup[bi] < 0 {
			w.blockGroup[bi] = int32(len(w.groups))
			w.groups = append(w.groups, reportGroup{first: bi, lastBlock: -1})
		}
		return int(w.blockGroup[bi])
	}
	gi, ok := w.byKey[key]
	if !ok {
		gi = len(w.groups)
		w.byKey[key] = gi
		w.groups = append(w.groups, reportGroup{first: bi, lastBlock: -1})
	}
	return gi
}

// add counts execs executions of n instructions of block bi costing c cycles and e joules.
func (g *reportGroup) add(bi int, execs int64, n, unpowered int64, c, e float64) {
	g.row.Instructions += execs * n
	g.row.UnknownPower += execs * unpowered
	g.row.Cycles += float64(execs) * c
	g.row.EnergyJ += float64(execs) * e
	if g.lastBlock != bi {
		g.lastBlock = bi
		g.row.Blocks += execs
	}
}

// addPipeline adds execs executions of a block of n instructions at the model's cycles, or
// at its category cycles c where the model did not price it (NaN).
func (r *ReportRow) addPipeline(model float64, execs, n int64, c float64) {
	if math.IsNaN(model) {
		r.PipelineCycles += float64(execs) * c
		return
	}
	r.PipelineCycles += float64(execs) * model
	r.PipelineInsns += execs * n
}

// block adds block bi's executions to its groups and to the totals of whole blocks.
func (w *reportWalk) block(bi int) {
	d, b, pr := w.d, &w.d.Blocks[bi], &w.pr
	var c, e float64
	var n, unpowered int64
	for k := d.mixFrom[bi]; k < d.mixFrom[bi+1]; k++ {
		idx, m := d.mixIdx[k], d.mixN[k]
		w.executed[idx] += b.Executions * m
		c += float64(m) * pr.cycles[idx]
		e += float64(m) * pr.joules[idx]
		n += m
		unpowered += m * pr.noPower[idx]
		if w.fine {
			key := int64(idx)
			if w.opts.By == ByCategory {
				key = int64(pr.cats[idx])
			}
			g := &w.groups[w.group(key, bi)]
			g.insn, g.category = idx, pr.cats[idx]
			g.add(bi, b.Executions, m, m*pr.noPower[idx], float64(m)*pr.cycles[idx], float64(m)*pr.joules[idx])
		}
	}
	model := math.NaN()
	if w.opts.BlockCycles != nil {
		model = w.opts.BlockCycles[bi]
		w.total.addPipeline(model, b.Executions, n, c)
	}
	if d.Cache != nil {
		w.totalCache.Add(d.Cache[bi])
	}
	if w.fine {
		return
	}
	gi := w.group(w.blockKey(bi), bi)
	g := &w.groups[gi]
	g.add(bi, b.Executions, n, unpowered, c, e)
	if w.opts.BlockCycles != nil {
		g.row.addPipeline(model, b.Executions, n, c)
	}
	if d.Cache != nil {
		w.growCaches()
		w.caches[gi].Add(d.Cache[bi])
	}
}

// blockKey is the key of block bi's group when groups are made of whole blocks.
func (w *reportWalk) blockKey(bi int) int64 {
	b := &w.d.Blocks[bi]
	var name groupName
	switch w.opts.By {
	case ByPID:
		return int64(b.PID)
	case ByBlock:
		return int64(bi)
	case ByFunction:
		name = groupName{symbol: b.Symbol, image: b.Image}
	case ByImage:
		name = groupName{image: b.Image}
	default: // ByLayer
		name.kind = b.ImageKind
	}
	if w.multi && w.opts.By != ByLayer {
		name.pid = b.PID
	}
	id, ok := w.symbols[name]
	if !ok {
		id = int64(len(w.symbols))
		w.symbols[name] = id
	}
	return id
}

// groupName is what names a function, image or layer group: a map key made without building
// a string, because the walk looks one up for every block.
type groupName struct {
	pid           int
	symbol, image string
	kind          ImageKind
}

// growCaches gives every group of whole blocks its cache counts, when the run was simulated.
func (w *reportWalk) growCaches() {
	for w.caches != nil && len(w.caches) < len(w.groups) {
		w.caches = append(w.caches, CacheCounts{})
	}
}

// totalRow sums the groups; its pipeline cycles and cache counts are every block's, whatever
// the grouping.
func (w *reportWalk) totalRow(prices missPrices) ReportRow {
	t := w.total
	t.Key = "total"
	for i := range w.groups {
		r := &w.groups[i].row
		t.Instructions += r.Instructions
		t.Cycles += r.Cycles
		t.EnergyJ += r.EnergyJ
		t.UnknownPower += r.UnknownPower
	}
	t.PipelineKnown = w.opts.BlockCycles != nil
	if w.d.Cache != nil {
		c := w.totalCache
		t.Cache = &c
		t.StallCycles, t.StallKnown = prices.stall(c), prices.known
	}
	return t
}

// rank is what the rows are ordered by: small values, not the groups.
type rank struct {
	cycles float64
	first  int
	gi     int32
}

// order ranks the groups most costly first (or missing most, with MissesFirst), ties in
// block order, keeping only the Top.
func (w *reportWalk) order() []rank {
	order := make([]rank, len(w.groups))
	for i := range w.groups {
		order[i] = rank{w.groups[i].row.Cycles, w.groups[i].first, int32(i)}
	}
	costlier := func(x, y rank) int {
		if c := cmp.Compare(y.cycles, x.cycles); c != 0 {
			return c
		}
		return cmp.Compare(x.first, y.first)
	}
	if w.opts.MissesFirst && w.caches != nil {
		costlier = func(x, y rank) int {
			cx, cy := &w.caches[x.gi], &w.caches[y.gi]
			for i := range 3 {
				if c := cmp.Compare(cy.Misses(i), cx.Misses(i)); c != 0 {
					return c
				}
			}
			if c := cmp.Compare(y.cycles, x.cycles); c != 0 {
				return c
			}
			return cmp.Compare(x.first, y.first)
		}
	}
	switch {
	case w.opts.Top > 0 && len(order) > w.opts.Top:
		return topN(order, w.opts.Top, costlier)
	case w.opts.MissesFirst && w.caches != nil:
		slices.SortFunc(order, costlier)
	default:
		// Groups were made in block order, so a stable sort on cycles alone gives the same
		// order as costlier; a radix sort does 100,000 rows in a fraction of the time.
		radixSortDesc(order, func(r rank) float64 { return r.cycles })
	}
	return order
}

// rows makes the report's rows in order: named, timed, with their share of the memory step.
func (w *reportWalk) rows(order []rank, hz float64, prices missPrices) []ReportRow {
	rows := make([]ReportRow, len(order))
	caches := w.caches // rows in group order, or copied so a top few do not keep them all
	if caches != nil && len(order) < len(w.groups) {
		caches = make([]CacheCounts, len(order))
	}
	for i, o := range order {
		g := &w.groups[o.gi]
		r := g.row
		r.TimeS = r.Cycles / hz
		w.name(&r, g)
		r.PipelineKnown = w.opts.BlockCycles != nil && !w.fine
		if caches != nil {
			c := &w.caches[o.gi]
			if len(caches) < len(w.groups) {
				caches[i] = *c
				c = &caches[i]
			}
			r.Cache = c
			r.StallCycles, r.StallKnown = prices.stall(*c), prices.known
		}
		rows[i] = r
	}
	return rows
}

// name fills in what names row r of group g.
func (w *reportWalk) name(r *ReportRow, g *reportGroup) {
	if g.first >= 0 {
		b := &w.d.Blocks[g.first]
		switch w.opts.By {
		case ByPID:
			r.PID = b.PID
		case ByBlock:
			r.Key, r.PID, r.BlockID, r.Image, r.ImageKind = w.d.blockKeys[g.first], b.PID, b.ID, b.Image, b.ImageKind
		case ByInstruction:
			r.Key, r.Category = w.d.insns[g.insn].String(), w.pr.catNames[g.category]
		case ByCategory:
			r.Key = w.pr.catNames[g.category]
		case ByFunction, ByImage:
			r.Key, r.Image, r.ImageKind = functionKey(b, w.multi), b.Image, b.ImageKind
			if len(w.d.Processes) == 1 || w.opts.PID != 0 {
				r.PID = b.PID
			}
			if w.opts.By == ByImage { // an image is always one process's
				r.Key, r.PID = imageKey(b, w.multi), b.PID
			}
		case ByLayer:
			r.Key, r.ImageKind = layerName(b.ImageKind), b.ImageKind
		}
	}
	if w.opts.By == ByPID {
		r.Key = fmt.Sprint(r.PID)
	}
}

// radixSortDesc sorts by a non-negative key, largest first, keeping the order of equal keys.
// Non-negative floats order like their bit patterns, so four 16-bit passes sort them.
func radixSortDesc[T any](list []T, key func(T) float64) {
	tmp := make([]T, len(list))
	keys, tmpKeys := make([]uint64, len(list)), make([]uint64, len(list))
	for i, x := range list {
		keys[i] = ^math.Float64bits(key(x)) // complemented: ascending keys, descending values
	}
	var count [1 << 16]int
	for shift := 0; shift < 64; shift += 16 {
		clear(count[:])
		for _, k := range keys {
			count[(k>>shift)&0xffff]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for i, k := range keys {
			d := (k >> shift) & 0xffff
			tmp[count[d]], tmpKeys[count[d]] = list[i], k
			count[d]++
		}
		list, tmp = tmp, list
		keys, tmpKeys = tmpKeys, keys
	}
	// Four passes: the sorted data is back in the caller's slice.
}

// topN returns the n first elements of list in the order of less, sorted, without sorting
// the whole list: a bounded max-heap of the best n seen so far.
func topN[T any](list []T, n int, less func(a, b T) int) []T {
	h := make([]T, 0, n)
	worse := func(i, j int) bool { return less(h[i], h[j]) > 0 } // h[i] comes after h[j]
	down := func(i int) {
		for {
			l, m := 2*i+1, i
			if l < len(h) && worse(l, m) {
				m = l
			}
			if r := l + 1; r < len(h) && worse(r, m) {
				m = r
			}
			if m == i {
				return
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	for _, x := range list {
		if len(h) < n {
			h = append(h, x)
			for i := len(h) - 1; i > 0 && worse(i, (i-1)/2); i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
		} else if less(x, h[0]) < 0 {
			h[0] = x
			down(0)
		}
	}
	slices.SortFunc(h, less)
	return h
}

// appendBlockKey writes "pid:symbol@0xpc(ISA)"; by hand, because a report may name 100,000
// blocks and fmt would dominate its time.
func appendBlockKey(buf []byte, b *BlockSummary) []byte {
	buf = strconv.AppendInt(buf, int64(b.PID), 10)
	buf = append(buf, ':')
	if b.Symbol == "" {
		buf = append(buf, '?')
	}
	buf = append(buf, b.Symbol...)
	buf = append(buf, "@0x"...)
	buf = strconv.AppendUint(buf, b.PC, 16)
	buf = append(buf, '(')
	buf = append(buf, b.ISA...)
	return append(buf, ')')
}

// functionKey names a function; with several processes the pid keeps same-named ones apart.
func functionKey(b *BlockSummary, withPID bool) string {
	sym := b.Symbol
	if sym == "" {
		sym = "(no symbol)"
	}
	if withPID {
		return fmt.Sprintf("%d:%s", b.PID, sym)
	}
	return sym
}

// imageKey names an image group; with several processes the pid keeps them apart.
func imageKey(b *BlockSummary, withPID bool) string {
	name := b.Image
	if name == "" {
		name = NoImage
	}
	if withPID {
		return fmt.Sprintf("%d:%s", b.PID, name)
	}
	return name
}

// layerName is what a layer row says: the kind, or NoImage for traces that name no images.
func layerName(k ImageKind) string {
	if k == "" {
		return NoImage
	}
	return string(k)
}

// InstructionCounts sums the run's (or one process's, pid not 0) dynamic instruction counts,
// for the per-category estimate and the calculator.
func (d *RunData) InstructionCounts(pid int) []InstructionCount {
	sum := map[Instruction]int64{}
	for _, b := range d.Blocks {
		if pid != 0 && b.PID != pid {
			continue
		}
		for _, m := range b.Mix {
			sum[m.Instruction] += b.Executions * m.Count
		}
	}
	out := make([]InstructionCount, 0, len(sum))
	for in, n := range sum {
		out = append(out, InstructionCount{Instruction: in, Count: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Instruction.Less(out[j].Instruction) })
	return out
}

// CompareItem names one side of a comparison: a whole run, or one process of it ("run:pid").
type CompareItem struct {
	Run string
	PID int
}

// ParseCompareItem reads "run" or "run:pid".
func ParseCompareItem(s string) (CompareItem, error) {
	run, pid, ok := strings.Cut(s, ":")
	if !ok {
		return CompareItem{Run: s}, nil
	}
	var n int
	if _, err := fmt.Sscan(pid, &n); err != nil || n <= 0 {
		return CompareItem{}, fmt.Errorf("%q: want RUN or RUN:PID", s)
	}
	return CompareItem{Run: run, PID: n}, nil
}

func (c CompareItem) String() string {
	if c.PID == 0 {
		return c.Run
	}
	return fmt.Sprintf("%s:%d", c.Run, c.PID)
}

// CompareRow is one side of a comparison: the columns of seed tables 5.2, 5.4 and 5.5, with
// ratios to the first item. A ratio is NaN (unknown) where the first item has none of it, or
// where either energy is unknown (no power in the profile): never a confident 0.
type CompareRow struct {
	Item             string
	Profile          string   // the profile that priced this row
	FrequencyGHz     float64  // the clock it was priced at
	Coverage         Coverage // what of the row's cost is a guess
	Instructions     int64
	Blocks           int64
	InsnsPerBlock    float64
	Cycles           float64
	TimeS            float64
	EnergyJ          float64
	InstructionRatio float64
	CycleRatio       float64
	EnergyRatio      float64
	// CPIEstimate is seed figure 5.2's estimate of the row (ReferenceEstimate) from its
	// profile's reference CPI and power; nil (shown "unknown") where the profile has none or
	// does not price the row's instruction set (its CPI is another processor's).
	CPIEstimate *Estimate
}

// CompareRows puts reports side by side, one per item (each of its own run or process, priced
// under the profile chosen for it), with ratios to the first.
func CompareRows(items []CompareItem, reps []*Report) []CompareRow {
	out := make([]CompareRow, 0, len(reps))
	for i, rep := range reps {
		t := rep.Total
		r := CompareRow{Item: items[i].String(), Profile: rep.Profile, FrequencyGHz: rep.FrequencyGHz, Coverage: rep.Coverage,
			Instructions: t.Instructions, Blocks: t.Blocks, Cycles: t.Cycles, TimeS: t.TimeS, EnergyJ: t.EnergyJ}
		if t.Blocks > 0 {
			r.InsnsPerBlock = float64(t.Instructions) / float64(t.Blocks)
		}
		out = append(out, r)
	}
	for i := range out {
		out[i].InstructionRatio = floatRatio(float64(out[i].Instructions), float64(out[0].Instructions))
		out[i].CycleRatio = floatRatio(out[i].Cycles, out[0].Cycles)
		out[i].EnergyRatio = math.NaN()
		if !out[i].Coverage.PowerUnknown() && !out[0].Coverage.PowerUnknown() {
			out[i].EnergyRatio = floatRatio(out[i].EnergyJ, out[0].EnergyJ)
		}
	}
	return out
}

// floatRatio is a / b, NaN (unknown) when b is 0: nothing has no ratio.
func floatRatio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// ImageCompareRow is one image across the compared items: the program, a library, the loader
// or code with no file, with each item's cost of it (zero where an item did not run it).
type ImageCompareRow struct {
	Key   string    // the image's name; the loader and code with no file go by their kind
	Kind  ImageKind // of the first item that has it
	Names []string  // each item's name for it ("" where absent): ld-linux-armhf.so.3 and ld.so.1 share a row
	Cells []ReportRow
}

// CompareImages puts reports --by image side by side, one per item: one row per image, the
// costliest in the first item first. The dynamic loaders of an ARM and a MIPS build share a
// row, as do their regions with no file, so the same program compares layer by layer.
func CompareImages(reps []*Report) []ImageCompareRow {
	index := map[string]int{}
	var out []ImageCompareRow
	for i, rep := range reps {
		for _, r := range rep.Rows {
			key := r.Image
			switch {
			case r.ImageKind == ImageLoader || r.ImageKind == ImageNoFile:
				key = "(" + string(r.ImageKind) + ")"
			case key == "":
				key = NoImage
			}
			j, ok := index[key]
			if !ok {
				j = len(out)
				index[key] = j
				out = append(out, ImageCompareRow{Key: key, Kind: r.ImageKind, Names: make([]string, len(reps)), Cells: make([]ReportRow, len(reps))})
			}
			c := &out[j].Cells[i]
			c.Instructions += r.Instructions
			c.Blocks += r.Blocks
			c.Cycles += r.Cycles
			c.TimeS += r.TimeS
			c.EnergyJ += r.EnergyJ
			c.UnknownPower += r.UnknownPower
			out[j].Names[i] = r.Image
		}
	}
	slices.SortStableFunc(out, func(a, b ImageCompareRow) int {
		for i := range a.Cells {
			if c := cmp.Compare(b.Cells[i].Cycles, a.Cells[i].Cycles); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Key, b.Key)
	})
	return out
}
