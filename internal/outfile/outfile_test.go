//go:build unix

package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

const precious = "precious\n"

// victimAndLink makes dir/victim.txt and a link to it at dir/out, as an attacker would plant it.
func victimAndLink(t *testing.T) (out, victim string) {
	t.Helper()
	dir := t.TempDir()
	victim, out = filepath.Join(dir, "victim.txt"), filepath.Join(dir, "out.png")
	if err := os.WriteFile(victim, []byte(precious), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, out); err != nil {
		t.Fatal(err)
	}
	return out, victim
}

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// only checks that dir holds exactly the names given: no temporary file is left behind.
func only(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Errorf("%s holds %q, want %q", dir, got, names)
	}
}

func TestLinkIsReplacedNotFollowed(t *testing.T) {
	out, victim := victimAndLink(t)
	replaced, err := Write(out, writeString("chart\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(victim); string(got) != precious {
		t.Errorf("the link's target was written: %q", got)
	}
	st, err := os.Lstat(out)
	if err != nil || !st.Mode().IsRegular() {
		t.Fatalf("%s: %v, %v", out, st, err)
	}
	if got, _ := os.ReadFile(out); string(got) != "chart\n" {
		t.Errorf("output holds %q", got)
	}
	if !replaced {
		t.Error("replacing the link was not reported")
	}
	only(t, filepath.Dir(out), "out.png", "victim.txt")
}

func TestNewFileIsNotReplaced(t *testing.T) {
	out := filepath.Join(t.TempDir(), "new.csv")
	if replaced, err := Write(out, writeString("a,b\n")); err != nil || replaced {
		t.Errorf("replaced %v, %v", replaced, err)
	}
}

// A file the user makes gets the user's umask, not os.CreateTemp's 0600; a file written over
// keeps its own mode.
func TestModeFollowsUmask(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()
	out := filepath.Join(dir, "new.svg")
	if _, err := Write(out, writeString("<svg/>")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("new file: %v, %v; want -rw-r----- under umask 027", st.Mode(), err)
	}
	kept := filepath.Join(dir, "kept.svg")
	if err := os.WriteFile(kept, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(kept, writeString("<svg/>")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(kept); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("file written over: %v, %v; want its own -rw-------", st.Mode(), err)
	}
}

// A write that fails leaves the old file as it was, and no temporary file.
func TestFailureLeavesTheOldFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report.txt")
	if err := os.WriteFile(out, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	_, err := Write(out, func(w io.Writer) error {
		io.WriteString(w, "half a")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	if got, _ := os.ReadFile(out); string(got) != "old\n" {
		t.Errorf("the old file now holds %q", got)
	}
	only(t, dir, "report.txt")

	f, err := Create(out)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "aborted")
	f.Abort()
	if got, _ := os.ReadFile(out); string(got) != "old\n" {
		t.Errorf("after Abort the old file holds %q", got)
	}
	only(t, dir, "report.txt")
}

// A folder, a device or a link to one is not a file to write: renaming over it would replace
// it (as root, /dev/stdout itself).
func TestRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	toNull := filepath.Join(dir, "null.png")
	if err := os.Symlink(os.DevNull, toNull); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{dir: "is a folder", os.DevNull: "is a device", toNull: "is a device"} {
		if _, err := Write(path, writeString("x")); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
	if st, err := os.Lstat(toNull); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link to %s was replaced: %v, %v", os.DevNull, st, err)
	}
	only(t, dir, "null.png")
}
