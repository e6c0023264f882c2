package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/termtext"
	heapmodel "androprof/model/heap"
)

// Leak suspects of a dump (docs/heap-leaks.md): report --by leaks prints each with its leak
// trace as LeakCanary prints one, the references most likely wrong underlined with ~~~;
// report --by leaks --compare BEFORE,AFTER the leaks that grew.

// leaksReport prints the leak suspects of a dump run (report --by leaks).
func leaksReport(ctx context.Context, ws *controller.Workspace, run string, top int, asJSON bool, env Env) error {
	found, err := ws.HeapDumps.Leaks(ctx, run)
	if err != nil {
		return err
	}
	total := len(found)
	if top > 0 && len(found) > top {
		found = found[:top]
	}
	if asJSON {
		out := make([]map[string]any, len(found))
		for i, s := range found {
			out[i] = suspectJSON(s)
		}
		return writeJSON(env.Stdout, map[string]any{"run": run, "by": "leaks", "suspects_total": total, "suspects": out})
	}
	fmt.Fprintf(env.Stdout, "%s in run %s%s\n", human.Count(total, "leak suspect", "leak suspects"), termtext.Cell(run), shownOf(len(found), total))
	if total > 0 {
		fmt.Fprintln(env.Stdout, `References underlined with "~~~" are the likely causes; only strongly reachable objects count.`)
	}
	for i, s := range found {
		fmt.Fprintf(env.Stdout, "\n%d. %s: %s %#x retains %s\n   %s\n", i+1, s.Rule, termtext.Cell(heapmodel.JavaClassName(s.Class)), s.Object.ID,
			human.Bytes(s.Retained), termtext.Escape(s.Why))
		if s.Also > 0 {
			fmt.Fprintf(env.Stdout, "   It also retains %s reached only through it.\n", human.Count(s.Also, "more leaking object", "more leaking objects"))
		}
		writeLeakTrace(env.Stdout, s)
	}
	return nil
}

// shownOf says when --top shows fewer than all.
func shownOf(shown, total int) string {
	if shown < total {
		return fmt.Sprintf(" (the top %d shown)", shown)
	}
	return ""
}

// writeLeakTrace prints a trace as Shark does: each object, whether it leaks and why, the
// reference to the next one, underlined when it is a suspect.
func writeLeakTrace(w io.Writer, s heapmodel.LeakSuspect) {
	if len(s.Trace) == 0 {
		return
	}
	fmt.Fprintf(w, "┬───\n│ GC Root: %s\n│\n", termtext.Escape(s.Trace[0].Field))
	for i, st := range s.Trace {
		last := i == len(s.Trace)-1
		prefix, more := "├─ ", "│    "
		if last {
			prefix, more = "╰→ ", "     "
		}
		fmt.Fprintf(w, "%s%s %s\n", prefix, termtext.Escape(heapmodel.JavaClassName(strings.TrimPrefix(st.ClassOf, "class "))), stepKind(st))
		fmt.Fprintf(w, "%sLeaking: %s%s\n", more, st.Leaking, reasonText(st.Reason))
		if last || st.Leaking == heapmodel.LeakYes {
			fmt.Fprintf(w, "%sRetaining %s\n", more, human.Bytes(st.Retained))
		}
		if last {
			break
		}
		next := s.Trace[i+1]
		ref := referenceText(st, next)
		fmt.Fprintf(w, "│    ↓ %s\n", termtext.Escape(ref))
		if next.Suspect {
			name := next.Field
			fmt.Fprintf(w, "│      %s%s\n", strings.Repeat(" ", termtext.Width(ref)-termtext.Width(name)), strings.Repeat("~", termtext.Width(name)))
		}
	}
}

