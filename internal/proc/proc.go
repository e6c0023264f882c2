// Package proc holds what the runners of external programs (qemu-user, java) share: a process
// group that cancellation kills whole, the name of the signal a process died of, the end of
// its stderr for error messages, and a fresh folder for its output files.
package proc

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Wrapped is a command run the way a wrapper runs a user's program: with the standard streams
// given (nil: /dev/null), the end of its stderr kept in the returned tail for error messages,
// its whole process group killed when ctx is cancelled or androprof dies (run it with Run), and
// Wait not hanging for long on a descendant that keeps the output pipes open.
func Wrapped(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer) (*exec.Cmd, *Tail) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout = stdin, stdout
	tail := &Tail{Max: 4096}
	cmd.Stderr = tail
	if stderr != nil {
		cmd.Stderr = io.MultiWriter(stderr, tail)
	}
	KillGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	return cmd, tail
}

// Tail keeps the last Max bytes written to it: a program's stderr, for error messages.
type Tail struct {
	Max int
	b   []byte
}

func (t *Tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > t.Max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.Max:]...)
	}
	return len(p), nil
}

// String is what the tail holds.
func (t *Tail) String() string { return string(t.b) }

// LastLine is the last line that is not blank.
func (t *Tail) LastLine() string { return t.LastLineWithout() }

// LastLineWithout is the last line that is not blank and starts with none of prefixes: the
// program's last words when a tool may have written after them.
func (t *Tail) LastLineWithout(prefixes ...string) string {
	lines := strings.Split(string(t.b), "\n")
next:
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			continue
		}
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				continue next
			}
		}
		return l
	}
	return ""
}

// LastWith is the last line that starts with one of prefixes (a tool's own words among the
// program's), "" when there is none.
func (t *Tail) LastWith(prefixes ...string) string {
	lines := strings.Split(string(t.b), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				return l
			}
		}
	}
	return ""
}

// OutputDir makes a fresh folder for the files a program writes: inside keep (made when
// missing) when the user keeps them, else in the temporary folder. Being new, it holds no link
// anybody planted, so nothing is written through one; the caller removes it when done.
func OutputDir(keep, prefix string) (string, error) {
	if keep != "" {
		if err := os.MkdirAll(keep, 0o755); err != nil {
			return "", err
		}
	}
	return os.MkdirTemp(keep, prefix)
}

// CheckKeep refuses, before a program runs, to keep its files names in the folder keep when one
// of them cannot go there: keep is no folder, or a folder is in the way of a file (moving a file
// over a link or a file replaces it; over a folder it fails, which would be found only after
// the whole run).
func CheckKeep(keep string, names ...string) error {
	if keep == "" {
		return nil
	}
	if st, err := os.Stat(keep); err == nil && !st.IsDir() {
		return fmt.Errorf("%s is not a folder, so nothing can be kept in it", keep)
	}
	for _, name := range names {
		p := filepath.Join(keep, name)
		if st, err := os.Lstat(p); err == nil && st.IsDir() {
			return fmt.Errorf("%s is a folder, so the %s the program writes could not be kept there: move it away or keep in another folder", p, name)
		}
	}
	return nil
}
