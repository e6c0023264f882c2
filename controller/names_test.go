package controller

import (
	"errors"
	"strings"
	"testing"

	"androprof/model"
)

// Issue 24 finding 18: any file name suggests a run name the workspace takes; before, a file
// named with a line break, a space before its extension, an escape or 250 letters was refused
// for the name nobody gave it.
func TestRunNameOfIsAlwaysAName(t *testing.T) {
	for path, want := range map[string]string{
		"/d/sieve.trace.gz":                         "sieve",
		"/d/two\nlines.trace":                       `two\nlines`,
		"/d/ .trace":                                "run",
		"/d/  padded  .heaplog":                     "padded",
		"/d/\x1b[31mred.hprof":                      `\x1b[31mred`,
		"/d/bidi\u202eexe.trace":                    `bidi\u202eexe`,
		"/d/bad\xffutf8.trace":                      `bad\xffutf8`,
		"/d/" + strings.Repeat("ü", 120) + ".trace": strings.Repeat("ü", model.MaxRunName/2),
	} {
		got := RunNameOf(path)
		if err := model.CheckRunName(got); err != nil || got != want {
			t.Errorf("RunNameOf(%q) = %q (%v), want %q", path, got, err, want)
		}
	}
}

// sqliteErr is an error of the SQLite driver as ExplainWorkspace sees it: a message and a code.
type sqliteErr struct {
	msg  string
	code int
}

func (e sqliteErr) Error() string { return e.msg }
func (e sqliteErr) Code() int     { return e.code }

// Issue 24 finding 18: a --db that SQLite cannot open is named with what to do, not with the
// driver's "unable to open database file (14)" or "disk I/O error (1034)".
func TestExplainWorkspace(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		path string
		err  error
		want string
	}{
		{dir, sqliteErr{"unable to open database file (14)", 14}, "it is a folder"},
		{"/dev/null", sqliteErr{"disk I/O error (1034)", 1034}, "not a regular file"},
		{dir + "/w.db", sqliteErr{"unable to open database file (14)", 14}, "cannot open it"},
		{dir + "/w.db", sqliteErr{"disk I/O error (1034)", 1034}, "reading or writing it failed"},
	} {
		err := ExplainWorkspace(c.path, c.err)
		msg := err.Error()
		if !strings.Contains(msg, c.want) || !strings.Contains(msg, c.path) || !strings.Contains(msg, "--db") ||
			strings.Contains(msg, c.err.Error()) || !errors.Is(err, c.err) {
			t.Errorf("ExplainWorkspace(%s, %v) = %q, want it to say %q and the path", c.path, c.err, msg, c.want)
		}
	}
	plain := errors.New("no workspace at x (import something first, or check --db)")
	if got := ExplainWorkspace("x", plain); got != plain {
		t.Errorf("an error that already says what to do became %v", got)
	}
}
