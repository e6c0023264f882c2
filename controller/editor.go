// Package controller holds the workbench's use cases: editing profiles, import jobs with
// progress and cancel, analysis queries. It never imports Fyne, so it is tested as plain Go.
package controller

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"androprof/emulator"
	"androprof/isaprofiles"
	"androprof/model/cost"
)

// Row is one instruction as the editor lists it.
type Row struct {
	Instruction cost.Instruction
	Count       int64 // executions seen in imported logs; 0 when none or unknown
	Seen        bool  // appeared in an imported log
	InCatalogue bool
	Description string
	search      string // lower-case mnemonic and description, precomputed for filtering
}

// Filter narrows a list as the user types.
type Filter struct {
	ISA   cost.ISA // "" for every instruction set
	Query string   // case-insensitive substring of mnemonic or description
}

// Editor is the instruction-categorization editor's model: one profile being edited, the
// catalogue rows around it, and counts from imported logs. It is not safe for concurrent use;
// the view calls it from the UI goroutine.
type Editor struct {
	profile *cost.Profile
	path    string
	dirty   bool
	rows    map[cost.Instruction]*Row // every instruction the editor knows about
	where   map[cost.Instruction]string
	// replaced keeps the sources typing took off a cost, to restore when it is typed back.
	replaced map[costKey]remembered
}

// UnnamedProfile is what a profile is called until its user names it. The workspace keys
// profiles by name, so keeping two profiles under it would silently replace the first.
const UnnamedProfile = "New profile"

// NewEditor starts with an empty ARM+Thumb profile, the most common case.
func NewEditor() *Editor {
	e := &Editor{}
	e.setProfile(cost.NewProfile(UnnamedProfile, cost.ARM, cost.Thumb), "")
	return e
}

// CheckProfileName says why name cannot name a profile, so a dialog can say it while the user
// types: it must have a visible character and no control characters, which a profile file
// and a window title cannot show. Leading and trailing spaces are dropped, not refused.
func CheckProfileName(name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("a profile needs a name")
	}
	if strings.ContainsFunc(name, unicode.IsControl) {
		return errors.New("no tabs or line breaks in a name")
	}
	return nil
}

// SetName renames the profile being edited; a name CheckProfileName refuses changes nothing.
func (e *Editor) SetName(name string) error {
	if err := CheckProfileName(name); err != nil {
		return err
	}
	if name = strings.TrimSpace(name); name != e.profile.Name {
		e.profile.Name = name
		e.dirty = true
	}
	return nil
}

// Profile is the profile being edited. Callers must change it only through the Editor.
func (e *Editor) Profile() *cost.Profile { return e.profile }

// Path is the file the profile was opened from or saved to; "" when never saved.
func (e *Editor) Path() string { return e.path }

// Dirty tells whether there are unsaved changes.
func (e *Editor) Dirty() bool { return e.dirty }

// NewProfile replaces the profile with an empty one for the given instruction sets.
func (e *Editor) NewProfile(name string, isas ...cost.ISA) error {
	if err := CheckProfileName(name); err != nil {
		return err
	}
	if len(isas) == 0 {
		return errors.New("choose at least one instruction set")
	}
	e.setProfile(cost.NewProfile(strings.TrimSpace(name), isas...), "")
	e.dirty = true
	return nil
}

// Open reads a profile file; a file that fails validation is not opened.
func (e *Editor) Open(path string) error {
	p, err := isaprofiles.ReadFile(path)
	if err != nil {
		return err
	}
	e.setProfile(p, path)
	return nil
}

// OpenBuiltin starts from an embedded profile. It has no path, so Save asks for one.
func (e *Editor) OpenBuiltin(name string) error {
	p, err := isaprofiles.Builtin(name)
	if err != nil {
		return err
	}
	e.setProfile(p, "")
	return nil
}

// SetProfile edits a profile that came from elsewhere (the database).
func (e *Editor) SetProfile(p *cost.Profile) { e.setProfile(p, "") }

