// Package builtingen builds the built-in ISA cost profiles (isaprofiles/builtin/*.xml) from
// per-core cost tables. Each table gives, for every cost class of docs/catalogues.md that the
// core has, the category the class goes into, its average cycle and power cost, and citations
// saying where each number came from. Generate turns a table and the instruction catalogues
// into a profile; cmd/main.go writes all of them (run `go generate ./isaprofiles`).
package builtingen

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"androprof/isaprofiles"
	"androprof/model/cost"
)

// Classes lists every cost class of docs/catalogues.md, in the order of its table.
var Classes = []string{
	"alu", "shift", "mul", "mul-long", "div", "dsp",
	"load", "load-multiple", "store", "store-multiple",
	"branch-cond", "branch", "it", "system",
	"fp-add", "fp-mul", "fp-mac", "fp-div-s", "fp-div-d", "fp-load", "fp-store", "fp-xfer",
	"simd-alu", "simd-mul", "simd-perm", "simd-load", "simd-store",
	"crypto", "string",
}

// Core is the cost table of one processor organisation.
type Core struct {
	Slug         string // file name under isaprofiles/builtin, without .xml
	Name         string
	Architecture string
	Organization string
	ISAs         []cost.ISA
	Source       string // profile-level citation paragraph

	// Reference is the measured whole-processor data of seed 000 Table 5.3 where it exists;
	// fields that cannot be sourced stay zero ("not known").
	Reference     cost.Reference
	ReferenceCite []cost.Citation

	// Power is the per-category power used where no published per-category figure exists
	// (the core's whole-processor or whole-core average); always an estimate.
	Power Cost
	// CPI, when set, is the core's measured average CPI; it prices the Undefined category and
	// categories marked Fallback. Without it the median of the other categories' cycle costs
	// is used. Either way the figure is marked as an estimate.
	CPI *Cost

	Categories []Category

	// Memory is the core's cache hierarchy, l1i, l1d, l2 and optionally l3 (memory.go); nil when
	// the profile has none, and then NoMemory, added to the source text, says why.
	Memory   []Level
	NoMemory string
	// Pipeline is the llvm-mca model that prices the core's blocks, or none with the reason.
	Pipeline Machine
}

// Category is one row of a cost table: the classes it holds and their shared costs.
type Category struct {
	Name    string
	Classes []string
	Cycles  Cost
	Power   *Cost // nil: the core's Power
}

// Cost is one number with the notes that say where it came from.
type Cost struct {
	Value    float64
	Fallback bool // cycles only: use the core's fallback figure (see Core.CPI)
	Notes    []Note
}

// Note is one citation of a Cost; Estimate is set when the number is not a published figure
// for this core.
type Note struct {
	Estimate bool
	Text     string
}

// Cores returns the cost tables of all built-in profiles, in a stable order.
func Cores() []Core {
	return []Core{cortexA8(), cortexA9(), cortexA15(), cortexA55(), cortexA76(), mips24K(), mips74K(), silvermont(), skylake()}
}

// Generate builds the profile of one core: every catalogue entry of the core's instruction
// sets goes into the category of its cost class, so with a complete catalogue the Undefined
// category stays empty; Undefined gets the documented fallback cost.
func Generate(core Core) (*cost.Profile, error) {
	fail := func(format string, args ...any) (*cost.Profile, error) {
		return nil, fmt.Errorf("builtin profile %s: %s", core.Slug, fmt.Sprintf(format, args...))
	}
	known := map[string]bool{}
	for _, c := range Classes {
		known[c] = true
	}
	catOf := map[string]int{} // class -> index into core.Categories
	names := map[string]bool{}
	for i, cat := range core.Categories {
		if cat.Name == "" || strings.EqualFold(cat.Name, cost.UndefinedCategory) || names[strings.ToLower(cat.Name)] {
			return fail("category %d has a missing, reserved or duplicate name %q", i+1, cat.Name)
		}
		names[strings.ToLower(cat.Name)] = true
		if len(cat.Classes) == 0 {
			return fail("category %q lists no cost class", cat.Name)
		}
		for _, cl := range cat.Classes {
			if !known[cl] {
				return fail("category %q: %q is not a cost class of docs/catalogues.md", cat.Name, cl)
			}
			if j, dup := catOf[cl]; dup {
				return fail("class %s is in both %q and %q", cl, core.Categories[j].Name, cat.Name)
			}
			catOf[cl] = i
		}
		if err := checkCost(cat.Cycles, true); err != nil {
			return fail("category %q cycles: %v", cat.Name, err)
		}
		if cat.Power != nil {
			if err := checkCost(*cat.Power, false); err != nil {
				return fail("category %q power: %v", cat.Name, err)
			}
		}
	}
	if err := checkCost(core.Power, false); err != nil {
		return fail("core power: %v", err)
	}
	fallback := fallbackCycles(core)

	p := cost.NewProfile(core.Name, core.ISAs...)
	p.Architecture, p.Organization, p.Source = core.Architecture, core.Organization, core.Source
	if len(core.Memory) == 0 && core.NoMemory != "" {
		p.Source += " " + core.NoMemory
	}
	p.Reference = core.Reference
	p.Citations = append([]cost.Citation(nil), core.ReferenceCite...)
	for _, cat := range core.Categories {
		cycles := cat.Cycles
		if cycles.Fallback {
			cycles = Cost{Value: fallback.Value, Notes: append(append([]Note(nil), cycles.Notes...), fallback.Notes...)}
		}
		power := core.Power
		if cat.Power != nil {
			power = *cat.Power
		}
		p.Categories = append(p.Categories, cost.Category{
			Name: cat.Name, Cycles: cycles.Value, PowerMW: power.Value,
			Citations: append(cites("cycles", cycles), cites("power", power)...),
		})
	}
	p.Undefined = cost.Category{
		Name: cost.UndefinedCategory, Cycles: fallback.Value, PowerMW: core.Power.Value,
		Citations: append(cites("cycles", fallback), cites("power", core.Power)...),
	}

	for _, isa := range core.ISAs {
		catalog := isaprofiles.CatalogFor(isa)
		if catalog == nil {
			return fail("no instruction catalogue for %s", isa)
		}
		for _, e := range catalog.Entries {
			i, ok := catOf[e.Class]
			if !ok {
				return fail("%s %s has cost class %q, which this core's table does not price", isa, e.Mnemonic, e.Class)
			}
			c := &p.Categories[i]
			c.Instructions = append(c.Instructions, cost.Instruction{ISA: isa, Mnemonic: e.Mnemonic})
		}
	}
	for i := range p.Categories {
		cost.SortInstructions(p.Categories[i].Instructions)
	}
	if err := addMemory(core, p); err != nil {
		return fail("%v", err)
	}
	if probs := cost.Validate(p); len(probs) > 0 {
		return fail("%s", probs[0].Msg)
	}
	return p, nil
}

