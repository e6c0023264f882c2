package emulator

import (
	"debug/elf"
	"fmt"
	"sort"
	"strings"

	"androprof/model/cost"
)

// ELFModes tells ARM from Thumb code by a program's symbols, the surest source there is: the
// plugin cannot read the CPU's mode in QEMU 7.2, and ARM programs mix both (Debian's static
// glibc is Thumb-2 even in a -marm build). It is step 1 of the basic-block profile's rule.
type ELFModes struct {
	marks     []modeMark
	textStart uint64 // lowest executable segment's address in the file
}

type modeMark struct {
	start, end uint64 // end: of the section (mapping symbols) or of the function
	isa        cost.ISA
}

// LoadELFModes reads the mapping symbols ($a ARM, $t Thumb, $d data) of an ARM ELF program,
// or, when it has none, its function symbols (an odd address marks Thumb). A stripped or
// non-ARM program gives modes that know nothing, not an error.
func LoadELFModes(path string) (*ELFModes, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	m := &ELFModes{textStart: ^uint64(0)}
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 && p.Vaddr < m.textStart {
			m.textStart = p.Vaddr
		}
	}
	if f.Machine != elf.EM_ARM {
		return m, nil
	}
	syms, err := f.Symbols()
	if err != nil {
		return m, nil // no symbol table: stripped
	}
	var funcs []modeMark
	for _, s := range syms {
		if int(s.Section) <= 0 || int(s.Section) >= len(f.Sections) {
			continue
		}
		sec := f.Sections[s.Section]
		if sec.Flags&elf.SHF_EXECINSTR == 0 {
			continue
		}
		end := sec.Addr + sec.Size
		switch kind, _, _ := strings.Cut(s.Name, "."); kind {
		case "$a":
			m.marks = append(m.marks, modeMark{s.Value, end, cost.ARM})
		case "$t":
			m.marks = append(m.marks, modeMark{s.Value, end, cost.Thumb})
		case "$d":
			m.marks = append(m.marks, modeMark{s.Value, end, ""})
		default:
			if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Size > 0 {
				isa := cost.ARM
				if s.Value&1 != 0 {
					isa = cost.Thumb
				}
				start := s.Value &^ 1
				funcs = append(funcs, modeMark{start, start + s.Size, isa})
			}
		}
	}
	if len(m.marks) == 0 {
		m.marks = funcs
	} else {
		// A mapping symbol's region ends at the next one in its section.
		sort.SliceStable(m.marks, func(i, j int) bool { return m.marks[i].start < m.marks[j].start })
		for i := 0; i+1 < len(m.marks); i++ {
			m.marks[i].end = min(m.marks[i].end, m.marks[i+1].start)
		}
	}
	sort.SliceStable(m.marks, func(i, j int) bool { return m.marks[i].start < m.marks[j].start })
	return m, nil
}

// ModeAt tells the instruction set at pc of a process whose code starts at startCode (the
// basic-block profile's START), relocating the symbols of position-independent programs.
// ok is false outside the program's code, in data, or without symbols.
func (m *ELFModes) ModeAt(startCode, pc uint64) (isa cost.ISA, ok bool) {
	if m == nil || len(m.marks) == 0 {
		return "", false
	}
	if startCode != 0 && m.textStart != ^uint64(0) {
		pc -= startCode - m.textStart
	}
	i := sort.Search(len(m.marks), func(i int) bool { return m.marks[i].start > pc }) - 1
	if i < 0 || pc >= m.marks[i].end || m.marks[i].isa == "" {
		return "", false
	}
	return m.marks[i].isa, true
}
