package elfsym

import (
	"debug/elf"
	"encoding/hex"
	"io"
	"strings"
)

// image is an opened ELF file whose tables are read only from the bytes it really has.
type image struct {
	ef   *elf.File
	r    io.ReaderAt
	size uint64
}

func newImage(r io.ReaderAt, size int64) (*image, error) {
	ef, err := elf.NewFile(r)
	if err != nil {
		return nil, err
	}
	return &image{ef: ef, r: r, size: uint64(size)}, nil
}

// readAt returns the file's bytes [off, off+n), or nil when they are not all in the file.
func (im *image) readAt(off, n uint64) []byte {
	if n == 0 || off > im.size || n > im.size-off {
		return nil
	}
	buf := make([]byte, n)
	if _, err := im.r.ReadAt(buf, int64(off)); err != nil {
		return nil
	}
	return buf
}

// sectionData is a section's bytes as stored; compressed and SHT_NOBITS sections give nil
// (tables a profiler needs are never compressed, and decompressing would trust claimed sizes).
func (im *image) sectionData(s *elf.Section) []byte {
	if s.Type == elf.SHT_NOBITS || s.Flags&elf.SHF_COMPRESSED != 0 {
		return nil
	}
	return im.readAt(s.Offset, s.FileSize)
}

func (im *image) loadSegments() []segment {
	var exec, other []segment
	for _, p := range im.ef.Progs {
		if p.Type != elf.PT_LOAD || p.Filesz == 0 {
			continue
		}
		s := segment{off: p.Off, vaddr: p.Vaddr, size: p.Filesz}
		if p.Flags&elf.PF_X != 0 {
			exec = append(exec, s)
		} else {
			other = append(other, s)
		}
	}
	return append(exec, other...)
}

// codeMask clears the ISA bit ARM (Thumb) and MIPS (MIPS16/microMIPS) keep in code addresses.
func (im *image) codeMask() uint64 {
	m := ^uint64(0)
	if im.ef.Class == elf.ELFCLASS32 {
		m = 0xffffffff
	}
	if im.ef.Machine == elf.EM_ARM || im.ef.Machine == elf.EM_MIPS {
		m &^= 1
	}
	return m
}

const (
	ntGNUBuildID             = 3
	stbGNUUnique elf.SymBind = 10 // a GLOBAL the dynamic linker keeps unique; debug/elf lacks it
)

// buildID reads the NT_GNU_BUILD_ID note from the note sections, or from the PT_NOTE segments
// of a file without section headers.
func (im *image) buildID() string {
	for _, s := range im.ef.Sections {
		if s.Type == elf.SHT_NOTE {
			if id := im.noteBuildID(im.sectionData(s), s.Addralign); id != "" {
				return id
			}
		}
	}
	for _, p := range im.ef.Progs {
		if p.Type == elf.PT_NOTE {
			if id := im.noteBuildID(im.readAt(p.Off, p.Filesz), p.Align); id != "" {
				return id
			}
		}
	}
	return ""
}

func (im *image) noteBuildID(d []byte, align uint64) string {
	if align != 8 {
		align = 4
	}
	pad := func(n uint64) uint64 { return (n + align - 1) &^ (align - 1) }
	bo := im.ef.ByteOrder
	for len(d) >= 12 {
		namesz, descsz, typ := uint64(bo.Uint32(d)), uint64(bo.Uint32(d[4:])), bo.Uint32(d[8:])
		d = d[12:]
		if pad(namesz) > uint64(len(d)) {
			return ""
		}
		name := d[:namesz]
		d = d[pad(namesz):]
		if descsz > uint64(len(d)) {
			return ""
		}
		if typ == ntGNUBuildID && string(name) == "GNU\x00" && descsz > 0 {
			return hex.EncodeToString(d[:descsz])
		}
		if pad(descsz) >= uint64(len(d)) {
			return ""
		}
		d = d[pad(descsz):]
	}
	return ""
}

