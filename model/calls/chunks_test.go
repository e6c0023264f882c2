package calls

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
)

// memChunks keeps chunks in memory, copying Data as ChunkSource's contract asks.
type memChunks []CallChunk

func (m *memChunks) add(c CallChunk) error {
	c.Data = append([]byte(nil), c.Data...)
	*m = append(*m, c)
	return nil
}

// randomCalls makes calls of a few threads with every field set, extremes included.
func randomCalls(n int) []Call {
	r := rand.New(rand.NewPCG(1, 2))
	var out []Call
	end := map[int]uint64{}
	for i := 0; i < n; i++ {
		tid := 1 + r.IntN(3)
		e := end[tid] + uint64(r.IntN(50))
		end[tid] = e
		c := Call{TID: tid, Method: uint64(r.IntN(40)) << 2, ParentMethod: uint64(r.IntN(40)) << 2, Depth: r.IntN(30),
			EndWall: e, StartWall: e - min(e, uint64(r.IntN(1000))), EndCPU: e / 2, StartCPU: e/2 - min(e/2, uint64(r.IntN(300))),
			Recursive: r.IntN(5) == 0, Orphan: r.IntN(9) == 0, End: CallEnd(r.IntN(4))}
		c.ExclusiveWall, c.ExclusiveCPU = uint64(r.IntN(2000)), (c.EndCPU-c.StartCPU)/2
		if i == 7 {
			c.Method, c.EndWall, c.StartWall, c.ExclusiveCPU = TopLevelMethod, 1<<64-1, 0, 1<<64-1
		}
		out = append(out, c)
	}
	return out
}

