// Package qemulog reads what QEMU's own logging writes about a guest program: `-d in_asm`
// translation logs and `-d exec` execution logs, in every layout QEMU has printed them
// (docs/formats.md#qemu-logs). A Reader streams one log's records; ReadLogs and ImportLogs read
// the logs of one program together into a model.BlockSink.
package qemulog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"androprof/formats/internal/blocks"
	"androprof/formats/internal/lines"
	"androprof/internal/cutline"
	"androprof/internal/inputerr"
	"androprof/model/cost"
)

// ErrNotQEMULog says a file holds neither translation blocks nor Trace lines, so format
// detection can try another reader.
var ErrNotQEMULog = errors.New("not a QEMU -d in_asm/exec log")

// Exec is one executed-block line of a `-d exec` log.
type Exec struct {
	PC  uint64
	CPU int      // vCPU index; each user-mode guest thread is its own vCPU; -1 when not printed
	ISA cost.ISA // from the flags where the layout tells ARM from Thumb; "" when unknown
}

// Record is a Block, an Exec, or a Stopped execution.
type Record struct {
	Block *cost.Block
	Exec  *Exec
	// Stopped is a block QEMU logged a Trace line for and then did not run: another thread
	// asked the vCPU to stop at the block's entry ("Stopped execution of TB chain before …").
	// It cancels one execution of that Trace line's block, as in Exec.
	Stopped *Exec
}

const thumbFlag = 0x00800000 // set in the first bracketed field of ARM Trace lines on QEMU 6.1+

type recKind uint8

const (
	kindNone recKind = iota
	kindBlock
	kindExec
	kindStopped
)

// isaCode is a model.ISA as a small number, so hot maps hash one byte instead of a string.
type isaCode uint8

const (
	isaUnknown isaCode = iota
	isaARM
	isaThumb
	isaMIPS
	isaX86
	isaA64
	isaOther // an instruction set this package has no code for; its blocks keep their ISA string
)

var isaByCode = [...]cost.ISA{isaUnknown: "", isaARM: cost.ARM, isaThumb: cost.Thumb, isaMIPS: cost.MIPS, isaX86: cost.X86_64, isaA64: cost.AArch64}

func codeOf(isa cost.ISA) isaCode {
	switch isa {
	case "":
		return isaUnknown
	case cost.ARM:
		return isaARM
	case cost.Thumb:
		return isaThumb
	case cost.MIPS:
		return isaMIPS
	case cost.X86_64:
		return isaX86
	case cost.AArch64:
		return isaA64
	}
	return isaOther
}

// guestWidth is what a log has shown of its guest's word size, which tells A64 from ARM: both
// print one 8-digit word per instruction (docs/formats.md#which-instruction-set).
type guestWidth uint8

const (
	widthUnknown guestWidth = iota
	width32                 // ARM, Thumb, MIPS
	width64                 // AArch64, x86-64
)

func widthOf(isa cost.ISA) guestWidth {
	switch isa {
	case cost.AArch64, cost.X86_64:
		return width64
	case cost.ARM, cost.Thumb, cost.MIPS:
		return width32
	}
	return widthUnknown
}

// objdRun is one `0x…:` line followed by OBJD-T byte lines: QEMU without a disassembler
// dumps a whole block's bytes after its first address.
type objdRun struct {
	addr  uint64
	line  int64
	bytes []byte
}

// queued is a record read ahead while an OBJD-T block waited for the Trace line telling its mode.
type queued struct {
	kind recKind
	blk  *cost.Block
	ex   Exec
}

// Reader streams the records of one QEMU log. Memory is bounded by the largest block.
//
// The hot path (one Trace line per executed block, ~67 bytes each, billions of them) reads
// lines in place from a bufio.Reader, parses hex by hand and allocates nothing; ImportLogs
// uses it through scan. Next wraps the same path for callers that want Records.
type Reader struct {
	br   *bufio.Reader
	file string
	hint []cost.ISA
	// one is the only instruction set the guest may run (isaUnknown when there are several);
	// flagsTell says Trace flags may tell ARM from Thumb.
	one       isaCode
	flagsTell bool
	width     guestWidth // what the log has shown so far; one log is one guest
	words     []cost.ISA // what a block of 8-digit words may be (wordISAs)
	line      int64
	off       int64 // bytes consumed, for progress
	long      []byte
	any       bool // saw at least one record

	inBlock   bool
	blk       *cost.Block
	blkX86    bool   // the open block's encodings are x86 bytes ("49 89 d1")
	hexBuf    []byte // x86 bytes of the line being read, as hex digits
	objd      []objdRun
	objdBytes int
	over      int   // instruction lines of the open block past blocks.MaxInsns: counted, not kept
	overLine  int64 // the first of them

	ex     Exec     // the Exec (or Stopped) scan found
	exCode isaCode  // ex.ISA as a code
	recent [16]Exec // the latest Trace lines, for the Stopped line that cancels one
	nrec   int
	out    *cost.Block // the Block scan found

	outRuns  []objdRun   // lr.out's OBJD-T bytes, not yet decoded
	outWait  bool        // lr.out is ARM or A64 text that waits for the log to show its width
	held     *cost.Block // an OBJD-T or waiting block whose mode the next record may tell
	heldRuns []objdRun
	queue    []queued
	errAt    error // an error found while a held block was still to be returned

	intern map[string]string
}

