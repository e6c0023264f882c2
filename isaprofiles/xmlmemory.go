package isaprofiles

import (
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"androprof/model/cost"
)

// The <memory> and <pipeline> elements of format 2 (docs/profile-format.md): the core's cache
// hierarchy with what a miss and an access cost, and the machine model that prices a block's
// pipeline cycles. Their citations sit inside them and land in Profile.Citations under the
// level's name or cost.PipelineCost, so the editor treats them like the reference data's.

// ownCost tells whether a citation's cost belongs to <memory> or <pipeline> rather than to
// <reference>: a cache level's name or "pipeline".
func ownCost(c string) bool {
	return c == cost.PipelineCost || slices.Contains(cost.CacheLevelNames, c)
}

// referenceCites are the profile citations written in <reference>.
func referenceCites(cites []cost.Citation) []cost.Citation {
	var out []cost.Citation
	for _, c := range cites {
		if !ownCost(c.Cost) {
			out = append(out, c)
		}
	}
	return out
}

// formatOf is the oldest format that holds the profile: a file without a hierarchy or a model
// stays format 1, so older programs go on reading it.
func formatOf(prof *cost.Profile) int {
	if prof.Memory.IsZero() && prof.Pipeline == (cost.PipelineModel{}) && len(cost.CitationsOf(prof.Citations, cost.PipelineCost)) == 0 {
		return 1
	}
	return FormatVersion
}

// memory reads <memory>: one <cache> per level, l1i, l1d, l2 and optionally l3.
func (p *parser) memory(el xml.StartElement, prof *cost.Profile) error {
	p.attrs(el)
	if p.memLine != 0 {
		p.fail(p.line(), "<memory> is given twice")
	}
	p.memLine = p.line()
	_, err := p.children(el, func(child xml.StartElement) error {
		if child.Name.Local != "cache" {
			return fmt.Errorf("unknown element <%s> in <memory>", child.Name.Local)
		}
		return p.cache(child, prof)
	})
	if err != nil {
		return err
	}
	p.checkGeometry(prof.Memory)
	return nil
}

// cache reads one <cache> level with its citations.
func (p *parser) cache(el xml.StartElement, prof *cost.Profile) error {
	line := p.line()
	a := p.attrs(el, "level", "size", "ways", "line", "replacement", "write-allocate", "miss-cycles", "access-energy-nj")
	l := cost.CacheLevel{Name: a["level"], Replacement: cost.LRU, WriteAllocate: true}
	l.SizeBytes = int64(p.whole(a, "size"))
	l.Ways, l.LineBytes = p.whole(a, "ways"), p.whole(a, "line")
	if r, ok := a["replacement"]; ok {
		l.Replacement = cost.Replacement(strings.ToLower(r))
	}
	switch a["write-allocate"] {
	case "", "true":
	case "false":
		l.WriteAllocate = false
	default:
		p.fail(line, "<cache> write-allocate=%q must be true or false", a["write-allocate"])
	}
	l.MissCycles, l.AccessEnergyNJ = p.number(a, "miss-cycles", "cache"), p.number(a, "access-energy-nj", "cache")
	cites, err := p.children(el, func(child xml.StartElement) error {
		return fmt.Errorf("unknown element <%s> in <cache>", child.Name.Local)
	})
	if err != nil {
		return err
	}
	prof.Memory.Levels = append(prof.Memory.Levels, l)
	p.levelLines = append(p.levelLines, line)
	p.ownCites = append(p.ownCites, p.claim(cites, l.Name, line)...)
	return nil
}

// whole parses a required whole-number attribute of <cache>.
func (p *parser) whole(a map[string]string, key string) int {
	v, ok := a[key]
	if !ok {
		p.fail(p.line(), "<cache> has no %s", key)
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		p.fail(p.line(), "<cache> %s=%q is not a whole number", key, v)
	}
	return n
}

// checkGeometry reports what cost.CacheGeometry.Validate says about the hierarchy, at the line
// of the level it concerns: each level's own parts first, then the order and the set of levels.
func (p *parser) checkGeometry(g cost.CacheGeometry) {
	bad := false
	for i, l := range g.Levels {
		if !slices.Contains(cost.CacheLevelNames, l.Name) {
			p.fail(p.levelLines[i], "unknown cache level %q (want l1i, l1d, l2 and optionally l3)", l.Name)
			bad = true
			continue
		}
		if msg := levelProblem(l); msg != "" {
			p.fail(p.levelLines[i], "cache level %s: %s", l.Name, msg)
			bad = true
		}
	}
	if bad {
		return
	}
	if err := g.Validate(); err != nil {
		line := p.memLine
		for i := len(g.Levels) - 1; i >= 0; i-- {
			if strings.Contains(err.Error(), "cache level "+g.Levels[i].Name+" ") {
				line = p.levelLines[i]
				break
			}
		}
		p.fail(line, "%v", err)
	}
}

