package cost

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ISA is an instruction set. Blocks and instructions are keyed by it because the same
// mnemonic can cost differently in ARM and Thumb encodings.
type ISA string

// The instruction sets the workbench knows: ARMv7's two (A32 and T32), ARMv8's 64-bit A64,
// MIPS32 and x86-64.
const (
	ARM     ISA = "ARM"
	Thumb   ISA = "Thumb"
	AArch64 ISA = "AArch64"
	MIPS    ISA = "MIPS"
	X86_64  ISA = "x86-64"
)

// KnownISAs lists every instruction set in display order.
var KnownISAs = []ISA{ARM, Thumb, AArch64, MIPS, X86_64}

// isaAliases are other names people and tools give the same instruction sets: ARM's own names
// (A32, T32, A64), Linux's and Debian's (arm64, amd64), and the "x86" the bbprofile format
// wrote before x86-64 was priced.
var isaAliases = map[string]ISA{
	"a32": ARM, "t32": Thumb, "a64": AArch64, "arm64": AArch64, "aarch64": AArch64,
	"x86": X86_64, "x86_64": X86_64, "amd64": X86_64, "x64": X86_64,
}

// ParseISA accepts any capitalisation and the usual other names, so hand-written files and
// flags are forgiving; it returns the canonical name.
func ParseISA(s string) (ISA, error) {
	for _, isa := range KnownISAs {
		if strings.EqualFold(s, string(isa)) {
			return isa, nil
		}
	}
	if isa, ok := isaAliases[strings.ToLower(s)]; ok {
		return isa, nil
	}
	return "", fmt.Errorf("unknown instruction set %q (want one of ARM, Thumb, AArch64, MIPS, x86-64)", s)
}

// Instruction identifies an opcode class by its normalised mnemonic within one instruction set.
type Instruction struct {
	ISA      ISA
	Mnemonic string
}

func (i Instruction) String() string { return i.Mnemonic + " (" + string(i.ISA) + ")" }

// Less orders instructions by ISA, then mnemonic, so lists and files are stable.
func (i Instruction) Less(j Instruction) bool {
	if i.ISA != j.ISA {
		return isaRank(i.ISA) < isaRank(j.ISA)
	}
	return i.Mnemonic < j.Mnemonic
}

func isaRank(isa ISA) int {
	for n, k := range KnownISAs {
		if k == isa {
			return n
		}
	}
	return len(KnownISAs)
}

// SortInstructions sorts in place in the Less order.
func SortInstructions(list []Instruction) {
	sort.Slice(list, func(a, b int) bool { return list[a].Less(list[b]) })
}

// UndefinedCategory is the seed's default category: anything not placed elsewhere lands here.
const UndefinedCategory = "Undefined"

// Citation records where a number came from and whether it is an estimate, so a reader of a
// profile can judge how far to trust each cost.
type Citation struct {
	Cost     string // "cycles", "power" or a reference field name
	Estimate bool
	Text     string
}

// Category is a cost class: every instruction in it is charged the same cycles and power.
type Category struct {
	Name         string
	Cycles       float64 // average cycles per executed instruction
	PowerMW      float64 // average power while executing, milliwatts
	Citations    []Citation
	Instructions []Instruction
}

// Reference holds the measured whole-processor data of seed 000 section 5.2 (its Table 5.3),
// used by the CPI-based estimate. Zero values mean "not known".
type Reference struct {
	FrequencyGHz       float64
	CPI                float64
	ProcessorPowerW    float64
	BaseInstructions   float64
	BaseCacheMisses    float64
	MemoryAccessEnergy float64 // nJ per main-memory access
}

// IsZero tells whether no reference data was given.
func (r Reference) IsZero() bool { return r == Reference{} }

