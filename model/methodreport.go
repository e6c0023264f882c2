package model

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Method reports: Traceview's profile table grouped by method, class, package or thread, a
// method's callers and callees, and two traces side by side.

// MethodGrouping is what a method report has one row per.
type MethodGrouping string

// The groupings of `androprof report --by` for method traces.
const (
	ByMethod  MethodGrouping = "method"
	ByClass   MethodGrouping = "class"
	ByPackage MethodGrouping = "package"
	ByThread  MethodGrouping = "thread"
)

// MethodGroupings lists them in the order the window shows them.
var MethodGroupings = []MethodGrouping{ByMethod, ByClass, ByPackage, ByThread}

// ParseMethodGrouping accepts the names of `--by`.
func ParseMethodGrouping(s string) (MethodGrouping, error) {
	for _, g := range MethodGroupings {
		if string(g) == s {
			return g, nil
		}
	}
	return "", fmt.Errorf("unknown grouping %q for a method trace (want method, class, package or thread)", s)
}

// MethodReportOptions chooses what a method report shows.
type MethodReportOptions struct {
	Run  string
	By   MethodGrouping
	TID  int    // 0: every thread
	Find string // case-insensitive substring of the row's name; "" for all
	Top  int    // 0: every row
}

// MethodRow is one line of Traceview's profile table. Percentages are of the report's total
// (the selected threads' time on that clock).
type MethodRow struct {
	Key      string // "class.name signature", a class, a package or "tid name"
	Method   uint64 // set for method rows: its id in the trace
	TID      int    // set for thread rows
	Times    MethodTimes
	InclCPU  float64 // percentages
	ExclCPU  float64
	InclWall float64
	ExclWall float64
}

// MethodReport is a profile table with its totals.
type MethodReport struct {
	Run         string
	By          MethodGrouping
	TID         int
	Clock       Clock
	Rows        []MethodRow
	TotalCPU    uint64 // Σ exclusive time of the selected threads: the 100% of the percentages
	TotalWall   uint64
	ProcessCPU  uint64 // DPA: Σ level-1 inclusive times
	ProcessWall uint64
}

// MethodName formats a method as Traceview does: "class.name signature".
func MethodName(m MethodInfo) string {
	name := m.Class + "." + m.Name
	switch {
	case m.Class == "":
		name = m.Name
	case m.Name == "": // dmtracedump's synthetic "(toplevel)" and "(unknown)"
		name = m.Class
	}
	if m.Signature != "" {
		name += " " + m.Signature
	}
	return name
}

// Report makes the trace's profile table, most inclusive time first (thread-CPU when the
// trace has it, else wall).
func (t *MethodTrace) Report(opts MethodReportOptions) (*MethodReport, error) {
	if !slices.Contains(MethodGroupings, opts.By) {
		return nil, fmt.Errorf("unknown grouping %q", opts.By)
	}
	p := t.Profile
	rep := &MethodReport{Run: opts.Run, By: opts.By, TID: opts.TID, Clock: p.Clock}
	for _, th := range p.Threads {
		if opts.TID == 0 || th.TID == opts.TID {
			rep.ProcessCPU += th.Level1CPU
			rep.ProcessWall += th.Level1Wall
		}
	}
	rows := map[string]*MethodRow{}
	add := func(key string, method uint64, tid int, mt MethodTimes) {
		r, ok := rows[key]
		if !ok {
			r = &MethodRow{Key: key, Method: method, TID: tid}
			rows[key] = r
		}
		r.Times.InclusiveCPU += mt.InclusiveCPU
		r.Times.ExclusiveCPU += mt.ExclusiveCPU
		r.Times.InclusiveWall += mt.InclusiveWall
		r.Times.ExclusiveWall += mt.ExclusiveWall
		r.Times.Calls += mt.Calls
		r.Times.RecursiveCalls += mt.RecursiveCalls
	}
	threadName := map[int]string{}
	for _, th := range p.Threads {
		threadName[th.TID] = th.Name
	}
	for k, mt := range p.PerThread {
		if opts.TID != 0 && k.TID != opts.TID {
			continue
		}
		rep.TotalCPU += mt.ExclusiveCPU
		rep.TotalWall += mt.ExclusiveWall
		switch opts.By {
		case ByMethod:
			add(MethodName(p.Methods[k.Method]), k.Method, 0, mt)
		case ByThread:
			add(fmt.Sprintf("%d %s", k.TID, threadName[k.TID]), 0, k.TID, MethodTimes{
				ExclusiveCPU: mt.ExclusiveCPU, ExclusiveWall: mt.ExclusiveWall, Calls: mt.Calls, RecursiveCalls: mt.RecursiveCalls})
		}
	}
	groups := map[MethodGrouping]map[ThreadGroup]MethodTimes{ByClass: p.Classes, ByPackage: p.Packages}
	for k, mt := range groups[opts.By] {
		if opts.TID == 0 || k.TID == opts.TID {
			add(k.Name, 0, 0, mt)
		}
	}
	if opts.By == ByThread { // a thread's inclusive time is its span
		for _, th := range p.Threads {
			if r, ok := rows[fmt.Sprintf("%d %s", th.TID, th.Name)]; ok {
				r.Times.InclusiveCPU, r.Times.InclusiveWall = th.ElapsedCPU(), th.ElapsedWall()
			}
		}
	}
	find := strings.ToLower(opts.Find)
	for _, r := range rows {
		if find != "" && !strings.Contains(strings.ToLower(r.Key), find) {
			continue
		}
		r.InclCPU, r.ExclCPU = percentOf(r.Times.InclusiveCPU, rep.TotalCPU), percentOf(r.Times.ExclusiveCPU, rep.TotalCPU)
		r.InclWall, r.ExclWall = percentOf(r.Times.InclusiveWall, rep.TotalWall), percentOf(r.Times.ExclusiveWall, rep.TotalWall)
		rep.Rows = append(rep.Rows, *r)
	}
	useCPU := p.Clock.HasCPU()
	slices.SortFunc(rep.Rows, func(x, y MethodRow) int {
		xi, yi := x.Times.InclusiveWall, y.Times.InclusiveWall
		if useCPU {
			xi, yi = x.Times.InclusiveCPU, y.Times.InclusiveCPU
		}
		return cmp.Or(cmp.Compare(yi, xi), cmp.Compare(x.Key, y.Key))
	})
	if opts.Top > 0 && len(rep.Rows) > opts.Top {
		rep.Rows = rep.Rows[:opts.Top]
	}
	return rep, nil
}

