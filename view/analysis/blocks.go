package analysis

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/model/cost"
	"androprof/view/ui"
)

// blockInsnRow is one instruction of a block with the category the profile gives it.
type blockInsnRow struct {
	cost.BlockInstruction
	Category string
	Cycles   float64
	PowerMW  float64
}

// blocksTab lists the most costly basic blocks of the selection.
type blocksTab struct {
	Title       *widget.Label
	MissesFirst *widget.Check // shown for a cache-simulated run
	*blockList
	content fyne.CanvasObject
}

func newBlocksTab(v *View) *blocksTab {
	t := &blocksTab{}
	t.Title = widget.NewLabel("")
	t.Title.Truncation = fyne.TextTruncateEllipsis
	t.MissesFirst = newMissesFirst(v)
	t.blockList = newBlockList(v, "blocks", container.NewBorder(nil, nil, nil, t.MissesFirst, t.Title))
	t.content = t.blockList.content
	return t
}

// chooseBlockText is what the instruction list says until a block is chosen.
const chooseBlockText = "Choose a block to see its instructions."

// blockList is a table of blocks over the instructions of the one chosen, so a costly block
// can be read as the trace showed it: the Basic blocks tab, and the Images tab's last level.
type blockList struct {
	Table   *ui.SortTable[cost.ReportRow]
	Block   *widget.Label // the block whose instructions are listed
	Insns   *ui.SortTable[blockInsnRow]
	shown   int64 // block id listed, to drop answers for blocks no longer chosen
	extra   reportColumns
	v       *View
	content fyne.CanvasObject
}

// newBlockList makes the list; its table's Save CSV… suggests name.csv, and title, when not
// nil, goes above it.
func newBlockList(v *View, name string, title fyne.CanvasObject) *blockList {
	l := &blockList{v: v}
	l.Table = ui.NewSortTable(v.Window, name, blockCols(), l.listInstructions)
	l.Block = widget.NewLabel(chooseBlockText)
	l.Block.Truncation = fyne.TextTruncateEllipsis
	l.Insns = ui.NewSortTable(v.Window, "block-instructions", []ui.Column[blockInsnRow]{
		ui.TextCol("Address", 100, func(r blockInsnRow) string { return fmt.Sprintf("0x%x", r.Addr) }),
		ui.TextCol("Encoding", 100, func(r blockInsnRow) string { return r.Encoding }),
		ui.TextCol("Instruction", 240, func(r blockInsnRow) string { return strings.TrimSpace(r.Printed + " " + r.Operands) }),
		ui.TextCol("Mnemonic", 100, func(r blockInsnRow) string { return r.Instruction.Mnemonic }),
		ui.TextCol("ISA", 70, func(r blockInsnRow) string { return string(r.Instruction.ISA) }),
		ui.TextCol("Category", 180, func(r blockInsnRow) string { return r.Category }),
		ui.FloatCol("Cycles", 70, 6, func(r blockInsnRow) float64 { return r.Cycles }),
		ui.QuantityCol("Power", "W", 100, func(r blockInsnRow) float64 { return r.PowerMW / 1e3 }),
	}, nil)
	top := container.NewBorder(title, nil, nil, nil, l.Table.Content())
	bottom := container.NewBorder(l.Block, nil, nil, nil, l.Insns.Content())
	split := container.NewVSplit(top, bottom)
	split.Offset = 0.55
	l.content = split
	return l
}

// blockCols are a table of blocks' own columns, before its report's.
func blockCols() []ui.Column[cost.ReportRow] {
	return []ui.Column[cost.ReportRow]{
		ui.TextCol("Block", 300, func(r cost.ReportRow) string { return r.Key }),
		ui.IDCol("PID", 70, func(r cost.ReportRow) int64 { return int64(r.PID) }),
		ui.IntCol("Executions", 120, func(r cost.ReportRow) int64 { return r.Blocks }),
		ui.IntCol("Size", 60, func(r cost.ReportRow) int64 { return blockSize(r) }),
		ui.IntCol("Instructions", 130, func(r cost.ReportRow) int64 { return r.Instructions }),
		ui.FloatCol("Cycles", 130, 0, func(r cost.ReportRow) float64 { return r.Cycles }),
		ui.QuantityCol("Time", "s", 100, func(r cost.ReportRow) float64 { return r.TimeS }),
		energyCol(100, reportRow),
	}
}

// setReport lists rep's blocks with its own columns (misses, stalls, pipeline cycles) after
// the blocks' (a nil rep lists none).
func (l *blockList) setReport(rep *cost.Report) {
	if cols, changed := l.extra.update(rep); changed {
		l.Table.SetColumns(append(blockCols(), cols...))
	}
	var rows []cost.ReportRow
	if rep != nil {
		rows = rep.Rows
	}
	l.set(rows)
}

// set lists blocks, none of them chosen.
func (l *blockList) set(rows []cost.ReportRow) {
	l.shown = 0
	l.Insns.Set(nil)
	l.Block.SetText(chooseBlockText)
	l.Table.Set(rows)
}

// blockSize is the block's static instruction count.
func blockSize(r cost.ReportRow) int64 {
	if r.Blocks == 0 {
		return 0
	}
	return r.Instructions / r.Blocks
}

func (t *blocksTab) show(res *results) {
	showMissesFirst(t.MissesFirst, res)
	if res == nil {
		t.Title.SetText("")
		t.setReport(nil)
		return
	}
	who := "all processes"
	for _, p := range res.data.Processes {
		if p.PID == res.sel.pid {
			who = "process " + processLabel(p.Process)
		}
	}
	t.Title.SetText(blocksTitle(len(res.blocks.Rows), who, res.profile.Name, res.sel.missesFirst && res.data.Cache != nil))
	t.setReport(res.blocks)
	scrollToMisses(t.Table, res)
}

// blocksTitle says which blocks are listed, of whom, in which order.
func blocksTitle(n int, who, profile string, missesFirst bool) string {
	what, order := fmt.Sprintf("All %d executed blocks", n), "most cycles first under "+profile
	if n == blocksTop {
		what = fmt.Sprintf("The %d most costly blocks", blocksTop)
	}
	if missesFirst {
		order = "most misses first (L1, then L2 and L3)"
		if n == blocksTop {
			what = fmt.Sprintf("The %d blocks that miss most", blocksTop)
		}
	}
	return fmt.Sprintf("%s of %s, %s", what, who, order)
}

// listInstructions reads a block's instructions in the background and classifies them with
// the profile shown.
func (l *blockList) listInstructions(r cost.ReportRow) {
	v := l.v
	if v.res == nil || v.analysis == nil || r.BlockID == 0 {
		return
	}
	l.shown = r.BlockID
	l.Block.SetText("Instructions of " + r.Key)
	id, store, cl, ctx := r.BlockID, v.ws, cost.NewClassifier(v.res.profile), v.ctx
	v.bg.Run(func() func() {
		insns, err := store.BlockInstructions(ctx, id)
		rows := make([]blockInsnRow, len(insns))
		for i, in := range insns {
			c := cl.Classify(in.Instruction)
			rows[i] = blockInsnRow{in, c.Name, c.Cycles, c.PowerMW}
		}
		return func() {
			if l.shown != id {
				return
			}
			if err != nil {
				l.Block.SetText(ui.ProblemText("read the instructions of", r.Key, err))
				return
			}
			l.Insns.Set(rows)
		}
	})
}
