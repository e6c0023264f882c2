package ui

import (
	"cmp"
	"encoding/csv"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/internal/human"
)

// Column describes one column of a SortTable.
type Column[T any] struct {
	Title string
	Width float32
	Text  func(T) string   // as shown
	Raw   func(T) string   // as written to CSV, full precision (nil: text)
	Cmp   func(a, b T) int // sort order (nil: by text)
	Num   bool             // numbers are right-aligned and sort largest first on the first click
	// fit, when set, is told the rows shown and returns the header for them: a quantity column
	// picks its unit ("Time (ms)") from its values.
	Fit func(rows []T) string
	// Key, when set, heads the column in CSV instead of Title: the command line's key for the
	// same number ("l1d_misses"), so a saved table and `report --csv` name it alike.
	Key string
}

// key tells a column that names its row (a function, a method): it is kept in view when the
// table scrolls sideways and takes the room the other columns leave.
func (c Column[T]) key() bool { return !c.Num }

// SortTable is every table of the analysis window: headers that sort on a tap, a row count,
// and "Save CSV…". One helper, so every tab sorts and exports the same way.
type SortTable[T any] struct {
	Table   *widget.Table
	Count   *widget.Label // rows shown, plus what the caller adds (totals)
	SaveCSV *widget.Button

	cols     []Column[T]
	headers  []string // shown over the columns (a quantity column's carries its unit)
	rows     []T
	sortBy   int // -1: the caller's order
	desc     bool
	onSelect func(T)
	win      fyne.Window
	name     string // the CSV file's name, after the subject
	subject  string // what the rows are of, when not the window's run (SetSubject)
	tip      *hoverTip
	width    float32   // the table's, when last laid out
	colW     []float32 // the columns', as fitColumns set them
	body     fyne.CanvasObject
	content  fyne.CanvasObject
}

// NewSortTable makes a table of cols whose Save CSV… suggests name.csv; onSelect, when not nil,
// gets the row tapped.
func NewSortTable[T any](win fyne.Window, name string, cols []Column[T], onSelect func(T)) *SortTable[T] {
	t := &SortTable[T]{sortBy: -1, onSelect: onSelect, win: win, name: name, tip: newHoverTip()}
	t.Table = widget.NewTableWithHeaders(func() (int, int) { return len(t.rows), len(t.cols) },
		func() fyne.CanvasObject { return newTableCell(t.tip) }, t.updateCell)
	t.Table.ShowHeaderColumn = false
	t.Table.CreateHeader = func() fyne.CanvasObject { return newHeaderCell(t.tip) }
	t.Table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		b := o.(*headerCell)
		if id.Col < 0 || id.Col >= len(t.cols) {
			b.SetText("")
			b.OnTapped = nil
			return
		}
		title := t.headers[id.Col]
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
	t.Count = widget.NewLabel("")
	t.Count.Truncation = fyne.TextTruncateEllipsis
	t.SaveCSV = widget.NewButtonWithIcon("Save CSV…", theme.DocumentSaveIcon(), func() {
		AskSavePath(win, t.FileName(), ".csv", t.saveCSV)
	})
	t.SetColumns(cols)
	t.tip.layer = container.NewWithoutLayout()
	t.body = container.New(&tableLayout[T]{t}, t.Table, t.tip.layer)
	return t
}

// SetSubject names what the rows are of when it is not the run the window shows (runs side
// by side): Save CSV… suggests "SUBJECT-NAME.csv".
func (t *SortTable[T]) SetSubject(subject string) { t.subject = subject }

// FileName is the name Save CSV… suggests: the table's name after the run it shows.
func (t *SortTable[T]) FileName() string { return FileName(t.win, t.subject, t.name, ".csv") }

// Content is the table with its row count and Save CSV button.
func (t *SortTable[T]) Content() fyne.CanvasObject {
	if t.content == nil {
		bar := container.NewBorder(nil, nil, nil, t.SaveCSV, t.Count)
		t.content = container.NewBorder(nil, bar, nil, nil, t.body)
	}
	return t.content
}

// Body is the table without its row count and Save CSV button, for a caller that puts them
// elsewhere (two tables over one bar); use Body or Content, not both.
func (t *SortTable[T]) Body() fyne.CanvasObject { return t.body }

