package methods

import (
	"androprof/chart"
	"bytes"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"androprof/internal/viewtest"
	"androprof/model/calls"
)

// The method tabs name methods as Java reads them, the package in a column of its own; the
// bar's Raw names box shows the trace's names in every tab; the find box matches both; and
// rows keep their raw keys, so a CSV, a selection and a jump still go by them.
func TestRawNamesBox(t *testing.T) {
	v, _ := openMethods(t)
	m := v.Methods
	p := m.Profile
	cell := func(key, col string) string {
		i := methodRowIndex(p.Table, key)
		if i < 0 {
			t.Fatalf("no row %q", key)
		}
		return p.Table.Cell(i, viewtest.ColIndex(p.Table, col))
	}
	if got := cell(paint, "Name"); got != "GameScreen.paint(float)" || cell(paint, "Package") != "com.jag.positron" {
		t.Errorf("paint reads %q in %q", got, cell(paint, "Package"))
	}
	var csv bytes.Buffer
	if err := p.Table.WriteCSV(&csv); err != nil || !strings.Contains(csv.String(), paint) {
		t.Errorf("the CSV lacks the raw name %q (%v)", paint, err)
	}
	for _, find := range []string{"GameScreen.paint(float)", "com.jag.positron.GameScreen.paint", "positron/GameScreen.paint (F"} {
		p.Find.SetText("")
		test.Type(p.Find, find)
		v.Wait()
		if methodRowIndex(p.Table, paint) < 0 {
			t.Errorf("find %q: paint is not listed", find)
		}
	}
	p.Find.SetText("")
	v.Wait()
	p.Table.Select(methodRowIndex(p.Table, draw))
	v.Wait()
	if !strings.Contains(p.Selected.Text, "com.jag.positron.Particle.draw()") {
		t.Errorf("relatives title %q", p.Selected.Text)
	}
	showTab(v, 2)
	if !chartHas(m.Hotspots.Chart.Chart(), "GameScreen.paint(float)") {
		t.Errorf("hotspots %+v", m.Hotspots.Chart.Chart().Bars)
	}

	test.Tap(m.RawNames)
	v.Wait()
	if slices.Contains(p.Table.Headers(), "Package") || cell(paint, "Name") != paint {
		t.Errorf("raw names: headers %v, paint reads %q", p.Table.Headers(), cell(paint, "Name"))
	}
	if !chartHas(m.Hotspots.Chart.Chart(), paint) {
		t.Errorf("raw hotspots %+v", m.Hotspots.Chart.Chart().Bars)
	}
	if i := slices.IndexFunc(p.Children.Rows(), func(calls.Relative) bool { return true }); i >= 0 &&
		p.Children.Cell(i, 0) != p.Children.Rows()[i].Name {
		t.Errorf("raw child reads %q", p.Children.Cell(i, 0))
	}
	if p.selected != draw {
		t.Errorf("the selection moved to %q", p.selected)
	}
	showTab(v, 1)
	if !timelineSays(m.Timeline, paint) || timelineSays(m.Timeline, "com.jag.positron.GameScreen.paint(float)") {
		t.Error("raw names: the timeline's spans do not read as the trace names them")
	}
	test.Tap(m.RawNames)
	v.Wait()
	if !timelineSays(m.Timeline, "com.jag.positron.GameScreen.paint(float)") {
		t.Error("readable again: the timeline's spans do not read as Java")
	}
	showTab(v, 0)
	if cell(paint, "Name") != "GameScreen.paint(float)" {
		t.Errorf("readable again: %q", cell(paint, "Name"))
	}
}

// timelineSays reports whether a call drawn on the timeline is labelled label.
func timelineSays(tl *timelineTab, label string) bool {
	return slices.ContainsFunc(tl.spec.Spans, func(s chart.Span) bool { return s.Merged == 0 && s.Label == label })
}
