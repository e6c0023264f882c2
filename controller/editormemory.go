package controller

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"androprof/isaprofiles"
	costmodel "androprof/model/cost"
	"androprof/pipeline"
)

// NoMemoryHierarchy is what a profile without a hierarchy says about itself: its runs are
// still priced, by their categories alone.
const NoMemoryHierarchy = "no memory hierarchy: runs are priced without memory stalls"

// NoMachineModel is what a profile without a machine model says about itself.
const NoMachineModel = "no machine model: each block is priced by its instructions' categories"

// PipelineTools are the llvm-mca binaries the editor offers (Debian's llvm-16 and llvm-19);
// a model that names none runs DefaultPipelineTool.
var PipelineTools = []string{"llvm-mca-16", "llvm-mca-19"}

// DefaultPipelineTool is what a machine model without a tool runs.
const DefaultPipelineTool = pipeline.DefaultTool

// Cite is where a group of numbers comes from: a cache level's geometry and costs, or a
// machine model, share one citation because one manual or measurement gives them together.
type Cite struct {
	Source   string
	Estimate bool
}

// MemoryLevel is one cache level as the details dialog edits it: its numbers and their source.
type MemoryLevel struct {
	costmodel.CacheLevel
	Cite
}

// Memory is a profile's memory hierarchy and machine model as the details dialog edits them.
// It is a draft: its With… methods change it, and Editor.SetMemory applies it.
type Memory struct {
	Levels       []MemoryLevel // l1i, l1d, l2[, l3]; none when the profile has no hierarchy
	Pipeline     costmodel.PipelineModel
	PipelineCite Cite
}

// Memory returns the profile's hierarchy and machine model with their sources.
func (e *Editor) Memory() Memory {
	p := e.profile
	m := Memory{Pipeline: p.Pipeline, PipelineCite: citeOf(p.Citations, costmodel.PipelineCost)}
	for _, l := range p.Memory.Levels {
		m.Levels = append(m.Levels, MemoryLevel{l, citeOf(p.Citations, l.Name)})
	}
	return m
}

func citeOf(cites []costmodel.Citation, key string) Cite {
	s := sourced(0, cites, key)
	return Cite{s.Source, s.Estimate}
}

// HierarchyNotes says what the profile's estimate goes without for memory: no hierarchy, or
// miss costs not known. Empty when it has them all.
func (m Memory) HierarchyNotes() []string {
	var out, unknown []string
	if len(m.Levels) == 0 {
		out = append(out, NoMemoryHierarchy)
	}
	for _, l := range m.Levels {
		if l.MissCycles == 0 {
			unknown = append(unknown, l.Name)
		}
	}
	if len(unknown) > 0 {
		out = append(out, "miss cycles unknown at "+strings.Join(unknown, ", ")+": misses are counted but add no stalls")
	}
	return out
}

// ModelNote is NoMachineModel when the profile names none, else "".
func (m Memory) ModelNote() string {
	if strings.TrimSpace(m.Pipeline.CPU) == "" {
		return NoMachineModel
	}
	return ""
}

// Level returns the named level of the draft, or nil.
func (m Memory) Level(name string) *MemoryLevel {
	for i := range m.Levels {
		if m.Levels[i].Name == name {
			return &m.Levels[i]
		}
	}
	return nil
}

// AddHierarchy returns m with L1I, L1D and L2 when it has none: taken from a built-in profile
// of the same instruction set, cited as taken from it (estimates: another core's numbers), or
// blank for the user to fill when no built-in has one.
func (e *Editor) AddHierarchy(m Memory) Memory {
	if len(m.Levels) > 0 {
		return m
	}
	m.Levels = e.levelTemplate()[:3]
	return m
}

// AddL3 returns m with a last-level cache after L2 (from the same built-in as AddHierarchy
// where it has one, else blank); m without L2 is returned as it is.
func (e *Editor) AddL3(m Memory) Memory {
	if len(m.Levels) != 3 {
		return m
	}
	m.Levels = append(m.Levels[:3:3], e.levelTemplate()[3])
	return m
}

