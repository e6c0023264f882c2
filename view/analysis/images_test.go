package analysis

import (
	"compress/gzip"
	"context"
	"fmt"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/controller"
	"androprof/formats/bbprofile"
	"androprof/internal/fastlane"
	"androprof/internal/viewtest"
	"androprof/model"
	"androprof/model/cost"
	"androprof/store"
	"androprof/store/storetest"
	"androprof/view/ui"
)

// dynProfile is a real plugin run of a dynamically linked ARM program (a sieve against glibc:
// the program, libc.so.6 and ld-linux-armhf.so.3, with its system calls).
const dynProfile = "../../formats/bbprofile/testdata/dyn-arm.bbprofile.gz"

// importProfile imports a gzipped plugin profile as run, through the real reader and store.
func importProfile(db *store.DB, run, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	return db.ImportRun(context.Background(), run, path, func(s cost.BlockSink) error {
		return bbprofile.NewReader(zr, path).Feed(s)
	})
}

// dyn is a workspace holding runs dyn and dyn-again (the real program twice) and small (a trace
// without images or system calls).
var dyn = sharedWorkspace{build: func(db *store.DB) error {
	for _, run := range []string{"dyn", "dyn-again"} {
		if err := importProfile(db, run, dynProfile); err != nil {
			return err
		}
	}
	return db.ImportRun(context.Background(), "small", "test", storetest.SmallRun)
}}

// openDyn opens the analysis window on a copy of dyn, showing dyn.
func openDyn(t *testing.T) *View {
	t.Helper()
	db := dyn.open(t)
	v := openWindow(test.NewTempApp(t), controller.NewWorkspace(db), &scriptedImporter{db: db})
	v.Wait()
	showRun(v, "dyn", "")
	selectTab(t, v.Tabs, "Images")
	return v
}

// imageKeys are the rows of the Images table, by name.
func imageKeys(v *View) map[string]imageRow {
	out := map[string]imageRow{}
	for _, r := range v.Images.Images.Rows() {
		out[r.Key] = r
	}
	return out
}

// The Images tab lists the program, its C library and the loader, each with where its names
// came from, and their instructions add up to the process's.
func TestImagesTabListsTheImagesOfARealProgram(t *testing.T) {
	v := openDyn(t)
	rows := imageKeys(v)
	program := v.res.data.Processes[0].Name
	want := map[string]cost.ImageKind{program: cost.ImageProgram, "libc.so.6": cost.ImageLibrary,
		"ld-linux-armhf.so.3": cost.ImageLoader}
	if len(rows) != len(want) {
		t.Fatalf("images %v, want %v", slices.Collect(maps.Keys(rows)), want)
	}
	var sum int64
	for name, kind := range want {
		r, ok := rows[name]
		if !ok || r.ImageKind != kind || r.Symbols == "" || r.Instructions <= 0 {
			t.Errorf("image %s: %+v", name, r)
		}
		sum += r.Instructions
	}
	if total := v.res.pids.Total.Instructions; sum != total || total == 0 {
		t.Errorf("images add up to %d instructions, the process ran %d", sum, total)
	}
	tb := v.Images.Images
	if viewtest.ColIndex(tb, "Names from") < 0 || viewtest.ColIndex(tb, "% cycles") < 0 || viewtest.ColIndex(tb, "Process") >= 0 {
		t.Errorf("columns %v", tb.Headers())
	}
	if v.Images.Empty.Visible() || v.Syscalls.Empty.Visible() {
		t.Error("an empty-state text shows for a run with images and system calls")
	}
}

