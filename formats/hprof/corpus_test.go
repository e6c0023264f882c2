package hprof

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"androprof/internal/corpus"
	heapmodel "androprof/model/heap"
)

// plainDump is a dump as a deliberately plain second reader sees it: the whole file in
// memory, every object kept, nothing streamed. It shares no code with the package, so the
// two can check each other.
type plainDump struct {
	version string
	idSize  int
	strs    map[uint64]string
	names   map[uint64]uint64 // class object → name string (LOAD_CLASS)
	loads   []uint64          // name string of each LOAD_CLASS
	supers  map[uint64]uint64
	isizes  map[uint64]uint32
	ftypes  map[uint64][]byte // own instance field types
	objs    []plainObj
	roots   int
	dumps   int
}

type plainObj struct {
	tag    byte // 0x21, 0x22, 0x23, 0xC3
	heap   string
	id     uint64
	class  uint64 // instance class or array class
	n      uint64 // field bytes or elements
	elem   byte   // primitive element type
	values []byte // instance fields, or object array ids
}

// plainCursor reads big-endian numbers from a byte slice; running off its end panics,
// which is what a test of a good file wants.
type plainCursor struct {
	b  []byte
	at int
	id int
}

func (c *plainCursor) bytes(n int) []byte { c.at += n; return c.b[c.at-n : c.at] }
func (c *plainCursor) u1() byte           { return c.bytes(1)[0] }
func (c *plainCursor) u2() uint64         { b := c.bytes(2); return uint64(b[0])<<8 | uint64(b[1]) }
func (c *plainCursor) u4() uint64 {
	var v uint64
	for _, x := range c.bytes(4) {
		v = v<<8 | uint64(x)
	}
	return v
}
func (c *plainCursor) ident() uint64 {
	var v uint64
	for _, x := range c.bytes(c.id) {
		v = v<<8 | uint64(x)
	}
	return v
}

// plainSize is the size of a value of basic type t.
func plainSize(t byte, id int) int {
	return map[byte]int{2: id, 4: 1, 5: 2, 6: 4, 7: 8, 8: 1, 9: 2, 10: 4, 11: 8}[t]
}

func readPlain(t *testing.T, data []byte) *plainDump {
	t.Helper()
	nul := bytes.IndexByte(data, 0)
	d := &plainDump{version: string(data[:nul]), strs: map[uint64]string{}, names: map[uint64]uint64{},
		supers: map[uint64]uint64{}, isizes: map[uint64]uint32{}, ftypes: map[uint64][]byte{}}
	c := &plainCursor{b: data, at: nul + 1}
	d.idSize = int(c.u4())
	c.id = d.idSize
	c.bytes(8)
	for c.at < len(data) {
		tag := c.u1()
		c.u4()
		length := int(c.u4())
		end := c.at + length
		switch tag {
		case 0x01:
			id := c.ident()
			d.strs[id] = string(c.bytes(end - c.at))
		case 0x02:
			c.u4()
			class := c.ident()
			c.u4()
			d.names[class] = c.ident()
			d.loads = append(d.loads, d.names[class])
		case 0x0C, 0x1C:
			d.readHeapDump(c, end)
		}
		c.at = end
	}
	return d
}

func (d *plainDump) readHeapDump(c *plainCursor, end int) {
	heap := "default"
	id := d.idSize
	for c.at < end {
		tag := c.u1()
		switch tag {
		case 0xFE:
			c.u4()
			heap = d.strs[c.ident()] // STRING records come first in both corpus files
		case 0xFF, 0x05, 0x07, 0x89, 0x8A, 0x8B, 0x8C, 0x8D, 0x90:
			c.bytes(id)
			d.roots++
		case 0x01:
			c.bytes(2 * id)
			d.roots++
		case 0x02, 0x03, 0x08, 0x8E:
			c.bytes(id + 8)
			d.roots++
		case 0x04, 0x06:
			c.bytes(id + 4)
			d.roots++
		case 0x20:
			class := c.ident()
			c.u4()
			d.supers[class] = c.ident()
			c.bytes(5 * id)
			d.isizes[class] = uint32(c.u4())
			for range c.u2() {
				c.u2()
				c.bytes(plainSize(c.u1(), id))
			}
			for range c.u2() {
				c.ident()
				c.bytes(plainSize(c.u1(), id))
			}
			var types []byte
			for range c.u2() {
				c.ident()
				types = append(types, c.u1())
			}
			d.ftypes[class] = types
			d.dumps++
		case 0x21:
			o := plainObj{tag: tag, heap: heap, id: c.ident()}
			c.u4()
			o.class = c.ident()
			o.n = c.u4()
			o.values = c.bytes(int(o.n))
			d.objs = append(d.objs, o)
		case 0x22:
			o := plainObj{tag: tag, heap: heap, id: c.ident()}
			c.u4()
			o.n = c.u4()
			o.class = c.ident()
			o.values = c.bytes(int(o.n) * id)
			d.objs = append(d.objs, o)
		case 0x23, 0xC3:
			o := plainObj{tag: tag, heap: heap, id: c.ident()}
			c.u4()
			o.n = c.u4()
			o.elem = c.u1()
			if tag == 0x23 {
				c.bytes(int(o.n) * plainSize(o.elem, id))
			}
			d.objs = append(d.objs, o)
		default:
			panic(fmt.Sprintf("sub-record tag %#x at %d", tag, c.at-1))
		}
	}
}

