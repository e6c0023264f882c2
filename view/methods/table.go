package methods

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/internal/human"
	callsmodel "androprof/model/calls"
	"androprof/model/javaname"
	"androprof/view/ui"
)

// methodProfileTab is Traceview's profile panel: one row per method (or class, package,
// thread) with inclusive and exclusive times on each clock the trace has, calls and time per
// call; a find box; and, for the method selected, who called it and whom it called. A click on
// a parent or child goes to that method, as expanding and clicking does in Traceview.
type methodProfileTab struct {
	Find     *widget.Entry
	Table    *ui.SortTable[callsmodel.MethodRow]
	Selected *widget.Label // whose parents and children are listed, or how to list them
	Parents  *ui.SortTable[callsmodel.Relative]
	Children *ui.SortTable[callsmodel.Relative]

	m        *View
	clock    callsmodel.Clock // the columns are the ones of this clock
	raw      bool             // and of these names (View.raw)
	selected string           // key of the row selected; kept across recomputes
	pending  string           // a key to select once rows arrive (a jump past the find filter)
	gen      int
	relGen   int
	content  fyne.CanvasObject
}

func newMethodProfileTab(m *View) *methodProfileTab {
	t := &methodProfileTab{m: m, clock: callsmodel.ClockDual}
	win := m.host.Window()
	t.Find = widget.NewEntry()
	t.Find.SetPlaceHolder("Find: part of a name, or a regular expression (its rows' share is said)")
	t.Find.OnChanged = func(string) { t.recompute() }
	t.Table = ui.NewSortTable(win, "method-profile", profileColumns(t.clock, false), t.rowSelected)
	t.Selected = widget.NewLabel("Select a method to list its parents and children.")
	t.Selected.Truncation = fyne.TextTruncateEllipsis
	t.Parents = ui.NewSortTable(win, "parents", relativeColumns(t.clock, "Parent", false), func(r callsmodel.Relative) { m.jump(r.Name) })
	t.Children = ui.NewSortTable(win, "children", relativeColumns(t.clock, "Child", false), func(r callsmodel.Relative) { m.jump(r.Name) })
	t.Parents.SaveCSV.SetText("Parents CSV…")
	t.Children.SaveCSV.SetText("Children CSV…")
	// The profile table takes the whole height, the relatives the right of it, parents above
	// children over one bar naming whose they are: at 1366×768 the table shows 12 rows and more,
	// where stacked under it the relatives left it 4 or 5 (issue 23).
	relatives := container.NewVSplit(t.Parents.Body(), t.Children.Body())
	bar := container.NewBorder(nil, nil, nil, container.NewHBox(t.Parents.SaveCSV, t.Children.SaveCSV), t.Selected)
	table := container.NewBorder(t.Find, nil, nil, nil, t.Table.Content())
	split := container.NewHSplit(table, container.NewBorder(nil, bar, nil, nil, relatives))
	split.Offset = 0.6
	t.content = split
	return t
}

// profileColumns are Traceview's columns for the clocks a trace has: a trace without a CPU
// clock shows no CPU columns, which would be all zero. raw names rows as the trace does, else
// as Java reads them with their package beside them (nameColumns).
func profileColumns(c callsmodel.Clock, raw bool) []ui.Column[callsmodel.MethodRow] {
	type row = callsmodel.MethodRow
	cpu, wall := c.HasCPU() || !c.HasWall(), c.HasWall() || !c.HasCPU()
	name, pkg := nameColumns("Name", 300, raw, func(r row) string { return r.Key }, func(r row) javaname.Name { return r.Readable })
	cols := append([]ui.Column[row]{name}, pkg...)
	if cpu {
		cols = append(cols,
			usCol("Incl CPU µs", func(r row) uint64 { return r.Times.InclusiveCPU }),
			ui.PctCol("Incl CPU %", func(r row) float64 { return r.InclCPU }),
			usCol("Excl CPU µs", func(r row) uint64 { return r.Times.ExclusiveCPU }),
			ui.PctCol("Excl CPU %", func(r row) float64 { return r.ExclCPU }))
	}
	if wall {
		cols = append(cols,
			usCol("Incl real µs", func(r row) uint64 { return r.Times.InclusiveWall }),
			ui.PctCol("Incl real %", func(r row) float64 { return r.InclWall }),
			usCol("Excl real µs", func(r row) uint64 { return r.Times.ExclusiveWall }),
			ui.PctCol("Excl real %", func(r row) float64 { return r.ExclWall }))
	}
	calls := func(r row) string { return fmt.Sprintf("%d+%d", r.Times.Calls, r.Times.RecursiveCalls) }
	cols = append(cols, ui.Column[row]{Title: "Calls+Rec", Width: 90, Num: true, Text: calls,
		Cmp: func(a, b row) int {
			return cmp.Or(cmp.Compare(a.Times.Calls, b.Times.Calls), cmp.Compare(a.Times.RecursiveCalls, b.Times.RecursiveCalls))
		}})
	if cpu {
		cols = append(cols, perCallCol("CPU/call", func(r row) float64 { return r.Times.CPUPerCall() }))
	}
	if wall {
		cols = append(cols, perCallCol("Real/call", func(r row) float64 { return r.Times.WallPerCall() }))
	}
	return cols
}

