//go:build linux

package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"androprof/internal/fastlane"
	"androprof/internal/testio"
	"androprof/view/ui"
)

// The end-to-end harness: the real program (this test binary standing in for the tour, which is
// androprof with the widget map, see TestMain) on a private Xvfb, driven with xdotool's real key
// presses and clicks. The program runs with ANDROPROF_WIDGETS, so it writes where each window's
// controls are (widgetmap.go); the harness finds a control by its text there and clicks its
// middle, and reads back what the window shows. A program that dies fails the test with what it
// printed (its panic's stack).

// display is a private X server for one test, large enough for a 1920×1080 window.
type display struct{ name string }

func startDisplay(t *testing.T) *display {
	t.Helper()
	fastlane.Needs(t, "Xvfb and xdotool")
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
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "2000x1200x24", "-nolisten", "tcp")
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

// program is the workbench under test.
type program struct {
	d       *display
	cmd     *exec.Cmd
	db      string        // its workspace
	widgets string        // where it writes its windows' widget maps
	out     testio.Buffer // its stdout and stderr
	exited  chan struct{}
}

// startApp starts the workbench on a new workspace, as a first start (it imports the demo runs).
func (d *display) startApp(t *testing.T) *program {
	t.Helper()
	home := t.TempDir()
	p := &program{d: d, exited: make(chan struct{}), db: filepath.Join(home, "w.db"), widgets: filepath.Join(home, "widgets")}
	p.cmd = exec.Command(os.Args[0], "--db", p.db)
	p.cmd.Dir = home
	p.cmd.Env = append(os.Environ(), "ANDROPROF_AS_MAIN=1", "DISPLAY="+d.name, "HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local/share"),
		"ANDROPROF_WIDGETS="+p.widgets)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
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
		t.Fatalf("androprof ended (%v):\n%s", p.cmd.ProcessState, p.out.String())
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

// window is one of the program's windows: its X id, and the part of its title that finds its
// widget map. Titles are matched in ASCII: without a UTF-8 locale (CI's fresh machine has none)
// xdotool matches no "—".
type window struct {
	p     *program
	id    string
	title string
}

// waitWindow waits for a window whose title holds name, and gives it the keyboard. The first
// start imports the demo runs first, which takes about 40 s under -race on a cold 2-core machine.
func (p *program) waitWindow(t *testing.T, name string) *window {
	t.Helper()
	for deadline := time.Now().Add(4 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		p.check(t)
		cmd := exec.Command("xdotool", "search", "--name", name)
		cmd.Env = append(os.Environ(), "DISPLAY="+p.d.name)
		if out, err := cmd.Output(); err == nil && len(out) > 0 {
			w := &window{p: p, id: strings.Fields(string(out))[0], title: name}
			w.widgets(t) // painted and mapped
			p.d.xdotool(t, "windowfocus", "--sync", w.id)
			return w
		}
	}
	t.Fatalf("no window %q appeared:\n%s", name, p.out.String())
	return nil
}

// widgets reads the window's latest widget map, waiting for the first.
func (w *window) widgets(t *testing.T) windowWidgets {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		w.p.check(t)
		files, _ := filepath.Glob(filepath.Join(w.p.widgets, "*.json"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			var m windowWidgets
			if json.Unmarshal(data, &m) == nil && strings.Contains(m.Title, w.title) {
				return m
			}
		}
	}
	t.Fatalf("window %q reports no widgets", w.title)
	return windowWidgets{}
}

// find waits up to timeout for a control (or, with control false, a text) showing text exactly,
// on the topmost layer that has one, and returns it. Where one text names several controls
// (the editor's two "New…"), the rightmost wins: use findWhere to choose otherwise.
func (w *window) find(t *testing.T, text string, control bool, timeout time.Duration) (ui.WidgetPos, bool) {
	t.Helper()
	return w.findWhere(t, text, control, timeout, func(a, b ui.WidgetPos) bool { return a.X >= b.X })
}

// findWhere is find with better(a, b) choosing between controls of the same text and layer.
func (w *window) findWhere(t *testing.T, text string, control bool, timeout time.Duration, better func(a, b ui.WidgetPos) bool) (ui.WidgetPos, bool) {
	t.Helper()
	return w.findBy(t, timeout, func(c ui.WidgetPos) bool { return c.Text == text && c.Control == control }, better)
}