func (e *Editor) setProfile(p *cost.Profile, path string) {
	e.profile, e.path, e.dirty = p, path, false
	e.replaced = map[costKey]remembered{}
	e.rows = map[cost.Instruction]*Row{}
	for _, isa := range p.ISAs {
		if cat := isaprofiles.CatalogFor(isa); cat != nil {
			for _, en := range cat.Entries {
				in := cost.Instruction{ISA: isa, Mnemonic: en.Mnemonic}
				e.rows[in] = newRow(in, true, en.Description)
			}
		}
	}
	e.reindex()
}

func newRow(in cost.Instruction, inCatalogue bool, desc string) *Row {
	return &Row{Instruction: in, InCatalogue: inCatalogue, Description: desc,
		search: strings.ToLower(in.Mnemonic + " " + desc)}
}

// reindex rebuilds where each instruction lives; profiles are small, so this is cheap.
func (e *Editor) reindex() {
	e.where = map[cost.Instruction]string{}
	for _, c := range e.profile.Categories {
		for _, in := range c.Instructions {
			e.where[in] = c.Name
			e.ensureRow(in)
		}
	}
	for _, in := range e.profile.Undefined.Instructions {
		e.ensureRow(in)
	}
}

func (e *Editor) ensureRow(in cost.Instruction) *Row {
	r, ok := e.rows[in]
	if !ok {
		r = newRow(in, false, "")
		e.rows[in] = r
	}
	return r
}

// Save writes to the current path. The profile is validated first; an invalid one is not saved.
func (e *Editor) Save() error {
	if e.path == "" {
		return errors.New("the profile has no file yet: use Save As")
	}
	return e.SaveAs(e.path)
}

// SaveAs writes to path and remembers it.
func (e *Editor) SaveAs(path string) error {
	if probs := e.Problems(); len(probs) > 0 {
		return fmt.Errorf("not saved: %s", probs[0].Msg)
	}
	e.syncUndefined()
	if err := isaprofiles.WriteFile(path, e.profile); err != nil {
		return err
	}
	e.path, e.dirty = path, false
	return nil
}

// syncUndefined records in the file the instructions seen in logs that no category holds and
// no catalogue lists, so they survive a save as the seed's "Undefined" entries.
func (e *Editor) syncUndefined() {
	var keep []cost.Instruction
	for in, r := range e.rows {
		if _, placed := e.where[in]; !placed && !r.InCatalogue {
			keep = append(keep, in)
		}
	}
	cost.SortInstructions(keep)
	e.profile.Undefined.Instructions = keep
}

// Problems lists why the profile could not be saved now.
func (e *Editor) Problems() []cost.Problem { return cost.Validate(e.profile) }

// Uncategorized lists instructions in no category, the most executed first.
func (e *Editor) Uncategorized(f Filter) []Row {
	return e.list(f, func(in cost.Instruction) bool { _, placed := e.where[in]; return !placed })
}

// CategoryRows lists one category's instructions, the most executed first.
func (e *Editor) CategoryRows(name string, f Filter) []Row {
	if name == cost.UndefinedCategory {
		return e.Uncategorized(f)
	}
	return e.list(f, func(in cost.Instruction) bool { return e.where[in] == name })
}

func (e *Editor) list(f Filter, keep func(cost.Instruction) bool) []Row {
	q := strings.ToLower(strings.TrimSpace(f.Query))
	out := make([]Row, 0, 64)
	for in, r := range e.rows {
		if (f.ISA != "" && in.ISA != f.ISA) || !keep(in) || (q != "" && !strings.Contains(r.search, q)) {
			continue
		}
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Instruction.Less(out[j].Instruction)
	})
	return out
}

// CategoryOf names the category holding an instruction (Undefined when none).
func (e *Editor) CategoryOf(in cost.Instruction) string {
	if c, ok := e.where[in]; ok {
		return c
	}
	return cost.UndefinedCategory
}

