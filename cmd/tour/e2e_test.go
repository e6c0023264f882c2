//go:build linux

package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"androprof/emulator/qemutest"
	"androprof/internal/corpus"
	"androprof/internal/human"
	"androprof/isaprofiles"
	"androprof/model/cost"
	"androprof/view/ui"
)

// TestRealWindow is the workbench as a person uses it: the built program in a real window,
// real clicks and keys, outcomes checked on disk and on screen. One program runs through every
// step in order, as one session would (a first start imports the demo runs once). With
// ANDROPROF_E2E_SHOTS=DIR each window is also saved as PNG at 900×600 and 1920×1080.
func TestRealWindow(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the real program on a private X server")
	}
	d := startDisplay(t)
	p := d.startApp(t)
	analysis := p.waitWindow(t, "Analysis")
	work := t.TempDir()

	t.Run("every file dialog of the analysis window opens and cancels", func(t *testing.T) {
		for _, button := range []string{"Save PNG…", "Save SVG…", "Save CSV…"} {
			analysis.click(t, button)
			browseAndCancel(t, analysis, button)
		}
	})
	t.Run("Save PNG, SVG and CSV write valid files", func(t *testing.T) {
		for _, f := range []struct {
			button, file string
			valid        func([]byte) error
		}{
			{"Save PNG…", "processes.png", validPNG},
			{"Save SVG…", "processes.svg", validSVG},
			{"Save CSV…", "processes.csv", validCSV},
		} {
			path := filepath.Join(work, f.file)
			analysis.click(t, f.button)
			analysis.typeText(t, path)
			analysis.key(t, "Return")
			waitFile(t, p, path, f.valid)
		}
	})

	t.Run("import a method trace by dialog", func(t *testing.T) {
		trace, err := filepath.Abs(filepath.Join(corpus.Dir(), "sns-logout.trace"))
		if err != nil {
			t.Fatal(err)
		}
		analysis.key(t, "ctrl+i")
		analysis.typeText(t, trace) // the source; the run is named after it
		analysis.key(t, "Return")
		if _, ok := analysis.row(t, "sns-logout", 60*time.Second); !ok {
			t.Fatalf("the runs list shows no sns-logout:\n%s", analysis.describe(t))
		}
		// Its hottest method: sorted by exclusive CPU time, the top row is the one the command
		// line's report puts first by the same measure.
		want := hottestMethod(t, p, "sns-logout")
		analysis.sortBy(t, "Excl CPU µs", "▼")
		deadline := time.Now().Add(10 * time.Second)
		for analysis.topCell(t, "Name") != want && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
		}
		if top := analysis.topCell(t, "Name"); top != want {
			analysis.screenshot(t, "failed-hottest-method")
			t.Fatalf("sorted by Excl CPU µs the top method is %q, want %q", top, want)
		}
		analysis.screenshot(t, "journey-import-trace")
	})
	t.Run("run a program by dialog, for ARM and for MIPS", func(t *testing.T) {
		src := filepath.Join(qemutest.SamplesDir(), "sieve.c")
		for _, tg := range []qemutest.Target{qemutest.Targets[0], qemutest.Targets[2]} {
			bin := qemutest.Build(t, tg, src)
			analysis.key(t, "ctrl+r")
			analysis.typeText(t, bin)
			analysis.key(t, "Tab") // to the arguments, past Browse…
			analysis.typeText(t, "5000")
			analysis.key(t, "Tab") // to the run's name
			analysis.typeText(t, "sieve-"+tg.Name)
			analysis.key(t, "Return")
			if _, ok := analysis.row(t, "sieve-"+tg.Name, 120*time.Second); !ok {
				t.Fatalf("the runs list shows no sieve-%s:\n%s", tg.Name, analysis.describe(t))
			}
		}
		analysis.screenshot(t, "journey-run-programs")
	})
	t.Run("a failed run says how the program ended and what it wrote, until the next run", func(t *testing.T) {
		failedRunJourney(t, analysis)
	})

	t.Run("compare the ARM and the MIPS run, each priced for its own processor", func(t *testing.T) {
		analysis.key(t, "ctrl+8") // Compare
		// The list of runs to tick is longer than the tab: the sieve runs are scrolled to.
		first, ok := analysis.findBy(t, 10*time.Second, func(c ui.WidgetPos) bool { return c.Type == "*widget.Check" && c.Text != "Per image" },
			leftmost)
		if !ok {
			t.Fatalf("Compare lists no runs:\n%s", analysis.describe(t))
		}
		for _, run := range []string{"sieve-arm", "sieve-mips"} {
			c, ok := analysis.wheelTo(t, func(c ui.WidgetPos) bool { return c.Text == run && c.Type == "*widget.Check" }, first)
			if !ok {
				t.Fatalf("Compare lists no %s:\n%s", run, analysis.describe(t))
			}
			analysis.clickAt(t, c)
		}
		deadline := time.Now().Add(20 * time.Second)
		var profiles []string
		for ; time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
			if profiles = analysis.column(t, "Profile"); len(profiles) == 2 {
				break
			}
		}
		analysis.screenshot(t, "journey-compare")
		if len(profiles) != 2 || profiles[0] == profiles[1] {
			t.Fatalf("Compare priced the ARM and the MIPS run with %q", profiles)
		}
	})
	t.Run("the figure 5.2 estimate, explained and rounded", func(t *testing.T) {
		analysis.clickAt(t, analysis.runRow(t, "demo-sieve-arm"))
		// An ARM run opens under the default profile, the seed's processor with its measured CPI.
		if _, ok := analysis.findBy(t, 10*time.Second, func(c ui.WidgetPos) bool {
			return c.Type == "*widget.Select" && c.Text == "ARMv7-A Cortex-A8"
		}, leftmost); !ok {
			t.Fatalf("demo-sieve-arm does not open under the ARMv7-A Cortex-A8:\n%s", analysis.describe(t))
		}
		analysis.key(t, "ctrl+7") // Estimate
		if _, ok := analysis.findBy(t, 10*time.Second, func(c ui.WidgetPos) bool { return strings.HasPrefix(c.Text, "Why they differ") },
			leftmost); !ok {
			t.Fatalf("the Estimate tab does not say why its two estimates differ:\n%s", analysis.describe(t))
		}
		cycles := regexp.MustCompile(`^[0-9.]+ [kMG]? ?cycles$`)
		if _, ok := analysis.findBy(t, 10*time.Second, func(c ui.WidgetPos) bool { return cycles.MatchString(c.Text) },
			leftmost); !ok {
			t.Fatalf("the Estimate tab shows no rounded cycles:\n%s", analysis.describe(t))
		}
		analysis.screenshot(t, "journey-estimate")
	})

	t.Run("a vertical profile: import samples, one thread's layers, a symbol's callers, the flame graph", func(t *testing.T) {
		// A recording made elsewhere, imported by dialog, becomes a sampled run.
		rec, err := filepath.Abs("../../formats/perfscript/testdata/java.perfscript.gz")
		if err != nil {
			t.Fatal(err)
		}
		analysis.key(t, "ctrl+i")
		analysis.typeText(t, rec)
		analysis.key(t, "Return")
		if _, ok := analysis.row(t, "java", 60*time.Second); !ok { // java.perfscript.gz
			t.Fatalf("the runs list shows no java:\n%s", analysis.describe(t))
		}
		// The demo's four-phase program: the native phase's thread alone keeps the samples the
		// command line counts for it, and its top symbol is the command line's.
		const run, thread = "demo-vertical-phases", "phase-native"
		var threads struct {
			Rows []struct {
				Comm    string `json:"comm"`
				Samples int    `json:"samples"`
			} `json:"rows"`
		}
		cliJSON(t, p, &threads, "report", "--run", run, "--by", "thread")
		want := 0
		for _, r := range threads.Rows {
			if r.Comm == thread {
				want = r.Samples
			}
		}
		var symbols struct {
			Rows []struct {
				Symbol string `json:"symbol"`
			} `json:"rows"`
		}
		cliJSON(t, p, &symbols, "report", "--run", run, "--by", "symbol", "--threads", thread, "--top", "1")
		if want == 0 || len(symbols.Rows) == 0 {
			t.Fatalf("the command line finds no samples of %s in %s", thread, run)
		}
		top := symbols.Rows[0].Symbol

		analysis.clickAt(t, analysis.runRow(t, run))
		analysis.key(t, "ctrl+1") // Layers
		analysis.click(t, "All threads")
		option, ok := analysis.findBy(t, 10*time.Second, func(c ui.WidgetPos) bool {
			return strings.Contains(c.Text, " "+thread+" (") && c.Control
		}, leftmost)
		if !ok {
			t.Fatalf("the thread chooser offers no %s:\n%s", thread, analysis.describe(t))
		}
		analysis.clickAt(t, option)
		kept := fmt.Sprintf("%d of ", want)
		if _, ok := analysis.findBy(t, 20*time.Second, func(c ui.WidgetPos) bool { return strings.HasPrefix(c.Text, kept) }, leftmost); !ok {
			t.Fatalf("with %s chosen the window does not say %q samples are kept:\n%s", thread, kept, analysis.describe(t))
		}
		analysis.screenshot(t, "journey-vertical-layers")

		analysis.key(t, "ctrl+2") // Symbols
		analysis.sortBy(t, "Samples", "▼")
		if got := analysis.topCell(t, "Symbol"); got != top {
			t.Fatalf("the Symbols tab's top symbol of %s is %q, the command line's %q", thread, got, top)
		}
		analysis.screenshot(t, "journey-vertical-symbols")
		// A tap on its row shows its callers and callees.
		isCaller := func(c ui.WidgetPos) bool { return c.Type == "*ui.headerCell" && c.Text == "Caller" }
		if !analysis.tapRow(t, top, func() { analysis.key(t, "ctrl+2"); analysis.sortBy(t, "Samples", "▼") },
			func() bool { _, ok := analysis.findBy(t, 10*time.Second, isCaller, leftmost); return ok }) {
			t.Fatalf("a tap on %s does not show its callers:\n%s", top, analysis.describe(t))
		}
		var callers struct {
			Callers []struct {
				Symbol string `json:"symbol"`
			} `json:"callers"`
		}
		cliJSON(t, p, &callers, "report", "--run", run, "--callers", top, "--threads", thread)
		if len(callers.Callers) == 0 {
			t.Fatalf("the command line lists no caller of %s", top)
		}
		deadline := time.Now().Add(10 * time.Second)
		for !slices.Contains(analysis.column(t, "Caller"), callers.Callers[0].Symbol) && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
		}
		if got := analysis.column(t, "Caller"); !slices.Contains(got, callers.Callers[0].Symbol) {
			t.Fatalf("the callers of %s are %q; the command line's first is %q", top, got, callers.Callers[0].Symbol)
		}
		analysis.screenshot(t, "journey-vertical-callers")

		analysis.key(t, "ctrl+4") // Flame graph
		path := filepath.Join(work, "flame.png")
		analysis.click(t, "Save PNG…")
		analysis.typeText(t, path)
		analysis.key(t, "Return")
		waitFile(t, p, path, validPNG)
		analysis.screenshot(t, "journey-vertical-flame")
	})

	t.Run("what keeps a heap dump alive: the largest retainer's class, its instances, and the path to it", func(t *testing.T) {
		const run = "demo-heap-dump"
		var retained struct {
			Rows []struct {
				Name string `json:"name"`
			} `json:"rows"`
		}
		cliJSON(t, p, &retained, "report", "--run", run, "--by", "retained", "--top", "1")
		if len(retained.Rows) == 0 {
			t.Fatal("the command line lists no class by retained size")
		}
		top := retained.Rows[0].Name
		var path struct {
			Path []struct{} `json:"path"`
		}
		cliJSON(t, p, &path, "report", "--run", run, "--path-to", top)

		analysis.clickAt(t, analysis.runRow(t, run))
		analysis.key(t, "ctrl+6") // Retained
		deadline := time.Now().Add(20 * time.Second)
		for analysis.topCell(t, "Class") != top && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
		}
		if got := analysis.topCell(t, "Class"); got != top {
			t.Fatalf("the Retained tab's first class is %q, the command line's %q", got, top)
		}
		// A tap on its row (the table lays out again while the tree beside it fills) lists its
		// instances; back on Retained, the path to its nearest instance.
		listed := "of " + top + ", largest retained first"
		if !analysis.tapRow(t, top, func() { analysis.sortBy(t, "Retained", "▼") }, func() bool {
			_, ok := analysis.findBy(t, 10*time.Second, func(c ui.WidgetPos) bool { return strings.Contains(c.Text, listed) }, leftmost)
			return ok
		}) {
			t.Fatalf("after a tap on %s the window does not list its instances (%q):\n%s", top, listed, analysis.describe(t))
		}
		analysis.screenshot(t, "journey-heap-instances")
		analysis.key(t, "ctrl+6") // Retained
		want := fmt.Sprintf("is alive through %d references", len(path.Path)-1)
		if _, ok := analysis.findBy(t, 10*time.Second, func(c ui.WidgetPos) bool { return strings.Contains(c.Text, want) }, leftmost); !ok {
			t.Fatalf("back on Retained the window does not say %s %s:\n%s", top, want, analysis.describe(t))
		}
		analysis.screenshot(t, "journey-heap-retained")
	})

	t.Run("inside one object: a class's instances, the object view, a reference and back", func(t *testing.T) {
		const run, class = "demo-heap-dump", "demo/Cache$Blob"
		var instances struct {
			Rows []struct {
				ID string `json:"id"`
			} `json:"rows"`
		}
		cliJSON(t, p, &instances, "report", "--run", run, "--instances", class, "--top", "1")
		if len(instances.Rows) == 0 {
			t.Fatalf("the command line lists no instance of %s", class)
		}
		id := instances.Rows[0].ID
		type field struct {
			Name      string `json:"name"`
			Value     string `json:"value"`
			RefID     string `json:"ref_id"`
			Reachable bool   `json:"ref_reachable"`
		}
		var object struct {
			Fields []field `json:"fields"`
		}
		cliJSON(t, p, &object, "report", "--run", run, "--object", id)
		ref := slices.IndexFunc(object.Fields, func(f field) bool { return f.Reachable })
		if ref < 0 {
			t.Fatalf("%s %s has no reference: %+v", class, id, object.Fields)
		}
		titled := func(id string) bool {
			_, ok := analysis.findBy(t, 10*time.Second, func(c ui.WidgetPos) bool { return strings.Contains(c.Text, id+" · ") }, leftmost)
			return ok
		}

		analysis.clickAt(t, analysis.runRow(t, run))
		analysis.key(t, "ctrl+6") // Retained: a tap on the class lists its instances
		if !analysis.tapRow(t, class, func() { analysis.sortBy(t, "Retained", "▼") }, func() bool {
			_, ok := analysis.findBy(t, 10*time.Second, func(c ui.WidgetPos) bool { return strings.Contains(c.Text, "of "+class+", largest") }, leftmost)
			return ok
		}) {
			t.Fatalf("a tap on %s lists no instances:\n%s", class, analysis.describe(t))
		}
		if !analysis.tapRow(t, id, func() {}, func() bool { return titled(id) }) {
			t.Fatalf("a tap on instance %s does not open it:\n%s", id, analysis.describe(t))
		}
		for _, f := range object.Fields { // the values the command line prints, a reachable reference's with "(open)"
			want := f.Value
			if f.Reachable {
				want += " (open)"
			}
			if _, ok := analysis.findBy(t, 5*time.Second, func(c ui.WidgetPos) bool { return c.Text == want }, leftmost); !ok {
				t.Errorf("the object view does not show %s = %s:\n%s", f.Name, f.Value, analysis.describe(t))
			}
		}
		analysis.screenshot(t, "journey-heap-object")
		if !analysis.tapRow(t, object.Fields[ref].Name, func() {}, func() bool { return titled(object.Fields[ref].RefID) }) {
			t.Fatalf("a tap on %s does not open %s:\n%s", object.Fields[ref].Name, object.Fields[ref].RefID, analysis.describe(t))
		}
		analysis.key(t, "alt+Left")
		if !titled(id) {
			t.Fatalf("Alt+Left does not go back to %s:\n%s", id, analysis.describe(t))
		}
	})

	t.Run("how far a program's stores reach: figure 5.22 from a run with --mutations", func(t *testing.T) {
		const run = "demo-heap-mutate"
		var summary struct {
			Mutations int64 `json:"pointer_mutations"`
		}
		cliJSON(t, p, &summary, "report", "--run", run)
		if summary.Mutations == 0 {
			t.Fatal("the command line counts no pointer mutations in the mutations demo")
		}
		analysis.clickAt(t, analysis.runRow(t, run))
		analysis.key(t, "ctrl+1") // Summary: the count the command line gives
		want := human.Grouped(summary.Mutations)
		if _, ok := analysis.findBy(t, 20*time.Second, func(c ui.WidgetPos) bool { return c.Text == want }, leftmost); !ok {
			t.Fatalf("the Summary does not show the command line's %s pointer mutations:\n%s", want, analysis.describe(t))
		}
		analysis.key(t, "ctrl+7") // Pointers, opening on figure 5.22
		if _, ok := analysis.find(t, "5.22 Pointer mutation distances over time", true, 10*time.Second); !ok {
			t.Fatalf("the Pointers tab does not offer figure 5.22:\n%s", analysis.describe(t))
		}
		path := filepath.Join(work, "mutations.png")
		analysis.click(t, "Save PNG…")
		analysis.typeText(t, path)
		analysis.key(t, "Return")
		waitFile(t, p, path, validPNG)
		analysis.screenshot(t, "journey-heap-mutations")
	})

	analysis.key(t, "ctrl+e")
	editor := p.waitWindow(t, "Instruction categorization")
	t.Run("every file dialog of the editor opens and cancels, by shortcut and by button", func(t *testing.T) {
		for _, way := range []struct{ keys, button string }{
			{"ctrl+o", ""}, {"ctrl+shift+s", ""}, {"ctrl+i", ""},
			{"", "Open…"}, {"", "Save As…"}, {"", "Import log…"},
		} {
			if way.keys != "" {
				editor.key(t, way.keys)
			} else {
				editor.click(t, way.button)
			}
			browseAndCancel(t, editor, way.keys+way.button)
		}
	})
	profile := filepath.Join(work, "journey.xml")
	t.Run("editor: new, categorize, save as, reopen gives the same profile", func(t *testing.T) {
		editor.key(t, "ctrl+n")
		editor.typeText(t, "Journey A8")
		editor.key(t, "Return")
		if !editor.waitDialogs(t, 0) || !strings.Contains(editor.widgets(t).Title, "Journey A8") {
			t.Fatalf("New profile: title %q", editor.widgets(t).Title)
		}
		// A log of the program brings its most executed instructions to the top of the left list.
		tg := qemutest.Targets[0]
		log := qemutest.Log(t, tg, qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), "sieve.c")),
			[]string{"-d", "in_asm,exec,nochain"}, "3000")
		before := editor.firstRow(t)
		editor.key(t, "ctrl+i")
		editor.typeText(t, log)
		editor.key(t, "Return")
		for deadline := time.Now().Add(60 * time.Second); editor.firstRow(t) == before && time.Now().Before(deadline); {
			time.Sleep(300 * time.Millisecond)
		}
		if after := editor.firstRow(t); after == before || editor.dialogs(t) != 0 {
			t.Fatalf("after importing %s the list still starts with %q (%d dialogs):\n%s", log, after, editor.dialogs(t), editor.describe(t))
		} else {
			t.Logf("the uncategorised list started with %s; after the log, with %s", before, after)
		}
		newCategory(t, editor, "Loads", "3")
		editor.clickWhere(t, "Search mnemonic or description", leftmost)
		editor.typeText(t, "LDR")
		// The list filters as each letter is typed: click only once the map shows it filtered by
		// all three, else "LDR" may be where a row of an older filter (LDRSB) now stands.
		if _, ok := editor.findBy(t, 10*time.Second, func(c ui.WidgetPos) bool { return c.Text == "LDR" && strings.HasSuffix(c.Type, "Entry") }, leftmost); !ok {
			t.Fatalf("the search does not show LDR:\n%s", editor.describe(t))
		}
		editor.clickWhere(t, "LDR", leftRow) // ticks the row
		editor.click(t, "Add")
		if _, ok := editor.find(t, "LDR", true, 10*time.Second); !ok {
			t.Fatal("LDR is not listed in Loads after Add")
		}
		editor.key(t, "ctrl+shift+s")
		editor.typeText(t, profile)
		editor.key(t, "Return")
		waitFile(t, p, profile, hasCategory("Journey A8", "Loads", 3, "LDR"))

		editor.key(t, "ctrl+n")
		editor.typeText(t, "Other")
		editor.key(t, "Return")
		editor.waitDialogs(t, 0)
		editor.key(t, "ctrl+o")
		editor.click(t, "Discard") // "Other" was never saved
		editor.typeText(t, profile)
		editor.key(t, "Return")
		if !editor.waitDialogs(t, 0) || !strings.Contains(editor.widgets(t).Title, "Journey A8") {
			t.Fatalf("reopened: title %q", editor.widgets(t).Title)
		}
		editor.clickWidest(t, "*widget.Select") // the category chooser
		editor.click(t, "Loads")
		if _, ok := editor.find(t, "LDR", true, 10*time.Second); !ok {
			t.Fatalf("reopened Loads does not list LDR:\n%s", editor.describe(t))
		}
	})
	t.Run("editor: the unsaved-changes prompt's Save saves", func(t *testing.T) {
		newCategory(t, editor, "Stores", "2")
		editor.key(t, "ctrl+o")
		if !editor.waitDialogs(t, 1) {
			t.Fatal("Open with unsaved changes asks nothing")
		}
		editor.click(t, "Save") // the prompt's; the profile has its file
		waitFile(t, p, profile, hasCategory("Journey A8", "Stores", 2))
		if _, ok := editor.find(t, "Browse…", true, 10*time.Second); !ok {
			t.Fatal("after saving, Open asks for no file")
		}
		editor.click(t, "Cancel")
		if !editor.waitDialogs(t, 0) {
			t.Fatal("Cancel left the Open dialog open")
		}
	})
	// Each tab set at both sizes is checked in view/layout_test.go; here the real windows, with
	// the real menu bar and fonts, as the session left them.
	t.Run("dialogs: typing goes after a prefilled folder, Escape closes them", func(t *testing.T) { dialogKeysJourney(t, analysis, editor) })
	t.Run("editor: profile details, organization and clock, saved", func(t *testing.T) { profileDetailsJourney(t, p, editor, filepath.Join(work, "details.xml")) })
	t.Run("both windows at 900x600 and 1920x1080: every control reachable", func(t *testing.T) {
		for _, w := range []struct {
			win  *window
			name string
		}{{analysis, "analysis"}, {editor, "editor"}} {
			for _, size := range [][2]int{{900, 600}, {1920, 1080}} {
				m := w.win.resize(t, size[0], size[1])
				for _, problem := range ui.LayoutProblems(m.Widgets, m.Width, m.Height) {
					t.Errorf("%s %dx%d: %s", w.name, size[0], size[1], problem)
				}
				w.win.screenshot(t, fmt.Sprintf("%s-%dx%d", w.name, size[0], size[1]))
			}
			w.win.resize(t, 1200, 760)
		}
	})
	// Ctrl+Q in the analysis window is the File menu's Quit: both windows close, the program ends.
	editor.key(t, "ctrl+s") // nothing unsaved to ask about
	analysis.key(t, "ctrl+q")
	select {
	case <-p.exited:
		if !p.cmd.ProcessState.Success() {
			t.Errorf("Ctrl+Q ended the program with %v:\n%s", p.cmd.ProcessState, p.out.String())
		}
	case <-time.After(15 * time.Second):
		t.Errorf("Ctrl+Q left the program running:\n%s", analysis.describe(t))
	}
}

