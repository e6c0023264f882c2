package cli

import (
	"encoding/json"
	"encoding/xml"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/emulator/qemutest"
)

// runsJSON returns the workspace's runs as `androprof runs --json` prints them.
func runsJSON(t *testing.T, db string) string {
	t.Helper()
	code, out, errOut := runCLI(t, db, "runs", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	return out
}

// The command line end to end on a real program: run it under the plugin, import its QEMU log,
// report, chart, and refuse bad input without touching the workspace.
func TestRunImportReportChart(t *testing.T) {
	tg := qemutest.Targets[0] // ARM: main in ARM, glibc in Thumb-2
	bin := qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), "sieve.c"))
	log := qemutest.Log(t, tg, bin, []string{"-d", "in_asm,exec,nochain"}, "3000")
	want := qemutest.SinglestepCount(t, tg, bin, nil, "3000")

	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	if code, _, errOut := runCLI(t, db, "run", "--run", "plugin", "--", bin, "3000"); code != 0 {
		t.Fatalf("run: %s", errOut)
	}
	if code, _, errOut := runCLI(t, db, "import", "--run", "log", log); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	code, out, errOut := runCLI(t, db, "report", "--run", "log", "--by", "category", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var rep struct {
		Totals struct {
			Instructions int64   `json:"instructions"`
			Cycles       float64 `json:"cycles"`
			TimeS        float64 `json:"time_s"`
			EnergyJ      float64 `json:"energy_j"`
		} `json:"totals"`
		Rows []struct {
			Key          string `json:"key"`
			Instructions int64  `json:"instructions"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Totals.Instructions != want || rep.Totals.Cycles <= 0 || rep.Totals.EnergyJ <= 0 {
		t.Errorf("report totals %+v; qemu -singlestep counted %d instructions", rep.Totals, want)
	}
	for _, r := range rep.Rows {
		if r.Key == "Undefined" && r.Instructions > 0 {
			t.Errorf("%d instructions in Undefined", r.Instructions)
		}
	}
	for _, by := range []string{"pid", "bb", "insn", "function"} {
		if code, _, errOut := runCLI(t, db, "report", "--run", "plugin", "--by", by, "--top", "5"); code != 0 {
			t.Errorf("report --by %s: %s", by, errOut)
		}
	}

	svg, pngFile := filepath.Join(dir, "c.svg"), filepath.Join(dir, "c.png")
	if code, _, errOut := runCLI(t, db, "chart", "--run", "log", "--by", "category", "--out", svg); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut = runCLI(t, db, "chart", "--compare", "log,plugin", "--metric", "energy", "--out", pngFile, "--json")
	var charted struct{ Out string }
	if code != 0 || json.Unmarshal([]byte(out), &charted) != nil || charted.Out != pngFile {
		t.Fatalf("chart --json: %d %s %s", code, out, errOut)
	}
	checkXML(t, svg)
	f, err := os.Open(pngFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if img, err := png.Decode(f); err != nil || img.Bounds().Dx() != 1200 {
		t.Errorf("chart PNG: %v", err)
	}

	// Bad input: a truncated log, a file of another kind, a missing qemu. Each names the
	// file or tool, and the workspace stays as it was.
	before := runsJSON(t, db)
	truncated := filepath.Join(dir, "cut.log")
	full, _ := os.ReadFile(log)
	cut := len(full) / 2
	for full[cut-1] == '\n' { // a cut right after a line is just a shorter log; cut mid-line
		cut++
	}
	os.WriteFile(truncated, full[:cut], 0o644)
	code, _, errOut = runCLI(t, db, "import", "--run", "cut", truncated)
	if code != 1 || !strings.Contains(errOut, "cut.log:") || !strings.Contains(errOut, "unchanged") {
		t.Errorf("truncated log: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCLI(t, db, "import", "--run", "notes", "../../README.md")
	if code != 1 || !strings.Contains(errOut, "README.md") {
		t.Errorf("foreign file: exit %d, %q", code, errOut)
	}
	t.Setenv("PATH", t.TempDir())
	code, _, errOut = runCLI(t, db, "run", "--run", "noqemu", "--", bin, "10")
	if code != 1 || !strings.Contains(errOut, "qemu-arm") {
		t.Errorf("missing qemu: exit %d, %q", code, errOut)
	}
	if after := runsJSON(t, db); after != before {
		t.Errorf("failed commands changed the runs:\n%s\n%s", before, after)
	}
}

func checkXML(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	for {
		if _, err := dec.Token(); err == io.EOF {
			return
		} else if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", path, err)
		}
	}
}