// row waits up to timeout for a list row showing text (a run in the Runs list, not the entry
// that named it).
func (w *window) row(t *testing.T, text string, timeout time.Duration) (ui.WidgetPos, bool) {
	t.Helper()
	return w.findBy(t, timeout, func(c ui.WidgetPos) bool { return c.Text == text && strings.HasSuffix(c.Type, "listItem") },
		func(a, b ui.WidgetPos) bool { return a.X >= b.X })
}

// findBy waits up to timeout for an enabled, visible control or text that match accepts, on the
// topmost layer that has one, better choosing among several.
func (w *window) findBy(t *testing.T, timeout time.Duration, match func(ui.WidgetPos) bool, better func(a, b ui.WidgetPos) bool) (ui.WidgetPos, bool) {
	t.Helper()
	for deadline := time.Now().Add(timeout); ; time.Sleep(150 * time.Millisecond) {
		best, found := ui.WidgetPos{}, false
		for _, c := range w.widgets(t).Widgets {
			if !match(c) || c.Disabled {
				continue
			}
			if v := c.Visible(); v.W < 1 || v.H < 1 {
				continue
			}
			if !found || c.Layer > best.Layer || (c.Layer == best.Layer && better(c, best)) {
				best, found = c, true
			}
		}
		if found || time.Now().After(deadline) {
			return best, found
		}
	}
}

// sortBy clicks a table's column header until it shows the order wanted ("▼" descending, "▲"
// ascending), as a person clicks twice for the other order.
func (w *window) sortBy(t *testing.T, header, order string) {
	t.Helper()
	isHeader := func(c ui.WidgetPos) bool {
		return c.Type == "*ui.headerCell" && strings.TrimSpace(strings.TrimRight(c.Text, "▲▼")) == header
	}
	for range 3 {
		h, ok := w.findBy(t, 10*time.Second, isHeader, leftmost)
		if !ok {
			t.Fatalf("no column %q:\n%s", header, w.describe(t))
		}
		w.clickAt(t, h)
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(150 * time.Millisecond) {
			h, _ := w.findBy(t, time.Second, isHeader, leftmost)
			if strings.HasSuffix(h.Text, order) {
				return
			}
			if strings.HasSuffix(h.Text, "▲") || strings.HasSuffix(h.Text, "▼") {
				break // sorted the other way: click again
			}
		}
	}
	t.Fatalf("column %q never sorted %s", header, order)
}

// topCell is the text in the first row of the table column under the header, as the table is
// sorted now ("" when the column shows no row).
func (w *window) topCell(t *testing.T, header string) string {
	t.Helper()
	if col := w.column(t, header); len(col) > 0 {
		return col[0]
	}
	return ""
}

// column lists the texts of a table column's rows, top to bottom, as shown now.
func (w *window) column(t *testing.T, header string) []string {
	t.Helper()
	h, ok := w.findBy(t, 10*time.Second, func(c ui.WidgetPos) bool { return c.Text == header && c.Type == "*ui.headerCell" },
		func(a, b ui.WidgetPos) bool { return a.X < b.X })
	if !ok {
		t.Fatalf("no column %q:\n%s", header, w.describe(t))
	}
	var cells []ui.WidgetPos
	for _, o := range w.widgets(t).Widgets {
		if o.Type == "*ui.tableCell" && o.Layer == h.Layer && o.X > h.X-1 && o.X < h.X+1 && o.Y > h.Y {
			cells = append(cells, o)
		}
	}
	slices.SortFunc(cells, func(a, b ui.WidgetPos) int { return cmp.Compare(a.Y, b.Y) })
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = c.Text
	}
	return out
}