// NewReader reads r; name is used in errors. isas is what the guest may run: it decides
// the instruction set of log text that carries no encoding (QEMU 0.x, MIPS).
func NewReader(r io.Reader, name string, isas []cost.ISA) *Reader {
	lr := &Reader{br: bufio.NewReaderSize(r, 256<<10), file: name, hint: isas, intern: map[string]string{}}
	if len(isas) == 1 {
		lr.one = codeOf(isas[0])
	}
	lr.flagsTell = lr.one == isaUnknown && lr.mayBe(cost.ARM, cost.Thumb)
	lr.words = wordISAs(isas)
	return lr
}

// sniffLimit is how far into a file a QEMU log must show its first record. QEMU logs the
// first block's translation and execution before anything else of size.
const sniffLimit = 4 << 20

// Sniff answers format detection from a file's first bytes: nil when the file starts as
// QEMU logs do (startsRecord) or its first record, within sniffLimit bytes, parses;
// ErrNotQEMULog otherwise, since a QEMU log garbled before its first record is no longer
// recognisable as one. What is wrong with a log it claims is the import's to report, with a
// line: a block too long or a line too long is not "another format".
func Sniff(head []byte) error {
	if startsRecord(head) {
		return nil
	}
	lr := NewReader(bytes.NewReader(head[:min(len(head), sniffLimit)]), "", []cost.ISA{})
	if _, err := lr.scanRaw(); err != nil { // scanRaw: an OBJD-T block needs no Trace line here
		return ErrNotQEMULog
	}
	return nil
}

// startsRecord tells a file whose first line, after QEMU's blank and "----" separator lines,
// opens a translation ("IN:") or is an execution ("Trace 0: 0x…", "Trace 0x…", "Trace (nil)"):
// plainly a QEMU log, even when that record is broken.
func startsRecord(head []byte) bool {
	for len(head) > 0 {
		ln, rest, _ := bytes.Cut(head, []byte("\n"))
		ln = bytes.TrimSuffix(ln, []byte("\r"))
		switch {
		case len(bytes.Trim(ln, "-")) == 0:
			head = rest
			continue
		case bytes.HasPrefix(ln, []byte("IN:")):
			return true
		case len(ln) > 6 && string(ln[:6]) == "Trace " && (isDigit(ln[6]) || ln[6] == '('):
			return true
		}
		return false
	}
	return false
}

// Line is the number of the last line read.
func (lr *Reader) Line() int64 { return lr.line }

// Offset is the number of bytes read so far, for progress.
func (lr *Reader) Offset() int64 { return lr.off }

func (lr *Reader) errorf(format string, args ...any) error {
	return &inputerr.Error{File: lr.file, Line: lr.line, Msg: fmt.Sprintf(format, args...)}
}

