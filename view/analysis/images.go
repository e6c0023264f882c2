package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/internal/human"
	"androprof/model/cost"
	"androprof/view/ui"
)

// NoImagesText is what the Images tab says for a run whose trace names no images.
const NoImagesText = "This run's trace names no images (program, libraries, loader): " +
	"they come with `androprof run` profiles. QEMU logs and older profiles have none."

// imageRow is an image of one process with its cost under the profile shown.
type imageRow struct {
	cost.ReportRow
	Process string // "pid name"
	Symbols string // where its function names came from
}

// The Images tab's drill-down levels, each a table.
const (
	levelImages = iota
	levelFunctions
	levelBlocks // the function's blocks over the instructions of the one chosen
	levels      // how many
)

// imagesTab answers seed 004's question, is the cost in the program, its libraries or the
// loader: a layer chart of every process over a table of images, which drills down to an
// image's functions, a function's blocks and a block's instructions, one level at a time
// under a path of buttons back up.
type imagesTab struct {
	Chart     *ui.ChartPanel // the layer chart; a tap on a process's bar selects it
	Empty     *widget.Label  // why the run has no images
	Back      *widget.Button
	Crumbs    [levels]*widget.Button // every image, the image chosen, the function chosen
	Hint      *widget.Label          // what choosing a row does
	Images    *ui.SortTable[imageRow]
	Functions *ui.SortTable[cost.ReportRow]
	Blocks    *blockList

	level       int
	run         string         // whose images are listed
	image       imageRow       // chosen, below levelImages
	function    cost.ReportRow // chosen, at levelBlocks
	pids        []int          // the chart's bars' processes, in bar order
	withProcess bool           // Images has the Process column
	cycles      float64        // of the images listed, for shares
	gen         int            // drill-down answers for an older choice are dropped
	pages       [levels]fyne.CanvasObject
	path, bar   *fyne.Container // the path's buttons, and they beside the hint
	main        fyne.CanvasObject
	v           *View
	content     fyne.CanvasObject
}

func newImagesTab(v *View) *imagesTab {
	t := &imagesTab{v: v}
	t.Chart = ui.NewChartPanel(v.Window, v.bg, chart.Bars, func(i int) {
		if i < len(t.pids) {
			v.SelectProcess(t.pids[i])
		}
	})
	t.Chart.Kind.Hide() // a layer chart is stacked bars: columns or a pie would lose the layers
	t.Empty = widget.NewLabel(NoImagesText)
	t.Empty.Wrapping = fyne.TextWrapWord
	t.Empty.Alignment = fyne.TextAlignCenter
	t.Images = ui.NewSortTable(v.Window, "images", t.imageCols(false), t.openImage)
	t.Functions = ui.NewSortTable(v.Window, "image-functions", functionCols(false), t.openFunction)
	t.Blocks = newBlockList(v, "function-blocks", nil)
	t.Back = widget.NewButtonWithIcon("Back", theme.NavigateBackIcon(), func() { t.goTo(t.level - 1) })
	for i := range t.Crumbs {
		t.Crumbs[i] = widget.NewButton("", func() { t.goTo(i) })
		t.Crumbs[i].Importance = widget.LowImportance
	}
	t.Crumbs[levelImages].SetText("All images")
	t.Hint = widget.NewLabel("")
	t.Hint.Truncation = fyne.TextTruncateEllipsis
	top := container.NewVSplit(t.Chart.Content(), t.Images.Content())
	top.Offset = 0.45
	// Below the first level the chart makes room for the function's or block's tables.
	t.pages = [levels]fyne.CanvasObject{top, t.Functions.Content(), t.Blocks.content}
	t.path = container.NewHBox(t.Back, t.Crumbs[0], t.Crumbs[1], t.Crumbs[2])
	t.bar = container.NewBorder(nil, nil, t.path, nil, t.Hint)
	t.main = container.NewBorder(t.bar, nil, nil, nil, container.NewStack(t.pages[:]...))
	t.content = container.NewStack(t.main, container.NewPadded(t.Empty))
	t.goTo(levelImages)
	t.show(nil)
	return t
}

