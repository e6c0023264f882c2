package isaprofiles

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"androprof/model/cost"
)

//go:embed catalog/*.txt
var catalogFS embed.FS

// Entry is one instruction of a catalogue. Class is the cost class the built-in profiles
// place it in (docs/catalogues.md lists them).
type Entry struct {
	Mnemonic    string
	Class       string
	Cond        bool // accepts a condition-code suffix, which normalisation drops
	SFlag       bool // accepts an S (set flags) suffix, which normalisation drops
	Description string
}

// Catalog lists every instruction of one instruction set, so a new profile starts with all of
// them uncategorised and normalisation can tell a suffix from part of a mnemonic.
type Catalog struct {
	ISA     cost.ISA
	Entries []Entry // sorted by mnemonic
	byName  map[string]int
	aliases map[string]string // disassembler spelling → catalogue mnemonic
}

var catalogFiles = map[cost.ISA]string{
	cost.ARM: "catalog/arm.txt", cost.Thumb: "catalog/thumb.txt", cost.AArch64: "catalog/a64.txt",
	cost.MIPS: "catalog/mips.txt", cost.X86_64: "catalog/x86-64.txt",
}

// Instruction sets whose text and bytes need rules of their own register them here, each from
// its own file (catalog_a64.go, catalog_x86.go), so this file stays the same for all of them.
var (
	// textRules turn what a disassembler printed into the catalogue's spelling: the upper-cased
	// mnemonic, and the operands where they decide the entry (a vector or a memory form; ""
	// when unknown). Without one, Normalize upper-cases the text and resolves aliases (MIPS).
	textRules = map[cost.ISA]func(c *Catalog, upper, operands string) string{}
	// byteRules name an instruction from its encoding (the hex units of cost.Insn.Encoding),
	// which is exact where the text depends on the disassembler (capstone's AT&T or aliases);
	// ok is false when the bytes do not decode, and the text decides.
	byteRules = map[cost.ISA]func(c *Catalog, encoding string) (mnemonic string, ok bool){}
)

// Classify names one instruction as the catalogue does, from its bytes where the instruction
// set has a byte rule and the bytes decode, else from its text (Normalize).
func (c *Catalog) Classify(in cost.Insn) string {
	if c != nil && in.Encoding != "" {
		if rule := byteRules[c.ISA]; rule != nil {
			if m, ok := rule(c, in.Encoding); ok {
				return m
			}
		}
	}
	if c != nil && textRules[c.ISA] != nil {
		return textRules[c.ISA](c, strings.ToUpper(strings.TrimSpace(in.Mnemonic)), in.Operands)
	}
	return c.Normalize(in.Mnemonic)
}

var (
	catalogsOnce sync.Once
	catalogs     map[cost.ISA]*Catalog
	catalogsErr  error
)

// CatalogFor returns the embedded catalogue of an instruction set, or nil when there is none.
func CatalogFor(isa cost.ISA) *Catalog {
	catalogsOnce.Do(loadCatalogs)
	if catalogsErr != nil {
		panic(catalogsErr) // embedded data is checked by tests; this is a build defect
	}
	return catalogs[isa]
}

func loadCatalogs() {
	catalogs = map[cost.ISA]*Catalog{}
	for isa, path := range catalogFiles {
		f, err := catalogFS.Open(path)
		if err != nil {
			catalogsErr = err
			return
		}
		c, err := ParseCatalog(f, path, isa)
		f.Close()
		if err != nil {
			catalogsErr = err
			return
		}
		catalogs[isa] = c
	}
}

