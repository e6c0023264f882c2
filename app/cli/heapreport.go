package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/termtext"
	"androprof/model"
	"androprof/store"
)

// heapFlags are report's and chart's flags for heap runs.
type heapFlags struct {
	cohort cohortFlag
	heap   string
	of     string // --by dominators: the object whose dominated objects to list
	pathTo string
}

func (h *heapFlags) add(fs *flag.FlagSet) {
	fs.Var(&h.cohort, "cohort", "heap runs: cohort `SIZE`, a multiple of the imported one (default: as imported)")
	fs.StringVar(&h.heap, "heap", "", "heap dumps: only the heap `NAME` (zygote, app, image, default)")
	fs.StringVar(&h.of, "of", "", "heap dumps, --by dominators: the objects `OBJECT` (an id, 0x…) dominates")
	fs.StringVar(&h.pathTo, "path-to", "", "heap dumps: the shortest path from a GC root to `OBJECT|CLASS` (an id, or a class's instance nearest a root)")
}

// heapProfile loads a heap run at the cohort size asked for.
func heapProfile(ctx context.Context, db *store.DB, run string, h heapFlags) (*model.HeapProfile, error) {
	a := controller.NewWorkspace(db).Heap
	p, err := a.Profile(ctx, run, 1)
	if err != nil {
		return nil, err
	}
	factor, err := controller.CohortFactor(p.Cohort, h.cohort.bytes)
	if err != nil {
		return nil, fmt.Errorf("%w: --cohort: %v", errUsage, err)
	}
	return p.Regroup(factor), nil
}

// heapDrawing draws one figure of a heap run or dump.
func heapDrawing(ctx context.Context, db *store.DB, kind model.RunKind, run, figure string, h heapFlags) (chart.Drawing, error) {
	if figure == "" {
		return nil, fmt.Errorf("%w: a heap run's chart needs --figure (5.1 … 5.23, or a dump figure)", errUsage)
	}
	if kind == model.RunKindHeapDump {
		f, err := chart.FindDumpFigure(figure)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		d, err := db.HeapDump(ctx, run)
		if err != nil {
			return nil, err
		}
		return f.Draw(d, h.heap, run), nil
	}
	f, err := chart.FindHeapFigure(figure)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	p, err := heapProfile(ctx, db, run, h)
	if err != nil {
		return nil, err
	}
	return f.Draw(p, run), nil
}

// heapScopes are report --by's groupings of a heap run.
var heapScopes = map[string]model.HeapScope{"cohort": model.ScopeCohort, "thread": model.ScopeThread,
	"class": model.ScopeClass, "size": model.ScopeSize}

// heapReport prints a heap run's characteristics (--by summary, the default) or one of its
// tables, or a heap dump's.
func heapReport(ctx context.Context, db *store.DB, kind model.RunKind, rf reportFlags, find string, h heapFlags, asJSON bool, env Env) error {
	by := rf.by
	if by == "" || by == "pid" {
		by = "summary"
	}
	if kind == model.RunKindHeapDump {
		switch {
		case h.pathTo != "":
			return pathReport(ctx, db, rf.run, h.pathTo, asJSON, env)
		case by == "retained":
			return retainedReport(ctx, db, rf.run, find, rf.top, asJSON, env)
		case by == "dominators":
			return dominatorReport(ctx, db, rf.run, h.of, rf.top, asJSON, env)
		}
		return dumpReport(ctx, db, rf.run, by, find, rf.top, h.heap, asJSON, env)
	}
	p, err := heapProfile(ctx, db, rf.run, h)
	if err != nil {
		return err
	}
	if by == "summary" {
		ch := p.Characteristics()
		if asJSON {
			return writeJSON(env.Stdout, heapSummaryJSON(rf.run, p, ch))
		}
		return writeHeapSummary(env.Stdout, rf.run, p, ch)
	}
	var rows []model.HeapRow
	if by == "package" {
		rows = p.Packages()
	} else if scope, ok := heapScopes[by]; ok {
		rows = p.Table(scope)
	} else {
		return fmt.Errorf("%w: --by %q: a heap run is reported by summary, cohort, thread, class, package or size", errUsage, by)
	}
	rows = model.FilterHeapRows(rows, find)
	if rf.top > 0 && len(rows) > rf.top {
		rows = rows[:rf.top]
	}
	if asJSON {
		return writeJSON(env.Stdout, map[string]any{"run": rf.run, "by": by, "cohort_bytes": p.Cohort, "rows": heapRowsJSON(rows)})
	}
	tw := termtext.NewRightTable(env.Stdout)
	fmt.Fprintf(tw, "%s\tLIVE\tLIVE %%\tTOTAL\tSIZE\tLIVE SIZE\tARRAYS\tAVG LIFETIME\t\n", map[string]string{
		"cohort": "COHORT", "thread": "THREAD", "class": "CLASS NAME", "package": "PACKAGE NAME", "size": "SIZE (UP TO)"}[by])
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%d\t%s\t%s\t%d\t%s\t\n", printable(r.Name, ""), r.Live.Objects, r.LivePercent, r.Total.Objects,
			model.HumanBytes(r.Total.Bytes), model.HumanBytes(r.Live.Bytes), r.Total.ArrayObjects, lifetimeText(r))
	}
	return tw.Flush()
}

