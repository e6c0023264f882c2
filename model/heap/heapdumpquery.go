package heap

import (
	"cmp"
	"slices"
	"strings"

	modelmodel "androprof/model"
)

// DumpRow is one line of a heap dump's class or package table (seed tables 5.1 and 5.3 for
// one moment): objects and bytes, instances and arrays apart.
type DumpRow struct {
	Name       string
	Heap       string // "" when the row sums every heap
	Classes    int    // packages: how many classes (a class in two heaps counts once)
	Instances  DumpCount
	Arrays     DumpCount
	Percent    float64 // of all objects counted, 0–100
	BytesShare float64 // of all bytes counted, 0–100
}

// Objects and Bytes sum instances and arrays.
func (r DumpRow) Objects() uint64 { return r.Instances.Objects + r.Arrays.Objects }
func (r DumpRow) Bytes() uint64   { return r.Instances.Bytes + r.Arrays.Bytes }

// DumpRows gives a row per class (or per package with byPackage, see HeapPackage) of one heap,
// or of every heap when heap is "", most bytes first.
func (d *HeapDump) DumpRows(heap string, byPackage bool) []DumpRow {
	rows := map[string]*DumpRow{}
	seen := map[[2]string]bool{} // (row, class): a class in two heaps counts once
	var objects, bytes uint64
	for _, c := range d.Classes {
		if heap != "" && c.Heap != heap {
			continue
		}
		name := c.Name
		if byPackage {
			name = HeapPackage(name)
		}
		r := rows[name]
		if r == nil {
			r = &DumpRow{Name: name, Heap: heap}
			rows[name] = r
		}
		if !seen[[2]string{name, c.Name}] {
			seen[[2]string{name, c.Name}] = true
			r.Classes++
		}
		part := &r.Instances
		if c.Array {
			part = &r.Arrays
		}
		part.Objects += c.Objects
		part.Bytes += c.Bytes
		objects += c.Objects
		bytes += c.Bytes
	}
	out := make([]DumpRow, 0, len(rows))
	for _, r := range rows {
		r.Percent = modelmodel.PercentOf(r.Objects(), objects)
		r.BytesShare = modelmodel.PercentOf(r.Bytes(), bytes)
		out = append(out, *r)
	}
	slices.SortFunc(out, func(x, y DumpRow) int {
		if c := cmp.Compare(y.Bytes(), x.Bytes()); c != 0 {
			return c
		}
		return strings.Compare(x.Name, y.Name)
	})
	return out
}

// DumpCharacteristics sums a dump up as the seed's tables 4.1–4.3 do for one moment.
type DumpCharacteristics struct {
	Objects, Bytes              uint64 // every object in the dump
	Instances, Arrays           DumpCount
	LoadedClasses, ArrayClasses int
	Heaps                       []string
}

// Characteristics sums every heap of the dump.
func (d *HeapDump) Characteristics() DumpCharacteristics {
	ch := DumpCharacteristics{LoadedClasses: d.LoadedClasses, ArrayClasses: d.ArrayClasses, Heaps: d.Heaps}
	for _, c := range d.Classes {
		part := &ch.Instances
		if c.Array {
			part = &ch.Arrays
		}
		part.Objects += c.Objects
		part.Bytes += c.Bytes
	}
	ch.Objects = ch.Instances.Objects + ch.Arrays.Objects
	ch.Bytes = ch.Instances.Bytes + ch.Arrays.Bytes
	return ch
}

// Find is the object with this id, if it is reachable.
func (r *DumpRetention) Find(id uint64) (DumpObject, bool) {
	i := r.SeqOf(id)
	if i < 0 {
		return DumpObject{}, false
	}
	return r.Object(i), true
}

// SeqOf is the seq of the reachable object with this id, or -1: what decoding a reference
// asks for every field it shows. The index it builds once is the objects sorted by id, 4 bytes
// an object (a map would take about 40), so a dump of 20 million objects can have it.
func (r *DumpRetention) SeqOf(id uint64) int32 {
	r.idOnce.Do(func() { r.byID = SortIDs(r.Objects.ID) })
	ids := r.Objects.ID
	k, found := slices.BinarySearchFunc(r.byID, id, func(s int32, id uint64) int { return cmp.Compare(ids[s], id) })
	if !found {
		return -1
	}
	return r.byID[k]
}

// SortIDs is the indexes of ids in the order of their values, equal ids in the order they come
// (a stable radix sort a byte at a time, skipping the bytes every id shares: the high bytes of
// addresses), in linear time and 8 bytes an id: the object index of a retention and of an
// import's object graph.
func SortIDs(ids []uint64) []int32 {
	perm := make([]int32, len(ids))
	for i := range perm {
		perm[i] = int32(i)
	}
	or, and := uint64(0), ^uint64(0)
	for _, v := range ids {
		or, and = or|v, and&v
	}
	varies := or ^ and
	tmp := make([]int32, len(ids))
	for shift := 0; shift < 64; shift += 8 {
		if (varies>>shift)&0xff == 0 {
			continue
		}
		var at [257]int
		for _, s := range perm {
			at[(ids[s]>>shift)&0xff+1]++
		}
		for i := 1; i < len(at); i++ {
			at[i] += at[i-1]
		}
		for _, s := range perm {
			d := (ids[s] >> shift) & 0xff
			tmp[at[d]] = s
			at[d]++
		}
		perm, tmp = tmp, perm
	}
	return perm
}

// IDSeeker finds objects by id one after another, fast when the ids come in about increasing
// order, as a dump lists its objects (by address): each search starts where the last ended.
type IDSeeker struct {
	r  *DumpRetention
	at int
}

// Seeker starts an IDSeeker.
func (r *DumpRetention) Seeker() *IDSeeker {
	r.SeqOf(0) // the index, built once
	return &IDSeeker{r: r}
}

// Seq is the seq of the reachable object with this id, or -1.
func (s *IDSeeker) Seq(id uint64) int32 {
	by, ids := s.r.byID, s.r.Objects.ID
	n, c := len(by), s.at
	less := func(p int) bool { return ids[by[p]] < id }
	// Bracket the first place whose id is not less than id in [lo, hi], galloping from c.
	lo, hi := c+1, n
	if c < n && less(c) {
		step := 1
		for ; c+step < n && less(c+step); step *= 2 {
			lo = c + step + 1
		}
		hi = min(c+step, n)
	} else {
		lo, hi = 0, c
		step := 1
		for ; c-step >= 0 && !less(c-step); step *= 2 {
			hi = c - step
		}
		if c-step >= 0 {
			lo = c - step + 1
		}
	}
	k, found := slices.BinarySearchFunc(by[lo:min(hi+1, n)], id, func(q int32, id uint64) int { return cmp.Compare(ids[q], id) })
	s.at = lo + k
	if !found {
		return -1
	}
	return by[lo+k]
}
