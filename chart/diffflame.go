package chart

// The differential flame graph (Brendan Gregg's): the newer run's graph, each frame coloured by
// how its own share of its run moved from the older run, red for more and blue for less.

import (
	"fmt"
	"math"
	"strconv"

	"github.com/wcharczuk/go-chart/v2/drawing"

	"androprof/internal/human"
	"androprof/model/flame"
)

// flameDiff is what a Flame drawn from a diff knows beyond its widths: each drawn frame's
// diff node, the table's rows, and what the colours are scaled to.
type flameDiff struct {
	of           map[*flame.Node]*flame.DiffNode
	rows         []flame.DiffRow
	threshold    float64 // |SelfChange| under it is noise: drawn neutral
	maxAbs       float64 // the largest |SelfChange| drawn: full colour
	rootA, rootB int64
}

// The fills of a diff graph: frames under the threshold, and the two ends of the scale.
var (
	diffNeutral = drawing.Color{R: 240, G: 236, B: 226, A: 255}
	diffMore    = drawing.Color{R: 255, G: 60, B: 60, A: 255}
	diffLess    = drawing.Color{R: 60, G: 60, B: 255, A: 255}
)

// FromDiff draws d, the diff of run A against run B (flame.Diff), as Brendan Gregg's
// differential flame graph: widths from B, the newer run, each frame red where its self time's
// share of its run grew and blue where it shrank, deeper the larger the change (scaled to the
// largest drawn), neutral under threshold (a fraction of each run's total, as the rows').
// Frames only in A have no width in B: the note counts them and their time in A, and the rows
// (flame.DiffRows, what CSV writes) list them. unit is the graph's ("" samples, FlameCPU,
// FlameReal); scope says what the graphs count ("all threads").
func FromDiff(d *flame.DiffNode, rows []flame.DiffRow, runA, runB, unit, scope string, threshold float64) Flame {
	f := Flame{Title: fmt.Sprintf("Differential flame graph — A %s, B %s, %s", runA, runB, scope), Unit: unit, Scope: scope + " of " + runB}
	if unit != "" {
		f.Title += ", " + unit
	}
	if d == nil {
		return f
	}
	fd := &flameDiff{of: map[*flame.Node]*flame.DiffNode{}, rows: rows, threshold: threshold, rootA: d.TotalA, rootB: d.TotalB}
	gone, goneA := 0, int64(0)
	var build func(dn *flame.DiffNode) *flame.Node
	build = func(dn *flame.DiffNode) *flame.Node {
		n := &flame.Node{Name: dn.Name, Origin: dn.Origin, Self: dn.SelfB, Total: dn.TotalB}
		fd.of[n] = dn
		if c := math.Abs(dn.SelfChange); c >= threshold && c > fd.maxAbs {
			fd.maxAbs = c
		}
		for _, c := range dn.Children {
			if c.TotalB > 0 {
				n.Children = append(n.Children, build(c))
			} else if c.TotalA > 0 {
				gone++
				goneA += c.TotalA
			}
		}
		return n
	}
	f.Root = build(d)
	f.diff = fd
	if gone > 0 {
		f.Note = fmt.Sprintf("%s only in %s, %s there: not drawn (no width in %s), in the table",
			human.Count(gone, "frame", "frames"), runA, f.Amount(goneA), runB)
	}
	return f
}

// colour is frame n's fill: by its self time's change of share, red for more, blue for less,
// from pale at the threshold to full at the largest change; neutral under the threshold or
// when unknown.
func (fd *flameDiff) colour(n *flame.Node) drawing.Color {
	dn := fd.of[n]
	if dn == nil || math.IsNaN(dn.SelfChange) || math.Abs(dn.SelfChange) < fd.threshold || dn.SelfChange == 0 {
		return diffNeutral
	}
	t := math.Abs(dn.SelfChange) / fd.maxAbs
	end := diffMore
	if dn.SelfChange < 0 {
		end = diffLess
	}
	pct := int(math.Round(85 * (1 - t))) // 0: full colour, 85: a pale tint
	return lighten(end, pct)
}

// legend says what the colours mean.
func (fd *flameDiff) legend() []legendEntry {
	return []legendEntry{{"more in B (self time's share)", diffMore}, {"less in B", diffLess},
		{"changed less than " + pointsWord(fd.threshold), diffNeutral}}
}

// diffText is a diff frame's numbers for the hover and the info line: A, B and the change in
// the graph's unit and in points of each run's total, for the frame's total and its self time.
func (f Flame) diffText(n *flame.Node) string {
	dn := f.diff.of[n]
	name := n.Name
	if n.Origin != "" {
		name += " (" + n.Origin + ")"
	}
	if dn == nil { // a frame the diff did not make (a focus step rebuilt the graph): B's numbers
		plain := f
		plain.diff = nil
		return plain.FrameText(n)
	}
	return fmt.Sprintf("%s: A %s, B %s (%s), %s → %s of the run (%s points); self A %s, B %s (%s, %s points)",
		name, f.Amount(dn.TotalA), f.Amount(dn.TotalB), f.signed(dn.TotalB-dn.TotalA),
		pct(dn.TotalA, f.diff.rootA), pct(dn.TotalB, f.diff.rootB), pointsOf(dn.Change, true),
		f.Amount(dn.SelfA), f.Amount(dn.SelfB), f.signed(dn.SelfB-dn.SelfA), pointsOf(dn.SelfChange, true))
}

// signed is a difference in the graph's unit with its sign.
func (f Flame) signed(v int64) string {
	if v < 0 {
		return "−" + f.Amount(-v)
	}
	return "+" + f.Amount(v)
}

// pct is v's share of all, "unknown" when all is none.
func pct(v, all int64) string {
	if all <= 0 {
		return "unknown"
	}
	return strconv.FormatFloat(100*float64(v)/float64(all), 'f', 1, 64) + "%"
}

// pointsWord is a fraction as "1 point", "2.5 points".
func pointsWord(c float64) string {
	s := pointsOf(c, false)
	if s == "1" {
		return "1 point"
	}
	return s + " points"
}

// pointsOf is a fraction as percentage points with two decimals (signed when sign), "unknown"
// for NaN, as `androprof diff` writes them.
func pointsOf(c float64, sign bool) string {
	if math.IsNaN(c) {
		return "unknown"
	}
	if sign {
		return fmt.Sprintf("%+.2f", 100*c)
	}
	return human.TrimZeros(fmt.Sprintf("%.2f", 100*c))
}

// table is the diff's rows as CSV writes them: `androprof diff --json`'s fields, the
// changes in points of each run's total ("" where unknown).
func (fd *flameDiff) table() [][]string {
	out := [][]string{{"key", "self_a", "self_b", "self_change_pts", "total_a", "total_b", "total_change_pts", "unchanged"}}
	pts := func(c float64) string {
		if math.IsNaN(c) {
			return ""
		}
		return strconv.FormatFloat(100*c, 'g', -1, 64)
	}
	for _, r := range fd.rows {
		out = append(out, []string{r.Key, strconv.FormatInt(r.SelfA, 10), strconv.FormatInt(r.SelfB, 10), pts(r.SelfChange),
			strconv.FormatInt(r.TotalA, 10), strconv.FormatInt(r.TotalB, 10), pts(r.Change), strconv.FormatBool(r.Unchanged)})
	}
	return out
}

// DiffNode is the diff node frame n of a diff graph stands for, nil in other graphs.
func (f Flame) DiffNode(n *flame.Node) *flame.DiffNode {
	if f.diff == nil {
		return nil
	}
	return f.diff.of[n]
}
