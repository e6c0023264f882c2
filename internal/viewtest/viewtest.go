// Package viewtest is what the view packages' tests share: dialogs and keys driven as a person
// does, the workspaces they open (imported once per test binary, copied for each test), and a
// window that shows one tab set as the analysis window does.
package viewtest

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/formats/heaplog/heaplogtest"
	"androprof/formats/hprof/hproftest"
	"androprof/internal/corpus"
	"androprof/model"
	"androprof/model/cost"
	"androprof/store"
	"androprof/store/storetest"
	"androprof/view/ui"
)

// cleanups run after every test of the package, for the workspaces its tests share.
var cleanups []func()

// Main runs a package's tests, then removes the workspaces they share.
func Main(m *testing.M) {
	code := m.Run()
	for _, f := range cleanups {
		f()
	}
	os.Exit(code)
}

// TapDialogButton taps the button labelled text in the window's top dialog.
func TapDialogButton(t *testing.T, w fyne.Window, text string) {
	t.Helper()
	top := w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatalf("no dialog to tap %q in", text)
	}
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			test.Tap(b)
			return
		}
	}
	t.Fatalf("the dialog has no %q button", text)
}

// PressShortcut sends a shortcut to the window's canvas as the desktop driver does when no
// menu item and no focused widget takes it. The test driver's canvas wraps the software canvas,
// which handles shortcuts, without passing TypedShortcut on, hence the reflection.
func PressShortcut(t *testing.T, w fyne.Window, key fyne.KeyName, mod fyne.KeyModifier) {
	t.Helper()
	var c any = w.Canvas()
	if _, ok := c.(fyne.Shortcutable); !ok {
		c = reflect.ValueOf(c).Elem().FieldByName("WindowlessCanvas").Interface()
	}
	sc, ok := c.(fyne.Shortcutable)
	if !ok {
		t.Fatalf("canvas %T takes no shortcuts", c)
	}
	sc.TypedShortcut(&desktop.CustomShortcut{KeyName: key, Modifier: mod})
}

// OpenDB opens the workspace database at path for one test; it is closed when the test ends.
func OpenDB(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Must fails the test at once on an error.
func Must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TypeInto types text into the top dialog's entry whose placeholder starts with hint.
func TypeInto(t *testing.T, w fyne.Window, hint, text string) {
	t.Helper()
	for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
		if e := ui.TextEntry(o); e != nil && strings.HasPrefix(e.PlaceHolder, hint) {
			test.Type(e, text)
			return
		}
	}
	t.Fatalf("no entry %q in the dialog", hint)
}

// CountColours counts the colours of every third pixel of every third row: a blank window has
// a handful.
func CountColours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
		}
	}
	return len(seen)
}

// The window sizes every layout must work at: a small laptop screen and a full HD one.
var LayoutSizes = []fyne.Size{{Width: 900, Height: 600}, {Width: 1920, Height: 1080}}

// CheckReachable fails t for every control of win that a person cannot reach or that another
// control or text covers (LayoutProblems).
func CheckReachable(t testing.TB, win fyne.Window) {
	t.Helper()
	c := win.Canvas()
	for _, p := range ui.LayoutProblems(ui.WidgetMap(c), c.Size().Width, c.Size().Height) {
		t.Error(p)
	}
}

// StoredProfile is a small profile to keep in a workspace: one category with a citation.
func StoredProfile() *cost.Profile {
	p := cost.NewProfile("Stored test profile", cost.ARM)
	p.Reference = cost.Reference{FrequencyGHz: 1, CPI: 1.5}
	p.Categories = []cost.Category{{Name: "Load", Cycles: 2, PowerMW: 90,
		Citations:    []cost.Citation{{Cost: "power", Estimate: true, Text: "guess"}},
		Instructions: []cost.Instruction{{ISA: cost.ARM, Mnemonic: "LDR"}}}}
	return p
}

// Shared is a workspace built once per test binary, by the first test that asks, and copied
// for each test: importing takes seconds under the race detector, and a copy per test keeps
// each test's imports, deletions and settings its own.
type Shared struct {
	once sync.Once
	path string
	err  error
}

