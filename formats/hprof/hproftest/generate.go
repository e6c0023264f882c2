package hproftest

import (
	"fmt"
	"io"
	"math/rand/v2"
)

// Synthetic is what Generate wrote, so a reader's counts can be checked against it.
type Synthetic struct {
	Classes    int   // LOAD_CLASS records (each class also has a CLASS_DUMP)
	Instances  int64 // INSTANCE_DUMPs
	ObjArrays  int64 // OBJ_ARRAY_DUMPs
	PrimArrays int64 // PRIM_ARRAY_DUMPs
	References int64 // non-null references in instance fields and object-array elements
	Roots      int64
	Heaps      []string // in order of first use
}

// genClass is a class of the synthetic heap.
type genClass struct {
	id, name uint64
	super    *genClass
	fields   []Field
	size     uint32 // instance size: the chain's field bytes plus an 8-byte header
	array    Type   // for an array class: its element type (Object for object arrays)
}

// Generate writes a dump of about size bytes shaped like an app's heap: three dozen classes
// in hierarchies up to five deep with reference and primitive fields, about 3.5 instances for
// every array (some 10,000 instances per MB), object arrays of up to a few thousand elements
// and primitive arrays of up to 8192 elements. References go mostly to objects just allocated, some anywhere below and
// some ahead, a quarter null. With Options.Version "1.0.3" the objects are in the image,
// zygote and app heaps, in that order. CLASS_DUMPs come last, after the instances that need
// them. The same seed writes the same dump.
func Generate(w io.Writer, o Options, size int64, seed uint64) (Synthetic, error) {
	hw, err := NewWriter(w, o)
	if err != nil {
		return Synthetic{}, err
	}
	g := &gen{w: hw, rng: rand.New(rand.NewPCG(seed, 0x4850524f46)), addr: 0x12c00000}
	g.setup()
	android := hw.o.Version == "1.0.3"
	heaps := []struct {
		id    uint32
		name  string
		until int64 // share of size, in percent, where the heap ends
	}{{'I', "image", 10}, {'Z', "zygote", 40}, {'A', "app", 100}}
	heap := 0
	if android {
		g.heapInfo(heaps[0].id, heaps[0].name)
	} else {
		g.syn.Heaps = []string{"default"}
	}
	for g.bytes < size && hw.err == nil {
		if android && heap < len(heaps)-1 && g.bytes*100 >= size*heaps[heap].until {
			heap++
			g.heapInfo(heaps[heap].id, heaps[heap].name)
		}
		g.object()
	}
	for _, c := range g.classes {
		g.classDump(c)
	}
	if err := hw.Close(); err != nil {
		return g.syn, err
	}
	return g.syn, nil
}

type gen struct {
	w       *Writer
	rng     *rand.Rand
	syn     Synthetic
	bytes   int64 // sub-record bytes written
	nextStr uint64
	classes []*genClass
	objs    []*genClass // instance classes
	arrays  []*genClass // object array classes
	prims   []*genClass // primitive array classes
	addr    uint64
	recent  [1024]uint64
	nrecent int
	some    []uint64 // a sample of all objects so far
}

func (g *gen) str(s string) uint64 {
	g.nextStr++
	g.w.String(g.nextStr, s)
	return g.nextStr
}

func (g *gen) class(name string, super *genClass, fields []Field, array Type) *genClass {
	c := &genClass{id: 0x70000000 + uint64(len(g.classes))*0x100, name: g.str(name), super: super, fields: fields, array: array}
	size := 8
	for k := c; k != nil; k = k.super {
		for _, f := range k.fields {
			size += Size(f.Type, g.w.o.IDSize)
		}
	}
	if array == 0 {
		c.size = uint32(size)
	}
	g.classes = append(g.classes, c)
	g.syn.Classes++
	g.w.LoadClass(uint32(len(g.classes)), c.id, c.name)
	return c
}

