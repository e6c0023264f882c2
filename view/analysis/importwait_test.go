package analysis

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"androprof/controller"
	"androprof/internal/corpus"
	"androprof/internal/viewtest"
	"androprof/store"
)

// Issue 24, finding 15, in the window: an import that finds another writer (here sqlite3's
// BEGIN IMMEDIATE) says in its progress dialog that it waits, and imports once the other is
// done, instead of failing after its work.
func TestImportSaysItWaitsForAnotherWriter(t *testing.T) {
	path := viewtest.MethodsWorkspace(t)
	ws := controller.NewWorkspace(viewtest.OpenDB(t, path))
	v := openWindow(test.NewTempApp(t), ws, ws.Importer())
	v.Wait()
	other, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	var got error = context.DeadlineExceeded
	v.Runs.ImportFrom("second", corpus.File(t, "perflib-basic.trace"), func(err error) { got = err })
	deadline := time.Now().Add(30 * time.Second)
	for v.Runs.importing.Said() == "" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if said := v.Runs.importing.Said(); !strings.Contains(said, store.WaitingMessage) {
		t.Errorf("the import's dialog said %q while another connection held the workspace", said)
	}
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	v.Wait()
	if got != nil || v.sel.run != "second" {
		t.Errorf("the import after the wait: %v, selected %q", got, v.sel.run)
	}
}