// CheckCategoryName says why name cannot name a new category (or rename old to it; old is ""
// for a new one), so a dialog can say it while the user types instead of after the click.
func (e *Editor) CheckCategoryName(old, name string) error {
	name = strings.TrimSpace(name)
	if old != "" && strings.EqualFold(old, name) {
		return nil
	}
	return e.checkNewName(name)
}

// AddCategory creates an empty category.
func (e *Editor) AddCategory(name string, cycles, powerMW float64) error {
	name = strings.TrimSpace(name)
	if err := e.checkNewName(name); err != nil {
		return err
	}
	if err := checkCosts(cycles, powerMW); err != nil {
		return err
	}
	e.profile.Categories = append(e.profile.Categories, cost.Category{Name: name, Cycles: cycles, PowerMW: powerMW})
	e.dirty = true
	return nil
}

func (e *Editor) checkNewName(name string) error {
	if name == "" {
		return errors.New("a category needs a name")
	}
	if strings.ContainsFunc(name, unicode.IsControl) {
		return errors.New("no tabs or line breaks in a name")
	}
	if strings.EqualFold(name, cost.UndefinedCategory) {
		return fmt.Errorf("%q is the default category's name", cost.UndefinedCategory)
	}
	for _, c := range e.profile.Categories {
		if strings.EqualFold(c.Name, name) {
			return fmt.Errorf("a category named %q exists already", c.Name)
		}
	}
	return nil
}

// RenameCategory renames a category; Undefined cannot be renamed.
func (e *Editor) RenameCategory(old, name string) error {
	c := e.userCategory(old)
	if c == nil {
		return fmt.Errorf("no category %q to rename", old)
	}
	if err := e.CheckCategoryName(old, name); err != nil {
		return err
	}
	e.forget(old)
	c.Name = strings.TrimSpace(name)
	e.reindex()
	e.dirty = true
	return nil
}

// DeleteCategory removes a category; its instructions become uncategorised.
func (e *Editor) DeleteCategory(name string) error {
	cats := e.profile.Categories
	for i := range cats {
		if cats[i].Name == name {
			e.forget(name)
			e.profile.Categories = append(cats[:i:i], cats[i+1:]...)
			e.reindex()
			e.dirty = true
			return nil
		}
	}
	return fmt.Errorf("no category %q to delete", name)
}

func (e *Editor) userCategory(name string) *cost.Category {
	if name == cost.UndefinedCategory {
		return nil
	}
	return e.profile.Category(name)
}

// SetCosts changes a category's cycle and power costs (Undefined included: its costs are the
// fallback for anything uncategorised). Invalid values are refused and nothing changes. A cost
// that changes loses the source that described its old value (see recite).
func (e *Editor) SetCosts(name string, cycles, powerMW float64) error {
	if err := checkCosts(cycles, powerMW); err != nil {
		return err
	}
	c := e.profile.Category(name)
	if c == nil {
		return fmt.Errorf("no category %q", name)
	}
	if c.Cycles != cycles || c.PowerMW != powerMW {
		c.Citations = e.reciteTyped(name, c.Citations, cost.CyclesCost, c.Cycles, cycles)
		c.Citations = e.reciteTyped(name, c.Citations, cost.PowerCost, c.PowerMW, powerMW)
		c.Cycles, c.PowerMW = cycles, powerMW
		e.dirty = true
	}
	return nil
}

func checkCosts(cycles, powerMW float64) error {
	p := cost.NewProfile("x", cost.ARM)
	p.Categories = []cost.Category{{Name: "x", Cycles: cycles, PowerMW: powerMW}}
	if probs := cost.Validate(p); len(probs) > 0 {
		return errors.New(strings.TrimPrefix(probs[0].Msg, `category "x": `))
	}
	return nil
}

