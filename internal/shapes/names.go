package shapes

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"androprof/formats/hprof/hproftest"
	"androprof/formats/traceview"
	"androprof/model/calls"
)

// Long names (finding 12): one name of about n bytes among NameRows(n) short ones. A report
// that pads every row to its widest cell writes rows × n bytes, quadratic in the file's size;
// one that cuts long cells writes about n. n must stay below the line formats' 1 MiB line
// limit (formats/internal/lines.MaxLine) for the file to be valid.

// NameRows is how many names besides the long one a long-name input of size n holds.
func NameRows(n int) int { return max(n/1024, 1) }

// LongName is the long name of an input of size n: n bytes, readable, no separators.
func LongName(n int) string { return strings.Repeat("Long", n/4) }

// LongClassDump writes an HPROF dump (1.0.3, 4-byte ids) of NameRows(n) classes with one
// instance each, and one more class whose name is LongName(n).
func LongClassDump(w io.Writer, n int) error {
	hw, err := hproftest.NewWriter(w, hproftest.Options{Version: "1.0.3"})
	if err != nil {
		return err
	}
	for i := range NameRows(n) + 1 {
		name := fmt.Sprintf("com.example.Class%d", i)
		if i == 0 {
			name = LongName(n)
		}
		id := uint64(100 + i)
		hw.String(uint64(1+i), name)
		hw.LoadClass(uint32(1+i), id, uint64(1+i))
		hw.ClassDump(hproftest.Class{ID: id, InstanceSize: 8})
		hw.Instance(uint64(1_000_000+i), id, nil)
	}
	return hw.Close()
}

// LongMethodTrace writes a classic Traceview trace (version 3, wall clock) of one thread that
// calls NameRows(n) methods once each, and one more method whose name is LongName(n).
func LongMethodTrace(w io.Writer, n int) error {
	tw, err := traceview.NewWriter(w, traceview.WriterOptions{Version: 3, Clock: calls.ClockWall})
	if err != nil {
		return err
	}
	if err := tw.Thread(calls.ThreadInfo{TID: 1, Name: "main"}); err != nil {
		return err
	}
	rows := NameRows(n) + 1
	for i := range rows {
		name := fmt.Sprintf("method%d", i)
		if i == 0 {
			name = LongName(n)
		}
		m := calls.MethodInfo{ID: uint64(4 * (i + 1)), Class: "com/example/Names", Name: name, Signature: "()V", File: "Names.java", Line: 1}
		if err := tw.Method(m); err != nil {
			return err
		}
	}
	for i := range rows {
		id := uint64(4 * (i + 1))
		t := uint64(10 * i)
		tw.Event(calls.MethodEvent{TID: 1, Method: id, Action: calls.Enter, Wall: t})
		tw.Event(calls.MethodEvent{TID: 1, Method: id, Action: calls.Exit, Wall: t + 5})
	}
	return tw.Close()
}

// LongSymbolLog writes a QEMU `-d in_asm,exec` log of NameRows(n) one-instruction ARM blocks,
// each in a function of its own and executed once, and one more whose function's name is
// LongName(n).
func LongSymbolLog(w io.Writer, n int) error {
	bw := bufio.NewWriter(w)
	for i := range NameRows(n) + 1 {
		name := fmt.Sprintf("function%d", i)
		if i == 0 {
			name = LongName(n)
		}
		pc := 0x10000 + 4*i
		fmt.Fprintf(bw, "----------------\nIN: %s\n0x%08x:  e1a00000  mov      r0, r0\n\n", name, pc)
		fmt.Fprintf(bw, "Trace 0: 0x7f%010x [00000000/%08x/00000000/00000000] %s\n", 0x1000*i, pc, name)
	}
	return bw.Flush()
}
