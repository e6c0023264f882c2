package htmlreport

import (
	"cmp"
	"fmt"
	"slices"

	"androprof/internal/human"
	"androprof/model/flame"
	layersmodel "androprof/model/layers"
)

// The flame graph travels in the page as JSON the script reads: its frames in preorder, flat
// (a deep tree nests nothing, so neither Go nor the browser recurses on it), names interned.

const (
	// minFrameShare drops frames under this share of the root: thinner than a pixel on any
	// screen, and in a big run most of the frames.
	minFrameShare = 0.001
	// maxFrames bounds the frames kept, the widest first, so the page stays a few megabytes
	// whatever the run.
	maxFrames = 40_000
	// nodeFields is how many numbers each frame takes in flameData.Nodes.
	nodeFields = 6
)

// flameData is the flame graph as the page's script reads it.
type flameData struct {
	Unit   string   `json:"unit"`
	Strs   []string `json:"strs"`   // names and origins, each once
	Layers []string `json:"layers"` // layer names by index (0: none)
	// Nodes holds nodeFields numbers per frame, in preorder: parent (-1 for the root), name
	// and origin (indexes into Strs), layer, self, total.
	Nodes []int64 `json:"nodes"`
}

// flameOf flattens f's tree for the page, dropping frames under minFrameShare of the root
// and then all but the maxFrames widest; note says what was dropped ("" when nothing was).
func flameOf(f *Flame) (data flameData, note string) {
	root := f.Root
	data = flameData{Unit: f.Unit, Strs: []string{""}, Layers: layerNames()}
	if root == nil || root.Total <= 0 {
		return data, ""
	}
	minTotal := int64(float64(root.Total) * minFrameShare)
	kept, parents, small, smallTotal := preorder(root, minTotal)
	cut := len(kept) > maxFrames
	if cut {
		kept, parents = widest(kept, parents, maxFrames)
	}
	strs := map[string]int64{"": 0}
	intern := func(s string) int64 {
		s = shown(s)
		if i, ok := strs[s]; ok {
			return i
		}
		strs[s] = int64(len(data.Strs))
		data.Strs = append(data.Strs, s)
		return strs[s]
	}
	data.Nodes = make([]int64, 0, nodeFields*len(kept))
	for i, n := range kept {
		layer := int64(n.Layer)
		if int(layer) >= len(data.Layers) {
			layer = 0
		}
		data.Nodes = append(data.Nodes, int64(parents[i]), intern(n.Name), intern(n.Origin), layer, n.Self, n.Total)
	}
	if small > 0 {
		note = fmt.Sprintf("Frames under %.1f%% of the total are left out: %s with their callees, %s %s (%.2f%%).",
			minFrameShare*100, human.Count(small, "frame", "frames"), human.Grouped(smallTotal), f.Unit, 100*float64(smallTotal)/float64(root.Total))
	}
	if cut {
		note += fmt.Sprintf(" Of the others, only the %s widest are drawn.", human.Grouped(len(kept)))
	}
	return data, note
}

// preorder lists the frames of root at least minTotal wide, parents first, with each one's
// parent's index (-1 for the root); small counts the frames left out at the top of their
// subtree and smallTotal their time.
func preorder(root *flame.Node, minTotal int64) (kept []*flame.Node, parents []int, small int, smallTotal int64) {
	type item struct {
		n      *flame.Node
		parent int
	}
	stack := []item{{root, -1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.parent >= 0 && it.n.Total < minTotal || it.n.Total <= 0 {
			small++
			smallTotal += max(it.n.Total, 0)
			continue
		}
		kept = append(kept, it.n)
		parents = append(parents, it.parent)
		at := len(kept) - 1
		for i := len(it.n.Children) - 1; i >= 0; i-- { // pushed last first, so popped in order
			stack = append(stack, item{it.n.Children[i], at})
		}
	}
	return kept, parents, small, smallTotal
}

// widest keeps the limit widest of the frames in preorder (ties: the earlier first), which
// keeps every kept frame's callers: a caller is at least as wide and comes before.
func widest(kept []*flame.Node, parents []int, limit int) ([]*flame.Node, []int) {
	order := make([]int, len(kept))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(kept[b].Total, kept[a].Total), cmp.Compare(a, b))
	})
	keep := make([]bool, len(kept))
	for _, i := range order[:limit] {
		keep[i] = true
	}
	newIndex := make([]int, len(kept))
	var outNodes []*flame.Node
	var outParents []int
	for i, n := range kept {
		if !keep[i] || parents[i] >= 0 && !keep[parents[i]] {
			keep[i] = false
			continue
		}
		newIndex[i] = len(outNodes)
		p := -1
		if parents[i] >= 0 {
			p = newIndex[parents[i]]
		}
		outNodes, outParents = append(outNodes, n), append(outParents, p)
	}
	return outNodes, outParents
}

// layerNames are seed 004's layers by their index in flame.Node.Layer.
func layerNames() []string {
	names := []string{""}
	for _, l := range layersmodel.Layers {
		for int(l) >= len(names) {
			names = append(names, "")
		}
		names[l] = l.String()
	}
	return names
}
