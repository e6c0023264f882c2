package view

import (
	"androprof/model"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// walkShown calls f on every object shown under o.
func walkShown(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	if !o.Visible() {
		return
	}
	f(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walkShown(c, f)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walkShown(c, f)
		}
	}
}

// cells are the table cells drawn for tb, header cells left out.
func cells[T any](tb *sortTable[T]) []*tableCell {
	var out []*tableCell
	walkShown(tb.Table, func(o fyne.CanvasObject) {
		if c, ok := o.(*tableCell); ok {
			out = append(out, c)
		}
	})
	return out
}

func absPos(o fyne.CanvasObject) fyne.Position {
	return fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
}

// A method name cut by its column shows whole under the pointer, in a tip inside the table;
// a cell shown whole shows none.
func TestCutMethodNameShowsWholeUnderPointer(t *testing.T) {
	v, _ := openMethods(t)
	p := v.Methods.Profile
	c := v.Window.Canvas()
	var cut, whole *tableCell
	for _, cell := range cells(p.Table) {
		switch {
		case cut == nil && strings.Contains(cell.Text, "/") && cell.cut():
			cut = cell
		case whole == nil && cell.Text != "" && !cell.cut() && cell.Position().Y > 0:
			whole = cell
		}
	}
	if cut == nil || whole == nil {
		t.Fatalf("no cut name (%v) or whole cell (%v) at %v", cut, whole, v.Window.Canvas().Size())
	}
	at := absPos(cut).Add(fyne.NewPos(20, cut.Size().Height/2))
	test.MoveMouse(c, at)
	if got := p.Table.tip.Text(); got != cut.Text {
		t.Fatalf("tip %q over %q", got, cut.Text)
	}
	layer, bg := p.Table.tip.layer, p.Table.tip.bg
	if bg.Position().X < 0 || bg.Position().Y < 0 || bg.Position().X+bg.Size().Width > layer.Size().Width+0.5 ||
		bg.Position().Y+bg.Size().Height > layer.Size().Height+0.5 || bg.Size().Width < cut.Size().Width {
		t.Errorf("tip at %v size %v in a table of %v", bg.Position(), bg.Size(), layer.Size())
	}
	test.MoveMouse(c, absPos(whole).Add(fyne.NewPos(5, whole.Size().Height/2)))
	if got := p.Table.tip.Text(); got != "" {
		t.Errorf("tip %q over a whole cell %q", got, whole.Text)
	}
	test.MoveMouse(c, at)
	test.MoveMouse(c, fyne.NewPos(1, 1)) // off the table
	if got := p.Table.tip.Text(); got != "" {
		t.Errorf("tip %q after the pointer left", got)
	}
}

// rowsShown is how many whole rows tb's table has room for.
func rowsShown[T any](tb *sortTable[T]) float32 {
	head := newHeaderCell(nil).MinSize().Height + theme.Padding()
	row := newTableCell(nil).MinSize().Height + theme.Padding()
	return (tb.Table.Size().Height - head) / row
}

// The Parents and Children panes have room for rows, not one, and say click (a desktop).
func TestRelativesPanesShowRows(t *testing.T) {
	v, _ := openMethods(t)
	p := v.Methods.Profile
	p.Table.Select(methodRowIndex(p.Table, paint))
	v.Wait()
	if len(p.Children.Rows()) < 6 || !strings.HasSuffix(p.Selected.Text, "(click one to go to it)") {
		t.Fatalf("%d children; %q", len(p.Children.Rows()), p.Selected.Text)
	}
	for _, tc := range []struct {
		size fyne.Size
		rows float32
	}{{analysisSize, 5.5}, {fyne.NewSize(900, 600), 3}} {
		v.Window.Resize(tc.size)
		v.Wait()
		for _, tb := range []*sortTable[model.Relative]{p.Parents, p.Children} {
			if n := rowsShown(tb); n < tc.rows {
				t.Errorf("at %v a pane has room for %.1f rows, want %.1f", tc.size, n, tc.rows)
			}
		}
		if n := rowsShown(p.Table); n < tc.rows-1 {
			t.Errorf("at %v the profile table has room for %.1f rows", tc.size, n)
		}
	}
	if !strings.Contains(v.Methods.Timeline.Info.Text, "double-click") {
		t.Errorf("timeline hint %q", v.Methods.Timeline.Info.Text)
	}
}

// fits tells whether every column of tb lies inside its width.
func fits[T any](tb *sortTable[T], cols int) bool {
	var w float32
	for _, c := range tb.colW[:cols] {
		w += c + theme.Padding()
	}
	return len(tb.colW) > 0 && w <= tb.width-theme.ScrollBarSize()+0.5
}

// selectTab shows the tab of tabs titled text.
func selectTab(t *testing.T, tabs *container.AppTabs, text string) {
	t.Helper()
	for _, it := range tabs.Items {
		if it.Text == text {
			tabs.Select(it)
			return
		}
	}
	t.Fatalf("no tab %q", text)
}

// The tables fit the window: the Cycles, Time, Energy and Power columns are in view at the
// default size (at 900×600 too where the numbers allow), and a table that cannot fit keeps
// its key column in view and every header whole while it scrolls sideways.
func TestTablesFitTheWindow(t *testing.T) {
	v, _ := openAnalysis(t)
	for _, size := range []fyne.Size{analysisSize, fyne.NewSize(900, 600)} {
		v.Window.Resize(size)
		selectTab(t, v.Tabs, "Functions")
		v.Wait()
		if !fits(v.Functions.Table, 6) {
			t.Errorf("at %v the functions table does not fit: %v in %g", size, v.Functions.Table.colW, v.Functions.Table.width)
		}
		selectTab(t, v.Tabs, "Processes")
		v.Wait()
		if !fits(v.Processes.Table, 7) {
			t.Errorf("at %v the processes table does not fit: %v in %g", size, v.Processes.Table.colW, v.Processes.Table.width)
		}
		selectTab(t, v.Tabs, "Basic blocks")
		v.Wait()
		v.Blocks.Table.Select(0)
		v.Wait()
		if ins := v.Blocks.Insns; size == analysisSize && !fits(ins, len(ins.cols)) {
			t.Errorf("at %v the block's instructions (Power) do not fit: %v in %g", size, ins.colW, ins.width)
		}
		selectTab(t, v.Tabs, "Instructions")
		v.Wait()
		cats := v.Insns.Categories
		if cats.Table.StickyColumnCount != 1 || size == analysisSize && !fits(cats, 4) { // Category … Cycles
			t.Errorf("at %v categories: sticky %d, widths %v in %g", size, cats.Table.StickyColumnCount, cats.colW, cats.width)
		}
		if !fits(cats, len(cats.cols)) {
			for i, w := range cats.colW[1:] {
				if w+0.5 < cats.headerWidth(i+1) {
					t.Errorf("at %v a scrolling table cuts header %q (%g < %g)", size, cats.headers[i+1], w, cats.headerWidth(i+1))
				}
			}
		}
	}
}
