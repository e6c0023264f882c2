package analysis

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/model/cost"
	"androprof/view/ui"
)

// profileBrowser is the Profiles tab: every built-in and stored profile, where its numbers
// come from, and a way into the editor. The profile analyses use is chosen in the top bar.
type profileBrowser struct {
	Window     fyne.Window
	Profiles   *widget.List    // built-in, then stored profiles
	Status     *widget.Label   // why the profile list could not be read
	Title      *widget.Label   // the chosen profile's name, architecture and organization
	Details    *widget.Label   // where the chosen profile's numbers come from
	Categories *widget.Table   // the chosen profile's categories and costs
	Reference  *fyne.Container // the chosen profile's measured processor data
	Edit       *widget.Button  // opens the chosen profile in the editor
	Reload     *widget.Button  // lists the profiles again

	profiles controller.Profiles
	bg       *ui.Background // reads the database off the UI goroutine
	infos    []cost.ProfileInfo
	chosen   *cost.Profile
	content  fyne.CanvasObject
}

func newProfileBrowser(win fyne.Window, bg *ui.Background, profiles controller.Profiles, edit func(*cost.Profile), reload func()) *profileBrowser {
	v := &profileBrowser{Window: win, bg: bg, profiles: profiles}
	v.Status = widget.NewLabel("")
	v.Status.Importance = widget.DangerImportance
	v.Status.Wrapping = fyne.TextWrapWord
	v.Profiles = widget.NewList(func() int { return len(v.infos) }, newProfileRow, v.updateProfileRow)
	v.Profiles.OnSelected = func(id widget.ListItemID) { v.choose(id) }
	v.Title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.Title.Truncation = fyne.TextTruncateEllipsis
	v.Details = widget.NewLabel("")
	v.Details.Wrapping = fyne.TextWrapWord
	v.Categories = widget.NewTableWithHeaders(v.tableSize, func() fyne.CanvasObject { return widget.NewLabel("") }, v.updateCell)
	v.Categories.ShowHeaderColumn = false
	v.Categories.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 {
			o.(*widget.Label).SetText(categoryColumns[id.Col].title)
			o.(*widget.Label).TextStyle.Bold = true
		}
	}
	for i, c := range categoryColumns {
		v.Categories.SetColumnWidth(i, c.width)
	}
	v.Reference = container.New(layout.NewFormLayout())
	v.Edit = widget.NewButtonWithIcon("Edit in categorization editor", theme.DocumentCreateIcon(), func() {
		if v.chosen != nil && edit != nil {
			edit(v.chosen)
		}
	})
	v.Edit.Disable()
	v.Reload = widget.NewButtonWithIcon("Reload profiles", theme.ViewRefreshIcon(), reload)
	v.content = v.layout()
	return v
}

func (v *profileBrowser) layout() fyne.CanvasObject {
	list := container.NewBorder(nil, container.NewVBox(v.Status, container.NewHBox(v.Reload)), nil, nil, v.Profiles)
	sources := container.NewVScroll(v.Details)
	tabs := container.NewAppTabs(
		container.NewTabItem("Categories", v.Categories),
		container.NewTabItem("Reference data and sources", container.NewBorder(v.Reference, nil, nil, nil, sources)),
	)
	details := container.NewBorder(v.Title, container.NewHBox(v.Edit), nil, nil, tabs)
	split := container.NewHSplit(list, details)
	split.Offset = 0.4
	return split
}

// resolveInfo reads a listed profile; a built-in is read as built in, so a stored profile of
// the same name does not shadow it.
func resolveInfo(ctx context.Context, profiles controller.Profiles, in cost.ProfileInfo) (*cost.Profile, error) {
	return profiles.Open(ctx, in)
}

// Categories table columns.
var categoryColumns = []struct {
	title string
	width float32
}{{"Category", 220}, {"Cycles", 80}, {"Power (mW)", 100}, {"Instructions", 110}, {"Estimate?", 90}}

// showList lists the profiles read by the window (err: why they could not be read).
func (v *profileBrowser) showList(infos []cost.ProfileInfo, err error) {
	v.infos = infos
	v.Status.SetText("")
	if err != nil {
		v.Status.SetText(ui.ProblemText("list the profiles", "", err))
	}
	if len(infos) == 0 && err == nil {
		v.Status.SetText("No profiles: this build has no built-in profiles and the workspace holds none.")
	}
	v.Profiles.UnselectAll()
	v.show(nil)
	v.Profiles.Refresh()
	if len(infos) > 0 {
		v.Profiles.Select(0) // show a profile's categories rather than an empty table
	}
}

// Select shows the named profile's details.
func (v *profileBrowser) Select(name string) {
	for i, in := range v.infos {
		if in.Name == name {
			v.Profiles.Select(i)
			return
		}
	}
}

// ProfileNames lists the profiles shown, in order.
func (v *profileBrowser) ProfileNames() []string {
	names := make([]string, len(v.infos))
	for i, in := range v.infos {
		names[i] = in.Name
	}
	return names
}

