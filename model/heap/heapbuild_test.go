package heap

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// Events of a small log, cohort 64: two threads, three classes ([I is the array class).
// Times are the running total of allocation (the sizes, in order, are 16 32 24 40 24 16).
//
//	obj  birth size thread class  death
//	 1     0    16    1     1      72
//	 2    16    32    1     2[]   136
//	 3    48    24    2     3      –
//	 4    72    40    2     2[]   152
//	 5   112    24    1     1      –
//	 6   136    16    2     3      –
func sampleHeapEvents() []HeapEvent {
	return []HeapEvent{
		{Kind: HeapClass, Class: 1, Name: "java/lang/String"},
		{Kind: HeapClass, Class: 2, Name: "[I"},
		{Kind: HeapClass, Class: 3, Name: "com/example/Foo"},
		{Kind: HeapGCEnd, Time: 0}, // no collection open: ignored
		{Kind: HeapThreadStart, Thread: 1, Name: "main", Group: "main", Time: 0},
		{Kind: HeapAlloc, Object: 1, Time: 0, Size: 16, Thread: 1, Class: 1},
		{Kind: HeapAlloc, Object: 2, Time: 16, Size: 32, Thread: 1, Class: 2, Array: true},
		{Kind: HeapThreadStart, Thread: 2, Name: "worker", Group: "main", Time: 48},
		{Kind: HeapAlloc, Object: 3, Time: 48, Size: 24, Thread: 2, Class: 3},
		{Kind: HeapGCStart, Time: 72, GCKind: GCConcurrent},
		{Kind: HeapFree, Object: 1, Time: 72},
		{Kind: HeapFree, Object: 99, Time: 72}, // never allocated
		{Kind: HeapAlloc, Object: 4, Time: 72, Size: 40, Thread: 2, Class: 2, Array: true},
		{Kind: HeapGCEnd, Time: 112},
		{Kind: HeapMutation, Time: 112, Object: 4, Offset: 16, Target: 3}, // 48−(72+16) = −40: bucket −6
		{Kind: HeapMutation, Time: 112, Object: 3, Offset: 12, Target: 4}, // 72−(48+12) = +12: bucket 4
		{Kind: HeapMutation, Time: 112, Object: 3, Target: 0},             // null: not counted
		{Kind: HeapMutation, Time: 112, Object: 1, Target: 3},             // dead source: not counted
		{Kind: HeapAlloc, Object: 5, Time: 112, Size: 24, Thread: 1, Class: 1},
		{Kind: HeapFree, Object: 2, Time: 136},
		{Kind: HeapFree, Object: 2, Time: 136},              // freed twice
		{Kind: HeapGCStart, Time: 136, GCKind: GCForMalloc}, // never ends
		{Kind: HeapAlloc, Object: 6, Time: 136, Size: 16, Thread: 2, Class: 3},
		{Kind: HeapThreadEnd, Thread: 2, Time: 152},
		{Kind: HeapFree, Object: 4, Time: 152},
		{Kind: HeapSnapshot, Time: 152, Distance: 3, Count: 5},
		{Kind: HeapSnapshot, Time: 152, Distance: -2, Count: 15},
		{Kind: HeapGCStart, Time: 152, GCKind: GCExplicit},
		{Kind: HeapGCEnd, Time: 152},
	}
}

func buildHeap(t testing.TB, cohort uint64, events []HeapEvent) *HeapProfile {
	t.Helper()
	b := NewHeapBuilder(cohort)
	if err := b.HeapHeader(HeapHeader{Format: "heaplog", Version: 1}); err != nil {
		t.Fatal(err)
	}
	var e HeapEvent // reused, as readers do
	for i := range events {
		e = events[i]
		if err := b.HeapEvent(&e); err != nil {
			t.Fatal(err)
		}
		e = HeapEvent{Name: "garbage", Object: 12345}
	}
	return b.Profile()
}

// hc is a HeapCount: objects, bytes, array objects, array bytes.
func hc(n ...uint64) HeapCount {
	n = append(n, 0, 0, 0, 0)
	return HeapCount{n[0], n[1], n[2], n[3]}
}

