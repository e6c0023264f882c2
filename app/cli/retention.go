package cli

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/termtext"
	heapmodel "androprof/model/heap"
)

// What keeps a heap dump's memory alive (docs/hprof.md): retained sizes per class, the
// dominator tree, the shortest path from a GC root, and two dumps compared.

// retainedReport prints the classes by the bytes their instances keep alive (--by retained),
// of every heap or, with --heap, the reachable instances in that heap (ClassesInHeap).
func retainedReport(ctx context.Context, ws *controller.Workspace, run, find, heap string, top int, asJSON bool, env Env) error {
	r, err := ws.HeapDumps.Retention(ctx, run)
	if err != nil {
		return err
	}
	d, err := ws.HeapDumps.Dump(ctx, run)
	if err != nil {
		return err
	}
	dumped := d.Characteristics().Objects
	classes := r.Classes
	if heap != "" {
		var ok bool
		if classes, ok = r.ClassesInHeap(slices.Index(r.Heaps, heap)); !ok {
			if len(r.Objects.Heap) != r.Objects.Len() {
				return fmt.Errorf("run %q was imported before heaps were kept per object: import it again for --heap", run)
			}
			return fmt.Errorf("run %q has no heap %q (its heaps: %s)", run, heap, strings.Join(r.Heaps, ", "))
		}
	}
	rows := make([]heapmodel.RetainedClass, 0, len(classes))
	for _, c := range classes {
		if find == "" || containsFold(c.Name, find) {
			rows = append(rows, c)
		}
	}
	sortRetained(rows)
	if top > 0 && len(rows) > top {
		rows = rows[:top]
	}
	if asJSON {
		out := make([]map[string]any, len(rows))
		for i, c := range rows {
			out[i] = map[string]any{"name": c.Name, "instances": c.Instances, "shallow": c.Shallow, "retained": c.Retained,
				"retained_percent": percentOf(c.Retained, r.Reachable)}
		}
		return writeJSON(env.Stdout, map[string]any{"run": run, "by": "retained", "heap": heapOrAll(heap), "weak_retains": r.Weak,
			"reachable": r.Reachable, "reachable_objects": r.Objects.Len(), "reachable_class_objects": r.ClassObjects(),
			"dump_objects": dumped, "rows": out})
	}
	fmt.Fprintf(env.Stdout, "%s reachable from the GC roots in %s%s\n", human.Bytes(r.Reachable), reachableObjects(r, dumped), weakNote(r.Weak))
	if heap != "" {
		fmt.Fprintf(env.Stdout, "classes of heap %s: its reachable instances and what they keep alive, in any heap\n", printable(heap, ""))
	}
	tw := termtext.NewRightTable(env.Stdout)
	fmt.Fprintf(tw, "CLASS\tINSTANCES\tSHALLOW\tRETAINED\tRETAINED %%\t\n")
	for _, c := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.2f\t\n", c.Name, c.Instances, c.Shallow, c.Retained, percentOf(c.Retained, r.Reachable))
	}
	return tw.Flush()
}

// reachableObjects counts the reachable objects: of the dump's instances and arrays (dumped,
// which its summary counts, reachable or not), and class objects, which the summary does not.
func reachableObjects(r *heapmodel.DumpRetention, dumped uint64) string {
	classes := r.ClassObjects()
	return fmt.Sprintf("%d objects: %d of the dump's %d instances and arrays, and %d class objects",
		r.Objects.Len(), r.Objects.Len()-classes, dumped, classes)
}

func sortRetained(rows []heapmodel.RetainedClass) {
	slices.SortFunc(rows, func(a, b heapmodel.RetainedClass) int {
		return cmp.Or(cmp.Compare(b.Retained, a.Retained), strings.Compare(a.Name, b.Name))
	})
}

func weakNote(weak bool) string {
	if weak {
		return " (weak, soft, phantom and finalizer references retain their referents)"
	}
	return " (weak, soft, phantom and finalizer references retain nothing)"
}

func percentOf(part, whole uint64) float64 {
	if whole == 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}

// dominatorReport prints the dominator tree's top level, largest first, or what one object
// dominates (--by dominators [--of OBJECT]).
func dominatorReport(ctx context.Context, ws *controller.Workspace, run, of string, top int, asJSON bool, env Env) error {
	r, err := ws.HeapDumps.Retention(ctx, run)
	if err != nil {
		return err
	}
	var parent *heapmodel.DumpObject
	seq := int32(-1) // the top level
	if of != "" {
		o, err := controller.FindDumpObject(r, run, of)
		if err != nil {
			return err
		}
		parent, seq = &o, o.Seq
	}
	objs := r.Dominated(seq, top)
	if asJSON {
		out := map[string]any{"run": run, "by": "dominators", "reachable": r.Reachable, "weak_retains": r.Weak,
			"rows": objectsJSON(objs)}
		if parent != nil {
			out["of"] = objectJSON(*parent)
		}
		return writeJSON(env.Stdout, out)
	}
	if parent != nil {
		fmt.Fprintf(env.Stdout, "%s %#x retains %s; it dominates:\n", termtext.Cell(parent.ClassOf), parent.ID, human.Bytes(parent.Retained))
	} else {
		fmt.Fprintf(env.Stdout, "the dominator tree's top level (%s reachable)%s\n", human.Bytes(r.Reachable), weakNote(r.Weak))
	}
	return writeObjects(env, objs, r.Reachable, false)
}

