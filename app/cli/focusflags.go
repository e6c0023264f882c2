package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/human"
	"androprof/model/flame"
)

// focusFlags are the flame graph's focus steps (`chart --by flame`, `export --format folded`,
// `diff`): --focus, --only, --hide and --merge, applied in the order given, as the window's
// focus chips are in the order clicked (controller.ApplyFocus).
type focusFlags struct {
	opts controller.FocusOptions
	// sampled is chart's --focus, which sampled runs read as their selection (only samples with
	// one of these Java names on the stack) and a method run's flame graph as a focus step.
	sampled *listFlag
}

// add registers --focus, --only, --hide and --merge (export, diff).
func (f *focusFlags) add(fs *flag.FlagSet) {
	f.addSteps(fs)
	fs.Func("focus", "flame graphs: only the stacks through a frame whose name matches `REGEX`, with its callers and callees (pprof's -focus; repeatable)", f.step(flame.OpKeep, true))
}

// addChart registers --only, --hide and --merge for chart, whose --focus is the sampled runs'
// selection (sampled): a method run's flame graph takes it as its first focus step.
func (f *focusFlags) addChart(fs *flag.FlagSet, sampled *listFlag) {
	f.addSteps(fs)
	f.sampled = sampled
}

func (f *focusFlags) addSteps(fs *flag.FlagSet) {
	fs.Func("only", "flame graphs: only frames whose name matches `REGEX`; the others' time becomes their nearest kept caller's (repeatable)", f.step(flame.OpOnly, true))
	fs.Func("hide", "flame graphs: hide the frame at `PATH` (frames from below the root joined by ';') and what it called (repeatable)", f.step(flame.OpHide, false))
	fs.Func("merge", "flame graphs: merge every frame named `NAME` into its callers (repeatable)", f.step(flame.OpMerge, false))
}

// step is a flag's setter: it adds a step, refusing an expression that does not compile (the
// flag package's message names the flag and quotes the value).
func (f *focusFlags) step(op flame.FocusOp, regex bool) func(string) error {
	return func(arg string) error {
		if regex {
			if _, err := regexp.Compile(arg); err != nil {
				return fmt.Errorf("not a regular expression: %v", err)
			}
		}
		f.opts.Steps = append(f.opts.Steps, controller.FocusStep{Op: op, Arg: arg})
		return nil
	}
}

// asked reports whether any focus flag was given.
func (f focusFlags) asked() bool { return !f.opts.Empty() }

// check turns what the focus steps did into the command's error when a --hide path or a --merge
// name found no frame (a typo would otherwise hide nothing, silently), and a step's error into a usage error
// that names its flag.
func (f focusFlags) check(done []flame.Focused, err error) error {
	var fe *controller.FocusError
	if errors.As(err, &fe) {
		return fmt.Errorf("%w: --%s", errUsage, fe.Error())
	}
	if err != nil {
		return err
	}
	missing, ok := controller.FocusMissing(done)
	switch {
	case !ok:
		return nil
	case missing.Op == flame.OpHide:
		return fmt.Errorf("%w: --hide %q: no frame at that path in the graph (a path is the frames from below the root joined by ';')", errUsage, missing.Arg)
	}
	return fmt.Errorf("%w: --merge %q: no frame of that name in the graph", errUsage, missing.Arg)
}

// chart is a drawing after the focus steps: a flame graph focused (controller.FocusFlame, as
// the window's flame panel draws it); any other chart is a usage error when a step was asked.
func (f *focusFlags) chart(d chart.Drawing) (chart.Drawing, []flame.Focused, error) {
	fl, ok := d.(chart.Flame)
	if ok && fl.Unit != "" && f.sampled != nil && f.sampled.given { // a method run's graph (µs)
		keep := strings.Join(f.sampled.items, "|") // one of them on the stack, as sampled runs read it
		if _, err := regexp.Compile(keep); err != nil {
			return nil, nil, fmt.Errorf("%w: --focus %q: not a regular expression: %v", errUsage, keep, err)
		}
		f.opts.Steps = append([]controller.FocusStep{{Op: flame.OpKeep, Arg: keep}}, f.opts.Steps...)
	}
	if !f.asked() {
		return d, nil, nil
	}
	if !ok {
		return nil, nil, fmt.Errorf("%w: --only, --hide and --merge are for flame graphs (--by flame)", errUsage)
	}
	out, done, err := controller.FocusFlame(fl, f.opts)
	if err := f.check(done, err); err != nil {
		return nil, nil, err
	}
	return out, done, nil
}

// focusJSON is the `focus` key of a command's JSON: what each step hid or moved; nil (no key)
// when no step was asked.
func (f focusFlags) focusJSON(done []flame.Focused) []controller.FocusJSON {
	if !f.asked() {
		return nil
	}
	return controller.FocusJSONOf(done)
}

// focusLine says what the focus steps hid or moved, for a command's text ("" for no step):
// amounts in µs when micros (method runs), else in samples.
func focusLine(done []flame.Focused, micros bool) string {
	if len(done) == 0 {
		return ""
	}
	amount := func(v int64) string { return human.Count(v, "sample", "samples") }
	if micros {
		amount = func(v int64) string { return human.Micros(float64(v)) }
	}
	return "focus: " + controller.FocusText(done, amount)
}

// foldedOnly refuses the focus flags for an export that is not folded stacks: the other
// formats are each call or sample in time order (or a whole report), not a flame graph.
func (f focusFlags) foldedOnly(format string) error {
	if f.asked() && format != "folded" {
		return fmt.Errorf("%w: --focus, --only, --hide and --merge do not apply to --format %s: they focus a flame graph, and only folded stacks are one (%s writes every call or sample in time order)", errUsage, format, format)
	}
	return nil
}

// checkDiff is check for a diff: a --hide path or --merge name is an error only when neither run
// has it.
func (f focusFlags) checkDiff(res *controller.DiffResult, err error) error {
	if err != nil || res == nil {
		return f.check(nil, err)
	}
	a, inA := controller.FocusMissing(res.FocusA)
	b, inB := controller.FocusMissing(res.FocusB)
	if inA && inB && a.Op == b.Op && a.Arg == b.Arg {
		return f.check(res.FocusA, nil)
	}
	return nil
}

// writeDiffFocus says under a diff's header what the focus steps hid or moved in each run.
func writeDiffFocus(w io.Writer, res *controller.DiffResult) {
	amount := func(v int64) string { return human.Grouped(v) + " " + res.Unit }
	for _, r := range []struct {
		name string
		done []flame.Focused
	}{{"A", res.FocusA}, {"B", res.FocusB}} {
		if len(r.done) > 0 {
			fmt.Fprintf(w, "focus %s: %s\n", r.name, printable(controller.FocusText(r.done, amount), ""))
		}
	}
}