// imageCols are the Images table's columns; withProcess adds whose image it is.
func (t *imagesTab) imageCols(withProcess bool) []ui.Column[imageRow] {
	cols := []ui.Column[imageRow]{
		ui.TextCol("Image", 200, func(r imageRow) string { return r.Key }),
		ui.TextCol("Kind", 80, func(r imageRow) string { return string(r.ImageKind) }),
		ui.IntCol("Instructions", 130, func(r imageRow) int64 { return r.Instructions }),
		ui.FloatCol("Cycles", 130, 0, func(r imageRow) float64 { return r.Cycles }),
		ui.QuantityCol("Time", "s", 100, func(r imageRow) float64 { return r.TimeS }),
		energyCol(100, func(r imageRow) cost.ReportRow { return r.ReportRow }),
		shareCol("% cycles", 80, func(r imageRow) float64 { return share(r.Cycles, t.cycles) }),
		ui.TextCol("Names from", 120, func(r imageRow) string { return r.Symbols }),
	}
	if withProcess {
		cols = slices.Insert(cols, 2, ui.TextCol("Process", 150, func(r imageRow) string { return r.Process }))
	}
	return cols
}

// share is part's share of whole, 0 when whole is.
func share(part, whole float64) float64 {
	if whole == 0 {
		return 0
	}
	return part / whole
}

// show lists the images of the selection; a drill-down stays where it was, priced anew.
func (t *imagesTab) show(res *results) {
	t.gen++
	has := res != nil && len(res.images) > 0
	showIf(t.Empty, res != nil && !has)
	showIf(t.main, res == nil || has)
	if !has {
		t.pids, t.run = nil, ""
		t.Images.Set(nil)
		t.goTo(levelImages)
		return
	}
	symbols := map[[2]string]string{}
	for _, im := range res.images {
		symbols[[2]string{strconv.Itoa(im.PID), im.Name}] = im.Symbols
	}
	var rows []imageRow
	procs := map[int]bool{}
	t.pids = t.pids[:0]
	t.cycles = 0
	for _, r := range res.layers.Rows {
		if !slices.Contains(t.pids, r.PID) {
			t.pids = append(t.pids, r.PID) // as FromLayers orders its bars
		}
		if res.sel.pid != 0 && r.PID != res.sel.pid {
			continue
		}
		pid := strconv.Itoa(r.PID)
		rows = append(rows, imageRow{ReportRow: r, Process: res.names[pid], Symbols: symbols[[2]string{pid, r.Image}]})
		procs[r.PID] = true
		t.cycles += r.Cycles
	}
	slices.SortStableFunc(rows, func(a, b imageRow) int { return cmp.Compare(b.Cycles, a.Cycles) })
	if multi := len(procs) > 1; multi != t.withProcess {
		t.withProcess = multi
		t.Images.SetColumns(t.imageCols(multi))
	}
	t.Images.Set(rows)
	var insns int64
	for _, r := range rows {
		insns += r.Instructions
	}
	t.Images.Count.SetText(fmt.Sprintf("%s · %s", human.Count(len(rows), "image", "images"),
		human.Count(insns, "instruction", "instructions")))

	image, function, level := t.image, t.function.Key, t.level
	sameRun := t.run == res.sel.run
	t.run = res.sel.run
	if level == levelImages || !sameRun {
		t.goTo(levelImages)
		return
	}
	for _, r := range rows {
		if r.PID == image.PID && r.Image == image.Image {
			if level < levelBlocks {
				function = ""
			}
			t.drillImage(r, function)
			return
		}
	}
	t.goTo(levelImages)
}

// chart draws the layer chart of every process for metric m.
func (t *imagesTab) chart(res *results, m chart.Metric) {
	if res == nil || len(res.images) == 0 {
		t.Chart.Set(chart.Chart{})
		return
	}
	t.Chart.Set(res.layers.Chart(m))
}

// goTo shows a drill-down level, keeping the choices above it; its table's choice is dropped
// so the same row can be chosen again.
func (t *imagesTab) goTo(level int) {
	level = max(level, levelImages)
	if level < t.level {
		t.gen++ // an answer still on its way is for a level left
	}
	t.level = level
	for i, p := range t.pages {
		showIf(p, i == level)
	}
	switch level {
	case levelImages:
		t.Images.Table.UnselectAll()
	case levelFunctions:
		t.Functions.Table.UnselectAll()
	}
	texts := [levels]string{"All images", "› " + crumb(t.image.Key), "› " + crumb(t.function.Key)}
	for i, c := range t.Crumbs {
		c.SetText(texts[i])
		showIf(c, i <= level)
		if i == level {
			c.Disable()
		} else {
			c.Enable()
		}
	}
	if level == levelImages {
		t.Back.Disable()
	} else {
		t.Back.Enable()
	}
	t.Hint.SetText([levels]string{"Choose an image to see its functions.", "Choose a function to see its blocks.",
		"Choose a block to see its instructions."}[level])
	if t.bar != nil { // the path grew or shrank: lay it out again
		t.path.Refresh()
		t.bar.Refresh()
	}
}