// WithoutL3 returns m without its last-level cache.
func (m Memory) WithoutL3() Memory {
	if len(m.Levels) == 4 {
		m.Levels = m.Levels[:3:3]
	}
	return m
}

// WithoutHierarchy returns m with no cache levels; the machine model stays.
func (m Memory) WithoutHierarchy() Memory {
	m.Levels = nil
	return m
}

// levelTemplate is the four levels a new hierarchy starts from.
func (e *Editor) levelTemplate() []MemoryLevel {
	out := make([]MemoryLevel, len(costmodel.CacheLevelNames))
	for i, name := range costmodel.CacheLevelNames {
		out[i] = MemoryLevel{CacheLevel: costmodel.CacheLevel{Name: name, Replacement: costmodel.LRU, WriteAllocate: true}}
	}
	from := e.builtinWithHierarchy()
	if from == nil {
		return out
	}
	for i, l := range out {
		if got := from.Memory.Level(l.Name); got != nil {
			out[i] = MemoryLevel{*got, borrowedCite(from, l.Name)}
		}
	}
	return out
}

// builtinWithHierarchy picks the built-in profile a new hierarchy is taken from: one pricing the
// profile's first instruction set, the same core when there is one.
func (e *Editor) builtinWithHierarchy() *costmodel.Profile {
	var pick *costmodel.Profile
	for _, name := range isaprofiles.BuiltinNames() {
		b, err := isaprofiles.Builtin(name)
		if err != nil || b.Memory.IsZero() || len(e.profile.ISAs) == 0 || !b.HasISA(e.profile.ISAs[0]) {
			continue
		}
		if org := e.profile.Organization; org != "" && strings.EqualFold(org, b.Organization) {
			return b
		}
		if pick == nil {
			pick = b
		}
	}
	return pick
}

// borrowedCite cites one of from's hierarchy or machine-model entries as taken from it
// (model.BorrowedCitation), as the dialog shows a citation.
func borrowedCite(from *costmodel.Profile, key string) Cite {
	c := costmodel.BorrowedCitation(from, key)
	return Cite{Source: c.Text, Estimate: c.Estimate}
}

// CheckMemory says why m cannot be the profile's hierarchy and machine model, naming the level
// and the part (CacheGeometry.Validate's messages); nothing is changed.
func (e *Editor) CheckMemory(m Memory) error {
	if len(m.Levels) > 0 {
		g := m.geometry()
		if err := g.Validate(); err != nil {
			return err
		}
		for _, l := range g.Levels {
			if err := CheckCost(l.MissCycles); err != nil {
				return fmt.Errorf("cache level %s: miss cycles %w", l.Name, err)
			}
			if err := CheckCost(l.AccessEnergyNJ); err != nil {
				return fmt.Errorf("cache level %s: access energy %w", l.Name, err)
			}
		}
	}
	return checkPipeline(m.Pipeline)
}

func (m Memory) geometry() costmodel.CacheGeometry {
	var g costmodel.CacheGeometry
	for _, l := range m.Levels {
		g.Levels = append(g.Levels, l.CacheLevel)
	}
	return g
}

var (
	cpuName  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)
	toolName = regexp.MustCompile(`^llvm-mca(-[0-9]+)?$`)
)

// checkPipeline refuses what llvm-mca could not be run with; an empty CPU clears the model.
func checkPipeline(m costmodel.PipelineModel) error {
	cpu, tool := strings.TrimSpace(m.CPU), strings.TrimSpace(m.Tool)
	switch {
	case cpu == "":
		return nil
	case !cpuName.MatchString(cpu):
		return fmt.Errorf("machine model: CPU %q is not an -mcpu name (letters, digits, . _ + -; e.g. cortex-a55)", cpu)
	case tool != "" && !toolName.MatchString(tool):
		return fmt.Errorf("machine model: tool %q is not an llvm-mca binary (e.g. llvm-mca-16)", tool)
	}
	return nil
}

