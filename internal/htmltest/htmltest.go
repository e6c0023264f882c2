// Package htmltest is for tests of the pages the workbench writes (the HTML report, the exports
// a browser opens): their nodes as a parser sees them, and headless Chromium as a person's
// browser runs them.
package htmltest

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// All lists the nodes under n that keep accepts, in document order.
func All(n *html.Node, keep func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for c := range n.Descendants() {
		if keep(c) {
			out = append(out, c)
		}
	}
	return out
}

// Elements lists the elements under n named tag.
func Elements(n *html.Node, tag string) []*html.Node {
	return All(n, func(c *html.Node) bool { return c.Type == html.ElementNode && c.Data == tag })
}

// ByID is the element under n whose id is id, nil when there is none.
func ByID(n *html.Node, id string) *html.Node {
	found := All(n, func(c *html.Node) bool { return c.Type == html.ElementNode && Attr(c, "id") == id })
	if len(found) == 0 {
		return nil
	}
	return found[0]
}

// Attr is n's attribute key, "" when it has none.
func Attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// Text is the text under n (nil: "").
func Text(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	for c := range n.Descendants() {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// Chromium runs Debian's chromium headless with args (e.g. --dump-dom URL) in a profile of its
// own, letting a page's scripts run for up to 5 s of virtual time, and returns its standard
// output. Call fastlane.Needs(t, "chromium") first.
func Chromium(t testing.TB, args ...string) []byte {
	t.Helper()
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium: %v (Debian's package chromium)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=" + t.TempDir(), "--virtual-time-budget=5000"}
	cmd := exec.CommandContext(ctx, browser, append(base, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.Bytes())
	}
	return out
}