// Copy is the path of a copy of the workspace for t; build makes it at path, in a folder of its
// own removed after the package's tests, the first time.
func (s *Shared) Copy(t testing.TB, build func(path string) error) string {
	t.Helper()
	s.once.Do(func() {
		dir, err := os.MkdirTemp("", "androprof-shared")
		if err != nil {
			s.err = err
			return
		}
		cleanups = append(cleanups, func() { os.RemoveAll(dir) })
		s.path = filepath.Join(dir, "w.db")
		s.err = build(s.path)
	})
	if s.err != nil {
		t.Fatal(s.err)
	}
	data, err := os.ReadFile(s.path)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "w.db")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// methodRuns are the method traces of openMethods: run name → corpus file.
var methodRuns = [][2]string{{"jag", "jag-dmtrace.trace"}, {"jag2", "jag-dmtrace.trace"},
	{"art", "art-trace-regular.trace.gz"}, {"sns", "sns-logout.trace"}}

// methodsDB is a workspace with methodRuns and the emulator run "small", imported once through
// the real importer and store.
var methodsDB Shared

// MethodsWorkspace is the path of a copy of methodsDB for one test; it skips the test when
// ../shared/corpus is absent.
func MethodsWorkspace(t *testing.T) string {
	t.Helper()
	for _, r := range methodRuns {
		corpus.File(t, r[1])
	}
	return methodsDB.Copy(t, importMethodRuns)
}

func importMethodRuns(path string) error {
	db, err := store.Open(path)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	im := controller.NewWorkspace(db).Importer()
	for _, r := range methodRuns {
		if err := im.ImportFiles(ctx, r[0], []string{filepath.Join(corpus.Dir(), r[1])}, nil); err != nil {
			return err
		}
	}
	return db.ImportRun(ctx, "small", "test", storetest.SmallRun)
}

// The heap workspace: a synthetic heap log (heaplogtest, never shown as a measurement) imported
// at 32 KB cohorts, so it has about twenty; an Android-shaped synthetic dump (hproftest) with
// image, zygote and app heaps; the emulator run "small"; and, when ../shared/corpus is there, a
// method trace and a real dump, all through the real importer and store.
const (
	HeapRun     = "heap"
	DumpRun     = "dump"
	HeapCohort  = 32 << 10
	heapEvents  = 20000
	CorpusDump  = "perflib-dialer.hprof"
	corpusTrace = "jag-dmtrace.trace"
)

var heapDB struct {
	Shared
	dir   string   // also holds the logs and dumps, for tests that import them again
	extra []string // corpus runs imported: "methods", "dialer"
}

// HeapFile writes a synthetic heap log of events records into dir.
func HeapFile(dir, name string, events int, seed int64) (string, error) {
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if err := heaplogtest.Synthetic(f, events, seed); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}

// HeapWorkspace is the path of a copy of the heap workspace for one test, the folder of its
// logs and dumps, and the corpus runs it holds.
func HeapWorkspace(t *testing.T) (path, dir string, extra []string) {
	t.Helper()
	path = heapDB.Copy(t, func(path string) (err error) {
		heapDB.dir = filepath.Dir(path)
		heapDB.extra, err = importHeapRuns(heapDB.dir, path)
		return err
	})
	return path, heapDB.dir, heapDB.extra
}

