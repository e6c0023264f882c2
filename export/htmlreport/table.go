package htmlreport

// Columns of a table built from rows of any type: each column says how it shows a row, so a
// kind's table is a list of columns, not a loop per kind.

// Col is a column of a table of rows of type R: its heading, and its cell of a row.
type Col[R any] struct {
	Title   string
	Numeric bool
	Cell    func(R) Cell
}

// TextCol is a column of names or words.
func TextCol[R any](title string, text func(R) string) Col[R] {
	return Col[R]{title, false, func(r R) Cell { return Text(text(r)) }}
}

// NumCol is a column of numbers, sorted biggest first on a click.
func NumCol[R any](title string, cell func(R) Cell) Col[R] { return Col[R]{title, true, cell} }

// NewTable is rows as a table of cols, the first MaxRows of them; Total says how many there are.
func NewTable[R any](title, note string, rows []R, cols []Col[R]) Table {
	t := Table{Title: title, Note: note, Total: len(rows)}
	for _, c := range cols {
		t.Columns = append(t.Columns, Column{Title: c.Title, Numeric: c.Numeric})
	}
	for _, r := range rows[:Cap(len(rows))] {
		cells := make([]Cell, len(cols))
		for i, c := range cols {
			cells[i] = c.Cell(r)
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}
