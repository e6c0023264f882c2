package controller

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/internal/inputerr"
	"androprof/internal/proc"
	"androprof/store"
)

// TestExplainDatabaseError: a real SQLite failure (a workspace file that is not a database)
// is told as the workspace failing, never as the driver's words, which stay in the details.
func TestExplainDatabaseError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "workspace.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path)
	if err == nil {
		_, err = db.Runs(context.Background())
		db.Close()
	}
	if err == nil {
		t.Fatal("opening a file that is not a database succeeded")
	}
	p := Explain("open the workspace", path, err)
	if !strings.Contains(p.Error(), "workspace database failed") || strings.Contains(p.Error(), err.Error()) {
		t.Errorf("message %q shows the driver's words %q", p.Error(), err.Error())
	}
	if p.Details() != err.Error() || !errors.Is(p, err) {
		t.Errorf("details %q, want the cause %q", p.Details(), err.Error())
	}
}

// TestExplainKinds: each kind of failure gets a message that says what to do.
func TestExplainKinds(t *testing.T) {
	_, notExist := os.Open("/no/such/file.trace")
	for _, c := range []struct {
		err  error
		want string
	}{
		{context.Canceled, "Cancelled: import \"x\": nothing was changed"},
		{&proc.MissingToolError{Tool: "qemu-arm", Package: "qemu-user"}, "apt-get install qemu-user"},
		{&proc.ExitError{Program: "sieve", ExitCode: 2}, "sieve exited with status 2"},
		{notExist, "/no/such/file.trace does not exist"},
		{fmt.Errorf("import: %w", &inputerr.Error{File: "x.trace", Line: 3, Msg: "bad record"}),
			"x.trace is wrong at line 3: bad record. Nothing was imported"},
		{&inputerr.Error{File: "x.hprof", Offset: 19, Err: io.ErrUnexpectedEOF}, "x.hprof is wrong at byte 19: unexpected EOF"},
		{errors.New("x.trace:3: bad record"), "Could not import \"x\": x.trace:3: bad record"},
	} {
		if got := Explain("import", "x", c.err).Error(); !strings.Contains(got, c.want) {
			t.Errorf("Explain(%v) = %q, want it to contain %q", c.err, got, c.want)
		}
	}
	if Explain("import", "x", nil) != nil {
		t.Error("no error explained as a problem")
	}
}
