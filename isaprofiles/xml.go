package isaprofiles

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"androprof/internal/outfile"
	"androprof/model/cost"
)

// FormatVersion is the newest format this program reads and writes; readers refuse newer
// versions they cannot understand rather than silently dropping data. Format 2 adds <memory>
// and <pipeline>; a profile without them is still written as format 1.
const FormatVersion = 2

// SyntaxError locates one problem in a profile file.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// FileErrors is every problem found in one file; `profile check` prints them all.
type FileErrors []*SyntaxError

func (es FileErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// ReadFile reads and validates a profile file.
func ReadFile(path string) (*cost.Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read parses a profile and validates it; name is used in error messages. On any problem
// it returns FileErrors (or one SyntaxError for malformed XML) with line numbers.
func Read(r io.Reader, name string) (*cost.Profile, error) {
	p := &parser{dec: xml.NewDecoder(bufio.NewReader(r)), file: name}
	prof, err := p.parse()
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return nil, se
		}
		return nil, &SyntaxError{File: name, Line: p.line(), Msg: err.Error()}
	}
	for _, pr := range cost.Validate(prof) {
		p.fail(p.lineOf(pr.Where), "%s", pr.Msg)
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return prof, nil
}

type parser struct {
	dec      *xml.Decoder
	file     string
	errs     FileErrors
	topLine  int
	catLines []int   // line of each <category>, Undefined last
	insLines [][]int // line of each <instruction>, per category

	refCites   []cost.Citation // <reference>'s, first in Profile.Citations
	ownCites   []cost.Citation // <cache>'s and <pipeline>'s, after them
	memLine    int             // line of <memory>, 0 when none
	pipeLine   int             // line of <pipeline>, 0 when none
	levelLines []int           // line of each <cache>
}

func (p *parser) line() int { l, _ := p.dec.InputPos(); return l }

func (p *parser) fail(line int, format string, args ...any) {
	p.errs = append(p.errs, &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) lineOf(w cost.Where) int {
	if w.Category < 0 || w.Category >= len(p.catLines) {
		return p.topLine
	}
	if w.Insn < 0 || w.Insn >= len(p.insLines[w.Category]) {
		return p.catLines[w.Category]
	}
	return p.insLines[w.Category][w.Insn]
}

// next returns the next start or end element, skipping text, comments and processing
// instructions; the XML decoder itself reports malformed markup.
func (p *parser) next() (xml.Token, error) {
	for {
		t, err := p.dec.Token()
		if err != nil {
			if err == io.EOF {
				return nil, &SyntaxError{File: p.file, Line: p.line(), Msg: "unexpected end of file"}
			}
			var xe *xml.SyntaxError
			if errors.As(err, &xe) {
				return nil, &SyntaxError{File: p.file, Line: xe.Line, Msg: "malformed XML: " + xe.Msg}
			}
			return nil, err
		}
		switch t := t.(type) {
		case xml.StartElement, xml.EndElement:
			return t, nil
		case xml.CharData:
			if strings.TrimSpace(string(t)) != "" {
				return nil, &SyntaxError{File: p.file, Line: p.line(), Msg: fmt.Sprintf("unexpected text %q", strings.TrimSpace(string(t)))}
			}
		}
	}
}

// text reads the character data of the element just opened, up to its end tag.
func (p *parser) text() (string, error) {
	var b strings.Builder
	for {
		t, err := p.dec.Token()
		if err != nil {
			var xe *xml.SyntaxError
			if errors.As(err, &xe) {
				return "", &SyntaxError{File: p.file, Line: xe.Line, Msg: "malformed XML: " + xe.Msg}
			}
			return "", &SyntaxError{File: p.file, Line: p.line(), Msg: "unexpected end of file"}
		}
		switch t := t.(type) {
		case xml.CharData:
			b.Write(t)
		case xml.EndElement:
			return strings.TrimSpace(b.String()), nil
		case xml.StartElement:
			return "", &SyntaxError{File: p.file, Line: p.line(), Msg: fmt.Sprintf("<%s> is not allowed inside text", t.Name.Local)}
		}
	}
}

func (p *parser) parse() (*cost.Profile, error) {
	var root xml.StartElement
	for {
		t, err := p.next()
		if err != nil {
			return nil, err
		}
		if s, ok := t.(xml.StartElement); ok {
			root = s
			break
		}
	}
	p.topLine = p.line()
	if root.Name.Local != "profile" {
		return nil, &SyntaxError{File: p.file, Line: p.topLine, Msg: fmt.Sprintf("root element is <%s>, want <profile>", root.Name.Local)}
	}
	prof := cost.NewProfile("")
	attrs := p.attrs(root, "format", "name", "architecture", "organization", "isa")
	if v, ok := attrs["format"]; ok {
		if n, err := strconv.Atoi(v); err != nil || n < 1 || n > FormatVersion {
			p.fail(p.topLine, "format %q is not supported (this program reads format 1 to %d)", v, FormatVersion)
		}
	}
	prof.Name, prof.Architecture, prof.Organization = attrs["name"], attrs["architecture"], attrs["organization"]
	for _, f := range strings.Fields(attrs["isa"]) {
		isa, err := cost.ParseISA(f)
		if err != nil {
			p.fail(p.topLine, "%v", err)
			continue
		}
		prof.ISAs = append(prof.ISAs, isa)
	}

	var undefined *cost.Category
	var undefinedIns []int
	undefinedLine := p.topLine
	for {
		t, err := p.next()
		if err != nil {
			return nil, err
		}
		if _, end := t.(xml.EndElement); end {
			break
		}
		el := t.(xml.StartElement)
		line := p.line()
		switch el.Name.Local {
		case "source":
			p.attrs(el)
			if prof.Source, err = p.text(); err != nil {
				return nil, err
			}
		case "reference":
			if err := p.reference(el, prof); err != nil {
				return nil, err
			}
		case "memory":
			if err := p.memory(el, prof); err != nil {
				return nil, err
			}
		case "pipeline":
			if err := p.pipeline(el, prof); err != nil {
				return nil, err
			}
		case "category":
			cat, lines, err := p.category(el)
			if err != nil {
				return nil, err
			}
			if cat.Name == cost.UndefinedCategory {
				if undefined != nil {
					p.fail(line, "the default category %q is defined twice", cost.UndefinedCategory)
				}
				undefined, undefinedIns, undefinedLine = cat, lines, line
				continue
			}
			prof.Categories = append(prof.Categories, *cat)
			p.catLines = append(p.catLines, line)
			p.insLines = append(p.insLines, lines)
		default:
			p.fail(line, "unknown element <%s> in <profile>", el.Name.Local)
			if err := p.dec.Skip(); err != nil {
				return nil, err
			}
		}
	}
	if undefined != nil {
		prof.Undefined = *undefined
	}
	p.catLines = append(p.catLines, undefinedLine)
	p.insLines = append(p.insLines, undefinedIns)
	// Reference citations first, then the hierarchy's and the model's, as Write puts them.
	prof.Citations = append(p.refCites, p.ownCites...)
	return prof, nil
}

// attrs returns the element's attributes, reporting any not in allowed: a misspelt
// attribute would otherwise silently become a zero cost.
func (p *parser) attrs(el xml.StartElement, allowed ...string) map[string]string {
	out := map[string]string{}
	for _, a := range el.Attr {
		ok := false
		for _, name := range allowed {
			ok = ok || a.Name.Local == name
		}
		if !ok {
			p.fail(p.line(), "unknown attribute %s on <%s>", a.Name.Local, el.Name.Local)
			continue
		}
		out[a.Name.Local] = strings.TrimSpace(a.Value)
	}
	return out
}

// number parses an optional numeric attribute; a blank or missing one is zero.
func (p *parser) number(attrs map[string]string, key, el string) float64 {
	v, ok := attrs[key]
	if !ok || v == "" {
		return 0
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		p.fail(p.line(), "<%s> %s=%q is not a number", el, key, v)
		return 0
	}
	return f
}

func (p *parser) reference(el xml.StartElement, prof *cost.Profile) error {
	keys := make([]string, len(cost.ReferenceFields))
	for i, f := range cost.ReferenceFields {
		keys[i] = f.Key
	}
	a := p.attrs(el, keys...)
	for _, f := range cost.ReferenceFields {
		*f.Value(&prof.Reference) = p.number(a, f.Key, "reference")
	}
	line := p.line()
	cites, err := p.children(el, func(child xml.StartElement) error {
		return fmt.Errorf("unknown element <%s> in <reference>", child.Name.Local)
	})
	p.checkReferenceCites(cites, line)
	p.refCites = cites
	return err
}

// children reads <cite> elements and hands any other child to other.
func (p *parser) children(parent xml.StartElement, other func(xml.StartElement) error) ([]cost.Citation, error) {
	var cites []cost.Citation
	for {
		t, err := p.next()
		if err != nil {
			return nil, err
		}
		if _, end := t.(xml.EndElement); end {
			return cites, nil
		}
		child := t.(xml.StartElement)
		if child.Name.Local != "cite" {
			if err := other(child); err != nil {
				var se *SyntaxError
				if errors.As(err, &se) {
					return nil, err
				}
				p.fail(p.line(), "%v", err)
				if err := p.dec.Skip(); err != nil {
					return nil, err
				}
			}
			continue
		}
		a := p.attrs(child, "cost", "estimate")
		c := cost.Citation{Cost: a["cost"]}
		switch a["estimate"] {
		case "", "false":
		case "true":
			c.Estimate = true
		default:
			p.fail(p.line(), "<cite> estimate=%q must be true or false", a["estimate"])
		}
		if c.Text, err = p.text(); err != nil {
			return nil, err
		}
		cites = append(cites, c)
	}
}

func (p *parser) category(el xml.StartElement) (*cost.Category, []int, error) {
	a := p.attrs(el, "name", "cycles", "power-mw")
	cat := &cost.Category{Name: a["name"], Cycles: p.number(a, "cycles", "category"), PowerMW: p.number(a, "power-mw", "category")}
	var lines []int
	cites, err := p.children(el, func(child xml.StartElement) error {
		if child.Name.Local != "instruction" {
			return fmt.Errorf("unknown element <%s> in <category>", child.Name.Local)
		}
		line := p.line()
		a := p.attrs(child, "isa")
		mnemonic, err := p.text()
		if err != nil {
			return err
		}
		isa, err := cost.ParseISA(a["isa"])
		if err != nil {
			p.fail(line, "instruction %s: %v", mnemonic, err)
			return nil
		}
		cat.Instructions = append(cat.Instructions, cost.Instruction{ISA: isa, Mnemonic: mnemonic})
		lines = append(lines, line)
		return nil
	})
	cat.Citations = cites
	return cat, lines, err
}

// WriteFile writes the profile atomically through internal/outfile: a crash mid-save never
// leaves half a file, a link planted at path is replaced rather than followed, and the file gets
// the user's umask (a file saved over keeps its own mode).
func WriteFile(path string, prof *cost.Profile) error {
	if probs := cost.Validate(prof); len(probs) > 0 {
		return fmt.Errorf("profile %q is not valid, not saved: %s", prof.Name, probs[0].Msg)
	}
	if err := checkMemory(prof); err != nil {
		return fmt.Errorf("profile %q is not valid, not saved: %v", prof.Name, err)
	}
	_, err := outfile.Write(path, func(w io.Writer) error { return Write(w, prof) })
	return err
}

// Write encodes the profile in the documented layout (docs/profile-format.md).
func Write(w io.Writer, prof *cost.Profile) error {
	b := &xmlBuilder{}
	b.raw(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	isas := make([]string, len(prof.ISAs))
	for i, isa := range prof.ISAs {
		isas[i] = string(isa)
	}
	b.open(0, "profile", "format", strconv.Itoa(formatOf(prof)), "name", prof.Name,
		"architecture", prof.Architecture, "organization", prof.Organization, "isa", strings.Join(isas, " "))
	if prof.Source != "" {
		b.element(1, "source", prof.Source)
	}
	if refCites := referenceCites(prof.Citations); !prof.Reference.IsZero() || len(refCites) > 0 {
		r := prof.Reference
		var kv []string
		for _, f := range cost.ReferenceFields {
			kv = append(kv, f.Key, num(*f.Value(&r)))
		}
		b.open(1, "reference", kv...)
		b.cites(2, refCites)
		b.close(1, "reference")
	}
	if err := b.writeMemory(prof); err != nil {
		return err
	}
	for _, c := range append(append([]cost.Category(nil), prof.Categories...), prof.Undefined) {
		b.open(1, "category", "name", c.Name, "cycles", num(c.Cycles), "power-mw", num(c.PowerMW))
		b.cites(2, c.Citations)
		for _, in := range c.Instructions {
			b.element(2, "instruction", in.Mnemonic, "isa", string(in.ISA))
		}
		b.close(1, "category")
	}
	b.close(0, "profile")
	_, err := io.WriteString(w, b.String())
	return err
}

// num prints the shortest text that parses back to the same float, so round trips are exact,
// and never an exponent, so instruction counts stay readable.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

type xmlBuilder struct{ strings.Builder }

func (b *xmlBuilder) raw(s string) { b.WriteString(s) }

func (b *xmlBuilder) tag(depth int, name string, kv []string) {
	b.WriteString(strings.Repeat("  ", depth) + "<" + name)
	for i := 0; i+1 < len(kv); i += 2 {
		b.WriteString(" " + kv[i] + `="`)
		xml.EscapeText(b, []byte(kv[i+1]))
		b.WriteString(`"`)
	}
	b.WriteString(">")
}

func (b *xmlBuilder) open(depth int, name string, kv ...string) {
	b.tag(depth, name, kv)
	b.WriteString("\n")
}

func (b *xmlBuilder) close(depth int, name string) {
	b.WriteString(strings.Repeat("  ", depth) + "</" + name + ">\n")
}

func (b *xmlBuilder) element(depth int, name, text string, kv ...string) {
	b.tag(depth, name, kv)
	xml.EscapeText(b, []byte(text))
	b.WriteString("</" + name + ">\n")
}

func (b *xmlBuilder) cites(depth int, cites []cost.Citation) {
	for _, c := range cites {
		b.element(depth, "cite", c.Text, "cost", c.Cost, "estimate", strconv.FormatBool(c.Estimate))
	}
}