// ParseCatalog reads the catalogue text format described in docs/catalogues.md.
func ParseCatalog(r io.Reader, name string, isa cost.ISA) (*Catalog, error) {
	c := &Catalog{ISA: isa, byName: map[string]int{}, aliases: map[string]string{}}
	sc := bufio.NewScanner(r)
	line := 0
	pendingAliases := map[string]int{}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		bad := func(format string, args ...any) error {
			return &SyntaxError{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
		}
		if f[0] != strings.ToUpper(f[0]) {
			return nil, bad("mnemonic %q must be upper case", f[0])
		}
		if len(f) >= 2 && strings.HasPrefix(f[1], "=") {
			target := strings.TrimPrefix(f[1], "=")
			if _, dup := c.aliases[f[0]]; dup {
				return nil, bad("alias %s defined twice", f[0])
			}
			c.aliases[f[0]] = target
			pendingAliases[f[0]] = line
			continue
		}
		if len(f) < 3 {
			return nil, bad("want MNEMONIC CLASS FLAGS [DESCRIPTION], got %q", text)
		}
		e := Entry{Mnemonic: f[0], Class: f[1], Description: strings.Join(f[3:], " ")}
		if f[2] != "-" {
			for _, fl := range f[2] {
				switch fl {
				case 'c':
					e.Cond = true
				case 's':
					e.SFlag = true
				default:
					return nil, bad("unknown flag %q (want c, s or -)", fl)
				}
			}
		}
		if _, dup := c.byName[e.Mnemonic]; dup {
			return nil, bad("%s listed twice", e.Mnemonic)
		}
		c.byName[e.Mnemonic] = len(c.Entries)
		c.Entries = append(c.Entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for alias, l := range pendingAliases {
		if _, ok := c.byName[c.aliases[alias]]; !ok {
			return nil, &SyntaxError{File: name, Line: l, Msg: fmt.Sprintf("alias %s points at %s, which is not in the catalogue", alias, c.aliases[alias])}
		}
		if _, clash := c.byName[alias]; clash {
			return nil, &SyntaxError{File: name, Line: l, Msg: fmt.Sprintf("alias %s is also an entry", alias)}
		}
	}
	sort.Slice(c.Entries, func(i, j int) bool { return c.Entries[i].Mnemonic < c.Entries[j].Mnemonic })
	for i, e := range c.Entries {
		c.byName[e.Mnemonic] = i
	}
	return c, nil
}

// Lookup finds an entry by its catalogue mnemonic or an alias.
func (c *Catalog) Lookup(mnemonic string) (Entry, bool) {
	if to, ok := c.aliases[mnemonic]; ok {
		mnemonic = to
	}
	i, ok := c.byName[mnemonic]
	if !ok {
		return Entry{}, false
	}
	return c.Entries[i], true
}

// Instructions lists the catalogue as model instructions.
func (c *Catalog) Instructions() []cost.Instruction {
	out := make([]cost.Instruction, len(c.Entries))
	for i, e := range c.Entries {
		out[i] = cost.Instruction{ISA: c.ISA, Mnemonic: e.Mnemonic}
	}
	return out
}

var conditionCodes = map[string]bool{
	"EQ": true, "NE": true, "CS": true, "HS": true, "CC": true, "LO": true, "MI": true, "PL": true,
	"VS": true, "VC": true, "HI": true, "LS": true, "GE": true, "LT": true, "GT": true, "LE": true, "AL": true,
}

// Normalize turns the mnemonic text a disassembler printed into the catalogue's spelling
// (docs/catalogues.md, "Normalisation"). Unknown mnemonics come back upper-cased, with width
// qualifiers and integer data types dropped, so they can still be counted and categorised.
func (c *Catalog) Normalize(raw string) string {
	m := strings.ToUpper(strings.TrimSpace(raw))
	if c != nil && textRules[c.ISA] != nil {
		return textRules[c.ISA](c, m, "")
	}
	if c == nil || c.ISA == cost.MIPS {
		if c != nil {
			if e, ok := c.Lookup(m); ok {
				return e.Mnemonic
			}
		}
		return m
	}
	base, suffix := splitARMSuffixes(m)
	try := func(b string, need func(Entry) bool) (string, bool) {
		e, ok := c.Lookup(b + suffix)
		if !ok || (need != nil && !need(e)) {
			return "", false
		}
		return e.Mnemonic, true
	}
	if got, ok := try(base, nil); ok {
		return got
	}
	cond := func(e Entry) bool { return e.Cond }
	sflag := func(e Entry) bool { return e.SFlag }
	both := func(e Entry) bool { return e.Cond && e.SFlag }
	if n := len(base); n > 2 && conditionCodes[base[n-2:]] {
		stem := base[:n-2]
		if got, ok := try(stem, cond); ok { // ADDEQ
			return got
		}
		if strings.HasSuffix(stem, "S") { // ADDSEQ (UAL order)
			if got, ok := try(stem[:len(stem)-1], both); ok {
				return got
			}
		}
	}
	if strings.HasSuffix(base, "S") {
		stem := base[:len(base)-1]
		if got, ok := try(stem, sflag); ok { // ADDS
			return got
		}
		if n := len(stem); n > 2 && conditionCodes[stem[n-2:]] { // ADDEQS (pre-UAL order)
			if got, ok := try(stem[:n-2], both); ok {
				return got
			}
		}
	}
	// Pre-UAL syntax puts the condition before a size or addressing-mode suffix: LDREQB, STREQH,
	// LDREQSB, LDMEQIA, STMNEFD, SWPEQB, LDCEQL (QEMU 0.x and old GNU objdump print these).
	for i := 1; i+2 < len(base); i++ {
		if conditionCodes[base[i:i+2]] {
			if got, ok := try(base[:i]+base[i+2:], cond); ok {
				return got
			}
		}
	}
	return base + suffix
}

// splitARMSuffixes separates ".W", ".N" and data types from the mnemonic. Only the floating-point
// precision survives, as ".F64" or ".F32", because it changes the cost of VFP work.
func splitARMSuffixes(m string) (base, suffix string) {
	parts := strings.Split(m, ".")
	base = parts[0]
	for _, p := range parts[1:] {
		switch p {
		case "F64":
			suffix = ".F64"
		case "F32", "F16":
			if suffix == "" {
				suffix = ".F32"
			}
		}
	}
	return base, suffix
}
