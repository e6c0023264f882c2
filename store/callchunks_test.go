package store

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"androprof/model/calls"
)

// memChunks is a ChunkSource in memory; fail, when set, is returned after the first chunk.
type memChunks struct {
	chunks  []calls.CallChunk
	methods []uint64
	fail    error
}

func (m *memChunks) Methods() []uint64 { return m.methods }

func (m *memChunks) EachChunk(fn func(calls.CallChunk) error) error {
	for _, c := range m.chunks {
		if err := fn(c); err != nil {
			return err
		}
		if m.fail != nil {
			return m.fail
		}
	}
	return nil
}

// chunkedTrace is a trace of two threads with enough calls for several chunks, every call kept
// (Chunks) and the longest as spans, and its calls per thread in the order they ended.
func chunkedTrace(t *testing.T) (*calls.MethodTrace, map[int][]calls.Call) {
	t.Helper()
	src := &memChunks{}
	byThread := map[int][]calls.Call{}
	w := &calls.ChunkWriter{Emit: func(c calls.CallChunk) error {
		c.Data = append([]byte(nil), c.Data...)
		src.chunks = append(src.chunks, c)
		return nil
	}}
	spans := &calls.SpanKeeper{Budget: 100}
	b := calls.NewCallBuilder()
	b.OnCall = func(c calls.Call) {
		w.Add(c)
		spans.Add(c)
		byThread[c.TID] = append(byThread[c.TID], c)
	}
	b.Header(calls.TraceHeader{Clock: calls.ClockDual})
	for _, id := range []uint64{0x8, 0x10, 0x1000} {
		b.Method(calls.MethodInfo{ID: id, Class: "C", Name: "m"})
	}
	var clock uint64
	ev := func(tid int, m uint64, a calls.MethodAction) {
		clock += 3
		if err := b.Event(calls.MethodEvent{TID: tid, Method: m, Action: a, ThreadCPU: clock, Wall: 2 * clock}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 3*calls.ChunkCalls; i++ {
		tid := 1 + i%2
		ev(tid, 0x10, calls.Enter)
		if i%3 == 0 {
			ev(tid, 0x8, calls.Enter)
			ev(tid, 0x8, calls.Exit)
		}
		ev(tid, 0x10, calls.Exit)
	}
	ev(1, 0x1000, calls.Enter) // still open: closed at the end of the trace
	p := b.Finish()
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	src.methods = w.Methods()
	return &calls.MethodTrace{Header: calls.TraceHeader{Format: "traceview"}, Profile: p, Spans: spans.Calls(),
		SpanMinMicros: spans.Min, Chunks: src}, byThread
}

func eachCall(db *DB, run string, tid int, from, to uint64) ([]calls.Call, error) {
	var out []calls.Call
	err := db.EachCall(context.Background(), run, tid, from, to, func(c calls.Call) error {
		out = append(out, c)
		return nil
	})
	return out, err
}

// A run keeps every call; one imported without them (as before migration 010) hands its spans
// and says it keeps only those, for EachCall and the timeline.
func TestEveryCallOrOnlySpans(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	tr, want := chunkedTrace(t)
	if err := db.ImportMethodRun(ctx, "every", "test", tr); err != nil {
		t.Fatal(err)
	}
	got, err := eachCall(db, "every", 0, 0, 0)
	if err != nil || !reflect.DeepEqual(got, append(want[1], want[2]...)) {
		t.Errorf("every call: %d calls, want %d (%v)", len(got), len(want[1])+len(want[2]), err)
	}
	tw, err := db.Timeline(ctx, "every", 2, 0, 0, 0)
	if err != nil || !tw.Every || tw.OnlySpans || len(tw.Calls) != len(want[2]) {
		t.Errorf("timeline of thread 2: %d calls of %d, every %v (%v)", len(tw.Calls), len(want[2]), tw.Every, err)
	}
	old := *tr
	old.Chunks = nil
	if err := db.ImportMethodRun(ctx, "old", "test", &old); err != nil {
		t.Fatal(err)
	}
	got, err = eachCall(db, "old", 0, 0, 0)
	if !errors.Is(err, calls.ErrOnlySpans) || len(got) != len(tr.Spans) || len(got) == 0 {
		t.Errorf("a run without its calls: %d calls, want its %d spans, then %v", len(got), len(tr.Spans), err)
	}
	tw, err = db.Timeline(ctx, "old", 1, 0, 0, 10)
	if err != nil || tw.Every || !tw.OnlySpans || len(tw.Calls) != 10 || tw.MinMicros < tr.SpanMinMicros {
		t.Errorf("timeline of a run without its calls: %+v (%v)", tw, err)
	}
}

// A workspace made before migration 010 reads its method runs from their spans and says so.
func TestOldWorkspaceHasOnlySpans(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	writeOldWorkspace(t, path, callTreeFixture(t))
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := eachCall(db, "old", 0, 0, 0); !errors.Is(err, calls.ErrOnlySpans) {
		t.Errorf("old run: %v", err)
	}
	if tw, err := db.Timeline(context.Background(), "old", 0, 0, 0, 0); err != nil || !tw.OnlySpans {
		t.Errorf("old run's timeline: %+v (%v)", tw, err)
	}
}

// An import whose calls fail to copy, or that is cancelled while they copy, leaves the database
// exactly as it was.
func TestFailedChunkCopyChangesNothing(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	tr, _ := chunkedTrace(t)
	if err := db.ImportMethodRun(ctx, "first", "test", tr); err != nil {
		t.Fatal(err)
	}
	before := methodTableCounts(t, db)
	boom := errors.New("spool unreadable")
	bad := *tr
	bad.Chunks = &memChunks{chunks: tr.Chunks.(*memChunks).chunks, methods: tr.Chunks.Methods(), fail: boom}
	if err := db.ImportMethodRun(ctx, "second", "test", &bad); !errors.Is(err, boom) {
		t.Errorf("failed copy: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	stop := *tr
	stop.Chunks = cancelAfterFirst{tr.Chunks, cancel}
	if err := db.ImportMethodRun(cancelled, "third", "test", &stop); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled copy: %v", err)
	}
	if after := methodTableCounts(t, db); !reflect.DeepEqual(before, after) {
		t.Errorf("tables changed by failed imports:\n%v\n%v", before, after)
	}
}

type cancelAfterFirst struct {
	calls.ChunkSource
	cancel func()
}

func (c cancelAfterFirst) EachChunk(fn func(calls.CallChunk) error) error {
	return c.ChunkSource.EachChunk(func(ch calls.CallChunk) error {
		err := fn(ch)
		c.cancel()
		return err
	})
}

func methodTableCounts(t *testing.T, db *DB) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, tbl := range []string{"run", "trace_info", "trace_thread", "trace_method", "call_span", "call_node", "call_chunk"} {
		var n int
		if err := db.read.QueryRow(`SELECT count(*) FROM ` + tbl).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[tbl] = n
	}
	return out
}

// A damaged chunk is an error naming the run, the thread and the chunk; never a panic.
func TestDamagedChunkIsAnError(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	tr, _ := chunkedTrace(t)
	if err := db.ImportMethodRun(ctx, "r", "test", tr); err != nil {
		t.Fatal(err)
	}
	for _, damage := range []string{
		`UPDATE call_chunk SET data = x'01ff' WHERE seq = 1`,
		`UPDATE call_chunk SET data = x'' WHERE seq = 1`,
		`UPDATE call_chunk SET data = x'02' WHERE seq = 1`,
		`UPDATE call_chunk SET n_calls = n_calls + 1 WHERE seq = 1`,
		`UPDATE call_chunk SET data = substr(data, 1, length(data) - 3) WHERE seq = 1`,
		`UPDATE trace_info SET call_methods = x'08'`, // one method: the chunks name more
	} {
		if _, err := db.write.ExecContext(ctx, damage); err != nil {
			t.Fatal(err)
		}
		_, err := eachCall(db, "r", 0, 0, 0)
		var ce *calls.ChunkError
		if !errors.As(err, &ce) || ce.Run != "r" {
			t.Errorf("%s: %v", damage, err)
		}
		if _, err := db.Timeline(ctx, "r", 0, 0, 0, 0); !errors.As(err, &ce) {
			t.Errorf("%s, timeline: %v", damage, err)
		}
	}
}
