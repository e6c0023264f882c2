// Package emulator reads what QEMU writes about a guest program: `-d in_asm` translation logs,
// `-d exec` execution logs, and (later) the project's TCG plugin output.
package emulator

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"androprof/model"
)

// SyntaxError locates a problem in an input file by line.
type SyntaxError struct {
	File string
	Line int64
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// ErrNotQEMULog says a file holds neither translation blocks nor Trace lines, so format
// detection can try another reader.
var ErrNotQEMULog = errors.New("not a QEMU -d in_asm/exec log")

// Insn is one guest instruction as the translation log shows it.
type Insn struct {
	Addr     uint64
	Encoding string // hex units as printed ("e92d4ff0", "f44f 5bfa"); "" when the log has none
	Mnemonic string // as printed, not normalised
	Operands string
}

// Block is one translated block: the unit QEMU counts executions of.
type Block struct {
	PC     uint64
	ISA    model.ISA
	Symbol string
	Insns  []Insn
	Line   int64 // line of its first instruction
}

// Exec is one executed-block line of a `-d exec` log.
type Exec struct {
	PC  uint64
	CPU int       // vCPU index; each user-mode guest thread is its own vCPU; -1 when not printed
	ISA model.ISA // from the flags where the layout tells ARM from Thumb; "" when unknown
}

// Record is either a Block or an Exec.
type Record struct {
	Block *Block
	Exec  *Exec
}

// LogReader streams the records of one QEMU log. Memory is bounded by the largest block.
type LogReader struct {
	sc    *bufio.Scanner
	file  string
	hint  []model.ISA
	line  int64
	any   bool // saw at least one record
	block *Block
}

// NewLogReader reads r; name is used in errors. isas is what the guest may run: it decides
// the instruction set of log text that carries no encoding (QEMU 0.x, MIPS).
func NewLogReader(r io.Reader, name string, isas []model.ISA) *LogReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	return &LogReader{sc: sc, file: name, hint: isas}
}

// Line is the number of the last line read.
func (lr *LogReader) Line() int64 { return lr.line }

func (lr *LogReader) errorf(format string, args ...any) error {
	return &SyntaxError{File: lr.file, Line: lr.line, Msg: fmt.Sprintf(format, args...)}
}

// Next returns the next record, io.EOF at the end, or ErrNotQEMULog (wrapped with the file
// name) when the file ended without any record.
func (lr *LogReader) Next() (Record, error) {
	for lr.sc.Scan() {
		lr.line++
		ln := lr.sc.Bytes()
		if lr.block != nil {
			if len(ln) > 2 && ln[0] == '0' && ln[1] == 'x' {
				in, err := lr.parseInsn(ln)
				if err != nil {
					return Record{}, err
				}
				if len(lr.block.Insns) == 0 {
					lr.block.PC, lr.block.Line = in.Addr, lr.line
				}
				if len(lr.block.Insns) >= MaxBlockInsns {
					return Record{}, lr.errorf("block at 0x%x has more than %d instructions; QEMU translates at most 512", lr.block.PC, MaxBlockInsns)
				}
				lr.block.Insns = append(lr.block.Insns, in)
				continue
			}
			if b := lr.finishBlock(); b != nil {
				if err := lr.other(ln); err != nil {
					return Record{}, err
				}
				return Record{Block: b}, nil
			}
		}
		if err := lr.other(ln); err != nil {
			return Record{}, err
		}
		if rec, ok, err := lr.exec(ln); err != nil || ok {
			return rec, err
		}
	}
	if err := lr.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return Record{}, lr.errorf("line longer than 1 MiB")
		}
		return Record{}, fmt.Errorf("%s: %w", lr.file, err)
	}
	if b := lr.finishBlock(); b != nil {
		return Record{Block: b}, nil
	}
	if !lr.any {
		return Record{}, fmt.Errorf("%s: %w", lr.file, ErrNotQEMULog)
	}
	return Record{}, io.EOF
}

// other handles a line outside a block: "IN:" opens one.
func (lr *LogReader) other(ln []byte) error {
	if bytes.HasPrefix(ln, []byte("IN:")) {
		lr.block = &Block{Symbol: string(bytes.TrimSpace(ln[3:]))}
	}
	return nil
}

func (lr *LogReader) finishBlock() *Block {
	b := lr.block
	lr.block = nil
	if b == nil || len(b.Insns) == 0 {
		return nil
	}
	b.ISA = lr.blockISA(b)
	lr.any = true
	return b
}