func TestHeapBuilderSample(t *testing.T) {
	p := buildHeap(t, 64, sampleHeapEvents())

	type cell = HeapCell
	want := &HeapProfile{
		Header:    HeapHeader{Format: "heaplog", Version: 1},
		Cohort:    64,
		End:       152,
		Allocated: hc(6, 152, 2, 72),
		Freed:     hc(3, 88, 2, 72),
		MaxLive:   hc(4, 120, 2, 72), // objects 2 3 4 5, once 5 is allocated
		MaxLiveAt: 136,
		Classes: []HeapClassInfo{
			{ID: 1, Name: "java/lang/String"},
			{ID: 2, Name: "[I", Array: true},
			{ID: 3, Name: "com/example/Foo"},
		},
		Threads: []HeapThreadInfo{
			{ID: 1, Name: "main", Group: "main", Start: 0},
			{ID: 2, Name: "worker", Group: "main", Start: 48, End: 152, Ended: true},
		},
		GCs: []HeapGC{
			{Kind: GCConcurrent, Start: 72, End: 112},
			{Kind: GCForMalloc, Start: 136, End: 136},
			{Kind: GCExplicit, Start: 152, End: 152},
		},
		Cells: []HeapCell{
			// cohort 0: objects 1 2 3; 1 dies in bucket 1, 2 in bucket 2
			cell{Scope: ScopeCohort, Key: 0, Bucket: 0, Born: hc(3, 72, 1, 32), Survived: hc(1, 24)},
			cell{Scope: ScopeCohort, Key: 0, Bucket: 1, Died: hc(1, 16), Lifetime: 72},
			cell{Scope: ScopeCohort, Key: 0, Bucket: 2, Died: hc(1, 32, 1, 32), Lifetime: 120, ArrayLifetime: 120},
			// cohort 1: objects 4 5; 4 dies in bucket 2
			cell{Scope: ScopeCohort, Key: 1, Bucket: 1, Born: hc(2, 64, 1, 40), Survived: hc(1, 24)},
			cell{Scope: ScopeCohort, Key: 1, Bucket: 2, Died: hc(1, 40, 1, 40), Lifetime: 80, ArrayLifetime: 80},
			// cohort 2: object 6
			cell{Scope: ScopeCohort, Key: 2, Bucket: 2, Born: hc(1, 16), Survived: hc(1, 16)},
			// thread 1: objects 1 2 5
			cell{Scope: ScopeThread, Key: 1, Bucket: 0, Born: hc(2, 48, 1, 32)},
			cell{Scope: ScopeThread, Key: 1, Bucket: 1, Born: hc(1, 24), Survived: hc(1, 24), Died: hc(1, 16), Lifetime: 72},
			cell{Scope: ScopeThread, Key: 1, Bucket: 2, Died: hc(1, 32, 1, 32), Lifetime: 120, ArrayLifetime: 120},
			// thread 2: objects 3 4 6
			cell{Scope: ScopeThread, Key: 2, Bucket: 0, Born: hc(1, 24), Survived: hc(1, 24)},
			cell{Scope: ScopeThread, Key: 2, Bucket: 1, Born: hc(1, 40, 1, 40)},
			cell{Scope: ScopeThread, Key: 2, Bucket: 2, Born: hc(1, 16), Survived: hc(1, 16), Died: hc(1, 40, 1, 40), Lifetime: 80, ArrayLifetime: 80},
			// class 1: objects 1 5; class 2: 2 4; class 3: 3 6
			cell{Scope: ScopeClass, Key: 1, Bucket: 0, Born: hc(1, 16)},
			cell{Scope: ScopeClass, Key: 1, Bucket: 1, Born: hc(1, 24), Survived: hc(1, 24), Died: hc(1, 16), Lifetime: 72},
			cell{Scope: ScopeClass, Key: 2, Bucket: 0, Born: hc(1, 32, 1, 32)},
			cell{Scope: ScopeClass, Key: 2, Bucket: 1, Born: hc(1, 40, 1, 40)},
			cell{Scope: ScopeClass, Key: 2, Bucket: 2, Died: hc(2, 72, 2, 72), Lifetime: 200, ArrayLifetime: 200},
			cell{Scope: ScopeClass, Key: 3, Bucket: 0, Born: hc(1, 24), Survived: hc(1, 24)},
			cell{Scope: ScopeClass, Key: 3, Bucket: 2, Born: hc(1, 16), Survived: hc(1, 16)},
			// sizes 16: objects 1 6; 24: 3 5; 32: 2; 40: 4
			cell{Scope: ScopeSize, Key: 16, Bucket: 0, Born: hc(1, 16)},
			cell{Scope: ScopeSize, Key: 16, Bucket: 1, Died: hc(1, 16), Lifetime: 72},
			cell{Scope: ScopeSize, Key: 16, Bucket: 2, Born: hc(1, 16), Survived: hc(1, 16)},
			cell{Scope: ScopeSize, Key: 24, Bucket: 0, Born: hc(1, 24), Survived: hc(1, 24)},
			cell{Scope: ScopeSize, Key: 24, Bucket: 1, Born: hc(1, 24), Survived: hc(1, 24)},
			cell{Scope: ScopeSize, Key: 32, Bucket: 0, Born: hc(1, 32, 1, 32)},
			cell{Scope: ScopeSize, Key: 32, Bucket: 2, Died: hc(1, 32, 1, 32), Lifetime: 120, ArrayLifetime: 120},
			cell{Scope: ScopeSize, Key: 40, Bucket: 1, Born: hc(1, 40, 1, 40)},
			cell{Scope: ScopeSize, Key: 40, Bucket: 2, Died: hc(1, 40, 1, 40), Lifetime: 80, ArrayLifetime: 80},
		},
		Pointers: []HeapPointers{
			{Snapshot: false, Bucket: 1, Distance: -6, Count: 1},
			{Snapshot: false, Bucket: 1, Distance: 4, Count: 1},
			{Snapshot: true, Bucket: 2, Distance: -2, Count: 15},
			{Snapshot: true, Bucket: 2, Distance: 3, Count: 5},
		},
		UnknownFrees: 2,
	}
	if !reflect.DeepEqual(p, want) {
		diffHeapProfiles(t, p, want)
	}
	checkHeapInvariants(t, p)
}