// relativeColumns list a parent or child (key names which): what the edge between the two
// methods cost, in dmtracedump's terms. "Calls/total" is its "count/total" (of the method's
// calls for a parent, of the child's for a child); recursive rows, which dmtracedump prints
// below its "+++++" line, say "yes" under "Rec." (as "Calls+Rec" counts them in the table) and
// come after the plain ones until the user sorts, so nested time is never read as added to the
// rest.
func relativeColumns(c callsmodel.Clock, key string, raw bool) []ui.Column[callsmodel.Relative] {
	type rel = callsmodel.Relative
	name, pkg := nameColumns(key, 240, raw, func(r rel) string { return r.Name }, func(r rel) javaname.Name { return r.Readable })
	cols := []ui.Column[rel]{
		name,
		{Title: "Rec.", Width: 50, Num: true, Text: func(r rel) string {
			if r.Recursive {
				return "yes"
			}
			return ""
		}},
		{Title: "Calls/total", Width: 90, Num: true, Text: func(r rel) string { return fmt.Sprintf("%d/%d", r.Calls, r.TotalCalls) },
			Cmp: func(a, b rel) int { return cmp.Compare(a.Calls, b.Calls) }},
	}
	if c.HasCPU() || !c.HasWall() {
		cols = append(cols, usCol("Incl CPU µs", func(r rel) uint64 { return r.InclusiveCPU }))
	}
	if c.HasWall() || !c.HasCPU() {
		cols = append(cols, usCol("Incl real µs", func(r rel) uint64 { return r.InclusiveWall }))
	}
	return append(cols, pkg...)
}

func usCol[T any](title string, v func(T) uint64) ui.Column[T] {
	return ui.IntCol(title, 105, func(r T) int64 { return int64(v(r)) })
}

func perCallCol[T any](title string, v func(T) float64) ui.Column[T] {
	c := ui.FloatCol(title, 90, 0, v)
	c.Text = func(r T) string { return strconv.FormatFloat(v(r), 'f', 1, 64) }
	return c
}

// recompute makes the table for the selection and the find text, in the background.
func (t *methodProfileTab) recompute() {
	m := t.m
	t.gen++
	gen, a, sel, ctx := t.gen, m.a, m.sel, m.host.Context()
	find, re := t.Find.Text, findRegex(t.Find.Text)
	opts := callsmodel.MethodReportOptions{Run: sel.run, By: sel.by, TID: sel.tid, Find: find}
	if re != nil {
		opts.Find = "" // every row, then those the expression or the text matches
	}
	clock := m.trace.Profile.Clock
	m.host.Background().Run(func() func() {
		rep, err := a.Report(ctx, opts)
		var whole int
		if err == nil && re != nil {
			whole = len(rep.Rows)
			rep = regexRows(rep, re, find)
		}
		return func() {
			if gen != t.gen {
				return
			}
			if err != nil {
				m.host.SetProblem(ui.ProblemText("list the methods of", opts.Run, err))
				return
			}
			t.show(rep, clock)
			if re != nil {
				t.Table.Count.SetText(regexTotal(rep, clock, re, whole))
			}
		}
	})
}