// debugLink reads .gnu_debuglink: the debug file's base name and the CRC32 of its contents.
func (im *image) debugLink() (name string, crc uint32, ok bool) {
	s := im.ef.Section(".gnu_debuglink")
	if s == nil {
		return "", 0, false
	}
	d := im.sectionData(s)
	n := strings.IndexByte(string(d), 0)
	if n <= 0 {
		return "", 0, false
	}
	at := (n + 4) &^ 3
	if at+4 > len(d) {
		return "", 0, false
	}
	return string(d[:n]), im.ef.ByteOrder.Uint32(d[at:]), true
}

// cand is one function symbol before de-duplication.
type cand struct {
	start, size uint64
	secEnd      uint64 // end of the symbol's section, bounding a size-0 symbol
	name        string
	rank        uint8 // typed function 0, STT_NOTYPE 4; plus GLOBAL 0, WEAK 1, LOCAL 2, other 3
}

// functionSymbols reads the function symbols of the first section of type typ (SHT_SYMTAB or
// SHT_DYNSYM).
func (im *image) functionSymbols(typ elf.SectionType) []cand {
	secs := im.ef.Sections
	var tab *elf.Section
	for _, s := range secs {
		if s.Type == typ {
			tab = s
			break
		}
	}
	if tab == nil || tab.Link == 0 || int(tab.Link) >= len(secs) {
		return nil
	}
	data, strs := im.sectionData(tab), im.sectionData(secs[tab.Link])
	if data == nil || strs == nil {
		return nil
	}
	bo, mask := im.ef.ByteOrder, im.codeMask()
	entSize := 16
	if im.ef.Class == elf.ELFCLASS64 {
		entSize = 24
	}
	if len(data) < entSize {
		return nil
	}
	var out []cand
	for e := data[entSize:]; len(e) >= entSize; e = e[entSize:] { // entry 0 is the null symbol
		var nameOff uint32
		var value, size uint64
		var info byte
		var shndx elf.SectionIndex
		if entSize == 24 {
			nameOff, info, shndx = bo.Uint32(e), e[4], elf.SectionIndex(bo.Uint16(e[6:]))
			value, size = bo.Uint64(e[8:]), bo.Uint64(e[16:])
		} else {
			nameOff, value, size = bo.Uint32(e), uint64(bo.Uint32(e[4:])), uint64(bo.Uint32(e[8:]))
			info, shndx = e[12], elf.SectionIndex(bo.Uint16(e[14:]))
		}
		var sec *elf.Section
		if shndx < elf.SHN_LORESERVE && int(shndx) < len(secs) {
			sec = secs[shndx]
		}
		var rank uint8
		switch elf.ST_TYPE(info) {
		case elf.STT_FUNC, elf.STT_GNU_IFUNC:
			if shndx == elf.SHN_UNDEF {
				continue
			}
		case elf.STT_NOTYPE:
			if shndx == elf.SHN_UNDEF || sec == nil || sec.Flags&elf.SHF_EXECINSTR == 0 {
				continue
			}
			rank = 4
		default:
			continue
		}
		name := cString(strs, nameOff)
		if name == "" || rank == 4 && isMappingSymbol(name) {
			continue
		}
		switch elf.ST_BIND(info) {
		case elf.STB_GLOBAL, stbGNUUnique:
		case elf.STB_WEAK:
			rank++
		case elf.STB_LOCAL:
			rank += 2
		default:
			rank += 3
		}
		c := cand{start: value & mask, size: size, secEnd: ^uint64(0), name: name, rank: rank}
		if sec != nil && sec.Flags&elf.SHF_ALLOC != 0 {
			c.secEnd = sec.Addr + sec.Size
		}
		out = append(out, c)
	}
	return out
}

// cString is the NUL-terminated string at off in a string table, "" when off is outside it.
func cString(strs []byte, off uint32) string {
	if uint64(off) >= uint64(len(strs)) {
		return ""
	}
	s := strs[off:]
	for i, b := range s {
		if b == 0 {
			return string(s[:i])
		}
	}
	return ""
}

// isMappingSymbol tells the ARM/AArch64 mapping symbols ($a, $t, $d, $x, optionally with a
// ".suffix"), which mark instruction sets and data, not functions.
func isMappingSymbol(name string) bool {
	if len(name) < 2 || name[0] != '$' || !strings.ContainsRune("atdx", rune(name[1])) {
		return false
	}
	return len(name) == 2 || name[2] == '.'
}
