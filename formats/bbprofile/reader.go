// Package bbprofile reads and writes the basic-block profile, the project's own format
// (docs/bbprofile-format.md): what the TCG plugin writes, one process section per guest
// process, with the block catalogue and the per-thread execution counts.
package bbprofile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"androprof/formats/internal/blocks"
	"androprof/formats/internal/lines"
	"androprof/internal/cutline"
	"androprof/internal/inputerr"
	"androprof/model"
	"androprof/model/cost"
)

// Magic starts every basic-block profile; format detection looks for it.
const Magic = "androprof-bbprofile"

// Version is the newest version: this package reads it and 1 and 2, and writes it for files
// with cache data (NewCacheWriter). Version 3 added `cache` and `misses` lines.
const Version = 3

// plainVersion is what a Writer writes when it carries no cache data, so older readers read it.
const plainVersion = 2

// ARMOrThumb is the instruction set a writer gives an ARM-family block whose mode it could
// not tell (QEMU 7.2 plugins cannot read CPSR); the reader decides it.
const ARMOrThumb cost.ISA = "ARM/Thumb"

// ErrNotBBProfile says a file does not start with the basic-block profile header, so format
// detection can try another reader.
var ErrNotBBProfile = errors.New("not an androprof basic-block profile")

// maxInsnBytes is the longest instruction of any guest (x86: 15 bytes).
const maxInsnBytes = 15

// Process is a process section's header: the model's process plus what decoding its
// blocks needs.
type Process struct {
	model.Process
	Arch      string // QEMU target (arm, armeb, mips, mipsel, aarch64, x86_64, i386): decides byte order
	StartCode uint64 // lowest executable address as loaded: relocates ELF symbols of PIE programs
	Path      string // program path as QEMU ran it; Name is its last element
}

// Exec is one exec line: how often a thread ran the block before it.
type Exec struct {
	PID, TID   int
	BlockID    uint64
	PC         uint64
	ISA        cost.ISA
	Executions int64
}

// Image is an image line: the file (or region with no file) code of the open process is in.
type Image struct {
	PID  int
	ID   uint64
	Base uint64 // guest address of the file's offset 0 (no file: the region's start)
	Path string // absolute path as the host mapped it, or a label such as "[anon]"
}

// NoImage is Record.ImageID of a block whose line names no image (version 1, or "-").
const NoImage = -1

// Misses is a misses line: what the cache simulation counted for one thread's executions of
// the block before it. Counts.Fetches is 0: the file leaves fetches to the exec lines.
type Misses struct {
	PID, TID int
	BlockID  uint64
	PC       uint64
	ISA      cost.ISA
	Counts   cost.CacheCounts
}

// Record is one thing a Reader found: exactly one of Process, Thread, Image, Block, Exec,
// Syscall, Geometry and Misses is set (PID, BlockID and ImageID go with Block; PID with
// Geometry).
type Record struct {
	Process  *Process
	Thread   *model.Thread
	Image    *Image
	Block    *cost.Block
	PID      int
	BlockID  uint64
	ImageID  int64
	Exec     *Exec
	Syscall  *cost.Syscall
	Geometry *cost.CacheGeometry // the open process's cache lines, before its first block
	Misses   *Misses
}

// Reader streams a basic-block profile. Memory holds one block at a time, whatever the
// file's size or what it claims.
type Reader struct {
	// ModeAt tells the instruction set at an address of a process's code when the caller
	// knows it, e.g. from the program's ELF mapping symbols (emulator.ELFModes). It is step 1 of the
	// format's rule for ARM/Thumb blocks; nil skips that step.
	ModeAt func(p *Process, pc uint64) (cost.ISA, bool)
	// DebugDirs are searched for separate debug files of the images (default /usr/lib/debug).
	DebugDirs []string
	// GeometrySource says where a cache-simulated run's geometry came from ("profile
	// cortex-a8", "--cache"), for CacheSink.Geometry; "" when the caller does not know.
	GeometrySource string

	sc        *bufio.Scanner
	file      string
	line      int64
	sawHeader bool
	version   uint64 // of the last header
	proc      *Process
	big       bool                // instruction units are big-endian
	images    map[uint64]struct{} // image ids of the open process: grows with image lines only
	imageID   int64               // of the open block

	block   *cost.Block // being read, or the last complete one (exec lines refer to it)
	blockID uint64
	want    int      // instructions the open block still needs
	raw     [][]byte // bytes of the open block's instructions, reused

	cache cacheState
}

