//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The real program in a real window, driven as a person drives it: a private Xvfb, real key
// presses and clicks from xdotool, and the window's pixels read back from the X server. A
// program that dies fails the test with what it printed (its panic's stack).
//
// Every keyboard way into a file dialog must open one (a large part of the window changes:
// the dialog and the shade behind it) and its Cancel button must close it again. In Fyne 2.8 each of
// these killed the program (FileDialog resized before it was shown).
func TestRealWindowFileDialogs(t *testing.T) {
	d := startDisplay(t)
	app := d.startApp(t)
	analysis := d.waitWindow(t, app, "Analysis")
	w, _ := d.size(t, analysis)
	d.click(t, analysis, w-45, 47) // the Editor button, right end of the toolbar
	editor := d.waitWindow(t, app, "Instruction categorization")

	ew, eh := d.size(t, editor)
	// The file dialog (800×560) is centred; its Cancel button sits 697, 536 into it.
	cancelX, cancelY := (ew-800)/2+697, (eh-560)/2+536
	for _, keys := range []string{"ctrl+o", "ctrl+shift+s", "ctrl+i"} {
		before := d.grab(t, editor)
		d.key(t, editor, keys)
		if !d.waitFor(t, app, editor, before, func(diff float64) bool { return diff > 0.2 }) {
			t.Fatalf("%s opened no dialog", keys)
		}
		d.click(t, editor, cancelX, cancelY)
		if !d.waitFor(t, app, editor, before, func(diff float64) bool { return diff < 0.01 }) {
			t.Fatalf("Cancel did not close the dialog %s opened", keys)
		}
	}
	app.check(t)
}

// display is a private X server for one test.
type display struct{ name string }

func startDisplay(t *testing.T) *display {
	t.Helper()
	for _, tool := range []string{"Xvfb", "xdotool"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed; scripts/deps.sh must install it", tool)
			}
			t.Skipf("%s is not installed (apt-get install xvfb xdotool)", tool)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// -displayfd: Xvfb picks a free display and writes its number once it accepts clients.
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	if err := x.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { x.Process.Kill(); x.Wait() })
	line, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	if err != nil {
		t.Fatalf("Xvfb gave no display: %v", err)
	}
	d := &display{name: ":" + strings.TrimSpace(line)}
	t.Setenv("DISPLAY", d.name) // for grabX11 in this process
	return d
}

// program is the workbench under test: this test binary standing in for androprof (TestMain).
type program struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	out    bytes.Buffer
	exited chan struct{}
}

func (p *program) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.Write(b)
}

func (p *program) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

func (d *display) startApp(t *testing.T) *program {
	t.Helper()
	home := t.TempDir()
	p := &program{exited: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], "--db", filepath.Join(home, "w.db"))
	p.cmd.Env = append(os.Environ(), "ANDROPROF_AS_MAIN=1", "DISPLAY="+d.name, "HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local/share"))
	p.cmd.Stdout, p.cmd.Stderr = p, p
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.exited
	})
	return p
}

// check fails the test when the program has ended.
func (p *program) check(t *testing.T) {
	t.Helper()
	select {
	case <-p.exited:
		t.Fatalf("androprof ended (%v):\n%s", p.cmd.ProcessState, p.output())
	default:
	}
}

func (d *display) xdotool(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+d.name)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("xdotool %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// waitWindow waits for a window whose title holds name, and gives it the keyboard. name is
// ASCII: without a UTF-8 locale (CI's fresh machine has none) xdotool matches no "—". The
// first start imports the demo runs first, which takes about 40 s under -race on a cold
// 2-core machine.
func (d *display) waitWindow(t *testing.T, p *program, name string) string {
	t.Helper()
	for deadline := time.Now().Add(4 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		p.check(t)
		cmd := exec.Command("xdotool", "search", "--name", name)
		cmd.Env = append(os.Environ(), "DISPLAY="+d.name)
		if out, err := cmd.Output(); err == nil && len(out) > 0 {
			id := strings.Fields(string(out))[0]
			time.Sleep(time.Second) // first paint
			d.xdotool(t, "windowfocus", "--sync", id)
			return id
		}
	}
	t.Fatalf("no window %q appeared:\n%s", name, p.output())
	return ""
}

func (d *display) size(t *testing.T, id string) (w, h int) {
	t.Helper()
	for _, l := range strings.Split(d.xdotool(t, "getwindowgeometry", "--shell", id), "\n") {
		if v, ok := strings.CutPrefix(l, "WIDTH="); ok {
			w, _ = strconv.Atoi(v)
		} else if v, ok := strings.CutPrefix(l, "HEIGHT="); ok {
			h, _ = strconv.Atoi(v)
		}
	}
	return w, h
}

func (d *display) click(t *testing.T, id string, x, y int) {
	d.xdotool(t, "mousemove", "--window", id, strconv.Itoa(x), strconv.Itoa(y), "click", "1")
}

func (d *display) key(t *testing.T, id, keys string) {
	d.xdotool(t, "windowfocus", "--sync", id)
	d.xdotool(t, "key", "--window", id, keys)
}

func (d *display) grab(t *testing.T, id string) *image.RGBA {
	t.Helper()
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	img, err := grabX11(uintptr(n))
	if err != nil {
		t.Fatal(fmt.Errorf("window %s: %w", id, err))
	}
	return img
}

// waitFor waits up to ten seconds until the share of the window's pixels that differ from
// before satisfies ok.
func (d *display) waitFor(t *testing.T, p *program, id string, before *image.RGBA, ok func(diff float64) bool) bool {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		p.check(t)
		if ok(changed(before, d.grab(t, id))) {
			return true
		}
	}
	return false
}

// changed is the share of pixels that differ between two captures of one window.
func changed(a, b *image.RGBA) float64 {
	if a.Bounds() != b.Bounds() {
		return 1
	}
	n := 0
	for i := 0; i+3 < len(a.Pix); i += 4 {
		if !bytes.Equal(a.Pix[i:i+3], b.Pix[i:i+3]) {
			n++
		}
	}
	return float64(n) / float64(len(a.Pix)/4)
}
