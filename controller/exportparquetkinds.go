package controller

import (
	"bytes"
	"cmp"
	"context"
	"math"
	"slices"
	"strconv"
	"strings"

	pqexport "androprof/export/parquet"
	"androprof/model/calls"
	"androprof/model/cost"
	"androprof/model/flame"
	heapmodel "androprof/model/heap"
	"androprof/model/samples"
)

// Each kind's tables of the Parquet export (docs/parquet.md "Schema"), each row one that
// `androprof report --json` prints, from the same service call.

// emulatorParquet writes an emulator run's report rows of every grouping, priced under the
// export's profile or the run's default, and its system calls per thread.
func emulatorParquet(ctx context.Context, x *parquetExport, rf *pqexport.RunFiles, h pqexport.Head) error {
	p, err := x.emulatorProfile(ctx, h.Run)
	if err != nil {
		return err
	}
	costs := pqexport.NewPart[pqexport.EmulatorCostRow](rf, pqexport.TableEmulatorCosts)
	for _, by := range cost.Groupings {
		rep, err := x.w.Costs.Report(ctx, cost.ReportOptions{Run: h.Run, Profile: p, By: by})
		if err != nil {
			return err
		}
		for _, r := range rep.Rows {
			if err := costs.Add(costRow(h, rep, r)); err != nil {
				return err
			}
		}
	}
	rows, err := x.w.Costs.Syscalls(ctx, h.Run, 0, true)
	if err != nil {
		return err
	}
	calls := pqexport.NewPart[pqexport.EmulatorSyscallRow](rf, pqexport.TableEmulatorSyscalls)
	for _, r := range rows {
		err := calls.Add(pqexport.EmulatorSyscallRow{Head: h, PID: int32(r.PID), TID: int32(r.TID), Number: r.Number,
			Name: r.Name, Calls: r.Count, InstructionsBefore: r.Insns})
		if err != nil {
			return err
		}
	}
	return nil
}

// emulatorProfile is the profile a run is priced with: the export's, else the run's default
// (the window's for the instruction set it executed most, as report and the HTML report choose).
func (x *parquetExport) emulatorProfile(ctx context.Context, run string) (*cost.Profile, error) {
	if x.profile != nil {
		return x.profile, nil
	}
	d, err := x.w.Costs.Load(ctx, run)
	if err != nil {
		return nil, err
	}
	return x.w.Profiles.Default(ctx, x.infos, d.MainISA(0))
}

// costRow is a report row as report --json writes it: a field the grouping does not set is
// NULL (JSON leaves it out), an energy the profile cannot know NULL (JSON's null).
func costRow(h pqexport.Head, rep *cost.Report, r cost.ReportRow) pqexport.EmulatorCostRow {
	row := pqexport.EmulatorCostRow{Head: h, Profile: rep.Profile, FrequencyGHz: rep.FrequencyGHz, FrequencyAssumed: rep.FrequencyAssumed,
		ReportBy: string(rep.By), Key: r.Key, PID: nonZero(int32(r.PID)), BlockID: nonZero(r.BlockID), Category: nonZero(r.Category),
		Image: nonZero(r.Image), ImageKind: nonZero(string(r.ImageKind)), Instructions: r.Instructions, BlocksExecuted: r.Blocks,
		Cycles: r.Cycles, TimeS: r.TimeS}
	if r.EnergyKnown() && !math.IsNaN(r.EnergyJ) {
		row.EnergyJ = ptr(r.EnergyJ)
	}
	return row
}

