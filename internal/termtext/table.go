package termtext

import (
	"io"
	"strings"
)

// Table lines up tab-separated cells in columns as text/tabwriter does (padding 2, blocks
// of lines with the same number of cells share their widths), with what tabwriter lacks for
// names from files: a cell is measured in display columns (a Chinese class name is two per
// letter), escaped, and cut: to MaxCell columns when it sets a column's width, to
// MaxLastCell when it ends its line.
// Write the rows with fmt.Fprintf(t, "a\tb\n"), then Flush.
type Table struct {
	w     io.Writer
	right bool // cells end at their column's right edge (numbers)
	buf   strings.Builder
}

// padding is the space between columns.
const padding = 2

// NewTable makes a table of left-aligned cells writing to w.
func NewTable(w io.Writer) *Table { return &Table{w: w} }

// NewRightTable makes a table whose cells are right-aligned, as numbers read best;
// tabwriter.AlignRight's layout.
func NewRightTable(w io.Writer) *Table { return &Table{w: w, right: true} }

// Write takes text to lay out at Flush.
func (t *Table) Write(p []byte) (int, error) { return t.buf.Write(p) }

// Flush writes what was written since the last Flush, laid out.
func (t *Table) Flush() error {
	text := t.buf.String()
	t.buf.Reset()
	if text == "" {
		return nil
	}
	var rows [][]string
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		cells := strings.Split(line, "\t")
		if i == len(lines)-1 && len(cells) > 1 && cells[len(cells)-1] == "" {
			cells = cells[:len(cells)-1] // tabwriter's: an unfinished line's last tab ends no cell
		}
		for i, c := range cells {
			most := MaxCell
			if i == len(cells)-1 {
				most = MaxLastCell
			}
			cells[i] = Cut(Escape(c), most)
		}
		rows = append(rows, cells)
	}
	var out strings.Builder
	t.format(&out, rows, nil)
	_, err := io.WriteString(t.w, strings.TrimSuffix(out.String(), "\n")) // the text's last line had no line break
	return err
}

// format writes rows whose first len(widths) columns have those widths: each run of rows
// with a cell in the next column is a block sharing that column's width (tabwriter's rule,
// so a title line between two tables keeps them apart).
func (t *Table) format(out *strings.Builder, rows [][]string, widths []int) {
	col := len(widths)
	for i := 0; i < len(rows); {
		if col >= len(rows[i])-1 { // no tab-ended cell in this column
			t.writeRow(out, rows[i], widths)
			i++
			continue
		}
		j, width := i, 0
		for ; j < len(rows) && col < len(rows[j])-1; j++ {
			width = max(width, Width(rows[j][col])+padding)
		}
		t.format(out, rows[i:j], append(widths, width))
		i = j
	}
}

// writeRow writes one row padded to widths, and a line break.
func (t *Table) writeRow(out *strings.Builder, cells []string, widths []int) {
	for j, c := range cells {
		pad := ""
		if j < len(widths) {
			pad = strings.Repeat(" ", max(widths[j]-Width(c), 0))
		}
		if t.right && c != "" {
			out.WriteString(pad + c)
		} else {
			out.WriteString(c + pad)
		}
	}
	out.WriteByte('\n')
}
