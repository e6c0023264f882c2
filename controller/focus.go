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
			f = flame.HideSubtree(root, strings.Split(s.Arg, ";"))
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

// FocusText says what the steps hid or moved, one sentence each, amounts in format's unit;
// "" for no step.
func FocusText(done []flame.Focused, format func(int64) string) string {
	var parts []string
	for _, f := range done {
		parts = append(parts, f.Text(format))
	}
	return strings.Join(parts, "; ")
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
	out.Note = joinNotes(out.Note, "Focus: "+FocusText(done, out.Amount))
	if out, err = FindFrames(out, out.Search); err != nil {
		return f, nil, err
	}
	return out, done, nil
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

// HideMissing is the first hide step that found no frame at its path, for the command line,
// which names it as an error (the window's paths come from the graph); ok false when none.
func HideMissing(done []flame.Focused) (path string, ok bool) {
	for _, f := range done {
		if f.Op == flame.OpHide && f.Frames == 0 {
			return f.Arg, true
		}
	}
	return "", false
}
