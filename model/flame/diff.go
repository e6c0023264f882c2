package flame

// The differential flame graph (Brendan Gregg's, pprof's -diff_base): two graphs of one
// program matched by call path, the newer run's widths, coloured by how each frame's share
// of its run moved.

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// DiffNode is one call path in two graphs: A the older run, B the newer. Widths are B's
// (a path gone from B is kept, with TotalB 0, for the table). Change is the path's share of
// B's root minus its share of A's root (TotalB/rootB − TotalA/rootA, a fraction: 0.05 is 5
// points of the total), so two runs of different lengths compare; SelfChange the same for its
// self time. Both are NaN (unknown) when either root has no time. Children are sorted by Name.
type DiffNode struct {
	Name           string
	Origin         string // B's, else A's
	SelfA, SelfB   int64
	TotalA, TotalB int64
	Change         float64
	SelfChange     float64
	Children       []*DiffNode
}

// Diff matches a and b by call path: the frames' names from below the root down (frames of
// one name from two origins under one caller count as one). The root pairs a's root with
// b's, whatever their names.
func Diff(a, b *Node) *DiffNode {
	root := &DiffNode{Name: b.Name, Origin: b.Origin}
	kids := map[*DiffNode]map[string]*DiffNode{} // each node's children by name: a caller can have thousands
	child := func(d *DiffNode, name string) *DiffNode {
		m := kids[d]
		if m == nil {
			m = map[string]*DiffNode{}
			kids[d] = m
		}
		c, ok := m[name]
		if !ok {
			c = &DiffNode{Name: name}
			m[name] = c
			d.Children = append(d.Children, c)
		}
		return c
	}
	var add func(d *DiffNode, n *Node, inB bool)
	add = func(d *DiffNode, n *Node, inB bool) {
		if inB {
			d.SelfB += n.Self
			d.TotalB += n.Total
			d.Origin = n.Origin
		} else {
			d.SelfA += n.Self
			d.TotalA += n.Total
			if d.Origin == "" {
				d.Origin = n.Origin
			}
		}
		for _, c := range n.Children {
			add(child(d, c.Name), c, inB)
		}
	}
	add(root, a, false)
	add(root, b, true)
	ra, rb := root.TotalA, root.TotalB
	stack := []*DiffNode{root}
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		d.Change = shareChange(d.TotalA, ra, d.TotalB, rb)
		d.SelfChange = shareChange(d.SelfA, ra, d.SelfB, rb)
		slices.SortFunc(d.Children, func(x, y *DiffNode) int { return strings.Compare(x.Name, y.Name) })
		stack = append(stack, d.Children...)
	}
	return root
}

// shareChange is vb's share of rb minus va's share of ra: exactly the negation with the runs
// swapped (IEEE subtraction is), NaN when either run has no time.
func shareChange(va, ra, vb, rb int64) float64 {
	if ra <= 0 || rb <= 0 {
		return math.NaN()
	}
	return float64(vb)/float64(rb) - float64(va)/float64(ra)
}

// DiffBy is what a diff table's rows are.
type DiffBy string

// The diff tables' groupings.
const (
	DiffByFunction DiffBy = "function" // a frame's name, summed over every path it is on
	DiffByPath     DiffBy = "path"     // a call path, as the graph draws it
	DiffByOrigin   DiffBy = "image"    // a frame's Origin: the image of sampled frames, the package of methods
)

// DiffBys are the groupings, in the order the command line lists them.
var DiffBys = []DiffBy{DiffByFunction, DiffByPath, DiffByOrigin}

// ParseDiffBy reads a grouping as the command line and the window spell it.
func ParseDiffBy(s string) (DiffBy, error) {
	if slices.Contains(DiffBys, DiffBy(s)) {
		return DiffBy(s), nil
	}
	return "", fmt.Errorf("unknown grouping %q: want function, path or image", s)
}

// NoOrigin is the origin row of frames whose graph says none.
const NoOrigin = "(unknown)"