// cacheState is what checking a version-3 process's cache and misses lines needs: its geometry
// (4 levels at most) and, in a simulated process, the threads of the open block's exec lines.
type cacheState struct {
	levels    []cost.CacheLevel // cache lines read so far in the open process
	firstLine int64             // of its first cache line
	sawBlock  bool              // the open process has had a block: no more cache lines
	simulated bool              // the geometry is complete and valid: misses lines may follow
	threads   map[int]*threadExec
}

// threadExec is one thread's exec lines of the open block, and whether its misses line came.
type threadExec struct {
	executions int64
	missed     bool
}

// NewReader reads r; name is used in errors.
func NewReader(r io.Reader, name string) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), lines.MaxLine)
	sc.Split(cutline.ScanLines) // a last line cut short is refused, not read as a record
	return &Reader{sc: sc, file: name}
}

// Line is the number of the last line read, for progress and messages.
func (br *Reader) Line() int64 { return br.line }

func (br *Reader) errorf(format string, args ...any) error {
	return &inputerr.Error{File: br.file, Line: br.line, Msg: fmt.Sprintf(format, args...)}
}

// Next returns the next record, io.EOF after the last, an error wrapping ErrNotBBProfile when
// the first line is not the header, or an *inputerr.Error.
func (br *Reader) Next() (Record, error) {
	for br.sc.Scan() {
		br.line++
		ln := br.sc.Bytes()
		if len(ln) == 0 || ln[0] == '#' {
			continue
		}
		kw, rest, _ := bytes.Cut(ln, []byte(" "))
		if !br.sawHeader && string(kw) != Magic {
			return Record{}, fmt.Errorf("%s: %w", br.file, ErrNotBBProfile)
		}
		if br.want > 0 {
			if string(kw) != "insn" {
				return Record{}, br.errorf("block %d at 0x%x has %d of its %d instructions", br.blockID, br.block.PC, len(br.block.Insns), len(br.block.Insns)+br.want)
			}
			if err := br.insn(rest); err != nil {
				return Record{}, err
			}
			if br.want == 0 {
				br.finishBlock()
				return Record{Block: br.block, PID: br.proc.PID, BlockID: br.blockID, ImageID: br.imageID}, nil
			}
			continue
		}
		if string(kw) != Magic && br.proc == nil && string(kw) != "process" {
			return Record{}, br.errorf("%q line outside a process section", kw)
		}
		switch string(kw) {
		case Magic:
			if br.proc != nil {
				return Record{}, br.errorf("header inside process %d: its end line is missing", br.proc.PID)
			}
			v, ok := bbUint(rest, 10)
			if !ok || v < 1 || v > Version {
				return Record{}, br.errorf("unsupported basic-block profile version %q (this reader knows 1 to %d)", clipBytes(rest), Version)
			}
			br.sawHeader, br.version = true, v
		case "process":
			if br.proc != nil {
				return Record{}, br.errorf("process line inside process %d: its end line is missing", br.proc.PID)
			}
			p, err := br.process(rest)
			if err != nil {
				return Record{}, err
			}
			br.proc, br.block, br.images, br.cache = p, nil, map[uint64]struct{}{}, cacheState{}
			return Record{Process: p}, nil
		case "thread":
			f, name, err := br.fields(rest, 1, true)
			if err != nil {
				return Record{}, err
			}
			tid, err := br.id(f[0], "thread id")
			if err != nil {
				return Record{}, err
			}
			return Record{Thread: &model.Thread{PID: br.proc.PID, TID: tid, Name: name}}, nil
		case "image":
			if br.version < 2 {
				return Record{}, br.errorf("image line in a version %d profile (images came in version 2)", br.version)
			}
			im, err := br.image(rest)
			if err != nil {
				return Record{}, err
			}
			return Record{Image: im}, nil
		case "syscall":
			if br.version < 2 {
				return Record{}, br.errorf("syscall line in a version %d profile (system calls came in version 2)", br.version)
			}
			sc, err := br.syscall(rest)
			if err != nil {
				return Record{}, err
			}
			return Record{Syscall: sc}, nil
		case "block":
			if err := br.openBlock(rest); err != nil {
				return Record{}, err
			}
			if g, err := br.closeGeometry(); g != nil || err != nil {
				return Record{Geometry: g, PID: br.proc.PID}, err
			}
		case "cache":
			if err := br.cacheLine(rest); err != nil {
				return Record{}, err
			}
		case "misses":
			m, err := br.misses(rest)
			if err != nil {
				return Record{}, err
			}
			return Record{Misses: m}, nil
		case "insn":
			return Record{}, br.errorf("instruction outside a block (or more than its block's count)")
		case "exec":
			if br.block == nil {
				return Record{}, br.errorf("exec line before any block of process %d", br.proc.PID)
			}
			f, _, err := br.fields(rest, 2, false)
			if err != nil {
				return Record{}, err
			}
			tid, err := br.id(f[0], "thread id")
			if err != nil {
				return Record{}, err
			}
			n, ok := bbUint(f[1], 10)
			if !ok || n == 0 || n > 1<<62 {
				return Record{}, br.errorf("bad execution count %q", clipBytes(f[1]))
			}
			if err := br.noteExec(tid, int64(n)); err != nil {
				return Record{}, err
			}
			return Record{Exec: &Exec{PID: br.proc.PID, TID: tid, BlockID: br.blockID, PC: br.block.PC,
				ISA: br.block.ISA, Executions: int64(n)}}, nil
		case "end":
			if len(rest) > 0 {
				return Record{}, br.errorf("end line with fields")
			}
			pid := br.proc.PID
			g, err := br.closeGeometry() // a simulated process that ran no block still has one
			br.proc, br.block = nil, nil
			if g != nil || err != nil {
				return Record{Geometry: g, PID: pid}, err
			}
		default:
			return Record{}, br.errorf("unknown record %q", clipBytes(kw))
		}
	}
	if err := br.sc.Err(); err != nil {
		br.line++ // the scanner stopped inside it
		switch {
		case (errors.Is(err, bufio.ErrTooLong) || err == cutline.ErrCut) && !br.sawHeader:
			return Record{}, fmt.Errorf("%s: %w", br.file, ErrNotBBProfile) // no header in the first MiB, or no whole line
		case errors.Is(err, bufio.ErrTooLong):
			return Record{}, br.errorf("line longer than 1 MiB")
		case err == cutline.ErrCut:
			return Record{}, br.errorf("%v", err)
		}
		return Record{}, &inputerr.Error{File: br.file, Line: br.line, Msg: "read: " + err.Error(), Err: err}
	}
	switch {
	case !br.sawHeader:
		return Record{}, fmt.Errorf("%s: %w", br.file, ErrNotBBProfile)
	case br.want > 0:
		return Record{}, br.errorf("file ends inside block %d: truncated", br.blockID)
	case br.proc != nil:
		return Record{}, br.errorf("file ends inside process %d (no end line): truncated", br.proc.PID)
	}
	return Record{}, io.EOF
}

