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
	// Predefined are the macros the headers take from the compiler or from the files that
	// include them (#include is not followed); they choose the ABI, decide the #if branches,
	// and keep their value whatever the headers define.
	Predefined map[string]int64
}

// sources are the ABIs user-mode QEMU runs for this project, read from the UAPI headers of
// Debian's cross packages (linux-libc-dev-armhf-cross, linux-libc-dev-mipsel-cross,
// linux-libc-dev-arm64-cross) and, for x86-64, of the amd64 host's own (linux-libc-dev).
var sources = []source{
	{
		Table:   "armNames",
		Targets: []string{"arm", "armeb"},
		Headers: []string{
			"/usr/arm-linux-gnueabihf/include/asm/unistd-eabi.h",
			"/usr/arm-linux-gnueabihf/include/asm/unistd.h", // __ARM_NR_* private calls
		},
		// EABI, not OABI's 0x900000
		Predefined: map[string]int64{"__NR_SYSCALL_BASE": 0, "__ARM_EABI__": 1},
	},
	{
		Table:      "mipsNames",
		Targets:    []string{"mips", "mipsel"},
		Headers:    []string{"/usr/mipsel-linux-gnu/include/asm/unistd_o32.h"},
		Predefined: map[string]int64{"__NR_Linux": 4000}, // o32, as asm/unistd.h sets it
	},
	{
		// AArch64 has the generic table; its asm/unistd.h only chooses the optional calls
		// (__ARCH_WANT_…) before it includes asm-generic/unistd.h.
		Table:   "aarch64Names",
		Targets: []string{"aarch64"},
		Headers: []string{
			"/usr/aarch64-linux-gnu/include/asm/unistd.h",
			"/usr/aarch64-linux-gnu/include/asm-generic/unistd.h",
		},
		Predefined: map[string]int64{"__BITS_PER_LONG": 64}, // as asm/bitsperlong.h sets it
	},
	{
		Table:   "x86_64Names",
		Targets: []string{"x86_64"},
		Headers: []string{"/usr/include/x86_64-linux-gnu/asm/unistd_64.h"},
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
	// A directive: #define of any macro (with a body or none, function-like too), #undef, and
	// the conditionals, with what follows.
	directiveRE = regexp.MustCompile(`^\s*#\s*(define|undef|ifdef|ifndef|if|elif|else|endif)\b\s*([A-Za-z_][A-Za-z0-9_]*)?(.*)$`)
	// A system call macro: __NR_read names "read"; an architecture's private __ARM_NR_set_tls
	// names "ARM_set_tls". Upper-case suffixes (__NR_SYSCALL_BASE, __NR_Linux) are bases.
	callRE = regexp.MustCompile(`^__(?:([A-Z0-9]+)_)?NR_([a-z][a-z0-9_]*)$`)
	// notCalls match callRE but are not calls: a count, and the generic table's first
	// number left to the architecture (arm64 puts no call there).
	notCalls = map[string]bool{"syscalls": true, "arch_specific_syscall": true}
)

// parseFiles reads the #define lines of kernel unistd headers and returns each system call's
// number and name. Conditionals (#if, #ifdef, #ifndef, #elif, #else, #endif) are followed as
// the preprocessor would with only predefined and the headers' own macros defined, so the
// generic table's optional calls come out as the architecture chose them. A macro defined as
// another system call's macro
// (__NR_sync_file_range2 → __NR_arm_sync_file_range) is an alias and adds nothing; two names
// for one number, or one macro with two values, are errors, since either means the headers
// were read for the wrong ABI.
func parseFiles(predefined map[string]int64, paths ...string) (map[int64]string, error) {
	p := parser{macros: map[string]int64{}, defined: map[string]bool{}, fixed: predefined, calls: map[int64]string{}}
	for name, v := range predefined {
		p.macros[name], p.defined[name] = v, true
	}
	for _, path := range paths {
		if err := p.parseFile(path); err != nil {
			return nil, err
		}
	}
	return p.calls, nil
}

type parser struct {
	macros  map[string]int64 // macros with a number for a body
	defined map[string]bool  // every macro defined, for #ifdef and defined()
	fixed   map[string]int64
	calls   map[int64]string
	conds   []cond // the open conditionals, innermost last
	file    string
	line    int
}

// cond is an open #if: whether its current branch is read, and whether one already was.
type cond struct{ on, taken bool }

// active tells whether the lines here are read: every open conditional is in a taken branch.
func (p *parser) active() bool {
	return len(p.conds) == 0 || p.conds[len(p.conds)-1].on
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
	p.file, p.line, p.conds = path, 0, nil
	sc := bufio.NewScanner(f)
	inComment := false
	for sc.Scan() {
		p.line++
		var text string
		text, inComment = stripComments(sc.Text(), inComment)
		if err := p.directive(text); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(p.conds) > 0 {
		return p.errorf("%d #if without #endif", len(p.conds))
	}
	return nil
}

// directive reads one line: a #define or #undef where the conditionals let it count, or a
// conditional. #include is not followed: sources lists the headers to read, in order.
func (p *parser) directive(text string) error {
	d := directiveRE.FindStringSubmatch(text)
	if d == nil {
		return nil
	}
	kind, name, rest := d[1], d[2], d[3]
	switch kind {
	case "if", "ifdef", "ifndef":
		on := false
		if p.active() {
			v, err := p.condition(kind, name+rest)
			if err != nil {
				return err
			}
			on = v
		}
		// a branch of a skipped conditional counts as taken, so that no #else of it is read
		p.conds = append(p.conds, cond{on: on, taken: on || !p.active()})
		return nil
	case "elif", "else":
		if len(p.conds) == 0 {
			return p.errorf("#%s without #if", kind)
		}
		c := &p.conds[len(p.conds)-1]
		c.on = false
		if c.taken {
			return nil
		}
		on := true
		if kind == "elif" {
			v, err := p.condition("if", name+rest)
			if err != nil {
				return err
			}
			on = v
		}
		c.on, c.taken = on, on
		return nil
	case "endif":
		if len(p.conds) == 0 {
			return p.errorf("#endif without #if")
		}
		p.conds = p.conds[:len(p.conds)-1]
		return nil
	}
	if !p.active() || name == "" {
		return nil
	}
	if kind == "undef" {
		if _, ok := p.fixed[name]; !ok {
			delete(p.macros, name)
			delete(p.defined, name)
		}
		return nil
	}
	p.defined[name] = true
	if m := defineRE.FindStringSubmatch(text); m != nil && m[1] == name {
		return p.define(m[1], m[2])
	}
	return nil
}

// condition is the value of #ifdef NAME, #ifndef NAME or #if EXPR.
func (p *parser) condition(kind, expr string) (bool, error) {
	name := strings.TrimSpace(expr)
	switch kind {
	case "ifdef":
		return p.defined[name], nil
	case "ifndef":
		return !p.defined[name], nil
	}
	toks := condTokenRE.FindAllString(expr, -1)
	if strings.Join(toks, "") != strings.Join(strings.Fields(expr), "") {
		return false, p.errorf("cannot read #if %q", strings.TrimSpace(expr))
	}
	c := condEval{p: p, toks: toks}
	v, err := c.or()
	if err == nil && c.pos < len(toks) {
		err = p.errorf("unexpected %q in #if %q", toks[c.pos], strings.TrimSpace(expr))
	}
	return v != 0, err
}

func (p *parser) define(name, expr string) error {
	if _, ok := p.fixed[name]; ok {
		return nil
	}
	call := callRE.FindStringSubmatch(name)
	if call != nil && notCalls[call[2]] {
		call = nil
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

var condTokenRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9A-Fa-fxXuUlL]*|\|\||&&|==|!=|[!()]`)

// condEval computes the #if expressions of unistd headers: defined(X) or defined X, numbers,
// macros (0 when not defined, as in C), ==, !=, !, &&, || and parentheses.
type condEval struct {
	p    *parser
	toks []string
	pos  int
}

func (c *condEval) next() string {
	if c.pos >= len(c.toks) {
		return ""
	}
	c.pos++
	return c.toks[c.pos-1]
}

func (c *condEval) peek(tok string) bool { return c.pos < len(c.toks) && c.toks[c.pos] == tok }

func (c *condEval) or() (int64, error) {
	v, err := c.and()
	for err == nil && c.peek("||") {
		c.pos++
		var w int64
		w, err = c.and()
		v = b2i(v != 0 || w != 0)
	}
	return v, err
}

func (c *condEval) and() (int64, error) {
	v, err := c.equality()
	for err == nil && c.peek("&&") {
		c.pos++
		var w int64
		w, err = c.equality()
		v = b2i(v != 0 && w != 0)
	}
	return v, err
}

func (c *condEval) equality() (int64, error) {
	v, err := c.unary()
	for err == nil && (c.peek("==") || c.peek("!=")) {
		eq := c.next() == "=="
		var w int64
		w, err = c.unary()
		v = b2i((v == w) == eq)
	}
	return v, err
}

func (c *condEval) unary() (int64, error) {
	tok := c.next()
	switch {
	case tok == "":
		return 0, c.p.errorf("#if expression ends early")
	case tok == "!":
		v, err := c.unary()
		return b2i(v == 0), err
	case tok == "(":
		v, err := c.or()
		if err == nil && c.next() != ")" {
			err = c.p.errorf("missing ) in #if")
		}
		return v, err
	case tok == "defined":
		paren := c.peek("(")
		if paren {
			c.pos++
		}
		name := c.next()
		if paren && c.next() != ")" {
			return 0, c.p.errorf("missing ) after defined(%s", name)
		}
		return b2i(c.p.defined[name]), nil
	case tok[0] >= '0' && tok[0] <= '9':
		v, err := strconv.ParseInt(strings.TrimRight(tok, "uUlL"), 0, 64)
		if err != nil {
			return 0, c.p.errorf("bad number %q", tok)
		}
		return v, nil
	case tok == ")" || tok == "||" || tok == "&&" || tok == "==" || tok == "!=":
		return 0, c.p.errorf("unexpected %q in #if", tok)
	}
	return c.p.macros[tok], nil // an undefined macro is 0
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
