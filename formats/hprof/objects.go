package hprof

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"androprof/model/heap"
)

// Decoding the records ReadRecords spilled into what the object view shows (heap.ObjectDetail;
// docs/heap-objects.md): fields with their values as Java prints them, references resolved to
// reachable objects, strings and char[]/byte[] as text, Bitmap pixels.

// ClassLayout is what decoding an object needs of its class.
type ClassLayout struct {
	ID, Super uint64
	Name      string        // as the dump names it: java.lang.String or java/lang/String
	Fields    []LayoutField // its own instance fields, in the dump's order
	Statics   []LayoutStatic
}

// LayoutField is an instance field: its name and type.
type LayoutField struct {
	Name string
	Type Type
}

// LayoutStatic is a static field and its value (StaticValue.Bits).
type LayoutStatic struct {
	LayoutField
	Bits uint64
}

// Layouts are a dump's classes, by class object id, as decoding needs them.
type Layouts struct {
	IDSize  int
	Classes map[uint64]*ClassLayout
	// ClassIDs are the class object id of each class of the run's retention (its Classes
	// index; 0 when no reachable object said): an instance's class, an array's array class.
	ClassIDs []uint64
}

// errLayouts says stored layouts do not decode: a workspace changed by hand.
var errLayouts = errors.New("the class layouts of the objects are damaged")

// DecodeLayouts reads the layouts ReadRecords encoded.
func DecodeLayouts(idSize int, b []byte) (*Layouts, error) {
	if idSize != 4 && idSize != 8 {
		return nil, fmt.Errorf("%w: id size %d", errLayouts, idSize)
	}
	d := &decoder{b: b}
	l := &Layouts{IDSize: idSize, Classes: map[uint64]*ClassLayout{}}
	n := d.uvarint()
	for i := uint64(0); i < n && d.err == nil; i++ {
		c := &ClassLayout{ID: d.u64(), Super: d.u64(), Name: d.string()}
		for range min(d.uvarint(), uint64(len(d.b))) {
			c.Fields = append(c.Fields, LayoutField{Name: d.string(), Type: Type(d.byte())})
		}
		for range min(d.uvarint(), uint64(len(d.b))) {
			c.Statics = append(c.Statics, LayoutStatic{LayoutField{Name: d.string(), Type: Type(d.byte())}, d.u64()})
		}
		l.Classes[c.ID] = c
	}
	if n := d.uvarint(); n != uint64(len(d.b))/8 {
		d.err = errLayouts
	} else {
		for range n {
			l.ClassIDs = append(l.ClassIDs, d.u64())
		}
	}
	if d.err != nil || len(d.b) > 0 {
		return nil, errLayouts
	}
	return l, nil
}

// decoder reads the layouts' encoding; the first fault sticks.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) take(n int) []byte {
	if d.err != nil || n > len(d.b) {
		d.err = errLayouts
		return make([]byte, n)
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errLayouts
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) u64() uint64 { return binary.LittleEndian.Uint64(d.take(8)) }
func (d *decoder) byte() byte  { return d.take(1)[0] }
func (d *decoder) string() string {
	return string(d.take(int(min(d.uvarint(), uint64(len(d.b))+1))))
}

// Object is a spilled record, parsed.
type Object struct {
	Kind   heap.ObjectKind
	ID     uint64
	Class  uint64 // an instance's class, an object array's class, a class object's own id
	Type   Type   // a primitive array's element type
	Length int    // an array's length
	NoData bool   // a primitive array the dump holds no values of
	Data   []byte // an instance's field bytes; an array's first elements (all of them, but for MaxArrayBytes)
}

// ErrRecord says a stored record does not parse.
var ErrRecord = errors.New("the object's record is damaged")

// Parse reads the record of the object id whose class is class (the retention's index).
func (l *Layouts) Parse(rec []byte, id uint64, class int32) (Object, error) {
	if len(rec) < 1 {
		return Object{}, ErrRecord
	}
	o := Object{ID: id}
	if class >= 0 && int(class) < len(l.ClassIDs) {
		o.Class = l.ClassIDs[class]
	}
	rest := rec[1:]
	need := func(n int) bool { return len(rest) >= n }
	switch rec[0] {
	case recInstance, recObjArray:
		o.Kind = heap.KindInstanceObject
		if rec[0] == recObjArray {
			if !need(4) {
				return o, ErrRecord
			}
			o.Kind, o.Length, rest = heap.KindObjectArray, int(binary.BigEndian.Uint32(rest)), rest[4:]
		}
	case recPrimArray, recNoData:
		if !need(5) || !Type(rest[0]).Primitive() {
			return o, ErrRecord
		}
		o.Kind, o.Type, o.Length, rest = heap.KindPrimitiveArray, Type(rest[0]), int(binary.BigEndian.Uint32(rest[1:])), rest[5:]
		o.NoData = rec[0] == recNoData
	case recClass:
		o.Kind, o.Class = heap.KindClassObject, o.ID
	default:
		return o, ErrRecord
	}
	o.Data = rest
	return o, nil
}