// fields splits n space-separated tokens off ln; with text, the rest after one more space is
// free text, otherwise nothing may follow.
func (br *Reader) fields(ln []byte, n int, text bool) ([][]byte, string, error) {
	out := make([][]byte, 0, 6)
	for i := 0; i < n; i++ {
		tok, rest, found := bytes.Cut(ln, []byte(" "))
		if len(tok) == 0 {
			return nil, "", br.errorf("want %d fields, found %d", n, i)
		}
		out = append(out, tok)
		ln = rest
		if !found {
			ln = nil
			if i < n-1 {
				return nil, "", br.errorf("want %d fields, found %d", n, i+1)
			}
		}
	}
	if !text {
		if len(ln) > 0 {
			return nil, "", br.errorf("unexpected %q after %d fields", clipBytes(ln), n)
		}
		return out, "", nil
	}
	for _, c := range ln {
		if c < 0x20 || c == 0x7f {
			return nil, "", br.errorf("control character in text")
		}
	}
	return out, string(ln), nil
}

func (br *Reader) id(b []byte, what string) (int, error) {
	v, ok := bbUint(b, 10)
	if !ok || v == 0 || v > 1<<31-1 {
		return 0, br.errorf("bad %s %q", what, clipBytes(b))
	}
	return int(v), nil
}

