package htmlreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"androprof/chart"
	"androprof/internal/fastlane"
	"androprof/internal/htmltest"
	"androprof/internal/termtext"
	"androprof/model/flame"
)

// pwn is what a name that escaped into the page as markup would do: mark the body.
const pwn = `document.body.setAttribute('data-pwned','1')`

// hostile are names a file may hold, each trying to leave the text it is put in: markup,
// quotes for attributes, a CDATA end for SVG, a script end and JS line separators for the
// JSON blocks, control characters and bytes that are not UTF-8.
var hostile = []string{
	`<script>` + pwn + `</script>`,
	`<img src=x onerror="` + pwn + `">`,
	`"'><svg onload=` + pwn + `>`,
	`]]><script>` + pwn + `</script>`,
	"</script><script>" + pwn + "</script>\u2028\u2029",
	"<!-- \x00\x1b[31m\xff\u202e -->",
	`{{.Title}} ${x} \u003c`,
}

// hostileDoc is a page whose every name is hostile.
func hostileDoc() Document {
	h := strings.Join(hostile, " ")
	d := Document{Title: h, Kind: "a method trace", Source: h, Notes: hostile}
	root := &flame.Node{Name: "all", Total: 100}
	bars := chart.Chart{Title: h, YLabel: h, Unit: "µs"}
	t := Table{Title: h, Columns: []Column{{Title: h}, {Title: "value", Numeric: true}}}
	for i, s := range hostile {
		d.Summary = append(d.Summary, Field{Key: fmt.Sprintf("name%d", i), Label: s, Value: s, Unit: s})
		root.Children = append(root.Children, &flame.Node{Name: s, Origin: s, Self: 10, Total: 10})
		bars.Bars = append(bars.Bars, chart.Bar{Label: s, Value: float64(i + 1)})
		t.Rows = append(t.Rows, []Cell{Text(s), Count(i)})
	}
	d.Summary = append(d.Summary, Field{Key: "unknown", Label: "Energy", Value: nil, Unit: "J"})
	d.Flame = &Flame{Title: h, Unit: "µs", Root: root}
	d.Charts = []Chart{{Title: h, Drawing: bars}}
	d.Tables = []Table{t}
	return d
}

func writePage(t *testing.T, d Document) ([]byte, *html.Node) {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, d); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), doc
}

// Hostile names stay text: the page parses to the elements the template writes and no other
// (three scripts, no image, no handler attribute), each name reads as the command line shows it,
// and the summary's JSON block gives each name back as the file had it.
func TestHostileNamesStayText(t *testing.T) {
	page, doc := writePage(t, hostileDoc())
	var scripts int
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "script":
			scripts++
		case "img", "iframe", "object", "embed", "link", "base":
			t.Errorf("the page has an <%s> element", n.Data)
		}
		for _, a := range n.Attr {
			if strings.HasPrefix(strings.ToLower(a.Key), "on") {
				t.Errorf("<%s %s=%q>: a handler attribute", n.Data, a.Key, a.Val)
			}
		}
	}
	if scripts != 3 { // the summary's JSON, the flame graph's JSON, the page's script
		t.Errorf("%d <script> elements, want 3", scripts)
	}
	if h1 := htmltest.Text(htmltest.Elements(doc, "h1")[0]); h1 != shown(strings.Join(hostile, " ")) {
		t.Errorf("the heading reads %q", h1)
	}
	var summary map[string]any
	if err := json.Unmarshal([]byte(htmltest.Text(htmltest.ByID(doc, "androprof-summary"))), &summary); err != nil {
		t.Fatal(err)
	}
	for i, s := range hostile {
		if got := summary[fmt.Sprintf("name%d", i)]; got != strings.ToValidUTF8(s, "\uFFFD") {
			t.Errorf("summary name%d = %q, want %q", i, got, s)
		}
	}
	var f flameData
	if err := json.Unmarshal([]byte(htmltest.Text(htmltest.ByID(doc, "androprof-flame"))), &f); err != nil {
		t.Fatal(err)
	}
	for _, s := range hostile {
		if !strings.Contains(strings.Join(f.Strs, "\n"), termtext.Escape(s)) {
			t.Errorf("the flame graph lost %q", s)
		}
	}
	for _, s := range []string{"\u2028", "\u2029", "\x00", "\x1b", "\xff"} {
		if bytes.Contains(page, []byte(s)) {
			t.Errorf("the page holds %q raw", s)
		}
	}
	if !bytes.Contains(page, []byte(`<td class="num unknown">unknown</td>`)) {
		t.Error("an unknown value does not read unknown")
	}
}

