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
