package isaprofiles

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"androprof/model/cost"
)

func TestReadValid(t *testing.T) {
	p, err := ReadFile("testdata/valid.xml")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "Test & demo" || p.Organization != "Cortex-A8" || !reflect.DeepEqual(p.ISAs, []cost.ISA{cost.ARM, cost.Thumb}) {
		t.Errorf("header = %q %q %v", p.Name, p.Organization, p.ISAs)
	}
	if p.Reference.CPI != 13.03 || p.Reference.BaseInstructions != 39171751755 {
		t.Errorf("reference = %+v", p.Reference)
	}
	if len(p.Categories) != 2 || p.Categories[0].PowerMW != 113 || len(p.Categories[0].Instructions) != 3 {
		t.Fatalf("categories = %+v", p.Categories)
	}
	if p.Undefined.Cycles != 13.03 || len(p.Undefined.Instructions) != 1 {
		t.Errorf("undefined = %+v", p.Undefined)
	}
	if c := p.Categories[1].Citations; len(c) != 1 || !c[0].Estimate || c[0].Cost != "power" {
		t.Errorf("citations = %+v", c)
	}
}

// A round trip must be lossless: read → write → read gives the same profile, and writing
// again gives the same bytes.
func TestRoundTrip(t *testing.T) {
	p, err := ReadFile("testdata/valid.xml")
	if err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	if err := Write(&first, p); err != nil {
		t.Fatal(err)
	}
	q, err := Read(bytes.NewReader(first.Bytes()), "first")
	if err != nil {
		t.Fatalf("re-reading written file: %v\n%s", err, first.String())
	}
	if !reflect.DeepEqual(p, q) {
		t.Errorf("round trip changed the profile:\n%+v\n%+v", p, q)
	}
	var second bytes.Buffer
	if err := Write(&second, q); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Errorf("second write differs")
	}
}

func TestWriteFileRefusesInvalid(t *testing.T) {
	p := cost.NewProfile("", cost.ARM)
	path := filepath.Join(t.TempDir(), "p.xml")
	if err := WriteFile(path, p); err == nil {
		t.Fatal("an invalid profile was written")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("file exists after a refused write: %v", err)
	}
}

// Each kind of bad file gets its own message with the line of the offending element.
func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		file, want string
		line       int
	}{
		{"malformed.xml", "malformed XML", 5},
		{"bad-isa.xml", `unknown instruction set "PowerPC"`, 5},
		{"negative.xml", "cycle cost -2 must be a finite number ≥ 0", 6},
		{"duplicate.xml", `instruction LDR (ARM) is in two categories: "Load" and "Store"`, 8},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, err := ReadFile(filepath.Join("testdata", tc.file))
			if err == nil {
				t.Fatal("no error")
			}
			var se *SyntaxError
			var fe FileErrors
			switch {
			case errors.As(err, &fe):
				se = fe[0]
			case errors.As(err, &se):
			default:
				t.Fatalf("error %T %v has no line", err, err)
			}
			if se.Line != tc.line || !strings.Contains(se.Msg, tc.want) || se.File != filepath.Join("testdata", tc.file) {
				t.Errorf("got %v; want line %d and %q", err, tc.line, tc.want)
			}
		})
	}
}

func TestReadReportsEveryProblem(t *testing.T) {
	src := `<profile name="x" isa="ARM Foo" colour="red">
  <category name="A" cycles="-1" power-mw="abc"/>
  <category name="A" cycles="1" power-mw="1"><instruction isa="ARM"></instruction></category>
</profile>`
	_, err := Read(strings.NewReader(src), "many.xml")
	var fe FileErrors
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v", err)
	}
	msgs := fe.Error()
	for _, want := range []string{"many.xml:1: unknown instruction set \"Foo\"", "many.xml:1: unknown attribute colour",
		"many.xml:2: <category> power-mw=\"abc\" is not a number", "many.xml:2: category \"A\": cycle cost -1",
		"many.xml:3: category \"A\" is defined twice", "many.xml:3: category \"A\": instruction 1 has no mnemonic"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("missing %q in\n%s", want, msgs)
		}
	}
}

func FuzzRead(f *testing.F) {
	for _, name := range []string{"valid.xml", "memory.xml", "malformed.xml", "bad-isa.xml", "negative.xml", "duplicate.xml"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Read(bytes.NewReader(b), "fuzz.xml")
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, p); err != nil {
			t.Fatal(err)
		}
		q, err := Read(&buf, "again.xml")
		if err != nil {
			t.Fatalf("a valid profile did not survive a round trip: %v", err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip changed the profile")
		}
	})
}
