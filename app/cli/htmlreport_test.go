package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"androprof/controller"
	"androprof/internal/fastlane"
	"androprof/internal/htmltest"
	"androprof/store/workspacedb"
)

// htmlReportRuns are one demo run of each kind, and the keys of report --json each page's
// summary must carry (more may follow).
var htmlReportRuns = []struct {
	run    string
	keys   []string
	charts int
	flame  bool
}{
	{"demo-sieve-arm", []string{"profile", "totals.instructions", "totals.cycles", "totals.time_s", "totals.energy_j", "waterfall.total_cycles"}, 7, false},
	{"demo-methods", []string{"clock", "totals.cpu_us", "totals.real_us", "totals.process_cpu_us"}, 4, true},
	{"demo-heap-cache", []string{"total_allocation_bytes", "total_objects", "max_live_bytes", "live_objects", "gcs"}, 23, false},
	{"demo-heap-dump", []string{"objects", "bytes", "instances", "arrays", "loaded_classes", "roots"}, 4, false},
	{"demo-vertical-phases", []string{"format", "samples.stored", "samples.kept", "samples.left_out"}, 6, true},
}

// htmlReportDB is a demo workspace of the runs above.
func htmlReportDB(t *testing.T) string {
	return demoRunsDB(t, func(run string) bool {
		for _, r := range htmlReportRuns {
			if r.run == run {
				return true
			}
		}
		return false
	})
}

// htmlReport is run's page as the workspace at db writes it.
func htmlReport(t *testing.T, db, run string) []byte {
	t.Helper()
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	var b bytes.Buffer
	if err := ws.HTMLReport(context.Background(), run, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The HTML report of one run of each kind says the numbers report --json says, under the same
// keys, "unknown" only where the JSON has null; draws every chart of its kind and, for runs
// with stacks, carries the flame graph; and names no address outside itself.
func TestHTMLReportNumbersAreReportJSONs(t *testing.T) {
	t.Parallel()
	db := htmlReportDB(t)
	for _, c := range htmlReportRuns {
		t.Run(c.run, func(t *testing.T) {
			code, out, errOut := runCLI(t, db, "report", "--run", c.run, "--json")
			if code != 0 {
				t.Fatalf("report --json: code %d: %s", code, errOut)
			}
			var rep any
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			want := map[string]any{}
			flattenJSON("", rep, want)
			page := htmlReport(t, db, c.run)
			doc, err := html.Parse(bytes.NewReader(page))
			if err != nil {
				t.Fatal(err)
			}
			summary := map[string]any{}
			if err := json.Unmarshal([]byte(htmltest.Text(htmltest.ByID(doc, "androprof-summary"))), &summary); err != nil {
				t.Fatalf("the page's summary block: %v", err)
			}
			for _, k := range c.keys {
				if _, ok := summary[k]; !ok {
					t.Errorf("the summary has no %s", k)
				}
			}
			for k, v := range summary {
				w, ok := want[k]
				switch {
				case !ok:
					t.Errorf("the summary's %s = %v is not a key of report --json", k, v)
				case fmt.Sprint(v) != fmt.Sprint(w) && !(v == nil && w == 0.0 && strings.HasSuffix(k, "_us")):
					t.Errorf("%s: the page says %v, report --json %v", k, v, w)
				}
			}
			checkSummaryRows(t, doc, summary)
			if n := len(htmltest.All(doc, func(n *html.Node) bool { return n.Data == "svg" })); n != c.charts {
				t.Errorf("%d charts, want %d", n, c.charts)
			}
			if flame := htmltest.ByID(doc, "androprof-flame") != nil; flame != c.flame {
				t.Errorf("flame graph: %v, want %v", flame, c.flame)
			}
			checkSelfContained(t, page, doc)
			if len(page) > 8<<20 {
				t.Errorf("the page is %d bytes", len(page))
			}
		})
	}
}

// checkSummaryRows: every number of the summary block is a row of the visible summary, and an
// unknown one reads "unknown".
func checkSummaryRows(t *testing.T, doc *html.Node, summary map[string]any) {
	t.Helper()
	rows := map[string]string{}
	for _, tr := range htmltest.All(doc, func(n *html.Node) bool { return n.Data == "tr" && htmltest.Attr(n, "data-key") != "" }) {
		rows[htmltest.Attr(tr, "data-key")] = htmltest.Text(tr)
	}
	for k, v := range summary {
		text, ok := rows[k]
		if !ok {
			t.Errorf("no summary row for %s", k)
		}
		if v == nil && !strings.Contains(text, "unknown") {
			t.Errorf("summary row %s: %q; want it to say unknown", k, text)
		}
	}
}

// checkSelfContained: no element loads anything from outside the page (every src and href is
// a fragment or a data: URL), no text names a web address, and the page's policy forbids any
// fetch.
func checkSelfContained(t *testing.T, page []byte, doc *html.Node) {
	t.Helper()
	for _, n := range htmltest.All(doc, func(n *html.Node) bool { return n.Type == html.ElementNode }) {
		for _, a := range n.Attr {
			switch strings.ToLower(a.Key) {
			case "src", "href", "xlink:href", "action", "formaction", "poster", "data", "srcset":
				if !strings.HasPrefix(a.Val, "#") && !strings.HasPrefix(a.Val, "data:") {
					t.Errorf("<%s %s=%q> reaches outside the page", n.Data, a.Key, a.Val)
				}
			}
		}
	}
	for _, s := range []string{"http://", "https://", "url(", "@import"} {
		if i := bytes.Index(page, []byte(s)); i >= 0 {
			t.Errorf("the page holds %q: …%s…", s, page[max(0, i-60):min(len(page), i+60)])
		}
	}
	var csp string
	for _, m := range htmltest.All(doc, func(n *html.Node) bool { return n.Data == "meta" }) {
		if htmltest.Attr(m, "http-equiv") == "Content-Security-Policy" {
			csp = htmltest.Attr(m, "content")
		}
	}
	if !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("Content-Security-Policy %q; want default-src 'none'", csp)
	}
}

// flattenJSON puts every scalar of v into out under its dotted path ("totals.cpu_us").
func flattenJSON(path string, v any, out map[string]any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flattenJSON(p, e, out)
		}
	case []any: // rows: the page's summary holds no list
	default:
		out[path] = x
	}
}

