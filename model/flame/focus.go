package flame

// Focus: pprof's -focus, -show and -prune_from/-hide, speedscope's "merge function", as pure
// functions of a graph. Each returns a new graph (the one given is left as it was) and says
// what it took out, so a view's totals can say what is hidden. The root is the graph's own
// frame ("all", a thread): never matched, always kept.

import (
	"fmt"
	"regexp"
	"strings"
)

// Focused is a graph after a focus operation, with what the operation hid or moved.
type Focused struct {
	Root   *Node
	Op     FocusOp
	Arg    string // the regular expression, the path (frames joined by ";") or the method's name
	Whole  int64  // the given graph's root Total: the 100% of the text's shares
	Hidden int64  // Keep, HideSubtree: time no longer in the graph (Whole − Root.Total)
	Moved  int64  // Only, Merge: self time of removed frames, now their nearest kept caller's
	Frames int    // frames of the given graph that are not in the new one
}

// FocusOp names a focus operation, as the text and the command line spell it.
type FocusOp string

// The focus operations.
const (
	OpKeep  FocusOp = "focus" // Keep
	OpOnly  FocusOp = "only"  // Only
	OpHide  FocusOp = "hide"  // HideSubtree
	OpMerge FocusOp = "merge" // Merge
)

// Keep is pprof's -focus: only the stacks through a frame matching re, with that frame's
// callers and everything it called. What no matching frame was on the stack for is Hidden;
// callers keep no self time (theirs was spent with no matching frame on the stack).
func Keep(root *Node, re *regexp.Regexp) Focused {
	var keep func(n *Node) *Node
	keep = func(n *Node) *Node {
		if re.MatchString(n.Name) {
			return clone(n)
		}
		k := &Node{Name: n.Name, Origin: n.Origin, Layer: n.Layer}
		for _, c := range n.Children {
			if kc := keep(c); kc != nil {
				k.Children = append(k.Children, kc)
				k.Total += kc.Total
			}
		}
		if k.Total == 0 {
			return nil
		}
		return k
	}
	out := &Node{Name: root.Name, Origin: root.Origin, Layer: root.Layer}
	for _, c := range root.Children {
		if kc := keep(c); kc != nil {
			out.Children = append(out.Children, kc)
			out.Total += kc.Total
		}
	}
	return done(Focused{Root: out, Op: OpKeep, Arg: re.String(), Hidden: root.Total - out.Total}, root)
}

// Only is pprof's -show, "only my code": frames not matching re are removed, their callees
// move up to the nearest kept caller (equal frames merging), and their self time becomes that
// caller's self time (the root's, when none is kept). The root's Total is kept.
func Only(root *Node, re *regexp.Regexp) Focused {
	out, moved := fold(root, func(n *Node) bool { return !re.MatchString(n.Name) })
	return done(Focused{Root: out, Op: OpOnly, Arg: re.String(), Moved: moved}, root)
}

// Merge is speedscope's "merge function into callers": every frame of the method name
// disappears, its callees move up to its caller (equal frames merging) and its self time
// becomes the caller's. The root's Total is kept.
func Merge(root *Node, name string) Focused {
	out, moved := fold(root, func(n *Node) bool { return n.Name == name })
	return done(Focused{Root: out, Op: OpMerge, Arg: name, Moved: moved}, root)
}

// HideSubtree removes the frame at path (names from below the root down, as PathOf gives
// them) and everything it called; its time is Hidden. Callers left with no time go too. A path
// that names no frame hides nothing. Frames of the same name from two origins are both hidden.
func HideSubtree(root *Node, path []string) Focused {
	out := clone(root)
	var hide func(n *Node, path []string) int64
	hide = func(n *Node, path []string) int64 {
		var gone int64
		kept := n.Children[:0]
		for _, c := range n.Children {
			switch {
			case c.Name != path[0]:
			case len(path) == 1:
				gone += c.Total
				continue
			default:
				gone += hide(c, path[1:])
				if c.Total <= 0 {
					continue
				}
			}
			kept = append(kept, c)
		}
		n.Children = kept
		n.Total -= gone
		return gone
	}
	var hidden int64
	if len(path) > 0 {
		hidden = hide(out, path)
	}
	return done(Focused{Root: out, Op: OpHide, Arg: strings.Join(path, ";"), Hidden: hidden}, root)
}

// fold copies root without the frames drop says to remove: their callees move up to the
// nearest kept caller, merging with equal frames there, and their self time becomes its self
// time. moved is that self time.
func fold(root *Node, drop func(*Node) bool) (out *Node, moved int64) {
	out = &Node{Name: root.Name, Origin: root.Origin, Layer: root.Layer, Self: root.Self, Total: root.Total}
	var b builder
	var add func(parent, n *Node)
	add = func(parent, n *Node) {
		at := parent
		if drop(n) {
			parent.Self += n.Self
			moved += n.Self
		} else {
			at = b.child(parent, n.Name, n.Origin)
			at.Self += n.Self
			at.Total += n.Total
			at.Layer = n.Layer
		}
		for _, c := range n.Children {
			add(at, c)
		}
	}
	for _, c := range root.Children {
		add(out, c)
	}
	sortTree(out)
	return out, moved
}

// done fills in what every operation reports the same way: the whole and the frames gone.
func done(f Focused, given *Node) Focused {
	f.Whole = given.Total
	f.Frames = count(given) - count(f.Root)
	return f
}

// count is the frames of a graph, its root included.
func count(n *Node) int {
	c := 1
	for _, k := range n.Children {
		c += count(k)
	}
	return c
}

// Text says what the operation took out, with amounts as format writes the graph's unit
// ("12.5 ms of 80 ms hidden by focus on /Game/"), so a view's totals never silently shrink.
func (f Focused) Text(format func(int64) string) string {
	of := func(v int64) string {
		if f.Whole <= 0 {
			return format(v) + " of " + format(f.Whole)
		}
		return fmt.Sprintf("%s of %s (%.1f%%)", format(v), format(f.Whole), 100*float64(v)/float64(f.Whole))
	}
	switch f.Op {
	case OpKeep:
		return fmt.Sprintf("%s hidden by focus on /%s/", of(f.Hidden), f.Arg)
	case OpOnly:
		return fmt.Sprintf("%s in frames not matching /%s/, shown as their callers' self time", of(f.Moved), f.Arg)
	case OpMerge:
		return fmt.Sprintf("%s merged into its callers: %s of self time now theirs", f.Arg, of(f.Moved))
	case OpHide:
		if f.Frames == 0 {
			return fmt.Sprintf("no frame at %s: nothing hidden", f.Arg)
		}
		return fmt.Sprintf("%s hidden with %s and what it called", of(f.Hidden), f.Arg)
	}
	return ""
}
