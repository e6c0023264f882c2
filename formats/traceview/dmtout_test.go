package traceview

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// A reader of the text profile the real dmtracedump prints (art/tools/dmtracedump/tracedump.cc,
// profileTrace), for the tests that hold the workbench to it. dmtracedump numbers methods by its
// own rank ([N], most inclusive time first), not by trace id, so a method is known here by
// index and name.

// dmtOut is what one run of dmtracedump printed.
type dmtOut struct {
	totalCycles uint64              // "Total cycles": the threads' spans summed
	methods     map[int]*dmtdMethod // by dmtracedump's index
	class       string              // the class whose methods the class section is listing
}

// dmtdMethod is one method as dmtracedump shows it. It prints a method's exclusive time only
// when it is not zero, and its own block (inclusive time, calls, relatives) only when its
// inclusive time is not zero; the class and method-name sections give the calls of the others
// whose class or name has some exclusive time.
type dmtdMethod struct {
	name       string
	excl, incl uint64
	// topExcl is the block's "excl" row: exclusive time outside recursive calls (topExclusive),
	// not the method table's exclusive time.
	topExcl          uint64
	calls, recursive int64
	hasBlock         bool // printed its own block in the inclusive profile
	hasCalls         bool // its calls are printed somewhere
	relatives        []string
}

// dmtSection says which part of dmtracedump's output a line is in, from the heading before it.
type dmtSection int

const (
	dmtPreamble dmtSection = iota
	dmtExclusive
	dmtInclusive
	dmtClasses
	dmtNames
)

var dmtHeadings = []struct {
	prefix  string
	section dmtSection
}{
	{"Exclusive elapsed times for each method", dmtExclusive},
	{"Inclusive elapsed times for each method", dmtInclusive},
	{"Exclusive elapsed time for each class", dmtClasses},
	{"Exclusive elapsed time for each method, summed", dmtNames},
}

var (
	dmtTotalRe = regexp.MustCompile(`^Total cycles: (\d+)$`)
	// "  3356758   55.19  55.19  [2] class.method sig"
	dmtExclRe = regexp.MustCompile(`^\s*(\d+)\s+\S+\s+\S+\s+\[(\d+)\] (.*)$`)
	// "[30]    15.2%                     9+94        846218 name"
	dmtHeadRe = regexp.MustCompile(`^\[(\d+)\]\s+\S+%\s+(\d+)\+(\d+)\s+(\d+) (.*)$`)
	// "                 0.2%   excl                    1707"
	dmtTopExclRe = regexp.MustCompile(`^\s+\S+%\s+excl\s+(\d+)$`)
	// "                99.2%   [30]      9/103       846218 name", no percentage when recursive
	dmtRelRe = regexp.MustCompile(`^\s+(?:\S+%\s+)?\[(\d+)\]\s+(\d+)/(\d+)\s+(\d+) (.*)$`)
	// "       16        16    72.7    72.7      1+0      [1] name": excl, incl, %, %, calls
	dmtGroupRe = regexp.MustCompile(`^\s*(\d+)\s+(\d+)\s+\S+\s+\S+\s+(\d+)\+(\d+)\s+\[(\d+)\] (.*)$`)
	// "       22    37.9    37.9      3+0      android/os/Debug": a class (or name) heading its methods
	dmtGroupHeadRe = regexp.MustCompile(`^\s*\d+\s+[\d.]+\s+[\d.]+\s+\d+\+\d+\s+(.*)$`)
)

// parseDmtracedump reads dmtracedump's text profile. Relatives are kept as text rows
// ("parent+ NAME 94/103 2615473"; "+" after the kind for the rows below "+++++") to compare
// as they are printed.
func parseDmtracedump(r io.Reader) (*dmtOut, error) {
	ps := &dmtParser{out: &dmtOut{methods: map[int]*dmtdMethod{}}, kind: "parent"}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	section := dmtPreamble
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if s, ok := dmtHeading(line); ok {
			section = s
			continue
		}
		var err error
		switch section {
		case dmtPreamble, dmtExclusive:
			err = ps.out.exclusiveLine(line)
		case dmtInclusive:
			err = ps.inclusive(line)
		case dmtClasses, dmtNames:
			err = ps.out.groupLine(line, section)
		}
		if err != nil {
			return nil, fmt.Errorf("dmtracedump output line %d: %w: %q", n, err, line)
		}
	}
	return ps.out, sc.Err()
}

// dmtParser is where the reading of the inclusive profile is: a block lists its parents
// before the method's own line, so they wait in pending until that line names the method.
type dmtParser struct {
	out       *dmtOut
	block     *dmtdMethod // the method whose block this is, once its line has been read
	pending   []string
	kind      string // "parent" or "child"
	recursive bool   // below the list's "+++++" line
}

