package controller

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"

	costmodel "androprof/model/cost"
)

// Sourced is one number of a profile with where it came from, as the editor's dialogs show it:
// the texts of its citations joined, and whether any of them calls it an estimate.
type Sourced struct {
	Value    float64
	Source   string
	Estimate bool
}

// Details are a profile's metadata: what it describes, where it comes from and its reference
// data (one Sourced per model.ReferenceFields entry, in that order).
type Details struct {
	Architecture, Organization, Source string
	Reference                          []Sourced
}

// Details returns the profile's metadata for the Profile details dialog.
func (e *Editor) Details() Details {
	p := e.profile
	d := Details{Architecture: p.Architecture, Organization: p.Organization, Source: p.Source}
	for _, f := range costmodel.ReferenceFields {
		d.Reference = append(d.Reference, sourced(*f.Value(&p.Reference), p.Citations, f.Key))
	}
	return d
}

// CheckDetails says why d cannot be the profile's metadata; nothing is changed.
func (e *Editor) CheckDetails(d Details) error {
	if len(d.Reference) != len(costmodel.ReferenceFields) {
		return fmt.Errorf("want %d reference numbers, got %d", len(costmodel.ReferenceFields), len(d.Reference))
	}
	for _, s := range []struct{ what, text string }{{"architecture", d.Architecture}, {"organization", d.Organization}} {
		if strings.ContainsFunc(s.text, unicode.IsControl) {
			return fmt.Errorf("no tabs or line breaks in the %s", s.what)
		}
	}
	for i, f := range costmodel.ReferenceFields {
		if err := CheckCost(d.Reference[i].Value); err != nil {
			return fmt.Errorf("%s: %w", f.Label, err)
		}
	}
	return nil
}

// SetDetails replaces the profile's metadata. A reference number that changes while its source
// does not loses that source, which described the old number: it is cited as edited by hand
// (an estimate), or has no citation when it becomes unknown (0).
func (e *Editor) SetDetails(d Details) error {
	if err := e.CheckDetails(d); err != nil {
		return err
	}
	p := e.profile
	before := p.Clone()
	p.Architecture, p.Organization = strings.TrimSpace(d.Architecture), strings.TrimSpace(d.Organization)
	p.Source = strings.TrimSpace(d.Source)
	for i, f := range costmodel.ReferenceFields {
		v := f.Value(&p.Reference)
		p.Citations = recite(p.Citations, f.Key, *v, d.Reference[i])
		if d.Reference[i].Value == 0 && sourced(0, p.Citations, f.Key).Source == costmodel.HandEdited {
			p.Citations = costmodel.WithCitations(p.Citations, f.Key) // unknown: nothing to cite
		}
		*v = d.Reference[i].Value
	}
	e.dirty = e.dirty || !sameDetails(before, p)
	return nil
}

func sameDetails(a, b *costmodel.Profile) bool {
	return a.Architecture == b.Architecture && a.Organization == b.Organization && a.Source == b.Source &&
		a.Reference == b.Reference && fmt.Sprint(a.Citations) == fmt.Sprint(b.Citations)
}

// Costs returns a category's cycle and power costs with their sources, for the sources dialog.
func (e *Editor) Costs(name string) (cycles, power Sourced, err error) {
	c := e.profile.Category(name)
	if c == nil {
		return Sourced{}, Sourced{}, fmt.Errorf("no category %q", name)
	}
	return sourced(c.Cycles, c.Citations, costmodel.CyclesCost), sourced(c.PowerMW, c.Citations, costmodel.PowerCost), nil
}