func lifetimeText(r model.HeapRow) string {
	if r.Died.Objects == 0 {
		return "-"
	}
	return model.HumanBytes(uint64(r.AvgLifetime))
}

type heapRowJSON struct {
	Name             string  `json:"name"`
	Key              uint64  `json:"key"`
	Array            bool    `json:"array,omitempty"`
	LiveObjects      uint64  `json:"live_objects"`
	LiveBytes        uint64  `json:"live_bytes"`
	LivePercent      float64 `json:"live_percent"`
	TotalObjects     uint64  `json:"total_objects"`
	TotalBytes       uint64  `json:"total_bytes"`
	ArrayObjects     uint64  `json:"array_objects"`
	ArrayBytes       uint64  `json:"array_bytes"`
	DiedObjects      uint64  `json:"died_objects"`
	AvgLifetimeBytes float64 `json:"avg_lifetime_bytes"`
}

func heapRowsJSON(rows []model.HeapRow) []heapRowJSON {
	out := make([]heapRowJSON, len(rows))
	for i, r := range rows {
		out[i] = heapRowJSON{r.Name, r.Key, r.Array, r.Live.Objects, r.Live.Bytes, r.LivePercent, r.Total.Objects,
			r.Total.Bytes, r.Total.ArrayObjects, r.Total.ArrayBytes, r.Died.Objects, r.AvgLifetime}
	}
	return out
}

func heapSummaryJSON(run string, p *model.HeapProfile, ch model.HeapCharacteristics) map[string]any {
	return map[string]any{
		"run": run, "kind": model.RunKindHeap, "vm": p.Header.VM, "cohort_bytes": p.Cohort,
		"total_allocation_bytes": ch.TotalAllocation, "total_objects": ch.TotalObjects,
		"max_live_bytes": ch.MaxLive, "max_live_objects": ch.MaxLiveObjects, "max_live_at": ch.MaxLiveAt,
		"live_objects": ch.LiveObjects, "live_bytes": ch.LiveBytes, "freed_objects": ch.FreedObjects,
		"loaded_classes": ch.LoadedClasses, "array_classes": ch.ArrayClasses, "threads": ch.Threads,
		"gcs": ch.GCs, "pointer_mutations": ch.Mutations, "unknown_frees": ch.UnknownFrees,
	}
}

// writeHeapSummary prints the seed's tables 4.1–4.3 for a run, and what the log lacks.
func writeHeapSummary(w io.Writer, run string, p *model.HeapProfile, ch model.HeapCharacteristics) error {
	fmt.Fprintf(w, "heap run %q (%s), cohorts of %s\n\n", run, printable(p.Header.VM, ""), model.HumanBytes(p.Cohort))
	tw := termtext.NewTable(w)
	fmt.Fprintln(tw, "CHARACTERISTIC\tVALUE")
	fmt.Fprintf(tw, "Total allocation\t%s (%s)\n", model.HumanBytes(ch.TotalAllocation), chart.Count(ch.TotalObjects, "object", "objects"))
	fmt.Fprintf(tw, "Maximum live\t%s (%s, at %s)\n", model.HumanBytes(ch.MaxLive), chart.Count(ch.MaxLiveObjects, "object", "objects"), model.HumanBytes(ch.MaxLiveAt))
	fmt.Fprintf(tw, "Live objects (end)\t%d (%s)\n", ch.LiveObjects, model.HumanBytes(ch.LiveBytes))
	fmt.Fprintf(tw, "Loaded classes\t%d\n", ch.LoadedClasses)
	fmt.Fprintf(tw, "Array classes\t%d\n", ch.ArrayClasses)
	fmt.Fprintf(tw, "Threads\t%d\n", ch.Threads)
	fmt.Fprintf(tw, "Garbage collections\t%d\n", ch.GCs)
	fmt.Fprintf(tw, "Pointer mutations\t%d\n", ch.Mutations)
	if err := tw.Flush(); err != nil {
		return err
	}
	if ch.Mutations == 0 {
		fmt.Fprintln(w, "\nThe log has no pointer mutations (`androprof heap --mutations` records them), so figure 5.22 is empty.")
	}
	if ch.UnknownFrees > 0 {
		fmt.Fprintf(w, "%s named objects the log never allocated; they were skipped.\n", chart.Count(ch.UnknownFrees, "death", "deaths"))
	}
	return nil
}