// Image → function → block → instructions, with taps and with the keyboard, and back up the
// path; each level's rows add up to the row chosen above it.
func TestImagesDrillDownToInstructions(t *testing.T) {
	v := openDyn(t)
	it := v.Images
	img := slices.IndexFunc(it.Images.Rows(), func(r imageRow) bool { return r.Key == "libc.so.6" })
	it.Images.Select(img)
	v.Wait()
	chosen := it.Images.Rows()[img]
	fns := it.Functions.Rows()
	if it.level != levelFunctions || len(fns) == 0 || !it.pages[levelFunctions].Visible() || it.pages[levelImages].Visible() {
		t.Fatalf("choosing %s: level %d, %d functions", chosen.Key, it.level, len(fns))
	}
	var sum int64
	for _, f := range fns {
		if f.Image != "libc.so.6" || f.PID != chosen.PID {
			t.Errorf("function %+v listed for libc.so.6", f)
		}
		sum += f.Instructions
	}
	if sum != chosen.Instructions {
		t.Errorf("functions of libc.so.6 add up to %d instructions, the image ran %d", sum, chosen.Instructions)
	}
	if it.Crumbs[levelFunctions].Text != "› libc.so.6" || it.Crumbs[levelFunctions].Disabled() == false {
		t.Errorf("path shows %q", it.Crumbs[levelFunctions].Text)
	}

	it.Functions.Select(0)
	v.Wait()
	fn := it.Functions.Rows()[0]
	blocks := it.Blocks.Table.Rows()
	if it.level != levelBlocks || len(blocks) == 0 {
		t.Fatalf("choosing %s: level %d, %d blocks", fn.Key, it.level, len(blocks))
	}
	sum = 0
	for _, b := range blocks {
		sum += b.Instructions
	}
	if sum != fn.Instructions {
		t.Errorf("blocks of %s add up to %d instructions, the function ran %d", fn.Key, sum, fn.Instructions)
	}
	it.Blocks.Table.Select(0)
	v.Wait()
	insns := it.Blocks.Insns.Rows()
	if n := blockSize(blocks[0]); len(insns) == 0 || int64(len(insns)) != n {
		t.Errorf("block %s lists %d instructions, it has %d", blocks[0].Key, len(insns), n)
	}
	if insns[0].Category == "" || insns[0].Instruction.Mnemonic == "" {
		t.Errorf("instruction %+v", insns[0])
	}

	// Back up with the keyboard: Back, then the path's first button.
	c := v.Window.Canvas()
	c.Focus(it.Back)
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if it.level != levelFunctions || !it.pages[levelFunctions].Visible() {
		t.Fatalf("Back went to level %d", it.level)
	}
	c.Focus(it.Crumbs[levelImages])
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if it.level != levelImages || !it.pages[levelImages].Visible() || !it.Back.Disabled() {
		t.Fatalf("All images went to level %d", it.level)
	}
	// And down again: the table takes arrows and Space, the same row included.
	c.Focus(it.Images.Table)
	for range img {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	v.Wait()
	if it.level != levelFunctions || it.image.Key != "libc.so.6" || len(it.Functions.Rows()) != len(fns) {
		t.Errorf("Space on row %d: level %d, image %q", img, it.level, it.image.Key)
	}
}

// A new profile prices the images anew, and the drill-down stays where it was.
func TestImagesFollowTheProfile(t *testing.T) {
	v := openDyn(t)
	program := v.res.data.Processes[0].Name
	before := imageKeys(v)[program].Cycles
	v.Images.Images.Select(slices.IndexFunc(v.Images.Images.Rows(), func(r imageRow) bool { return r.Key == program }))
	v.Wait()
	fnBefore := v.Images.Functions.Rows()[0]
	other := "ARMv7-A Cortex-A9"
	if v.Profile.Selected == other {
		other = "ARMv7-A Cortex-A15"
	}
	v.Profile.SetSelected(other)
	v.Wait()
	after := imageKeys(v)[program].Cycles
	if after == before || after == 0 {
		t.Errorf("the program costs %g cycles under %s and %g under %s", before, "the first profile", after, other)
	}
	fns := v.Images.Functions.Rows()
	if v.Images.level != levelFunctions || len(fns) == 0 || fns[0].Key != fnBefore.Key || fns[0].Cycles == fnBefore.Cycles {
		t.Errorf("after the profile changed: level %d, functions %v (were %v)", v.Images.level, fns, fnBefore)
	}
	if c := v.Images.Chart.Chart(); !strings.Contains(c.Title, other) {
		t.Errorf("layer chart %q is not priced with %s", c.Title, other)
	}
}

// The layer chart splits the process into program, libraries and loader, writes its system
// calls beside the bar, and draws.
func TestLayerChart(t *testing.T) {
	v := openDyn(t)
	v.Window.Resize(Size)
	v.Wait()
	c := v.Images.Chart.Chart()
	if !slices.Equal(c.Series, []string{"program", "libraries", "loader"}) || !c.Stacked || len(c.Bars) != 1 {
		t.Fatalf("layer chart: series %v, %d bars", c.Series, len(c.Bars))
	}
	var calls int64
	for _, r := range v.res.calls {
		calls += r.Count
	}
	if want := fmt.Sprintf("%d system calls", calls); calls == 0 || len(c.Notes) != 1 || c.Notes[0] != want {
		t.Errorf("notes %q, want %q", c.Notes, want)
	}
	var layers float64
	for _, x := range c.Values[0] {
		layers += x
	}
	if got := v.res.pids.Total.Cycles; !near(layers, got) || !near(c.Bars[0].Value, got) {
		t.Errorf("the layers add up to %g cycles, the bar is %g, the process cost %g", layers, c.Bars[0].Value, got)
	}
	img := v.Images.Chart.Image()
	if img == nil || viewtest.CountColours(img) < 6 {
		t.Fatalf("layer chart not drawn")
	}
	b := img.Bounds()
	v.Images.Chart.Area.Tapped(&fyne.PointEvent{Position: fyne.NewPos(float32(b.Dx())/2, float32(b.Dy())/2)})
	v.Wait()
	if v.sel.pid != v.res.data.Processes[0].PID {
		t.Errorf("a tap on the process's bar selected pid %d", v.sel.pid)
	}
}

func near(a, b float64) bool { return a-b < 1e-6*b && b-a < 1e-6*b }

// The System calls tab counts each call of the real program, per thread when asked, and says
// why a trace without them has none.
func TestSyscallsTab(t *testing.T) {
	v := openDyn(t)
	selectTab(t, v.Tabs, "System calls")
	s := v.Syscalls
	calls := map[string]cost.SyscallRow{}
	for _, r := range s.Table.Rows() {
		calls[r.Name] = r
	}
	if r := calls["exit_group"]; r.Count != 1 || r.Insns <= 0 {
		t.Errorf("exit_group: %+v", r)
	}
	if r := calls["write"]; r.Count < 1 || r.Number != 4 {
		t.Errorf("write: %+v", r)
	}
	if viewtest.ColIndex(s.Table, "Thread") >= 0 {
		t.Error("a Thread column without Per thread")
	}
	if c := s.Chart.Chart(); len(c.Bars) != len(calls) {
		t.Errorf("chart has %d bars for %d calls", len(c.Bars), len(calls))
	}
	s.PerThread.SetChecked(true)
	col := viewtest.ColIndex(s.Table, "Thread")
	if col < 0 || len(s.Table.Rows()) == 0 || s.Table.Cell(0, col) != fmt.Sprint(s.Table.Rows()[0].TID) || s.Table.Rows()[0].TID == 0 {
		t.Errorf("per thread: columns %v", s.Table.Headers())
	}

	showRun(v, "small", "")
	if !s.Empty.Visible() || !strings.Contains(s.Empty.Text, "androprof run") || s.main.Visible() {
		t.Errorf("a run without system calls: empty text shown %v", s.Empty.Visible())
	}
	if !v.Images.Empty.Visible() || len(v.Images.Images.Rows()) != 0 {
		t.Errorf("a run without images: empty text shown %v", v.Images.Empty.Visible())
	}
}

// The Functions tab names each function's image when the trace has images.
func TestFunctionsShowTheirImage(t *testing.T) {
	v := openDyn(t)
	tb := v.Functions.Table
	col := viewtest.ColIndex(tb, "Image")
	if col != 1 {
		t.Fatalf("Image column at %d: %v", col, tb.Headers())
	}
	images := map[string]bool{}
	for i := range tb.Rows() {
		images[tb.Cell(i, col)] = true
	}
	for _, want := range []string{v.res.data.Processes[0].Name, "libc.so.6", "ld-linux-armhf.so.3"} {
		if !images[want] {
			t.Errorf("no function in %s: %v", want, images)
		}
	}
	showRun(v, "small", "")
	if viewtest.ColIndex(tb, "Image") >= 0 {
		t.Errorf("a run without images has an Image column")
	}
}

// Compare per image: a row per image, each compared item's numbers in columns of its own.
func TestCompareImages(t *testing.T) {
	v := openDyn(t)
	selectTab(t, v.Tabs, "Compare")
	c := v.Compare
	c.Pick(cost.CompareItem{Run: "dyn"}, true)
	c.Pick(cost.CompareItem{Run: "dyn-again"}, true)
	v.Wait()
	c.PerImage.SetChecked(true)
	rows := c.Images.Rows()
	if len(rows) != 3 || !c.Images.Content().Visible() || c.Table.Content().Visible() {
		t.Fatalf("per image: %d rows", len(rows))
	}
	for _, title := range []string{"dyn instructions", "dyn cycles", "dyn energy (J)", "dyn-again instructions", "dyn-again cycles"} {
		if viewtest.ColIndex(c.Images, title) < 0 {
			t.Errorf("no column %q: %v", title, c.Images.Headers())
		}
	}
	for _, r := range rows {
		if r.Cells[0] != r.Cells[1] || r.Cells[0].Instructions == 0 {
			t.Errorf("the same run twice: %s %+v", r.Key, r.Cells)
		}
	}
	if ch := c.Chart.Chart(); len(ch.Series) != 2 || len(ch.Bars) != 3 || !strings.Contains(ch.Title, "per image") {
		t.Errorf("per-image chart: %d series, %d bars, %q", len(ch.Series), len(ch.Bars), ch.Title)
	}
	c.PerImage.SetChecked(false)
	if len(c.Chart.Chart().Series) != 0 || !c.Table.Content().Visible() {
		t.Error("unticking Per image does not bring the totals back")
	}
}

// The Images and System calls tabs of the real program, drawn with the software painter, every
// control reachable in the smallest window; with ANALYSIS_SHOTS=DIR they are written there to
// look at.
func TestImageScreens(t *testing.T) {
	fastlane.Slow(t, "paints the tabs and checks each at the smallest size")
	v := openDyn(t)
	w := v.Window
	dir := os.Getenv("ANALYSIS_SHOTS")
	shoot := func(name string) {
		t.Helper()
		layOut(v, viewtest.LayoutSizes[0]) // the smallest window shows every control too
		viewtest.CheckReachable(t, w)
		layOut(v, Size)
		img := w.Canvas().Capture()
		if colours := viewtest.CountColours(img); colours < 8 {
			t.Errorf("%s looks blank: %d colours", name, colours)
		}
		if dir != "" {
			f, err := os.Create(filepath.Join(dir, ui.Slug(name, "tab")+".png"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := png.Encode(f, img); err != nil {
				t.Fatal(err)
			}
		}
	}
	shoot("images")
	v.Images.Images.Select(0)
	v.Wait()
	shoot("images-functions")
	v.Images.Functions.Select(0)
	v.Wait()
	v.Images.Blocks.Table.Select(0)
	v.Wait()
	shoot("images-blocks")
	selectTab(t, v.Tabs, "System calls")
	shoot("system-calls")
	selectTab(t, v.Tabs, "Compare")
	v.Compare.Pick(cost.CompareItem{Run: "dyn"}, true)
	v.Compare.Pick(cost.CompareItem{Run: "dyn-again"}, true)
	v.Wait()
	v.Compare.PerImage.SetChecked(true)
	shoot("compare-per-image")
	showRun(v, "small", "")
	selectTab(t, v.Tabs, "System calls")
	shoot("system-calls-empty")
}

// feedTwoImageProcesses is test input, not measured data: a parent and its child, each running
// a program and a library, the child also code with no file.
func feedTwoImageProcesses(s cost.BlockSink) error {
	is := s.(cost.ImageSink)
	for _, pid := range []int{20, 21} {
		if err := s.Process(model.Process{PID: pid, Name: "p"}); err != nil {
			return err
		}
		for _, im := range []cost.Image{{PID: pid, Path: "/bin/p", Name: "p", Kind: cost.ImageProgram, Symbols: ".symtab"},
			{PID: pid, Path: "/lib/libc.so.6", Name: "libc.so.6", Kind: cost.ImageLibrary, Symbols: ".dynsym"},
			{PID: pid, Path: "[vdso]", Name: "[vdso]", Kind: cost.ImageNoFile, Symbols: "no file"}} {
			if err := is.Image(im); err != nil {
				return err
			}
		}
		for i, path := range []string{"/bin/p", "/lib/libc.so.6", "[vdso]"} {
			if pid == 20 && path == "[vdso]" {
				continue
			}
			b := &cost.Block{PC: uint64(0x1000 * (i + 1)), ISA: cost.ARM, Symbol: fmt.Sprintf("f%d", i), Image: path,
				Insns: []cost.Insn{{Addr: uint64(0x1000 * (i + 1)), Encoding: "e2800001", Mnemonic: "add", Operands: "r0, r0, #1"}}}
			if err := s.Block(pid, b); err != nil {
				return err
			}
			if err := s.Count(pid, 0, b.PC, cost.ARM, int64(10*pid+i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// With several processes the table says whose image each row is, the chart has a bar per
// process, and choosing a process narrows the table, not the chart.
func TestImagesOfSeveralProcesses(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.ImportRun(context.Background(), "two", "test", feedTwoImageProcesses); err != nil {
		t.Fatal(err)
	}
	v := openWindow(test.NewTempApp(t), controller.NewWorkspace(db), &scriptedImporter{db: db})
	v.Wait()
	showRun(v, "two", "")
	tb := v.Images.Images
	col := viewtest.ColIndex(tb, "Process")
	if col < 0 || len(tb.Rows()) != 5 {
		t.Fatalf("%d rows, columns %v", len(tb.Rows()), tb.Headers())
	}
	if c := v.Images.Chart.Chart(); len(c.Bars) != 2 || !slices.Equal(c.Series, []string{"program", "libraries", "no file"}) || c.Notes != nil {
		t.Errorf("layer chart: bars %v, series %v, notes %q", c.Bars, c.Series, c.Notes)
	}
	v.SelectProcess(21)
	v.Wait()
	if viewtest.ColIndex(tb, "Process") >= 0 || len(tb.Rows()) != 3 || len(v.Images.Chart.Chart().Bars) != 2 {
		t.Errorf("process 21: %d rows, columns %v", len(tb.Rows()), tb.Headers())
	}
	for _, r := range tb.Rows() {
		if r.PID != 21 {
			t.Errorf("row %+v under process 21", r)
		}
	}
}
