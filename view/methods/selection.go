package methods

import (
	"slices"

	callsmodel "androprof/model/calls"
)

// The tabs that select methods together, as selectMethod's from and followSelection's name.
const (
	fromProfile  = "profile"
	fromTimeline = "timeline"
	fromFlame    = "flame"
)

// chosenMethod is the method selected in the method tabs, if any.
type chosenMethod struct {
	id uint64 // the trace's method id
	ok bool
}

// follower is how one tab shows a method selected in another.
type follower struct {
	name string
	show func(id uint64)
}

// selectMethod selects method id (its id in the trace) in every tab that shows methods: the
// profile table's row, the timeline's calls outlined, the flame graph's frames highlighted.
// from names the tab where it was chosen, which is not told again. Choosing the method already
// selected does nothing, so a tab may call it from its own selection callback.
func (m *View) selectMethod(id uint64, from string) {
	if m.chosen.ok && m.chosen.id == id {
		return
	}
	m.chosen = chosenMethod{id: id, ok: true}
	for _, f := range m.followers {
		if f.name != from {
			f.show(id)
		}
	}
}

// selectedMethod is the method selected, if any: a tab that draws later shows it too.
func (m *View) selectedMethod() (uint64, bool) { return m.chosen.id, m.chosen.ok }

// followSelection registers show, the way tab name shows a method selected elsewhere (the
// flame tab: `m.followSelection(fromFlame, func(id uint64) { … highlight its frames … })`, and
// `m.selectMethod(id, fromFlame)` when a frame is clicked).
func (m *View) followSelection(name string, show func(id uint64)) {
	m.followers = append(m.followers, follower{name, show})
}

// followTabs makes the profile table and the timeline select together.
func (m *View) followTabs() {
	m.followSelection(fromProfile, m.Profile.selectMethod)
	m.followSelection(fromTimeline, m.Timeline.outlineMethod)
}

// forgetSelection drops the method selected, when another run is shown: ids are per trace.
func (m *View) forgetSelection() {
	m.chosen = chosenMethod{}
	m.Timeline.outline = nil
}

// selectMethod selects the row of a method when the table lists methods and shows it.
func (t *methodProfileTab) selectMethod(id uint64) {
	if t.m.sel.by != callsmodel.ByMethod {
		return
	}
	if i := slices.IndexFunc(t.Table.Rows(), func(r callsmodel.MethodRow) bool { return r.Method == id }); i >= 0 {
		t.Table.Select(i)
	}
}

// openMethod shows a method in the Profile tab, grouping by method and clearing the find box
// when they hide it.
func (m *View) openMethod(id uint64) {
	if m.trace == nil {
		return
	}
	m.jumpMethod(callsmodel.MethodName(m.trace.Profile.Methods[id]))
}
