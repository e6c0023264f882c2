package cli

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/termtext"
	heapmodel "androprof/model/heap"
)

// The object level of a dump run (docs/heap-objects.md): one object with its fields, referrers,
// dominator and path from a GC root (report --object), a class's instances (report --instances).

// objectReport prints one object of a dump run (report --object ID): ID is an object id (0x…
// or a number), or a class name for its instance nearest a GC root.
func objectReport(ctx context.Context, ws *controller.Workspace, run, id string, asJSON bool, env Env) error {
	r, err := ws.HeapDumps.Retention(ctx, run)
	if err != nil {
		return err
	}
	o, err := controller.FindDumpObject(r, run, dumpClassName(r, id))
	if err != nil {
		return err
	}
	d, err := ws.HeapDumps.Object(ctx, run, o.Seq)
	if err != nil {
		return err
	}
	refs, err := ws.HeapDumps.Referrers(ctx, run, o.Seq)
	if err != nil {
		return err
	}
	var dom *heapmodel.DumpObject
	if d.Idom >= 0 {
		x := r.Object(d.Idom)
		dom = &x
	}
	path := r.Path(o.Seq)
	if asJSON {
		return writeJSON(env.Stdout, objectDetailJSON(run, d, refs, dom, path))
	}
	w := env.Stdout
	fmt.Fprintf(w, "%#x %s (%s), heap %s\n", d.ID, termtext.Cell(d.ClassOf), d.Kind, termtext.Cell(d.Heap))
	depth := human.Count(uint64(d.Depth), "reference", "references") + " from a GC root"
	if d.Depth == 0 {
		depth = "a GC root (" + d.Field + ")"
	}
	fmt.Fprintf(w, "shallow %s, retained %s; %s\n", human.Bytes(d.Shallow), human.Bytes(d.Retained), depth)
	if dom != nil {
		fmt.Fprintf(w, "dominator: %#x %s\n", dom.ID, termtext.Cell(dom.ClassOf))
	} else {
		fmt.Fprintf(w, "dominator: none (the top level of the dominator tree: only the GC roots hold it)\n")
	}
	if d.TextKnown {
		fmt.Fprintf(w, "text: %q%s\n", d.Text, cutNote(d.TextCut))
	}
	if d.Image != nil {
		fmt.Fprintf(w, "image: %d×%d %s\n", d.Image.Width, d.Image.Height, d.Image.Format)
	}
	if len(d.Fields) > 0 {
		fmt.Fprintln(w)
		if err := writeFields(env, d.Fields); err != nil {
			return err
		}
	}
	if d.Kind == heapmodel.KindObjectArray || d.Kind == heapmodel.KindPrimitiveArray {
		fmt.Fprintf(w, "\n%s", human.Count(uint64(d.Length), "element", "elements"))
		if len(d.Elements) < d.Length {
			fmt.Fprintf(w, ", the first %d shown", len(d.Elements))
		}
		fmt.Fprintln(w)
		if err := writeFields(env, d.Elements); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\n%s (the objects whose strong references hold it)\n", human.Count(uint64(len(refs)), "referrer", "referrers"))
	tw := termtext.NewTable(w)
	fmt.Fprintf(tw, "OBJECT\tCLASS\tFIELDS\tRETAINED\t\n")
	for _, f := range refs {
		fmt.Fprintf(tw, "%#x\t%s\t%s\t%d\t\n", f.ID, f.ClassOf, strings.Join(f.Fields, ", "), f.Retained)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\npath from a GC root:\n")
	return writeObjects(env, path, r.Reachable, true)
}

func cutNote(cut bool) string {
	if cut {
		return " (cut)"
	}
	return ""
}

// writeFields prints fields or elements as a table.
func writeFields(env Env, fields []heapmodel.FieldValue) error {
	tw := termtext.NewTable(env.Stdout)
	fmt.Fprintf(tw, "FIELD\tTYPE\tVALUE\t\n")
	for _, f := range fields {
		fmt.Fprintf(tw, "%s\t%s\t%s\t\n", f.Name, f.Type, f.Value)
	}
	return tw.Flush()
}

func objectDetailJSON(run string, d heapmodel.ObjectDetail, refs []heapmodel.Referrer, dom *heapmodel.DumpObject,
	path []heapmodel.DumpObject) map[string]any {
	obj := objectJSON(d.DumpObject)
	obj["kind"], obj["heap"] = d.Kind.String(), d.Heap
	out := map[string]any{"run": run, "object": obj, "fields": fieldsJSON(d.Fields), "path": objectsJSON(path), "dominator": nil}
	if dom != nil {
		out["dominator"] = objectJSON(*dom)
	}
	if d.Kind == heapmodel.KindObjectArray || d.Kind == heapmodel.KindPrimitiveArray {
		out["length"], out["elements"] = d.Length, fieldsJSON(d.Elements)
	}
	if d.TextKnown {
		out["text"], out["text_cut"] = d.Text, d.TextCut
	}
	if d.Image != nil {
		out["image"] = map[string]any{"width": d.Image.Width, "height": d.Image.Height, "format": d.Image.Format}
	}
	rs := make([]map[string]any, len(refs))
	for i, f := range refs {
		rs[i] = objectJSON(f.DumpObject)
		rs[i]["fields"] = f.Fields
	}
	out["referrers"] = rs
	return out
}

func fieldsJSON(fields []heapmodel.FieldValue) []map[string]any {
	out := make([]map[string]any, len(fields))
	for i, f := range fields {
		out[i] = map[string]any{"name": f.Name, "type": f.Type, "value": f.Value}
		if f.RefID != 0 {
			out[i]["ref_id"] = fmt.Sprintf("%#x", f.RefID)
			out[i]["ref_reachable"] = f.Ref >= 0
		}
	}
	return out
}

// instancesReport prints a class's reachable instances (report --instances CLASS): largest
// retained first, the first top; with find, only those whose text (a String, char[] or
// byte[]) or a field's value matches the regular expression.
func instancesReport(ctx context.Context, ws *controller.Workspace, run, class, find string, top int, asJSON bool, env Env) error {
	r, err := ws.HeapDumps.Retention(ctx, run)
	if err != nil {
		return err
	}
	var re *regexp.Regexp
	if find != "" {
		if re, err = regexp.Compile(find); err != nil {
			return fmt.Errorf("--find %q: %w", find, err)
		}
	}
	var all []heapmodel.DumpObject
	var inDump uint64
	found := false
	for i, c := range r.Classes {
		if !sameClass(c.Name, class) {
			continue
		}
		found = true
		inDump += c.Instances
		objs, err := ws.HeapDumps.Instances(ctx, run, int32(i))
		if err != nil {
			return err
		}
		all = append(all, objs...)
	}
	if !found {
		return fmt.Errorf("run %q has no class named %q (java.lang.String, java/lang/String, int[] or [I)", run, class)
	}
	slices.SortFunc(all, func(a, b heapmodel.DumpObject) int {
		return cmp.Or(cmp.Compare(b.Retained, a.Retained), cmp.Compare(a.ID, b.ID))
	})
	rows, texts, err := matchInstances(ctx, ws, run, all, re, top)
	if err != nil {
		return err
	}
	if asJSON {
		out := make([]map[string]any, len(rows))
		for i, o := range rows {
			out[i] = objectJSON(o)
			if t, ok := texts[o.Seq]; ok {
				out[i]["text"] = t
			}
		}
		return writeJSON(env.Stdout, map[string]any{"run": run, "class": class, "find": find, "reachable_instances": len(all),
			"dump_instances": inDump, "shown": len(rows), "rows": out})
	}
	what := "reachable instances"
	if re != nil {
		what = fmt.Sprintf("reachable instances matching %q", find)
	}
	fmt.Fprintf(env.Stdout, "%d of %d %s of %s, largest retained first (%d in the dump: unreachable ones are not listed)\n",
		len(rows), len(all), what, termtext.Cell(class), inDump)
	tw := termtext.NewTable(env.Stdout)
	fmt.Fprintf(tw, "OBJECT\tSHALLOW\tRETAINED\tDEPTH\tTEXT\t\n")
	for _, o := range rows {
		text := ""
		if t, ok := texts[o.Seq]; ok {
			text = fmt.Sprintf("%q", termtext.Cut(t, 60))
		}
		fmt.Fprintf(tw, "%#x\t%d\t%d\t%d\t%s\t\n", o.ID, o.Shallow, o.Retained, o.Depth, text)
	}
	return tw.Flush()
}

// textsShown is how many instances a listing without --find decodes for their text.
const textsShown = 1000

// matchInstances keeps the first top objects (0: all) that re matches (nil: every one), with
// the text of those that have one (Strings, char[], byte[]): of every object re is tried on,
// of the first textsShown without re.
func matchInstances(ctx context.Context, ws *controller.Workspace, run string, objs []heapmodel.DumpObject, re *regexp.Regexp,
	top int) ([]heapmodel.DumpObject, map[int32]string, error) {
	var out []heapmodel.DumpObject
	texts := map[int32]string{}
	for _, o := range objs {
		if top > 0 && len(out) == top {
			break
		}
		if re == nil && len(out) >= textsShown {
			out = append(out, o)
			continue
		}
		d, err := ws.HeapDumps.Object(ctx, run, o.Seq)
		if err != nil {
			return nil, nil, err
		}
		if re == nil || d.TextKnown && re.MatchString(d.Text) || anyField(d, re) {
			out = append(out, o)
			if d.TextKnown {
				texts[o.Seq] = d.Text
			}
		}
	}
	return out, texts, nil
}

func anyField(d heapmodel.ObjectDetail, re *regexp.Regexp) bool {
	for _, f := range d.Fields {
		if re.MatchString(f.Value) {
			return true
		}
	}
	return false
}

// sameClass says whether a dump's class name and one a person typed name the same class, in
// any of the spellings dumps use: java.lang.String, java/lang/String; int[], [I;
// java.lang.Object[][], [[Ljava/lang/Object;.
func sameClass(dumpName, typed string) bool {
	return dumpName == typed || heapmodel.JavaClassName(dumpName) == heapmodel.JavaClassName(typed)
}

// dumpClassName is the dump's own spelling of a class name typed in another (what
// controller.FindDumpObject looks for); anything else, an id among them, is kept as it is.
func dumpClassName(r *heapmodel.DumpRetention, typed string) string {
	for _, c := range r.Classes {
		if sameClass(c.Name, typed) {
			return c.Name
		}
	}
	return typed
}