func (lr *Reader) errorAt(line int64, format string, args ...any) error {
	return &inputerr.Error{File: lr.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (lr *Reader) notQEMU() error { return fmt.Errorf("%s: %w", lr.file, ErrNotQEMULog) }

// Next returns the next record, io.EOF at the end, or ErrNotQEMULog (wrapped with the file
// name) when the file ended without any record.
func (lr *Reader) Next() (Record, error) {
	k, err := lr.scan()
	if err != nil {
		return Record{}, err
	}
	if k == kindBlock {
		return Record{Block: lr.out}, nil
	}
	e := lr.ex
	if k == kindStopped {
		return Record{Stopped: &e}, nil
	}
	return Record{Exec: &e}, nil
}

// scan finds the next record: a Block in lr.out or an Exec in lr.ex. An OBJD-T block whose
// mode (ARM or Thumb) the bytes cannot tell is held back until the next record: QEMU logs a
// block's translation right before its first execution, whose Trace flags tell the mode.
func (lr *Reader) scan() (recKind, error) {
	if len(lr.queue) > 0 {
		q := lr.queue[0]
		lr.queue = lr.queue[1:]
		lr.out, lr.ex, lr.exCode = q.blk, q.ex, codeOf(q.ex.ISA)
		return q.kind, nil
	}
	if lr.errAt != nil {
		return kindNone, lr.errAt
	}
	for {
		k, err := lr.scanRaw()
		if lr.held == nil {
			if err == nil && k == kindBlock && lr.waiting() {
				lr.held, lr.heldRuns = lr.out, lr.outRuns
				continue
			}
			return k, err
		}
		h, runs := lr.held, lr.heldRuns
		lr.held, lr.heldRuns = nil, nil
		if derr := lr.settle(h, runs, err == nil && k == kindExec); derr != nil {
			return kindNone, derr
		}
		switch {
		case err != nil:
			lr.errAt = err
		case k == kindExec || k == kindStopped:
			lr.queue = append(lr.queue[:0], queued{kind: k, ex: lr.ex})
		case k == kindBlock && lr.waiting():
			lr.held, lr.heldRuns = lr.out, lr.outRuns
		case k == kindBlock:
			lr.queue = append(lr.queue[:0], queued{kind: kindBlock, blk: lr.out})
		}
		lr.out = h
		return kindBlock, nil
	}
}

// waiting tells a block scanRaw just read whose instruction set the next record may tell.
func (lr *Reader) waiting() bool { return lr.outRuns != nil || lr.outWait }

// settle decides a held block's instruction set once the record after it was read: a Trace
// line for it tells ARM from Thumb (6.1+ flags), and any record may have shown the log's width.
func (lr *Reader) settle(h *cost.Block, runs []objdRun, execNext bool) error {
	if runs == nil {
		isa, err := lr.wordISA(h)
		h.ISA = isa
		return err
	}
	mode := isaARM
	switch {
	case lr.width == width64 && lr.mayBe(cost.AArch64):
		mode = isaA64
	case len(lr.hint) > 0 && !lr.mayBe(cost.ARM):
		mode = isaThumb
	}
	if execNext && lr.ex.PC == h.PC && (lr.exCode == isaARM || lr.exCode == isaThumb) {
		mode = lr.exCode
	}
	return lr.decodeBlock(h, runs, mode)
}

// scanRaw reads lines until one record is complete. A block whose OBJD-T bytes wait for
// their mode comes back undecoded, with lr.outRuns set.
func (lr *Reader) scanRaw() (recKind, error) {
	for {
		ln, err := lr.nextLine()
		if err != nil {
			return kindNone, err
		}
		if lr.inBlock {
			done, err := lr.blockLine(ln)
			if err != nil {
				return kindNone, err
			}
			if done {
				return kindBlock, lr.finishBlock()
			}
			continue
		}
		if len(ln) >= 6 && ln[0] == 'T' && string(ln[:6]) == "Trace " {
			if err := lr.parseTrace(ln); err != nil {
				return kindNone, err
			}
			lr.any = true
			lr.recent[lr.nrec%len(lr.recent)] = lr.ex
			lr.nrec++
			return kindExec, nil
		}
		if bytes.HasPrefix(ln, []byte("Stopped execution of TB chain before ")) {
			if err := lr.stopped(ln); err != nil {
				return kindNone, err
			}
			return kindStopped, nil
		}
		if bytes.HasPrefix(ln, []byte("Linking TBs ")) {
			return kindNone, lr.errorf("QEMU chained blocks here (a \"Linking TBs\" line), and chained blocks get no Trace line: log with -d in_asm,exec,nochain")
		}
		if len(ln) >= 3 && string(ln[:3]) == "IN:" {
			lr.inBlock, lr.blkX86 = true, false
			lr.blk = &cost.Block{Symbol: string(bytes.TrimSpace(ln[3:]))}
			lr.objd, lr.objdBytes, lr.over = lr.objd[:0], 0, 0
			continue
		}
		// Anything else is another -d item (cpu, page, strace, out_asm ...) and is skipped;
		// control bytes mean the file is not text, or the log was garbled.
		if binaryLine(ln) {
			if !lr.any {
				return kindNone, lr.notQEMU()
			}
			return kindNone, lr.errorf("binary data in a text log (garbled?): %q", clip(ln))
		}
	}
}

// nextLine returns the next line without its line end, valid until the next call. A line is
// at most lines.MaxLine: QEMU's longest lines are an IN: line's symbol (a C++ name runs to a
// few KiB) and -d cpu register dumps (a few hundred bytes); a line of a MiB is no log line.
func (lr *Reader) nextLine() ([]byte, error) {
	ln, err := lr.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.long = append(lr.long[:0], ln...)
		for err == bufio.ErrBufferFull && len(lr.long) <= lines.MaxLine {
			ln, err = lr.br.ReadSlice('\n')
			lr.long = append(lr.long, ln...)
		}
		ln = lr.long
		if len(ln) > lines.MaxLine {
			lr.line++
			return nil, lr.errorf("a line longer than 1 MiB: no QEMU log line comes near it")
		}
	}
	lr.off += int64(len(ln))
	switch {
	case err == io.EOF && len(ln) == 0:
		return nil, lr.atEOF()
	case err == io.EOF:
		lr.line++
		if !lr.any && !lr.inBlock {
			return nil, lr.notQEMU()
		}
		return nil, lr.errorf("%v", cutline.ErrCut)
	case err != nil:
		return nil, &inputerr.Error{File: lr.file, Line: lr.line + 1, Msg: "read: " + err.Error(), Err: err}
	}
	lr.line++
	ln = ln[:len(ln)-1]
	if len(ln) > 0 && ln[len(ln)-1] == '\r' {
		ln = ln[:len(ln)-1]
	}
	return ln, nil
}

func (lr *Reader) atEOF() error {
	if lr.over > 0 {
		return lr.blockTooLong()
	}
	if lr.inBlock {
		if len(lr.blk.Insns) == 0 && len(lr.objd) == 0 {
			return lr.errorf("the file ends right after an IN: line: truncated?")
		}
		return lr.errorf("the file ends inside the block at 0x%x, before its blank line: truncated?", lr.blk.PC)
	}
	if !lr.any {
		return lr.notQEMU()
	}
	return io.EOF
}

// binaryLine tells text from bytes no QEMU log prints: control characters other than tab.
func binaryLine(ln []byte) bool {
	for _, c := range ln {
		if c < 0x20 && c != '\t' || c == 0x7f {
			return true
		}
	}
	return false
}

// blockLine takes one line inside an IN: block; done reports the blank line that ends it.
func (lr *Reader) blockLine(ln []byte) (done bool, err error) {
	switch {
	case len(ln) == 0:
		return true, nil
	case len(ln) > 2 && ln[0] == '0' && ln[1] == 'x':
		return false, lr.insnLine(ln)
	case bytes.HasPrefix(ln, []byte("OBJD-T:")) && lr.over > 0:
		return false, nil
	case bytes.HasPrefix(ln, []byte("OBJD-T:")):
		if len(lr.objd) == 0 {
			return false, lr.errorf("OBJD-T line without the address line before it")
		}
		return false, lr.objdLine(ln[len("OBJD-T:"):])
	case bytes.HasPrefix(ln, []byte("Disassembler disagrees")), bytes.HasPrefix(ln, []byte("Please report this")):
		return false, nil // QEMU's own note after a disassembler bug; the block is still whole
	}
	if binaryLine(ln) {
		return false, lr.errorf("binary data inside the block at 0x%x (garbled?): %q", lr.blk.PC, clip(ln))
	}
	return false, lr.errorf("unexpected line inside the block at 0x%x, which should end with a blank line: %q", lr.blk.PC, clip(ln))
}

// insnLine reads "0x00010344:  2801       cmp      r0, #1", x86's "0x004014f2:  49 89 d1
// movq %rdx, %r9" and the older layouts, or the bare "0x00010344:  " that precedes OBJD-T lines.
func (lr *Reader) insnLine(ln []byte) error {
	colon := bytes.IndexByte(ln, ':')
	if colon < 3 {
		return lr.errorf("instruction line without an address: %q", clip(ln))
	}
	addr, ok := parseHex(ln[2:colon])
	if !ok {
		return lr.errorf("bad instruction address %q", clip(ln[:colon]))
	}
	rest := trimLeft(ln[colon+1:])
	x86, tail := spacedBytes(lr.hexBuf, rest)
	lr.hexBuf = x86
	if len(x86) > 2*maxX86Bytes {
		return lr.errorf("more than %d x86 bytes on the line of 0x%x: no instruction is that long", maxX86Bytes, addr)
	}
	if lr.blkX86 && len(x86) > 0 && len(tail) == 0 {
		return lr.moreBytes(addr, x86)
	}
	if lr.over > 0 || len(lr.blk.Insns)+len(lr.objd) >= blocks.MaxInsns {
		if lr.over == 0 {
			lr.overLine = lr.line
		}
		lr.over++
		return nil
	}
	if len(lr.blk.Insns) == 0 && len(lr.objd) == 0 {
		lr.blk.PC, lr.blk.Line = addr, lr.line
	}
	if len(rest) == 0 {
		lr.objd = append(lr.objd, objdRun{addr: addr, line: lr.line})
		return nil
	}
	if len(lr.objd) > 0 {
		return lr.errorf("instruction text after OBJD-T bytes in the block at 0x%x", lr.blk.PC)
	}
	if string(rest) == "unable to read memory" {
		return lr.errorf("QEMU could not read the code at 0x%x, so the block's length is unknown", addr)
	}
	if len(x86) > 0 && len(tail) > 0 {
		lr.blkX86 = true
		mn, ops := cutToken(tail)
		lr.blk.Insns = append(lr.blk.Insns, cost.Insn{Addr: addr, Encoding: string(x86), Mnemonic: lr.str(mn), Operands: string(bytes.TrimSpace(ops))})
		return nil
	}
	var units [2][]byte
	nu := 0
	for {
		tok, after := cutToken(rest)
		// Encodings are followed by spaces; a tab follows a mnemonic (MIPS "cfc1\tv1,$31").
		if !isHexUnit(tok) || len(after) == 0 || after[0] != ' ' || nu == len(units) {
			break
		}
		units[nu] = tok
		nu++
		rest = trimLeft(after)
	}
	mn, ops := cutToken(rest)
	if len(mn) == 0 {
		return lr.errorf("instruction at 0x%x has no mnemonic", addr)
	}
	in := cost.Insn{Addr: addr, Mnemonic: lr.str(mn), Operands: string(bytes.TrimSpace(ops))}
	switch nu {
	case 1:
		in.Encoding = string(units[0])
	case 2:
		in.Encoding = string(units[0]) + " " + string(units[1])
	}
	lr.blk.Insns = append(lr.blk.Insns, in)
	return nil
}

// maxX86Bytes is the longest x86 instruction.
const maxX86Bytes = 15

// spacedBytes reads the bytes capstone prints for x86, each two hex digits and one space
// apart ("49 89 d1   movq …"), into their hex digits ("4989d1", appended to dst[:0]), and
// returns what follows them; enc is empty when rest does not start that way. The mnemonic
// comes after two spaces or more, so it is never taken for a byte.
func spacedBytes(dst, rest []byte) (enc, tail []byte) {
	enc = dst[:0]
	i := 0
	for i+2 <= len(rest) && isLowerHex(rest[i]) && isLowerHex(rest[i+1]) && (i+2 == len(rest) || rest[i+2] == ' ') {
		enc = append(enc, rest[i], rest[i+1])
		i += 2
		if i+1 >= len(rest) || rest[i+1] == ' ' {
			break
		}
		i++
	}
	if len(enc) == 0 {
		return nil, rest
	}
	return enc, trimLeft(rest[i:])
}

// moreBytes takes a line of bytes alone: capstone prints 8 bytes of an x86 instruction on its
// line and the rest on lines of their own, each at the address of its first byte
// (disas/capstone.c, cap_dump_insn).
func (lr *Reader) moreBytes(addr uint64, hex []byte) error {
	if lr.over > 0 {
		return nil
	}
	if len(lr.blk.Insns) == 0 {
		return lr.errorf("x86 bytes at 0x%x without an instruction", addr)
	}
	in := &lr.blk.Insns[len(lr.blk.Insns)-1]
	if want := in.Addr + uint64(len(in.Encoding)/2); addr != want {
		return lr.errorf("x86 bytes at 0x%x, but the instruction at 0x%x ends at 0x%x", addr, in.Addr, want)
	}
	if len(in.Encoding)+len(hex) > 2*maxX86Bytes {
		return lr.errorf("an x86 instruction of more than %d bytes at 0x%x", maxX86Bytes, in.Addr)
	}
	in.Encoding += string(hex)
	return nil
}

// objdLine appends the bytes of one "OBJD-T: 0040a0e3…" line (QEMU prints 32 per line).
func (lr *Reader) objdLine(hex []byte) error {
	hex = bytes.TrimSpace(hex)
	if len(hex)%2 != 0 {
		return lr.errorf("OBJD-T line with an odd number of hex digits")
	}
	r := &lr.objd[len(lr.objd)-1]
	if lr.objdBytes += len(hex) / 2; lr.objdBytes > blocks.MaxInsns*4 {
		return lr.errorf("block at 0x%x has more than %d bytes of code; QEMU translates at most 512 instructions", lr.blk.PC, blocks.MaxInsns*4)
	}
	for i := 0; i < len(hex); i += 2 {
		hi, lo := hexVal[hex[i]], hexVal[hex[i+1]]
		if hi > 15 || lo > 15 {
			return lr.errorf("bad hex %q in an OBJD-T line", clip(hex[i:]))
		}
		r.bytes = append(r.bytes, hi<<4|lo)
	}
	return nil
}

// finishBlock closes the block at its blank line and puts it in lr.out; OBJD-T bytes are
// decoded now when the mode is known, else left in lr.outRuns for scan.
func (lr *Reader) finishBlock() error {
	if lr.over > 0 {
		return lr.blockTooLong()
	}
	b := lr.blk
	lr.inBlock, lr.blk, lr.out, lr.outRuns, lr.outWait = false, nil, nil, nil, false
	if len(b.Insns) == 0 && len(lr.objd) == 0 {
		return lr.errorf("block without instructions")
	}
	lr.any = true
	lr.out = b
	if len(lr.objd) == 0 {
		isa, err := lr.blockISA(b)
		b.ISA = isa
		if err == nil && lr.blkX86 {
			err = lr.resplitX86(b)
		}
		return err
	}
	// Copy the runs out: lr.objd is reused for the next block.
	runs := make([]objdRun, len(lr.objd))
	for i, r := range lr.objd {
		runs[i] = objdRun{addr: r.addr, line: r.line, bytes: append([]byte(nil), r.bytes...)}
		lr.objd[i].bytes = r.bytes[:0]
	}
	switch {
	case lr.one != isaUnknown:
		return lr.decodeBlock(b, runs, lr.one)
	case lr.width == width64 && lr.mayBe(cost.AArch64):
		return lr.decodeBlock(b, runs, isaA64)
	case lr.flagsTell:
		lr.outRuns = runs
		return nil
	case len(lr.hint) > 0:
		return lr.decodeBlock(b, runs, codeOf(lr.hint[0]))
	}
	return lr.decodeBlock(b, runs, isaARM)
}

// blockTooLong reports a block of more instructions than QEMU translates into one, with its
// size, at the first instruction line past blocks.MaxInsns.
func (lr *Reader) blockTooLong() error {
	n := len(lr.blk.Insns) + len(lr.objd) + lr.over
	lr.over = 0
	return lr.errorAt(lr.overLine, "a block of %d instructions (at 0x%x): more than QEMU translates into one (512; this reader takes up to %d)", n, lr.blk.PC, blocks.MaxInsns)
}

// blockISA decides a text block's instruction set (docs/formats.md#which-instruction-set): x86
// bytes are x86-64; one 8-digit word per instruction is ARM, A64 or MIPS (wordISA); 4-digit
// units are Thumb; without an encoding the caller's first instruction set decides, else ARM. A
// caller naming one instruction set decides everything but x86 bytes and 8-digit words. For a
// block of words whose width the log has not shown yet it sets lr.outWait, so scan decides
// after the next record.
func (lr *Reader) blockISA(b *cost.Block) (cost.ISA, error) {
	enc := b.Insns[0].Encoding
	switch {
	case lr.blkX86:
		if len(lr.hint) > 0 && !lr.mayBe(cost.X86_64) {
			return "", lr.errorAt(b.Line, "the block at 0x%x is x86 code (QEMU printed its bytes one by one), but the log was read %s", b.PC, lr.readFor())
		}
		lr.width = width64 // so no Trace line's flags are read as ARM's Thumb bit
		return cost.X86_64, nil
	case len(enc) == 8:
		if lr.width == widthUnknown {
			lr.width = textWidth(b)
		}
		lr.outWait = lr.width == widthUnknown && len(lr.words) > 1
		return lr.wordISA(b)
	case len(lr.hint) == 1:
		return lr.hint[0], nil
	case len(enc) == 4 || len(enc) == 9:
		return cost.Thumb, nil
	case len(lr.hint) > 0:
		return lr.hint[0], nil
	}
	return cost.ARM, nil
}

// wordISA picks, among the instruction sets the guest may run that print one 8-digit word per
// instruction (lr.words), the first of the log's width: ARM (or MIPS) for 32 bits, AArch64 for
// 64. A caller who names none of them decides alone.
func (lr *Reader) wordISA(b *cost.Block) (cost.ISA, error) {
	if len(lr.words) == 0 {
		return lr.hint[0], nil
	}
	for _, isa := range lr.words {
		if lr.width == widthUnknown || widthOf(isa) == lr.width {
			return isa, nil
		}
	}
	return "", lr.errorAt(b.Line, "the block at 0x%x: %s", b.PC, lr.widthConflict())
}

// wordISAs are the instruction sets of 8-digit words a guest that may run isas may run; no
// hint means ARM or AArch64 (a MIPS log prints no encodings, or is named MIPS by its caller).
func wordISAs(isas []cost.ISA) []cost.ISA {
	if len(isas) == 0 {
		return []cost.ISA{cost.ARM, cost.AArch64}
	}
	var out []cost.ISA
	for _, isa := range isas {
		if isa == cost.ARM || isa == cost.AArch64 || isa == cost.MIPS {
			out = append(out, isa)
		}
	}
	return out
}

func (lr *Reader) widthConflict() string {
	what := "a 32-bit guest"
	if lr.width == width64 {
		what = "a 64-bit guest (A64 registers, or QEMU's 16-digit addresses)"
	}
	return fmt.Sprintf("the log is of %s, but was read %s", what, lr.readFor())
}

// readFor names what the caller said the guest runs, and where users say it.
func (lr *Reader) readFor() string {
	s := make([]string, len(lr.hint))
	for i, isa := range lr.hint {
		s[i] = string(isa)
	}
	return "for " + strings.Join(s, ", ") + " (a profile's instruction sets, or import --arch)"
}

// textWidth tells A64 text from ARM's in a block of 8-digit words: capstone and QEMU's older
// A64 disassembler (vixl) name A64's registers x0–x30, w0–w30, xzr, wzr, wsp and
// vector v0.16b…, and print ret and b.cond, which ARM text never has; ARM text names r0–r15
// (or sb, sl, fp, ip). A block that names neither (a lone bl) tells nothing.
func textWidth(b *cost.Block) guestWidth {
	arm := false
	for _, in := range b.Insns {
		if in.Mnemonic == "ret" || strings.HasPrefix(in.Mnemonic, "b.") {
			return width64
		}
		for _, tok := range strings.FieldsFunc(in.Operands, notRegChar) {
			switch {
			case a64Register(tok):
				return width64
			case armRegister(tok):
				arm = true
			}
		}
	}
	if arm {
		return width32
	}
	return widthUnknown
}

func notRegChar(c rune) bool { return !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.') }

func a64Register(tok string) bool {
	switch tok {
	case "xzr", "wzr", "wsp":
		return true
	}
	if len(tok) > 1 && len(tok) <= 3 && (tok[0] == 'x' || tok[0] == 'w') && isDigits(tok[1:]) {
		n, _ := strconv.Atoi(tok[1:])
		return n <= 30
	}
	num, arr, ok := strings.Cut(tok, ".")
	return ok && len(num) > 1 && num[0] == 'v' && len(arr) > 1 && isDigits(num[1:])
}

func armRegister(tok string) bool {
	switch tok {
	case "sb", "sl", "fp", "ip":
		return true
	}
	return len(tok) > 1 && tok[0] == 'r' && isDigits(tok[1:]) && len(tok) <= 3
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// parseTrace parses every layout of docs/formats.md#qemu-execution-lines into lr.ex without allocating:
//
//	Trace 0x%08lx [%08x] sym                      (QEMU 0.9–0.15)
//	Trace 0x7f.. [%08x] sym                       (AOSP 1.x–2.8: host pointer, then pc)
//	Trace 0: 0x7f.. [cs_base/pc/%#x flags] sym    (2.11–6.0)
//	Trace 0: 0x7f.. [cs_base/pc/flags/cflags] sym (6.1+; unpadded hex from 8.1)
func (lr *Reader) parseTrace(ln []byte) error {
	i := len("Trace ")
	cpu := -1
	// "Trace 0: …" carries a vCPU index; "Trace 0x…" and "Trace (nil)" carry a host pointer.
	j := i
	for j < len(ln) && ln[j] != ' ' && ln[j] != '[' {
		j++
	}
	if j > i && ln[j-1] == ':' {
		v, ok := parseDec(ln[i : j-1])
		if !ok {
			return lr.errorf("bad vCPU index in %q", clip(ln))
		}
		cpu = v
	}
	open := bytes.IndexByte(ln[j:], '[')
	if open < 0 {
		return lr.errorf("Trace line without [..] fields: %q", clip(ln))
	}
	var f [4]uint64
	var digits [2]int // of the first two fields, which tell the guest's width
	nf := 0
	p := j + open + 1
	// Fast paths for QEMU 6.1–8.0, the layout of nearly every log: four 8-digit fields, or
	// cs_base and pc of 16 digits for a 64-bit guest.
	if b := ln[p:]; len(b) >= 36 && b[8] == '/' && b[17] == '/' && b[26] == '/' && b[35] == ']' {
		cs, ok0 := hex8(b[0:])
		pc, ok1 := hex8(b[9:])
		_, ok2 := hex8(b[18:])
		_, ok3 := hex8(b[27:])
		if ok0 && ok1 && ok2 && ok3 {
			f[0], f[1], nf, digits = uint64(cs), uint64(pc), 4, [2]int{8, 8}
			p = len(ln)
		}
	} else if len(b) >= 52 && b[16] == '/' && b[33] == '/' && b[42] == '/' && b[51] == ']' {
		cs, ok0 := hex16(b[0:])
		pc, ok1 := hex16(b[17:])
		_, ok2 := hex8(b[34:])
		_, ok3 := hex8(b[43:])
		if ok0 && ok1 && ok2 && ok3 {
			f[0], f[1], nf, digits = cs, pc, 4, [2]int{16, 16}
			p = len(ln)
		}
	}
	for parsed := nf > 0; !parsed; {
		q := p
		if q+1 < len(ln) && ln[q] == '0' && ln[q+1] == 'x' { // %#x flags (QEMU 2.11–6.0)
			q += 2
		}
		var v uint64
		start := q
		for q < len(ln) {
			d := hexVal[ln[q]]
			if d > 15 {
				break
			}
			v = v<<4 | uint64(d)
			q++
		}
		if q == start || q-start > 16 || q >= len(ln) || (ln[q] != '/' && ln[q] != ']') {
			if bytes.IndexByte(ln[p:], ']') < 0 {
				return lr.errorf("Trace line without [..] fields: %q", clip(ln))
			}
			return lr.errorf("bad field %q in a Trace line", clip(ln[p:]))
		}
		if nf == len(f) {
			return lr.errorf("more than 4 fields in a Trace line: %q", clip(ln))
		}
		if nf < len(digits) {
			digits[nf] = q - start
		}
		f[nf] = v
		nf++
		p = q + 1
		parsed = ln[q] == ']'
	}
	e := &lr.ex
	e.CPU = cpu
	switch nf {
	case 1:
		e.PC = f[0]
	case 3, 4:
		e.PC = f[1]
	default:
		return lr.errorf("a Trace line with %d fields is no known QEMU layout: %q", nf, clip(ln))
	}
	if lr.width == widthUnknown {
		if err := lr.traceWidth(nf, digits, e.PC); err != nil {
			return err
		}
	}
	code := lr.one
	if nf == 4 && lr.flagsTell && lr.width != width64 {
		code = isaARM
		if f[0]&thumbFlag != 0 {
			code = isaThumb
		}
	}
	lr.exCode = code
	e.ISA = isaByCode[code]
	if code == isaOther {
		e.ISA = lr.hint[0]
	}
	return nil
}

// traceWidth learns the guest's width from a Trace line's padding, when it tells: up to 8.0
// QEMU prints cs_base and pc with the target's width (TARGET_FMT_lx: 8 or 16 digits); 8.1
// prints cs_base with 8 digits or more and pc unpadded, 9.0 pc with 16 digits for every guest.
// So cs_base (or the one field of the oldest layouts) of 16 digits, or a pc above 4 GiB, is a
// 64-bit guest; a pc of 8 digits starting with 0 after an 8-digit cs_base a 32-bit one.
func (lr *Reader) traceWidth(nf int, digits [2]int, pc uint64) error {
	pcDigits := digits[min(nf, 2)-1]
	switch {
	case pc > 0xffffffff || digits[0] == 16:
		lr.width = width64
	case pcDigits == 8 && pc < 0x10000000 && digits[0] == 8:
		lr.width = width32
	default:
		return nil
	}
	if len(lr.hint) == 0 || slices.ContainsFunc(lr.hint, func(isa cost.ISA) bool { return widthOf(isa) == lr.width }) {
		return nil
	}
	return lr.errorf("%s", lr.widthConflict())
}

// stopped reads "Stopped execution of TB chain before 0x7f.. [0001045c] sym": QEMU logged the
// block's Trace line, then found an exit request at its entry and did not run it (cpu-exec.c,
// cpu_tb_exec). The Trace line is the latest one for that pc; with several vCPUs writing to
// one log, other vCPUs' lines may come between.
func (lr *Reader) stopped(ln []byte) error {
	open := bytes.IndexByte(ln, '[')
	end := bytes.IndexByte(ln, ']')
	if open < 0 || end < open {
		return lr.errorf("Stopped line without [pc]: %q", clip(ln))
	}
	pc, ok := parseHex(ln[open+1 : end])
	if !ok {
		return lr.errorf("bad pc in %q", clip(ln))
	}
	for i := 1; i <= len(lr.recent) && i <= lr.nrec; i++ {
		if e := lr.recent[(lr.nrec-i)%len(lr.recent)]; e.PC == pc {
			lr.ex, lr.exCode = e, codeOf(e.ISA)
			return nil
		}
	}
	return lr.errorf("QEMU stopped before the block at 0x%x, but none of the last %d Trace lines is for it", pc, len(lr.recent))
}

// mayBe tells whether the guest may run one of the given instruction sets; no hint means any.
func (lr *Reader) mayBe(isas ...cost.ISA) bool {
	if len(lr.hint) == 0 {
		return true
	}
	for _, h := range lr.hint {
		for _, i := range isas {
			if h == i {
				return true
			}
		}
	}
	return false
}

// str interns a mnemonic: a log repeats a few hundred of them millions of times.
func (lr *Reader) str(b []byte) string {
	if s, ok := lr.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	lr.intern[s] = s
	return s
}

var hexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
		t[c-'a'+'A'] = byte(c-'a') + 10
	}
	return t
}()

// hex8 reads exactly 8 hex digits; an invalid digit has hexVal 0xff, so one OR tells.
func hex8(b []byte) (uint32, bool) {
	_ = b[7]
	d0, d1, d2, d3 := hexVal[b[0]], hexVal[b[1]], hexVal[b[2]], hexVal[b[3]]
	d4, d5, d6, d7 := hexVal[b[4]], hexVal[b[5]], hexVal[b[6]], hexVal[b[7]]
	if d0|d1|d2|d3|d4|d5|d6|d7 > 15 {
		return 0, false
	}
	return uint32(d0)<<28 | uint32(d1)<<24 | uint32(d2)<<20 | uint32(d3)<<16 |
		uint32(d4)<<12 | uint32(d5)<<8 | uint32(d6)<<4 | uint32(d7), true
}

// hex16 reads exactly 16 hex digits.
func hex16(b []byte) (uint64, bool) {
	hi, ok0 := hex8(b)
	lo, ok1 := hex8(b[8:])
	return uint64(hi)<<32 | uint64(lo), ok0 && ok1
}

// parseHex reads 1–16 hex digits.
func parseHex(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		d := hexVal[c]
		if d > 15 {
			return 0, false
		}
		v = v<<4 | uint64(d)
	}
	return v, true
}

// parseDec reads 1–9 decimal digits.
func parseDec(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	v := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

func trimLeft(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

func cutToken(b []byte) (tok, rest []byte) {
	for i, c := range b {
		if c == ' ' || c == '\t' {
			return b[:i], b[i:]
		}
	}
	return b, nil
}

func isLowerHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

// isHexUnit accepts the 4- or 8-digit lower-case hex groups QEMU prints as encodings.
func isHexUnit(t []byte) bool {
	if len(t) != 4 && len(t) != 8 {
		return false
	}
	for _, c := range t {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}