// RawField is one field of an object, its value not yet printed.
type RawField struct {
	Name  string
	Type  Type
	Bits  uint64 // the value: an id for a reference
	Known bool   // false when the record ends before it (an instance cut short)
}

// Fields are an instance's fields (its class's own first, then each superclass's, as the dump
// lays them out) or a class object's statics; nil for arrays.
func (l *Layouts) Fields(o Object) []RawField {
	var out []RawField
	switch o.Kind {
	case heap.KindClassObject:
		if c := l.Classes[o.ID]; c != nil {
			for _, s := range c.Statics {
				out = append(out, RawField{Name: s.Name, Type: s.Type, Bits: s.Bits, Known: true})
			}
		}
	case heap.KindInstanceObject:
		data := o.Data
		c := l.Classes[o.Class]
		for d := 0; c != nil && d < maxDepth; d++ {
			for _, f := range c.Fields {
				size := f.Type.Size(l.IDSize)
				rf := RawField{Name: f.Name, Type: f.Type}
				if size > 0 && size <= len(data) {
					rf.Bits, rf.Known, data = bitsOf(data[:size]), true, data[size:]
				} else {
					data = nil
				}
				out = append(out, rf)
			}
			c = l.Classes[c.Super]
		}
	}
	return out
}

// Holding names every field or element of o whose value is the object target: how o refers
// to it ("next", "[17]").
func (l *Layouts) Holding(o Object, target uint64) []string {
	var out []string
	if o.Kind == heap.KindObjectArray {
		for i := 0; (i+1)*l.IDSize <= len(o.Data); i++ {
			if idAt(o.Data[i*l.IDSize:], l.IDSize) == target {
				out = append(out, fmt.Sprintf("[%d]", i))
			}
		}
		return out
	}
	for _, f := range l.Fields(o) {
		if f.Known && f.Type == TypeObject && f.Bits == target {
			out = append(out, f.Name)
		}
	}
	return out
}

// Resolver is what decoding asks of the run: which reachable object an id is, and another
// object (a String's characters, a Bitmap's pixels).
type Resolver interface {
	// Seq is the reachable object with this id: its seq and class name; -1 when none is.
	Seq(id uint64) (int32, string)
	// Object is a reachable object's record, parsed.
	Object(seq int32) (Object, error)
}

// stringPeeks bounds how many referenced Strings one object's view reads for their text.
const stringPeeks = 64

// valueText is how much of a referenced String a field's value quotes.
const valueText = 80

// Detail fills d's Kind, Fields, Length, Elements, Text and Image from its object's record.
func (l *Layouts) Detail(o Object, d *heap.ObjectDetail, res Resolver) {
	d.Kind = o.Kind
	p := &printer{l: l, res: res, peeks: stringPeeks}
	for _, f := range l.Fields(o) {
		d.Fields = append(d.Fields, p.value(f))
	}
	switch o.Kind {
	case heap.KindObjectArray, heap.KindPrimitiveArray:
		d.Length = o.Length
		d.Elements = p.elements(o)
		if o.Kind == heap.KindPrimitiveArray && !o.NoData {
			d.Text, d.TextCut, d.TextKnown = arrayText(o, true)
		}
	case heap.KindInstanceObject:
		switch javaName(l.className(o.Class)) {
		case "java.lang.String":
			d.Text, d.TextCut, d.TextKnown = l.stringText(o, res, heap.TextShown)
		case "android.graphics.Bitmap":
			d.Image = l.bitmap(o, res)
		}
	}
}

func (l *Layouts) className(class uint64) string {
	if c := l.Classes[class]; c != nil {
		return c.Name
	}
	return ""
}

// javaName writes a class name as Java source does: java/lang/String as java.lang.String.
func javaName(name string) string { return strings.ReplaceAll(name, "/", ".") }

// field is the value of an instance's field by name (its class's own first), if known.
func (l *Layouts) field(o Object, name string) (RawField, bool) {
	for _, f := range l.Fields(o) {
		if f.Name == name && f.Known {
			return f, true
		}
	}
	return RawField{}, false
}

// target is the object a reference field of o points at, parsed.
func (l *Layouts) target(o Object, name string, res Resolver) (Object, bool) {
	f, ok := l.field(o, name)
	if !ok || f.Type != TypeObject || f.Bits == 0 {
		return Object{}, false
	}
	seq, _ := res.Seq(f.Bits)
	if seq < 0 {
		return Object{}, false
	}
	t, err := res.Object(seq)
	return t, err == nil
}

