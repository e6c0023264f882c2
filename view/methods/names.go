package methods

import (
	"androprof/chart"
	"androprof/model/calls"
	"androprof/model/javaname"
	"androprof/view/ui"
)

// How the method tabs name methods: as Java reads them ("GameScreen.paint(float)", the
// package "com.jag.positron" in a column of its own), or, with the bar's Raw names box
// ticked, as the trace does ("com/jag/positron/GameScreen.paint (F)V"). Names are display:
// rows are found, selected and compared by their raw key, and a table's CSV keeps the raw name.

// rawNamesText labels the bar's check box.
const rawNamesText = "Raw names"

// shown is how a row named key (readable n) reads now.
func (m *View) shown(key string, n javaname.Name) javaname.Name {
	if m.raw {
		return javaname.Raw(key)
	}
	return n
}

// methodLabel is a method as a label (a timeline span, a title) reads now: with its package
// after the name, or raw.
func (m *View) methodLabel(mi calls.MethodInfo) string { return m.labeler()(mi) }

// labeler is methodLabel as the box says now, for work in the background, which must not read
// the box's state as it changes.
func (m *View) labeler() func(calls.MethodInfo) string {
	if m.raw {
		return calls.MethodName
	}
	return func(mi calls.MethodInfo) string { return calls.ReadableName(mi).Full() }
}

// chartNames relabels a method chart grouped by by as the box says (chart.ReadableMethodLabels).
func (m *View) chartNames(c chart.Chart, by calls.MethodGrouping) chart.Chart {
	if m.raw {
		return c
	}
	return chart.ReadableMethodLabels(c, by)
}

// nameColumns are a row's name column, titled title, and, unless raw, its package column: the
// readable name cut from its package, so rows of one class or package read alike. The profile
// table and the comparison put the package beside the name; the narrow parents and children
// after their numbers. The CSV keeps the raw key in the name column.
func nameColumns[T any](title string, width float32, raw bool, key func(T) string, readable func(T) javaname.Name) (name ui.Column[T], pkg []ui.Column[T]) {
	if raw {
		return ui.TextCol(title, width, key), nil
	}
	name = ui.TextCol(title, width, func(r T) string { return readable(r).Short })
	name.Raw = key
	return name, []ui.Column[T]{ui.TextCol("Package", 150, func(r T) string { return readable(r).Package })}
}
