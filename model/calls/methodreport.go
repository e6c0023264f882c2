package calls

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	modelmodel "androprof/model"
	"androprof/model/javaname"
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
	Find string // case-insensitive substring of the row's raw or readable name; "" for all
	Top  int    // 0: every row
}

// MethodRow is one line of Traceview's profile table. Percentages are of the report's total
// (the selected threads' time on that clock).
type MethodRow struct {
	Key      string // "class.name signature", a class, a package or "tid name": the row's identity
	Readable javaname.Name
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

// ReadableName is a method as people read Java, "GameScreen.paint(float)" in
// "com.jag.positron", for display only (MethodName stays the identity); a method whose
// descriptor is malformed, or that is not Java's ("(toplevel)"), is its MethodName.
func ReadableName(m MethodInfo) javaname.Name {
	if n, ok := javaname.Method(m.Class, m.Name, m.Signature); ok {
		return n
	}
	return javaname.Raw(MethodName(m))
}

// ShortName is ReadableName without the package: a flame graph's frame name (Flame's name
// argument), whose Origin already is the package.
func ShortName(m MethodInfo) string { return ReadableName(m).Short }

// readableKey is how a row of grouping by reads: a class without its package beside it, a
// package dotted, a thread as it is.
func readableKey(by MethodGrouping, key string) javaname.Name {
	switch by {
	case ByClass:
		n, _ := javaname.Class(key)
		return n
	case ByPackage:
		n, _ := javaname.Package(key)
		return n
	}
	return javaname.Raw(key)
}

// matches says whether a row's raw or readable name (with its package) contains find, which
// is lower case; "" matches every row.
func matches(find, key string, n javaname.Name) bool {
	return find == "" || strings.Contains(strings.ToLower(key), find) || strings.Contains(strings.ToLower(n.Full()), find)
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
			r = &MethodRow{Key: key, Method: method, TID: tid, Readable: readableKey(opts.By, key)}
			if opts.By == ByMethod {
				r.Readable = ReadableName(p.Methods[method])
			}
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
		if !matches(find, r.Key, r.Readable) {
			continue
		}
		r.InclCPU, r.ExclCPU = modelmodel.PercentOf(r.Times.InclusiveCPU, rep.TotalCPU), modelmodel.PercentOf(r.Times.ExclusiveCPU, rep.TotalCPU)
		r.InclWall, r.ExclWall = modelmodel.PercentOf(r.Times.InclusiveWall, rep.TotalWall), modelmodel.PercentOf(r.Times.ExclusiveWall, rep.TotalWall)
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

// Relative is a caller or callee of a method, one row of dmtracedump's inclusive profile under
// that method: the calls along the edge and the callee's inclusive time in them.
type Relative struct {
	Method   uint64
	Name     string // MethodName: the identity a click jumps to
	Readable javaname.Name
	EdgeTimes
	// TotalCalls is the "total" of dmtracedump's "count/total": every call (plain and recursive)
	// of the method for a parent, of the child for a child.
	TotalCalls int64
	// Recursive rows are the calls dmtracedump prints below its "+++++" line, apart from the
	// plain ones: for a parent, calls made while the method was already on the stack; for a
	// child, calls made while the method had another frame below. Summed with the plain calls
	// they would count nested time twice (more than the method's inclusive time).
	Recursive bool
}

// Relatives lists who called a method and whom it called (on one thread, or all), from the
// profile's methods, its call edges and their recursive parts (RecursiveEdges): plain rows
// first, then recursive ones, each most inclusive time first.
func (p *CallProfile) Relatives(edges map[CallEdge]EdgeTimes, rec map[CallEdge]RecursiveEdge, method uint64, tid int) (parents, children []Relative) {
	calls := map[uint64]int64{}
	for k, mt := range p.PerThread {
		if tid == 0 || k.TID == tid {
			calls[k.Method] += mt.Calls + mt.RecursiveCalls
		}
	}
	type key struct {
		id        uint64
		recursive bool
	}
	par, chi := map[key]*Relative{}, map[key]*Relative{}
	add := func(m map[key]*Relative, id uint64, recursive bool, e EdgeTimes, total int64) {
		if e.Calls == 0 {
			return
		}
		r, ok := m[key{id, recursive}]
		if !ok {
			mi := p.Methods[id]
			r = &Relative{Method: id, Name: MethodName(mi), Readable: ReadableName(mi), TotalCalls: total, Recursive: recursive}
			m[key{id, recursive}] = r
		}
		r.EdgeTimes.add(e)
	}
	for k, e := range edges {
		if tid != 0 && k.TID != tid {
			continue
		}
		r := rec[k]
		if k.Callee == method {
			add(par, k.Caller, false, e.minus(r.Callee), calls[method])
			add(par, k.Caller, true, r.Callee, calls[method])
		}
		if k.Caller == method {
			add(chi, k.Callee, false, e.minus(r.Caller), calls[k.Callee])
			add(chi, k.Callee, true, r.Caller, calls[k.Callee])
		}
	}
	flatten := func(m map[key]*Relative) []Relative {
		out := make([]Relative, 0, len(m))
		for _, r := range m {
			out = append(out, *r)
		}
		// Plain rows before recursive ones, as dmtracedump prints them; most time first.
		slices.SortFunc(out, func(x, y Relative) int {
			return cmp.Or(FalseFirst(x.Recursive, y.Recursive), cmp.Compare(y.InclusiveCPU+y.InclusiveWall, x.InclusiveCPU+x.InclusiveWall),
				cmp.Compare(x.Name, y.Name), cmp.Compare(x.Method, y.Method))
		})
		return out
	}
	return flatten(par), flatten(chi)
}

// FalseFirst compares two bools for sorting, false before true (cmp.Compare has no bool).
func FalseFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// FindMethod finds the method a person names: its full name as the profile table writes it
// ("class.name signature"), or class and name without the signature, with '.' or '/' between
// the package parts, or its readable name ("com.jag.positron.GameScreen.paint(float)", with or
// without the package). Overloads and unknown names are errors that list what would match.
func (p *CallProfile) FindMethod(name string) (uint64, error) {
	norm := func(s string) string { return strings.ReplaceAll(s, "/", ".") }
	want := norm(name)
	var exact, short, part []uint64
	for id, m := range p.Methods {
		full := norm(MethodName(m))
		readable := ReadableName(m)
		switch {
		case full == want, readable.Full() == name, readable.Short == name:
			exact = append(exact, id)
		case norm(MethodName(MethodInfo{Class: m.Class, Name: m.Name})) == want:
			short = append(short, id)
		case strings.Contains(strings.ToLower(full), strings.ToLower(want)):
			part = append(part, id)
		}
	}
	for _, ids := range [][]uint64{exact, short, part} {
		switch {
		case len(ids) == 1:
			return ids[0], nil
		case len(ids) > 1:
			names := make([]string, len(ids))
			for i, id := range ids {
				names[i] = MethodName(p.Methods[id])
			}
			slices.Sort(names)
			if len(names) > 10 {
				names = append(names[:10], fmt.Sprintf("and %d more", len(names)-10))
			}
			return 0, fmt.Errorf("%q names %d methods; say which: %s", name, len(ids), strings.Join(names, "; "))
		}
	}
	return 0, fmt.Errorf("no method of the trace is named %q", name)
}

// MethodCompareRow is one method (or class, package) in two traces side by side (DPA figure 7).
type MethodCompareRow struct {
	Key          string
	Readable     javaname.Name
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
		row := get(r.Key)
		row.A, row.Readable = r.Times, r.Readable
	}
	for _, r := range rb.Rows {
		row := get(r.Key)
		row.B, row.Readable = r.Times, r.Readable
	}
	out := make([]MethodCompareRow, 0, len(rows))
	for _, r := range rows {
		r.InclCPURate = modelmodel.Ratio(r.B.InclusiveCPU, r.A.InclusiveCPU)
		r.InclWallRate = modelmodel.Ratio(r.B.InclusiveWall, r.A.InclusiveWall)
		out = append(out, *r)
	}
	slices.SortFunc(out, func(x, y MethodCompareRow) int {
		mx := max(x.A.InclusiveCPU+x.A.InclusiveWall, x.B.InclusiveCPU+x.B.InclusiveWall)
		my := max(y.A.InclusiveCPU+y.A.InclusiveWall, y.B.InclusiveCPU+y.B.InclusiveWall)
		return cmp.Or(cmp.Compare(my, mx), cmp.Compare(x.Key, y.Key))
	})
	return out
}