func checkCost(c Cost, cycles bool) error {
	if c.Fallback && !cycles {
		return fmt.Errorf("only cycle costs can use the fallback")
	}
	if math.IsNaN(c.Value) || math.IsInf(c.Value, 0) || c.Value < 0 {
		return fmt.Errorf("value %v is not a finite number ≥ 0", c.Value)
	}
	if len(c.Notes) == 0 {
		return fmt.Errorf("no citation")
	}
	for _, n := range c.Notes {
		if strings.TrimSpace(n.Text) == "" {
			return fmt.Errorf("empty citation")
		}
	}
	return nil
}

func cites(kind string, c Cost) []cost.Citation {
	out := make([]cost.Citation, len(c.Notes))
	for i, n := range c.Notes {
		out[i] = cost.Citation{Cost: kind, Estimate: n.Estimate, Text: n.Text}
	}
	return out
}

// fallbackCycles is the cycle cost of Undefined (and of categories marked Fallback): the
// core's measured CPI where known, otherwise the median of its other categories' cycle costs.
func fallbackCycles(core Core) Cost {
	if core.CPI != nil {
		c := *core.CPI
		c.Notes = markEstimate(c.Notes)
		return c
	}
	var vals []float64
	for _, cat := range core.Categories {
		if !cat.Cycles.Fallback {
			vals = append(vals, cat.Cycles.Value)
		}
	}
	sort.Float64s(vals)
	var med float64
	if n := len(vals); n > 0 {
		med = vals[n/2]
		if n%2 == 0 {
			med = (vals[n/2-1] + vals[n/2]) / 2
		}
	}
	med = round2(med)
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = num(v)
	}
	return Cost{Value: med, Notes: []Note{{Estimate: true, Text: fmt.Sprintf(
		"No measured average CPI was found for this core, so the fallback is the median of this profile's "+
			"other category cycle costs (%s): %s cycles.", strings.Join(parts, ", "), num(med))}}}
}

func markEstimate(ns []Note) []Note {
	out := make([]Note, len(ns))
	for i, n := range ns {
		out[i] = Note{Estimate: true, Text: n.Text}
	}
	return out
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// ---- helpers for writing the tables ----

// gccFile is one GCC machine description, named with the revision that was read.
type gccFile struct{ path, revision string }

// entry is one define_insn_reservation (or other named figure) contributing to a mean.
type entry struct {
	name  string
	value float64
	how   string // "latency" or an issue-cost explanation
	types string // the insn types GCC routes to it, when helpful
}

// lat is a reservation's result latency.
func lat(name string, v float64, types string) entry {
	return entry{name: name, value: v, how: "latency", types: types}
}

// issue is a reservation's issue cost: the cycles it occupies its issue unit. Used for stores
// and branches, whose GCC latency is 0 because they produce no register result.
func issue(name string, v float64, how string) entry {
	return entry{name: name, value: v, how: "issue cost", types: how}
}

func (e entry) String() string {
	s := fmt.Sprintf("%s %s %s", e.name, e.how, num(e.value))
	if e.types != "" {
		s += " (" + e.types + ")"
	}
	return s
}

// mean averages the entries (rounded to 2 decimals) and cites them, with an optional remark.
func (f gccFile) mean(remark string, es ...entry) Cost { return combine(remark, from(f, es...)) }

// part is the entries read from one file.
type part struct {
	f  gccFile
	es []entry
}

func from(f gccFile, es ...entry) part { return part{f, es} }

// combine averages the entries of several files into one cost with one citation.
func combine(remark string, parts ...part) Cost {
	var sum float64
	var n int
	var texts []string
	for _, p := range parts {
		items := make([]string, len(p.es))
		for i, e := range p.es {
			sum += e.value
			n++
			items[i] = e.String()
		}
		texts = append(texts, fmt.Sprintf("GCC %s (%s): %s", p.f.path, p.f.revision, strings.Join(items, "; ")))
	}
	v := round2(sum / float64(n))
	text := strings.Join(texts, ". ")
	if n > 1 {
		text += fmt.Sprintf("; mean of the %d = %s", n, num(v))
	}
	text += "."
	if remark != "" {
		text += " " + remark
	}
	return Cost{Value: v, Notes: []Note{{Text: text}}}
}

// est is a number that no source gives for this core, with the reason it was chosen.
func est(v float64, text string) Cost {
	return Cost{Value: v, Notes: []Note{{Estimate: true, Text: text}}}
}

// fallback prices a category with the core's fallback figure, giving the reason.
func fallback(reason string) Cost {
	return Cost{Fallback: true, Notes: []Note{{Estimate: true, Text: reason}}}
}
