package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/termtext"
	"androprof/model"
	heapmodel "androprof/model/heap"
)

// heapFlags are report's and chart's flags for heap runs.
type heapFlags struct {
	cohort    cohortFlag
	heap      string
	of        string // --by dominators: the object whose dominated objects to list
	pathTo    string
	object    string // --object: one object's fields, referrers, dominator and path
	instances string // --instances: a class's instances
}

func (h *heapFlags) add(fs *flag.FlagSet) {
	fs.Var(&h.cohort, "cohort", "heap runs: cohort `SIZE`, a multiple of the imported one (default: as imported)")
	fs.StringVar(&h.heap, "heap", "", "heap dumps: only the heap `NAME` (zygote, app, image, default)")
	fs.StringVar(&h.of, "of", "", "heap dumps, --by dominators: the objects `OBJECT` (an id, 0x…) dominates")
	fs.StringVar(&h.pathTo, "path-to", "", "heap dumps: the shortest path from a GC root to `OBJECT|CLASS` (an id, or a class's instance nearest a root)")
	fs.StringVar(&h.object, "object", "", "heap dumps: the object `ID` (0x…) with its fields, referrers, dominator and path from a GC root")
	fs.StringVar(&h.instances, "instances", "", "heap dumps: the reachable instances of `CLASS` (java.lang.String or java/lang/String), largest retained first")
}

// cohortFactor is the multiple of a heap run's imported cohort that --cohort asks for.
func cohortFactor(ctx context.Context, ws *controller.Workspace, run string, h heapFlags) (int, error) {
	p, err := ws.HeapLogs.Profile(ctx, run, 1)
	if err != nil {
		return 0, err
	}
	factor, err := controller.CohortFactor(p.Cohort, h.cohort.bytes)
	if err != nil {
		return 0, fmt.Errorf("%w: --cohort: %v", errUsage, err)
	}
	return factor, nil
}

// heapProfile loads a heap run at the cohort size asked for.
func heapProfile(ctx context.Context, ws *controller.Workspace, run string, h heapFlags) (*heapmodel.HeapProfile, error) {
	factor, err := cohortFactor(ctx, ws, run, h)
	if err != nil {
		return nil, err
	}
	return ws.HeapLogs.Profile(ctx, run, factor)
}

// errNoFigure says that a heap run's or dump's chart needs --figure.
var errNoFigure = fmt.Errorf("%w: a heap run's chart needs --figure (5.1 … 5.23, or a dump figure)", errUsage)

// heapLogDrawing draws one figure of a heap run, as the window's heap tabs do.
func heapLogDrawing(ctx context.Context, ws *controller.Workspace, run, figure string, h heapFlags) (chart.Drawing, error) {
	if figure == "" {
		return nil, errNoFigure
	}
	f, err := chart.FindHeapFigure(figure)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	factor, err := cohortFactor(ctx, ws, run, h)
	if err != nil {
		return nil, err
	}
	return ws.HeapLogs.Figure(ctx, run, factor, f)
}

// dumpDrawing draws one figure of a heap dump, as the window's dump tabs do.
func dumpDrawing(ctx context.Context, ws *controller.Workspace, run, figure string, h heapFlags) (chart.Drawing, error) {
	if figure == "" {
		return nil, errNoFigure
	}
	f, err := chart.FindDumpFigure(figure)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return ws.HeapDumps.Figure(ctx, run, h.heap, f)
}

// heapScopes are report --by's groupings of a heap run.
var heapScopes = map[string]heapmodel.HeapScope{"cohort": heapmodel.ScopeCohort, "thread": heapmodel.ScopeThread,
	"class": heapmodel.ScopeClass, "size": heapmodel.ScopeSize}

// heapLogReport prints a heap run's characteristics (--by summary, the default) or one of
// its tables.
func heapLogReport(ctx context.Context, ws *controller.Workspace, rf reportFlags, find string, h heapFlags, asJSON bool, env Env) error {
	by := reportBy(rf)
	p, err := heapProfile(ctx, ws, rf.run, h)
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
	var rows []heapmodel.HeapRow
	if by == "package" {
		rows = p.Packages()
	} else if scope, ok := heapScopes[by]; ok {
		rows = p.Table(scope)
	} else {
		return fmt.Errorf("%w: --by %q: a heap run is reported by summary, cohort, thread, class, package or size", errUsage, by)
	}
	rows = heapmodel.FilterHeapRows(rows, find)
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
			human.Bytes(r.Total.Bytes), human.Bytes(r.Live.Bytes), r.Total.ArrayObjects, lifetimeText(r))
	}
	return tw.Flush()
}

