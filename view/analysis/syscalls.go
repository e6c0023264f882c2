package analysis

import (
	"fmt"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/internal/human"
	"androprof/model/cost"
	"androprof/view/ui"
)

// NoSyscallsText is what the System calls tab says for a run whose trace counted none.
const NoSyscallsText = "This run's trace has no system calls: they come with `androprof run` profiles. " +
	"QEMU logs and older profiles do not count them."

// syscallsTab shows the kernel layer as user-mode QEMU sees it: how often each process (or
// thread) made each system call, and how many instructions it ran between them.
type syscallsTab struct {
	Chart     *ui.ChartPanel // calls by name
	PerThread *widget.Check
	Table     *ui.SortTable[cost.SyscallRow]
	Empty     *widget.Label // why the run has none

	res     *results
	names   map[string]string // pid → "pid name"
	main    fyne.CanvasObject
	content fyne.CanvasObject
}

func newSyscallsTab(v *View) *syscallsTab {
	t := &syscallsTab{}
	t.Chart = ui.NewChartPanel(v.Window, v.bg, chart.Bars, nil)
	t.Table = ui.NewSortTable(v.Window, "system-calls", t.cols(false), nil)
	t.PerThread = widget.NewCheck("Per thread", func(bool) {
		t.Table.SetColumns(t.cols(t.PerThread.Checked))
		t.show(t.res)
	})
	t.Empty = widget.NewLabel(NoSyscallsText)
	t.Empty.Wrapping = fyne.TextWrapWord
	t.Empty.Alignment = fyne.TextAlignCenter
	table := container.NewBorder(container.NewHBox(t.PerThread), nil, nil, nil, t.Table.Content())
	split := container.NewVSplit(t.Chart.Content(), table)
	split.Offset = 0.45
	t.main = split
	t.content = container.NewStack(t.main, container.NewPadded(t.Empty))
	t.show(nil)
	return t
}

// cols are the table's columns; perThread adds the thread.
func (t *syscallsTab) cols(perThread bool) []ui.Column[cost.SyscallRow] {
	cols := []ui.Column[cost.SyscallRow]{
		ui.TextCol("Name", 150, func(r cost.SyscallRow) string { return r.Name }),
		ui.IDCol("Number", 70, func(r cost.SyscallRow) int64 { return r.Number }),
		ui.TextCol("Process", 150, func(r cost.SyscallRow) string {
			if n, ok := t.names[strconv.Itoa(r.PID)]; ok {
				return n
			}
			return strconv.Itoa(r.PID)
		}),
		ui.IntCol("Calls", 90, func(r cost.SyscallRow) int64 { return r.Count }),
		ui.IntCol("Instructions before", 150, func(r cost.SyscallRow) int64 { return r.Insns }),
		ui.FloatCol("Instructions per call", 150, 0, func(r cost.SyscallRow) float64 { return r.InsnsPerCall() }),
	}
	if perThread {
		cols = slices.Insert(cols, 3, ui.IDCol("Thread", 80, func(r cost.SyscallRow) int64 { return int64(r.TID) }))
	}
	return cols
}

// show lists the selection's system calls, per thread when ticked.
func (t *syscallsTab) show(res *results) {
	t.res = res
	has := res != nil && len(res.calls) > 0
	showIf(t.Empty, res != nil && !has)
	showIf(t.main, res == nil || has)
	if !has {
		t.Table.Set(nil)
		t.Chart.Set(chart.Chart{})
		return
	}
	t.names = res.names
	all := res.calls
	if t.PerThread.Checked {
		all = res.thrCalls
	}
	var rows []cost.SyscallRow
	var calls, insns int64
	for _, r := range all {
		if res.sel.pid == 0 || r.PID == res.sel.pid {
			rows = append(rows, r)
			calls += r.Count
			insns += r.Insns
		}
	}
	t.Table.Set(rows)
	t.Table.Count.SetText(fmt.Sprintf("%s · %s · %s before them", human.Count(len(rows), "row", "rows"),
		human.Count(calls, "call", "calls"), human.Count(insns, "instruction", "instructions")))
	t.Chart.Set(chart.FromSyscalls(res.sel.run, rows))
}