func (br *Reader) process(rest []byte) (*Process, error) {
	f, p, err := br.fields(rest, 4, true)
	if err != nil {
		return nil, err
	}
	pid, err := br.id(f[0], "pid")
	if err != nil {
		return nil, err
	}
	ppid, ok := bbUint(f[1], 10)
	if !ok || ppid > 1<<31-1 {
		return nil, br.errorf("bad parent pid %q", clipBytes(f[1]))
	}
	start, ok := bbHex(f[3])
	if !ok {
		return nil, br.errorf("bad start of code %q (want 0x…)", clipBytes(f[3]))
	}
	arch := string(f[2])
	br.big = arch == "mips" || arch == "armeb"
	return &Process{Process: model.Process{PID: pid, ParentPID: int(ppid), Name: path.Base(p)},
		Arch: arch, StartCode: start, Path: p}, nil
}

// image reads `image ID BASE PATH`; ids are unique within a process.
func (br *Reader) image(rest []byte) (*Image, error) {
	f, p, err := br.fields(rest, 2, true)
	if err != nil {
		return nil, err
	}
	id, ok := bbUint(f[0], 10)
	if !ok || id > 1<<31-1 {
		return nil, br.errorf("bad image id %q", clipBytes(f[0]))
	}
	if _, dup := br.images[id]; dup {
		return nil, br.errorf("image %d appears twice in process %d", id, br.proc.PID)
	}
	base, ok := bbHex(f[1])
	if !ok {
		return nil, br.errorf("bad image base %q (want 0x…)", clipBytes(f[1]))
	}
	if p == "" {
		return nil, br.errorf("image %d has no path", id)
	}
	br.images[id] = struct{}{}
	return &Image{PID: br.proc.PID, ID: id, Base: base, Path: p}, nil
}

// syscall reads `syscall TID NR COUNT INSNS`.
func (br *Reader) syscall(rest []byte) (*cost.Syscall, error) {
	f, _, err := br.fields(rest, 4, false)
	if err != nil {
		return nil, err
	}
	tid, err := br.id(f[0], "thread id")
	if err != nil {
		return nil, err
	}
	nr, ok := bbUint(f[1], 10)
	if !ok || nr > 1<<31-1 {
		return nil, br.errorf("bad system call number %q", clipBytes(f[1]))
	}
	n, ok := bbUint(f[2], 10)
	if !ok || n == 0 || n > 1<<62 {
		return nil, br.errorf("bad system call count %q", clipBytes(f[2]))
	}
	insns, ok := bbUint(f[3], 10)
	if !ok || insns > 1<<62 {
		return nil, br.errorf("bad instruction count %q", clipBytes(f[3]))
	}
	return &cost.Syscall{PID: br.proc.PID, TID: tid, Number: int64(nr), Count: int64(n), Insns: int64(insns)}, nil
}

func (br *Reader) openBlock(rest []byte) error {
	nf := 4
	if br.version >= 2 {
		nf = 5 // the image
	}
	f, sym, err := br.fields(rest, nf, true)
	if err != nil {
		return err
	}
	br.imageID = NoImage
	if nf == 5 && string(f[4]) != "-" {
		id, ok := bbUint(f[4], 10)
		if _, known := br.images[id]; !ok || !known {
			return br.errorf("block names image %q, which no image line of process %d declared before it", clipBytes(f[4]), br.proc.PID)
		}
		br.imageID = int64(id)
	}
	id, ok := bbUint(f[0], 10)
	if !ok {
		return br.errorf("bad block id %q", clipBytes(f[0]))
	}
	pc, ok := bbHex(f[1])
	if !ok {
		return br.errorf("bad block pc %q (want 0x…)", clipBytes(f[1]))
	}
	isa := cost.ISA(f[2])
	if isa != ARMOrThumb {
		if isa, err = cost.ParseISA(string(f[2])); err != nil {
			return br.errorf("%v", err)
		}
	}
	n, ok := bbUint(f[3], 10)
	if !ok || n == 0 || n > blocks.MaxInsns {
		return br.errorf("block %d: instruction count %q is not in 1…%d", id, clipBytes(f[3]), blocks.MaxInsns)
	}
	// Capacity grows with the lines actually read, not with the count claimed.
	br.block = &cost.Block{PC: pc, ISA: isa, Symbol: sym, Line: br.line, Insns: make([]cost.Insn, 0, min(int(n), 64))}
	br.blockID, br.want = id, int(n)
	br.raw = br.raw[:0]
	br.cache.threads = nil
	return nil
}

