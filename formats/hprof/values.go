package hprof

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"androprof/model/heap"
)

// Values printed as Java prints them (String.valueOf): 42, -1, true, 3.14, 1.0E10, NaN; a char
// as its Java literal ('a', '\n', '\u0000'); a reference as "0x12f4a0 java.lang.String", with a
// String's text after it.

// RefType is the type the object view gives a reference: a dump names no declared types.
const RefType = "java.lang.Object"

// printer prints the values of one object, reading at most peeks referenced Strings.
type printer struct {
	l     *Layouts
	res   Resolver
	peeks int
}

func (p *printer) value(f RawField) heap.FieldValue {
	v := heap.FieldValue{Name: f.Name, Type: f.Type.String(), Ref: -1}
	switch {
	case !f.Known:
		v.Value = "unknown (the record ends before it)"
	case f.Type == TypeObject:
		v.Type = RefType
		v.Value, v.Ref, v.RefID = p.ref(f.Bits)
	default:
		v.Value = JavaValue(f.Type, f.Bits)
	}
	return v
}

// ref prints a reference and resolves it.
func (p *printer) ref(id uint64) (string, int32, uint64) {
	if id == 0 {
		return "null", -1, 0
	}
	seq, class := p.res.Seq(id)
	if seq < 0 {
		return fmt.Sprintf("%#x (not reachable: held only weakly, or not in the dump)", id), -1, id
	}
	s := fmt.Sprintf("%#x %s", id, class)
	if javaName(class) == "java.lang.String" && p.peeks > 0 {
		p.peeks--
		if o, err := p.res.Object(seq); err == nil {
			if text, cut, ok := p.l.stringText(o, p.res, valueText); ok {
				s += " " + strconv.Quote(text)
				if cut {
					s += "…"
				}
			}
		}
	}
	return s, seq, id
}

// elements are an array's first ElementsShown elements.
func (p *printer) elements(o Object) []heap.FieldValue {
	size := p.l.IDSize
	typ := TypeObject
	if o.Kind == heap.KindPrimitiveArray {
		typ, size = o.Type, o.Type.Size(0)
	}
	n := min(o.Length, len(o.Data)/size, heap.ElementsShown)
	out := make([]heap.FieldValue, n)
	for i := range out {
		out[i] = p.value(RawField{Name: "[" + strconv.Itoa(i) + "]", Type: typ, Bits: bitsOf(o.Data[i*size : (i+1)*size]), Known: true})
	}
	return out
}

// JavaValue prints a primitive value (its bytes as Bits) as Java's String.valueOf does; a
// char as its literal.
func JavaValue(t Type, bits uint64) string {
	switch t {
	case TypeBoolean:
		return strconv.FormatBool(bits != 0)
	case TypeChar:
		return charLiteral(rune(uint16(bits)))
	case TypeFloat:
		return javaFloat(float64(math.Float32frombits(uint32(bits))), 32)
	case TypeDouble:
		return javaFloat(math.Float64frombits(bits), 64)
	case TypeByte:
		return strconv.Itoa(int(int8(bits)))
	case TypeShort:
		return strconv.Itoa(int(int16(bits)))
	case TypeInt:
		return strconv.Itoa(int(int32(bits)))
	case TypeLong:
		return strconv.FormatInt(int64(bits), 10)
	case TypeObject:
		return fmt.Sprintf("%#x", bits)
	}
	return fmt.Sprintf("%#x (%s)", bits, t)
}

func charLiteral(r rune) string {
	switch r {
	case '\'':
		return `'\''`
	case '\\':
		return `'\\'`
	case '\n':
		return `'\n'`
	case '\t':
		return `'\t'`
	case '\r':
		return `'\r'`
	}
	if r < 0x20 || r == 0x7f || r >= 0xd800 && r < 0xe000 {
		return fmt.Sprintf(`'\u%04x'`, r)
	}
	return "'" + string(r) + "'"
}

// javaFloat prints as Double.toString and Float.toString do (the shortest digits that read
// back, as JDK 19 and later): 1.0, 3.14, 1.0E7, 1.0E-4, NaN, -Infinity.
func javaFloat(v float64, bits int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v == 0:
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(v); a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(v, 'f', -1, bits)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(v, 'e', -1, bits) // 1.2345e+07
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}
