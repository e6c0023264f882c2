package htmlreport

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"androprof/chart/render"
	"androprof/internal/human"
	"androprof/internal/termtext"
)

// Chart size in the page: the SVG scales to the page's width, this is its shape.
const chartWidth, chartHeight = 1100, 620

// maxNote is the most display columns of a note: a warning may quote a name from a file.
const maxNote = 2000

// maxRawString bounds a string of the summary's JSON block: a command line near the 1 MiB
// line limit would otherwise be copied whole.
const maxRawString = 4096

var (
	//go:embed report.html
	pageText string
	//go:embed report.css
	pageCSS string
	//go:embed report.js
	pageJS string

	page = template.Must(template.New("report").Parse(pageText))
)

// pageData is what the template reads: the document with its charts drawn and its names made
// safe to show.
type pageData struct {
	Title, Kind, Source string
	Summary             []shownField
	SummaryJSON         map[string]any
	Notes               []string
	Charts              []shownChart
	Tables              []shownTable
	Flame               *shownFlame
	CSS                 template.CSS
	JS                  template.JS
}

type shownField struct {
	Key, Label, Text, Unit string
	Unknown, Words         bool // Words: a name or a sentence, not a number
}

type shownChart struct {
	Title string
	SVG   template.HTML
}

type shownTable struct {
	Title, Note string
	Columns     []Column
	Rows        [][]shownCell
}

type shownCell struct {
	Text, Sort string
	Numeric    bool
}

type shownFlame struct {
	Title, Note string
	Data        flameData
}

// Write writes d as one HTML page. Every name from a file is shown as the command line shows
// it (escaped, cut) and HTML-escaped by html/template; charts are drawn as SVG through
// chart/render. A chart that cannot be drawn fails the page, naming the chart.
func Write(w io.Writer, d Document) error {
	p := pageData{Title: shown(d.Title), Kind: shown(d.Kind), Source: shown(d.Source), SummaryJSON: map[string]any{},
		CSS: template.CSS(pageCSS), JS: template.JS(pageJS)}
	for _, f := range d.Summary {
		_, words := f.Value.(string)
		p.Summary = append(p.Summary, shownField{Key: shown(f.Key), Label: shown(f.Label), Text: valueText(f.Value), Unit: shown(f.Unit),
			Unknown: f.Value == nil, Words: words})
		p.SummaryJSON[f.Key] = rawValue(f.Value)
	}
	for _, n := range d.Notes {
		p.Notes = append(p.Notes, shownCut(n, maxNote))
	}
	for _, c := range d.Charts {
		svg, err := inlineSVG(c.Drawing)
		if err != nil {
			return fmt.Errorf("chart %q: %w", c.Title, err)
		}
		p.Charts = append(p.Charts, shownChart{Title: shown(c.Title), SVG: svg})
	}
	for _, t := range d.Tables {
		p.Tables = append(p.Tables, tableOf(t))
	}
	if d.Flame != nil {
		data, note := flameOf(d.Flame)
		p.Flame = &shownFlame{Title: shown(d.Flame.Title), Note: note, Data: data}
		p.Flame.Data.Unit = shown(data.Unit)
	}
	var buf bytes.Buffer // a failed page writes nothing
	if err := page.Execute(&buf, p); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// shown is a name from a file as the page shows it: escaped as the command line escapes it
// (control characters, line separators, bidi overrides and broken bytes written as \x1b,
// \u2028 …) and cut to a table's last cell. Every text of the page goes through it.
func shown(s string) string { return shownCut(s, termtext.MaxLastCell) }

// shownCut is s escaped and cut to width columns. Only the bytes that can fit are read, so a
// name of a megabyte costs what is shown.
func shownCut(s string, width int) string {
	limit := 4 * width // a rune is at most 4 bytes and takes at least a column, but for marks
	cut := len(s) > limit
	if cut {
		s = cutBytes(s, limit)
	}
	out := termtext.Cut(termtext.Escape(s), width)
	if cut && !strings.HasSuffix(out, "…") {
		out += "…"
	}
	return out
}

// tableOf is t as the page shows it: at most MaxRows rows, a note saying how many there are.
func tableOf(t Table) shownTable {
	rows := t.Rows[:min(len(t.Rows), MaxRows)]
	total := max(t.Total, len(t.Rows))
	out := shownTable{Title: shown(t.Title), Note: shownCut(t.Note, maxNote)}
	for _, c := range t.Columns {
		out.Columns = append(out.Columns, Column{Title: shown(c.Title), Numeric: c.Numeric})
	}
	if len(rows) < total {
		out.Note = strings.TrimSpace(fmt.Sprintf("%s The first %s of %s rows.", out.Note, human.Grouped(len(rows)), human.Grouped(total)))
	}
	for _, r := range rows {
		cells := make([]shownCell, len(t.Columns))
		for i := range cells {
			c := Text("")
			if i < len(r) {
				c = r[i]
			}
			numeric := t.Columns[i].Numeric
			cells[i] = shownCell{Text: shown(c.Text), Numeric: numeric}
			if numeric && c.Known {
				cells[i].Sort = strconv.FormatFloat(c.Sort, 'g', -1, 64)
			}
		}
		out.Rows = append(out.Rows, cells)
	}
	return out
}

// valueText is a summary value as a person reads it; nil is "unknown".
func valueText(v any) string {
	switch x := v.(type) {
	case nil:
		return "unknown"
	case string:
		return shown(x)
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case float64:
		return numberText(x)
	case float32:
		return numberText(float64(x))
	}
	if f, ok := asFloat(v); ok {
		return numberText(f)
	}
	return shown(fmt.Sprint(v))
}

// rawValue is a summary value for the page's JSON block: the value report --json writes
// (null when unknown), a long string cut.
func rawValue(v any) any {
	if s, ok := v.(string); ok && len(s) > maxRawString {
		return strings.ToValidUTF8(cutBytes(s, maxRawString), "\uFFFD") + "…"
	}
	return v
}

// cutBytes is s's first n bytes, not splitting a rune.
func cutBytes(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// asFloat reads an integer of any Go type as a float64.
func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint:
		return float64(x), true
	}
	return 0, false
}

// svgRoot is the start of an SVG's root element, with the namespace declarations an SVG
// file needs and HTML does not: they are the page's only URLs, though no browser fetches them.
var (
	svgRoot      = regexp.MustCompile(`<svg\b[^>]*>`)
	svgNamespace = regexp.MustCompile(`\s+xmlns(:\w+)?="[^"]*"`)
)

// inlineSVG draws d as SVG for the page's body: from its root element on, without the
// namespace declarations, with a class the page's style sizes.
func inlineSVG(d render.Drawing) (template.HTML, error) {
	var buf bytes.Buffer
	if err := render.Render(&buf, d, render.SVG, chartWidth, chartHeight); err != nil {
		return "", err
	}
	s := buf.String()
	loc := svgRoot.FindStringIndex(s)
	if loc == nil {
		return "", fmt.Errorf("the chart drew no SVG")
	}
	open := svgNamespace.ReplaceAllString(s[loc[0]:loc[1]], "")
	open = strings.Replace(open, "<svg", `<svg class="chart" role="img"`, 1)
	return template.HTML(open + s[loc[1]:]), nil // chart/render escapes every text it draws
}