// Relative is a caller or callee of a method, as Traceview lists them under it.
type Relative struct {
	Method uint64
	Name   string
	EdgeTimes
}

// Relatives lists who called a method and whom it called (on one thread, or all), from the
// profile's methods and its call edges.
func (p *CallProfile) Relatives(edges map[CallEdge]EdgeTimes, method uint64, tid int) (parents, children []Relative) {
	par, chi := map[uint64]*Relative{}, map[uint64]*Relative{}
	sum := func(m map[uint64]*Relative, id uint64, e EdgeTimes) {
		r, ok := m[id]
		if !ok {
			r = &Relative{Method: id, Name: MethodName(p.Methods[id])}
			m[id] = r
		}
		r.Calls += e.Calls
		r.InclusiveCPU += e.InclusiveCPU
		r.InclusiveWall += e.InclusiveWall
	}
	for k, e := range edges {
		if tid != 0 && k.TID != tid {
			continue
		}
		if k.Callee == method {
			sum(par, k.Caller, e)
		}
		if k.Caller == method {
			sum(chi, k.Callee, e)
		}
	}
	flatten := func(m map[uint64]*Relative) []Relative {
		out := make([]Relative, 0, len(m))
		for _, r := range m {
			out = append(out, *r)
		}
		slices.SortFunc(out, func(x, y Relative) int {
			return cmp.Or(cmp.Compare(y.InclusiveCPU+y.InclusiveWall, x.InclusiveCPU+x.InclusiveWall), cmp.Compare(x.Name, y.Name))
		})
		return out
	}
	return flatten(par), flatten(chi)
}

// MethodCompareRow is one method (or class, package) in two traces side by side (DPA figure 7).
type MethodCompareRow struct {
	Key          string
	A, B         MethodTimes
	InclCPURate  float64 // B's inclusive thread-CPU time over A's; 0 when A has none
	InclWallRate float64
}

// CompareMethodReports puts two reports of the same grouping side by side, most time in
// either first.
func CompareMethodReports(ra, rb *MethodReport) []MethodCompareRow {
	rows := map[string]*MethodCompareRow{}
	get := func(k string) *MethodCompareRow {
		r, ok := rows[k]
		if !ok {
			r = &MethodCompareRow{Key: k}
			rows[k] = r
		}
		return r
	}
	for _, r := range ra.Rows {
		get(r.Key).A = r.Times
	}
	for _, r := range rb.Rows {
		get(r.Key).B = r.Times
	}
	out := make([]MethodCompareRow, 0, len(rows))
	for _, r := range rows {
		r.InclCPURate = ratio(r.B.InclusiveCPU, r.A.InclusiveCPU)
		r.InclWallRate = ratio(r.B.InclusiveWall, r.A.InclusiveWall)
		out = append(out, *r)
	}
	slices.SortFunc(out, func(x, y MethodCompareRow) int {
		mx := max(x.A.InclusiveCPU+x.A.InclusiveWall, x.B.InclusiveCPU+x.B.InclusiveWall)
		my := max(y.A.InclusiveCPU+y.A.InclusiveWall, y.B.InclusiveCPU+y.B.InclusiveWall)
		return cmp.Or(cmp.Compare(my, mx), cmp.Compare(x.Key, y.Key))
	})
	return out
}