func (br *Reader) insn(rest []byte) error {
	f, ops, err := br.fields(rest, 3, true)
	if err != nil {
		return err
	}
	addr, ok := bbHex(f[0])
	if !ok {
		return br.errorf("bad instruction address %q (want 0x…)", clipBytes(f[0]))
	}
	var raw []byte
	if string(f[1]) != "-" {
		if len(f[1])%2 != 0 || len(f[1]) > 2*maxInsnBytes {
			return br.errorf("bad instruction bytes %q (want up to %d hex pairs, or -)", clipBytes(f[1]), maxInsnBytes)
		}
		raw = make([]byte, len(f[1])/2)
		if _, err := hex.Decode(raw, f[1]); err != nil {
			return br.errorf("bad instruction bytes %q", clipBytes(f[1]))
		}
	}
	br.raw = append(br.raw, raw)
	br.block.Insns = append(br.block.Insns, cost.Insn{Addr: addr, Mnemonic: string(f[2]), Operands: ops})
	br.want--
	return nil
}

// finishBlock decides an ARM/Thumb block's instruction set, then turns bytes into the
// encoding units of `-d in_asm` and completes MIPS branch targets (docs/bbprofile-format.md).
func (br *Reader) finishBlock() {
	b := br.block
	if b.ISA == ARMOrThumb {
		b.ISA = br.resolveARM(b)
	}
	for i := range b.Insns {
		in := &b.Insns[i]
		in.Encoding = encodingUnits(br.raw[i], b.ISA, br.big)
		if b.ISA == cost.MIPS && len(br.raw[i]) == 4 {
			in.Operands = completeMIPSTarget(in.Mnemonic, in.Operands, unit32(br.raw[i], br.big), in.Addr)
		}
	}
}

func (br *Reader) resolveARM(b *cost.Block) cost.ISA {
	short := false
	for _, r := range br.raw {
		short = short || len(r) == 2
	}
	if br.ModeAt != nil {
		if isa, ok := br.ModeAt(br.proc, b.PC); ok && (isa == cost.Thumb || !short) {
			return isa
		}
	}
	if short {
		return cost.Thumb
	}
	return guessARMISA(b.Insns, br.raw, br.big)
}

// guessARMISA is step 3 of the format's rule: a block of 4-byte instructions is Thumb when
// every instruction is shaped like a 32-bit Thumb one and at least one cannot be ARM.
func guessARMISA(insns []cost.Insn, raw [][]byte, big bool) cost.ISA {
	notARM := false
	for i, r := range raw {
		if len(r) != 4 {
			return cost.ARM
		}
		w := unit32(r, big)
		hw1 := w & 0xffff // the first halfword in memory
		if big {
			hw1 = w >> 16
		}
		if hw1>>11 < 0x1d {
			return cost.ARM
		}
		mn := insns[i].Mnemonic
		if strings.HasSuffix(mn, ".w") || !armCondFits(mn, w>>28) || !armBranchFits(mn, insns[i].Operands, w) {
			notARM = true
		}
	}
	if notARM {
		return cost.Thumb
	}
	return cost.ARM
}

