package calls

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"androprof/model/flame"
)

// Flame is a thread's call tree as a flame graph on one clock (wall, else thread-CPU): a
// frame's Total is the inclusive time of its call path, its Self the exclusive time, in µs,
// Origin the class's package. A thread's frame holds as its Self the time outside any traced
// call ((toplevel)'s exclusive time), so it is as wide as the thread's time in the profile
// table. tid 0 draws every thread, each as a frame "tid name" under the root "all threads";
// otherwise the root is the thread itself. Paths that took no time on the
// clock are left out, as a flame graph cannot draw them. name formats a method (MethodName,
// or a readable form). tree must be in CheckCallTree's order.
func Flame(p *CallProfile, tree []CallNode, tid int, wall bool, name func(MethodInfo) string) *flame.Node {
	self := func(n CallNode) int64 {
		if wall {
			return int64(n.ExclusiveWall)
		}
		return int64(n.ExclusiveCPU)
	}
	total := make([]int64, len(tree))
	for i := len(tree) - 1; i >= 0; i-- { // a parent comes before its children
		n := tree[i]
		if tid != 0 && n.TID != tid {
			continue
		}
		total[i] += self(n)
		if n.Parent != NoParent {
			total[n.Parent] += total[i]
		}
	}
	threads := map[int]*flame.Node{}
	threadNode := func(t int) *flame.Node {
		if f, ok := threads[t]; ok {
			return f
		}
		label := fmt.Sprint(t)
		for _, th := range p.Threads {
			if th.TID == t && th.Name != "" {
				label = fmt.Sprintf("%d %s", t, th.Name)
			}
		}
		f := &flame.Node{Name: "thread " + label}
		threads[t] = f
		return f
	}
	made := make([]*flame.Node, len(tree))
	for i, n := range tree {
		if total[i] <= 0 {
			continue
		}
		m := p.Methods[n.Method]
		f := &flame.Node{Name: name(m), Origin: PackageOf(m.Class), Self: self(n), Total: total[i]}
		made[i] = f
		parent := threadNode(n.TID)
		if n.Parent != NoParent {
			parent = made[n.Parent]
		} else {
			parent.Total += f.Total
		}
		parent.Children = append(parent.Children, f)
	}
	for _, th := range p.Threads { // a thread's own time: outside any traced call, (toplevel)'s
		top := p.PerThread[ThreadMethod{th.TID, TopLevelMethod}]
		s := int64(top.ExclusiveCPU)
		if wall {
			s = int64(top.ExclusiveWall)
		}
		if s > 0 && (tid == 0 || th.TID == tid) {
			f := threadNode(th.TID)
			f.Self += s
			f.Total += s
		}
	}
	var root *flame.Node
	if tid != 0 {
		root = threadNode(tid)
	} else {
		root = &flame.Node{Name: "all threads"}
		for _, th := range slices.Sorted(maps.Keys(threads)) {
			root.Children = append(root.Children, threads[th])
			root.Total += threads[th].Total
		}
	}
	sortFrames(root)
	return root
}

// sortFrames orders every frame's children by name, then origin, as flame graphs draw them.
func sortFrames(f *flame.Node) {
	stack := []*flame.Node{f}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		slices.SortStableFunc(n.Children, func(a, b *flame.Node) int {
			return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Origin, b.Origin))
		})
		stack = append(stack, n.Children...)
	}
}
