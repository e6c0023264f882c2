package controller

// Focus: the one door the window's flame panels and the command line's --focus, --only, --hide
// and --merge go through, so the same steps give the same graph and say the same about what
// they hid (issue 28, item 3).

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"androprof/chart"
	"androprof/internal/human"
	"androprof/model/flame"
)

// FocusStep is one focus operation on a flame graph: Op is flame.OpKeep ("focus", a regular
// expression), flame.OpOnly (a regular expression), flame.OpHide (a path, frames joined by ";"
// from below the root, as flame.PathOf gives them) or flame.OpMerge (a frame's name).
type FocusStep struct {
	Op  flame.FocusOp
	Arg string
}

// FocusOptions are focus steps applied in order: the window's chips as clicked, the command's
// flags as given.
type FocusOptions struct {
	Steps []FocusStep
}

// Empty reports whether the options change nothing.
func (o FocusOptions) Empty() bool { return len(o.Steps) == 0 }

// FocusError is a focus step that cannot be applied; its message names the step as the command
// line's flag does ("only", "focus") and quotes its argument.
type FocusError struct {
	Step FocusStep
	Msg  string
}

func (e *FocusError) Error() string {
	return fmt.Sprintf("%s %s: %s", e.Step.Op, strconv.Quote(e.Step.Arg), e.Msg)
}

// ApplyFocus is root after each step in order, with what each one hid or moved. The graph given
// is left as it is. A regular expression that does not compile and an unknown operation are
// errors (*FocusError); a path or a name not in the graph hides nothing (its Focused says so).
func ApplyFocus(root *flame.Node, opts FocusOptions) (*flame.Node, []flame.Focused, error) {
	var done []flame.Focused
	for _, s := range opts.Steps {
		var f flame.Focused
		switch s.Op {
		case flame.OpKeep, flame.OpOnly:
			re, err := regexp.Compile(s.Arg)
			if err != nil {
				return nil, nil, &FocusError{s, "not a regular expression: " + err.Error()}
			}
			if s.Op == flame.OpKeep {
				f = flame.Keep(root, re)
			} else {
				f = flame.Only(root, re)
			}
		case flame.OpHide:
			f = flame.HideSubtree(root, splitPath(root, s.Arg))
		case flame.OpMerge:
			f = flame.Merge(root, s.Arg)
		default:
			return nil, nil, &FocusError{s, "no such focus operation (focus, only, hide, merge)"}
		}
		root = f.Root
		done = append(done, f)
	}
	return root, done, nil
}

// splitPath cuts a path written with ";" into the frames of root it names, from below the root
// down; a method's name may hold ";" itself (a raw descriptor, "(Ljava/lang/String;)V"), so the
// cuts are where the graph's frames end. A path that names no frame is cut at every ";".
func splitPath(root *flame.Node, path string) []string {
	var walk func(n *flame.Node, rest string) []string
	walk = func(n *flame.Node, rest string) []string {
		for _, c := range n.Children {
			if rest == c.Name {
				return []string{c.Name}
			}
			if after, ok := strings.CutPrefix(rest, c.Name+";"); ok {
				if tail := walk(c, after); tail != nil {
					return append([]string{c.Name}, tail...)
				}
			}
		}
		return nil
	}
	if names := walk(root, path); names != nil {
		return names
	}
	return strings.Split(path, ";")
}

// FocusText says what the steps hid or moved, one sentence each, amounts in format's unit;
// "" for no step.
func FocusText(done []flame.Focused, format func(int64) string) string {
	var parts []string
	for _, f := range done {
		parts = append(parts, f.Text(format))
	}
	return strings.Join(parts, "; ")
}