// levelProblem checks one level's own parts with the rules of cost.CacheGeometry.Validate (by
// validating a hierarchy made of that level alone) and that its costs are finite.
func levelProblem(l cost.CacheLevel) string {
	for _, f := range []float64{l.MissCycles, l.AccessEnergyNJ} {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return fmt.Sprintf("miss-cycles %v and access-energy-nj %v must be finite numbers ≥ 0", l.MissCycles, l.AccessEnergyNJ)
		}
	}
	alone := cost.CacheGeometry{}
	for _, name := range cost.CacheLevelNames[:3] {
		l.Name = name
		alone.Levels = append(alone.Levels, l)
	}
	if err := errors.Unwrap(alone.Validate()); err != nil {
		return err.Error()
	}
	return ""
}

// pipeline reads <pipeline tool=… cpu=…>. A <pipeline> without a cpu names no model; its
// citations may say why the core has none.
func (p *parser) pipeline(el xml.StartElement, prof *cost.Profile) error {
	line := p.line()
	a := p.attrs(el, "tool", "cpu")
	if p.pipeLine != 0 {
		p.fail(line, "<pipeline> is given twice")
	}
	p.pipeLine = line
	prof.Pipeline = cost.PipelineModel{Tool: a["tool"], CPU: a["cpu"]}
	if prof.Pipeline.CPU == "" && prof.Pipeline.Tool != "" {
		p.fail(line, "<pipeline> names tool %q but no cpu", prof.Pipeline.Tool)
	}
	cites, err := p.children(el, func(child xml.StartElement) error {
		return fmt.Errorf("unknown element <%s> in <pipeline>", child.Name.Local)
	})
	if err != nil {
		return err
	}
	p.ownCites = append(p.ownCites, p.claim(cites, cost.PipelineCost, line)...)
	return nil
}

// claim gives the citations inside <cache> or <pipeline> their cost; a cite naming another
// cost is refused, since the writer would put it elsewhere.
func (p *parser) claim(cites []cost.Citation, own string, line int) []cost.Citation {
	for i := range cites {
		switch cites[i].Cost {
		case "", own:
			cites[i].Cost = own
		default:
			p.fail(line, "<cite cost=%q> inside the %s element must be for %s", cites[i].Cost, own, own)
		}
	}
	return cites
}

// checkReferenceCites refuses a <reference> citation of a cache level or the machine model:
// those belong inside <cache> and <pipeline>.
func (p *parser) checkReferenceCites(cites []cost.Citation, line int) {
	for _, c := range cites {
		if ownCost(c.Cost) {
			p.fail(line, "<cite cost=%q> belongs inside <memory> or <pipeline>, not <reference>", c.Cost)
		}
	}
}

// writeMemory writes <memory> and <pipeline> with their citations; a profile without them
// gets neither. A citation of a level the hierarchy lacks cannot be written and is an error.
func (b *xmlBuilder) writeMemory(prof *cost.Profile) error {
	for _, name := range cost.CacheLevelNames {
		if prof.Memory.Level(name) == nil && len(cost.CitationsOf(prof.Citations, name)) > 0 {
			return fmt.Errorf("profile %q cites cache level %s, which its hierarchy does not have", prof.Name, name)
		}
	}
	if !prof.Memory.IsZero() {
		b.open(1, "memory")
		for _, l := range prof.Memory.Levels {
			kv := []string{"level", l.Name, "size", strconv.FormatInt(l.SizeBytes, 10), "ways", strconv.Itoa(l.Ways),
				"line", strconv.Itoa(l.LineBytes), "replacement", string(l.Replacement), "write-allocate", strconv.FormatBool(l.WriteAllocate)}
			kv = appendKnown(kv, "miss-cycles", l.MissCycles)
			kv = appendKnown(kv, "access-energy-nj", l.AccessEnergyNJ)
			b.open(2, "cache", kv...)
			b.cites(3, cost.CitationsOf(prof.Citations, l.Name))
			b.close(2, "cache")
		}
		b.close(1, "memory")
	}
	pipeCites := cost.CitationsOf(prof.Citations, cost.PipelineCost)
	if prof.Pipeline == (cost.PipelineModel{}) && len(pipeCites) == 0 {
		return nil
	}
	var kv []string
	if prof.Pipeline.Tool != "" {
		kv = append(kv, "tool", prof.Pipeline.Tool)
	}
	if prof.Pipeline.CPU != "" {
		kv = append(kv, "cpu", prof.Pipeline.CPU)
	}
	b.open(1, "pipeline", kv...)
	b.cites(2, pipeCites)
	b.close(1, "pipeline")
	return nil
}

// appendKnown adds an attribute only when the number is known: unknown is absent, never 0.
func appendKnown(kv []string, key string, v float64) []string {
	if v == 0 {
		return kv
	}
	return append(kv, key, num(v))
}

// checkMemory is what WriteFile refuses beyond cost.Validate: a hierarchy that does not
// validate, or a machine model with a tool and no cpu, so an invalid file is never written.
func checkMemory(prof *cost.Profile) error {
	if prof.Pipeline.CPU == "" && prof.Pipeline.Tool != "" {
		return fmt.Errorf("the machine model names tool %q but no cpu", prof.Pipeline.Tool)
	}
	if prof.Memory.IsZero() {
		return nil
	}
	for _, l := range prof.Memory.Levels {
		if msg := levelProblem(l); msg != "" && slices.Contains(cost.CacheLevelNames, l.Name) {
			return fmt.Errorf("cache level %s: %s", l.Name, msg)
		}
	}
	return prof.Memory.Validate()
}