// referenceText names the reference from one step to the next as Shark does: "static
// Leaks.listeners", "ArrayList.elementData", "Object[0]".
func referenceText(from, to heapmodel.LeakStep) string {
	owner := simpleClass(heapmodel.JavaClassName(strings.TrimPrefix(from.ClassOf, "class ")))
	switch {
	case strings.HasPrefix(to.Field, "["):
		return strings.TrimSuffix(owner, "[]") + to.Field
	case from.IsClass:
		return "static " + owner + "." + to.Field
	}
	return owner + "." + to.Field
}

func reasonText(r string) string {
	if r == "" {
		return ""
	}
	return " (" + termtext.Escape(r) + ")"
}

// stepKind is what Shark says after the class: class, array or instance.
func stepKind(st heapmodel.LeakStep) string {
	switch name := heapmodel.JavaClassName(st.ClassOf); {
	case st.IsClass:
		return "class"
	case strings.HasSuffix(name, "]"):
		return "array"
	}
	return "instance"
}

// simpleClass is a class name without its package.
func simpleClass(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

// suspectJSON is one suspect for --json: snake_case keys, the trace with each step's status
// and whether the reference into it is a suspect.
func suspectJSON(s heapmodel.LeakSuspect) map[string]any {
	trace := make([]map[string]any, len(s.Trace))
	for i, st := range s.Trace {
		o := objectJSON(st.DumpObject)
		o["leaking"], o["reason"], o["suspect_reference"] = st.Leaking.String(), st.Reason, st.Suspect
		trace[i] = o
	}
	return map[string]any{"rule": s.Rule, "class": s.Class, "id": fmt.Sprintf("%#x", s.Object.ID), "retained": s.Retained,
		"why": s.Why, "also_leaking": s.Also, "signature": s.Signature, "trace": trace}
}

// grownLeaksReport prints the leaks that grew from one dump to the next (report --by leaks
// --compare BEFORE,AFTER).
func grownLeaksReport(ctx context.Context, ws *controller.Workspace, before, after string, top int, asJSON bool, env Env) error {
	grown, err := ws.HeapDumps.GrownLeaks(ctx, before, after, heapmodel.LeakOptions{})
	if err != nil {
		return err
	}
	diff, err := ws.HeapDumps.Diff(ctx, before, after)
	if err != nil {
		return err
	}
	warnings := []string{}
	if w := diff.Unrelated(); w != "" {
		warnings = append(warnings, w)
	}
	total := len(grown)
	if top > 0 && len(grown) > top {
		grown = grown[:top]
	}
	if asJSON {
		out := make([]map[string]any, len(grown))
		for i, g := range grown {
			out[i] = map[string]any{"rule": g.Rule, "class": g.Class, "signature": g.Signature, "leaking_before": g.Before,
				"leaking_after": g.After, "retained_before": g.RetainedBefore, "retained_after": g.RetainedAfter, "example": suspectJSON(g.Example)}
		}
		return writeJSON(env.Stdout, map[string]any{"before": before, "after": after, "by": "leaks", "grown_total": total,
			"warnings": warnings, "grown": out})
	}
	fmt.Fprintf(env.Stdout, "%s → %s: %s grew%s\n", termtext.Cell(before), termtext.Cell(after),
		human.Count(total, "leak", "leaks"), shownOf(len(grown), total))
	for _, w := range warnings {
		fmt.Fprintf(env.Stdout, "warning: %s\n", w)
	}
	for i, g := range grown {
		objects := fmt.Sprintf("%s → %s leaking objects, ", human.Grouped(g.Before), human.Grouped(g.After))
		if g.Rule == heapmodel.AccumulationRule {
			objects = ""
		}
		fmt.Fprintf(env.Stdout, "\n%d. %s: %s, %sretaining %s → %s\n", i+1, g.Rule, termtext.Cell(heapmodel.JavaClassName(g.Class)),
			objects, human.Bytes(g.RetainedBefore), human.Bytes(g.RetainedAfter))
		fmt.Fprintf(env.Stdout, "   the largest after: %#x, %s\n", g.Example.Object.ID, termtext.Escape(g.Example.Why))
		writeLeakTrace(env.Stdout, g.Example)
	}
	return nil
}
