package heaplogtest

import (
	"bytes"
	"io"
	"testing"

	"androprof/formats/heaplog"
	"androprof/model/heap"
)

// The log is the same for the same seed, reads back, has about the records asked for and every
// kind of record, and its live set stays bounded as it grows.
func TestSynthetic(t *testing.T) {
	var a, b, c bytes.Buffer
	if err := Synthetic(&a, 20000, 3); err != nil {
		t.Fatal(err)
	}
	Synthetic(&b, 20000, 3)
	Synthetic(&c, 20000, 4)
	if !bytes.Equal(a.Bytes(), b.Bytes()) || bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Error("not deterministic per seed")
	}
	for _, events := range []int{0, 1, 100, 20000, 300000} {
		var buf bytes.Buffer
		if err := Synthetic(&buf, events, 1); err != nil {
			t.Fatal(err)
		}
		r := heaplog.NewReader(&buf, "synthetic")
		if r.Header().Props["synthetic"] != "true" {
			t.Errorf("header %+v does not say synthetic", r.Header())
		}
		kinds := map[heap.HeapEventKind]int{}
		live := map[uint64]bool{}
		n, maxLive := 0, 0
		for {
			e, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%d events: %v", events, err)
			}
			n++
			kinds[e.Kind]++
			switch e.Kind {
			case heap.HeapAlloc:
				live[e.Object] = true
				maxLive = max(maxLive, len(live))
			case heap.HeapFree:
				if !live[e.Object] {
					t.Fatalf("death of object %d, not live", e.Object)
				}
				delete(live, e.Object)
			case heap.HeapMutation:
				if !live[e.Object] || (e.Target != 0 && !live[e.Target]) {
					t.Fatalf("mutation %+v of a dead object", e)
				}
			}
		}
		if n < events || n > events+events/10+100 {
			t.Errorf("%d records for %d asked", n, events)
		}
		if maxLive > maxOld+gcBytes/16 {
			t.Errorf("%d events: %d objects live at once", events, maxLive)
		}
		if events >= 20000 && len(kinds) != int(heap.HeapSnapshot) {
			t.Errorf("%d events: record kinds %v", events, kinds)
		}
		t.Logf("%d events: %d records, %d live at most, kinds %v", events, n, maxLive, kinds)
	}
}
