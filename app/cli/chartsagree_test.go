package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/chart"
	"androprof/chart/render"
)

// The chart-equality tests of each run kind (chartsagree_<kind>_test.go) compare what
// `androprof chart` writes with the drawing the window's function makes, through chartsDiffer.

// chartsDiffer writes `androprof chart ARGS` as CSV and as SVG and says how it differs from
// the window's drawing d rendered the same way, or "" when it does not.
func chartsDiffer(t *testing.T, db string, d chart.Drawing, args ...string) string {
	t.Helper()
	const width, height = 900, 600
	for _, ext := range []string{"csv", "svg"} {
		out := filepath.Join(t.TempDir(), "chart."+ext)
		cmd := append([]string{"chart", "--out", out, "--width", fmt.Sprint(width), "--height", fmt.Sprint(height)}, args...)
		if code, stdout, stderr := runCLI(t, db, cmd...); code != 0 {
			t.Fatalf("androprof %v: exit %d\n%s%s", cmd, code, stdout, stderr)
		}
		cli, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		format, err := render.FormatFor(out)
		if err != nil {
			t.Fatal(err)
		}
		var window bytes.Buffer
		if err := render.Render(&window, d, format, width, height); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(cli, window.Bytes()) {
			a, b := whereDiffer(cli, window.Bytes())
			return fmt.Sprintf("%s differs: the command line wrote %d bytes, the window draws %d\nCLI:    …%s…\nwindow: …%s…",
				ext, len(cli), window.Len(), a, b)
		}
	}
	return ""
}

// whereDiffer cuts two files around their first difference, to show in a failure.
func whereDiffer(a, b []byte) (string, string) {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	cut := func(s []byte) string { return strings.ToValidUTF8(string(s[max(i-80, 0):min(i+160, len(s))]), "") }
	return cut(a), cut(b)
}
