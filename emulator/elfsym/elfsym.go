// Package elfsym names the code addresses of real ELF files (32-bit ARM/Thumb and MIPS, either
// byte order; 64-bit AArch64 and x86-64), as a profiler must for the stripped programs and libraries
// distributions ship. Open reads a file's function table once; Lookup is then a binary search.
//
// Where names come from, first that has function symbols wins:
//  1. the file's .symtab;
//  2. a separate debug file: by build-id, DIR/.build-id/xx/rest.debug for each debug dir (its
//     build-id must match), else by .gnu_debuglink, looked for as FOLDER/NAME,
//     FOLDER/.debug/NAME and DIR/FOLDER/NAME (its CRC32 must match the link's);
//  3. the file's .dynsym.
//
// The file's .dynsym is always merged in. Function symbols are STT_FUNC and STT_GNU_IFUNC
// defined in a section, and STT_NOTYPE in an executable section other than ARM mapping symbols
// ($a, $t, $d, $x…). The low (Thumb, MIPS16/microMIPS) bit of ARM and MIPS addresses is cleared.
// A symbol's size gives its extent; a size-0 symbol runs to the next symbol's start, its
// section's end or the end of a sized symbol it lies in, whichever comes first. A symbol inside a
// larger one names its own range only; the outer one names the rest. Of several names at one
// address the one kept is, in order of preference: a typed function over STT_NOTYPE, GLOBAL over
// WEAK over LOCAL, fewer leading underscores, the shorter, the lexically first.
//
// Where no symbol covers an address, the unwind tables still give the start of the enclosing
// function: each .ARM.exidx entry (EXIDX_CANTUNWIND ones included) and each initial location in
// .eh_frame_hdr's search table (datarel|sdata4 tables only; other encodings are ignored). A start
// names an address only when the address lies before the next start, so the last start names
// nothing. GNU ld merges adjacent .ARM.exidx entries that unwind alike, so a function without
// symbol may be reported with its predecessor's start.
//
// A damaged or hostile file never panics Open or Lookup: every table is read from the bytes the
// file really has (sizes it claims beyond them are not believed) and a damaged table is skipped,
// leaving fewer names. Open fails only when the file cannot be read or its ELF headers cannot be
// parsed. A File is read-only after Open and safe for concurrent use.
package elfsym

import (
	"debug/elf"
	"fmt"
	"io"
	"os"
	"sort"
)

// DefaultDebugDir is where Debian's -dbgsym packages install separate debug files.
const DefaultDebugDir = "/usr/lib/debug"

// File is one ELF image's function table, ready to name addresses.
type File struct {
	loads   []segment // PT_LOAD segments, executable ones first
	spans   []span    // named ranges, sorted by from, disjoint starts
	unwind  []uint64  // function starts from the unwind tables, sorted, unique
	source  string
	buildID string
	machine elf.Machine
}

// segment maps file offsets [off, off+size) to link-time addresses [vaddr, vaddr+size).
type segment struct{ off, vaddr, size uint64 }

// span names [from, end): the function name starting at start (from > start where a nested
// symbol ended inside it and the enclosing function resumes).
type span struct {
	from, end, start uint64
	name             string
}

// Func is what names an address.
type Func struct {
	// Name is the symbol's name; "" when no symbol covers the address.
	Name string
	// Start is the function's start in the file's own (link-time) addresses. When Name is "",
	// it is the start the unwind tables give, or the looked-up address itself when they give
	// none (the file offset itself when the offset lies outside every PT_LOAD segment).
	Start uint64
	// FromUnwind says Start came from .ARM.exidx or .eh_frame_hdr, not from a symbol.
	FromUnwind bool
}