// blockISA tells ARM from Thumb by the encoding units (formats.md §1.1): one 8-digit word is
// ARM, 4-digit halves are Thumb. Without units the caller's hint decides.
func (lr *LogReader) blockISA(b *Block) model.ISA {
	if len(lr.hint) == 1 {
		return lr.hint[0]
	}
	enc := b.Insns[0].Encoding
	switch {
	case len(enc) == 8:
		return model.ARM
	case len(enc) == 4 || len(enc) == 9:
		return model.Thumb
	case len(lr.hint) > 0:
		return lr.hint[0]
	}
	return model.ARM
}

// parseInsn reads "0x00010344:  2801       cmp      r0, #1" and the older layouts.
func (lr *LogReader) parseInsn(ln []byte) (Insn, error) {
	colon := bytes.IndexByte(ln, ':')
	if colon < 3 {
		return Insn{}, lr.errorf("instruction line without an address: %q", clip(ln))
	}
	addr, err := strconv.ParseUint(string(ln[2:colon]), 16, 64)
	if err != nil {
		return Insn{}, lr.errorf("bad instruction address %q", clip(ln[:colon]))
	}
	rest := ln[colon+1:]
	var units [][]byte
	for {
		rest = bytes.TrimLeft(rest, " \t")
		tok, after := cutToken(rest)
		// Encodings are followed by spaces; a tab follows a mnemonic (MIPS "cfc1\tv1,$31").
		if !isHexUnit(tok) || len(after) == 0 || after[0] != ' ' {
			break
		}
		units = append(units, tok)
		rest = after
	}
	mn, ops := cutToken(rest)
	if len(mn) == 0 {
		return Insn{}, lr.errorf("instruction at 0x%x has no mnemonic", addr)
	}
	return Insn{Addr: addr, Encoding: string(bytes.Join(units, []byte(" "))), Mnemonic: string(mn),
		Operands: string(bytes.TrimSpace(ops))}, nil
}

func cutToken(b []byte) (tok, rest []byte) {
	i := bytes.IndexAny(b, " \t")
	if i < 0 {
		return b, nil
	}
	return b[:i], b[i:]
}

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

// MaxBlockInsns bounds memory on hostile input; QEMU's TCG never puts more than 512
// instructions in one translated block.
const MaxBlockInsns = 4096

const thumbFlag = 0x00800000 // set in the first bracketed field of ARM Trace lines on QEMU 6.1+

// exec parses every layout of formats.md §1.2:
//
//	Trace 0x%08lx [%08x] sym                      (QEMU 0.9–0.15)
//	Trace 0x7f.. [%08x] sym                       (AOSP 1.x–2.8: host pointer, then pc)
//	Trace 0: 0x7f.. [cs_base/pc/flags] sym        (2.11–6.0)
//	Trace 0: 0x7f.. [cs_base/pc/flags/cflags] sym (6.1+; unpadded hex from 8.1)
func (lr *LogReader) exec(ln []byte) (Record, bool, error) {
	if !bytes.HasPrefix(ln, []byte("Trace ")) {
		return Record{}, false, nil
	}
	open := bytes.IndexByte(ln, '[')
	end := bytes.IndexByte(ln, ']')
	if open < 0 || end < open {
		return Record{}, false, lr.errorf("Trace line without [..] fields: %q", clip(ln))
	}
	e := &Exec{CPU: -1}
	head := ln[len("Trace "):open]
	if c := bytes.IndexByte(head, ':'); c > 0 && !bytes.HasPrefix(head, []byte("0x")) {
		cpu, err := strconv.Atoi(string(bytes.TrimSpace(head[:c])))
		if err != nil {
			return Record{}, false, lr.errorf("bad vCPU index in %q", clip(ln))
		}
		e.CPU = cpu
	}
	fields := bytes.Split(ln[open+1:end], []byte("/"))
	pcField := fields[0]
	if len(fields) >= 3 {
		pcField = fields[1]
	}
	pc, err := strconv.ParseUint(string(pcField), 16, 64)
	if err != nil {
		return Record{}, false, lr.errorf("bad pc %q in Trace line", clip(pcField))
	}
	e.PC = pc
	if len(fields) == 4 && lr.mayBe(model.ARM, model.Thumb) {
		if flags, err := strconv.ParseUint(string(fields[0]), 16, 64); err == nil {
			e.ISA = model.ARM
			if flags&thumbFlag != 0 {
				e.ISA = model.Thumb
			}
		}
	} else if len(lr.hint) == 1 {
		e.ISA = lr.hint[0]
	}
	lr.any = true
	return Record{Exec: e}, true, nil
}

// mayBe tells whether the guest may run one of the given instruction sets; no hint means any.
func (lr *LogReader) mayBe(isas ...model.ISA) bool {
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

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}
