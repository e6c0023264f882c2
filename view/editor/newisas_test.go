package editor

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/internal/viewtest"
	"androprof/model/cost"
)

// New profile offers every instruction set the workbench prices (cost.KnownISAs), so an
// AArch64 or an x86-64 profile can be made; its filter lists its sets, and search and moving
// into a category work on them as on ARM's. Hand-added mnemonics keep this independent of
// what the catalogues list.
func TestNewProfileForAArch64AndX86(t *testing.T) {
	for _, isa := range []cost.ISA{cost.AArch64, cost.X86_64} {
		t.Run(string(isa), func(t *testing.T) {
			ed, v := newTestEditor(t)
			viewtest.Must(t, ed.Save()) // so New asks nothing about unsaved changes
			v.commands[cmdNew].Run()
			top := v.Window.Canvas().Overlays().Top()
			var sets *widget.CheckGroup
			for _, o := range shownObjects(top) {
				if g, ok := o.(*widget.CheckGroup); ok {
					sets = g
				}
			}
			if sets == nil {
				t.Fatal("the New profile dialog has no instruction sets to tick")
			}
			var known []string
			for _, k := range cost.KnownISAs {
				known = append(known, string(k))
			}
			if !slices.Equal(sets.Options, known) {
				t.Errorf("New profile offers %v, want every known set %v", sets.Options, known)
			}
			sets.SetSelected([]string{string(isa)})
			test.Type(focusedEntry(t, v.Window.Canvas()), "My "+string(isa))
			pressEnter(t, v.Window)
			if p := ed.Profile(); !slices.Equal(p.ISAs, []cost.ISA{isa}) || p.Name != "My "+string(isa) {
				t.Fatalf("made %q pricing %v, want %s", p.Name, p.ISAs, isa)
			}
			if want := []string{allISAs, string(isa)}; !slices.Equal(v.Uncategorized.ISA.Options, want) {
				t.Errorf("filter offers %v, want %v", v.Uncategorized.ISA.Options, want)
			}

			in := cost.Instruction{ISA: isa, Mnemonic: "ZZNEW.LOAD"}
			v.AddInstruction(cost.Instruction{ISA: isa, Mnemonic: "zznew.load"})
			viewtest.Must(t, ed.AddCategory("Loads", 4, 200))
			v.Reload()
			v.Category.SetSelected("Loads")
			v.Uncategorized.ISA.SetSelected(string(isa))
			test.Type(v.Uncategorized.Search, "zznew")
			if rows := v.Uncategorized.Rows(); len(rows) != 1 || rows[0].Instruction != in {
				t.Fatalf("search zznew under %s shows %v", isa, rows)
			}
			if !slices.Contains(v.Uncategorized.Picked(), in) {
				tapRow(t, v.Uncategorized, in)
			}
			test.Tap(v.Add)
			if got := ed.CategoryOf(in); got != "Loads" || rowIndex(v.Members, in) < 0 {
				t.Errorf("%s is in %q after Add", in, got)
			}
		})
	}
}

// The filter lists a profile's sets in cost.KnownISAs's order, whatever order the profile
// names them in: a profile of all five lists all five.
func TestISAFilterListsSetsInKnownOrder(t *testing.T) {
	if got := filterISAs([]cost.ISA{cost.X86_64, cost.MIPS, cost.AArch64, cost.Thumb, cost.ARM}); !slices.Equal(got, cost.KnownISAs) {
		t.Errorf("filter order %v, want %v", got, cost.KnownISAs)
	}
}
