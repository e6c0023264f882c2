package analysis

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/internal/human"
	"androprof/model/cost"
	"androprof/view/ui"
)

// waterfallText is the Estimate tab's waterfall in words: each step of cost.Waterfall as one
// line, every number that depends on a choice saying which (profile, clock, geometry), and
// every number that cannot be known saying "unknown" and why.
type waterfallText struct {
	Title     string // the profile and clock every step is priced at
	Geometry  string // which hierarchy the misses are for, or that there are none
	Category  string
	Pipeline  string
	Memory    string
	Total     string
	Reference string // figure 5.2's estimate of the same instructions
}

// waterfallLines words w, a run's or a selection's waterfall under profile.
func waterfallLines(w cost.Waterfall, profile string) waterfallText {
	t := waterfallText{
		Title:     fmt.Sprintf("Where the cycles come from: %s at %g GHz", profile, w.FrequencyGHz),
		Geometry:  "Not cache-simulated: run it again with Simulate caches.",
		Category:  fmt.Sprintf("%s: %s × their category's cycles", cyclesText(w.CategoryCycles), human.Count(w.Instructions, "instruction", "instructions")),
		Pipeline:  pipelineLine(w),
		Memory:    memoryLine(w, profile),
		Total:     totalLine(w),
		Reference: "unknown", // the gap line (gapLine) says why
	}
	if g := w.Simulated(); g != "" {
		t.Geometry = "Misses simulated for " + g
	}
	if w.ReferenceKnown {
		r := w.Reference
		t.Reference = fmt.Sprintf("%s · %s · %s (the profile's CPI, measured on other programs)", cyclesText(r.Cycles),
			human.Quantity(r.TimeS, "s"), human.Quantity(r.EnergyJ, "J"))
	}
	return t
}

// gapLine is the tab's one line on why figure 5.2's estimate and the waterfall's total differ:
// the waterfall's gap, named ("" when there is none to name).
func gapLine(w cost.Waterfall) string {
	switch {
	case w.Gap == "":
		return ""
	case !w.ReferenceKnown: // "no gap to name: the profile has no measured CPI …"
		return strings.ToUpper(w.Gap[:1]) + w.Gap[1:]
	}
	return "Why they differ: " + w.Gap + "."
}

func cyclesText(c float64) string { return human.Quantity(c, "cycles") }

// withNote is line, then note after a dash when there is one.
func withNote(line, note string) string {
	if note == "" {
		return line
	}
	return line + " — " + note
}

func pipelineLine(w cost.Waterfall) string {
	if !w.PipelineKnown {
		return withNote("unknown, the category cycles stand", w.PipelineNote)
	}
	if w.PipelineNote == "" { // else the note says what share of the instructions was priced
		return fmt.Sprintf("%s (%s, on %s of the instructions)", cyclesText(w.PipelineCycles), w.PipelineModel, cost.Percent(w.PipelineCoverage))
	}
	line := fmt.Sprintf("%s (%s)", cyclesText(w.PipelineCycles), w.PipelineModel)
	if strings.HasPrefix(w.PipelineNote, w.PipelineModel) { // the note names the model already
		line = cyclesText(w.PipelineCycles)
	}
	return withNote(line, w.PipelineNote)
}

func memoryLine(w cost.Waterfall, profile string) string {
	if !w.MemoryKnown {
		line := "unknown"
		if w.StallCycles > 0 {
			line = fmt.Sprintf("unknown (the levels whose miss cost is known: %s)", cyclesText(w.StallCycles))
		}
		return withNote(line, w.MemoryNote)
	}
	return withNote(fmt.Sprintf("%s: misses × %s's cycles per miss", cyclesText(w.StallCycles), profile), w.MemoryNote)
}

func totalLine(w cost.Waterfall) string {
	line := fmt.Sprintf("%s · %s at %g GHz · %s", cyclesText(w.TotalCycles), human.Quantity(w.TimeS, "s"), w.FrequencyGHz, energyLine(w))
	if !w.Complete {
		line = "of the known steps: " + line
	}
	return line
}