// Set shows rows, in the order the user last sorted by.
func (t *SortTable[T]) Set(rows []T) {
	t.rows = slices.Clone(rows)
	t.sort()
	t.setHeaders()
	t.fitColumns()
	t.Table.UnselectAll()
	t.Table.Refresh()
	t.Table.ScrollToTop()
	t.tip.hide()
	t.Count.SetText(human.Count(len(t.rows), "row", "rows"))
}

// setHeaders names the columns for the rows shown.
func (t *SortTable[T]) setHeaders() {
	t.headers = make([]string, len(t.cols))
	for i, c := range t.cols {
		t.headers[i] = c.Title
		if c.Fit != nil {
			t.headers[i] = c.Fit(t.rows)
		}
	}
}

// SetColumns replaces the columns, e.g. for a method trace without a CPU clock; the rows go
// back to the caller's order.
func (t *SortTable[T]) SetColumns(cols []Column[T]) {
	t.cols, t.sortBy, t.desc = cols, -1, false
	t.Table.StickyColumnCount = 0
	if len(cols) > 0 && cols[0].key() {
		t.Table.StickyColumnCount = 1 // the key column stays when the table scrolls sideways
	}
	t.setHeaders()
	for i, c := range cols {
		t.Table.SetColumnWidth(i, c.Width)
	}
	t.fitColumns()
	t.Table.Refresh()
}

// Rows are the rows in the order shown.
func (t *SortTable[T]) Rows() []T { return t.rows }

// Columns are the columns, in order.
func (t *SortTable[T]) Columns() []Column[T] { return t.cols }

// Headers are the column headers shown: a quantity column's carries the unit of the rows shown.
func (t *SortTable[T]) Headers() []string { return t.headers }

// Select selects row i as a tap would.
func (t *SortTable[T]) Select(i int) { t.Table.Select(widget.TableCellID{Row: i, Col: 0}) }

// Unsort goes back to the caller's order, from the next Set on (a report ordered another way).
func (t *SortTable[T]) Unsort() {
	if t.sortBy >= 0 {
		t.sortBy, t.desc = -1, false
		t.fitColumns() // the header sorted by loses its arrow
	}
}

// SortBy sorts by column col; a second tap on the same column reverses the order.
func (t *SortTable[T]) SortBy(col int) {
	if col == t.sortBy {
		t.desc = !t.desc
	} else {
		t.sortBy, t.desc = col, t.cols[col].Num
	}
	t.sort()
	t.fitColumns() // the header sorted by carries an arrow
	t.Table.UnselectAll()
	t.Table.Refresh()
}

func (t *SortTable[T]) sort() {
	if t.sortBy < 0 {
		return
	}
	c := t.cols[t.sortBy]
	by := c.Cmp
	if by == nil {
		by = func(a, b T) int { return cmp.Compare(c.Text(a), c.Text(b)) }
	}
	slices.SortStableFunc(t.rows, func(a, b T) int {
		if t.desc {
			return by(b, a)
		}
		return by(a, b)
	})
}

func (t *SortTable[T]) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	l := o.(*tableCell)
	if id.Row < 0 || id.Row >= len(t.rows) || id.Col < 0 || id.Col >= len(t.cols) {
		l.SetText("")
		return
	}
	c := t.cols[id.Col]
	l.Alignment = fyne.TextAlignLeading
	if c.Num {
		l.Alignment = fyne.TextAlignTrailing
	}
	l.SetText(c.Text(t.rows[id.Row]))
}

// Cell is the text shown at row, col.
func (t *SortTable[T]) Cell(row, col int) string { return t.cols[col].Text(t.rows[row]) }