// plainCounts is what the plain reader counts, keyed as the summary's rows are.
type plainCounts struct {
	classes  map[string]heapmodel.DumpCount // "name|heap|array"
	sizes    map[string]heapmodel.DumpCount // "heap|class|instances or arrays"
	pointers map[string]uint64              // "heap|bucket"
}

func (d *plainDump) count() plainCounts {
	pc := plainCounts{classes: map[string]heapmodel.DumpCount{}, sizes: map[string]heapmodel.DumpCount{}, pointers: map[string]uint64{}}
	loaded := map[string]bool{}
	for _, n := range d.loads {
		loaded[d.strs[n]] = true
	}
	primName := func(t byte) string {
		java := map[byte]string{4: "boolean", 5: "char", 6: "float", 7: "double", 8: "byte", 9: "short", 10: "int", 11: "long"}[t]
		sig := "[" + map[byte]string{4: "Z", 5: "C", 6: "F", 7: "D", 8: "B", 9: "S", 10: "I", 11: "J"}[t]
		if !loaded[java+"[]"] && loaded[sig] {
			return sig
		}
		return java + "[]"
	}
	name := func(class uint64) string {
		if s, ok := d.strs[d.names[class]]; ok {
			return s
		}
		return fmt.Sprintf("class@%#x", class)
	}
	bump := func(m map[string]heapmodel.DumpCount, k string, bytes uint64) {
		c := m[k]
		c.Objects++
		c.Bytes += bytes
		m[k] = c
	}
	point := func(heap string, from, to uint64) {
		if to != 0 {
			pc.pointers[fmt.Sprintf("%s|%d", heap, heapmodel.DistanceBucket(int64(to)-int64(from)))]++
		}
	}
	for _, o := range d.objs {
		var bytes uint64
		var key string
		switch o.tag {
		case 0x21:
			bytes = uint64(d.isizes[o.class])
			key = name(o.class) + "|" + o.heap + "|false"
			// Walk the fields: the class's own first, then up the chain.
			at := 0
			for k := o.class; k != 0; k = d.supers[k] {
				for _, ft := range d.ftypes[k] {
					if ft == 2 {
						var v uint64
						for _, x := range o.values[at : at+d.idSize] {
							v = v<<8 | uint64(x)
						}
						point(o.heap, o.id, v)
					}
					at += plainSize(ft, d.idSize)
				}
			}
		case 0x22:
			bytes = o.n * uint64(d.idSize)
			key = name(o.class) + "|" + o.heap + "|true"
			for i := 0; i < len(o.values); i += d.idSize {
				var v uint64
				for _, x := range o.values[i : i+d.idSize] {
					v = v<<8 | uint64(x)
				}
				point(o.heap, o.id, v)
			}
		default:
			bytes = o.n * uint64(plainSize(o.elem, d.idSize))
			key = primName(o.elem) + "|" + o.heap + "|true"
		}
		bump(pc.classes, key, bytes)
		bump(pc.sizes, fmt.Sprintf("%s|%d|%v", o.heap, heapmodel.SizeClass(bytes), o.tag != 0x21), bytes)
	}
	return pc
}

// summaryCounts keys a summary's rows as plainCounts does.
func summaryCounts(d *heapmodel.HeapDump) plainCounts {
	pc := plainCounts{classes: map[string]heapmodel.DumpCount{}, sizes: map[string]heapmodel.DumpCount{}, pointers: map[string]uint64{}}
	for _, c := range d.Classes {
		pc.classes[fmt.Sprintf("%s|%s|%v", c.Name, c.Heap, c.Array)] = c.DumpCount
	}
	for _, s := range d.Sizes {
		if s.Instances.Objects > 0 {
			pc.sizes[fmt.Sprintf("%s|%d|false", s.Heap, s.SizeClass)] = s.Instances
		}
		if s.Arrays.Objects > 0 {
			pc.sizes[fmt.Sprintf("%s|%d|true", s.Heap, s.SizeClass)] = s.Arrays
		}
	}
	for _, p := range d.Pointers {
		pc.pointers[fmt.Sprintf("%s|%d", p.Heap, p.Bucket)] = p.Count
	}
	return pc
}

