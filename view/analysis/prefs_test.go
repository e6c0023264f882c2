package analysis

import (
	"context"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"

	"androprof/controller"
	"androprof/store"
	"androprof/store/storetest"
)

// Issue 23, finding 16: the run the window reopens on is remembered per workspace, not per
// user: another workspace opens on its own last run (or, the first time, on the run the app
// names), and a run that is gone falls back to that.
func TestLastRunIsRememberedPerWorkspace(t *testing.T) {
	workspace := func(runs ...string) *store.DB {
		db, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		for _, run := range runs {
			if err := db.ImportRun(context.Background(), run, "test", storetest.SmallRun); err != nil {
				t.Fatal(err)
			}
		}
		return db
	}
	a := test.NewTempApp(t)
	SetFirstRun(a.Preferences(), "demo-sieve-arm")
	open := func(db *store.DB) *View {
		v := openWindow(a, controller.NewWorkspace(db), nil)
		v.Wait()
		return v
	}
	wsA := workspace("first-listed", "demo-sieve-arm", "only-in-a")
	wsB := workspace("first-listed", "demo-sieve-arm", "only-in-b")

	v := open(wsA)
	v.SelectRun("only-in-a")
	v.Wait()
	v.Window.Close()

	v = open(wsB)
	if v.sel.run != "demo-sieve-arm" {
		t.Errorf("a first start in another workspace opens on %q, want the run the app names", v.sel.run)
	}
	v.SelectRun("only-in-b")
	v.Wait()
	v.Window.Close()

	v = open(wsA)
	if v.sel.run != "only-in-a" {
		t.Errorf("the first workspace reopens on %q, want its own last run", v.sel.run)
	}
	v.Window.Close()

	if err := wsA.DeleteRun(context.Background(), "only-in-a"); err != nil {
		t.Fatal(err)
	}
	v = open(wsA)
	if v.sel.run != "demo-sieve-arm" {
		t.Errorf("with its last run gone the workspace opens on %q, want the run the app names", v.sel.run)
	}
}