// SetSourcedCosts changes a category's costs and what they cite in one step, so a new number
// can arrive with its own source instead of being marked as edited by hand.
func (e *Editor) SetSourcedCosts(name string, cycles, power Sourced) error {
	if err := checkCosts(cycles.Value, power.Value); err != nil {
		return err
	}
	c := e.profile.Category(name)
	if c == nil {
		return fmt.Errorf("no category %q", name)
	}
	before := fmt.Sprint(*c)
	c.Citations = recite(c.Citations, costmodel.CyclesCost, c.Cycles, cycles)
	c.Citations = recite(c.Citations, costmodel.PowerCost, c.PowerMW, power)
	c.Cycles, c.PowerMW = cycles.Value, power.Value
	e.forget(name)
	e.dirty = e.dirty || fmt.Sprint(*c) != before
	return nil
}

// sourced joins the citations of one cost as the dialogs show them.
func sourced(v float64, cites []costmodel.Citation, cost string) Sourced {
	s := Sourced{Value: v}
	var texts []string
	for _, c := range costmodel.CitationsOf(cites, cost) {
		texts = append(texts, c.Text)
		s.Estimate = s.Estimate || c.Estimate
	}
	s.Source = strings.Join(texts, "\n\n")
	return s
}

// recite is the rule that keeps every citation true: a source the user wrote or changed
// replaces the old ones; a number changed under an unchanged source is cited as edited by hand
// (an estimate), because the old source described the old number.
func recite(cites []costmodel.Citation, cost string, old float64, s Sourced) []costmodel.Citation {
	return reciteIf(cites, cost, s.Value != old, s.Source, s.Estimate)
}

// reciteIf is recite for a number, or a group of numbers cited together, that changed or not.
func reciteIf(cites []costmodel.Citation, cost string, changed bool, source string, estimate bool) []costmodel.Citation {
	was := sourced(0, cites, cost)
	src := strings.TrimSpace(source)
	switch {
	case src != strings.TrimSpace(was.Source) || estimate != was.Estimate:
		if src == "" && !estimate {
			return costmodel.WithCitations(cites, cost)
		}
		if src == "" {
			src = "No source recorded."
		}
		return costmodel.WithCitations(cites, cost, costmodel.Citation{Text: src, Estimate: estimate})
	case changed && was.Source != "" && was.Source != costmodel.HandEdited:
		return costmodel.WithCitations(cites, cost, costmodel.Citation{Text: costmodel.HandEdited, Estimate: true})
	}
	return cites
}

// CheckCost says why v cannot be a cost or a reference number.
func CheckCost(v float64) error {
	if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return errors.New("must be a finite number ≥ 0")
	}
	return nil
}

// DeriveFromBuiltin starts a new profile named name from a built-in one (model.Profile.Derive
// says what is taken). It has no file yet and is unsaved.
func (e *Editor) DeriveFromBuiltin(builtin, name string) error {
	if err := CheckProfileName(name); err != nil {
		return err
	}
	if err := e.OpenBuiltin(builtin); err != nil {
		return err
	}
	e.setProfile(e.profile.Derive(strings.TrimSpace(name)), "")
	e.dirty = true
	return nil
}

// costKey names one cost of one category.
type costKey struct{ category, cost string }

// remembered is a source SetCosts took off a number, with the number it described.
type remembered struct {
	value float64
	cites []costmodel.Citation
}

// reciteTyped applies recite to a number typed in the window, which changes with every
// keystroke: the source it takes off is remembered, and typing the number back restores it.
func (e *Editor) reciteTyped(category string, cites []costmodel.Citation, cost string, old, v float64) []costmodel.Citation {
	k := costKey{category, cost}
	if r, ok := e.replaced[k]; ok && v == r.value {
		delete(e.replaced, k)
		return costmodel.WithCitations(cites, cost, r.cites...)
	}
	if _, ok := e.replaced[k]; !ok && v != old {
		e.replaced[k] = remembered{old, costmodel.CitationsOf(cites, cost)}
	}
	return recite(cites, cost, old, sourced(v, cites, cost))
}

// forget drops the remembered sources of a category whose sources were rewritten or which
// was renamed or deleted.
func (e *Editor) forget(category string) {
	for k := range e.replaced {
		if k.category == category {
			delete(e.replaced, k)
		}
	}
}