// diffHeapProfiles reports where two profiles differ, field by field and cell by cell.
func diffHeapProfiles(t *testing.T, got, want *HeapProfile) {
	t.Helper()
	g, w := *got, *want
	g.Cells, w.Cells = nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("profile (cells aside):\n got %+v\nwant %+v", g, w)
	}
	n := max(len(got.Cells), len(want.Cells))
	for i := range n {
		var gc, wc HeapCell
		if i < len(got.Cells) {
			gc = got.Cells[i]
		}
		if i < len(want.Cells) {
			wc = want.Cells[i]
		}
		if gc != wc {
			t.Errorf("cell %d:\n got %+v\nwant %+v", i, gc, wc)
		}
	}
}

func TestHeapBuilderEdges(t *testing.T) {
	tests := []struct {
		name   string
		events []HeapEvent
		check  func(t *testing.T, p *HeapProfile)
	}{
		{
			name: "default cohort, empty",
			check: func(t *testing.T, p *HeapProfile) {
				if p.Cohort != DefaultCohort || p.End != 0 || p.Cells != nil || p.Classes != nil {
					t.Errorf("got %+v", p)
				}
			},
		},
		{
			name: "reallocated live id ends the old object",
			events: []HeapEvent{
				{Kind: HeapAlloc, Object: 7, Time: 0, Size: 8},
				{Kind: HeapAlloc, Object: 7, Time: 8, Size: 16},
			},
			check: func(t *testing.T, p *HeapProfile) {
				if p.Freed != hc(1, 8) || p.Allocated != hc(2, 24) || p.MaxLive != hc(1, 16) || p.MaxLiveAt != 24 {
					t.Errorf("freed %+v allocated %+v max %+v at %d", p.Freed, p.Allocated, p.MaxLive, p.MaxLiveAt)
				}
			},
		},
		{
			name: "huge object",
			events: []HeapEvent{
				{Kind: HeapAlloc, Object: 1, Time: 0, Size: 5 << 30, Array: true},
				{Kind: HeapAlloc, Object: 2, Time: 5 << 30, Size: 8},
				{Kind: HeapFree, Object: 1, Time: 5<<30 + 8},
			},
			check: func(t *testing.T, p *HeapProfile) {
				if p.Freed != hc(1, 5<<30, 1, 5<<30) || p.End != 5<<30+8 {
					t.Errorf("freed %+v end %d", p.Freed, p.End)
				}
				if c := p.scopeCells(ScopeSize); c[len(c)-1].Key != 8<<30 || c[len(c)-1].Died.Bytes != 5<<30 {
					t.Errorf("size cells %+v", c)
				}
			},
		},
		{
			name: "time going back counts as the time before",
			events: []HeapEvent{
				{Kind: HeapAlloc, Object: 1, Time: 100, Size: 8},
				{Kind: HeapFree, Object: 1, Time: 50},
			},
			check: func(t *testing.T, p *HeapProfile) {
				c := p.scopeCells(ScopeCohort)
				if len(c) != 1 || c[0].Lifetime != 0 || p.End != 108 {
					t.Errorf("cells %+v end %d", c, p.End)
				}
			},
		},
		{
			name: "thread id reused, class declared twice, array from allocation",
			events: []HeapEvent{
				{Kind: HeapClass, Class: 1, Name: "Foo"},
				{Kind: HeapClass, Class: 1, Name: "Bar"},
				{Kind: HeapClass, Class: 2, Name: "Weird"},
				{Kind: HeapThreadStart, Thread: 3, Name: "a", Time: 0},
				{Kind: HeapAlloc, Object: 1, Time: 0, Size: 8, Thread: 3, Class: 2, Array: true},
				{Kind: HeapThreadEnd, Thread: 3, Time: 8},
				{Kind: HeapThreadEnd, Thread: 4, Time: 8}, // undeclared: ignored
				{Kind: HeapThreadStart, Thread: 3, Name: "b", Time: 8},
				{Kind: HeapGCStart, Time: 8},
			},
			check: func(t *testing.T, p *HeapProfile) {
				wantC := []HeapClassInfo{{ID: 1, Name: "Foo"}, {ID: 2, Name: "Weird", Array: true}}
				wantT := []HeapThreadInfo{{ID: 3, Name: "a", Start: 0}}
				wantG := []HeapGC{{Kind: GCUnknown, Start: 8, End: 8}}
				if !reflect.DeepEqual(p.Classes, wantC) || !reflect.DeepEqual(p.Threads, wantT) || !reflect.DeepEqual(p.GCs, wantG) {
					t.Errorf("classes %+v threads %+v gcs %+v", p.Classes, p.Threads, p.GCs)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := buildHeap(t, 0, tt.events)
			tt.check(t, p)
			checkHeapInvariants(t, p)
		})
	}
}

func TestHeapBuilderProfileFinishes(t *testing.T) {
	ev := sampleHeapEvents()
	b := NewHeapBuilder(64)
	b.HeapHeader(HeapHeader{Format: "heaplog", Version: 1})
	for i := range ev {
		b.HeapEvent(&ev[i])
	}
	first := b.Profile()
	if b.Profile() != first {
		t.Error("a second Profile made another profile")
	}
	if !reflect.DeepEqual(first, buildHeap(t, 64, ev)) {
		t.Error("profile differs")
	}
	if err := b.HeapEvent(&ev[5]); err == nil {
		t.Error("no error for an event after Profile")
	}
	if err := b.HeapHeader(HeapHeader{}); err == nil {
		t.Error("no error for a header after Profile")
	}
}

// TestHeapBuilderMaxCells: a builder that coarsens to stay under MaxCells gives the profile
// built at its final cohort from the start.
func TestHeapBuilderMaxCells(t *testing.T) {
	for seed := range uint64(10) {
		ev := randomHeapEvents(300+seed, 1500)
		for _, limit := range []int{1, 40, 200, 1000} {
			b := NewHeapBuilder(8)
			b.MaxCells = limit
			b.HeapHeader(HeapHeader{Format: "heaplog", Version: 1})
			for i := range ev {
				if err := b.HeapEvent(&ev[i]); err != nil {
					t.Fatal(err)
				}
			}
			got := b.Profile()
			if got.Cohort == 8 && limit < 1000 {
				t.Errorf("seed %d limit %d: never coarsened", seed, limit)
			}
			if want := buildHeap(t, got.Cohort, ev); !reflect.DeepEqual(got, want) {
				diffHeapProfiles(t, got, want)
				t.Fatalf("seed %d limit %d cohort %d", seed, limit, got.Cohort)
			}
			checkHeapInvariants(t, got)
		}
	}
}

// checkHeapInvariants checks what every profile must satisfy.
func checkHeapInvariants(t *testing.T, p *HeapProfile) {
	t.Helper()
	for s := ScopeCohort; s <= ScopeSize; s++ {
		var born, died, survived HeapCount
		perKey := make(map[uint64][3]HeapCount)
		for _, c := range p.scopeCells(s) {
			born.plus(c.Born)
			died.plus(c.Died)
			survived.plus(c.Survived)
			k := perKey[c.Key]
			k[0].plus(c.Born)
			k[1].plus(c.Died)
			k[2].plus(c.Survived)
			perKey[c.Key] = k
			if c.Scope == ScopeCohort && c.Bucket < c.Key {
				t.Errorf("cohort %d has a cell in bucket %d, before its birth", c.Key, c.Bucket)
			}
			if (c.Survived.Objects != 0 || c.Born.Objects != 0) && c.Scope == ScopeCohort && c.Key != c.Bucket {
				t.Errorf("cohort %d born in bucket %d", c.Key, c.Bucket)
			}
		}
		if born != p.Allocated {
			t.Errorf("scope %d: Σ born %+v, allocated %+v", s, born, p.Allocated)
		}
		if died != p.Freed {
			t.Errorf("scope %d: Σ died %+v, freed %+v", s, died, p.Freed)
		}
		for key, k := range perKey {
			live := k[0]
			live.Objects -= k[1].Objects
			live.Bytes -= k[1].Bytes
			live.ArrayObjects -= k[1].ArrayObjects
			live.ArrayBytes -= k[1].ArrayBytes
			if live != k[2] {
				t.Errorf("scope %d key %d: born − died %+v, survived %+v", s, key, live, k[2])
			}
		}
		for _, m := range []HeapMetric{LiveBytes, LiveObjects, LiveArrayBytes, LiveArrayObjects} {
			times, series := p.Series(s, m, 3)
			var end float64
			for _, l := range series {
				end += l.Values[len(times)-1]
			}
			want := map[HeapMetric]uint64{
				LiveBytes:        p.Allocated.Bytes - p.Freed.Bytes,
				LiveObjects:      p.Allocated.Objects - p.Freed.Objects,
				LiveArrayBytes:   p.Allocated.ArrayBytes - p.Freed.ArrayBytes,
				LiveArrayObjects: p.Allocated.ArrayObjects - p.Freed.ArrayObjects,
			}[m]
			if end != float64(want) {
				t.Errorf("scope %d %v: at End %v, want %d", s, m, end, want)
			}
		}
	}
	for i := 1; i < len(p.Cells); i++ {
		if compareHeapCells(p.Cells[i-1], p.Cells[i]) >= 0 {
			t.Errorf("cells %d and %d out of order", i-1, i)
		}
	}
	if p.MaxLive.Bytes < p.Allocated.Bytes-p.Freed.Bytes {
		t.Errorf("max live %d below live at end", p.MaxLive.Bytes)
	}
}

// heapGen makes random but valid heap logs: allocations, deaths (some of unknown ids),
// threads, collections, mutations and snapshots.
type heapGen struct {
	r       *rand.Rand
	time    uint64
	next    uint64
	live    []uint64
	threads uint32
}

func randomHeapEvents(seed uint64, n int) []HeapEvent {
	g := &heapGen{r: rand.New(rand.NewPCG(seed, 1)), next: 1}
	ev := []HeapEvent{
		{Kind: HeapClass, Class: 1, Name: "java/lang/Object"},
		{Kind: HeapClass, Class: 2, Name: "[I"},
		{Kind: HeapClass, Class: 3, Name: "[Ljava/lang/String;"},
		{Kind: HeapClass, Class: 4, Name: "Obf"},
	}
	for len(ev) < n {
		ev = append(ev, g.event())
	}
	return ev
}

func (g *heapGen) event() HeapEvent {
	switch x := g.r.IntN(100); {
	case x < 3 || g.threads == 0:
		g.threads++
		return HeapEvent{Kind: HeapThreadStart, Thread: g.threads, Name: "t", Time: g.time}
	case x < 5:
		return HeapEvent{Kind: HeapThreadEnd, Thread: uint32(g.r.IntN(int(g.threads))) + 1, Time: g.time}
	case x < 7:
		return HeapEvent{Kind: HeapGCStart, Time: g.time, GCKind: GCConcurrent}
	case x < 9:
		return HeapEvent{Kind: HeapGCEnd, Time: g.time}
	case x < 15:
		e := HeapEvent{Kind: HeapMutation, Time: g.time, Object: g.pick(), Target: g.pick()}
		if g.r.IntN(10) == 0 {
			e.Target = 0
		}
		return e
	case x < 17:
		return HeapEvent{Kind: HeapSnapshot, Time: g.time, Distance: g.r.IntN(20) - 10, Count: uint64(g.r.IntN(5))}
	case x < 40 && len(g.live) > 0:
		i := g.r.IntN(len(g.live))
		id := g.live[i]
		g.live[i] = g.live[len(g.live)-1]
		g.live = g.live[:len(g.live)-1]
		return HeapEvent{Kind: HeapFree, Object: id, Time: g.time}
	case x < 42:
		return HeapEvent{Kind: HeapFree, Object: g.r.Uint64N(g.next + 5), Time: g.time} // maybe unknown
	default:
		class := uint32(g.r.IntN(5)) // 0: undeclared
		size := uint64(g.r.IntN(40)+1) * 8
		if g.r.IntN(20) == 0 {
			size = uint64(g.r.IntN(5000)) // not aligned, may be 0
		}
		e := HeapEvent{Kind: HeapAlloc, Object: g.next, Time: g.time, Size: size,
			Thread: uint32(g.r.IntN(int(g.threads))) + 1, Class: class, Array: class == 2 || class == 3}
		g.live = append(g.live, g.next)
		g.next++
		g.time += size
		return e
	}
}

func (g *heapGen) pick() uint64 {
	if len(g.live) == 0 || g.r.IntN(10) == 0 {
		return g.r.Uint64N(g.next + 1)
	}
	return g.live[g.r.IntN(len(g.live))]
}

func TestHeapBuilderRandomInvariants(t *testing.T) {
	for seed := range uint64(20) {
		ev := randomHeapEvents(seed, 2000)
		for _, cohort := range []uint64{64, 1000, 4096} {
			p := buildHeap(t, cohort, ev)
			checkHeapInvariants(t, p)
			if t.Failed() {
				t.Fatalf("seed %d cohort %d", seed, cohort)
			}
		}
	}
}

// BenchmarkHeapBuilder feeds 10 M events (70% allocations, the rest deaths, live set bounded
// at 100 000 objects) per iteration, generated as they are fed.
func BenchmarkHeapBuilder(b *testing.B) {
	const events = 10_000_000
	const maxLive = 100_000
	for b.Loop() {
		bl := NewHeapBuilder(0)
		var e HeapEvent
		for c := range uint32(200) {
			e = HeapEvent{Kind: HeapClass, Class: c, Name: "C"}
			bl.HeapEvent(&e)
		}
		ring := make([]uint64, maxLive)
		var head, n int
		var time, next uint64
		x := uint64(88172645463325252)
		for range events {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			if n == maxLive || (n > 0 && x%10 < 3) {
				i := (head + int(x>>32)%n) % maxLive // a random live object
				id := ring[i]
				ring[i] = ring[head]
				head = (head + 1) % maxLive
				n--
				e = HeapEvent{Kind: HeapFree, Object: id, Time: time}
			} else {
				next++
				size := (x>>20)%64*8 + 8
				e = HeapEvent{Kind: HeapAlloc, Object: next, Time: time, Size: size,
					Thread: uint32(x>>40) % 8, Class: uint32(x>>48) % 200, Array: x>>60 == 0}
				ring[(head+n)%maxLive] = next
				n++
				time += size
			}
			bl.HeapEvent(&e)
		}
		bl.Profile()
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// Large thread and class ids, which the cell index keeps in its map until the cells made let
// its slots reach them (or for good, past 2^20), give the cells small ids give.
func TestHeapBuilderLargeIDs(t *testing.T) {
	const threadStep, classStep = 4099, 300_001 // classes 4 and 0 map past 2^20, the rest below
	for seed := range uint64(5) {
		ev := randomHeapEvents(seed, 5000)
		small := buildHeap(t, 64, ev)
		for i := range ev {
			ev[i].Thread *= threadStep
			ev[i].Class = ev[i].Class*classStep + 1
		}
		large := buildHeap(t, 64, ev)
		if len(large.Cells) != len(small.Cells) {
			t.Fatalf("seed %d: %d cells with large ids, %d with small ones", seed, len(large.Cells), len(small.Cells))
		}
		for i, c := range large.Cells {
			switch c.Scope {
			case ScopeThread:
				c.Key /= threadStep
			case ScopeClass:
				c.Key /= classStep
			}
			if c != small.Cells[i] {
				t.Fatalf("seed %d: cell %d is %+v with large ids, %+v with small ones", seed, i, c, small.Cells[i])
			}
		}
	}
}