// runRow is the Runs list's row of a run, scrolled into view with the mouse wheel as a person
// would (up first, then down).
func (w *window) runRow(t *testing.T, run string) ui.WidgetPos {
	t.Helper()
	isRow := func(c ui.WidgetPos) bool {
		return c.Text == run && strings.HasSuffix(c.Type, "listItem") && c.Visible().H >= c.H-1
	}
	// Up to the top first (40 turns scroll past the 25 runs the journeys make), then down.
	for i := 0; i < 90; i++ {
		if r, ok := w.findBy(t, 300*time.Millisecond, isRow, leftmost); ok {
			return r
		}
		list, ok := w.findBy(t, time.Second, func(c ui.WidgetPos) bool { return c.Type == "*widget.List" }, leftmost)
		if !ok {
			break
		}
		m, at := w.widgets(t), list.Centre()
		wheel := "4" // up
		if i >= 40 {
			wheel = "5"
		}
		w.p.d.xdotool(t, "mousemove", "--window", w.id, strconv.Itoa(int(at.X*m.Scale)), strconv.Itoa(int(at.Y*m.Scale)), "click", wheel)
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the Runs list has no %q:\n%s", run, w.describe(t))
	return ui.WidgetPos{}
}

// wheelTo finds a fully shown control that is matches, turning the mouse wheel down over
// the control at `over` (inside the scrolled area) until it shows, as a person scrolls a list.
func (w *window) wheelTo(t *testing.T, is func(ui.WidgetPos) bool, over ui.WidgetPos) (ui.WidgetPos, bool) {
	t.Helper()
	shown := func(c ui.WidgetPos) bool { return is(c) && c.Visible().H >= c.H-1 }
	for i := 0; i < 40; i++ {
		if c, ok := w.findBy(t, 300*time.Millisecond, shown, leftmost); ok {
			return c, true
		}
		m, at := w.widgets(t), over.Centre()
		w.p.d.xdotool(t, "mousemove", "--window", w.id, strconv.Itoa(int(at.X*m.Scale)), strconv.Itoa(int(at.Y*m.Scale)), "click", "5")
		time.Sleep(100 * time.Millisecond)
	}
	return ui.WidgetPos{}, false
}

// firstRow is the text of the top row of the leftmost list (the editor's uncategorised list).
func (w *window) firstRow(t *testing.T) string {
	t.Helper()
	list, ok := w.findBy(t, 5*time.Second, func(c ui.WidgetPos) bool { return c.Type == "*widget.List" }, leftmost)
	if !ok {
		t.Fatalf("window %q shows no list", w.title)
	}
	top := ui.WidgetPos{Rect: ui.Rect{Y: 1e9}}
	for _, c := range w.widgets(t).Widgets {
		if strings.HasSuffix(c.Type, "listItem") && c.X == list.X && c.Y >= list.Y-1 && c.Y < top.Y {
			top = c
		}
	}
	return top.Text
}

// leftmost prefers the control further left (the left list of the editor, its toolbar).
func leftmost(a, b ui.WidgetPos) bool { return a.X < b.X }

// leftRow prefers a list's row to other controls of the same text (a search entry holding it),
// then the leftmost.
func leftRow(a, b ui.WidgetPos) bool {
	ra, rb := strings.HasSuffix(a.Type, "listItem"), strings.HasSuffix(b.Type, "listItem")
	if ra != rb {
		return ra
	}
	return a.X < b.X
}

// click clicks the middle of the control showing text (the rightmost of several); it fails the
// test when none appears.
func (w *window) click(t *testing.T, text string) {
	t.Helper()
	w.clickWhere(t, text, func(a, b ui.WidgetPos) bool { return a.X >= b.X })
}

// clickWhere is click with better choosing between controls of the same text. It clicks once
// the control has kept its place over one report of the map, so a list still filtering or a
// dialog still opening does not take the click somewhere else.
func (w *window) clickWhere(t *testing.T, text string, better func(a, b ui.WidgetPos) bool) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); ; {
		c, ok := w.findWhere(t, text, true, 15*time.Second, better)
		if !ok {
			t.Fatalf("window %q shows no control %q; it shows:\n%s", w.title, text, w.describe(t))
		}
		time.Sleep(400 * time.Millisecond) // more than one report (300 ms)
		if again, ok := w.findWhere(t, text, true, 0, better); (ok && again.Rect == c.Rect && again.Layer == c.Layer) || time.Now().After(deadline) {
			w.clickAt(t, c)
			return
		}
	}
}

// tapRow taps the table cell showing text, as a person taps a row, until shown says the tap
// brought what it should (shown may wait). A tap taken from an older picture of a window that
// is still laying out can land on the header, which sorts the table instead: then resort puts
// the order back before the next try.
func (w *window) tapRow(t *testing.T, text string, resort func(), shown func() bool) bool {
	t.Helper()
	for range 3 {
		time.Sleep(500 * time.Millisecond) // let the layout settle
		cell, ok := w.findBy(t, 5*time.Second, func(c ui.WidgetPos) bool { return c.Text == text && c.Type == "*ui.tableCell" }, leftmost)
		if !ok {
			resort()
			continue
		}
		w.clickAt(t, cell)
		if shown() {
			return true
		}
		resort()
	}
	return false
}

