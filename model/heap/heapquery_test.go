package heap

import (
	"math"
	"reflect"
	"testing"
)

func TestHeapSeries(t *testing.T) {
	p := buildHeap(t, 64, sampleHeapEvents())
	wantTimes := []uint64{0, 64, 128, 152}
	tests := []struct {
		name   string
		scope  HeapScope
		metric HeapMetric
		max    int
		want   []HeapSeries
	}{
		{"volume by cohort (fig 5.1)", ScopeCohort, LiveBytes, 0, []HeapSeries{
			{0, "0–64 B", []float64{0, 72, 56, 24}},
			{1, "64–128 B", []float64{0, 0, 64, 24}},
			{2, "128–192 B", []float64{0, 0, 0, 16}},
		}},
		{"objects by cohort (fig 5.2)", ScopeCohort, LiveObjects, 0, []HeapSeries{
			{0, "0–64 B", []float64{0, 3, 2, 1}},
			{1, "64–128 B", []float64{0, 0, 2, 1}},
			{2, "128–192 B", []float64{0, 0, 0, 1}},
		}},
		{"arrays by cohort: cohort 2 has none (fig 5.3)", ScopeCohort, LiveArrayBytes, 0, []HeapSeries{
			{0, "0–64 B", []float64{0, 32, 32, 0}},
			{1, "64–128 B", []float64{0, 0, 40, 0}},
		}},
		{"the rest merged", ScopeCohort, LiveBytes, 2, []HeapSeries{
			{0, "0–64 B", []float64{0, 72, 56, 24}},
			{OtherKey, "other", []float64{0, 0, 64, 40}},
		}},
		{"lifetime by cohort (fig 5.5)", ScopeCohort, AvgLifetime, 0, []HeapSeries{
			{0, "0–64 B", []float64{0, 0, 72, 96}},
			{1, "64–128 B", []float64{0, 0, 0, 80}},
		}},
		{"lifetimes merged: weighted", ScopeCohort, AvgLifetime, 1, []HeapSeries{
			{OtherKey, "other", []float64{0, 0, 72, (72.0 + 120 + 80) / 3}},
		}},
		{"array lifetime by cohort (fig 5.6)", ScopeCohort, AvgArrayLifetime, 0, []HeapSeries{
			{0, "0–64 B", []float64{0, 0, 0, 120}},
			{1, "64–128 B", []float64{0, 0, 0, 80}},
		}},
		{"objects by thread, by start (fig 5.12)", ScopeThread, LiveObjects, 0, []HeapSeries{
			{1, "main", []float64{0, 2, 2, 1}},
			{2, "worker", []float64{0, 1, 2, 2}},
		}},
		{"array volume by class (fig 5.13 by class)", ScopeClass, LiveArrayBytes, 0, []HeapSeries{
			{2, "[I", []float64{0, 32, 72, 0}},
		}},
		{"volume by class, by name (fig 5.17)", ScopeClass, LiveBytes, 0, []HeapSeries{
			{2, "[I", []float64{0, 32, 72, 0}},
			{3, "com/example/Foo", []float64{0, 24, 24, 40}},
			{1, "java/lang/String", []float64{0, 16, 24, 24}},
		}},
		{"array lifetime by class", ScopeClass, AvgArrayLifetime, 0, []HeapSeries{
			{2, "[I", []float64{0, 0, 0, 100}},
		}},
		{"volume by size (fig 5.10)", ScopeSize, LiveBytes, 0, []HeapSeries{
			{16, "16 B", []float64{0, 16, 0, 16}},
			{24, "24 B", []float64{0, 24, 48, 48}},
			{32, "32 B", []float64{0, 32, 32, 0}},
			{40, "40 B", []float64{0, 0, 40, 0}},
		}},
		{"three largest peaks kept in order", ScopeSize, LiveBytes, 4, []HeapSeries{
			{16, "16 B", []float64{0, 16, 0, 16}},
			{24, "24 B", []float64{0, 24, 48, 48}},
			{32, "32 B", []float64{0, 32, 32, 0}},
			{40, "40 B", []float64{0, 0, 40, 0}},
		}},
		{"two largest peaks kept in order", ScopeSize, LiveBytes, 3, []HeapSeries{
			{24, "24 B", []float64{0, 24, 48, 48}},
			{40, "40 B", []float64{0, 0, 40, 0}},
			{OtherKey, "other", []float64{0, 48, 32, 16}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			times, got := p.Series(tt.scope, tt.metric, tt.max)
			if !reflect.DeepEqual(times, wantTimes) {
				t.Errorf("times %v, want %v", times, wantTimes)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
		})
	}
}

func TestHeapSeriesStacked(t *testing.T) {
	p := buildHeap(t, 64, sampleHeapEvents())
	_, s := p.Series(ScopeCohort, LiveBytes, 0)
	st := StackHeapSeries(s)
	// the top line is the whole live heap: 72 at 64; 120 at 128 (objects 2–5); 64 at the end
	if top := st[len(st)-1].Values; !reflect.DeepEqual(top, []float64{0, 72, 120, 64}) {
		t.Errorf("top line %v", top)
	}
	if mid := st[1].Values; !reflect.DeepEqual(mid, []float64{0, 72, 120, 48}) {
		t.Errorf("second line %v", mid)
	}
}

func TestHeapTimes(t *testing.T) {
	tests := []struct {
		cohort, end uint64
		want        []uint64
	}{
		{64, 0, []uint64{0}},
		{64, 1, []uint64{0, 1}},
		{64, 64, []uint64{0, 64}},
		{64, 65, []uint64{0, 64, 65}},
		{64, 152, []uint64{0, 64, 128, 152}},
	}
	for _, tt := range tests {
		p := &HeapProfile{Cohort: tt.cohort, End: tt.end}
		if got := p.Times(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("cohort %d end %d: %v, want %v", tt.cohort, tt.end, got, tt.want)
		}
	}
}

func TestStackAndDownsample(t *testing.T) {
	s := []HeapSeries{{1, "a", []float64{1, 2, 3}}, {2, "b", []float64{10, 20, 30}}}
	want := []HeapSeries{{1, "a", []float64{1, 2, 3}}, {2, "b", []float64{11, 22, 33}}}
	if got := StackHeapSeries(s); !reflect.DeepEqual(got, want) {
		t.Errorf("stack %v", got)
	}
	if s[1].Values[0] != 10 {
		t.Error("stack changed its input")
	}

	times := []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	line := []HeapSeries{{7, "x", []float64{0, 10, 20, 30, 40, 50, 60, 70, 80, 90}}}
	for _, tt := range []struct {
		max  int
		want []uint64
	}{
		{100, times},
		{10, times},
		{9, []uint64{0, 2, 4, 6, 8, 9}},
		{5, []uint64{0, 3, 6, 9}},
		{4, []uint64{0, 3, 6, 9}},
		{3, []uint64{0, 5, 9}},
		{2, []uint64{0, 9}},
		{0, []uint64{0, 9}},
	} {
		gt, gs := DownsampleHeapSeries(times, line, tt.max)
		if !reflect.DeepEqual(gt, tt.want) {
			t.Errorf("max %d: times %v, want %v", tt.max, gt, tt.want)
		}
		for i, x := range gt {
			if gs[0].Values[i] != float64(10*x) || gs[0].Key != 7 || gs[0].Label != "x" {
				t.Errorf("max %d: %v", tt.max, gs)
				break
			}
		}
	}
}

func TestHeapSizeHistogram(t *testing.T) {
	p := buildHeap(t, 64, sampleHeapEvents())
	const s = 100.0 / 6
	sizes, cohorts := p.SizeHistogram(false, 0)
	if !reflect.DeepEqual(sizes, []uint64{16, 24, 32, 40}) {
		t.Errorf("sizes %v", sizes)
	}
	want := []HeapSeries{
		{0, "0–64 B", []float64{s, s, s, 0}},
		{1, "64–128 B", []float64{0, s, 0, s}},
		{2, "128–192 B", []float64{s, 0, 0, 0}},
	}
	if !reflect.DeepEqual(cohorts, want) {
		t.Errorf("allocated:\n got %v\nwant %v", cohorts, want)
	}

	_, cohorts = p.SizeHistogram(false, 2) // cohorts 0 (3 objects) and the rest (3)
	want = []HeapSeries{
		{0, "0–64 B", []float64{s, s, s, 0}},
		{OtherKey, "other", []float64{s, s, 0, s}},
	}
	if !reflect.DeepEqual(cohorts, want) {
		t.Errorf("merged:\n got %v\nwant %v", cohorts, want)
	}

	const l = 100.0 / 3
	sizes, cohorts = p.SizeHistogram(true, 0)
	want = []HeapSeries{
		{0, "0–64 B", []float64{0, l}},
		{1, "64–128 B", []float64{0, l}},
		{2, "128–192 B", []float64{l, 0}},
	}
	if !reflect.DeepEqual(sizes, []uint64{16, 24}) || !reflect.DeepEqual(cohorts, want) {
		t.Errorf("live: %v\n got %v\nwant %v", sizes, cohorts, want)
	}

	if sizes, cohorts := (&HeapProfile{Cohort: 64}).SizeHistogram(true, 0); sizes != nil || cohorts != nil {
		t.Errorf("empty: %v %v", sizes, cohorts)
	}
}

func TestHeapTables(t *testing.T) {
	p := buildHeap(t, 64, sampleHeapEvents())
	classes := []HeapRow{
		{Key: 3, Name: "com/example/Foo", Classes: 1, Live: hc(2, 40), LivePercent: 200.0 / 3, Total: hc(2, 40)},
		{Key: 1, Name: "java/lang/String", Classes: 1, Live: hc(1, 24), LivePercent: 100.0 / 3, Total: hc(2, 40),
			Died: hc(1, 16), Lifetime: 72, AvgLifetime: 72},
		{Key: 2, Name: "[I", Array: true, Classes: 1, Total: hc(2, 72, 2, 72), Died: hc(2, 72, 2, 72),
			Lifetime: 200, ArrayLifetime: 200, AvgLifetime: 100, AvgArrayLifetime: 100},
	}
	if got := p.Table(ScopeClass); !reflect.DeepEqual(got, classes) {
		t.Errorf("classes:\n got %+v\nwant %+v", got, classes)
	}
	packages := []HeapRow{
		{Name: "com/example", Classes: 1, Live: hc(2, 40), LivePercent: 200.0 / 3, Total: hc(2, 40)},
		{Name: "java/lang", Classes: 1, Live: hc(1, 24), LivePercent: 100.0 / 3, Total: hc(2, 40),
			Died: hc(1, 16), Lifetime: 72, AvgLifetime: 72},
		{Name: "(primitive arrays)", Classes: 1, Total: hc(2, 72, 2, 72), Died: hc(2, 72, 2, 72),
			Lifetime: 200, ArrayLifetime: 200, AvgLifetime: 100, AvgArrayLifetime: 100},
	}
	if got := p.Packages(); !reflect.DeepEqual(got, packages) {
		t.Errorf("packages:\n got %+v\nwant %+v", got, packages)
	}
	threads := []HeapRow{
		{Key: 2, Name: "worker", Live: hc(2, 40), LivePercent: 200.0 / 3, Total: hc(3, 80, 1, 40),
			Died: hc(1, 40, 1, 40), Lifetime: 80, ArrayLifetime: 80, AvgLifetime: 80, AvgArrayLifetime: 80},
		{Key: 1, Name: "main", Live: hc(1, 24), LivePercent: 100.0 / 3, Total: hc(3, 72, 1, 32),
			Died: hc(2, 48, 1, 32), Lifetime: 192, ArrayLifetime: 120, AvgLifetime: 96, AvgArrayLifetime: 120},
	}
	if got := p.Table(ScopeThread); !reflect.DeepEqual(got, threads) {
		t.Errorf("threads:\n got %+v\nwant %+v", got, threads)
	}
	cohorts := p.Table(ScopeCohort)
	if len(cohorts) != 3 || cohorts[0].Name != "0–64 B" || cohorts[1].Name != "64–128 B" || cohorts[2].Name != "128–192 B" || cohorts[0].Total != hc(3, 72, 1, 32) {
		t.Errorf("cohorts (ties on live broken by total): %+v", cohorts)
	}

	if got := FilterHeapRows(p.Table(ScopeClass), "EXAMPLE"); len(got) != 1 || got[0].Key != 3 {
		t.Errorf("filter: %+v", got)
	}
	if got := FilterHeapRows(classes, ""); !reflect.DeepEqual(got, classes) {
		t.Errorf("empty filter: %+v", got)
	}
	if got := FilterHeapRows(classes, "nothing"); len(got) != 0 {
		t.Errorf("no match: %+v", got)
	}
}

func TestHeapTableUndeclared(t *testing.T) {
	p := buildHeap(t, 64, []HeapEvent{
		{Kind: HeapClass, Class: 1, Name: "a/Unused"},
		{Kind: HeapThreadStart, Thread: 1, Name: "idle"},
		{Kind: HeapAlloc, Object: 1, Size: 8, Thread: 9, Class: 7},
	})
	classes := p.Table(ScopeClass)
	if len(classes) != 2 || classes[0].Name != "class 7" || classes[1].Name != "a/Unused" || classes[1].Total != (HeapCount{}) {
		t.Errorf("classes %+v", classes)
	}
	threads := p.Table(ScopeThread)
	if len(threads) != 2 || threads[0].Name != "thread 9" || threads[1].Name != "idle" {
		t.Errorf("threads %+v", threads)
	}
	pk := p.Packages()
	if len(pk) != 2 || pk[0].Name != "(undeclared classes)" || pk[1].Name != "a" {
		t.Errorf("packages %+v", pk)
	}
	_, s := p.Series(ScopeThread, LiveBytes, 0)
	if len(s) != 1 || s[0].Label != "thread 9" {
		t.Errorf("series %+v", s)
	}
}

func TestHeapCharacteristics(t *testing.T) {
	p := buildHeap(t, 64, sampleHeapEvents())
	want := HeapCharacteristics{
		TotalAllocation: 152, TotalObjects: 6,
		MaxLive: 120, MaxLiveObjects: 4, MaxLiveAt: 136,
		LiveObjects: 3, LiveBytes: 64, FreedObjects: 3,
		LoadedClasses: 3, ArrayClasses: 1, Threads: 2, GCs: 3,
		Mutations: 2, UnknownFrees: 2,
	}
	if got := p.Characteristics(); got != want {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestHeapPointers(t *testing.T) {
	p := buildHeap(t, 64, sampleHeapEvents())
	tests := []struct {
		snapshot bool
		times    []uint64
		buckets  []int
		percent  [][]float64
		counts   []uint64
	}{
		{false, []uint64{64}, []int{-6, 4}, [][]float64{{50, 50}}, []uint64{1, 1}},
		{true, []uint64{128}, []int{-2, 3}, [][]float64{{75, 25}}, []uint64{15, 5}},
	}
	for _, tt := range tests {
		times, buckets, percent := p.PointerSeries(tt.snapshot)
		if !reflect.DeepEqual(times, tt.times) || !reflect.DeepEqual(buckets, tt.buckets) || !reflect.DeepEqual(percent, tt.percent) {
			t.Errorf("snapshot %v: %v %v %v", tt.snapshot, times, buckets, percent)
		}
		buckets, counts := p.PointerTotals(tt.snapshot)
		if !reflect.DeepEqual(buckets, tt.buckets) || !reflect.DeepEqual(counts, tt.counts) {
			t.Errorf("snapshot %v totals: %v %v", tt.snapshot, buckets, counts)
		}
	}

	q := &HeapProfile{Cohort: 10, Pointers: []HeapPointers{
		{Bucket: 0, Distance: -1, Count: 1}, {Bucket: 0, Distance: 2, Count: 3},
		{Bucket: 4, Distance: -7, Count: 2}, {Bucket: 4, Distance: 0, Count: 0},
	}}
	times, buckets, percent := q.PointerSeries(false)
	if !reflect.DeepEqual(times, []uint64{0, 40}) || !reflect.DeepEqual(buckets, []int{-7, -1, 2}) ||
		!reflect.DeepEqual(percent, [][]float64{{0, 25, 75}, {100, 0, 0}}) {
		t.Errorf("%v %v %v", times, buckets, percent)
	}
}

// A span of sizes writes a shared unit once, in human.Bytes's numbers.
func TestByteSpans(t *testing.T) {
	spans := []struct {
		from, to uint64
		want     string
	}{
		{0, 256 << 10, "0–256 KB"}, {256 << 10, 512 << 10, "256–512 KB"},
		{768 << 10, 1 << 20, "768 KB–1 MB"}, {0, 64, "0–64 B"},
	}
	for _, tt := range spans {
		if got := byteSpan(tt.from, tt.to); got != tt.want {
			t.Errorf("byteSpan(%d, %d) = %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}

func TestHeapPackage(t *testing.T) {
	tests := []struct{ class, want string }{
		{"java/lang/String", "java/lang"},
		{"java/util/HashMap$HashMapEntry", "java/util"},
		{"android/graphics/Rect", "android/graphics"},
		{"[Ljava/lang/Object;", "java/lang"},
		{"[[Ljava/lang/reflect/Type;", "java/lang/reflect"},
		{"[I", "(primitive arrays)"},
		{"[[B", "(primitive arrays)"},
		{"EM", "(default package)"},
		{"[LEM;", "(default package)"},
		{"java.lang.String", "java.lang"},
		{"java.lang.String[][]", "java.lang"},
		{"int[]", "(primitive arrays)"},
		{"[", "(primitive arrays)"},
		{"", "(default package)"},
	}
	for _, tt := range tests {
		if got := HeapPackage(tt.class); got != tt.want {
			t.Errorf("HeapPackage(%q) = %q, want %q", tt.class, got, tt.want)
		}
	}
}

func TestHeapRegroupSample(t *testing.T) {
	ev := sampleHeapEvents()
	p := buildHeap(t, 64, ev)
	if got, want := p.Regroup(2), buildHeap(t, 128, ev); !reflect.DeepEqual(got, want) {
		diffHeapProfiles(t, got, want)
	}
	q := p.Regroup(1)
	if !reflect.DeepEqual(q, p) {
		diffHeapProfiles(t, q, p)
	}
	q.Cells[0].Born.Objects = 99
	q.Classes[0].Name = "x"
	if p.Cells[0].Born.Objects == 99 || p.Classes[0].Name == "x" {
		t.Error("Regroup shares slices with its input")
	}
}

// TestHeapRegroupRandom: regrouping a profile built at cohort C by k gives the profile built
// at k·C, for random logs.
func TestHeapRegroupRandom(t *testing.T) {
	for seed := range uint64(8) {
		ev := randomHeapEvents(100+seed, 1500)
		for _, c := range []uint64{8, 24, 64} {
			p := buildHeap(t, c, ev)
			for _, k := range []int{2, 3, 7, 1000} {
				got, want := p.Regroup(k), buildHeap(t, uint64(k)*c, ev)
				if !reflect.DeepEqual(got, want) {
					diffHeapProfiles(t, got, want)
					t.Fatalf("seed %d cohort %d factor %d", seed, c, k)
				}
			}
		}
	}
}

// TestHeapQueriesRandom checks the queries against a direct simulation of random logs.
func TestHeapQueriesRandom(t *testing.T) {
	for seed := range uint64(10) {
		ev := randomHeapEvents(200+seed, 1500)
		const cohort = 256
		p := buildHeap(t, cohort, ev)
		times := p.Times()
		last := len(times) - 1

		// live bytes per cohort at each boundary, and all lifetimes so far, simulated
		type obj struct{ birth, size uint64 }
		live := map[uint64]obj{}
		liveAt := make([]map[uint64]float64, len(times)) // boundary → cohort → bytes
		lifeAt := make([][2]float64, len(times))         // boundary → Σ lifetime, deaths
		var lifeSum, deaths float64
		k := 0
		snap := func(upTo int) {
			for ; k < upTo; k++ {
				m := map[uint64]float64{}
				for _, o := range live {
					if o.size > 0 {
						m[o.birth/cohort] += float64(o.size)
					}
				}
				liveAt[k] = m
				lifeAt[k] = [2]float64{lifeSum, deaths}
			}
		}
		for _, e := range ev {
			if e.Kind != HeapAlloc && e.Kind != HeapFree {
				continue
			}
			snap(min(int(e.Time/cohort)+1, last)) // boundaries up to this event's bucket
			if e.Kind == HeapAlloc {
				live[e.Object] = obj{e.Time, e.Size}
			} else if o, ok := live[e.Object]; ok {
				delete(live, e.Object)
				lifeSum += float64(e.Time - o.birth)
				deaths++
			}
		}
		snap(last + 1)

		_, series := p.Series(ScopeCohort, LiveBytes, 0)
		for i := range times {
			got := map[uint64]float64{}
			for _, s := range series {
				if s.Values[i] != 0 {
					got[s.Key] = s.Values[i]
				}
			}
			if !reflect.DeepEqual(got, liveAt[i]) {
				t.Fatalf("seed %d: live by cohort at %d: %v, want %v", seed, times[i], got, liveAt[i])
			}
		}
		_, avg := p.Series(ScopeThread, AvgLifetime, 1)
		for i := range times {
			want := 0.0
			if lifeAt[i][1] > 0 {
				want = lifeAt[i][0] / lifeAt[i][1]
			}
			if got := avg[0].Values[i]; math.Abs(got-want) > 1e-9*want {
				t.Fatalf("seed %d: average lifetime at %d: %v, want %v", seed, times[i], got, want)
			}
		}

		// the sums of the other queries
		for _, isLive := range []bool{false, true} {
			_, cohorts := p.SizeHistogram(isLive, 4)
			var sum float64
			for _, c := range cohorts {
				for _, v := range c.Values {
					sum += v
				}
			}
			if math.Abs(sum-100) > 1e-9 {
				t.Errorf("seed %d live %v: histogram sums to %v", seed, isLive, sum)
			}
		}
		var classes, packages HeapRow
		for _, r := range p.Table(ScopeClass) {
			addRow(&classes, r)
		}
		for _, r := range p.Packages() {
			addRow(&packages, r)
		}
		if math.Abs(classes.LivePercent-100) > 1e-9 && classes.Live.Objects > 0 {
			t.Errorf("seed %d: live percentages sum to %v", seed, classes.LivePercent)
		}
		if math.Abs(classes.LivePercent-packages.LivePercent) > 1e-9 {
			t.Errorf("seed %d: live percentages of classes sum to %v, of packages %v", seed, classes.LivePercent, packages.LivePercent)
		}
		classes.LivePercent, packages.LivePercent = 0, 0
		if classes != packages || classes.Classes != len(p.Table(ScopeClass)) {
			t.Errorf("seed %d: classes sum to %+v, packages to %+v", seed, classes, packages)
		}
		if classes.Total != p.Allocated || classes.Died != p.Freed {
			t.Errorf("seed %d: class rows sum to %+v", seed, classes)
		}
		for _, s := range []HeapScope{ScopeCohort, ScopeThread, ScopeSize} {
			var sum HeapRow
			for _, r := range p.Table(s) {
				addRow(&sum, r)
			}
			if sum.Total != p.Allocated || sum.Died != p.Freed || sum.Lifetime != classes.Lifetime {
				t.Errorf("seed %d scope %d: rows sum to %+v", seed, s, sum)
			}
		}
		for _, snapshot := range []bool{false, true} {
			_, _, percent := p.PointerSeries(snapshot)
			for i, row := range percent {
				var sum float64
				for _, v := range row {
					sum += v
				}
				if math.Abs(sum-100) > 1e-9 {
					t.Errorf("seed %d: pointer percentages of time %d sum to %v", seed, i, sum)
				}
			}
		}
	}
}

func addRow(sum *HeapRow, r HeapRow) {
	sum.Classes += r.Classes
	sum.Live.plus(r.Live)
	sum.Total.plus(r.Total)
	sum.Died.plus(r.Died)
	sum.Lifetime += r.Lifetime
	sum.ArrayLifetime += r.ArrayLifetime
	sum.LivePercent += r.LivePercent
}