func importHeapRuns(dir, path string) ([]string, error) {
	logPath, err := HeapFile(dir, "syn.heaplog", heapEvents, 1)
	if err != nil {
		return nil, err
	}
	dumpPath := filepath.Join(dir, "syn.hprof")
	f, err := os.Create(dumpPath)
	if err != nil {
		return nil, err
	}
	if _, err := hproftest.Generate(f, hproftest.Options{Version: "1.0.3"}, 200<<10, 1); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	db, err := store.Open(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	ctx := context.Background()
	im := controller.NewWorkspace(db).Importer()
	im.Cohort = HeapCohort
	if err := im.ImportFiles(ctx, HeapRun, []string{logPath}, nil); err != nil {
		return nil, err
	}
	if err := im.ImportFiles(ctx, DumpRun, []string{dumpPath}, nil); err != nil {
		return nil, err
	}
	if err := db.ImportRun(ctx, "small", "test", storetest.SmallRun); err != nil {
		return nil, err
	}
	var extra []string
	for run, file := range map[string]string{"methods": corpusTrace, "dialer": CorpusDump} {
		p := filepath.Join(corpus.Dir(), file)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if err := im.ImportFiles(ctx, run, []string{p}, nil); err != nil {
			return nil, err
		}
		extra = append(extra, run)
	}
	return extra, nil
}

// ColIndex finds a column by its title.
func ColIndex[T any](tb *ui.SortTable[T], title string) int {
	return slices.IndexFunc(tb.Columns(), func(c ui.Column[T]) bool { return c.Title == title })
}

// Fact is the text beside name in a two-column table of facts (a heap Summary): the second
// column of the row whose first column is name, "" when there is none.
func Fact[T any](tb *ui.SortTable[T], name string) string {
	for i := range tb.Rows() {
		if tb.Cell(i, 0) == name {
			return tb.Cell(i, 1)
		}
	}
	return ""
}

// WindowSize is the analysis window's first size, which a Host takes too.
var WindowSize = fyne.NewSize(1200, 760)

// Host is a window that shows one tab set (the method tabs, the heap tabs) as the analysis
// window does: it implements ui.Host, lists the runs of its workspace, and shows its problem line
// in Problem.
type Host struct {
	Win     fyne.Window
	Problem string // the problem line: why the tabs are stale, "" for none

	ws     *controller.Workspace
	bg     *ui.Background
	ctx    context.Context
	cancel context.CancelFunc
}

// NewHost opens an empty window of WindowSize on ws.
func NewHost(t testing.TB, ws *controller.Workspace) *Host {
	h := &Host{Win: test.NewTempApp(t).NewWindow("host"), ws: ws, bg: ui.NewQueuedBackground()}
	h.MoveOn()
	t.Cleanup(func() { h.cancel() })
	h.Win.Resize(WindowSize)
	h.Win.Show()
	return h
}

// Window, Background, Context and SetProblem are ui.Host's.
func (h *Host) Window() fyne.Window        { return h.Win }
func (h *Host) Background() *ui.Background { return h.bg }
func (h *Host) Context() context.Context   { return h.ctx }
func (h *Host) SetProblem(msg string)      { h.Problem = msg }

// RunsOfKind lists the workspace's runs of a kind, in the order the analysis window lists them.
func (h *Host) RunsOfKind(kind model.RunKind) []string {
	runs, err := h.ws.Runs(context.Background())
	if err != nil {
		panic(err)
	}
	var out []string
	for _, r := range runs {
		if r.Kind == kind {
			out = append(out, r.Name)
		}
	}
	return out
}

// Show puts a tab set's bar above its tabs, as the analysis window does while it shows them.
func (h *Host) Show(bar, tabs fyne.CanvasObject) {
	h.Win.SetContent(container.NewBorder(bar, nil, nil, nil, tabs))
	h.Win.Resize(WindowSize)
}

// MoveOn cancels every load for the run shown, as choosing another run does.
func (h *Host) MoveOn() {
	if h.cancel != nil {
		h.cancel()
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
}

// Wait lets the background work finish and applies its results, as the analysis window's Wait does.
func (h *Host) Wait() { h.bg.Wait() }

// Resize lays the window out at size, which draws its charts at that size, and waits for them.
func (h *Host) Resize(size fyne.Size) {
	h.Win.Resize(size.Add(fyne.NewSize(0, 1)))
	h.Win.Resize(size)
	h.Wait()
}

// SampleRun is the sampled run of SamplesWorkspace: a JVM sorting arrays and spinning in a
// loop under perf, with its compiler threads (formats/perfscript/testdata/java.perfscript.gz,
// recorded on the project's machine).
const SampleRun = "java"

// SampleScript is that recording's perf script text.
var SampleScript = filepath.Join(moduleRoot(), "formats", "perfscript", "testdata", "java.perfscript.gz")

// SamplesWorkspace is the path of a new workspace for one test holding SampleRun, imported
// through the real importer and store, and the emulator run "small".
func SamplesWorkspace(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "w.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := controller.NewWorkspace(db).Importer().ImportFiles(ctx, SampleRun, []string{SampleScript}, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.ImportRun(ctx, "small", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	return path
}

// moduleRoot is the folder of go.mod, which tests of any package find test data under.
func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}