// WriteCSV writes the rows as shown, numbers in full precision.
func (t *SortTable[T]) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := make([]string, len(t.cols))
	for i, c := range t.cols {
		head[i] = cmp.Or(c.Key, c.Title) // the unit of the raw values, not of the header shown
	}
	cw.Write(head)
	for _, r := range t.rows {
		rec := make([]string, len(t.cols))
		for i, c := range t.cols {
			if c.Raw != nil {
				rec[i] = c.Raw(r)
			} else {
				rec[i] = c.Text(r)
			}
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func (t *SortTable[T]) saveCSV(path string) error {
	return WriteFile(path, t.WriteCSV)
}

// Column helpers: the same numbers look the same in every tab.

// TextCol shows text as it is, sorted by it.
func TextCol[T any](title string, width float32, text func(T) string) Column[T] {
	return Column[T]{Title: title, Width: width, Text: text}
}

// IntCol shows a count, grouped: 1 131 442.
func IntCol[T any](title string, width float32, v func(T) int64) Column[T] {
	return Column[T]{Title: title, Width: width, Num: true,
		Text: func(r T) string { return human.Grouped(v(r)) },
		Raw:  func(r T) string { return strconv.FormatInt(v(r), 10) },
		Cmp:  func(a, b T) int { return cmp.Compare(v(a), v(b)) }}
}

// IDCol shows an identifier (a pid, a tid) as written, "27464" rather than "27 464": it
// names a process, it does not count anything.
func IDCol[T any](title string, width float32, v func(T) int64) Column[T] {
	c := IntCol(title, width, v)
	c.Text = c.Raw
	return c
}

// FloatCol shows digits significant digits ('f' with 0 decimals when digits is 0, for cycles).
func FloatCol[T any](title string, width float32, digits int, v func(T) float64) Column[T] {
	return Column[T]{Title: title, Width: width, Num: true,
		Text: func(r T) string { return FormatFloat(v(r), digits) },
		Raw:  func(r T) string { return strconv.FormatFloat(v(r), 'g', -1, 64) },
		Cmp:  func(a, b T) int { return cmp.Compare(v(a), v(b)) }}
}

// PctCol shows a percentage with one decimal.
func PctCol[T any](title string, v func(T) float64) Column[T] {
	c := FloatCol(title, 80, 0, v)
	c.Text = func(r T) string { return strconv.FormatFloat(v(r), 'f', 1, 64) }
	return c
}

// QuantityCol shows a physical quantity (seconds, joules, watts) in one unit for the whole
// column, picked from the values shown, with two decimals: "Energy (µJ)" over 2 036.43, 42.93
// and 1.18 compares down the column as 0.00203643, 4.293e-05 and 1.18e-06 do not. The CSV
// keeps the base unit at full precision under the title "name (unit)".
func QuantityCol[T any](name, unit string, width float32, v func(T) float64) Column[T] {
	scale := human.SIPrefix{Factor: 1}
	c := FloatCol(name+" ("+unit+")", width, 0, v)
	c.Fit = func(rows []T) string {
		vals := make([]float64, len(rows))
		for i, r := range rows {
			vals[i] = v(r)
		}
		scale = scaleFor(vals)
		return name + " (" + scale.Symbol + unit + ")"
	}
	c.Text = func(r T) string { return Fixed(v(r)/scale.Factor, 2) }
	return c
}

// siScales are the prefixes a column may take (not T: no cost column reaches 10^12).
var siScales = human.SIPrefixes[1:]

// scaleFor picks the prefix a column of values reads best in: the largest that leaves the
// smallest non-zero value at least 1, as long as the largest stays under a million.
func scaleFor(vals []float64) human.SIPrefix {
	hi, lo := 0.0, math.Inf(1)
	for _, v := range vals {
		if a := math.Abs(v); a > 0 && !math.IsInf(a, 0) && !math.IsNaN(a) {
			hi, lo = max(hi, a), min(lo, a)
		}
	}
	if hi == 0 {
		return human.SIPrefix{Factor: 1}
	}
	i := 0
	for i < len(siScales)-1 && hi/siScales[i].Factor < 0.9995 {
		i++ // the largest value's own prefix
	}
	for i < len(siScales)-1 && lo/siScales[i].Factor < 1 && hi/siScales[i+1].Factor < 999_999.995 {
		i++
	}
	return siScales[i]
}

// Fixed writes f with decimals decimals and its whole part grouped: 2 036.43.
func Fixed(f float64, decimals int) string {
	s := strconv.FormatFloat(f, 'f', decimals, 64)
	whole, frac, _ := strings.Cut(s, ".")
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return s
	}
	g := human.Grouped(n)
	if n == 0 && strings.HasPrefix(whole, "-") {
		g = "-0"
	}
	if frac == "" {
		return g
	}
	return g + "." + frac
}

// FormatFloat writes digits significant digits in plain decimals, 0.0000388 rather than
// 3.88e-05, or a whole number grouped when digits is 0 (cycles).
func FormatFloat(f float64, digits int) string {
	if digits == 0 {
		return human.Grouped(int64(math.Round(f)))
	}
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	mag := int(math.Floor(math.Log10(math.Abs(f))))
	s := strconv.FormatFloat(f, 'f', max(0, digits-1-mag), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}
