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
	// Cache is the group's simulated accesses and misses; nil when the run was not simulated.
	// StallCycles is its misses × the profile's miss cycles per level (0 when either is missing:
	// see Report.Waterfall for whether it is known).
	Cache       *CacheCounts
	StallCycles float64
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
}

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
// a block contributes executions × its instruction mix to the groups it touches.
func (d *RunData) Report(opts ReportOptions) (*Report, error) {
	if err := opts.Check(); err != nil {
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

	// Classify each distinct instruction once.
	cl := NewClassifier(opts.Profile)
	catNames := opts.Profile.CategoryNames()
	catIndex := map[string]int{}
	for i, n := range catNames {
		catIndex[n] = i
	}
	cycles := make([]float64, len(d.insns))
	joules := make([]float64, len(d.insns)) // energy of one execution
	cats := make([]int, len(d.insns))
	noPower := make([]int64, len(d.insns))  // 1 where the instruction's category has no power
	executed := make([]int64, len(d.insns)) // per instruction, for the coverage
	for i, in := range d.insns {
		c := cl.Classify(in)
		cycles[i], joules[i], cats[i] = c.Cycles, c.Cycles/hz*c.PowerMW/1000, catIndex[c.Name]
		if c.PowerMW == 0 {
			noPower[i] = 1
		}
	}

	// Groups live in one slice (a report may have 100,000 of them); byKey finds them by pid,
	// block index, symbol id, instruction or category.
	groups := make([]reportGroup, 0, 64)
	var blockGroup []int32 // ByBlock: block index → group, -1 before its first execution
	if opts.By == ByBlock {
		groups = make([]reportGroup, 0, len(d.Blocks))
		blockGroup = make([]int32, len(d.Blocks))
		for i := range blockGroup {
			blockGroup[i] = -1
		}
	}
	byKey := map[int64]int{}
	symbols := map[string]int64{}
	get := func(key int64, bi int) *reportGroup {
		if blockGroup != nil { // a map of 100,000 blocks would cost more than the report
			if blockGroup[bi] < 0 {
				blockGroup[bi] = int32(len(groups))
				groups = append(groups, reportGroup{first: bi, lastBlock: -1})
			}
			return &groups[blockGroup[bi]]
		}
		gi, ok := byKey[key]
		if !ok {
			gi = len(groups)
			byKey[key] = gi
			groups = append(groups, reportGroup{first: bi, lastBlock: -1})
		}
		return &groups[gi]
	}
	add := func(g *reportGroup, bi int, execs int64, n, unpowered int64, c, e float64) {
		g.row.Instructions += execs * n
		g.row.UnknownPower += execs * unpowered
		g.row.Cycles += float64(execs) * c
		g.row.EnergyJ += float64(execs) * e
		if g.lastBlock != bi {
			g.lastBlock = bi
			g.row.Blocks += execs
		}
	}
	if opts.By == ByPID { // processes that ran nothing still get a row
		for _, p := range d.Processes {
			if opts.PID == 0 || p.PID == opts.PID {
				get(int64(p.PID), -1).row.PID = p.PID
			}
		}
	}
	for bi := range d.Blocks {
		b := &d.Blocks[bi]
		if b.Executions == 0 || (opts.PID != 0 && b.PID != opts.PID) {
			continue
		}
		from, to := d.mixFrom[bi], d.mixFrom[bi+1]
		switch opts.By {
		case ByInstruction, ByCategory:
			for k := from; k < to; k++ {
				idx := d.mixIdx[k]
				key := int64(idx)
				if opts.By == ByCategory {
					key = int64(cats[idx])
				}
				g := get(key, bi)
				g.insn, g.category = idx, cats[idx]
				n := d.mixN[k]
				executed[idx] += b.Executions * n
				add(g, bi, b.Executions, n, n*noPower[idx], float64(n)*cycles[idx], float64(n)*joules[idx])
			}
		default:
			var c, e float64
			var n, unpowered int64
			for k := from; k < to; k++ {
				idx := d.mixIdx[k]
				c += float64(d.mixN[k]) * cycles[idx]
				e += float64(d.mixN[k]) * joules[idx]
				n += d.mixN[k]
				unpowered += d.mixN[k] * noPower[idx]
				executed[idx] += b.Executions * d.mixN[k]
			}
			var key int64
			switch opts.By {
			case ByPID:
				key = int64(b.PID)
			case ByBlock:
				key = int64(bi)
			case ByFunction, ByImage, ByLayer:
				name := string(b.ImageKind)
				switch opts.By {
				case ByFunction:
					name = functionKey(b, opts.PID == 0 && len(d.Processes) > 1) + "\x00" + b.Image
				case ByImage:
					name = imageKey(b, opts.PID == 0 && len(d.Processes) > 1)
				}
				id, ok := symbols[name]
				if !ok {
					id = int64(len(symbols))
					symbols[name] = id
				}
				key = id
			}
			add(get(key, bi), bi, b.Executions, n, unpowered, c, e)
		}
	}

	for i := range groups {
		g := &groups[i]
		rep.Total.Instructions += g.row.Instructions
		rep.Total.Cycles += g.row.Cycles
		rep.Total.EnergyJ += g.row.EnergyJ
		rep.Total.UnknownPower += g.row.UnknownPower
	}
	rep.Total.Key = "total"
	counts := make([]InstructionCount, 0, len(executed))
	for i, n := range executed {
		if n > 0 {
			counts = append(counts, InstructionCount{Instruction: d.insns[i], Count: n})
		}
	}
	rep.Coverage = NewCoverage(cl, counts)
	rep.Total.TimeS = rep.Total.Cycles / hz
	for _, p := range d.Processes {
		if opts.PID == 0 || p.PID == opts.PID {
			rep.Total.Blocks += p.BlocksExecuted
		}
	}
	// Sort small values, not the groups: most costly first, ties in block order.
	type rank struct {
		cycles float64
		first  int
		gi     int32
	}
	order := make([]rank, len(groups))
	for i := range groups {
		order[i] = rank{groups[i].row.Cycles, groups[i].first, int32(i)}
	}
	costlier := func(x, y rank) int {
		if c := cmp.Compare(y.cycles, x.cycles); c != 0 {
			return c
		}
		return cmp.Compare(x.first, y.first)
	}
	if opts.Top > 0 && len(order) > opts.Top {
		order = topN(order, opts.Top, costlier)
	} else {
		// Groups were made in block order, so a stable sort on cycles alone gives the same
		// order as costlier; a radix sort does 100,000 rows in a fraction of the time.
		radixSortDesc(order, func(r rank) float64 { return r.cycles })
	}
	rep.Rows = make([]ReportRow, len(order))
	for i, o := range order {
		g := &groups[o.gi]
		r := g.row
		r.TimeS = r.Cycles / hz
		if g.first >= 0 {
			b := &d.Blocks[g.first]
			switch opts.By {
			case ByPID:
				r.PID = b.PID
			case ByBlock:
				r.Key, r.PID, r.BlockID, r.Image, r.ImageKind = d.blockKeys[g.first], b.PID, b.ID, b.Image, b.ImageKind
			case ByInstruction:
				r.Key, r.Category = d.insns[g.insn].String(), catNames[g.category]
			case ByCategory:
				r.Key = catNames[g.category]
			case ByFunction, ByImage:
				r.Key, r.Image, r.ImageKind = functionKey(b, opts.PID == 0 && len(d.Processes) > 1), b.Image, b.ImageKind
				if len(d.Processes) == 1 || opts.PID != 0 {
					r.PID = b.PID
				}
				if opts.By == ByImage { // an image is always one process's
					r.Key, r.PID = imageKey(b, opts.PID == 0 && len(d.Processes) > 1), b.PID
				}
			case ByLayer:
				r.Key, r.ImageKind = layerName(b.ImageKind), b.ImageKind
			}
		}
		if opts.By == ByPID {
			r.Key = fmt.Sprint(r.PID)
		}
		rep.Rows[i] = r
	}
	return rep, nil
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