// hottestMethod asks the command line, on the program's workspace, for the method of a trace
// run with the most exclusive CPU time.
func hottestMethod(t *testing.T, p *program, run string) string {
	t.Helper()
	var rep struct {
		Rows []struct {
			Name      string `json:"name"` // as the table's Name column shows it
			ExclCPUUs int64  `json:"excl_cpu_us"`
		} `json:"rows"`
	}
	cliJSON(t, p, &rep, "report", "--run", run, "--by", "method")
	best := rep.Rows[0]
	for _, r := range rep.Rows {
		if r.ExclCPUUs > best.ExclCPUUs {
			best = r
		}
	}
	return best.Name
}

// cliJSON runs the command line with --json on the program's workspace and decodes its answer.
func cliJSON(t *testing.T, p *program, v any, args ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append(append([]string{args[0], "--db", p.db}, args[1:]...), "--json")...)
	cmd.Env = append(os.Environ(), "ANDROPROF_AS_MAIN=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("androprof %s: %v", strings.Join(args, " "), err)
	}
	if err := json.Unmarshal(out[bytes.IndexByte(out, '{'):], v); err != nil {
		t.Fatalf("androprof %s --json: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// newCategory makes a category with the editor's New… beside the category chooser, typing its
// name and cycles and pressing Enter.
func newCategory(t *testing.T, editor *window, name, cycles string) {
	t.Helper()
	editor.click(t, "New…") // the rightmost: the category's, not the profile's
	editor.typeText(t, name)
	editor.key(t, "Tab")
	editor.typeText(t, cycles)
	editor.key(t, "Return")
	if !editor.waitDialogs(t, 0) {
		t.Fatalf("New category %q did not close:\n%s", name, editor.describe(t))
	}
}

// hasCategory checks a saved profile file: its name, and a category with its cycles holding
// the mnemonics given.
func hasCategory(profile, category string, cycles float64, mnemonics ...string) func([]byte) error {
	return func(b []byte) error {
		pr, err := isaprofiles.Read(bytes.NewReader(b), "saved profile")
		if err != nil {
			return err
		}
		if pr.Name != profile {
			return fmt.Errorf("profile %q, want %q", pr.Name, profile)
		}
		for _, c := range pr.Categories {
			if c.Name != category {
				continue
			}
			if c.Cycles != cycles {
				return fmt.Errorf("%s costs %g cycles, want %g", category, c.Cycles, cycles)
			}
			for _, m := range mnemonics {
				if !slices.ContainsFunc(c.Instructions, func(in cost.Instruction) bool { return in.Mnemonic == m }) {
					return fmt.Errorf("%s holds %v, not %s", category, c.Instructions, m)
				}
			}
			return nil
		}
		return fmt.Errorf("no category %q", category)
	}
}

// browseAndCancel: a path dialog is shown; its Browse… opens Fyne's file dialog over it, whose
// Cancel closes it, and the path dialog's Cancel closes that. Each of these file dialogs killed
// the program in Fyne 2.8 (resized before it was shown).
func browseAndCancel(t *testing.T, w *window, way string) {
	t.Helper()
	if !w.waitDialogs(t, 1) {
		t.Fatalf("%s: no path dialog; the window shows:\n%s", way, w.describe(t))
	}
	w.click(t, "Browse…")
	if !w.waitDialogs(t, 2) {
		t.Fatalf("%s: Browse… opened no file dialog; the window shows:\n%s", way, w.describe(t))
	}
	w.click(t, "Cancel") // the topmost: the file dialog's
	if !w.waitDialogs(t, 1) {
		t.Fatalf("%s: the file dialog's Cancel did not close it", way)
	}
	w.click(t, "Cancel")
	if !w.waitDialogs(t, 0) {
		t.Fatalf("%s: the path dialog's Cancel did not close it", way)
	}
}

func validPNG(b []byte) error {
	img, err := png.Decode(bytes.NewReader(b))
	if err == nil && img.Bounds().Dx() < 100 {
		err = fmt.Errorf("a %v image", img.Bounds())
	}
	return err
}

func validSVG(b []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(b))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		return fmt.Errorf("root element %q, not svg", root)
	}
	return nil
}

func validCSV(b []byte) error {
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err == nil && len(recs) < 2 {
		err = fmt.Errorf("%d records", len(recs))
	}
	return err
}
