package flame

import (
	"cmp"
	"slices"
	"strings"
)

// frameKey is what makes two frames under one caller the same frame.
type frameKey struct{ name, origin string }

// builder finds a frame's child by name and origin without scanning its siblings: reading
// folded stacks and merging frames look one up per frame, and a caller can have thousands.
type builder struct {
	kids map[*Node]map[frameKey]*Node
}

// index is parent's children by key, made from its Children the first time it is asked.
func (b *builder) index(parent *Node) map[frameKey]*Node {
	if b.kids == nil {
		b.kids = map[*Node]map[frameKey]*Node{}
	}
	m, ok := b.kids[parent]
	if !ok {
		m = make(map[frameKey]*Node, len(parent.Children))
		for _, c := range parent.Children {
			m[frameKey{c.Name, c.Origin}] = c
		}
		b.kids[parent] = m
	}
	return m
}

// child is parent's frame named name from origin, added with no time when it has none.
func (b *builder) child(parent *Node, name, origin string) *Node {
	m := b.index(parent)
	k := frameKey{name, origin}
	if c, ok := m[k]; ok {
		return c
	}
	c := &Node{Name: name, Origin: origin}
	m[k] = c
	parent.Children = append(parent.Children, c)
	return c
}

// graft adds the subtree c under parent, adding its times into an equal frame already there
// (and so on down): parent's own Total is the caller's to keep.
func (b *builder) graft(parent, c *Node) {
	m := b.index(parent)
	k := frameKey{c.Name, c.Origin}
	have, ok := m[k]
	if !ok {
		m[k] = c
		parent.Children = append(parent.Children, c)
		return
	}
	have.Self += c.Self
	have.Total += c.Total
	if have.Layer == 0 {
		have.Layer = c.Layer
	}
	for _, cc := range c.Children {
		b.graft(have, cc)
	}
}

// sortTree orders every frame's children by name, then origin, as Node says.
func sortTree(root *Node) {
	stack := []*Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		slices.SortStableFunc(n.Children, func(a, b *Node) int {
			return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Origin, b.Origin))
		})
		stack = append(stack, n.Children...)
	}
}

// clone is a deep copy of n, so an operation never changes the graph it was given.
func clone(n *Node) *Node {
	c := *n
	c.Children = make([]*Node, len(n.Children))
	for i, k := range n.Children {
		c.Children[i] = clone(k)
	}
	return &c
}

// PathOf is the names of n's frames from below root's children down to n itself: what
// HideSubtree takes, so a frame clicked in one graph can be hidden in a graph made again. nil
// when n is root or not in its tree.
func PathOf(root, n *Node) []string {
	var path []string
	var find func(at *Node) bool
	find = func(at *Node) bool {
		if at == n {
			return true
		}
		for _, c := range at.Children {
			path = append(path, c.Name)
			if find(c) {
				return true
			}
			path = path[:len(path)-1]
		}
		return false
	}
	if root == nil || !find(root) || len(path) == 0 {
		return nil
	}
	return path
}
