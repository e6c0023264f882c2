package analysis

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"androprof/controller"
	"androprof/internal/viewtest"
	"androprof/isaprofiles"
	"androprof/model/cost"
)

func TestAnalysisListsBuiltinAndStoredProfiles(t *testing.T) {
	db := viewtest.OpenDB(t, filepath.Join(t.TempDir(), "w.db"))
	if err := db.SaveProfile(context.Background(), viewtest.StoredProfile()); err != nil {
		t.Fatal(err)
	}
	var edited *cost.Profile
	av := openWindowWith(test.NewTempApp(t), controller.NewWorkspace(db), nil, func() {}, func(p *cost.Profile) { edited = p })
	av.Wait()
	if av.Runs.Empty.Text == "" || len(av.Runs.Names()) != 0 {
		t.Errorf("Runs shows %q and %v in an empty workspace", av.Runs.Empty.Text, av.Runs.Names())
	}
	v := av.Browser
	names := v.ProfileNames()
	for _, b := range isaprofiles.BuiltinNames() {
		if !slices.Contains(names, b) {
			t.Errorf("built-in profile %q is not listed (have %v)", b, names)
		}
	}
	i := slices.Index(names, "Stored test profile")
	if i < 0 {
		t.Fatalf("stored profile not listed: %v", names)
	}
	if got := profileSummary(v.infos[i]); got != "database · ARM · 1 category" {
		t.Errorf("summary %q", got)
	}

	v.Profiles.Select(i)
	av.Wait()                                                // the profile is read off the UI goroutine
	if rows, cols := v.tableSize(); rows != 2 || cols != 5 { // Load + Undefined
		t.Fatalf("table is %d×%d", rows, cols)
	}
	load := v.categoryRows()[0]
	got := []string{}
	for c := range 5 {
		got = append(got, categoryCell(load, c))
	}
	if strings.Join(got, "|") != "Load|2|90|1|yes" {
		t.Errorf("Load row reads %v", got)
	}
	if len(v.Reference.Objects) != 12 { // six label/value pairs
		t.Errorf("reference shows %d objects", len(v.Reference.Objects))
	}

	test.Tap(v.Edit)
	if edited == nil || edited.Name != "Stored test profile" {
		t.Fatal("Edit did not send the profile to the editor")
	}
}

func TestAnalysisShowsEveryBuiltin(t *testing.T) {
	av := openWindow(test.NewTempApp(t), controller.NewWorkspace(nil), nil)
	av.Wait()
	v := av.Browser
	builtins := isaprofiles.BuiltinNames()
	if got := v.ProfileNames(); !slices.Equal(got, builtins) {
		t.Fatalf("listed %v, want the built-ins %v", got, builtins)
	}
	if len(builtins) == 0 && v.Status.Text == "" {
		t.Error("an empty list does not say why")
	}
	for i := range builtins {
		v.Profiles.Select(i)
		av.Wait()
		if rows, _ := v.tableSize(); rows < 1 {
			t.Errorf("%s shows no categories", builtins[i])
		}
	}
}
