package cost

import (
	"testing"

	modelmodel "androprof/model"
)

// imageRun is two processes running the same three images; every instruction costs 2 cycles.
func imageRun() (*RunData, *Profile) {
	p := NewProfile("flat", ARM)
	p.Undefined.Cycles = 2
	mix := func(n int64) []InstructionCount {
		return []InstructionCount{{Instruction: Instruction{ISA: ARM, Mnemonic: "ADD"}, Count: n}}
	}
	var blocks []BlockSummary
	for _, pid := range []int{10, 11} {
		blocks = append(blocks,
			BlockSummary{ID: int64(pid*10 + 1), PID: pid, PC: 0x1000, ISA: ARM, Symbol: "main", Image: "prog", ImageKind: ImageProgram, Insns: 2, Executions: 5, Mix: mix(2)},
			BlockSummary{ID: int64(pid*10 + 2), PID: pid, PC: 0x2000, ISA: ARM, Symbol: "BZ2_compressBlock", Image: "libbz2.so.1.0.4", ImageKind: ImageLibrary, Insns: 4, Executions: 100, Mix: mix(4)},
			BlockSummary{ID: int64(pid*10 + 3), PID: pid, PC: 0x2100, ISA: ARM, Symbol: "libbz2.so.1.0.4+0x2100", Image: "libbz2.so.1.0.4", ImageKind: ImageLibrary, Insns: 1, Executions: 7, Mix: mix(1)},
			BlockSummary{ID: int64(pid*10 + 4), PID: pid, PC: 0x3000, ISA: ARM, Symbol: "_dl_start", Image: "ld-linux-armhf.so.3", ImageKind: ImageLoader, Insns: 3, Executions: 1, Mix: mix(3)})
	}
	procs := []ProcessSummary{{Process: modelmodel.Process{PID: 10}, Instructions: 10 + 400 + 7 + 3}, {Process: modelmodel.Process{PID: 11}, Instructions: 420}}
	return NewRunData("r", procs, blocks), p
}

func TestReportByImageAndLayer(t *testing.T) {
	d, p := imageRun()
	rep, err := d.Report(ReportOptions{Run: "r", Profile: p, By: ByImage, PID: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"libbz2.so.1.0.4": 407, "prog": 10, "ld-linux-armhf.so.3": 3}
	var sum int64
	for _, r := range rep.Rows {
		if want[r.Key] != r.Instructions || r.Image != r.Key || r.PID != 10 {
			t.Errorf("row %+v, want %d instructions", r, want[r.Key])
		}
		sum += r.Instructions
	}
	if len(rep.Rows) != 3 || rep.Rows[0].Key != "libbz2.so.1.0.4" || rep.Rows[0].ImageKind != ImageLibrary || sum != rep.Total.Instructions {
		t.Errorf("rows %+v, total %d", rep.Rows, rep.Total.Instructions)
	}
	all, _ := d.Report(ReportOptions{Run: "r", Profile: p, By: ByImage})
	if len(all.Rows) != 6 || all.Rows[0].Key != "10:libbz2.so.1.0.4" {
		t.Errorf("several processes keep their images apart: %+v", all.Rows)
	}
	layers, _ := d.Report(ReportOptions{Run: "r", Profile: p, By: ByLayer})
	if len(layers.Rows) != 3 || layers.Rows[0].Key != "library" || layers.Rows[0].Instructions != 814 || layers.Rows[0].Cycles != 1628 {
		t.Errorf("layers %+v", layers.Rows)
	}
	funcs, _ := d.Report(ReportOptions{Run: "r", Profile: p, By: ByFunction, PID: 11})
	if funcs.Rows[0].Key != "BZ2_compressBlock" || funcs.Rows[0].Image != "libbz2.so.1.0.4" {
		t.Errorf("function rows carry their image: %+v", funcs.Rows[0])
	}
}

func TestCompareImagesSharesLoaderRow(t *testing.T) {
	a := &Report{Rows: []ReportRow{{Image: "bzip2", ImageKind: ImageProgram, Instructions: 5}, {Image: "ld-linux-armhf.so.3", ImageKind: ImageLoader, Instructions: 3, Cycles: 6}}}
	b := &Report{Rows: []ReportRow{{Image: "ld.so.1", ImageKind: ImageLoader, Instructions: 4, Cycles: 8}, {Image: "bzip2", ImageKind: ImageProgram, Instructions: 6}}}
	rows := CompareImages([]*Report{a, b})
	if len(rows) != 2 || rows[0].Key != "(loader)" || rows[0].Names[0] != "ld-linux-armhf.so.3" || rows[0].Names[1] != "ld.so.1" ||
		rows[0].Cells[1].Instructions != 4 || rows[1].Cells[0].Instructions != 5 {
		t.Errorf("%+v", rows)
	}
}

func TestSummarizeSyscalls(t *testing.T) {
	calls := []Syscall{{PID: 1, TID: 1, Number: 3, Name: "read", Count: 2, Insns: 100}, {PID: 1, TID: 2, Number: 3, Name: "read", Count: 3, Insns: 50},
		{PID: 1, TID: 1, Number: 248, Name: "exit_group", Count: 1, Insns: 7}, {PID: 2, TID: 2, Number: 3, Name: "read", Count: 9, Insns: 9}}
	rows := SummarizeSyscalls(calls, 1, false)
	if len(rows) != 2 || rows[0].Name != "read" || rows[0].Count != 5 || rows[0].Insns != 150 || rows[0].InsnsPerCall() != 30 {
		t.Errorf("per process: %+v", rows)
	}
	if rows := SummarizeSyscalls(calls, 0, true); len(rows) != 4 || rows[0].PID != 2 || rows[1].TID != 2 {
		t.Errorf("per thread, most frequent first: %+v", rows)
	}
}