func lifetimeText(r heapmodel.HeapRow) string {
	if r.Died.Objects == 0 {
		return "-"
	}
	return human.Bytes(uint64(r.AvgLifetime))
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

func heapRowsJSON(rows []heapmodel.HeapRow) []heapRowJSON {
	out := make([]heapRowJSON, len(rows))
	for i, r := range rows {
		out[i] = heapRowJSON{r.Name, r.Key, r.Array, r.Live.Objects, r.Live.Bytes, r.LivePercent, r.Total.Objects,
			r.Total.Bytes, r.Total.ArrayObjects, r.Total.ArrayBytes, r.Died.Objects, r.AvgLifetime}
	}
	return out
}

func heapSummaryJSON(run string, p *heapmodel.HeapProfile, ch heapmodel.HeapCharacteristics) map[string]any {
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
func writeHeapSummary(w io.Writer, run string, p *heapmodel.HeapProfile, ch heapmodel.HeapCharacteristics) error {
	fmt.Fprintf(w, "heap run %q (%s), cohorts of %s\n\n", run, printable(p.Header.VM, ""), human.Bytes(p.Cohort))
	tw := termtext.NewTable(w)
	fmt.Fprintln(tw, "CHARACTERISTIC\tVALUE")
	fmt.Fprintf(tw, "Total allocation\t%s (%s)\n", human.Bytes(ch.TotalAllocation), human.Count(ch.TotalObjects, "object", "objects"))
	fmt.Fprintf(tw, "Maximum live\t%s (%s, at %s)\n", human.Bytes(ch.MaxLive), human.Count(ch.MaxLiveObjects, "object", "objects"), human.Bytes(ch.MaxLiveAt))
	fmt.Fprintf(tw, "Live objects (end)\t%d (%s)\n", ch.LiveObjects, human.Bytes(ch.LiveBytes))
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
		fmt.Fprintf(w, "%s named objects the log never allocated; they were skipped.\n", human.Count(ch.UnknownFrees, "death", "deaths"))
	}
	return nil
}

// reportBy is report --by for heap runs and dumps: summary unless asked.
func reportBy(rf reportFlags) string {
	if rf.by == "" || rf.by == "pid" {
		return "summary"
	}
	return rf.by
}

// dumpReport prints a heap dump's summary or classes or packages (--by), what keeps its memory
// alive (--by retained, --by dominators), or the path to an object (--path-to).
func dumpReport(ctx context.Context, ws *controller.Workspace, rf reportFlags, find string, h heapFlags, asJSON bool, env Env) error {
	switch by := reportBy(rf); {
	case h.pathTo != "":
		return pathReport(ctx, ws, rf.run, h.pathTo, asJSON, env)
	case h.object != "":
		return objectReport(ctx, ws, rf.run, h.object, asJSON, env)
	case h.instances != "":
		return instancesReport(ctx, ws, rf.run, h.instances, find, rf.top, asJSON, env)
	case by == "leaks":
		return leaksReport(ctx, ws, rf.run, rf.top, asJSON, env)
	case by == "retained":
		return retainedReport(ctx, ws, rf.run, find, h.heap, rf.top, asJSON, env)
	case by == "dominators":
		return dominatorReport(ctx, ws, rf.run, h.of, rf.top, asJSON, env)
	default:
		return dumpRowsReport(ctx, ws, rf.run, by, find, rf.top, h.heap, asJSON, env)
	}
}

// dumpRowsReport prints a heap dump's summary, classes or packages.
func dumpRowsReport(ctx context.Context, ws *controller.Workspace, run, by, find string, top int, heap string, asJSON bool, env Env) error {
	d, err := ws.HeapDumps.Dump(ctx, run)
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
			ch.Objects, human.Bytes(ch.Bytes), human.Count(ch.Instances.Objects, "instance", "instances"), human.Bytes(ch.Instances.Bytes),
			human.Count(ch.Arrays.Objects, "array", "arrays"), human.Bytes(ch.Arrays.Bytes), ch.LoadedClasses, ch.ArrayClasses, d.Roots)
		return nil
	}
	if by != "class" && by != "package" {
		return fmt.Errorf("%w: --by %q: a heap dump is reported by summary, class, package, retained, dominators or leaks", errUsage, by)
	}
	all := d.DumpRows(heap, by == "package")
	var rows []heapmodel.DumpRow
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

// printHeapLogRun says what an imported heap run holds, in a line.
func printHeapLogRun(ctx context.Context, ws *controller.Workspace, r model.RunInfo, env Env) error {
	p, err := ws.HeapLogs.Profile(ctx, r.Name, 1)
	if err != nil {
		return err
	}
	ch := p.Characteristics()
	fmt.Fprintf(env.Stdout, "run %q: a heap log, %s allocated in %s, maximum live %s, %s, %s (%s)\n",
		r.Name, human.Bytes(ch.TotalAllocation), human.Count(ch.TotalObjects, "object", "objects"), human.Bytes(ch.MaxLive),
		human.Count(ch.LoadedClasses, "class", "classes"), human.Count(ch.Threads, "thread", "threads"), reportHint(r.Name))
	return nil
}

// printDumpRun says what an imported heap dump holds, in a line.
func printDumpRun(ctx context.Context, ws *controller.Workspace, r model.RunInfo, env Env) error {
	d, err := ws.HeapDumps.Dump(ctx, r.Name)
	if err != nil {
		return err
	}
	ch := d.Characteristics()
	fmt.Fprintf(env.Stdout, "run %q: a heap dump, %s in %s, heaps %s (%s)\n",
		r.Name, human.Count(ch.Objects, "object", "objects"), human.Bytes(ch.Bytes), printable(fmt.Sprint(d.Heaps), ""), reportHint(r.Name, "--by", "class"))
	return nil
}

// heapLogRunJSON is --json's description of an imported heap run.
func heapLogRunJSON(ctx context.Context, ws *controller.Workspace, r model.RunInfo) any {
	p, err := ws.HeapLogs.Profile(ctx, r.Name, 1)
	if err != nil {
		return map[string]any{"run": r.Name, "kind": r.Kind}
	}
	return heapSummaryJSON(r.Name, p, p.Characteristics())
}

// dumpRunJSON is --json's description of an imported heap dump.
func dumpRunJSON(ctx context.Context, ws *controller.Workspace, r model.RunInfo) any {
	d, err := ws.HeapDumps.Dump(ctx, r.Name)
	if err != nil {
		return map[string]any{"run": r.Name, "kind": r.Kind}
	}
	ch := d.Characteristics()
	return map[string]any{"run": r.Name, "kind": r.Kind, "objects": ch.Objects, "bytes": ch.Bytes, "heaps": d.Heaps}
}