// dumpReport prints a heap dump's summary, classes or packages.
func dumpReport(ctx context.Context, db *store.DB, run, by, find string, top int, heap string, asJSON bool, env Env) error {
	d, err := db.HeapDump(ctx, run)
	if err != nil {
		return err
	}
	if by == "summary" {
		ch := d.Characteristics()
		if asJSON {
			return writeJSON(env.Stdout, map[string]any{"run": run, "kind": model.RunKindHeapDump, "version": d.Version,
				"id_size": d.IDSize, "heaps": d.Heaps, "objects": ch.Objects, "bytes": ch.Bytes,
				"instances": ch.Instances.Objects, "instance_bytes": ch.Instances.Bytes,
				"arrays": ch.Arrays.Objects, "array_bytes": ch.Arrays.Bytes,
				"loaded_classes": ch.LoadedClasses, "array_classes": ch.ArrayClasses, "roots": d.Roots})
		}
		fmt.Fprintf(env.Stdout, "heap dump %q (%s, id size %d), heaps %s\n", run, printable(d.Version, ""), d.IDSize, printable(fmt.Sprint(d.Heaps), ""))
		fmt.Fprintf(env.Stdout, "objects %d (%s): %s (%s), %s (%s); class objects are not counted\nloaded classes %d, array classes %d, GC roots %d\n",
			ch.Objects, model.HumanBytes(ch.Bytes), chart.Count(ch.Instances.Objects, "instance", "instances"), model.HumanBytes(ch.Instances.Bytes),
			chart.Count(ch.Arrays.Objects, "array", "arrays"), model.HumanBytes(ch.Arrays.Bytes), ch.LoadedClasses, ch.ArrayClasses, d.Roots)
		return nil
	}
	if by != "class" && by != "package" {
		return fmt.Errorf("%w: --by %q: a heap dump is reported by summary, class, package, retained or dominators", errUsage, by)
	}
	all := d.DumpRows(heap, by == "package")
	var rows []model.DumpRow
	for _, r := range all {
		if find == "" || containsFold(r.Name, find) {
			rows = append(rows, r)
		}
	}
	if top > 0 && len(rows) > top {
		rows = rows[:top]
	}
	if asJSON {
		type rowJSON struct {
			Name          string  `json:"name"`
			Instances     uint64  `json:"instances"`
			InstanceBytes uint64  `json:"instance_bytes"`
			Arrays        uint64  `json:"arrays"`
			ArrayBytes    uint64  `json:"array_bytes"`
			Percent       float64 `json:"objects_percent"`
			BytesPercent  float64 `json:"bytes_percent"`
		}
		out := make([]rowJSON, len(rows))
		for i, r := range rows {
			out[i] = rowJSON{r.Name, r.Instances.Objects, r.Instances.Bytes, r.Arrays.Objects, r.Arrays.Bytes, r.Percent, r.BytesShare}
		}
		return writeJSON(env.Stdout, map[string]any{"run": run, "by": by, "heap": heap, "rows": out})
	}
	tw := termtext.NewRightTable(env.Stdout)
	fmt.Fprintf(tw, "%s\tOBJECTS\t%%\tBYTES\tBYTES %%\tINSTANCES\tARRAYS\t\n", map[string]string{"class": "CLASS", "package": "PACKAGE"}[by])
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%d\t%.2f\t%d\t%d\t\n", printable(r.Name, ""), r.Objects(), r.Percent, r.Bytes(), r.BytesShare, r.Instances.Objects, r.Arrays.Objects)
	}
	return tw.Flush()
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// printHeapRun says what an imported heap run or dump holds, in a line.
func printHeapRun(ctx context.Context, db *store.DB, r model.RunInfo, env Env) error {
	if r.Kind == model.RunKindHeapDump {
		d, err := db.HeapDump(ctx, r.Name)
		if err != nil {
			return err
		}
		ch := d.Characteristics()
		fmt.Fprintf(env.Stdout, "run %q: a heap dump, %s in %s, heaps %s (%s)\n",
			r.Name, chart.Count(ch.Objects, "object", "objects"), model.HumanBytes(ch.Bytes), printable(fmt.Sprint(d.Heaps), ""), reportHint(r.Name, "--by", "class"))
		return nil
	}
	p, err := db.HeapProfile(ctx, r.Name)
	if err != nil {
		return err
	}
	ch := p.Characteristics()
	fmt.Fprintf(env.Stdout, "run %q: a heap log, %s allocated in %s, maximum live %s, %s, %s (%s)\n",
		r.Name, model.HumanBytes(ch.TotalAllocation), chart.Count(ch.TotalObjects, "object", "objects"), model.HumanBytes(ch.MaxLive),
		chart.Count(ch.LoadedClasses, "class", "classes"), chart.Count(ch.Threads, "thread", "threads"), reportHint(r.Name))
	return nil
}

// heapRunJSON is --json's description of an imported heap run or dump.
func heapRunJSON(ctx context.Context, db *store.DB, r model.RunInfo) any {
	if r.Kind == model.RunKindHeapDump {
		if d, err := db.HeapDump(ctx, r.Name); err == nil {
			ch := d.Characteristics()
			return map[string]any{"run": r.Name, "kind": r.Kind, "objects": ch.Objects, "bytes": ch.Bytes, "heaps": d.Heaps}
		}
		return map[string]any{"run": r.Name, "kind": r.Kind}
	}
	p, err := db.HeapProfile(ctx, r.Name)
	if err != nil {
		return map[string]any{"run": r.Name, "kind": r.Kind}
	}
	return heapSummaryJSON(r.Name, p, p.Characteristics())
}