// findRegex is the find box's text as a regular expression when it is one: it holds regexp
// syntax beyond "." (which names hold) and compiles. nil for plain text, found as a substring.
func findRegex(text string) *regexp.Regexp {
	if !strings.ContainsAny(text, `|^$*+?()[]{}\`) {
		return nil
	}
	re, err := regexp.Compile(text)
	if err != nil {
		return nil
	}
	return re
}

// regexRows is rep with only the rows re matches by raw or readable name, or whose names hold
// text as the plain find does ("paint(float)" still finds the readable name it spells).
func regexRows(rep *callsmodel.MethodReport, re *regexp.Regexp, text string) *callsmodel.MethodReport {
	out := *rep
	out.Rows = nil
	lower := strings.ToLower(text)
	for _, r := range rep.Rows {
		full := r.Readable.Full()
		if re.MatchString(r.Key) || re.MatchString(full) ||
			strings.Contains(strings.ToLower(r.Key), lower) || strings.Contains(strings.ToLower(full), lower) {
			out.Rows = append(out.Rows, r)
		}
	}
	return &out
}

// regexTotal is the total line of a regular expression's rows: how many of all match, and their
// exclusive time's share of the whole on each clock (exclusive times add up; inclusive ones nest).
func regexTotal(rep *callsmodel.MethodReport, clock callsmodel.Clock, re *regexp.Regexp, whole int) string {
	var cpu, wall uint64
	for _, r := range rep.Rows {
		cpu += r.Times.ExclusiveCPU
		wall += r.Times.ExclusiveWall
	}
	share := func(v, all uint64) string {
		if all == 0 {
			return micros(v) + " (share unknown)"
		}
		return fmt.Sprintf("%s (%.1f%% of %s)", micros(v), 100*float64(v)/float64(all), micros(all))
	}
	text := fmt.Sprintf("%d of %s match /%s/, exclusive time", len(rep.Rows), human.Count(whole, "row", "rows"), re)
	if clock.HasCPU() {
		text += " · CPU " + share(cpu, rep.TotalCPU)
	}
	if clock.HasWall() {
		text += " · real " + share(wall, rep.TotalWall)
	}
	return text
}

func (t *methodProfileTab) show(rep *callsmodel.MethodReport, clock callsmodel.Clock) {
	if clock != t.clock || t.m.raw != t.raw {
		t.clock, t.raw = clock, t.m.raw
		t.Table.SetColumns(profileColumns(clock, t.raw))
		t.Parents.SetColumns(relativeColumns(clock, "Parent", t.raw))
		t.Children.SetColumns(relativeColumns(clock, "Child", t.raw))
	}
	t.Table.Set(rep.Rows)
	total := human.Count(len(rep.Rows), "row", "rows")
	if clock.HasCPU() {
		total += " · CPU " + micros(rep.TotalCPU)
	}
	if clock.HasWall() {
		total += " · real " + micros(rep.TotalWall)
	}
	t.Table.Count.SetText(total + " (the 100% of the percentages)")
	want := t.selected
	if t.pending != "" {
		want, t.pending = t.pending, ""
	}
	if i := slices.IndexFunc(t.Table.Rows(), func(r callsmodel.MethodRow) bool { return r.Key == want }); want != "" && i >= 0 {
		t.Table.Select(i) // lists its relatives again, for the thread now chosen
		return
	}
	t.showRelatives(nil, nil, "Select a method to list its parents and children.")
}

// rowSelected lists the parents and children of a method row.
func (t *methodProfileTab) rowSelected(r callsmodel.MethodRow) {
	m := t.m
	t.selected = r.Key
	t.relGen++
	if m.sel.by != callsmodel.ByMethod {
		t.showRelatives(nil, nil, "Parents and children are listed when grouping by method.")
		return
	}
	m.selectMethod(r.Method, fromProfile)
	gen, a, sel, ctx := t.relGen, m.a, m.sel, m.host.Context()
	m.host.Background().Run(func() func() {
		parents, children, err := a.Relatives(ctx, sel.run, r.Method, sel.tid)
		return func() {
			if gen != t.relGen {
				return
			}
			if err != nil {
				t.showRelatives(nil, nil, ui.ProblemText("find the callers and callees of", r.Key, err))
				return
			}
			t.showRelatives(parents, children, "Parents and children of "+m.shown(r.Key, r.Readable).Full()+" (click one to go to it)")
		}
	})
}

func (t *methodProfileTab) showRelatives(parents, children []callsmodel.Relative, title string) {
	t.Selected.SetText(title)
	t.Parents.Set(parents)
	t.Children.Set(children)
}

// jump selects the row of key, clearing the find box (and grouping by method) when they hide it.
func (t *methodProfileTab) jump(key string) {
	if i := slices.IndexFunc(t.Table.Rows(), func(r callsmodel.MethodRow) bool { return r.Key == key }); i >= 0 {
		t.Table.Select(i)
		return
	}
	t.pending = key
	if t.Find.Text != "" {
		t.Find.SetText("") // recomputes, then selects pending
	} else {
		t.recompute()
	}
}

// micros writes a duration in µs the way every other quantity is written: 850 µs, 12.3 ms.
func micros(us uint64) string { return human.Quantity(float64(us)/1e6, "s") }
