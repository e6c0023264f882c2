package controller

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"androprof/formats/traceview"
	"androprof/internal/htmltest"
	"androprof/internal/shapes"
	"androprof/model/calls"
)

// hostileTrace writes a Traceview trace (thread-CPU and real time) whose thread and methods
// are named to break out of a page: markup, quotes, a script end, JS line separators.
func hostileTrace(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tw, err := traceview.NewWriter(f, traceview.WriterOptions{Version: 3, Clock: calls.ClockDual})
	if err != nil {
		t.Fatal(err)
	}
	tw.Thread(calls.ThreadInfo{TID: 1, Name: `<script>document.title="pwned"</script>`})
	names := []string{`<img src=x onerror=alert(1)>`, "</script>\u2028\"'", "]]><!--"}
	for i, n := range names {
		tw.Method(calls.MethodInfo{ID: uint64(4 * (i + 1)), Class: "com/evil/" + n, Name: n, Signature: "()V"})
	}
	var clock uint64
	for depth := range names { // each method calls the next
		clock += 10
		tw.Event(calls.MethodEvent{TID: 1, Method: uint64(4 * (depth + 1)), Action: calls.Enter, ThreadCPU: clock, Wall: clock})
	}
	for depth := len(names) - 1; depth >= 0; depth-- {
		clock += 10
		tw.Event(calls.MethodEvent{TID: 1, Method: uint64(4 * (depth + 1)), Action: calls.Exit, ThreadCPU: clock, Wall: clock})
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
}

// pageOf parses run's page and returns it with its summary and flame graph blocks.
func pageOf(t *testing.T, w *Workspace, run string) (page []byte, summary map[string]any, flameNodes []int64) {
	t.Helper()
	var b bytes.Buffer
	if err := w.HTMLReport(context.Background(), run, &b); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	scripts := 0
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || n.Data != "script" {
			continue
		}
		scripts++
		var into any
		switch id := htmltest.Attr(n, "id"); id {
		case "androprof-summary":
			into = &summary
		case "androprof-flame":
			var f struct{ Nodes []int64 }
			defer func() { flameNodes = f.Nodes }()
			into = &f
		default:
			continue
		}
		if err := json.Unmarshal([]byte(n.FirstChild.Data), into); err != nil {
			t.Fatalf("run %s: a JSON block: %v", run, err)
		}
	}
	if scripts != 3 {
		t.Errorf("run %s: %d scripts, want the summary, the flame graph and the page's", run, scripts)
	}
	return b.Bytes(), summary, flameNodes
}

// A method trace of hostile names makes a page whose only scripts are its own, whose flame
// graph is as wide as the report's total on the clock it says, and whose summary is report's.
func TestHTMLReportOfHostileTrace(t *testing.T) {
	ctx := context.Background()
	w := NewWorkspace(openStore(t))
	path := filepath.Join(t.TempDir(), "hostile.trace")
	hostileTrace(t, path)
	importMethodRun(t, w.Importer(), "evil", path)
	page, summary, nodes := pageOf(t, w, "evil")
	rep, err := w.Methods.Report(ctx, calls.MethodReportOptions{Run: "evil", By: calls.ByMethod})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary["totals.cpu_us"]; got != float64(rep.TotalCPU) || rep.TotalCPU == 0 {
		t.Errorf("summary's thread-CPU total %v, report's %d", got, rep.TotalCPU)
	}
	if len(nodes) < 6*4 || nodes[5] != int64(rep.TotalCPU) { // the root, the thread, three methods
		t.Errorf("flame graph %v; want its root %d µs wide", nodes, rep.TotalCPU)
	}
	for _, raw := range []string{"<script>document", "<img src", "\u2028", "]]><!--"} {
		if bytes.Contains(page, []byte(raw)) {
			t.Errorf("the page holds %q as it is", raw)
		}
	}
	if !bytes.Contains(page, []byte("&lt;img src=x onerror=alert(1)&gt;")) {
		t.Error("the page does not show the method's name as text")
	}
}

// A call chain 20,000 deep makes a page of a few megabytes, its flame graph cut to the
// widest frames, not a page per frame.
func TestHTMLReportOfDeepTrace(t *testing.T) {
	w := NewWorkspace(openStore(t))
	path := filepath.Join(t.TempDir(), "deep.trace")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := shapes.DeepTraceview(f, 20_000); err != nil {
		t.Fatal(err)
	}
	f.Close()
	importMethodRun(t, w.Importer(), "deep", path)
	page, _, nodes := pageOf(t, w, "deep")
	if len(page) > 6<<20 || len(nodes) == 0 {
		t.Errorf("the page is %d bytes, its flame graph %d frames", len(page), len(nodes)/6)
	}
}

// A run the workspace does not have is said by name.
func TestHTMLReportOfMissingRun(t *testing.T) {
	w := NewWorkspace(openStore(t))
	err := w.HTMLReport(context.Background(), "nosuch", &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("error %v; want it to name the run", err)
	}
}