// SetMemory makes m the profile's hierarchy and machine model. A level or model that changes
// under an unchanged source is cited as edited by hand, as reference numbers are (recite); so
// is a new level changed from the built-in one AddHierarchy took, and a new one with no source,
// because every number must say where it comes from. A level taken away, or a model cleared
// (no CPU) under an unchanged source, takes its citation with it; a profile with no model may
// cite why it has none.
func (e *Editor) SetMemory(m Memory) error {
	if err := e.CheckMemory(m); err != nil {
		return err
	}
	p := e.profile
	before := p.Clone()
	was := map[string]costmodel.CacheLevel{}
	for _, l := range p.Memory.Levels {
		was[l.Name] = l
		p.Citations = costmodel.WithCitations(p.Citations, l.Name)
	}
	p.Citations = costmodel.WithCitations(p.Citations, costmodel.PipelineCost)
	p.Memory.Levels = nil
	var template []MemoryLevel
	for _, l := range m.Levels {
		old, had := was[l.Name]
		cited := before.Citations
		if !had { // a new level: its numbers are compared with the template it started from
			if template == nil {
				template = e.levelTemplate()
			}
			t := template[slices.Index(costmodel.CacheLevelNames, l.Name)]
			if old, had, cited = t.CacheLevel, t.Source != "", nil; had {
				cited = []costmodel.Citation{{Cost: l.Name, Text: t.Source, Estimate: t.Estimate}}
			}
		}
		p.Citations = reciteGroup(cited, p.Citations, l.Name, !had || old != l.CacheLevel, l.Cite)
		p.Memory.Levels = append(p.Memory.Levels, l.CacheLevel)
	}
	model := costmodel.PipelineModel{Tool: strings.TrimSpace(m.Pipeline.Tool), CPU: strings.TrimSpace(m.Pipeline.CPU)}
	if model.IsZero() {
		model = costmodel.PipelineModel{}
	}
	changed := model != before.Pipeline
	switch {
	case !model.IsZero():
		p.Citations = reciteGroup(before.Citations, p.Citations, costmodel.PipelineCost, changed, m.PipelineCite)
	case !changed || m.PipelineCite != citeOf(before.Citations, costmodel.PipelineCost):
		// No model, cited: why there is none ("LLVM has no Cortex-A8 model").
		p.Citations = reciteGroup(before.Citations, p.Citations, costmodel.PipelineCost, false, m.PipelineCite)
	} // else a model cleared under its source: the source described the model
	p.Pipeline = model
	e.dirty = e.dirty || !sameMemory(before, p)
	return nil
}

// reciteGroup adds to cites the citation of one group of numbers that old cited: recite's rule
// for a group that changed or not, and a changed group left with no source cited as edited by hand.
func reciteGroup(old, cites []costmodel.Citation, key string, changed bool, c Cite) []costmodel.Citation {
	mine := reciteIf(costmodel.CitationsOf(old, key), key, changed, c.Source, c.Estimate)
	if changed && len(mine) == 0 {
		mine = []costmodel.Citation{{Cost: key, Text: costmodel.HandEdited, Estimate: true}}
	}
	return append(cites, mine...)
}

// sameMemory compares the hierarchies, models and their citations; SetMemory re-adds the
// citations at the end, so their order says nothing.
func sameMemory(a, b *costmodel.Profile) bool {
	if fmt.Sprint(a.Memory, a.Pipeline) != fmt.Sprint(b.Memory, b.Pipeline) {
		return false
	}
	for _, key := range append(slices.Clone(costmodel.CacheLevelNames), costmodel.PipelineCost) {
		if !slices.Equal(costmodel.CitationsOf(a.Citations, key), costmodel.CitationsOf(b.Citations, key)) {
			return false
		}
	}
	return true
}
