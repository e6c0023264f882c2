package analysis

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"androprof/assets"
	"androprof/controller"
	"androprof/model/cost"
	"androprof/store"
)

// Compare shows figure 5.2's estimate beside each row's own cost, from the reference data of
// the profile that priced the row (the Cortex-A8's for the ARM run), and "unknown" for a row
// whose profile has none, on screen and in the CSV alike.
func TestCompareShowsFigure52PerRow(t *testing.T) {
	v := openSieves(t)
	showRun(v, "demo-sieve-arm", "ARMv7-A Cortex-A8")
	v.Compare.Pick(cost.CompareItem{Run: "demo-sieve-arm"}, true)
	v.Compare.Pick(cost.CompareItem{Run: "demo-sieve-mips"}, true)
	v.Wait()
	rows := v.Compare.Table.Rows()
	if len(rows) != 2 {
		t.Fatalf("comparison %+v", rows)
	}
	for i, r := range rows {
		p, err := v.profiles.Resolve(context.Background(), r.Profile)
		if err != nil {
			t.Fatal(err)
		}
		shown, csv := columnTexts(t, v.Compare.Table, "Fig. 5.2 time")
		want, ok := cost.ReferenceEstimate(p.Reference, r.Instructions, r.FrequencyGHz)
		switch {
		case !ok && (shown[i] != "unknown" || csv[i] != "unknown"):
			t.Errorf("%s under %s (no reference data): fig. 5.2 time %q, CSV %q; want unknown", r.Item, r.Profile, shown[i], csv[i])
		case ok && csv[i] != strconv.FormatFloat(want.TimeS, 'g', -1, 64):
			t.Errorf("%s under %s: fig. 5.2 time in CSV %q, want %v", r.Item, r.Profile, csv[i], want.TimeS)
		}
		if shownE, _ := columnTexts(t, v.Compare.Table, "Fig. 5.2 energy"); ok == (shownE[i] == "unknown") {
			t.Errorf("%s under %s: fig. 5.2 energy %q (reference data: %v)", r.Item, r.Profile, shownE[i], ok)
		}
	}
	if rows[0].CPIEstimate == nil {
		t.Error("the ARM run under the Cortex-A8 (the seed's reference data) has no figure 5.2 estimate")
	}
}

// fourISAsWindow opens the analysis window on the demo's ARM and MIPS sieves beside an AArch64
// and an x86-64 run in the plugin's format, with a profile of each new set kept in the
// workspace (the AArch64 one with reference data); built-ins of those sets compete when present.
func fourISAsWindow(t *testing.T) *View {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ws := controller.NewWorkspace(db)
	ctx := context.Background()
	demos := map[string]controller.DemoRun{}
	for _, d := range assets.DemoRuns() {
		if d.Name == "demo-sieve-arm" || d.Name == "demo-sieve-mips" {
			demos[d.Name] = d
		}
	}
	if _, err := ws.Importer().ImportDemo(ctx, demos); err != nil {
		t.Fatal(err)
	}
	for run, body := range map[string]string{
		"a64": "process 100 0 aarch64 0x400000 /tmp/sieve\nthread 100\nblock 1 0x400000 AArch64 2 -\n" +
			"insn 0x400000 1f2003d5 nop\ninsn 0x400004 c0035fd6 ret\nexec 100 500\n",
		"x64": "process 200 0 x86_64 0x400000 /tmp/sieve\nthread 200\nblock 1 0x400000 x86-64 2 -\n" +
			"insn 0x400000 90 nop\ninsn 0x400001 c3 ret\nexec 200 700\n",
	} {
		path := filepath.Join(t.TempDir(), run+".txt")
		if err := os.WriteFile(path, []byte("androprof-bbprofile 2\n"+body+"end\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := ws.Importer().ImportFiles(ctx, run, []string{path}, nil); err != nil {
			t.Fatal(err)
		}
	}
	a64 := cost.NewProfile("test A64", cost.AArch64)
	a64.Reference = cost.Reference{FrequencyGHz: 1.5, CPI: 1.25, ProcessorPowerW: 0.5}
	for _, p := range []*cost.Profile{a64, cost.NewProfile("test x86-64", cost.X86_64)} {
		if err := ws.Profiles.Keep(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	v := openWindow(test.NewTempApp(t), ws, &scriptedImporter{db: db})
	v.Wait()
	return v
}

// Compare of one program on ARM, AArch64, MIPS and x86-64 prices each run with a profile of its
// own set, offers a chooser per set, and shows figure 5.2 exactly where the row's profile has
// the reference data.
func TestCompareFourISAsEachUnderItsOwnSet(t *testing.T) {
	v := fourISAsWindow(t)
	showRun(v, "demo-sieve-arm", "ARMv7-A Cortex-A8")
	runs := []string{"demo-sieve-arm", "a64", "demo-sieve-mips", "x64"}
	for _, run := range runs {
		v.Compare.Pick(cost.CompareItem{Run: run}, true)
	}
	v.Wait()
	rows := v.Compare.Table.Rows()
	if len(rows) != 4 {
		t.Fatalf("comparison %+v (hint %q)", rows, v.Compare.Hint.Text)
	}
	if !strings.Contains(v.Compare.Hint.Text, "each row with a profile of its own instruction set") {
		t.Errorf("hint %q", v.Compare.Hint.Text)
	}
	shown, _ := columnTexts(t, v.Compare.Table, "Fig. 5.2 time")
	for i, r := range rows {
		d, err := v.analysis.Load(context.Background(), r.Item)
		if err != nil {
			t.Fatal(err)
		}
		p, err := v.profiles.Resolve(context.Background(), r.Profile)
		if err != nil {
			t.Fatal(err)
		}
		if isa := d.MainISA(0); !p.HasISA(isa) || len(r.Coverage.ForeignISAs) != 0 {
			t.Errorf("%s (%s) is priced by %s, which prices %v", r.Item, isa, r.Profile, p.ISAs)
		}
		if _, ok := v.Compare.PriceWith[d.MainISA(0)]; !ok {
			t.Errorf("no profile chooser for %s", d.MainISA(0))
		}
		if p.Reference.Estimable() == (shown[i] == "unknown") {
			t.Errorf("%s under %s: fig. 5.2 time %q, reference data %+v", r.Item, r.Profile, shown[i], p.Reference)
		}
		if !strings.Contains(v.Compare.Hint.Text, r.Profile) {
			t.Errorf("the hint does not name %s: %q", r.Profile, v.Compare.Hint.Text)
		}
	}
}