// Profile is an ISA cost profile: the instruction-information file of the seed.
type Profile struct {
	Name         string
	Architecture string // e.g. ARMv7-A
	Organization string // e.g. Cortex-A8
	ISAs         []ISA  // the instruction sets this profile prices
	Source       string // citation text for the profile as a whole
	Reference    Reference
	Citations    []Citation // citations for the reference data
	// Categories excludes Undefined; its costs live in Undefined below.
	Categories []Category
	// Undefined carries the default category's costs and the instructions known to be
	// uncategorised (for example imported from a log but not in any catalogue).
	Undefined Category
	// Memory is the core's cache hierarchy with what a miss and an access cost at each level
	// (docs/memory.md); empty when the profile has none, and then runs price as without it.
	// Its citations are in Citations under each level's name (l1i, l1d, l2, l3).
	Memory CacheGeometry
	// Pipeline is the machine model that prices each block's pipeline cycles (llvm-mca);
	// zero when the profile names none. Cited in Citations under PipelineCost.
	Pipeline PipelineModel
}

// NewProfile returns an empty profile with the default category in place.
func NewProfile(name string, isas ...ISA) *Profile {
	return &Profile{Name: name, ISAs: isas, Undefined: Category{Name: UndefinedCategory}}
}

// Clone is a deep copy, so a copy can be saved in the background while the editor goes on
// changing the original.
func (p *Profile) Clone() *Profile {
	c := *p
	c.ISAs = slices.Clone(p.ISAs)
	c.Citations = slices.Clone(p.Citations)
	c.Categories = make([]Category, len(p.Categories))
	for i, cat := range p.Categories {
		c.Categories[i] = cat.clone()
	}
	c.Undefined = p.Undefined.clone()
	c.Memory.Levels = slices.Clone(p.Memory.Levels)
	return &c
}

func (c Category) clone() Category {
	c.Citations = slices.Clone(c.Citations)
	c.Instructions = slices.Clone(c.Instructions)
	return c
}

// Category returns the named category, Undefined included, or nil.
func (p *Profile) Category(name string) *Category {
	if name == UndefinedCategory {
		return &p.Undefined
	}
	for i := range p.Categories {
		if p.Categories[i].Name == name {
			return &p.Categories[i]
		}
	}
	return nil
}

// CategoryNames lists the categories in file order, Undefined last.
func (p *Profile) CategoryNames() []string {
	names := make([]string, 0, len(p.Categories)+1)
	for _, c := range p.Categories {
		names = append(names, c.Name)
	}
	return append(names, UndefinedCategory)
}

// HasISA tells whether the profile prices the given instruction set.
func (p *Profile) HasISA(isa ISA) bool {
	for _, i := range p.ISAs {
		if i == isa {
			return true
		}
	}
	return false
}

// Classifier answers "which category and costs apply to this instruction" in O(1).
// It is built once per profile because reports ask for every executed instruction.
type Classifier struct {
	profile *Profile
	index   map[Instruction]*Category
}

// NewClassifier indexes the profile. Later edits to the profile need a new Classifier.
func NewClassifier(p *Profile) *Classifier {
	c := &Classifier{profile: p, index: make(map[Instruction]*Category)}
	for i := range p.Categories {
		cat := &p.Categories[i]
		for _, in := range cat.Instructions {
			c.index[in] = cat
		}
	}
	return c
}

// Classify returns the instruction's category, or Undefined when it has none.
func (c *Classifier) Classify(in Instruction) *Category {
	if cat, ok := c.index[in]; ok {
		return cat
	}
	return &c.profile.Undefined
}

// ProfileInfo describes a profile in a list without loading its categories.
type ProfileInfo struct {
	Name, Architecture, Organization string
	ISAs                             []ISA
	Categories                       int
	Origin                           string // "built-in", "database" or a file path
	SavedAt                          string
}

// ErrNotFound is wrapped by stores when a named thing does not exist.
var ErrNotFound = errors.New("not found")

// ReferenceField is one number of a profile's reference data. Key is its attribute in a profile
// file and the Cost its citation names, so a number and where it came from stay paired.
type ReferenceField struct {
	Key, Label string
	Value      func(*Reference) *float64
}

// ReferenceFields lists the reference numbers in file order.
var ReferenceFields = []ReferenceField{
	{"frequency-ghz", "Frequency (GHz)", func(r *Reference) *float64 { return &r.FrequencyGHz }},
	{"cpi", "CPI", func(r *Reference) *float64 { return &r.CPI }},
	{"processor-power-w", "Processor power (W)", func(r *Reference) *float64 { return &r.ProcessorPowerW }},
	{"base-instructions", "Base instructions", func(r *Reference) *float64 { return &r.BaseInstructions }},
	{"base-cache-misses", "Base cache misses", func(r *Reference) *float64 { return &r.BaseCacheMisses }},
	{"memory-access-energy-nj", "Memory-access energy (nJ)", func(r *Reference) *float64 { return &r.MemoryAccessEnergy }},
}

