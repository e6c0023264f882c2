package isaprofiles

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"androprof/model/cost"
)

func TestReadMemoryAndPipeline(t *testing.T) {
	p, err := ReadFile("testdata/memory.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := cost.CacheGeometry{Levels: []cost.CacheLevel{
		{Name: "l1i", SizeBytes: 32768, Ways: 4, LineBytes: 64, Replacement: cost.LRU, WriteAllocate: true, MissCycles: 5},
		{Name: "l1d", SizeBytes: 32768, Ways: 4, LineBytes: 64, Replacement: cost.PLRU, MissCycles: 5, AccessEnergyNJ: 0.02},
		{Name: "l2", SizeBytes: 131072, Ways: 4, LineBytes: 64, Replacement: cost.Random, WriteAllocate: true},
		{Name: "l3", SizeBytes: 3 << 20, Ways: 12, LineBytes: 64, Replacement: cost.RoundRobin, WriteAllocate: true, MissCycles: 120.5},
	}}
	if !reflect.DeepEqual(p.Memory, want) {
		t.Errorf("memory = %+v\nwant     %+v", p.Memory, want)
	}
	if p.Pipeline != (cost.PipelineModel{Tool: "llvm-mca-16", CPU: "cortex-a55"}) {
		t.Errorf("pipeline = %+v", p.Pipeline)
	}
	var costs []string
	for _, c := range p.Citations {
		costs = append(costs, c.Cost)
	}
	if got := strings.Join(costs, " "); got != "frequency-ghz l1i l1d l3 pipeline" {
		t.Errorf("citation costs = %s", got)
	}
	if c := cost.CitationsOf(p.Citations, "l1d"); len(c) != 1 || !c[0].Estimate {
		t.Errorf("l1d citations = %+v", c)
	}
}

// The hierarchy and the model survive read → write → read, an unknown cost stays absent
// rather than becoming 0, and a second write is byte-identical.
func TestMemoryRoundTrip(t *testing.T) {
	p, err := ReadFile("testdata/memory.xml")
	if err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	if err := Write(&first, p); err != nil {
		t.Fatal(err)
	}
	out := first.String()
	for _, want := range []string{`<profile format="2"`, `<cache level="l2" size="131072" ways="4" line="64" replacement="random" write-allocate="true">`,
		`<pipeline tool="llvm-mca-16" cpu="cortex-a55">`, `<cite cost="l1d" estimate="true">`} {
		if !strings.Contains(out, want) {
			t.Errorf("written file lacks %s:\n%s", want, out)
		}
	}
	q, err := Read(strings.NewReader(out), "first")
	if err != nil {
		t.Fatalf("re-reading: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(p, q) {
		t.Errorf("round trip changed the profile:\n%+v\n%+v", p, q)
	}
	var second bytes.Buffer
	if err := Write(&second, q); err != nil {
		t.Fatal(err)
	}
	if second.String() != out {
		t.Error("second write differs")
	}
}

// A profile without a hierarchy or a model is still written as format 1, as before.
func TestWithoutMemoryStaysFormat1(t *testing.T) {
	p, err := ReadFile("testdata/valid.xml")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); !strings.Contains(s, `<profile format="1"`) || strings.Contains(s, "<memory") || strings.Contains(s, "<pipeline") {
		t.Errorf("written:\n%s", s)
	}
	if !p.Memory.IsZero() || !p.Pipeline.IsZero() {
		t.Errorf("memory %+v pipeline %+v", p.Memory, p.Pipeline)
	}
}

// memoryProfile is a profile with the given <memory>/<pipeline> text; the first line of body
// is line 2 of the file.
func memoryProfile(body string) string {
	return `<profile format="2" name="m" isa="ARM">` + "\n" + body + "\n" +
		`<category name="A" cycles="1" power-mw="1"><instruction isa="ARM">ADD</instruction></category>` + "\n</profile>\n"
}

const (
	goodL1I = `<cache level="l1i" size="16384" ways="4" line="64" replacement="random"/>`
	goodL1D = `<cache level="l1d" size="16384" ways="4" line="64" replacement="random"/>`
	goodL2  = `<cache level="l2" size="262144" ways="8" line="64"/>`
)