// energyLine is the total energy with its two parts, each "unknown" with why when it is.
func energyLine(w cost.Waterfall) string {
	core := "core " + human.Quantity(w.CoreEnergyJ, "J")
	if !w.CoreEnergyKnown {
		core = "core energy unknown (no power in the profile)"
	}
	mem := "memory " + human.Quantity(w.MemoryEnergyJ, "J")
	switch {
	case len(w.Levels) == 0:
		mem = "memory energy unknown (not simulated)"
	case !w.MemoryEnergyKnown:
		mem = "memory energy unknown (no access energies in the profile)"
	}
	if w.CoreEnergyKnown && w.MemoryEnergyKnown {
		return human.Quantity(w.EnergyJ, "J") + " (" + core + " + " + mem + ")"
	}
	return core + "; " + mem
}

// levelCells is one row of the memory step's table per level, headers first.
func levelCells(levels []cost.LevelCost) [][]string {
	rows := [][]string{{"Level", "Accesses", "Misses", "Miss rate", "Cycles/miss", "Stall cycles"}}
	for _, l := range levels {
		per, stall := "unknown", "unknown"
		if l.MissKnown {
			per, stall = ui.FormatFloat(l.MissCycles, 3), ui.FormatFloat(l.StallCycles, 0)
		}
		rows = append(rows, []string{l.Level, human.Grouped(l.Accesses), human.Grouped(l.Misses), cost.Percent(l.MissRate), per, stall})
	}
	return rows
}

// waterfallPanel shows a waterfall: a line per step and, under the memory step, its levels.
type waterfallPanel struct {
	Title     *widget.Label
	Geometry  *widget.Label
	Category  *widget.Label
	Pipeline  *widget.Label
	Memory    *widget.Label
	Total     *widget.Label
	Reference *widget.Label
	Levels    *fyne.Container // a grid of levelCells, empty without a simulation
	content   fyne.CanvasObject
}

func newWaterfallPanel() *waterfallPanel {
	p := &waterfallPanel{Title: ui.Heading("")}
	p.Title.Truncation = fyne.TextTruncateEllipsis
	labels := []**widget.Label{&p.Geometry, &p.Category, &p.Pipeline, &p.Memory, &p.Total, &p.Reference}
	for _, l := range labels {
		*l = widget.NewLabel("")
		(*l).Wrapping = fyne.TextWrapWord
		(*l).Selectable = true
	}
	p.Levels = container.NewGridWithColumns(6)
	steps := widget.NewForm(
		widget.NewFormItem("Category cycles", p.Category),
		widget.NewFormItem("Pipeline cycles", p.Pipeline),
		widget.NewFormItem("+ Memory stalls", p.Memory),
	)
	end := widget.NewForm(
		widget.NewFormItem("= Total", p.Total),
		widget.NewFormItem("Figure 5.2", p.Reference),
	)
	p.content = container.NewVBox(p.Title, p.Geometry, steps, p.Levels, end)
	return p
}

// show words w (nil: the panel is empty).
func (p *waterfallPanel) show(w *cost.Waterfall, profile string) {
	if w == nil {
		for _, l := range []*widget.Label{p.Title, p.Geometry, p.Category, p.Pipeline, p.Memory, p.Total, p.Reference} {
			l.SetText("")
		}
		p.setLevels(nil)
		return
	}
	t := waterfallLines(*w, profile)
	p.Title.SetText(t.Title)
	p.Geometry.SetText(t.Geometry)
	p.Category.SetText(t.Category)
	p.Pipeline.SetText(t.Pipeline)
	p.Memory.SetText(t.Memory)
	p.Total.SetText(t.Total)
	p.Reference.SetText(t.Reference)
	p.setLevels(w.Levels)
}

func (p *waterfallPanel) setLevels(levels []cost.LevelCost) {
	p.Levels.Objects = nil
	if len(levels) > 0 {
		for i, row := range levelCells(levels) {
			for j, cell := range row {
				l := widget.NewLabel(cell)
				if i == 0 {
					l.TextStyle.Bold = true
				}
				if j > 0 {
					l.Alignment = fyne.TextAlignTrailing
				}
				p.Levels.Add(l)
			}
		}
	}
	p.Levels.Refresh()
}