// The costs a category's citations name.
const (
	CyclesCost = "cycles"
	PowerCost  = "power"
	// PipelineCost is the profile citation of its machine model; each cache level's citation
	// is under the level's name (L1I, L1D, L2, L3).
	PipelineCost = "pipeline"
)

// HandEdited is the citation a number gets when it is changed and nobody says where the new
// value comes from: the old citation described the old number, and no number may keep one
// that no longer describes it.
const HandEdited = "Edited by hand; no source recorded."

// CitationsOf returns the citations of one cost, in order.
func CitationsOf(cites []Citation, cost string) []Citation {
	var out []Citation
	for _, c := range cites {
		if c.Cost == cost {
			out = append(out, c)
		}
	}
	return out
}

// WithCitations replaces every citation of one cost with with (none when with is empty),
// keeping the others in order.
func WithCitations(cites []Citation, cost string, with ...Citation) []Citation {
	out := make([]Citation, 0, len(cites)+len(with))
	for _, c := range cites {
		if c.Cost != cost {
			out = append(out, c)
		}
	}
	for _, c := range with {
		c.Cost = cost
		out = append(out, c)
	}
	return out
}

// Derive starts a new profile from p: its instruction sets, architecture, categories and their
// instructions, with p's category costs, memory hierarchy and machine model as placeholders,
// each citation saying it was taken from p and marked an estimate (they were measured or chosen
// for another processor). The
// organization, the reference data and their citations are not taken: they describe the
// processor p was measured on, and the analysis window's estimate would present them as this
// profile's own.
func (p *Profile) Derive(name string) *Profile {
	d := p.Clone()
	d.Name, d.Organization, d.Reference, d.Citations = name, "", Reference{}, nil
	d.Source = fmt.Sprintf("Started from profile “%s”: its categories, and its category costs as placeholders "+
		"(each cited as taken from it). Its organization and reference data were not taken.", p.Name)
	for i := range d.Categories {
		d.Categories[i].Citations = borrowed(d.Categories[i], p.Name)
	}
	d.Undefined.Citations = borrowed(d.Undefined, p.Name)
	// The hierarchy and machine model are taken too, each cited as taken from p.
	for _, l := range d.Memory.Levels {
		d.Citations = append(d.Citations, BorrowedCitation(p, l.Name))
	}
	if !d.Pipeline.IsZero() {
		d.Citations = append(d.Citations, BorrowedCitation(p, PipelineCost))
	}
	return d
}

// BorrowedCitation cites one of from's hierarchy or machine-model entries (key: a level's name
// or PipelineCost) as taken from it, an estimate for another core: its citations' texts in one.
func BorrowedCitation(from *Profile, key string) Citation {
	var texts []string
	for _, c := range CitationsOf(from.Citations, key) {
		texts = append(texts, c.Text)
	}
	text := strings.Join(texts, "\n\n")
	if text == "" {
		text = "no source recorded there."
	}
	return Citation{Cost: key, Estimate: true, Text: fmt.Sprintf("From profile “%s”: %s", from.Name, text)}
}

// borrowed re-cites a category's costs as taken from profile from, every one an estimate.
func borrowed(c Category, from string) []Citation {
	var out []Citation
	for _, n := range []struct {
		cost  string
		value float64
	}{{CyclesCost, c.Cycles}, {PowerCost, c.PowerMW}} {
		cost, value := n.cost, n.value
		cites := CitationsOf(c.Citations, cost)
		if len(cites) == 0 && value != 0 {
			cites = []Citation{{Text: "no source recorded there."}}
		}
		for _, ci := range cites {
			out = append(out, Citation{Cost: cost, Estimate: true, Text: fmt.Sprintf("From profile “%s”: %s", from, ci.Text)})
		}
	}
	return out
}
