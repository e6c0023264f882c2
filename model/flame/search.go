package flame

import "regexp"

// Search finds the frames whose name or origin re matches, so a flame graph can light them up
// and say what share of the graph they hold. matched is the time (or samples) under them,
// counted once where matches nest (a recursive method matches at every level, but its time was
// spent once); hits holds every matching frame. A nil re matches nothing.
func Search(root *Node, re *regexp.Regexp) (matched int64, hits map[*Node]bool) {
	hits = map[*Node]bool{}
	if root == nil || re == nil {
		return 0, hits
	}
	type at struct {
		n      *Node
		inside bool // under a matching frame: its time is counted already
	}
	stack := []at{{root, false}}
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		inside := a.inside
		if re.MatchString(a.n.Name) || a.n.Origin != "" && re.MatchString(a.n.Origin) {
			hits[a.n] = true
			if !inside {
				matched += a.n.Total
			}
			inside = true
		}
		for _, c := range a.n.Children {
			stack = append(stack, at{c, inside})
		}
	}
	return matched, hits
}