// Each refusal names the file, the line of the offending element, the level and the part.
func TestReadMemoryErrors(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
		line             int
	}{
		{"not a power of two", "<memory>\n" + goodL1I + "\n" + `<cache level="l1d" size="16384" ways="4" line="48"/>` + "\n" + goodL2 + "\n</memory>",
			"cache level l1d: line size 48 bytes is not a power of two", 4},
		{"more ways than lines", "<memory>\n" + goodL1I + "\n" + goodL1D + "\n" + `<cache level="l2" size="256" ways="8" line="64"/>` + "\n</memory>",
			"cache level l2: 8 ways is more than its 4 lines", 5},
		{"unknown level", "<memory>\n" + goodL1I + "\n" + goodL1D + "\n" + goodL2 + "\n" + `<cache level="l4" size="262144" ways="8" line="64"/>` + "\n</memory>",
			`unknown cache level "l4"`, 6},
		{"negative cost", "<memory>\n" + goodL1I + "\n" + `<cache level="l1d" size="16384" ways="4" line="64" miss-cycles="-3"/>` + "\n" + goodL2 + "\n</memory>",
			"cache level l1d: miss-cycles -3 and access-energy-nj 0 must be finite numbers ≥ 0", 4},
		{"unknown replacement", "<memory>\n" + `<cache level="l1i" size="16384" ways="4" line="64" replacement="fifo"/>` + "\n" + goodL1D + "\n" + goodL2 + "\n</memory>",
			`cache level l1i: unknown replacement "fifo"`, 3},
		{"missing l2", "<memory>\n" + goodL1I + "\n" + goodL1D + "\n</memory>", "the cache geometry has no l2", 2},
		{"out of order", "<memory>\n" + goodL1D + "\n" + goodL1I + "\n" + goodL2 + "\n</memory>", "cache level l1d is out of order", 3},
		{"twice", "<memory>\n" + goodL1I + "\n" + goodL1D + "\n" + goodL1D + "\n" + goodL2 + "\n</memory>", "cache level l1d is given twice", 5},
		{"not a whole number", "<memory>\n" + `<cache level="l1i" size="16k" ways="4" line="64"/>` + "\n" + goodL1D + "\n" + goodL2 + "\n</memory>",
			`<cache> size="16k" is not a whole number`, 3},
		{"no size", "<memory>\n" + `<cache level="l1i" ways="4" line="64"/>` + "\n" + goodL1D + "\n" + goodL2 + "\n</memory>", "<cache> has no size", 3},
		{"cite of another level", "<memory>\n" + goodL1I + "\n" + `<cache level="l1d" size="16384" ways="4" line="64"><cite cost="l2">x</cite></cache>` + "\n" + goodL2 + "\n</memory>",
			`<cite cost="l2"> inside the l1d element must be for l1d`, 4},
		{"level cite in reference", `<reference cpi="1">` + "\n" + `<cite cost="l1d">x</cite></reference>`,
			"belongs inside <memory> or <pipeline>", 2},
		{"tool without cpu", `<pipeline tool="llvm-mca-16"/>`, `<pipeline> names tool "llvm-mca-16" but no cpu`, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(memoryProfile(tc.body)), "m.xml")
			var fe FileErrors
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want FileErrors", err)
			}
			found := false
			for _, se := range fe {
				found = found || (se.File == "m.xml" && se.Line == tc.line && strings.Contains(se.Msg, tc.want))
			}
			if !found {
				t.Errorf("got\n%v\nwant line %d and %q", err, tc.line, tc.want)
			}
		})
	}
}

// The writer never writes a hierarchy the reader would refuse, nor loses a citation.
func TestWriteRefusesBadMemory(t *testing.T) {
	p, err := ReadFile("testdata/memory.xml")
	if err != nil {
		t.Fatal(err)
	}
	bad := p.Clone()
	bad.Memory.Levels[1].Ways = 3
	if err := WriteFile(t.TempDir()+"/p.xml", bad); err == nil || !strings.Contains(err.Error(), "cache level l1d") {
		t.Errorf("WriteFile of a 3-way 32 KiB l1d: %v", err)
	}
	toolOnly := p.Clone()
	toolOnly.Pipeline.CPU = ""
	if err := WriteFile(t.TempDir()+"/p.xml", toolOnly); err == nil || !strings.Contains(err.Error(), "no cpu") {
		t.Errorf("WriteFile of a model with a tool and no cpu: %v", err)
	}
	orphan := p.Clone()
	orphan.Memory.Levels = orphan.Memory.Levels[:3]
	if err := Write(&bytes.Buffer{}, orphan); err == nil || !strings.Contains(err.Error(), "cache level l3") {
		t.Errorf("Write with an l3 citation but no l3: %v", err)
	}
}

// A <pipeline> without a cpu names no model but keeps its citations (why the core has none).
func TestPipelineWithoutModel(t *testing.T) {
	src := memoryProfile(`<pipeline><cite cost="pipeline" estimate="false">LLVM has no model of this core.</cite></pipeline>`)
	p, err := Read(strings.NewReader(src), "m.xml")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Pipeline.IsZero() || len(cost.CitationsOf(p.Citations, cost.PipelineCost)) != 1 {
		t.Fatalf("pipeline %+v citations %+v", p.Pipeline, p.Citations)
	}
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		t.Fatal(err)
	}
	q, err := Read(&buf, "again.xml")
	if err != nil || !reflect.DeepEqual(p, q) {
		t.Errorf("round trip: %v\n%+v\n%+v", err, p, q)
	}
}