// nonZero is v's address, or nil for the zero value: a field a row does not have.
func nonZero[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

// methodParquet writes a method trace's report by method of each thread and its call edges.
func methodParquet(ctx context.Context, x *parquetExport, rf *pqexport.RunFiles, h pqexport.Head) error {
	ma := x.w.Methods
	t, err := ma.Load(ctx, h.Run)
	if err != nil {
		return err
	}
	times := pqexport.NewPart[pqexport.MethodTimeRow](rf, pqexport.TableMethodTimes)
	us := clockUs(t.Profile.Clock)
	for _, th := range uniqueThreads(t.Profile.Threads) {
		rep, err := ma.Report(ctx, calls.MethodReportOptions{Run: h.Run, By: calls.ByMethod, TID: th.TID})
		if err != nil {
			return err
		}
		for _, r := range rep.Rows {
			tm := r.Times
			err := times.Add(pqexport.MethodTimeRow{Head: h, Clock: string(rep.Clock), TID: int32(th.TID), Thread: th.Name,
				MethodID: r.Method, Method: r.Key, Name: r.Readable.Short, Package: r.Readable.Package,
				InclCPUus: us.cpu(tm.InclusiveCPU), ExclCPUus: us.cpu(tm.ExclusiveCPU), InclRealus: us.wall(tm.InclusiveWall),
				ExclRealus: us.wall(tm.ExclusiveWall), Calls: tm.Calls, RecursiveCalls: tm.RecursiveCalls})
			if err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return methodCallsParquet(ctx, x, rf, h, t.Profile)
}

// uniqueThreads are a trace's threads, one per id (a reused id is one thread to a report).
func uniqueThreads(ths []calls.ThreadTimes) []calls.ThreadTimes {
	var out []calls.ThreadTimes
	for _, th := range ths {
		if !slices.ContainsFunc(out, func(o calls.ThreadTimes) bool { return o.TID == th.TID }) {
			out = append(out, th)
		}
	}
	return out
}

// clockUs writes a trace's times: a clock the trace did not record is NULL, never 0.
type clockUs calls.Clock

func (c clockUs) cpu(v uint64) *int64 {
	if !calls.Clock(c).HasCPU() {
		return nil
	}
	return ptr(int64(v))
}

func (c clockUs) wall(v uint64) *int64 {
	if !calls.Clock(c).HasWall() {
		return nil
	}
	return ptr(int64(v))
}

// methodCallsParquet writes every edge of a trace with its recursive parts on either side: the
// edges and splits Relatives (report --callers, --callees) reads, by thread, caller, callee.
func methodCallsParquet(ctx context.Context, x *parquetExport, rf *pqexport.RunFiles, h pqexport.Head, p *calls.CallProfile) error {
	edges, err := x.w.Methods.callEdges(ctx, h.Run)
	if err != nil {
		return err
	}
	rec, err := x.w.Methods.recursiveEdges(ctx, h.Run)
	if err != nil {
		return err
	}
	keys := slices.SortedFunc(func(yield func(calls.CallEdge) bool) {
		for k := range edges {
			if !yield(k) {
				return
			}
		}
	}, func(a, b calls.CallEdge) int {
		return cmp.Or(cmp.Compare(a.TID, b.TID), cmp.Compare(a.Caller, b.Caller), cmp.Compare(a.Callee, b.Callee))
	})
	part := pqexport.NewPart[pqexport.MethodCallRow](rf, pqexport.TableMethodCalls)
	us := clockUs(p.Clock)
	for _, k := range keys {
		e, r := edges[k], rec[k]
		err := part.Add(pqexport.MethodCallRow{Head: h, Clock: string(p.Clock), TID: int32(k.TID),
			CallerID: k.Caller, Caller: calls.MethodName(p.Methods[k.Caller]), CalleeID: k.Callee, Callee: calls.MethodName(p.Methods[k.Callee]),
			Calls: e.Calls, InclCPUus: us.cpu(e.InclusiveCPU), InclRealus: us.wall(e.InclusiveWall),
			CallerNestedCalls: r.Caller.Calls, CallerNestedCPUus: us.cpu(r.Caller.InclusiveCPU), CallerNestedRealus: us.wall(r.Caller.InclusiveWall),
			CalleeNestedCalls: r.Callee.Calls, CalleeNestedCPUus: us.cpu(r.Callee.InclusiveCPU), CalleeNestedRealus: us.wall(r.Callee.InclusiveWall)})
		if err != nil {
			return err
		}
	}
	return nil
}

// heapScopeNames are report --by's names of a heap log's tables, in the order written.
var heapScopeNames = []struct {
	name  string
	scope heapmodel.HeapScope
}{{"cohort", heapmodel.ScopeCohort}, {"thread", heapmodel.ScopeThread}, {"class", heapmodel.ScopeClass}, {"size", heapmodel.ScopeSize}}

// heapLogParquet writes a heap log's tables at its imported cohort size.
func heapLogParquet(ctx context.Context, x *parquetExport, rf *pqexport.RunFiles, h pqexport.Head) error {
	p, err := x.w.HeapLogs.Profile(ctx, h.Run, 1)
	if err != nil {
		return err
	}
	part := pqexport.NewPart[pqexport.HeapLogRow](rf, pqexport.TableHeapLogRows)
	for _, s := range heapScopeNames {
		for _, r := range p.Table(s.scope) {
			row := pqexport.HeapLogRow{Head: h, CohortBytes: int64(p.Cohort), Scope: s.name, Key: int64(r.Key), Name: r.Name,
				IsArray: r.Array, LiveObjects: int64(r.Live.Objects), LiveBytes: int64(r.Live.Bytes), TotalObjects: int64(r.Total.Objects),
				TotalBytes: int64(r.Total.Bytes), ArrayObjects: int64(r.Total.ArrayObjects), ArrayBytes: int64(r.Total.ArrayBytes),
				DiedObjects: int64(r.Died.Objects)}
			if r.Died.Objects > 0 {
				row.AvgLifetimeBytes = ptr(r.AvgLifetime)
			}
			if err := part.Add(row); err != nil {
				return err
			}
		}
	}
	return nil
}

// dumpParquet writes a heap dump's classes, of every heap and of each, the dumped counts beside
// the retained ones.
func dumpParquet(ctx context.Context, x *parquetExport, rf *pqexport.RunFiles, h pqexport.Head) error {
	d, err := x.w.HeapDumps.Dump(ctx, h.Run)
	if err != nil {
		return err
	}
	r, err := x.w.HeapDumps.Retention(ctx, h.Run)
	if err != nil {
		return err
	}
	part := pqexport.NewPart[pqexport.DumpClassRow](rf, pqexport.TableDumpClasses)
	if err := dumpClassRows(part, h, nil, d.DumpRows("", false), r.Classes, true); err != nil {
		return err
	}
	for _, heap := range d.Heaps {
		retained, ok := r.ClassesInHeap(slices.Index(r.Heaps, heap))
		if err := dumpClassRows(part, h, &heap, d.DumpRows(heap, false), retained, ok); err != nil {
			return err
		}
	}
	return nil
}

// dumpClassRows writes one heap's classes (heap nil: every heap): the dump's rows by class,
// then the classes only the retention has. Without retention (known false) its columns are NULL.
func dumpClassRows(part *pqexport.Part[pqexport.DumpClassRow], h pqexport.Head, heap *string, dumped []heapmodel.DumpRow, retained []heapmodel.RetainedClass, known bool) error {
	byName := map[string]heapmodel.RetainedClass{} // a name two classes share (loaded twice) is one row
	for _, c := range retained {
		sum := byName[c.Name]
		sum.Instances, sum.Shallow, sum.Retained = sum.Instances+c.Instances, sum.Shallow+c.Shallow, sum.Retained+c.Retained
		byName[c.Name] = sum
	}
	row := func(name string) pqexport.DumpClassRow {
		out := pqexport.DumpClassRow{Head: h, Heap: heap, Class: name}
		if known {
			c := byName[name]
			out.ReachableInstances, out.ShallowBytes, out.RetainedBytes = ptr(int64(c.Instances)), ptr(int64(c.Shallow)), ptr(int64(c.Retained))
		}
		return out
	}
	seen := map[string]bool{}
	for _, dr := range dumped {
		out := row(dr.Name)
		out.Instances, out.InstanceBytes = int64(dr.Instances.Objects), int64(dr.Instances.Bytes)
		out.Arrays, out.ArrayBytes = int64(dr.Arrays.Objects), int64(dr.Arrays.Bytes)
		seen[dr.Name] = true
		if err := part.Add(out); err != nil {
			return err
		}
	}
	for _, c := range retained {
		if !seen[c.Name] && byName[c.Name].Instances > 0 {
			seen[c.Name] = true
			if err := part.Add(row(c.Name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// sampleParquet writes a sampled run's folded stacks per thread: the lines export --format
// folded --pid TID writes, from the same selection and graph.
func sampleParquet(ctx context.Context, x *parquetExport, rf *pqexport.RunFiles, h pqexport.Head) error {
	p, err := x.w.Samples.Profile(ctx, h.Run)
	if err != nil {
		return err
	}
	part := pqexport.NewPart[pqexport.SampleStackRow](rf, pqexport.TableSampleStacks)
	var done []int
	var folded bytes.Buffer
	for _, th := range p.Threads {
		if slices.Contains(done, th.TID) {
			continue
		}
		done = append(done, th.TID)
		set, err := x.w.Samples.Select(ctx, h.Run, samples.SampleSelection{TIDs: []int{th.TID}}, nil)
		if err != nil {
			return err
		}
		folded.Reset()
		if err := flame.WriteFolded(&folded, set.Flame()); err != nil {
			return err
		}
		for line := range strings.Lines(folded.String()) {
			row, err := stackRow(h, th, strings.TrimSuffix(line, "\n"))
			if err != nil {
				return err
			}
			if err := part.Add(row); err != nil {
				return err
			}
		}
	}
	return nil
}

// stackRow reads a line WriteFolded wrote, "outer;…;leaf COUNT", into a row of thread th.
func stackRow(h pqexport.Head, th samples.SampleThread, line string) (pqexport.SampleStackRow, error) {
	at := strings.LastIndexByte(line, ' ')
	n, err := strconv.ParseInt(line[at+1:], 10, 64)
	if at < 0 || err != nil {
		return pqexport.SampleStackRow{}, &parquetLineError{line}
	}
	stack := line[:at]
	leaf := stack[strings.LastIndexByte(stack, ';')+1:]
	return pqexport.SampleStackRow{Head: h, PID: int32(th.PID), TID: int32(th.TID), Thread: th.Comm, Stack: stack, Leaf: leaf,
		Depth: int32(strings.Count(stack, ";") + 1), Samples: n}, nil
}

// parquetLineError is a folded line this package's writer did not write as it should: a bug,
// said with the line rather than a wrong row.
type parquetLineError struct{ line string }

func (e *parquetLineError) Error() string {
	return "folded stack without a count: " + strconv.Quote(e.line)
}