// The page of each kind opens in a real browser: headless Chromium runs its script (the
// ?selftest query has the page sort its tables, zoom and search its flame graph and write what
// it saw into #selftest) and takes screenshots, as it opens and after the self-test.
// ANDROPROF_HTML_SHOTS=DIR keeps the pages and screenshots for a person to look at.
func TestHTMLReportInChromium(t *testing.T) {
	fastlane.Needs(t, "chromium")
	db := htmlReportDB(t)
	dir := os.Getenv("ANDROPROF_HTML_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	for _, c := range htmlReportRuns {
		page := filepath.Join(dir, c.run+".html")
		if err := os.WriteFile(page, htmlReport(t, db, c.run), 0o644); err != nil {
			t.Fatal(err)
		}
		dom := htmltest.Chromium(t, "--dump-dom", "file://"+page+"?selftest")
		doc, err := html.Parse(bytes.NewReader(dom))
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Tables []struct {
				Rows   int
				Sorted *bool
			}
			Flame *struct {
				Frames, ZoomedFrames, CallersShown, MatchedShown int
				Root, Zoomed, Tip                                string
				Search                                           struct {
					Frames int
					Total  float64
					Share  float64
				}
			}
		}
		self := htmltest.Text(htmltest.ByID(doc, "selftest"))
		if err := json.Unmarshal([]byte(self), &got); err != nil {
			t.Fatalf("%s: the page's self-test wrote %q: %v", c.run, self, err)
		}
		for i, tab := range got.Tables {
			if tab.Rows == 0 || tab.Sorted != nil && !*tab.Sorted {
				t.Errorf("%s: table %d: %d rows, sorted %v", c.run, i, tab.Rows, tab.Sorted)
			}
		}
		if len(got.Tables) < 2 {
			t.Errorf("%s: %d tables", c.run, len(got.Tables))
		}
		if f := got.Flame; c.flame && (f == nil || f.Frames < 2 || f.ZoomedFrames < 1 || f.CallersShown < 1 ||
			f.Search.Frames < 1 || f.Search.Share <= 0 || f.Search.Share > 1 || f.MatchedShown < 1 || !strings.Contains(f.Tip, "% of all")) {
			t.Errorf("%s: the flame graph's self-test: %s", c.run, self)
		}
		for _, query := range []string{"", "?selftest"} { // as it opens; zoomed and searched
			shot := filepath.Join(dir, c.run+strings.Replace(query, "?", "-", 1)+".png")
			htmltest.Chromium(t, "--screenshot="+shot, "--window-size=1366,2000", "file://"+page+query)
			if st, err := os.Stat(shot); err != nil || st.Size() < 10_000 {
				t.Errorf("%s: screenshot: %v", c.run, err)
			}
		}
	}
}
