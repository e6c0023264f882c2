package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// source says where one table's numbers come from, so that the generator and its staleness
// test read the same headers the same way.
type source struct {
	Table   string   // Go variable name in tables.go
	Targets []string // QEMU targets that use the table
	// Headers are parsed in this order; a macro must be defined before it is used.
	Headers []string
	// Predefined are the macros the headers take from the file that includes them; they
	// choose the ABI and keep their value whatever the headers' #if branches define.
	Predefined map[string]int64
}

// sources are the ABIs user-mode QEMU runs for this project, read from the UAPI headers of
// Debian's cross packages (linux-libc-dev-armhf-cross, linux-libc-dev-mipsel-cross).
var sources = []source{
	{
		Table:   "armNames",
		Targets: []string{"arm", "armeb"},
		Headers: []string{
			"/usr/arm-linux-gnueabihf/include/asm/unistd-eabi.h",
			"/usr/arm-linux-gnueabihf/include/asm/unistd.h", // __ARM_NR_* private calls
		},
		Predefined: map[string]int64{"__NR_SYSCALL_BASE": 0}, // EABI, not OABI's 0x900000
	},
	{
		Table:      "mipsNames",
		Targets:    []string{"mips", "mipsel"},
		Headers:    []string{"/usr/mipsel-linux-gnu/include/asm/unistd_o32.h"},
		Predefined: map[string]int64{"__NR_Linux": 4000}, // o32, as asm/unistd.h sets it
	},
}

// syntaxError is a header line the parser cannot read.
type syntaxError struct {
	File string
	Line int
	Msg  string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

var (
	defineRE = regexp.MustCompile(`^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)\s+(.+?)\s*$`)
	// A system call macro: __NR_read names "read"; an architecture's private __ARM_NR_set_tls
	// names "ARM_set_tls". Upper-case suffixes (__NR_SYSCALL_BASE, __NR_Linux) are bases.
	callRE = regexp.MustCompile(`^__(?:([A-Z0-9]+)_)?NR_([a-z][a-z0-9_]*)$`)
)

// parseFiles reads the #define lines of kernel unistd headers and returns each system call's
// number and name. A macro defined as another system call's macro
// (__NR_sync_file_range2 → __NR_arm_sync_file_range) is an alias and adds nothing; two names
// for one number, or one macro with two values, are errors, since either means the headers
// were read for the wrong ABI.
func parseFiles(predefined map[string]int64, paths ...string) (map[int64]string, error) {
	p := parser{macros: map[string]int64{}, fixed: predefined, calls: map[int64]string{}}
	for name, v := range predefined {
		p.macros[name] = v
	}
	for _, path := range paths {
		if err := p.parseFile(path); err != nil {
			return nil, err
		}
	}
	return p.calls, nil
}

type parser struct {
	macros map[string]int64
	fixed  map[string]int64
	calls  map[int64]string
	file   string
	line   int
}

func (p *parser) errorf(format string, args ...any) error {
	return &syntaxError{File: p.file, Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) parseFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	p.file, p.line = path, 0
	sc := bufio.NewScanner(f)
	inComment := false
	for sc.Scan() {
		p.line++
		var text string
		text, inComment = stripComments(sc.Text(), inComment)
		m := defineRE.FindStringSubmatch(text)
		if m == nil {
			continue // header guards, #if, #include: the caller chose the ABI
		}
		if err := p.define(m[1], m[2]); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func (p *parser) define(name, expr string) error {
	if _, ok := p.fixed[name]; ok {
		return nil
	}
	call := callRE.FindStringSubmatch(name)
	if call != nil && call[2] == "syscalls" {
		call = nil // __NR_syscalls is a count, not a call
	}
	if call != nil && callRE.MatchString(expr) {
		return nil // an alias of a call already named
	}
	v, err := p.eval(expr)
	if err != nil {
		if call == nil {
			return nil // not a number we need
		}
		return err
	}
	if old, ok := p.macros[name]; ok && old != v {
		return p.errorf("%s redefined from %d to %d", name, old, v)
	}
	p.macros[name] = v
	if call == nil {
		return nil
	}
	callName := call[2]
	if call[1] != "" {
		callName = call[1] + "_" + callName
	}
	if old, ok := p.calls[v]; ok && old != callName {
		return p.errorf("%s and %s are both %d", old, callName, v)
	}
	p.calls[v] = callName
	return nil
}

// eval computes the sums of integer literals and macros that unistd headers use.
func (p *parser) eval(expr string) (int64, error) {
	toks := tokenRE.FindAllString(expr, -1)
	if strings.Join(toks, "") != strings.Join(strings.Fields(expr), "") {
		return 0, p.errorf("cannot read %q", expr)
	}
	e := evaluator{p: p, toks: toks}
	v, err := e.sum()
	if err == nil && e.pos < len(toks) {
		err = p.errorf("unexpected %q in %q", toks[e.pos], expr)
	}
	return v, err
}

var tokenRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9A-Fa-fxXuUlL]*|[-+()]`)

type evaluator struct {
	p    *parser
	toks []string
	pos  int
}

func (e *evaluator) sum() (int64, error) {
	v, err := e.term()
	for err == nil && e.pos < len(e.toks) && (e.toks[e.pos] == "+" || e.toks[e.pos] == "-") {
		op := e.toks[e.pos]
		e.pos++
		var w int64
		w, err = e.term()
		if op == "+" {
			v += w
		} else {
			v -= w
		}
	}
	return v, err
}

func (e *evaluator) term() (int64, error) {
	if e.pos >= len(e.toks) {
		return 0, e.p.errorf("expression ends early")
	}
	tok := e.toks[e.pos]
	e.pos++
	switch {
	case tok == "(":
		v, err := e.sum()
		if err != nil {
			return 0, err
		}
		if e.pos >= len(e.toks) || e.toks[e.pos] != ")" {
			return 0, e.p.errorf("missing )")
		}
		e.pos++
		return v, nil
	case tok[0] >= '0' && tok[0] <= '9':
		v, err := strconv.ParseInt(strings.TrimRight(tok, "uUlL"), 0, 64)
		if err != nil {
			return 0, e.p.errorf("bad number %q", tok)
		}
		return v, nil
	case tok == ")" || tok == "+" || tok == "-":
		return 0, e.p.errorf("unexpected %q", tok)
	}
	v, ok := e.p.macros[tok]
	if !ok {
		return 0, e.p.errorf("%s is not defined before its use", tok)
	}
	return v, nil
}

// stripComments removes C comments from one line; inComment carries a /* … */ across lines.
func stripComments(line string, inComment bool) (string, bool) {
	var b strings.Builder
	for line != "" {
		if inComment {
			end := strings.Index(line, "*/")
			if end < 0 {
				return b.String(), true
			}
			line, inComment = line[end+2:], false
			b.WriteByte(' ')
			continue
		}
		start := strings.Index(line, "/*")
		if i := strings.Index(line, "//"); i >= 0 && (start < 0 || i < start) {
			b.WriteString(line[:i])
			return b.String(), false
		}
		if start < 0 {
			b.WriteString(line)
			break
		}
		b.WriteString(line[:start])
		line, inComment = line[start+2:], true
	}
	return b.String(), inComment
}