var armConds = [...]string{"eq", "ne", "hs", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le"}

// armUncond are the mnemonics of ARM's unconditional space (condition field 1111): a Thumb
// bl or b.w looks like that space and is told apart by its mnemonic.
var armUncond = []string{"v", "blx", "pl", "cps", "srs", "rfe", "setend", "clrex", "dmb", "dsb", "isb",
	"mcr2", "mrc2", "mcrr2", "mrrc2", "ldc2", "stc2", "cdp2"}

// armCondFits tells whether an ARM word with condition field c could carry mnemonic mn: AL
// always, NV for the unconditional instructions, others when the mnemonic names the condition.
func armCondFits(mn string, c uint32) bool {
	switch {
	case c == 0xe:
		return true
	case c == 0xf:
		for _, p := range armUncond {
			if strings.HasPrefix(mn, p) {
				return true
			}
		}
		return false
	}
	base, _, _ := strings.Cut(mn, ".")
	names := []string{armConds[c]}
	switch c {
	case 2:
		names = append(names, "cs")
	case 3:
		names = append(names, "cc")
	}
	for _, n := range names {
		if strings.HasSuffix(base, n) || strings.HasSuffix(base, n+"s") {
			return true
		}
	}
	return false
}

// armBranchFits checks an immediate branch (b, bl, blx #imm) against ARM's branch encoding:
// bits 27-25 are 101, and the condition field is 1111 exactly for blx.
func armBranchFits(mn, ops string, w uint32) bool {
	if !strings.HasPrefix(ops, "#") {
		return true
	}
	base, _, _ := strings.Cut(mn, ".")
	blx := strings.HasPrefix(base, "blx")
	rest := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(base, "blx"), "bl"), "b")
	if !strings.HasPrefix(base, "b") || (rest != "" && !slices.Contains(armConds[:], rest) && rest != "cs" && rest != "cc") {
		return true // not a branch: bic, bfi, bkpt…
	}
	return (w>>25)&7 == 5 && blx == (w>>28 == 0xf)
}

func unit32(r []byte, big bool) uint32 {
	if big {
		return binary.BigEndian.Uint32(r)
	}
	return binary.LittleEndian.Uint32(r)
}

// encodingUnits prints bytes the way `-d in_asm` does: ARM and MIPS words, Thumb halfwords,
// x86 bytes.
func encodingUnits(raw []byte, isa cost.ISA, big bool) string {
	if len(raw) == 0 {
		return ""
	}
	unit := 4
	switch {
	case isa == cost.X86_64 || len(raw)%2 != 0:
		return hex.EncodeToString(raw)
	case isa == cost.Thumb || len(raw)%4 != 0:
		unit = 2
	}
	var sb strings.Builder
	for i := 0; i < len(raw); i += unit {
		if i > 0 {
			sb.WriteByte(' ')
		}
		var v uint64
		for k := 0; k < unit; k++ {
			if big {
				v = v<<8 | uint64(raw[i+k])
			} else {
				v |= uint64(raw[i+k]) << (8 * k)
			}
		}
		fmt.Fprintf(&sb, "%0*x", 2*unit, v)
	}
	return sb.String()
}

// unitBytes is encodingUnits backwards: the bytes in memory order.
func unitBytes(enc string, isa cost.ISA, big bool) ([]byte, error) {
	if isa == cost.X86_64 {
		return hex.DecodeString(enc)
	}
	var out []byte
	for _, u := range strings.Fields(enc) {
		if len(u) != 2 && len(u) != 4 && len(u) != 8 {
			return nil, fmt.Errorf("encoding unit %q is not 2, 4 or 8 hex digits", u)
		}
		v, err := strconv.ParseUint(u, 16, 32)
		if err != nil {
			return nil, fmt.Errorf("encoding unit %q is not hex", u)
		}
		n := len(u) / 2
		for k := 0; k < n; k++ {
			shift := 8 * k
			if big {
				shift = 8 * (n - 1 - k)
			}
			out = append(out, byte(v>>shift))
		}
	}
	if len(out) > maxInsnBytes {
		return nil, fmt.Errorf("encoding %q is longer than %d bytes", enc, maxInsnBytes)
	}
	return out, nil
}

// completeMIPSTarget appends the target of a PC-relative branch or a jump whose operands QEMU
// 7.2's plugin disassembler left without it ("beqz v0," or "bal").
func completeMIPSTarget(mn, ops string, w uint32, addr uint64) string {
	trimmed := strings.TrimRight(ops, " ")
	if trimmed != "" && !strings.HasSuffix(trimmed, ",") {
		return ops
	}
	target, ok := mipsTarget(w, addr)
	if !ok || !(strings.HasPrefix(mn, "b") || strings.HasPrefix(mn, "j")) {
		return ops
	}
	return trimmed + "0x" + strconv.FormatUint(target, 16)
}