// Open reads the functions of the ELF file at path. debugDirs are the roots searched for a
// separate debug file (DefaultDebugDir when none are given). A file that cannot be read or is
// not ELF gives an error naming it; damaged tables inside an ELF file only leave fewer names.
func Open(path string, debugDirs ...string) (*File, error) {
	if len(debugDirs) == 0 {
		debugDirs = []string{DefaultDebugDir}
	}
	r, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("elfsym: %w", err)
	}
	defer r.Close()
	st, err := r.Stat()
	if err != nil {
		return nil, fmt.Errorf("elfsym: %w", err)
	}
	return load(r, st.Size(), path, debugDirs)
}

// load is Open on any reader, so the fuzz test need not write files.
func load(r io.ReaderAt, size int64, path string, debugDirs []string) (*File, error) {
	im, err := newImage(r, size)
	if err != nil {
		return nil, fmt.Errorf("elfsym: %s: %w", path, err)
	}
	f := &File{buildID: im.buildID(), machine: im.ef.Machine}
	f.loads = im.loadSegments()

	syms := im.functionSymbols(elf.SHT_SYMTAB)
	switch {
	case len(syms) > 0:
		f.source = ".symtab"
	default:
		if dsyms, where := findDebugFile(im, path, f.buildID, debugDirs); len(dsyms) > 0 {
			syms, f.source = dsyms, "debug file "+where
		}
	}
	dyn := im.functionSymbols(elf.SHT_DYNSYM)
	if f.source == "" && len(dyn) > 0 {
		f.source = ".dynsym"
	}
	f.spans = buildSpans(append(syms, dyn...))
	f.unwind = im.unwindStarts()
	if f.source == "" {
		f.source = "none"
		if len(f.unwind) > 0 {
			f.source = "unwind tables only"
		}
	}
	return f, nil
}

// Lookup names the code at file offset off; the caller knows where the file's offset 0 is
// mapped (a /proc/PID/maps line gives the mapping's offset).
func (f *File) Lookup(off uint64) Func {
	addr, ok := f.VAddr(off)
	if !ok {
		return Func{Start: off}
	}
	return f.LookupAddr(addr)
}

// LookupAddr names the code at the file's link-time address addr, for callers that already
// translated a run-time address by the image's load bias.
func (f *File) LookupAddr(addr uint64) Func {
	i := sort.Search(len(f.spans), func(i int) bool { return f.spans[i].from > addr }) - 1
	if i >= 0 && addr < f.spans[i].end {
		return Func{Name: f.spans[i].name, Start: f.spans[i].start}
	}
	j := sort.Search(len(f.unwind), func(j int) bool { return f.unwind[j] > addr }) - 1
	if j >= 0 && j+1 < len(f.unwind) {
		return Func{Start: f.unwind[j], FromUnwind: true}
	}
	return Func{Start: addr}
}

// VAddr converts file offset off to the file's link-time address through the PT_LOAD segments;
// ok is false for an offset no segment loads from the file.
func (f *File) VAddr(off uint64) (addr uint64, ok bool) {
	for _, s := range f.loads {
		if off >= s.off && off-s.off < s.size {
			return s.vaddr + (off - s.off), true
		}
	}
	return 0, false
}

// Offset converts link-time address addr back to its file offset (the inverse of VAddr), so a
// Func's Start can be shown as image+offset; ok is false for an address no segment loads from
// the file (such as .bss).
func (f *File) Offset(addr uint64) (off uint64, ok bool) {
	for _, s := range f.loads {
		if addr >= s.vaddr && addr-s.vaddr < s.size {
			return s.off + (addr - s.vaddr), true
		}
	}
	return 0, false
}

// Source tells a person where the names came from: ".symtab", "debug file PATH", ".dynsym",
// "unwind tables only" or "none".
func (f *File) Source() string { return f.source }

// BuildID is the file's GNU build-id in hex, "" when it has none; it identifies the build
// across copies and renames.
func (f *File) BuildID() string { return f.buildID }

// Machine is the ELF header's machine: a caller can tell a guest's library from a host file
// that happens to have the same path.
func (f *File) Machine() elf.Machine { return f.machine }