// stringText reads a java.lang.String's characters, at most limit of them: its value array
// (char[], or byte[] with coder 0 Latin-1, 1 UTF-16 as JDK 9 and later keep them), with
// offset and count where the String has them (old JDKs, Android before 8; count may hold
// ART's compression flag in its low bit).
func (l *Layouts) stringText(o Object, res Resolver, limit int) (text string, cut, ok bool) {
	arr, ok := l.target(o, "value", res)
	if !ok || arr.Kind != heap.KindPrimitiveArray || arr.NoData {
		return "", false, false
	}
	if arr.Type == TypeByte {
		if c, ok := l.field(o, "coder"); ok && c.Bits == 1 {
			arr.Type = TypeChar // UTF-16 in the machine's order: little-endian on every phone and PC
			arr.Data, arr.Length = swapPairs(arr.Data), arr.Length/2
		}
	}
	size := arr.Type.Size(l.IDSize)
	from, n := 0, arr.Length
	if f, ok := l.field(o, "offset"); ok && f.Type == TypeInt {
		from = int(int32(f.Bits))
	}
	if f, ok := l.field(o, "count"); ok && f.Type == TypeInt {
		n = int(int32(f.Bits))
		if from+n > arr.Length {
			n >>= 1 // ART's count: length<<1 | compressed
		}
	}
	if from < 0 || n < 0 || from+n > arr.Length || (from+n)*size > len(arr.Data) {
		return "", false, false
	}
	arr.Data, arr.Length = arr.Data[from*size:(from+n)*size], n
	text, cut, _ = arrayTextLimit(arr, false, limit)
	return text, cut, true
}

func swapPairs(b []byte) []byte {
	out := make([]byte, len(b)/2*2)
	for i := 0; i+1 < len(b); i += 2 {
		out[i], out[i+1] = b[i+1], b[i]
	}
	return out
}

// arrayText reads a char[] (UTF-16) or byte[] as text; a byte[] only when it reads as text
// (UTF-8 with no control characters but tab and newlines) unless asString says it is one
// (Latin-1).
func arrayText(o Object, bytesOnlyIfText bool) (string, bool, bool) {
	return arrayTextLimit(o, bytesOnlyIfText, heap.TextShown)
}

func arrayTextLimit(o Object, bytesOnlyIfText bool, limit int) (text string, cut, ok bool) {
	n := min(o.Length, len(o.Data)/max(o.Type.Size(0), 1))
	switch o.Type {
	case TypeChar:
		units := make([]uint16, min(n, limit+1))
		for i := range units {
			units[i] = binary.BigEndian.Uint16(o.Data[2*i:])
		}
		text = string(utf16.Decode(units))
	case TypeByte:
		b := o.Data[:min(n, 4*limit)]
		if bytesOnlyIfText {
			if n == 0 || !readable(b) {
				return "", false, false
			}
			text = string(b)
		} else {
			r := make([]rune, len(b))
			for i, c := range b {
				r[i] = rune(c) // Latin-1
			}
			text = string(r)
		}
	default:
		return "", false, false
	}
	if r := []rune(text); len(r) > limit {
		return string(r[:limit]), true, true
	}
	return text, n < o.Length, true
}

// readable says whether bytes look like text: valid UTF-8, no control characters but tab and
// line ends, a whole last character allowed to be cut.
func readable(b []byte) bool {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			return len(b) < utf8.UTFMax && !utf8.FullRune(b)
		}
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return false
		}
		b = b[size:]
	}
	return true
}

// bitmap is an android.graphics.Bitmap's pixels when the dump holds them: its mBuffer byte[]
// of mWidth × mHeight pixels, 4 bytes each (ARGB_8888) or 2 (RGB_565).
func (l *Layouts) bitmap(o Object, res Resolver) *heap.Bitmap {
	w, okw := l.field(o, "mWidth")
	h, okh := l.field(o, "mHeight")
	buf, ok := l.target(o, "mBuffer", res)
	if !okw || !okh || !ok || buf.Type != TypeByte || buf.NoData {
		return nil
	}
	width, height := int(int32(w.Bits)), int(int32(h.Bits))
	if width <= 0 || height <= 0 || len(buf.Data) != buf.Length {
		return nil
	}
	for _, f := range []struct {
		name string
		size int
	}{{"ARGB_8888", 4}, {"RGB_565", 2}} {
		if buf.Length == width*height*f.size {
			return &heap.Bitmap{Width: width, Height: height, Format: f.name, Pixels: append([]byte(nil), buf.Data...)}
		}
	}
	return nil
}