// DiffRow is one function, path or origin in both runs. Totals count a function once on a
// stack where it recurses, so a recursive method is not counted once per level. Change and
// SelfChange are normalised as DiffNode's. Unchanged says |SelfChange| is under the table's
// threshold: the row's own time did not move beyond noise (a caller of a method that got
// slower has a larger Change but is Unchanged: the time moved in its callee, which has a row).
type DiffRow struct {
	// Key is the function, the origin, or the path's frames joined by ";"; a path deeper than
	// MaxPathFrames keeps its last frames, after "…(N frames);" saying how many it left out.
	Key            string
	Path           []string // DiffByPath: the frames from below the root down (the last MaxPathFrames)
	SelfA, SelfB   int64
	TotalA, TotalB int64
	Change         float64
	SelfChange     float64
	Unchanged      bool
}

// MaxPathFrames bounds a path row's frames: a recursion 20,000 calls deep has 20,000 paths,
// and their whole names would take 20,000² frames.
const MaxPathFrames = 64

// DiffRows is d as a table by function, path or origin, the largest normalised change first
// (self time's, then total's, then by key): where the time moved, not where it was spent above
// the frame that moved. Rows under threshold (a fraction of the total, 0.01 for 1 point) are
// Unchanged. Rows with no time in either run are left out.
func DiffRows(d *DiffNode, by DiffBy, threshold float64) []DiffRow {
	var list []*DiffRow
	rows := map[string]*DiffRow{}
	onStack := map[string]int{} // the keys of the current path, for recursion
	var path []string
	var walk func(n *DiffNode)
	walk = func(n *DiffNode) {
		path = append(path, n.Name)
		if by == DiffByPath {
			r := pathRow(path)
			r.SelfA, r.SelfB, r.TotalA, r.TotalB = n.SelfA, n.SelfB, n.TotalA, n.TotalB
			list = append(list, r)
		} else {
			key := n.Name
			if by == DiffByOrigin {
				key = cmp.Or(n.Origin, NoOrigin)
			}
			r, ok := rows[key]
			if !ok {
				r = &DiffRow{Key: key}
				rows[key] = r
				list = append(list, r)
			}
			r.SelfA += n.SelfA
			r.SelfB += n.SelfB
			if onStack[key] == 0 {
				r.TotalA += n.TotalA
				r.TotalB += n.TotalB
			}
			onStack[key]++
			defer func() { onStack[key]-- }()
		}
		for _, c := range n.Children {
			walk(c)
		}
		path = path[:len(path)-1]
	}
	for _, c := range d.Children {
		walk(c)
	}
	out := make([]DiffRow, 0, len(list))
	for _, r := range list {
		if r.TotalA == 0 && r.TotalB == 0 && r.SelfA == 0 && r.SelfB == 0 {
			continue
		}
		r.Change = shareChange(r.TotalA, d.TotalA, r.TotalB, d.TotalB)
		r.SelfChange = shareChange(r.SelfA, d.TotalA, r.SelfB, d.TotalB)
		r.Unchanged = math.Abs(r.SelfChange) < threshold
		out = append(out, *r)
	}
	slices.SortFunc(out, func(x, y DiffRow) int {
		return cmp.Or(cmp.Compare(math.Abs(y.SelfChange), math.Abs(x.SelfChange)),
			cmp.Compare(math.Abs(y.Change), math.Abs(x.Change)), strings.Compare(x.Key, y.Key))
	})
	return out
}

// pathRow is the row of the path's last frame, named by the path (its last MaxPathFrames).
func pathRow(path []string) *DiffRow {
	frames, key := path, ""
	if cut := len(path) - MaxPathFrames; cut > 0 {
		frames, key = path[cut:], fmt.Sprintf("…(%d frames);", cut)
	}
	return &DiffRow{Key: key + strings.Join(frames, ";"), Path: slices.Clone(frames)}
}
