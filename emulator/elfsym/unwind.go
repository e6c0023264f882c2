package elfsym

import "debug/elf"

// shtARMExidx is SHT_ARM_EXIDX, which debug/elf does not name.
const shtARMExidx elf.SectionType = 0x70000001

// unwindStarts lists the function starts the unwind tables give, sorted and unique.
func (im *image) unwindStarts() []uint64 {
	var starts []uint64
	if im.ef.Machine == elf.EM_ARM {
		for _, t := range im.tables(elf.PT_ARM_EXIDX, shtARMExidx, ".ARM.exidx") {
			starts = im.exidxStarts(starts, t)
		}
	}
	for _, t := range im.tables(elf.PT_GNU_EH_FRAME, elf.SHT_PROGBITS, ".eh_frame_hdr") {
		starts = im.ehFrameHdrStarts(starts, t)
	}
	mask := im.codeMask()
	for i := range starts {
		starts[i] &= mask
	}
	return sortedUnique(starts)
}

// table is an unwind table's bytes and the link-time address they load at.
type table struct {
	addr uint64
	data []byte
}

// tables finds a table by its program header, which even a file without section headers keeps,
// else by its sections.
func (im *image) tables(pt elf.ProgType, sht elf.SectionType, name string) []table {
	var ts []table
	for _, p := range im.ef.Progs {
		if p.Type == pt {
			if d := im.readAt(p.Off, p.Filesz); d != nil {
				ts = append(ts, table{p.Vaddr, d})
			}
		}
	}
	if len(ts) > 0 {
		return ts
	}
	for _, s := range im.ef.Sections {
		if s.Type == sht && s.Name == name {
			if d := im.sectionData(s); d != nil {
				ts = append(ts, table{s.Addr, d})
			}
		}
	}
	return ts
}

// exidxStarts reads .ARM.exidx: pairs of words whose first is a prel31 offset from itself to a
// function's start (the ARM EHABI, section 6).
func (im *image) exidxStarts(starts []uint64, t table) []uint64 {
	bo := im.ef.ByteOrder
	for i := 0; i+8 <= len(t.data); i += 8 {
		w := bo.Uint32(t.data[i:])
		if w&0x80000000 != 0 {
			continue // not a prel31 offset: a damaged entry
		}
		rel := int64(int32(w<<1) >> 1)
		starts = append(starts, t.addr+uint64(i)+uint64(rel))
	}
	return starts
}

// DWARF exception-header pointer encodings (LSB Core, "DWARF Exception Header Encoding").
const (
	dwEHPEUdata4  = 0x03
	dwEHPESdata4  = 0x0b
	dwEHPEPcrel   = 0x10
	dwEHPEDatarel = 0x30
)

// ehFrameHdrStarts reads the binary search table of .eh_frame_hdr: version 1, three encoding
// bytes, eh_frame_ptr, fde_count, then fde_count (initial location, FDE address) pairs. Only the
// encodings linkers write are read; a header with others gives no starts.
func (im *image) ehFrameHdrStarts(starts []uint64, t table) []uint64 {
	d := t.data
	if len(d) < 12 || d[0] != 1 {
		return starts
	}
	four := func(enc byte) bool {
		return enc&0x0f == dwEHPEUdata4 || enc&0x0f == dwEHPESdata4
	}
	ptrEnc, countEnc, tableEnc := d[1], d[2], d[3]
	if !four(ptrEnc) || ptrEnc&0xf0 != 0 && ptrEnc&0xf0 != dwEHPEPcrel ||
		!four(countEnc) || countEnc&0xf0 != 0 && countEnc&0xf0 != dwEHPEPcrel ||
		tableEnc != dwEHPEDatarel|dwEHPESdata4 {
		return starts
	}
	bo := im.ef.ByteOrder
	count := uint64(bo.Uint32(d[8:]))
	pairs := d[12:]
	count = min(count, uint64(len(pairs)/8)) // never more than the bytes hold
	for k := uint64(0); k < count; k++ {
		rel := int64(int32(bo.Uint32(pairs[8*k:])))
		starts = append(starts, t.addr+uint64(rel))
	}
	return starts
}