// pathReport prints the shortest chain of references from a GC root to an object, or to the
// instance of a class nearest a root (--path-to OBJECT|CLASS).
func pathReport(ctx context.Context, ws *controller.Workspace, run, target string, asJSON bool, env Env) error {
	r, err := ws.HeapDumps.Retention(ctx, run)
	if err != nil {
		return err
	}
	o, err := controller.FindDumpObject(r, run, target)
	if err != nil {
		return err
	}
	chain := r.Path(o.Seq)
	if asJSON {
		return writeJSON(env.Stdout, map[string]any{"run": run, "path_to": objectJSON(o), "path": objectsJSON(chain)})
	}
	fmt.Fprintf(env.Stdout, "%s %#x is alive through %s from a GC root:\n", termtext.Cell(o.ClassOf), o.ID,
		human.Count(uint64(len(chain)-1), "reference", "references"))
	return writeObjects(env, chain, r.Reachable, true)
}

// writeObjects prints objects as a table: a path shows the field each one is reached through.
func writeObjects(env Env, objs []heapmodel.DumpObject, reachable uint64, path bool) error {
	tw := termtext.NewTable(env.Stdout)
	if path {
		fmt.Fprintf(tw, "DEPTH\tREFERENCE\tOBJECT\tCLASS\tSHALLOW\tRETAINED\t\n")
	} else {
		fmt.Fprintf(tw, "OBJECT\tCLASS\tSHALLOW\tRETAINED\tRETAINED %%\t\n")
	}
	for _, o := range objs {
		if path {
			fmt.Fprintf(tw, "%d\t%s\t%#x\t%s\t%d\t%d\t\n", o.Depth, o.Field, o.ID, o.ClassOf, o.Shallow, o.Retained)
		} else {
			fmt.Fprintf(tw, "%#x\t%s\t%d\t%d\t%.2f\t\n", o.ID, o.ClassOf, o.Shallow, o.Retained, percentOf(o.Retained, reachable))
		}
	}
	return tw.Flush()
}

func objectJSON(o heapmodel.DumpObject) map[string]any {
	return map[string]any{"id": fmt.Sprintf("%#x", o.ID), "class": o.ClassOf, "shallow": o.Shallow,
		"retained": o.Retained, "depth": o.Depth, "field": o.Field}
}

func objectsJSON(objs []heapmodel.DumpObject) []map[string]any {
	out := make([]map[string]any, len(objs))
	for i, o := range objs {
		out[i] = objectJSON(o)
	}
	return out
}

// dumpDiff compares two dumps class by class, the classes that grew most first
// (report --compare BEFORE,AFTER on heap dumps): how many of how many classes it shows, and a
// warning when the two look like different programs.
func dumpDiff(ctx context.Context, ws *controller.Workspace, before, after, find string, top int, asJSON bool, env Env) error {
	heap := ws.HeapDumps
	a, err := heap.Retention(ctx, before)
	if err != nil {
		return err
	}
	b, err := heap.Retention(ctx, after)
	if err != nil {
		return err
	}
	diff, err := heap.Diff(ctx, before, after)
	if err != nil {
		return err
	}
	var rows []heapmodel.DumpDiffRow
	for _, row := range diff.Rows {
		if find == "" || containsFold(row.Name, find) {
			rows = append(rows, row)
		}
	}
	if top > 0 && len(rows) > top {
		rows = rows[:top]
	}
	warnings := []string{}
	if w := diff.Unrelated(); w != "" {
		warnings = append(warnings, w)
	}
	if asJSON {
		out := make([]map[string]any, len(rows))
		for i, row := range rows {
			di, ds, dr := row.Growth()
			out[i] = map[string]any{"name": row.Name, "instances_before": row.A.Instances, "instances_after": row.B.Instances,
				"instances_growth": di, "shallow_before": row.A.Shallow, "shallow_after": row.B.Shallow, "shallow_growth": ds,
				"retained_before": row.A.Retained, "retained_after": row.B.Retained, "retained_growth": dr}
		}
		return writeJSON(env.Stdout, map[string]any{"before": before, "after": after, "reachable_before": a.Reachable,
			"reachable_after": b.Reachable, "classes_total": diff.Classes, "classes_changed": len(diff.Rows), "classes_shown": len(rows),
			"warnings": warnings, "rows": out})
	}
	shown := ""
	if len(rows) < len(diff.Rows) {
		shown = fmt.Sprintf("; the top %d of the %d changed classes shown", len(rows), len(diff.Rows))
	}
	fmt.Fprintf(env.Stdout, "%s → %s: reachable %s → %s; %d of %d classes changed (the unchanged left out), most grown first%s\n",
		termtext.Cell(before), termtext.Cell(after), human.Bytes(a.Reachable), human.Bytes(b.Reachable), len(diff.Rows), diff.Classes, shown)
	for _, w := range warnings {
		fmt.Fprintf(env.Stdout, "warning: %s\n", w)
	}
	tw := termtext.NewRightTable(env.Stdout)
	fmt.Fprintf(tw, "CLASS\tINSTANCES\t+/-\tSHALLOW\t+/-\tRETAINED\t+/-\t\n")
	for _, row := range rows {
		di, ds, dr := row.Growth()
		fmt.Fprintf(tw, "%s\t%d\t%+d\t%d\t%+d\t%d\t%+d\t\n", row.Name, row.B.Instances, di, row.B.Shallow, ds, row.B.Retained, dr)
	}
	return tw.Flush()
}

// heapOrAll is --heap for JSON: null when every heap is counted.
func heapOrAll(heap string) any {
	if heap == "" {
		return nil
	}
	return heap
}
