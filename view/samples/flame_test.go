package samples

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"androprof/model/flame"
)

// The sampled runs' flame graph has the method runs' search: a regular expression lights up the
// frames it matches (here by image: libc calls libc, and start_thread holds most stacks), their
// samples counted once, and says their share of the selection; it outlives a change of thread.
func TestFlameSearch(t *testing.T) {
	w := openSamples(t)
	v := w.Samples
	w.showTab(TabFlame)
	test.Type(v.Flame.Search, `libc\.so`)
	f := v.Flame.flame
	var want int64 // the samples under libc's frames, each counted at its outermost one
	var walk func(n *flame.Node)
	walk = func(n *flame.Node) {
		if strings.Contains(n.Origin, "libc.so") {
			want += n.Total
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(f.Top())
	if want == 0 || f.Matched != want || len(f.Hits) == 0 || !strings.Contains(v.Flame.Found.Text, "samples, ") || !strings.Contains(v.Flame.Found.Text, "% of all threads") {
		t.Fatalf("search libc: %d samples in %d frames, want %d; found %q", f.Matched, len(f.Hits), want, v.Flame.Found.Text)
	}
	main := v.Layers.res.threads[0]
	v.SelectThread(main.TID)
	w.Wait()
	if f := v.Flame.flame; f.Search != `libc\.so` || f.Top().Total != int64(main.Samples) || !strings.Contains(v.Flame.Found.Text, "% of thread") {
		t.Errorf("thread %d: search %q, %d samples, found %q", main.TID, f.Search, f.Top().Total, v.Flame.Found.Text)
	}
}
