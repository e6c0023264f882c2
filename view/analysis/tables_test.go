package analysis

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/model/calls"
	"androprof/view/ui"
)

// rowsShown is how many whole rows tb's table has room for: its header and its cells are as
// tall as a label.
func rowsShown[T any](tb *ui.SortTable[T]) float32 {
	row := widget.NewLabel("").MinSize().Height + theme.Padding()
	return (tb.Table.Size().Height - row) / row
}

const paintMethod = "com/jag/positron/GameScreen.paint (F)V"

// methodRowOf finds a row of the method profile table by its key.
func methodRowOf(tb *ui.SortTable[calls.MethodRow], key string) int {
	return slices.IndexFunc(tb.Rows(), func(r calls.MethodRow) bool { return r.Key == key })
}

// The Parents and Children panes have room for rows, not one, and say click (a desktop).
func TestRelativesPanesShowRows(t *testing.T) {
	v, _ := openMethodsWindow(t)
	p := v.Methods.Profile
	p.Table.Select(methodRowOf(p.Table, paintMethod))
	v.Wait()
	if len(p.Children.Rows()) < 6 || !strings.HasSuffix(p.Selected.Text, "(click one to go to it)") {
		t.Fatalf("%d children; %q", len(p.Children.Rows()), p.Selected.Text)
	}
	for _, tc := range []struct {
		size fyne.Size
		rows float32
	}{{Size, 5.5}, {fyne.NewSize(900, 600), 3}} {
		v.Window.Resize(tc.size)
		v.Wait()
		for _, tb := range []*ui.SortTable[calls.Relative]{p.Parents, p.Children} {
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
func fits[T any](tb *ui.SortTable[T], cols int) bool {
	var w float32
	widths := tb.ColumnWidths()
	for _, c := range widths[:cols] {
		w += c + theme.Padding()
	}
	return len(widths) > 0 && w <= tb.Table.Size().Width-theme.ScrollBarSize()+0.5
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
	for _, size := range []fyne.Size{Size, fyne.NewSize(900, 600)} {
		v.Window.Resize(size)
		selectTab(t, v.Tabs, "Functions")
		v.Wait()
		if !fits(v.Functions.Table, 6) {
			t.Errorf("at %v the functions table does not fit: %v in %g", size, v.Functions.Table.ColumnWidths(), v.Functions.Table.Table.Size().Width)
		}
		selectTab(t, v.Tabs, "Processes")
		v.Wait()
		if !fits(v.Processes.Table, 7) {
			t.Errorf("at %v the processes table does not fit: %v in %g", size, v.Processes.Table.ColumnWidths(), v.Processes.Table.Table.Size().Width)
		}
		selectTab(t, v.Tabs, "Basic blocks")
		v.Wait()
		v.Blocks.Table.Select(0)
		v.Wait()
		if ins := v.Blocks.Insns; size == Size && !fits(ins, len(ins.Columns())) {
			t.Errorf("at %v the block's instructions (Power) do not fit: %v in %g", size, ins.ColumnWidths(), ins.Table.Size().Width)
		}
		selectTab(t, v.Tabs, "Instructions")
		v.Wait()
		cats := v.Insns.Categories
		if cats.Table.StickyColumnCount != 1 || size == Size && !fits(cats, 4) { // Category … Cycles
			t.Errorf("at %v categories: sticky %d, widths %v in %g", size, cats.Table.StickyColumnCount, cats.ColumnWidths(), cats.Table.Size().Width)
		}
		if !fits(cats, len(cats.Columns())) {
			for i, w := range cats.ColumnWidths()[1:] {
				if w+0.5 < cats.HeaderWidth(i+1) {
					t.Errorf("at %v a scrolling table cuts header %q (%g < %g)", size, cats.Headers()[i+1], w, cats.HeaderWidth(i+1))
				}
			}
		}
	}
}

// suggestedName taps a Save button and reads the file name its path dialog suggests (the
// path entry has the focus), then cancels the dialog.
func suggestedName(t *testing.T, w fyne.Window, save *widget.Button) string {
	t.Helper()
	test.Tap(save)
	top := w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog")
	}
	defer w.Canvas().Overlays().Remove(top)
	f := reflect.ValueOf(w.Canvas().Focused())
	if f.Kind() != reflect.Pointer || f.Elem().Kind() != reflect.Struct {
		t.Fatalf("the focus is on %T", w.Canvas().Focused())
	}
	text := f.Elem().FieldByName("Text") // a widget.Entry's, or one's that embeds it
	if text.Kind() != reflect.String {
		t.Fatalf("the focus is on %T, which has no text", w.Canvas().Focused())
	}
	return filepath.Base(text.String())
}

// The files a table or a chart is saved as are named after the run shown, so the exports of
// two runs do not overwrite each other ("processes.csv" for every run before).
func TestExportsAreNamedAfterTheRun(t *testing.T) {
	v := openSieves(t)
	for _, run := range []string{"demo-sieve-arm", "demo-sieve-mips"} {
		showRun(v, run, "")
		for what, save := range map[string]*widget.Button{"processes CSV": v.Processes.Table.SaveCSV,
			"functions CSV": v.Functions.Table.SaveCSV, "processes PNG": v.Processes.Chart.SavePNG,
			"instructions SVG": v.Insns.Costs.SaveSVG} {
			if name := suggestedName(t, v.Window, save); !strings.Contains(name, run) || strings.Count(name, run) != 1 {
				t.Errorf("%s of %s is suggested as %q", what, run, name)
			}
		}
	}
}