func (ps *dmtParser) inclusive(line string) error {
	switch {
	case strings.HasPrefix(line, "-----"):
		ps.block, ps.pending, ps.kind, ps.recursive = nil, nil, "parent", false
		return nil
	case strings.HasPrefix(strings.TrimSpace(line), "+++++"):
		ps.recursive = true
		return nil
	}
	next, row, err := ps.out.inclusiveLine(line, ps.block)
	if err != nil {
		return err
	}
	if next != nil && ps.block == nil { // the block's own line: the rows so far were its parents
		next.relatives, ps.pending, ps.kind, ps.recursive = ps.pending, nil, "child", false
	}
	ps.block = next
	if row == "" {
		return nil
	}
	if ps.recursive {
		row = "+" + row
	}
	if ps.block == nil {
		ps.pending = append(ps.pending, ps.kind+row)
	} else {
		ps.block.relatives = append(ps.block.relatives, ps.kind+row)
	}
	return nil
}

// relativeRows counts the parent and child rows printed.
func (o *dmtOut) relativeRows() int {
	n := 0
	for _, m := range o.methods {
		n += len(m.relatives)
	}
	return n
}

func dmtHeading(line string) (dmtSection, bool) {
	for _, h := range dmtHeadings {
		if strings.HasPrefix(line, h.prefix) {
			return h.section, true
		}
	}
	return 0, false
}

// method returns the method at index i, naming it when the line gives its full name.
func (o *dmtOut) method(i int, name string) *dmtdMethod {
	m := o.methods[i]
	if m == nil {
		m = &dmtdMethod{}
		o.methods[i] = m
	}
	if name != "" {
		m.name = dmtName(name)
	}
	return m
}

func (o *dmtOut) exclusiveLine(line string) error {
	if f := dmtTotalRe.FindStringSubmatch(line); f != nil {
		o.totalCycles = dmtUint(f[1])
	} else if f := dmtExclRe.FindStringSubmatch(line); f != nil {
		o.method(dmtInt(f[2]), f[3]).excl = dmtUint(f[1])
	}
	return nil
}

// inclusiveLine reads one line of a block: the block's own line (which it returns as the new
// block), its "excl" row, or a relative (returned as " NAME count/total incl").
func (o *dmtOut) inclusiveLine(line string, block *dmtdMethod) (*dmtdMethod, string, error) {
	if f := dmtHeadRe.FindStringSubmatch(line); f != nil {
		m := o.method(dmtInt(f[1]), f[5])
		m.calls, m.recursive, m.incl = int64(dmtInt(f[2])), int64(dmtInt(f[3])), dmtUint(f[4])
		m.hasBlock, m.hasCalls = true, true
		return m, "", nil
	}
	if f := dmtTopExclRe.FindStringSubmatch(line); f != nil {
		if block == nil {
			return nil, "", fmt.Errorf("excl row outside a block")
		}
		block.topExcl = dmtUint(f[1])
		return block, "", nil
	}
	if f := dmtRelRe.FindStringSubmatch(line); f != nil {
		o.method(dmtInt(f[1]), f[5])
		return block, fmt.Sprintf(" %s %s/%s %s", dmtName(f[5]), f[2], f[3], f[4]), nil
	}
	if strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "index ") && !strings.HasPrefix(line, "sorted by") && !strings.HasPrefix(line, "=====") {
		return nil, "", fmt.Errorf("unknown line in the inclusive profile")
	}
	return block, "", nil
}

// groupLine reads a method's row in the class or method-name section. The class section
// prints a method without its class, under a row that names the class: the only place that
// names a method with no time, whose class or name has some.
func (o *dmtOut) groupLine(line string, section dmtSection) error {
	f := dmtGroupRe.FindStringSubmatch(line)
	if f == nil {
		if h := dmtGroupHeadRe.FindStringSubmatch(line); h != nil {
			o.class = h[1]
		}
		return nil
	}
	name := f[6]
	if section == dmtClasses {
		name = o.class + "." + name
	}
	m := o.method(dmtInt(f[5]), name)
	m.excl, m.incl = dmtUint(f[1]), dmtUint(f[2])
	m.calls, m.recursive, m.hasCalls = int64(dmtInt(f[3])), int64(dmtInt(f[4])), true
	return nil
}

// dmtName is a printed name without what dmtracedump glues to ART's signatures: ART's key
// lines carry a source file after the signature, and dmtracedump keeps it ("sig\tFile.java").
func dmtName(s string) string {
	name, _, _ := strings.Cut(s, "\t")
	return name
}

func dmtUint(s string) uint64 {
	v, _ := strconv.ParseUint(s, 10, 64)
	return v
}

func dmtInt(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}