// The page loads nothing: no src or href leaves it, no text names a web address (the SVG
// namespaces are dropped), and its policy forbids fetching anything.
func TestPageIsSelfContained(t *testing.T) {
	page, doc := writePage(t, hostileDoc())
	for n := range doc.Descendants() {
		for _, a := range n.Attr {
			if (a.Key == "src" || a.Key == "href") && !strings.HasPrefix(a.Val, "#") {
				t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
			}
		}
	}
	for _, s := range []string{"http:", "https:", "//www", "url(", "@import"} {
		if bytes.Contains(page, []byte(s)) {
			t.Errorf("the page holds %q", s)
		}
	}
	if !bytes.Contains(page, []byte(`content="default-src 'none';`)) {
		t.Error("no Content-Security-Policy forbidding fetches")
	}
	if n := len(htmltest.Elements(doc, "svg")); n != 1 {
		t.Errorf("%d inline SVGs, want 1", n)
	}
}

// A big table keeps its first MaxRows rows and says how many there are.
func TestTableIsCut(t *testing.T) {
	rows := make([]int, 2000)
	for i := range rows {
		rows[i] = i
	}
	tab := NewTable("Methods", "", rows, []Col[int]{NumCol("n", Count[int])})
	if len(tab.Rows) != MaxRows || tab.Total != len(rows) {
		t.Errorf("NewTable kept %d of %d rows", len(tab.Rows), tab.Total)
	}
	page, doc := writePage(t, Document{Title: "big", Tables: []Table{tab}})
	if n := len(htmltest.Elements(doc, "td")); n != MaxRows {
		t.Errorf("%d cells, want %d", n, MaxRows)
	}
	if !bytes.Contains(page, []byte("The first 500 of 2 000 rows.")) {
		t.Error("the note does not say the table was cut")
	}
}

// A name of a megabyte is cut: a run of long names makes a page of a few megabytes, not one
// per name.
func TestLongNamesAreCut(t *testing.T) {
	long := strings.Repeat("Long", 1<<18)
	d := Document{Title: long, Source: long, Summary: []Field{{Key: "k", Label: long, Value: long}}}
	root := &flame.Node{Name: long, Total: 100}
	tab := Table{Columns: []Column{{Title: "name"}}}
	for i := range 100 {
		root.Children = append(root.Children, &flame.Node{Name: long + fmt.Sprint(i), Total: 1, Self: 1})
		tab.Rows = append(tab.Rows, []Cell{Text(long + fmt.Sprint(i))})
	}
	d.Flame, d.Tables = &Flame{Unit: "samples", Root: root}, []Table{tab}
	if page, _ := writePage(t, d); len(page) > 1<<20 {
		t.Errorf("the page is %d bytes", len(page))
	}
}

// Frames under 0.1% of the root are left out, and the note says how many and how much time.
func TestThinFramesAreLeftOut(t *testing.T) {
	root := &flame.Node{Name: "all", Total: 1_000_000}
	root.Children = append(root.Children, &flame.Node{Name: "hot", Total: 990_000, Self: 990_000})
	for i := range 5000 {
		root.Children = append(root.Children, &flame.Node{Name: fmt.Sprint("cold", i), Total: 2, Self: 2})
	}
	data, note := flameOf(&Flame{Unit: "samples", Root: root})
	if n := len(data.Nodes) / nodeFields; n != 2 {
		t.Errorf("%d frames kept, want the root and hot", n)
	}
	if want := "5 000 frames with their callees, 10 000 samples (1.00%)"; !strings.Contains(note, want) {
		t.Errorf("note %q; want it to say %q", note, want)
	}
}

// A call chain deeper than maxFrames is flattened without recursion and cut to the outermost
// maxFrames frames, each under its caller.
func TestDeepChainIsBounded(t *testing.T) {
	const depth = 3 * maxFrames
	root := &flame.Node{Name: "f0", Total: depth}
	n := root
	for i := 1; i < depth; i++ {
		c := &flame.Node{Name: fmt.Sprint("f", i), Total: int64(depth - i), Self: 1}
		n.Children, n = []*flame.Node{c}, c
	}
	data, note := flameOf(&Flame{Unit: "µs", Root: root})
	if got := len(data.Nodes) / nodeFields; got != maxFrames {
		t.Fatalf("%d frames, want %d", got, maxFrames)
	}
	for i := 1; i < maxFrames; i++ {
		if parent := data.Nodes[i*nodeFields]; parent != int64(i-1) {
			t.Fatalf("frame %d's parent is %d", i, parent)
		}
	}
	if !strings.Contains(note, "only the 40 000 widest") {
		t.Errorf("note %q", note)
	}
}

// The page of hostile names opens in Chromium with its script running (the flame graph draws
// every frame) and none of the names running as script.
func TestHostilePageInChromium(t *testing.T) {
	fastlane.Needs(t, "chromium")
	var b bytes.Buffer
	if err := Write(&b, hostileDoc()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "hostile.html")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := htmltest.Chromium(t, "--dump-dom", "file://"+path)
	doc, err := html.Parse(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	body := htmltest.Elements(doc, "body")[0]
	for _, a := range body.Attr {
		if a.Key == "data-pwned" {
			t.Fatal("a name ran as script")
		}
	}
	frames := 0
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && strings.Contains(htmltest.Attr(n, "class"), "fr") {
			frames++
		}
	}
	if frames != len(hostile)+1 {
		t.Errorf("the flame graph drew %d frames, want %d", frames, len(hostile)+1)
	}
}