// mipsTarget decodes MIPS32 branch and jump targets: I-type branches (beq…bgtzl, REGIMM
// bltz…bgezall, bc1/bc2) are pc+4+offset×4; j and jal replace the low 28 bits of pc+4.
func mipsTarget(w uint32, addr uint64) (uint64, bool) {
	op := w >> 26
	rs, rt := (w>>21)&31, (w>>16)&31
	branch := false
	switch {
	case op == 0x02 || op == 0x03:
		return (addr+4)&^0x0fffffff | uint64(w&0x03ffffff)<<2, true
	case op >= 0x04 && op <= 0x07, op >= 0x14 && op <= 0x17:
		branch = true
	case op == 0x01:
		branch = rt <= 0x03 || (rt >= 0x10 && rt <= 0x13)
	case op == 0x11 || op == 0x12:
		branch = rs == 0x08
	}
	if !branch {
		return 0, false
	}
	off := int64(int16(w&0xffff)) << 2
	return uint64(int64(addr) + 4 + off), true
}

// bbUint parses an unsigned number in the given base without allocating.
func bbUint(b []byte, base uint64) (uint64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		var d uint64
		switch {
		case '0' <= c && c <= '9':
			d = uint64(c - '0')
		case base == 16 && 'a' <= c && c <= 'f':
			d = uint64(c-'a') + 10
		case base == 16 && 'A' <= c && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return 0, false
		}
		if d >= base || v > (1<<64-1-d)/base {
			return 0, false
		}
		v = v*base + d
	}
	return v, true
}

func bbHex(b []byte) (uint64, bool) {
	if len(b) < 3 || b[0] != '0' || b[1] != 'x' {
		return 0, false
	}
	return bbUint(b[2:], 16)
}

func clipBytes(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// Sniff answers format detection from a file's first bytes: nil when they start with
// the basic-block profile header, ErrNotBBProfile when they do not.
func Sniff(head []byte) error {
	br := NewReader(bytes.NewReader(head[:min(len(head), lines.MaxLine)]), "")
	if _, err := br.Next(); errors.Is(err, ErrNotBBProfile) {
		return ErrNotBBProfile
	}
	return nil
}

// Feed streams every record into sink, so a profile of any size (one process section or
// several) imports in constant memory. ARM/Thumb blocks are decided by steps 2 and 3 of the
// format's rule, and step 1 too when ModeAt is set. Blocks get their image and function names
// (imageNames); images and system calls go to sink when it is a model.ImageSink, and each
// simulated process's geometry (with GeometrySource) and misses when it is a cost.CacheSink.
func (br *Reader) Feed(sink cost.BlockSink) error {
	names := newImageNames(br.DebugDirs)
	isink, _ := sink.(cost.ImageSink)
	csink, _ := sink.(cost.CacheSink)
	for {
		rec, err := br.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if rec.Geometry != nil || rec.Misses != nil {
			err = feedCache(csink, rec, br.GeometrySource)
		} else {
			err = feed(sink, isink, names, rec)
		}
		if err != nil {
			return &inputerr.Error{File: br.file, Line: br.line, Err: err}
		}
	}
}

func feed(sink cost.BlockSink, isink cost.ImageSink, names *imageNames, rec Record) error {
	switch {
	case rec.Process != nil:
		names.process(rec.Process)
		return sink.Process(rec.Process.Process)
	case rec.Thread != nil:
		return sink.Thread(*rec.Thread)
	case rec.Image != nil:
		if im, isNew := names.image(rec.Image); isNew && isink != nil {
			return isink.Image(im)
		}
	case rec.Block != nil:
		blocks.Classify(rec.Block)
		names.name(rec.Block, rec.ImageID)
		return sink.Block(rec.PID, rec.Block)
	case rec.Exec != nil:
		e := rec.Exec
		return sink.Count(e.PID, e.TID, e.PC, e.ISA, e.Executions)
	case rec.Syscall != nil && isink != nil:
		names.syscall(rec.Syscall)
		return isink.Syscall(*rec.Syscall)
	}
	return nil
}

// feedCache gives a cache simulation's records to a sink that keeps them; other sinks ignore them.
func feedCache(csink cost.CacheSink, rec Record, source string) error {
	switch {
	case csink == nil:
	case rec.Geometry != nil:
		return csink.Geometry(rec.PID, *rec.Geometry, source)
	case rec.Misses != nil:
		m := rec.Misses
		return csink.Misses(m.PID, m.TID, m.PC, m.ISA, m.Counts)
	}
	return nil
}
