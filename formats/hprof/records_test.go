package hprof

import (
	"io"
	"os"
	"strings"
	"testing"

	"androprof/internal/corpus"
	heapmodel "androprof/model/heap"
)

// spilled is a dump's object level read back from its spill, as the store would hand it out.
type spilled struct {
	t       *testing.T
	r       *heapmodel.DumpRetention
	records [][]byte // by record index
	layouts *Layouts
}

func readSpilledFile(t *testing.T, path string) *spilled {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return readSpilled(t, f, path)
}

func readSpilled(t *testing.T, f io.ReadSeeker, path string) *spilled {
	d, err := SummarizeWithObjects(f, path, GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s := &spilled{t: t, r: d.Retention}
	o := d.Retention.Records
	if err := o.Each(func(c heapmodel.RecordChunk, data []byte) error {
		if int(c.First) != len(s.records) {
			t.Fatalf("chunk starts at record %d after %d records", c.First, len(s.records))
		}
		return heapmodel.ChunkRecords(data, c.First, func(_ uint32, rec []byte) { s.records = append(s.records, append([]byte(nil), rec...)) })
	}); err != nil {
		t.Fatal(err)
	}
	if len(s.records) != d.Retention.Objects.Len() {
		t.Fatalf("%d records for %d reachable objects", len(s.records), d.Retention.Objects.Len())
	}
	if s.layouts, err = DecodeLayouts(o.IDSize, o.Layouts); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *spilled) Seq(id uint64) (int32, string) {
	seq := s.r.SeqOf(id)
	if seq < 0 {
		return -1, ""
	}
	return seq, s.r.Object(seq).ClassOf
}

func (s *spilled) Object(seq int32) (Object, error) {
	return s.layouts.Parse(s.records[s.r.Records.Record[seq]], s.r.Objects.ID[seq], s.r.Objects.Class[seq])
}

func (s *spilled) detail(seq int32) heapmodel.ObjectDetail {
	d := heapmodel.ObjectDetail{DumpObject: s.r.Object(seq)}
	o, err := s.Object(seq)
	if err != nil {
		s.t.Fatalf("object %d (%#x %s): %v", seq, d.ID, d.ClassOf, err)
	}
	s.layouts.Detail(o, &d, s)
	return d
}

// TestCorpusRecords decodes every reachable object of the corpus dumps: each record parses,
// its id is the object's, its fields fill its record exactly, and Strings read as text.
func TestCorpusRecords(t *testing.T) {
	for _, name := range []string{"ahat-RI.hprof", "perflib-dialer.hprof"} {
		t.Run(name, func(t *testing.T) {
			s := readSpilledFile(t, corpus.File(t, name))
			strs, texts := 0, 0
			for seq := range int32(s.r.Objects.Len()) {
				d := s.detail(seq)
				o, _ := s.Object(seq)
				if want := d.IsClass; (o.Kind == heapmodel.KindClassObject) != want || d.IsClass && o.Class != d.ID {
					t.Fatalf("object %d %#x: a record of kind %v, class %#x", seq, d.ID, o.Kind, o.Class)
				}
				if c := s.layouts.Classes[o.Class]; c != nil && !d.IsClass && c.Name != d.ClassOf {
					t.Fatalf("object %d %#x of class %s: its record's class is %s", seq, d.ID, d.ClassOf, c.Name)
				}
				used := 0
				for _, f := range d.Fields {
					if strings.HasPrefix(f.Value, "unknown") {
						t.Fatalf("object %#x %s: field %s %s", d.ID, d.ClassOf, f.Name, f.Value)
					}
					used += Type(typeCode[f.Type]).Size(s.layouts.IDSize)
				}
				if o.Kind == heapmodel.KindInstanceObject && used != len(o.Data) {
					t.Fatalf("object %#x %s: fields of %d bytes in a record of %d", d.ID, d.ClassOf, used, len(o.Data))
				}
				if d.ClassOf == "java.lang.String" {
					if strs < 3 {
						t.Logf("%#x %q", d.ID, d.Text)
					}
					strs++
					if d.TextKnown {
						texts++
					}
				}
			}
			s.checkReferrers(t)
			if strs == 0 || texts*100 < strs*99 {
				t.Errorf("%d of %d Strings read as text", texts, strs)
			}
			t.Logf("%d objects, %d Strings, %d as text", s.r.Objects.Len(), strs, texts)
		})
	}
}

// typeCode is each type's code by its name (the object view's FieldValue.Type).
var typeCode = map[string]Type{RefType: TypeObject, "boolean": TypeBoolean, "char": TypeChar, "float": TypeFloat,
	"double": TypeDouble, "byte": TypeByte, "short": TypeShort, "int": TypeInt, "long": TypeLong}

// checkReferrers decodes every referrer the dominator computation lists: each holds the object
// in as many fields or slots as it has references to it (more only through a Reference's
// referent, which retains nothing).
func (s *spilled) checkReferrers(t *testing.T) {
	r := s.r
	for seq := range int32(r.Objects.Len()) {
		refs := map[int32]int{}
		for _, f := range r.RefFrom[r.RefStart[seq]:r.RefStart[seq+1]] {
			refs[f]++
		}
		for f, n := range refs {
			o, err := s.Object(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.layouts.Holding(o, r.Objects.ID[seq]); len(got) < n {
				t.Fatalf("%#x %s refers to %#x %d times, its record holds it in %v", o.ID, r.Object(f).ClassOf, r.Objects.ID[seq], n, got)
			}
		}
	}
}
