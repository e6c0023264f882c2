package hprof

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"testing"
	"unicode/utf16"

	"androprof/formats/hprof/hproftest"
	heapmodel "androprof/model/heap"
)

// objectsDump writes a dump whose objects' values are known: Strings in each layout (JDK 9
// Latin-1 and UTF-16, char[] with offset and count, ART's compressed count), a Bitmap with its
// pixels, a class with primitive and object statics, an object array holding one String twice.
func objectsDump(t *testing.T) []byte {
	var buf bytes.Buffer
	w, err := hproftest.NewWriter(&buf, hproftest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"java.lang.Object", "java.lang.String", "value", "coder", "count", "offset", "android.graphics.Bitmap",
		"mBuffer", "mWidth", "mHeight", "demo.S", "sInt", "sObj", "sDouble", "demo.Holder", "f", "java.lang.Object[]", "sChar"}
	str := map[string]uint64{}
	for i, n := range names {
		str[n] = uint64(i + 1)
		w.String(uint64(i+1), n)
	}
	classes := map[string]uint64{"java.lang.Object": 0x100, "java.lang.String": 0x200, "android.graphics.Bitmap": 0x300,
		"demo.S": 0x400, "demo.Holder": 0x500, "java.lang.Object[]": 0x600}
	serial := uint32(1)
	for n, id := range classes {
		w.LoadClass(serial, id, str[n])
		serial++
	}
	field := func(n string, t hproftest.Type) hproftest.Field { return hproftest.Field{Name: str[n], Type: t} }
	w.ClassDump(hproftest.Class{ID: 0x100})
	w.ClassDump(hproftest.Class{ID: 0x200, Super: 0x100, InstanceSize: 13, Fields: []hproftest.Field{
		field("value", hproftest.Object), field("coder", hproftest.Byte), field("count", hproftest.Int), field("offset", hproftest.Int)}})
	w.ClassDump(hproftest.Class{ID: 0x300, Super: 0x100, InstanceSize: 12, Fields: []hproftest.Field{
		field("mBuffer", hproftest.Object), field("mWidth", hproftest.Int), field("mHeight", hproftest.Int)}})
	w.ClassDump(hproftest.Class{ID: 0x400, Super: 0x100, Statics: []hproftest.Static{
		{Name: str["sInt"], Value: hproftest.Value{Type: hproftest.Int, Bits: uint64(0xfffffff9)}},
		{Name: str["sObj"], Value: hproftest.Ref(0x5000)},
		{Name: str["sDouble"], Value: hproftest.Value{Type: hproftest.Double, Bits: math.Float64bits(1e10)}},
		{Name: str["sChar"], Value: hproftest.Value{Type: hproftest.Char, Bits: '\n'}}}})
	w.ClassDump(hproftest.Class{ID: 0x500, Super: 0x100, InstanceSize: 4, Fields: []hproftest.Field{field("f", hproftest.Object)}})
	w.ClassDump(hproftest.Class{ID: 0x600, Super: 0x100})
	for _, id := range classes {
		w.Root(0x05, id)
	}
	prim := func(id uint64, typ hproftest.Type, data []byte) {
		b := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32([]byte{0x23, 0, 0, 0, 0}, 0), uint32(len(data)/hproftest.Size(typ, 4)))
		binary.BigEndian.PutUint32(b[1:], uint32(id))
		w.Sub(append(append(b, typ), data...))
	}
	str16 := func(s string, order binary.AppendByteOrder) []byte {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			b = order.AppendUint16(b, u)
		}
		return b
	}
	strings := []struct {
		id, value   uint64
		coder       byte
		count, from int32
	}{{0x1000, 0x1100, 0, 6, 0}, {0x2000, 0x2100, 1, 3, 0}, {0x3000, 0x3100, 0, 3, 2}, {0x4000, 0x4100, 0, 6, 0}}
	prim(0x1100, hproftest.Byte, []byte("h\xe9llo!"))                // Latin-1
	prim(0x2100, hproftest.Byte, str16("π≈3", binary.LittleEndian))  // UTF-16 as the JVM keeps it
	prim(0x3100, hproftest.Char, str16("xxabcxx", binary.BigEndian)) // offset 2, count 3
	prim(0x4100, hproftest.Byte, []byte("hey"))                      // ART: count 3<<1, compressed
	prim(0x7100, hproftest.Byte, []byte{1, 2, 3, 4, 5, 6, 7, 8})     // 2×1 pixels of 4 bytes
	for _, s := range strings {
		w.Instance(s.id, 0x200, w.Values(hproftest.Ref(s.value), hproftest.Value{Type: hproftest.Byte, Bits: uint64(s.coder)},
			hproftest.Value{Type: hproftest.Int, Bits: uint64(uint32(s.count))}, hproftest.Value{Type: hproftest.Int, Bits: uint64(uint32(s.from))}))
	}
	w.Instance(0x7000, 0x300, w.Values(hproftest.Ref(0x7100), hproftest.Value{Type: hproftest.Int, Bits: 2}, hproftest.Value{Type: hproftest.Int, Bits: 1}))
	w.Instance(0x5000, 0x500, w.Values(hproftest.Ref(0x6000)))
	w.ObjArray(0x6000, 0x600, []uint64{0x1000, 0x1000, 0, 0x2000, 0x3000, 0x4000, 0x7000, 0x9999})
	w.Instance(0x5000, 0x500, w.Values(hproftest.Ref(0))) // a duplicate id: the first record is the object
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestObjectsDecoded(t *testing.T) {
	s := readSpilled(t, bytes.NewReader(objectsDump(t)), "objects.hprof")
	seq := func(id uint64) int32 {
		t.Helper()
		q := s.r.SeqOf(id)
		if q < 0 {
			t.Fatalf("object %#x is not reachable", id)
		}
		return q
	}
	for id, want := range map[uint64]string{0x1000: "héllo!", 0x2000: "π≈3", 0x3000: "abc", 0x4000: "hey"} {
		if d := s.detail(seq(id)); !d.TextKnown || d.Text != want || d.TextCut {
			t.Errorf("String %#x = %q (known %v, cut %v), want %q", id, d.Text, d.TextKnown, d.TextCut, want)
		}
	}
	bm := s.detail(seq(0x7000)).Image
	if bm == nil || bm.Width != 2 || bm.Height != 1 || bm.Format != "ARGB_8888" || !bytes.Equal(bm.Pixels, []byte{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Errorf("Bitmap = %+v", bm)
	}
	class := s.detail(seq(0x400))
	var statics []string
	for _, f := range class.Fields {
		statics = append(statics, f.Name+"="+f.Value)
	}
	want := []string{"sInt=-7", "sObj=0x5000 demo.Holder", "sDouble=1.0E10", `sChar='\n'`}
	if class.Kind != heapmodel.KindClassObject || !slices.Equal(statics, want) {
		t.Errorf("class demo.S: %v statics %q, want %q", class.Kind, statics, want)
	}
	arr := s.detail(seq(0x6000))
	if arr.Length != 8 || len(arr.Elements) != 8 || arr.Elements[0].Value != `0x1000 java.lang.String "héllo!"` ||
		arr.Elements[2].Value != "null" || arr.Elements[0].Ref != seq(0x1000) || arr.Elements[7].Ref != -1 || arr.Elements[7].RefID != 0x9999 {
		t.Errorf("array: %d elements %+v", arr.Length, arr.Elements)
	}
	o, _ := s.Object(seq(0x6000))
	if got := s.layouts.Holding(o, 0x1000); !slices.Equal(got, []string{"[0]", "[1]"}) {
		t.Errorf("the array holds String 0x1000 at %v", got)
	}
	if holder := s.detail(seq(0x5000)); len(holder.Fields) != 1 || holder.Fields[0].RefID != 0x6000 {
		t.Errorf("the holder (listed twice, the first kept) = %+v", holder.Fields)
	}
}

func TestJavaValue(t *testing.T) {
	for _, c := range []struct {
		t    Type
		bits uint64
		want string
	}{
		{TypeInt, 0xffffffff, "-1"}, {TypeLong, 1 << 40, "1099511627776"}, {TypeByte, 0x80, "-128"}, {TypeShort, 0x7fff, "32767"},
		{TypeBoolean, 1, "true"}, {TypeBoolean, 0, "false"}, {TypeChar, 'a', "'a'"}, {TypeChar, 0, `'\u0000'`},
		{TypeDouble, math.Float64bits(2.5), "2.5"}, {TypeDouble, math.Float64bits(100), "100.0"},
		{TypeDouble, math.Float64bits(1e7), "1.0E7"}, {TypeDouble, math.Float64bits(1.5e-4), "1.5E-4"},
		{TypeDouble, math.Float64bits(0.001), "0.001"}, {TypeDouble, math.Float64bits(math.Inf(-1)), "-Infinity"},
		{TypeDouble, math.Float64bits(math.Copysign(0, -1)), "-0.0"}, {TypeFloat, uint64(math.Float32bits(0.1)), "0.1"},
		{TypeFloat, uint64(math.Float32bits(float32(math.NaN()))), "NaN"}, {TypeDouble, math.Float64bits(1.0 / 3), "0.3333333333333333"},
	} {
		if got := JavaValue(c.t, c.bits); got != c.want {
			t.Errorf("JavaValue(%s, %#x) = %q, want %q", c.t, c.bits, got, c.want)
		}
	}
}

// Damaged records and layouts (a workspace changed by hand) are refused or read in part,
// never a panic: every record cut at every length, and every layout blob cut.
func TestDamagedRecords(t *testing.T) {
	s := readSpilled(t, bytes.NewReader(objectsDump(t)), "objects.hprof")
	for seq := range int32(s.r.Objects.Len()) {
		rec := s.records[s.r.Records.Record[seq]]
		for n := range len(rec) {
			o, err := s.layouts.Parse(rec[:n], s.r.Objects.ID[seq], s.r.Objects.Class[seq])
			if err == nil {
				var d heapmodel.ObjectDetail
				s.layouts.Detail(o, &d, s)
			}
		}
	}
	for n := range len(s.r.Records.Layouts) {
		if _, err := DecodeLayouts(4, s.r.Records.Layouts[:n]); err == nil {
			t.Fatalf("layouts cut at %d of %d bytes decode", n, len(s.r.Records.Layouts))
		}
	}
	if _, err := DecodeLayouts(0, s.r.Records.Layouts); err == nil {
		t.Error("layouts with ids of 0 bytes decode")
	}
}