func newProfileRow() fyne.CanvasObject {
	name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	summary := widget.NewLabel("")
	name.Truncation, summary.Truncation = fyne.TextTruncateEllipsis, fyne.TextTruncateEllipsis
	return container.New(&ui.WeightedColumns{Weights: []float32{3, 2}}, name, summary)
}

func (v *profileBrowser) updateProfileRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id < 0 || id >= len(v.infos) {
		return
	}
	in := v.infos[id]
	cells := o.(*fyne.Container).Objects
	cells[0].(*widget.Label).SetText(in.Name)
	cells[1].(*widget.Label).SetText(profileSummary(in))
}

func profileSummary(in cost.ProfileInfo) string {
	isas := make([]string, len(in.ISAs))
	for i, isa := range in.ISAs {
		isas[i] = string(isa)
	}
	cats := human.Count(in.Categories, "category", "categories")
	return strings.Join([]string{in.Origin, strings.Join(isas, ", "), cats}, " · ")
}

func (v *profileBrowser) choose(id widget.ListItemID) {
	if id < 0 || id >= len(v.infos) {
		return
	}
	in, profiles := v.infos[id], v.profiles
	v.bg.Run(func() func() {
		p, err := resolveInfo(context.Background(), profiles, in)
		return func() {
			if err != nil {
				ui.ShowProblem(v.Window, "open the profile", in.Name, err)
				return
			}
			v.show(p)
		}
	})
}

// show fills the details for p, or clears them when p is nil.
func (v *profileBrowser) show(p *cost.Profile) {
	v.chosen = p
	ui.Enable(v.Edit, p != nil)
	v.Reference.Objects = nil
	if p == nil {
		v.Title.SetText("Choose a profile to see its categories.")
		v.Details.SetText("")
	} else {
		v.Title.SetText(profileTitle(p))
		v.Details.SetText(sourcesText(p))
		for _, f := range referenceRows(p.Reference) {
			v.Reference.Add(widget.NewLabelWithStyle(f[0], fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}))
			v.Reference.Add(widget.NewLabel(f[1]))
		}
	}
	v.Reference.Refresh()
	v.Categories.Refresh()
}

func profileTitle(p *cost.Profile) string {
	var parts []string
	for _, s := range []string{p.Name, p.Architecture, p.Organization} {
		if s != "" && !slices.Contains(parts, s) {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " — ")
}

// sourcesText is the profile's own source and the citations of its reference data.
func sourcesText(p *cost.Profile) string {
	var lines []string
	if p.Source != "" {
		lines = append(lines, p.Source)
	}
	if cites := p.Citations; len(cites) > 0 {
		lines = append(lines, ui.CitationText(cites))
	}
	if len(lines) == 0 {
		return "No sources recorded."
	}
	return strings.Join(lines, "\n\n")
}

// referenceRows are the label/value pairs of a profile's reference data; zero means unknown.
func referenceRows(r cost.Reference) [][2]string {
	if r.IsZero() {
		return [][2]string{{"", "This profile has no reference data."}}
	}
	val := func(f float64, unit string) string {
		if f == 0 {
			return "—"
		}
		return strings.TrimSpace(strconv.FormatFloat(f, 'g', -1, 64) + " " + unit)
	}
	return [][2]string{
		{"Frequency", val(r.FrequencyGHz, "GHz")},
		{"CPI", val(r.CPI, "")},
		{"Processor power", val(r.ProcessorPowerW, "W")},
		{"Base instructions", val(r.BaseInstructions, "")},
		{"Base cache misses", val(r.BaseCacheMisses, "")},
		{"Memory access energy", val(r.MemoryAccessEnergy, "nJ")},
	}
}

// categoryRows lists the chosen profile's categories, Undefined last.
func (v *profileBrowser) categoryRows() []cost.Category {
	if v.chosen == nil {
		return nil
	}
	return append(append([]cost.Category(nil), v.chosen.Categories...), v.chosen.Undefined)
}

func (v *profileBrowser) tableSize() (int, int) {
	return len(v.categoryRows()), len(categoryColumns)
}

func (v *profileBrowser) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	rows := v.categoryRows()
	if id.Row < 0 || id.Row >= len(rows) {
		return
	}
	o.(*widget.Label).SetText(categoryCell(rows[id.Row], id.Col))
}

// categoryCell is the text of one cell of the Categories table.
func categoryCell(c cost.Category, col int) string {
	switch col {
	case 0:
		return c.Name
	case 1:
		return ui.FormatCost(c.Cycles)
	case 2:
		return ui.FormatCost(c.PowerMW)
	case 3:
		return strconv.Itoa(len(c.Instructions))
	case 4:
		for _, cite := range c.Citations {
			if cite.Estimate {
				return "yes"
			}
		}
		return "no"
	}
	return ""
}
