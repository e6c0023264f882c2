package view

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// column describes one column of a sortTable.
type column[T any] struct {
	title string
	width float32
	text  func(T) string   // as shown
	raw   func(T) string   // as written to CSV, full precision (nil: text)
	cmp   func(a, b T) int // sort order (nil: by text)
	num   bool             // numbers are right-aligned and sort largest first on the first click
}

// sortTable is every table of the analysis window: headers that sort on a tap, a row count,
// and "Save CSV…". One helper, so every tab sorts and exports the same way.
type sortTable[T any] struct {
	Table   *widget.Table
	Count   *widget.Label // rows shown, plus what the caller adds (totals)
	SaveCSV *widget.Button

	cols     []column[T]
	rows     []T
	sortBy   int // -1: the caller's order
	desc     bool
	onSelect func(T)
	content  fyne.CanvasObject
}

func newSortTable[T any](win fyne.Window, name string, cols []column[T], onSelect func(T)) *sortTable[T] {
	t := &sortTable[T]{cols: cols, sortBy: -1, onSelect: onSelect}
	t.Table = widget.NewTableWithHeaders(func() (int, int) { return len(t.rows), len(t.cols) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		}, t.updateCell)
	t.Table.ShowHeaderColumn = false
	t.Table.CreateHeader = func() fyne.CanvasObject {
		b := widget.NewButton("", nil)
		b.Importance = widget.LowImportance
		return b
	}
	t.Table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		b := o.(*widget.Button)
		if id.Col < 0 || id.Col >= len(t.cols) {
			b.SetText("")
			b.OnTapped = nil
			return
		}
		title := t.cols[id.Col].title
		switch {
		case id.Col != t.sortBy:
		case t.desc:
			title += " ▼"
		default:
			title += " ▲"
		}
		b.SetText(title)
		col := id.Col
		b.OnTapped = func() { t.SortBy(col) }
	}
	t.Table.OnSelected = func(id widget.TableCellID) {
		if id.Row >= 0 && id.Row < len(t.rows) && t.onSelect != nil {
			t.onSelect(t.rows[id.Row])
		}
	}
	for i, c := range cols {
		t.Table.SetColumnWidth(i, c.width)
	}
	t.Count = widget.NewLabel("")
	t.Count.Truncation = fyne.TextTruncateEllipsis
	t.SaveCSV = widget.NewButtonWithIcon("Save CSV…", theme.DocumentSaveIcon(), func() {
		askSavePath(win, name+".csv", ".csv", t.saveCSV)
	})
	bar := container.NewBorder(nil, nil, nil, t.SaveCSV, t.Count)
	t.content = container.NewBorder(nil, bar, nil, nil, t.Table)
	return t
}

// Content is the table with its row count and Save CSV button.
func (t *sortTable[T]) Content() fyne.CanvasObject { return t.content }

// Set shows rows, in the order the user last sorted by.
func (t *sortTable[T]) Set(rows []T) {
	t.rows = slices.Clone(rows)
	t.sort()
	t.Table.UnselectAll()
	t.Table.Refresh()
	t.Table.ScrollToTop()
	if len(t.rows) == 1 {
		t.Count.SetText("1 row")
	} else {
		t.Count.SetText(fmt.Sprintf("%d rows", len(t.rows)))
	}
}

// SetColumns replaces the columns, e.g. for a method trace without a CPU clock; the rows go
// back to the caller's order.
func (t *sortTable[T]) SetColumns(cols []column[T]) {
	t.cols, t.sortBy, t.desc = cols, -1, false
	for i, c := range cols {
		t.Table.SetColumnWidth(i, c.width)
	}
	t.Table.Refresh()
}

// Rows are the rows in the order shown.
func (t *sortTable[T]) Rows() []T { return t.rows }

// Select selects row i as a tap would.
func (t *sortTable[T]) Select(i int) { t.Table.Select(widget.TableCellID{Row: i, Col: 0}) }

// SortBy sorts by column col; a second tap on the same column reverses the order.
func (t *sortTable[T]) SortBy(col int) {
	if col == t.sortBy {
		t.desc = !t.desc
	} else {
		t.sortBy, t.desc = col, t.cols[col].num
	}
	t.sort()
	t.Table.UnselectAll()
	t.Table.Refresh()
}

func (t *sortTable[T]) sort() {
	if t.sortBy < 0 {
		return
	}
	c := t.cols[t.sortBy]
	by := c.cmp
	if by == nil {
		by = func(a, b T) int { return cmp.Compare(c.text(a), c.text(b)) }
	}
	slices.SortStableFunc(t.rows, func(a, b T) int {
		if t.desc {
			return by(b, a)
		}
		return by(a, b)
	})
}

func (t *sortTable[T]) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	l := o.(*widget.Label)
	if id.Row < 0 || id.Row >= len(t.rows) || id.Col < 0 || id.Col >= len(t.cols) {
		l.SetText("")
		return
	}
	c := t.cols[id.Col]
	l.Alignment = fyne.TextAlignLeading
	if c.num {
		l.Alignment = fyne.TextAlignTrailing
	}
	l.SetText(c.text(t.rows[id.Row]))
}

// Cell is the text shown at row, col.
func (t *sortTable[T]) Cell(row, col int) string { return t.cols[col].text(t.rows[row]) }

// WriteCSV writes the rows as shown, numbers in full precision.
func (t *sortTable[T]) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := make([]string, len(t.cols))
	for i, c := range t.cols {
		head[i] = c.title
	}
	cw.Write(head)
	for _, r := range t.rows {
		rec := make([]string, len(t.cols))
		for i, c := range t.cols {
			if c.raw != nil {
				rec[i] = c.raw(r)
			} else {
				rec[i] = c.text(r)
			}
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func (t *sortTable[T]) saveCSV(path string) error {
	return writeFile(path, t.WriteCSV)
}

// Column helpers: the same numbers look the same in every tab.

func textCol[T any](title string, width float32, text func(T) string) column[T] {
	return column[T]{title: title, width: width, text: text}
}

func intCol[T any](title string, width float32, v func(T) int64) column[T] {
	return column[T]{title: title, width: width, num: true,
		text: func(r T) string { return grouped(v(r)) },
		raw:  func(r T) string { return strconv.FormatInt(v(r), 10) },
		cmp:  func(a, b T) int { return cmp.Compare(v(a), v(b)) }}
}

// floatCol shows digits significant digits ('f' with 0 decimals when digits is 0, for cycles).
func floatCol[T any](title string, width float32, digits int, v func(T) float64) column[T] {
	return column[T]{title: title, width: width, num: true,
		text: func(r T) string { return formatFloat(v(r), digits) },
		raw:  func(r T) string { return strconv.FormatFloat(v(r), 'g', -1, 64) },
		cmp:  func(a, b T) int { return cmp.Compare(v(a), v(b)) }}
}

func formatFloat(f float64, digits int) string {
	if digits == 0 {
		return grouped(int64(f + 0.5))
	}
	return strconv.FormatFloat(f, 'g', digits, 64)
}

// grouped writes 56750218825 as 56 750 218 825: instruction counts run to eleven digits.
func grouped(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteRune(' ')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
