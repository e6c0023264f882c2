package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"androprof/controller"
	"androprof/isaprofiles"
	"androprof/store/workspacedb"
)

type noGUI struct{}

func (noGUI) Run(*controller.Workspace) error { return nil }

// run executes a command line against a fresh workspace and returns exit code and output.
func runCLI(t *testing.T, db string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	// --db goes before a "--" that ends the flags (androprof run -- PROGRAM ARGS), else last.
	withDB := append([]string{}, args...)
	if i := slices.Index(args, "--"); i >= 0 {
		withDB = slices.Insert(withDB, i, "--db", db)
	} else {
		withDB = append(withDB, "--db", db)
	}
	code := Run(context.Background(), withDB, Env{Stdout: &out, Stderr: &errOut, GUI: noGUI{}, Databases: workspacedb.Databases()})
	return code, out.String(), errOut.String()
}

func TestProfileCheck(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	code, out, errOut := runCLI(t, db, "profile", "check", "../../isaprofiles/testdata/valid.xml")
	if code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("valid file: code %d, %q", code, out)
	}
	code, _, errOut = runCLI(t, db, "profile", "check", "../../isaprofiles/testdata/negative.xml", "../../isaprofiles/testdata/duplicate.xml")
	if code != 1 {
		t.Errorf("invalid files: code %d", code)
	}
	for _, want := range []string{"negative.xml:6:", "duplicate.xml:8:", "2 of 2 files have errors"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("missing %q in %q", want, errOut)
		}
	}
	code, out, _ = runCLI(t, db, "profile", "check", "--json", "../../isaprofiles/testdata/malformed.xml")
	var res []struct {
		OK       bool
		Problems []struct {
			Line    int
			Message string
		}
	}
	if code != 1 || json.Unmarshal([]byte(out), &res) != nil || len(res) != 1 || res[0].OK || res[0].Problems[0].Line != 5 {
		t.Errorf("check --json: code %d, %s", code, out)
	}
	if code, _, _ := runCLI(t, db, "profile", "frobnicate"); code != 2 {
		t.Errorf("unknown subcommand exit %d, want 2", code)
	}
}

func TestProfileImportShowExport(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	if code, _, errOut := runCLI(t, db, "profile", "import", "../../isaprofiles/testdata/valid.xml"); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	code, out, errOut := runCLI(t, db, "profile", "list", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var list []struct{ Name, Origin string }
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range list {
		found = found || (p.Name == "Test & demo" && p.Origin == "database")
	}
	if !found {
		t.Errorf("imported profile not listed: %s", out)
	}
	code, out, _ = runCLI(t, db, "profile", "show", "Test & demo", "--json")
	var shown struct {
		Categories []struct {
			Name   string
			Cycles float64
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &shown) != nil || len(shown.Categories) != 2 || shown.Categories[0].Cycles != 3 {
		t.Errorf("show: %d %s", code, out)
	}
	exported := filepath.Join(dir, "out.xml")
	if code, _, errOut := runCLI(t, db, "profile", "export", "Test & demo", "--out", exported); code != 0 {
		t.Fatal(errOut)
	}
	a, _ := isaprofiles.ReadFile("../../isaprofiles/testdata/valid.xml")
	b, err := isaprofiles.ReadFile(exported)
	if err != nil || a.Name != b.Name || len(a.Categories) != len(b.Categories) {
		t.Errorf("export differs: %v", err)
	}
}

func TestCategorizeFixture(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	prof := filepath.Join(dir, "p.xml")
	os.WriteFile(prof, []byte(`<profile name="p" isa="ARM Thumb">
  <category name="Branch" cycles="3" power-mw="113"><instruction isa="Thumb">BNE</instruction></category>
  <category name="Load" cycles="1" power-mw="1"><instruction isa="ARM">LDR</instruction></category>
</profile>`), 0o644)
	code, out, errOut := runCLI(t, db, "profile", "categorize", "--profile", prof, "--json", "../../formats/qemulog/testdata/arm-7.2.log")
	if code != 0 {
		t.Fatal(errOut)
	}
	var res struct {
		ExecutionsKnown bool  `json:"executions_known"`
		Total           int64 `json:"total_executions"`
		Instructions    []struct {
			ISA, Mnemonic, Category string
			Executions              *int64
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if !res.ExecutionsKnown || res.Total == 0 || len(res.Instructions) == 0 {
		t.Fatalf("result = %+v", res)
	}
	// The profile prices LDR for ARM only: the instruction set counts.
	cats := map[string]string{}
	for _, in := range res.Instructions {
		cats[in.ISA+" "+in.Mnemonic] = in.Category
	}
	if cats["Thumb BNE"] != "Branch" || cats["Thumb LDR"] != "Undefined" {
		t.Errorf("categories = %v", cats)
	}
	if code, _, errOut := runCLI(t, db, "profile", "categorize", "--profile", "cortex-a8", os.DevNull); code != 1 || !strings.Contains(errOut, "not a QEMU") {
		t.Errorf("empty log: code %d %q", code, errOut)
	}
}

// The calculator reproduces seed 000 figure 5.2 on the command line too.
func TestEstimateCommand(t *testing.T) {
	code, out, errOut := runCLI(t, filepath.Join(t.TempDir(), "w.db"), "estimate", "--instructions", "56750218825",
		"--cpi", "13.03", "--frequency-ghz", "1", "--power-w", "0.89", "--memory-energy-nj", "2.61",
		"--base-instructions", "39171751755", "--base-misses", "521966483")
	if code != 0 {
		t.Fatal(errOut)
	}
	for _, want := range []string{"739.45535128975", "0.8926691053428465", "660.0889468768014"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
	if code, _, _ := runCLI(t, filepath.Join(t.TempDir(), "w.db"), "estimate", "--cpi", "-1"); code != 1 {
		t.Errorf("negative CPI: exit %d", code)
	}
}
