package chart

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"androprof/chart/render"
	"androprof/model/cost"
)

// svgText renders c as SVG at the export size.
func svgText(t *testing.T, c Chart) string {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Paint(&buf, render.SVG, 1200, 700); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, buf.Bytes())
	return buf.String()
}

// powerless is a report under a profile with no power for one of its two rows.
func powerless() *cost.Report {
	rep := &cost.Report{Run: "sieve-mips", Profile: "MIPS32 Release 2 24K", By: cost.ByFunction,
		Rows: []cost.ReportRow{
			{Key: "main", Instructions: 100, Cycles: 300, EnergyJ: 2e-6, UnknownPower: 10},
			{Key: "memset", Instructions: 50, Cycles: 80, UnknownPower: 50}, // no power for any of it
		}}
	rep.Coverage = cost.Coverage{Profile: rep.Profile, ProfileISAs: []cost.ISA{cost.MIPS}, Instructions: 150,
		UnknownPower: 60, Undefined: 15, UndefinedCPI: 1}
	return rep
}

// A chart under a profile that does not fit the run carries the warning into the saved image,
// and a bar whose energy is unknown is drawn as "unknown", not left out.
func TestChartCarriesTheCaveat(t *testing.T) {
	rep := powerless()
	energy := FromReport(rep, Energy, Bars, nil)
	svg := svgText(t, energy)
	for _, want := range []string{"10 % of instructions (0 % of cycles) are not in this profile", "Power unknown for 40 % of instructions", "memset", "unknown"} {
		if !strings.Contains(svg, want) {
			t.Errorf("energy chart lacks %q", want)
		}
	}
	// Cycles do not depend on power: the chart says what of them is a guess, not the power.
	svg = svgText(t, FromReport(rep, Cycles, Bars, nil))
	if !strings.Contains(svg, "not in this profile") || strings.Contains(svg, "Power unknown") {
		t.Errorf("cycles chart's caveat is wrong")
	}
	for _, k := range []Kind{Columns, Pie} {
		energy.Kind = k
		svg := svgText(t, energy)
		if !strings.Contains(svg, "not in this profile") || !strings.Contains(svg, "unknown: memset") {
			t.Errorf("kind %d: the caveat or the unknown bar is missing", k)
		}
		var buf bytes.Buffer
		if err := energy.Paint(&buf, render.PNG, 640, 360); err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(&buf); err != nil {
			t.Fatal(err)
		}
	}
}

// In Compare, an item whose energy is unknown keeps its place in the energy chart.
func TestComparisonShowsUnknownEnergy(t *testing.T) {
	rows := []cost.CompareRow{
		{Item: "sieve-arm", Instructions: 10, Cycles: 20, EnergyJ: 1e-3, Coverage: cost.Coverage{Instructions: 10}},
		{Item: "sieve-mips", Instructions: 12, Cycles: 25, Coverage: cost.Coverage{Profile: "MIPS32 Release 2 24K", Instructions: 12, UnknownPower: 12}},
	}
	c := FromComparison(rows, Energy, Bars)
	svg := svgText(t, c)
	if !strings.Contains(svg, "sieve-mips") || !strings.Contains(svg, "unknown") || !strings.Contains(svg, "Power unknown") {
		t.Errorf("the MIPS item is missing from the energy chart")
	}
	if c.Empty() {
		t.Error("a chart with an unknown bar reads as empty")
	}
	if svg := svgText(t, FromComparison(rows, Cycles, Bars)); strings.Contains(svg, "unknown") {
		t.Errorf("cycles are known for every item")
	}
}