// clickWidest clicks the widest control of a Go type (the editor's category chooser among its
// selects), whatever it shows.
func (w *window) clickWidest(t *testing.T, typ string) {
	t.Helper()
	var best ui.WidgetPos
	for _, c := range w.widgets(t).Widgets {
		if c.Type == typ && c.Control && c.Layer == 0 && c.W > best.W {
			best = c
		}
	}
	if best.W == 0 {
		t.Fatalf("window %q shows no %s", w.title, typ)
	}
	w.clickAt(t, best)
}

func (w *window) clickAt(t *testing.T, c ui.WidgetPos) {
	t.Helper()
	m := w.widgets(t)
	at := c.Centre()
	if c.Type == "*widget.Check" {
		at.X = c.Visible().X + 16 // a check answers only on its box and text, not the row's end
	}
	x, y := int(at.X*m.Scale), int(at.Y*m.Scale)
	w.p.d.xdotool(t, "mousemove", "--window", w.id, strconv.Itoa(x), strconv.Itoa(y), "click", "1")
	time.Sleep(300 * time.Millisecond) // one widget report later, the click's result shows
}

// key presses keys (xdotool's names, e.g. "ctrl+shift+s") in the window.
func (w *window) key(t *testing.T, keys ...string) {
	t.Helper()
	w.p.d.xdotool(t, "windowfocus", "--sync", w.id)
	w.p.d.xdotool(t, append([]string{"key", "--delay", "60"}, keys...)...)
	time.Sleep(300 * time.Millisecond)
}

// typeText types text where the keyboard focus is, replacing what the entry held.
func (w *window) typeText(t *testing.T, text string) {
	t.Helper()
	w.key(t, "ctrl+a")
	w.p.d.xdotool(t, "type", "--delay", "15", text)
	time.Sleep(200 * time.Millisecond)
}

// dialogs is how many overlays (dialogs, pop-ups) the window shows.
func (w *window) dialogs(t *testing.T) int {
	n := 0
	for _, c := range w.widgets(t).Widgets {
		n = max(n, c.Layer)
	}
	return n
}

// waitDialogs waits up to ten seconds until the window shows n overlays.
func (w *window) waitDialogs(t *testing.T, n int) bool {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(150 * time.Millisecond) {
		if w.dialogs(t) == n {
			return true
		}
	}
	return false
}

// describe lists the window's controls, for a failure message.
func (w *window) describe(t *testing.T) string {
	var b strings.Builder
	for _, c := range w.widgets(t).Widgets {
		if c.Control {
			fmt.Fprintf(&b, "  layer %d %s\n", c.Layer, c)
		}
	}
	return b.String()
}

// resize makes the window width×height pixels and waits until it has laid itself out again.
func (w *window) resize(t *testing.T, width, height int) windowWidgets {
	t.Helper()
	w.p.d.xdotool(t, "windowsize", "--sync", w.id, strconv.Itoa(width), strconv.Itoa(height))
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if m := w.widgets(t); int(m.Width*m.Scale+0.5) == width && int(m.Height*m.Scale+0.5) == height {
			time.Sleep(500 * time.Millisecond) // background recomputes settle
			return w.widgets(t)
		}
	}
	t.Fatalf("window %q did not become %dx%d", w.title, width, height)
	return windowWidgets{}
}

// screenshot saves the window's pixels as PNG into $ANDROPROF_E2E_SHOTS, when set, for a person
// to look at.
func (w *window) screenshot(t *testing.T, name string) {
	t.Helper()
	dir := os.Getenv("ANDROPROF_E2E_SHOTS")
	if dir == "" {
		return
	}
	// Xvfb keeps no pixels of a covered window: raise it and let it paint.
	w.p.d.xdotool(t, "windowraise", w.id)
	time.Sleep(time.Second)
	n, err := strconv.ParseUint(w.id, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	img, err := grabX11(uintptr(n))
	if err != nil {
		t.Fatalf("window %s: %v", w.id, err)
	}
	savePNG(t, filepath.Join(dir, name+".png"), img)
}

func savePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// waitFile waits up to 30 s for a file to exist with content that check accepts.
func waitFile(t *testing.T, p *program, path string, check func([]byte) error) {
	t.Helper()
	var err error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		p.check(t)
		var data []byte
		if data, err = os.ReadFile(path); err == nil {
			if err = check(data); err == nil {
				return
			}
		}
	}
	t.Fatalf("%s: %v", path, err)
}