// setup writes the strings and LOAD_CLASS records and makes the classes.
func (g *gen) setup() {
	types := []Type{Object, Object, Object, Int, Int, Long, Boolean, Char, Short, Byte, Float, Double}
	fieldName := []uint64{}
	for i := range 16 {
		fieldName = append(fieldName, g.str(fmt.Sprintf("f%d", i)))
	}
	object := g.class("java.lang.Object", nil, nil, 0)
	g.objs = append(g.objs, object)
	for i := range 36 {
		super := object
		if i > 0 && g.rng.IntN(3) > 0 {
			super = g.objs[1+g.rng.IntN(len(g.objs)-1)]
		}
		depth := 0
		for k := super; k != nil; k = k.super {
			depth++
		}
		if depth >= 5 {
			super = object
		}
		var fields []Field
		for j := range 1 + g.rng.IntN(4) {
			fields = append(fields, Field{Name: fieldName[j], Type: types[g.rng.IntN(len(types))]})
		}
		g.objs = append(g.objs, g.class(fmt.Sprintf("com.example.app.C%d", i), super, fields, 0))
	}
	for _, n := range []string{"java.lang.Object[]", "java.lang.String[]", "com.example.app.C0[]"} {
		g.arrays = append(g.arrays, g.class(n, object, nil, Object))
	}
	for _, t := range []Type{Byte, Char, Int, Long} {
		g.prims = append(g.prims, g.class(map[Type]string{Byte: "byte[]", Char: "char[]", Int: "int[]", Long: "long[]"}[t], object, nil, t))
	}
	for _, c := range g.classes {
		g.root(RootStickyClass, c.id)
	}
}

func (g *gen) sub(n int) { g.bytes += int64(n) }

func (g *gen) root(tag uint8, id uint64) {
	g.w.Root(tag, id)
	g.syn.Roots++
	g.sub(1 + g.w.o.IDSize)
}

func (g *gen) heapInfo(id uint32, name string) {
	g.w.HeapInfo(id, g.str(name))
	g.syn.Heaps = append(g.syn.Heaps, name)
}

// ref picks the target of a reference field or element: 0 a quarter of the time.
func (g *gen) ref() uint64 {
	switch r := g.rng.IntN(100); {
	case r < 25 || g.nrecent == 0:
		return 0
	case r < 80:
		return g.recent[g.rng.IntN(min(g.nrecent, len(g.recent)))]
	case r < 92 && len(g.some) > 0:
		return g.some[g.rng.IntN(len(g.some))]
	default:
		return g.addr + 8*uint64(1+g.rng.IntN(1<<12))
	}
}

// alloc gives the next object its address.
func (g *gen) alloc(bytes int) uint64 {
	a := g.addr
	g.addr += uint64(bytes+8+7) &^ 7
	g.recent[g.nrecent%len(g.recent)] = a
	g.nrecent++
	if len(g.some) < 1<<16 {
		g.some = append(g.some, a)
	} else if g.rng.IntN(64) == 0 {
		g.some[g.rng.IntN(len(g.some))] = a
	}
	if g.nrecent%1000 == 0 {
		g.root(RootJavaFrame, a)
	}
	return a
}

func (g *gen) object() {
	id := g.w.o.IDSize
	switch r := g.rng.IntN(100); {
	case r < 78:
		c := g.objs[g.rng.IntN(len(g.objs))]
		var vals []Value
		for k := c; k != nil; k = k.super {
			for _, f := range k.fields {
				v := Value{Type: f.Type, Bits: g.rng.Uint64()}
				if f.Type == Object {
					v.Bits = g.ref()
					if v.Bits != 0 {
						g.syn.References++
					}
				}
				vals = append(vals, v)
			}
		}
		b := g.w.Values(vals...)
		g.w.Instance(g.alloc(int(c.size)-8), c.id, b)
		g.syn.Instances++
		g.sub(1 + 2*id + 8 + len(b))
	case r < 88:
		c := g.arrays[g.rng.IntN(len(g.arrays))]
		n := g.rng.IntN(33)
		if g.rng.IntN(200) == 0 {
			n = 1000 + g.rng.IntN(3000)
		}
		elems := make([]uint64, n)
		for i := range elems {
			elems[i] = g.ref()
			if elems[i] != 0 {
				g.syn.References++
			}
		}
		g.w.ObjArray(g.alloc(n*id), c.id, elems)
		g.syn.ObjArrays++
		g.sub(1 + 2*id + 8 + n*id)
	default:
		c := g.prims[[]int{0, 0, 1, 1, 0, 1, 1, 2, 2, 3}[g.rng.IntN(10)]]
		n := g.rng.IntN(129)
		if g.rng.IntN(100) == 0 {
			n = g.rng.IntN(8193)
		}
		bytes := n * Size(c.array, id)
		g.w.PrimArray(g.alloc(bytes), c.array, uint32(n))
		g.syn.PrimArrays++
		g.sub(1 + id + 9 + bytes)
	}
}

func (g *gen) classDump(c *genClass) {
	var super uint64
	if c.super != nil {
		super = c.super.id
	}
	g.w.ClassDump(Class{ID: c.id, Super: super, InstanceSize: c.size, Fields: c.fields,
		Statics: []Static{{Name: c.name, Value: Value{Type: Int, Bits: uint64(c.size)}}}})
}
