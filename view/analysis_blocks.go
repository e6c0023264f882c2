package view

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/model"
)

// blockInsnRow is one instruction of a block with the category the profile gives it.
type blockInsnRow struct {
	model.BlockInstruction
	Category string
	Cycles   float64
	PowerMW  float64
}

// blocksTab lists the most costly basic blocks; choosing one lists its instructions, so a
// costly block can be read as the trace showed it.
type blocksTab struct {
	Title   *widget.Label
	Table   *sortTable[model.ReportRow]
	Block   *widget.Label // the block whose instructions are listed
	Insns   *sortTable[blockInsnRow]
	shown   int64 // block id listed, to drop answers for blocks no longer chosen
	v       *AnalysisView
	content fyne.CanvasObject
}

func newBlocksTab(v *AnalysisView) *blocksTab {
	t := &blocksTab{v: v}
	t.Title = widget.NewLabel("")
	t.Title.Truncation = fyne.TextTruncateEllipsis
	t.Table = newSortTable(v.Window, "blocks", []column[model.ReportRow]{
		textCol("Block", 300, func(r model.ReportRow) string { return r.Key }),
		idCol("PID", 70, func(r model.ReportRow) int64 { return int64(r.PID) }),
		intCol("Executions", 120, func(r model.ReportRow) int64 { return r.Blocks }),
		intCol("Size", 60, func(r model.ReportRow) int64 { return blockSize(r) }),
		intCol("Instructions", 130, func(r model.ReportRow) int64 { return r.Instructions }),
		floatCol("Cycles", 130, 0, func(r model.ReportRow) float64 { return r.Cycles }),
		quantityCol("Time", "s", 100, func(r model.ReportRow) float64 { return r.TimeS }),
		quantityCol("Energy", "J", 100, func(r model.ReportRow) float64 { return r.EnergyJ }),
	}, t.listInstructions)
	t.Block = widget.NewLabel("Choose a block to see its instructions.")
	t.Block.Truncation = fyne.TextTruncateEllipsis
	t.Insns = newSortTable(v.Window, "block-instructions", []column[blockInsnRow]{
		textCol("Address", 100, func(r blockInsnRow) string { return fmt.Sprintf("0x%x", r.Addr) }),
		textCol("Encoding", 100, func(r blockInsnRow) string { return r.Encoding }),
		textCol("Instruction", 240, func(r blockInsnRow) string { return strings.TrimSpace(r.Printed + " " + r.Operands) }),
		textCol("Mnemonic", 100, func(r blockInsnRow) string { return r.Instruction.Mnemonic }),
		textCol("ISA", 70, func(r blockInsnRow) string { return string(r.Instruction.ISA) }),
		textCol("Category", 180, func(r blockInsnRow) string { return r.Category }),
		floatCol("Cycles", 70, 6, func(r blockInsnRow) float64 { return r.Cycles }),
		quantityCol("Power", "W", 100, func(r blockInsnRow) float64 { return r.PowerMW / 1e3 }),
	}, nil)
	top := container.NewBorder(t.Title, nil, nil, nil, t.Table.Content())
	bottom := container.NewBorder(t.Block, nil, nil, nil, t.Insns.Content())
	split := container.NewVSplit(top, bottom)
	split.Offset = 0.55
	t.content = split
	return t
}

// blockSize is the block's static instruction count.
func blockSize(r model.ReportRow) int64 {
	if r.Blocks == 0 {
		return 0
	}
	return r.Instructions / r.Blocks
}

func (t *blocksTab) show(res *results) {
	t.shown = 0
	t.Insns.Set(nil)
	t.Block.SetText("Choose a block to see its instructions.")
	if res == nil {
		t.Title.SetText("")
		t.Table.Set(nil)
		return
	}
	who := "all processes"
	for _, p := range res.data.Processes {
		if p.PID == res.sel.pid {
			who = "process " + processLabel(p.Process)
		}
	}
	what := fmt.Sprintf("All %d executed blocks", len(res.blocks.Rows))
	if len(res.blocks.Rows) == blocksTop {
		what = fmt.Sprintf("The %d most costly blocks", blocksTop)
	}
	t.Title.SetText(fmt.Sprintf("%s of %s, most cycles first under %s", what, who, res.profile.Name))
	t.Table.Set(res.blocks.Rows)
}

// listInstructions reads a block's instructions in the background and classifies them with
// the profile shown.
func (t *blocksTab) listInstructions(r model.ReportRow) {
	v := t.v
	if v.res == nil || v.analysis == nil || r.BlockID == 0 {
		return
	}
	t.shown = r.BlockID
	t.Block.SetText("Instructions of " + r.Key)
	id, store, cl, ctx := r.BlockID, v.ws, model.NewClassifier(v.res.profile), v.ctx
	v.bg.run(func() func() {
		insns, err := store.BlockInstructions(ctx, id)
		rows := make([]blockInsnRow, len(insns))
		for i, in := range insns {
			c := cl.Classify(in.Instruction)
			rows[i] = blockInsnRow{in, c.Name, c.Cycles, c.PowerMW}
		}
		return func() {
			if t.shown != id {
				return
			}
			if err != nil {
				t.Block.SetText(problemText("read the instructions of", r.Key, err))
				return
			}
			t.Insns.Set(rows)
		}
	})
}
