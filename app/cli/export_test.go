package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"androprof/internal/corpus"
	"androprof/internal/fastlane"
)

// Every format of every kind that has one, from the command line: each file opens as its
// format says (JSON with its events or profiles, pprof with samples), --json says what was
// written, and a format the run's kind lacks is a usage error listing the formats it has.
func TestExportEveryFormat(t *testing.T) {
	keep := map[string]bool{"demo-methods": true, "demo-vertical-phases": true, "demo-heap-cache": true, "demo-sieve-arm": true}
	db := demoRunsDB(t, func(run string) bool { return keep[run] })
	dir := t.TempDir()
	for _, c := range []struct {
		run, format string
		check       func(t *testing.T, data []byte)
	}{
		{"demo-methods", "chrome", jsonHas("traceEvents")},
		{"demo-methods", "perfetto", nonEmpty},
		{"demo-methods", "speedscope", jsonHas("profiles")},
		{"demo-methods", "folded", foldedLines},
		{"demo-methods", "pprof", pprofSamples},
		{"demo-vertical-phases", "speedscope", jsonHas("profiles")},
		{"demo-vertical-phases", "folded", foldedLines},
		{"demo-vertical-phases", "pprof", pprofSamples},
		{"demo-heap-cache", "chrome", jsonHas("traceEvents")},
		{"demo-methods", "html", htmlPage},
		{"demo-vertical-phases", "html", htmlPage},
		{"demo-heap-cache", "html", htmlPage},
		{"demo-sieve-arm", "html", htmlPage},
	} {
		t.Run(c.run+"/"+c.format, func(t *testing.T) {
			out := filepath.Join(dir, c.run+"."+c.format)
			code, stdout, errOut := runCLI(t, db, "export", "--run", c.run, "--format", c.format, "--out", out, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var s struct{ Events int }
			if err := json.Unmarshal([]byte(stdout), &s); err != nil || s.Events == 0 && c.format != "html" {
				t.Errorf("--json: %v %q", err, stdout)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, data)
		})
	}
	for _, c := range []struct{ run, format, says string }{
		{"demo-vertical-phases", "chrome", "speedscope, folded, pprof"},
		{"demo-heap-cache", "pprof", "chrome"},
		{"demo-sieve-arm", "chrome", "html"},
		{"demo-methods", "svg", "chrome, perfetto, speedscope, folded, pprof, html"},
	} {
		code, _, errOut := runCLI(t, db, "export", "--run", c.run, "--format", c.format, "--out", filepath.Join(dir, "x"))
		if code != 2 || !strings.Contains(errOut, c.says) {
			t.Errorf("%s as %s: exit %d, %q; want a usage error listing %s", c.run, c.format, code, errOut, c.says)
		}
	}
	if code, _, errOut := runCLI(t, db, "export", "--run", "demo-vertical-phases", "--format", "pprof", "--clock", "cpu", "--out", filepath.Join(dir, "x")); code != 2 {
		t.Errorf("--clock on a sampled run: exit %d %q", code, errOut)
	}
}

// htmlPage checks an HTML report: one page, its data inside (the report's own tests check
// its numbers).
func htmlPage(t *testing.T, data []byte) {
	t.Helper()
	if !bytes.HasPrefix(data, []byte("<!DOCTYPE html>")) || !bytes.Contains(data, []byte("</html>")) {
		t.Errorf("not a whole HTML page: %.80q", data)
	}
}

func jsonHas(key string) func(t *testing.T, data []byte) {
	return func(t *testing.T, data []byte) {
		t.Helper()
		var v map[string]json.RawMessage
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		if len(v[key]) < 3 {
			t.Errorf("no %s: %.200s", key, data)
		}
	}
}

func nonEmpty(t *testing.T, data []byte) {
	if len(data) == 0 {
		t.Error("empty")
	}
}

func foldedLines(t *testing.T, data []byte) {
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < 2 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if i := strings.LastIndexByte(l, ' '); i <= 0 || strings.Trim(l[i+1:], "0123456789") != "" {
			t.Fatalf("not a folded line: %q", l)
		}
	}
}

func pprofSamples(t *testing.T, data []byte) {
	p, err := profile.ParseData(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Sample) == 0 || len(p.Sample[0].Label["thread"]) == 0 {
		t.Errorf("%d samples, the first labelled %v", len(p.Sample), p.Sample)
	}
}

// speedscopeRelease installs npm's speedscope (its built page, dist/release) for a test.
func speedscopeRelease(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "--prefer-offline", "speedscope@1.25.0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install speedscope: %v\n%s", err, out)
	}
	return filepath.Join(dir, "node_modules", "speedscope", "dist", "release")
}

// The speedscope files of a method trace and of a sampled run open in speedscope itself
// (npm's speedscope 1.25.0 in headless Chromium): it names the file's first profile, a thread,
// and its importer warns of nothing (a frame closed out of order, left open, a file it cannot
// read).
func TestSpeedscopeOpensTheExports(t *testing.T) {
	fastlane.Needs(t, "chromium and npm's speedscope")
	release := speedscopeRelease(t)
	keep := map[string]bool{"demo-methods": true, "demo-vertical-phases": true}
	db := demoRunsDB(t, func(run string) bool { return keep[run] })
	mustRun(t, db, "import", "--run", "jag", corpus.File(t, "jag-dmtrace.trace"))
	srv := httptest.NewServer(http.FileServer(http.Dir(release)))
	defer srv.Close()
	for _, run := range []string{"demo-methods", "demo-vertical-phases", "jag"} {
		t.Run(run, func(t *testing.T) {
			name := run + ".speedscope.json"
			mustRun(t, db, "export", "--run", run, "--format", "speedscope", "--out", filepath.Join(release, name))
			cmd := exec.Command("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000",
				"--enable-logging=stderr", "--v=0", "--dump-dom", srv.URL+"/index.html#profileURL=/"+name)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			dom, err := cmd.Output()
			if err != nil {
				t.Fatalf("chromium: %v", err)
			}
			if !strings.Contains(string(dom), "<title>run "+run+" - speedscope</title>") || !strings.Contains(string(dom), ">thread ") {
				t.Errorf("speedscope shows no profile of %s:\n%.3000s", run, dom)
			}
			for _, line := range strings.Split(stderr.String(), "\n") {
				if strings.Contains(line, "CONSOLE") && (strings.Contains(line, "Tried to") || strings.Contains(line, "still open") ||
					strings.Contains(line, "Failed") || strings.Contains(line, "rror")) {
					t.Errorf("speedscope: %.300s", line)
				}
			}
		})
	}
}