func compareCounts[V comparable](t *testing.T, what string, got, want map[string]V) {
	t.Helper()
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s %s: summary %v, plain reader %v", what, k, got[k], w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s %s: summary %v, plain reader has none", what, k, g)
		}
	}
}

// TestCorpusAgainstPlainReader summarises the real dumps and checks every (class, heap) row,
// every size class and every pointer bucket against the plain reader.
func TestCorpusAgainstPlainReader(t *testing.T) {
	for _, name := range []string{"ahat-RI.hprof", "perflib-dialer.hprof"} {
		t.Run(name, func(t *testing.T) {
			path := corpus.File(t, name)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d, err := summarizeFile(path)
			if err != nil {
				t.Fatal(err)
			}
			plain := readPlain(t, data)
			want, got := plain.count(), summaryCounts(d)
			if len(want.classes) == 0 {
				t.Fatal("the plain reader found no objects")
			}
			compareCounts(t, "class", got.classes, want.classes)
			compareCounts(t, "size", got.sizes, want.sizes)
			compareCounts(t, "pointers", got.pointers, want.pointers)
			if d.Version != plain.version || d.IDSize != plain.idSize || d.Roots != plain.roots ||
				d.LoadedClasses != max(len(plain.loads), plain.dumps) {
				t.Errorf("version %q id %d roots %d classes %d; plain reader: %q %d %d %d/%d", d.Version, d.IDSize,
					d.Roots, d.LoadedClasses, plain.version, plain.idSize, plain.roots, len(plain.loads), plain.dumps)
			}
		})
	}
}

// TestCorpusFacts checks what was verified by hand (and, for the dialer dump, against
// perflib's own test: 43,687 instances and classes).
func TestCorpusFacts(t *testing.T) {
	for _, tc := range []struct {
		file           string
		version        string
		timestamp      uint64
		heaps          []string
		loaded, arrays int
		roots          int
		objects        uint64
		strings        uint64 // java.lang.String instances, all heaps
		top            string // the class with the most bytes
		perflib        uint64 // perflib's count of instances and classes (HprofParserTest), 0: none
	}{
		{"ahat-RI.hprof", "JAVA PROFILE 1.0.2", 1505478840497, []string{"default"}, 476, 57, 1324, 24542, 996, "byte[]", 0},
		{"perflib-dialer.hprof", "JAVA PROFILE 1.0.3", 1405028182739, []string{"zygote", "app"}, 3571, 149, 11193, 40116, 11556, "byte[]", 43687},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d, err := summarizeFile(corpus.File(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if d.Version != tc.version || d.IDSize != 4 || d.Timestamp != tc.timestamp {
				t.Errorf("header %q id %d time %d", d.Version, d.IDSize, d.Timestamp)
			}
			if strings.Join(d.Heaps, ",") != strings.Join(tc.heaps, ",") {
				t.Errorf("heaps %q, want %q", d.Heaps, tc.heaps)
			}
			if d.LoadedClasses != tc.loaded || d.ArrayClasses != tc.arrays || d.Roots != tc.roots {
				t.Errorf("loaded %d array classes %d roots %d, want %d %d %d", d.LoadedClasses, d.ArrayClasses, d.Roots, tc.loaded, tc.arrays, tc.roots)
			}
			var objects, strs uint64
			byClass := map[string]uint64{}
			for _, c := range d.Classes {
				objects += c.Objects
				byClass[c.Name] += c.Bytes
				if c.Name == "java.lang.String" && !c.Array {
					strs += c.Objects
				}
			}
			if objects != tc.objects || strs != tc.strings {
				t.Errorf("%d objects, %d Strings; want %d, %d", objects, strs, tc.objects, tc.strings)
			}
			if tc.perflib != 0 && objects+uint64(d.LoadedClasses) != tc.perflib {
				t.Errorf("%d objects and %d classes, perflib counts %d", objects, d.LoadedClasses, tc.perflib)
			}
			top := ""
			for n, b := range byClass {
				if top == "" || b > byClass[top] {
					top = n
				}
			}
			if top != tc.top {
				t.Errorf("most bytes in %s, want %s", top, tc.top)
			}
			if len(d.Pointers) == 0 || len(d.Sizes) == 0 {
				t.Errorf("%d pointer buckets, %d size classes", len(d.Pointers), len(d.Sizes))
			}
		})
	}
}