// showIf shows o when show is true, else hides it.
func showIf(o fyne.CanvasObject, show bool) {
	if show {
		o.Show()
	} else {
		o.Hide()
	}
}

// crumb is a name short enough for a button of the path (C++ names run to hundreds of characters).
func crumb(s string) string {
	const most = 40
	if r := []rune(s); len(r) > most {
		return string(r[:most-1]) + "…"
	}
	return s
}

// openImage lists an image's functions.
func (t *imagesTab) openImage(r imageRow) { t.drillImage(r, "") }

// drillImage lists an image's functions in the background and then, when function is not "",
// that function's blocks (the drill-down kept across a change of profile).
func (t *imagesTab) drillImage(r imageRow, function string) {
	if t.v.res == nil || t.v.analysis == nil {
		return
	}
	t.image = r
	t.goTo(levelFunctions)
	t.Functions.Set(nil)
	t.Functions.Count.SetText("Reading the functions of " + r.Key + "…")
	t.report(cost.ByFunction, r.PID, func(rows []cost.ReportRow) []cost.ReportRow {
		return slices.DeleteFunc(rows, func(f cost.ReportRow) bool { return f.Image != r.Image })
	}, func(rows []cost.ReportRow, err error) {
		if err != nil {
			t.Functions.Count.SetText(ui.ProblemText("list the functions of", r.Key, err))
			return
		}
		t.Functions.Set(rows)
		t.Functions.Count.SetText(human.Count(len(rows), "function", "functions") + " of " + r.Key)
		for _, f := range rows {
			if function != "" && f.Key == function {
				t.openFunction(f)
			}
		}
	})
}

// report groups the rows of process pid by by in the background, keeps those keep keeps (it
// runs there too) and hands them to done, unless the user chose something else meanwhile.
func (t *imagesTab) report(by cost.Grouping, pid int, keep func([]cost.ReportRow) []cost.ReportRow, done func([]cost.ReportRow, error)) {
	v := t.v
	t.gen++
	gen, a, ctx := t.gen, v.analysis, v.ctx
	opts := cost.ReportOptions{Run: v.res.sel.run, Profile: v.res.profile, By: by, PID: pid, FrequencyGHz: v.res.sel.freq}
	v.bg.Run(func() func() {
		rep, err := a.Report(ctx, opts)
		var rows []cost.ReportRow
		if err == nil {
			rows = keep(rep.Rows)
		}
		return func() {
			if gen == t.gen {
				done(rows, err)
			}
		}
	})
}

// noSymbol is the model's name for the function of blocks no symbol names.
const noSymbol = "(no symbol)"

// openFunction lists the blocks of a function of the image chosen, in the background.
func (t *imagesTab) openFunction(f cost.ReportRow) {
	if t.v.res == nil || t.v.analysis == nil {
		return
	}
	t.function = f
	t.goTo(levelBlocks)
	t.Blocks.set(nil)
	t.Blocks.Table.Count.SetText("Reading the blocks of " + f.Key + "…")
	d, img := t.v.res.data, t.image
	t.report(cost.ByBlock, img.PID, func(rows []cost.ReportRow) []cost.ReportRow {
		ids := map[int64]bool{}
		for _, b := range d.Blocks {
			if b.PID == img.PID && b.Image == img.Image && cmp.Or(b.Symbol, noSymbol) == f.Key {
				ids[b.ID] = true
			}
		}
		return slices.DeleteFunc(rows, func(r cost.ReportRow) bool { return !ids[r.BlockID] })
	}, func(rows []cost.ReportRow, err error) {
		if err != nil {
			t.Blocks.Table.Count.SetText(ui.ProblemText("list the blocks of", f.Key, err))
			return
		}
		t.Blocks.set(rows)
		t.Blocks.Table.Count.SetText(human.Count(len(rows), "block", "blocks") + " of " + f.Key + " in " + img.Key)
	})
}
