// Package termtext makes names from input files safe to show on a terminal and in a table.
// Names are data: a class, method, thread, symbol or run name comes from a file someone else
// wrote, so it may hold escape sequences, bidi overrides, line breaks, invalid UTF-8 or a
// megabyte of letters. Everything the program prints from such a name goes through Escape
// (what it is), Cut (how much of it) or Table (where it goes), and commands it suggests quote
// names with Shell.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"androprof/model"

	"github.com/mattn/go-runewidth"
)

// MaxCell is the most display columns a table cell takes: a longer name is cut with "…", so
// one long name does not pad every row of a table to its width.
const MaxCell = 60

// MaxLastCell is the most display columns the last cell of a table's line takes. It pads no
// other row, so it may hold a whole Java method with its signature (tables put such names
// last); a name near the 1 MiB line limit is still cut.
const MaxLastCell = 400

// Escape returns s with everything that would act on a terminal rather than show itself
// written as a Go escape: control characters (NUL, ESC, CR, LF, TAB, DEL, C1), line and
// paragraph separators, bidi controls (U+202E), noncharacters XML refuses (U+FFFE, U+FFFF),
// and bytes that are not UTF-8 (\xff). The result is valid UTF-8, shows each name on one
// line as it is stored, and is unchanged by a second Escape.
func Escape(s string) string { return EscapeExcept(s, "") }

// EscapeExcept is Escape but for the runes in keep, which are written as they are: a
// multi-line error message keeps its own line breaks.
func EscapeExcept(s, keep string) string {
	if clean(s, keep) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case strings.ContainsRune(keep, r) || !unsafe(r):
			b.WriteString(s[i : i+n])
		default:
			b.WriteString(escapeRune(r))
		}
		i += n
	}
	return b.String()
}

// clean says s needs no escape, so the common case allocates nothing.
func clean(s, keep string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return false
			}
		}
		if unsafe(r) && !strings.ContainsRune(keep, r) {
			return false
		}
	}
	return true
}

// unsafe says whether r changes how a terminal shows what follows it (model.ControlRune, the
// rule run names follow), or is no character (a noncharacter XML 1.0 refuses).
func unsafe(r rune) bool { return model.ControlRune(r) || r == 0xFFFE || r == 0xFFFF }

// escapeRune writes r as Go does in a quoted string: \n, \x1b, \u202e.
func escapeRune(r rune) string {
	q := fmt.Sprintf("%+q", r) // '\x1b', '\u202e': ASCII only
	return q[1 : len(q)-1]
}

// Width is how many terminal columns s takes: a wide (East Asian) letter two, a combining
// mark none. Meant for escaped text.
func Width(s string) int {
	w := 0
	for _, r := range s {
		w += runewidth.RuneWidth(r)
	}
	return w
}

// Cut shortens s to at most width display columns, ending in "…" when anything was cut.
// It reads s only as far as it keeps, so cutting a megabyte costs what is kept.
func Cut(s string, width int) string {
	w, end := 0, 0 // end: the bytes of s that fit beside the ellipsis
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if w += runewidth.RuneWidth(r); w > width {
			if width < 1 {
				return ""
			}
			return s[:end] + "…"
		}
		if i += n; w <= width-1 {
			end = i
		}
	}
	return s
}

// Cell is s as a table shows it: escaped, and cut to MaxCell columns.
func Cell(s string) string { return Cut(Escape(s), MaxCell) }

// Shell quotes s for a POSIX shell with single quotes, so a command line the program
// suggests can be pasted as it is: nothing in s ($(…), `…`, $VAR, ;) is run. A quote in s
// ends the quoting, is escaped and starts it again:
//
//	it's → 'it'\''s'
//
// A name of letters, digits and -_./:,=+@% stays as it is, as people read it best.
func Shell(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:,=+@%") == "" {
		return s // nothing the shell reads specially: as it is, for people
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
