package samples

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"androprof/model/flame"
)

// The sampled runs' flame graph has the method runs' focus: Only frames matching keeps the
// selection's samples (their time moves to the nearest kept caller), says how many moved, and
// outlives a change of thread; Clear brings every frame back.
func TestFlameFocus(t *testing.T) {
	w := openSamples(t)
	v := w.Samples
	w.showTab(TabFlame)
	whole := v.Flame.flame.Top().Total
	frames := countFrames(v.Flame.flame.Top())
	test.Type(v.Flame.Focus.Only, `JavaMain|Interpreter`)
	w.Wait()
	f := v.Flame.flame
	if f.Top().Total != whole || countFrames(f.Top()) >= frames ||
		!strings.Contains(v.Flame.Focus.Hidden.Text, " samples (") || !strings.HasSuffix(v.Flame.Focus.Hidden.Text, "%) moved to callers") ||
		!strings.Contains(f.Note, `Focus: only JavaMain|Interpreter: `) {
		t.Fatalf("only JavaMain|Interpreter: %d of %d samples, %d of %d frames, %q", f.Top().Total, whole, countFrames(f.Top()), frames, v.Flame.Focus.Hidden.Text)
	}
	main := v.Layers.res.threads[0]
	v.SelectThread(main.TID)
	w.Wait()
	if f := v.Flame.flame; f.Top().Total != int64(main.Samples) || !strings.Contains(v.Flame.Focus.Hidden.Text, "moved to callers") {
		t.Errorf("thread %d: %d samples, %q", main.TID, f.Top().Total, v.Flame.Focus.Hidden.Text)
	}
	test.Tap(v.Flame.Focus.Clear)
	w.Wait()
	if v.Flame.Focus.Only.Text != "" || v.Flame.Focus.Hidden.Text != "nothing hidden" || strings.Contains(v.Flame.flame.Note, "Focus") {
		t.Errorf("after Clear: %q, note %q", v.Flame.Focus.Hidden.Text, v.Flame.flame.Note)
	}
}

// countFrames is the frames of a graph, n included.
func countFrames(n *flame.Node) int {
	c := 1
	for _, k := range n.Children {
		c += countFrames(k)
	}
	return c
}