// Every field of every call comes back, per thread in the order added, across chunk borders.
func TestChunksRoundTrip(t *testing.T) {
	in := randomCalls(3*ChunkCalls + 17)
	var got memChunks
	w := &ChunkWriter{Emit: got.add}
	for _, c := range in {
		w.Add(c)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	byThread := map[int][]Call{}
	seq := map[int]int{}
	for _, ch := range got {
		if ch.Seq != seq[ch.TID] || ch.Calls > ChunkCalls {
			t.Fatalf("thread %d: chunk %d of %d calls after %d", ch.TID, ch.Seq, ch.Calls, seq[ch.TID])
		}
		seq[ch.TID]++
		first := len(byThread[ch.TID])
		if err := DecodeChunk(ch.Data, ch.TID, ch.Calls, w.Methods(), func(c Call) error {
			byThread[ch.TID] = append(byThread[ch.TID], c)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, c := range byThread[ch.TID][first:] {
			if c.StartWall < ch.MinStartWall || c.EndWall > ch.MaxEndWall || c.StartCPU < ch.MinStartCPU || c.EndCPU > ch.MaxEndCPU {
				t.Fatalf("call %+v outside its chunk's bounds %+v", c, ch)
			}
		}
	}
	want := map[int][]Call{}
	for _, c := range in {
		want[c.TID] = append(want[c.TID], c)
	}
	if !reflect.DeepEqual(byThread, want) {
		t.Error("calls differ after chunks")
	}
	if m, err := ParseMethods(AppendMethods(nil, w.Methods())); err != nil || !reflect.DeepEqual(m, w.Methods()) || len(m) < 40 {
		t.Errorf("method index %v after packing, was %v (%v)", m, w.Methods(), err)
	}
	if _, err := ParseMethods([]byte{0x80}); err == nil {
		t.Error("a cut method index parsed")
	}
}

// Damaged chunks are errors, never panics: every cut and every single-byte change of a chunk.
func TestDamagedChunks(t *testing.T) {
	var got memChunks
	w := &ChunkWriter{Emit: got.add}
	for _, c := range randomCalls(60) {
		w.Add(c)
	}
	w.Flush()
	ch := got[0]
	noop := func(Call) error { return nil }
	for i := range ch.Data {
		if err := DecodeChunk(ch.Data[:i], ch.TID, ch.Calls, w.Methods(), noop); err == nil {
			t.Errorf("chunk cut at %d of %d bytes decoded", i, len(ch.Data))
		}
		for _, b := range []byte{0, 0x80, 0xff} {
			bad := append([]byte(nil), ch.Data...)
			bad[i] = b
			DecodeChunk(bad, ch.TID, ch.Calls, w.Methods(), noop) // an error or other calls, not a panic
		}
	}
	if err := DecodeChunk(append(ch.Data, 0), ch.TID, ch.Calls, w.Methods(), noop); err == nil {
		t.Error("a byte after the calls accepted")
	}
	if err := DecodeChunk(ch.Data, ch.TID, ch.Calls+1, w.Methods(), noop); err == nil {
		t.Error("a chunk claiming one call more decoded")
	}
	if err := DecodeChunk(ch.Data, ch.TID, ch.Calls, w.Methods()[:1], noop); err == nil {
		t.Error("a chunk of methods its run does not have decoded")
	}
	stop := errors.New("stop")
	if err := DecodeChunk(ch.Data, ch.TID, ch.Calls, w.Methods(), func(Call) error { return stop }); err != stop {
		t.Errorf("fn's error: %v", err)
	}
}

// FuzzDecodeChunk: any bytes decode or fail, without a panic.
func FuzzDecodeChunk(f *testing.F) {
	var got memChunks
	w := &ChunkWriter{Emit: got.add}
	for _, c := range randomCalls(20) {
		w.Add(c)
	}
	w.Flush()
	f.Add(got[0].Data, uint16(got[0].Calls))
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		DecodeChunk(data, 1, int(n), w.Methods(), func(Call) error { return nil })
		DecodeChunk(data, 1, int(n), nil, func(Call) error { return nil })
	})
}

// Many threads flush short chunks rather than hold a nearly full one each.
func TestChunkWriterBoundsPending(t *testing.T) {
	var emitted int
	w := &ChunkWriter{Emit: func(CallChunk) error { emitted++; return nil }}
	for tid := 1; tid <= 20_000; tid++ {
		for i := 0; i < 100; i++ {
			w.Add(Call{TID: tid, Method: uint64(i), EndWall: uint64(i) << 40, StartWall: 0, EndCPU: 1 << 50})
		}
	}
	held := 0
	for _, e := range w.order {
		held += cap(e.buf)
	}
	if emitted == 0 || held > chunkHeldBytes+64<<10 || held != w.held {
		t.Errorf("%d chunks emitted, %d bytes held (counted %d)", emitted, held, w.held)
	}
}

// A window keeps every call up to its limit, then the longest, by thread and start either way.
func TestWindowKeeper(t *testing.T) {
	in := []Call{
		{TID: 2, StartWall: 5, EndWall: 6},
		{TID: 1, StartWall: 9, EndWall: 9}, // no length: kept only while every call is
		{TID: 1, StartWall: 0, EndWall: 40},
		{TID: 1, StartWall: 3, EndWall: 10},
		{TID: 2, StartWall: 1, EndWall: 30},
	}
	for _, c := range []struct {
		limit int
		every bool
		want  [][2]uint64 // tid, start
	}{
		{0, true, [][2]uint64{{1, 0}, {1, 3}, {1, 9}, {2, 1}, {2, 5}}},
		{5, true, [][2]uint64{{1, 0}, {1, 3}, {1, 9}, {2, 1}, {2, 5}}},
		{3, false, [][2]uint64{{1, 0}, {2, 1}}}, // the third longest ties the cut: SpanKeeper drops it
	} {
		k := &WindowKeeper{Limit: c.limit}
		for _, call := range in {
			k.Add(call)
		}
		tw := k.Window(true)
		var got [][2]uint64
		for _, call := range tw.Calls {
			got = append(got, [2]uint64{uint64(call.TID), call.StartWall})
		}
		if tw.Every != c.every || !reflect.DeepEqual(got, c.want) || !c.every && tw.MinMicros != 8 {
			t.Errorf("limit %d: %v every %v min %d, want %v every %v", c.limit, got, tw.Every, tw.MinMicros, c.want, c.every)
		}
	}
}
