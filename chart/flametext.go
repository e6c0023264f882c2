package chart

// What a flame graph says in words: a frame's numbers (the hover text of the window and of the
// SVG), and a search's share.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"androprof/internal/human"
	"androprof/model/flame"
)

// Find is the graph with the frames re matches (by name or origin, see flame.Search) lit up
// and their share said under it; a nil re ends the search. The search covers the whole graph
// (Top), so zooming keeps it.
func (f Flame) Find(re *regexp.Regexp) Flame {
	f.Search, f.Hits, f.Matched = "", nil, 0
	if re == nil || f.Top() == nil {
		return f
	}
	f.Search = re.String()
	f.Matched, f.Hits = flame.Search(f.Top(), re)
	return f
}

// Mark is the graph with the frames match accepts outlined (a method selected in another view:
// every frame of it, wherever it was called from); a nil match outlines none.
func (f Flame) Mark(match func(*flame.Node) bool) Flame {
	f.Marked = nil
	if match == nil || f.Top() == nil {
		return f
	}
	f.Marked = map[*flame.Node]bool{}
	stack := []*flame.Node{f.Top()}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if match(n) {
			f.Marked[n] = true
		}
		stack = append(stack, n.Children...)
	}
	return f
}

// Amount writes v in the graph's unit: "1,234 samples", "12.3 ms thread CPU".
func (f Flame) Amount(v int64) string {
	if f.Unit == "" {
		return human.Count(v, "sample", "samples")
	}
	return human.Micros(float64(v)) + " " + strings.TrimPrefix(f.Unit, "µs ")
}

// share is v's percentage of the whole graph, with what the whole is.
func (f Flame) share(v int64) string {
	all := int64(0)
	if top := f.Top(); top != nil {
		all = top.Total
	}
	if all <= 0 {
		return "share unknown"
	}
	scope := f.Scope
	if scope == "" {
		scope = "the graph"
	}
	return fmt.Sprintf("%.1f%% of %s", 100*float64(v)/float64(all), scope)
}

// FrameText is a frame's numbers as the window's info line and the SVG's hover say them:
// "View.paint() (com.example): 12.3 ms thread CPU, 15.2% of thread 1 main; self 2 ms thread CPU".
func (f Flame) FrameText(n *flame.Node) string {
	if f.diff != nil {
		return f.diffText(n)
	}
	name := n.Name
	if n.Origin != "" {
		name += " (" + n.Origin + ")"
	}
	if n.Layer != 0 {
		name += ", " + n.Layer.String()
	}
	return fmt.Sprintf("%s: %s, %s; self %s", name, f.Amount(n.Total), f.share(n.Total), f.Amount(n.Self))
}

// SearchText says what the search found: "Search 'paint': 12.3 ms thread CPU, 15.2% of thread 1
// main, in 4 frames"; "" when there is no search.
func (f Flame) SearchText() string {
	if f.Search == "" {
		return ""
	}
	if len(f.Hits) == 0 {
		return fmt.Sprintf("Search %s: no frame matches", strconv.Quote(f.Search))
	}
	return fmt.Sprintf("Search %s: %s, %s, in %s", strconv.Quote(f.Search), f.Amount(f.Matched), f.share(f.Matched),
		human.Count(len(f.Hits), "frame", "frames"))
}

// The marks Paint writes around each frame of an SVG, as text elements, for titled to turn into
// a group with a <title>. They hold \x01, which no label carries (labels escape control
// characters), so a name cannot forge one.
const (
	svgTitleMark = "\x01%d\x01"
	svgEndMark   = "\x01/\x01"
)

var (
	svgTitleRe = regexp.MustCompile("<text [^>]*>\x01([0-9]+)\x01</text>")
	svgEndRe   = regexp.MustCompile("<text [^>]*>\x01/\x01</text>")
)

// titled turns the marks of an SVG Paint wrote into groups, each frame's box and label in a
// <g> whose <title> is its FrameText, so a browser shows a frame's numbers on hover.
func (f Flame) titled(svg []byte, boxes []flameBox) []byte {
	svg = svgTitleRe.ReplaceAllFunc(svg, func(m []byte) []byte {
		i, err := strconv.Atoi(string(svgTitleRe.FindSubmatch(m)[1]))
		if err != nil || i >= len(boxes) {
			return nil
		}
		return []byte("<g><title>" + escapeXML(f.FrameText(boxes[i].n)) + "</title>")
	})
	return svgEndRe.ReplaceAll(svg, []byte("</g>"))
}