// Move puts instructions into a category, taking them out of the one they were in, so moving
// between two categories is one step; moving to Undefined takes them out of every category.
func (e *Editor) Move(ins []cost.Instruction, to string) error {
	var dest *cost.Category
	if to != cost.UndefinedCategory {
		if dest = e.userCategory(to); dest == nil {
			return fmt.Errorf("no category %q", to)
		}
	}
	moving := map[cost.Instruction]bool{}
	for _, in := range ins {
		if !e.profile.HasISA(in.ISA) {
			return fmt.Errorf("%s: the profile does not price instruction set %s", in, in.ISA)
		}
		moving[in] = true
	}
	// Undefined's list (instructions a file recorded as uncategorised) counts as a placement
	// for validation, so a moved instruction must leave it too; SaveAs rebuilds it.
	for i := -1; i < len(e.profile.Categories); i++ {
		c := &e.profile.Undefined
		if i >= 0 {
			c = &e.profile.Categories[i]
		}
		kept := c.Instructions[:0]
		for _, in := range c.Instructions {
			if !moving[in] {
				kept = append(kept, in)
			}
		}
		c.Instructions = kept
	}
	if dest != nil {
		dest.Instructions = append(dest.Instructions, ins...)
		cost.SortInstructions(dest.Instructions)
	}
	e.reindex()
	e.dirty = true
	return nil
}

// AddInstruction adds a mnemonic by hand (one no catalogue lists); it starts uncategorised.
func (e *Editor) AddInstruction(in cost.Instruction) error {
	in.Mnemonic = strings.ToUpper(strings.TrimSpace(in.Mnemonic))
	if in.Mnemonic == "" {
		return errors.New("an instruction needs a mnemonic")
	}
	if !e.profile.HasISA(in.ISA) {
		return fmt.Errorf("the profile does not price instruction set %s", in.ISA)
	}
	e.ensureRow(in)
	e.dirty = true
	return nil
}

// ImportLogs reads QEMU logs and records every instruction they show with its execution count,
// so the most executed uncategorised instructions come first. The profile decides how text
// without an encoding is read (its first instruction set).
func (e *Editor) ImportLogs(ctx context.Context, paths []string, progress func(done, total int64)) error {
	counts, err := CountLogs(ctx, paths, e.profile.ISAs, progress)
	if err != nil {
		return err
	}
	e.AddCounts(counts)
	return nil
}

// LogCounts is what CountLogs found, waiting to be merged into an Editor.
type LogCounts []emulator.InsnCount

// CountLogs is the slow half of ImportLogs. It does not touch an Editor, so a window can run it
// in a goroutine while the user keeps working and merge the result with AddCounts afterwards.
func CountLogs(ctx context.Context, paths []string, isas []cost.ISA, progress func(done, total int64)) (LogCounts, error) {
	return emulator.CountLogInstructions(ctx, paths, isas, progress)
}

// CountSummary is what AddCounts took from a log, for the window to tell the user.
type CountSummary struct {
	Executions    int64 // executed instructions of the instruction sets the profile prices
	Kinds         int   // distinct instructions among them
	Uncategorized int   // of those kinds, how many no category holds
	Dropped       int64 // executions of instruction sets the profile does not price
}

// AddCounts is the quick half of ImportLogs: it records counts found by CountLogs. Counts for
// instruction sets the profile does not price are dropped: the profile may have been replaced
// while the logs were read.
func (e *Editor) AddCounts(counts LogCounts) CountSummary {
	var sum CountSummary
	for _, c := range counts {
		if !e.profile.HasISA(c.Instruction.ISA) {
			sum.Dropped += c.Executions
			continue
		}
		r := e.ensureRow(c.Instruction)
		r.Seen = true
		r.Count += c.Executions
		sum.Executions += c.Executions
		sum.Kinds++
		if _, placed := e.where[c.Instruction]; !placed {
			sum.Uncategorized++
		}
	}
	e.dirty = true
	return sum
}