// FocusAmounts is what the steps hid and moved in all, as shares of the graph before the first,
// short enough for one line: "35 µs of 4.71 ms thread CPU (0.7%) hidden · 434 µs (9.2%) moved to
// callers". bare writes an amount without its unit, full with it.
func FocusAmounts(done []flame.Focused, bare, full func(int64) string) string {
	if len(done) == 0 {
		return ""
	}
	whole := done[0].Whole
	var hidden, moved int64
	for _, f := range done {
		hidden += f.Hidden
		moved += f.Moved
	}
	pct := func(v int64) string {
		if whole <= 0 {
			return "share unknown"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(v)/float64(whole))
	}
	if moved == 0 {
		return fmt.Sprintf("%s of %s (%s) hidden", bare(hidden), full(whole), pct(hidden))
	}
	if hidden == 0 {
		return fmt.Sprintf("%s of %s (%s) moved to callers", bare(moved), full(whole), pct(moved))
	}
	return fmt.Sprintf("%s of %s (%s) hidden · %s (%s) moved to callers", bare(hidden), full(whole), pct(hidden), bare(moved), pct(moved))
}

// FocusStepText names a step short, as the window's chips and a graph's note do: a path by its
// last frame, a long argument cut.
func FocusStepText(s FocusStep) string {
	arg := s.Arg
	if s.Op == flame.OpHide {
		if i := strings.LastIndex(arg, ";"); i >= 0 {
			arg = "…;" + arg[i+1:]
		}
	}
	if r := []rune(arg); len(r) > 32 {
		arg = string(r[:31]) + "…"
	}
	return string(s.Op) + " " + arg
}

// FocusFlame is f's whole graph (Top, not zoomed, nothing outlined) after the steps, searched
// again as f was, with what the steps hid said in its Note (so a saved PNG or SVG says it too):
// the window's flame panels and `chart --by flame` draw through it.
func FocusFlame(f chart.Flame, opts FocusOptions) (chart.Flame, []flame.Focused, error) {
	out := f.Zoom(f.Top()).Mark(nil)
	if opts.Empty() || out.Root == nil {
		return out, nil, nil
	}
	root, done, err := ApplyFocus(out.Root, opts)
	if err != nil {
		return f, nil, err
	}
	out.Root = root
	var steps []string
	for _, d := range done {
		steps = append(steps, FocusStepText(FocusStep{d.Op, d.Arg}))
	}
	out.Note = joinNotes(out.Note, "Focus: "+strings.Join(steps, ", ")+": "+FocusAmounts(done, flameBare(out), out.Amount))
	if out, err = FindFrames(out, out.Search); err != nil {
		return f, nil, err
	}
	return out, done, nil
}

// flameBare writes an amount of f without its unit: µs of a method run, samples of a sampled one.
func flameBare(f chart.Flame) func(int64) string {
	if f.Unit == "" {
		return func(v int64) string { return human.Grouped(v) }
	}
	return func(v int64) string { return human.Micros(float64(v)) }
}

// FlameAmounts is FocusAmounts in f's units, for the window's focus line.
func FlameAmounts(f chart.Flame, done []flame.Focused) string {
	return FocusAmounts(done, flameBare(f), f.Amount)
}

// joinNotes joins two notes of a graph, either possibly empty.
func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// FocusJSON is one step in the `focus` list of the commands' JSON.
type FocusJSON struct {
	Op     flame.FocusOp `json:"op"`
	Arg    string        `json:"arg"`
	Hidden int64         `json:"hidden"`
	Moved  int64         `json:"moved"`
	Frames int           `json:"frames"`
}

// FocusJSONOf is what the steps did, for the commands' JSON; an empty list (never null) when
// none was asked.
func FocusJSONOf(done []flame.Focused) []FocusJSON {
	out := make([]FocusJSON, 0, len(done))
	for _, f := range done {
		out = append(out, FocusJSON{f.Op, f.Arg, f.Hidden, f.Moved, f.Frames})
	}
	return out
}

// FocusMissing is the first hide or merge step that found no frame (a path or a name not in the
// graph), for the command line, which names it as an error (the window's come from the graph);
// ok false when none.
func FocusMissing(done []flame.Focused) (step flame.Focused, ok bool) {
	for _, f := range done {
		if (f.Op == flame.OpHide || f.Op == flame.OpMerge) && f.Frames == 0 {
			return f, true
		}
	}
	return flame.Focused{}, false
}
