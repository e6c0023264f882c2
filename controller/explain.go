package controller

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"androprof/internal/inputerr"
	"androprof/internal/proc"
	"androprof/model/cost"
)

// Problem is an error as a person reads it: what failed and on what, and what to do about
// it. The technical error stays in Cause, one click away in the window and whole in logs.
type Problem struct {
	What  string // e.g. `Could not import "trace.txt"`
	Hint  string // what to do, or what the file's fault is, in plain words; may be ""
	Cause error
}

// Error is the message and the hint; the cause is in Unwrap and Details.
func (p *Problem) Error() string {
	if p.Hint == "" {
		return p.What + "."
	}
	return p.What + ": " + p.Hint
}

func (p *Problem) Unwrap() error { return p.Cause }

// Details is the technical cause as the program saw it.
func (p *Problem) Details() string {
	if p.Cause == nil {
		return ""
	}
	return p.Cause.Error()
}

// sqlError is what the SQLite driver's errors have beyond a message: the result code.
type sqlError interface {
	error
	Code() int
}

// Explain turns err, met while doing action ("import", "open run", "save profile") to subject
// (a file, run or profile name; "" for none), into a Problem a person can act on. It never
// passes a database error through as the message: those say the workspace failed, and why
// is in the details.
func Explain(action, subject string, err error) *Problem {
	if err == nil {
		return nil
	}
	var p *Problem
	if errors.As(err, &p) {
		return p
	}
	what := "Could not " + action
	if subject != "" {
		what += fmt.Sprintf(" %q", subject)
	}
	p = &Problem{What: what, Cause: err}
	var (
		missing *proc.MissingToolError
		exit    *proc.ExitError
		path    *fs.PathError
		db      sqlError
		input   *inputerr.Error
	)
	switch {
	case errors.Is(err, context.Canceled):
		p.What = "Cancelled: " + strings.TrimPrefix(what, "Could not ")
		p.Hint = "nothing was changed"
	case errors.As(err, &input):
		where := fmt.Sprintf("line %d", input.Line)
		if input.Line == 0 {
			where = fmt.Sprintf("byte %d", input.Offset)
		}
		msg := input.Msg
		if msg == "" && input.Err != nil {
			msg = input.Err.Error()
		}
		p.Hint = fmt.Sprintf("%s is wrong at %s: %s. Nothing was imported; fix or re-create the file", input.File, where, msg)
	case errors.As(err, &missing):
		p.Hint = fmt.Sprintf("%s is not installed. Install the Debian package %s (apt-get install %s), then try again",
			missing.Tool, missing.Package, missing.Package)
	case errors.As(err, &exit):
		p.What, p.Hint = explainExit(exit, subject)
	case errors.Is(err, cost.ErrNotFound):
		p.Hint = "it is no longer in the workspace (deleted elsewhere?); pick another"
	case errors.As(err, &db):
		p.Hint = fmt.Sprintf("the workspace database failed (SQLite code %d). Nothing was changed; "+
			"check the disk is not full or read-only, and that no other program holds the file", db.Code())
	case errors.As(err, &path) && errors.Is(err, fs.ErrNotExist):
		p.Hint = fmt.Sprintf("%s does not exist", path.Path)
	case errors.As(err, &path) && errors.Is(err, fs.ErrPermission):
		p.Hint = fmt.Sprintf("you may not read or write %s", path.Path)
	default:
		// Readers' errors already name the file and line in words (docs/readers.md); keep them.
		p.Hint = err.Error()
	}
	return p
}

// SQLite's primary result codes a workspace that cannot be opened ends in (the low byte of
// an extended code: 1034, SQLITE_IOERR_FSYNC, is an I/O error).
const (
	sqliteIOErr     = 10
	sqliteCantOpen  = 14
	sqliteNotADB    = 26
	sqlitePrimaryOf = 0xff
)

// ExplainWorkspace turns err, met opening the workspace at path (--db), into what a person
// can act on: a folder, a device or an unreadable file is named as such with what --db wants,
// instead of SQLite's "unable to open database file (14)" or "disk I/O error (1034)", which stay
// in the cause. Other errors pass as they are: the store's own already say what to do.
func ExplainWorkspace(path string, err error) error {
	var db sqlError
	if err == nil || !errors.As(err, &db) {
		return err
	}
	example := filepath.Join(path, "androprof.db")
	var hint string
	st, statErr := os.Stat(path)
	switch code := db.Code() & sqlitePrimaryOf; {
	case statErr == nil && st.IsDir():
		hint = fmt.Sprintf("it is a folder; --db names the workspace file, e.g. --db %s", example)
	case statErr == nil && !st.Mode().IsRegular():
		hint = "it is not a regular file (a device, pipe or socket); --db names a workspace file, a new one is made by import"
	case code == sqliteNotADB:
		hint = "it is not an androprof workspace (not even an SQLite database); check --db"
	case code == sqliteCantOpen:
		hint = "SQLite cannot open it: check that --db names a file you may read and write, in a folder you may write"
	case code == sqliteIOErr:
		hint = "reading or writing it failed: check the disk is not full or failing, and that --db names a file on a local disk"
	default:
		return err
	}
	return &Problem{What: "cannot open the workspace " + path, Hint: hint, Cause: err}
}

// explainExit says how a program ended and what of it was kept. A run that counted anything is
// in the workspace whatever the exit, so this is no failure to import; and the program's own
// last words (a usage line) are said, as a window shows no terminal.
func explainExit(exit *proc.ExitError, run string) (what, hint string) {
	what = exit.Ended()
	var parts []string
	if exit.Said != "" {
		parts = append(parts, fmt.Sprintf("It wrote: %q", exit.Said))
	}
	if exit.Detail != "" && exit.Detail != exit.Said {
		parts = append(parts, exit.Detail)
	}
	switch {
	case exit.Imported > 0 && run != "":
		parts = append(parts, fmt.Sprintf("Run %q keeps what it executed up to then", run))
	case exit.Kept != "":
		parts = append(parts, exit.Kept)
	}
	return what, strings.Join(parts, ". ")
}
