// Package javaname writes Java methods as people read them: "GameScreen.paint(float)" in
// "com.jag.positron", from the JVM's names and descriptors ("com/jag/positron/GameScreen",
// "paint", "(F)V") that traces and symbol maps keep. It is display only: reports, lookups and
// comparisons keep the raw names, so what a tool such as dmtracedump prints still matches.
// Anything it cannot read comes back unchanged with ok false; it never panics.
package javaname

import "strings"

// Name is a method, class or package as a table shows it: the short part in the name column,
// the package beside it (dimmed, or in a column of its own), so rows of one package read alike.
type Name struct {
	Short   string // "GameScreen.paint(float)", "GameScreen(int)" for a constructor, "GameScreen" for a class
	Package string // "com.jag.positron"; "" in the default package or when the name is not Java's
}

// Full is the name with its package, "com.jag.positron.GameScreen.paint(float)": what a search
// matches besides the raw name, and what a line of text shows when it has no package column.
func (n Name) Full() string {
	if n.Package == "" {
		return n.Short
	}
	return n.Package + "." + n.Short
}

// Raw is a name that is not Java's (a thread, "(toplevel)", a native symbol), shown as it is.
func Raw(s string) Name { return Name{Short: s} }

// StaticInit is how a class's <clinit> reads, after the class: javap writes "static {}",
// Android Studio "<clinit>"; the words say what it is.
const StaticInit = " (static initializer)"

// Method reads a method from its class ("com/jag/positron/GameScreen" or dotted, or an array
// descriptor such as "[I" for clone on arrays), name and descriptor ("(F)V"; "" when the trace
// has none, then no parentheses are shown). Constructors read as javap writes them,
// "GameScreen(int)"; inner classes keep javap's and Android Studio's '$'. ok is false, and the
// name raw, when any part is malformed.
func Method(class, method, descriptor string) (Name, bool) {
	raw := Raw(traceviewName(class, method, descriptor))
	cls, pkg, ok := className(class)
	if !ok || !methodNameOK(method) {
		return raw, false
	}
	params := ""
	if descriptor != "" {
		ps, _, ok := Params(descriptor)
		if !ok {
			return raw, false
		}
		params = "(" + strings.Join(ps, ", ") + ")"
	}
	switch method {
	case "<init>":
		if params == "" {
			params = "()"
		}
		return Name{Short: cls + params, Package: pkg}, true
	case "<clinit>":
		return Name{Short: cls + StaticInit, Package: pkg}, true
	}
	return Name{Short: cls + "." + method + params, Package: pkg}, true
}

// Class reads a class, slashed or dotted, or an array descriptor: "GameScreen" in
// "com.jag.positron". ok is false, and the name raw, when it is not a class name.
func Class(class string) (Name, bool) {
	cls, pkg, ok := className(class)
	if !ok {
		return Raw(class), false
	}
	return Name{Short: cls, Package: pkg}, true
}

// Package reads a package as Java source writes it, dotted: "com/jag/positron" is
// "com.jag.positron". ok is false, and the name raw, when it is not a package name.
func Package(pkg string) (Name, bool) {
	if pkg == "" || !pathOK(pkg) {
		return Raw(pkg), false
	}
	return Name{Short: dotted(pkg)}, true
}

// traceviewName is the raw name as Traceview writes it, "class.name signature" (only the class
// for dmtracedump's synthetic "(toplevel)").
func traceviewName(class, method, descriptor string) string {
	name := class + "." + method
	switch {
	case class == "":
		name = method
	case method == "":
		name = class
	}
	if descriptor != "" {
		name += " " + descriptor
	}
	return name
}

// className splits a class into its simple name and dotted package.
func className(class string) (simple, pkg string, ok bool) {
	if strings.HasPrefix(class, "[") {
		t, rest, ok := fieldType(class)
		if !ok || rest != "" {
			return "", "", false
		}
		return t, elementPackage(class), true
	}
	if class == "" || !pathOK(class) {
		return "", "", false
	}
	i := strings.LastIndexAny(class, "/.")
	if i < 0 {
		return class, "", true
	}
	return class[i+1:], dotted(class[:i]), true
}

// elementPackage is the package of an array descriptor's element class, "" for primitives.
func elementPackage(desc string) string {
	desc = strings.TrimLeft(desc, "[")
	if !strings.HasPrefix(desc, "L") {
		return ""
	}
	cls := strings.TrimSuffix(desc[1:], ";")
	if i := strings.LastIndexByte(cls, '/'); i >= 0 {
		return dotted(cls[:i])
	}
	return ""
}

func dotted(s string) string { return strings.ReplaceAll(s, "/", ".") }

// pathOK says whether s is a class or package name, slashed or dotted: parts that are not
// empty and hold none of the characters the JVM forbids in names (. ; [ / and, outside
// <init>, < >) nor spaces or controls. '$' and '-' (D8's "-$$Lambda$…") are allowed.
func pathOK(s string) bool {
	if strings.Contains(s, "/") && strings.Contains(s, ".") {
		return false
	}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '.' }) {
		if !partOK(part) {
			return false
		}
	}
	return !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, ".") && !strings.HasSuffix(s, "/") &&
		!strings.HasSuffix(s, ".") && !strings.Contains(s, "//") && !strings.Contains(s, "..")
}

// partOK says whether one part of a name holds no forbidden character.
func partOK(p string) bool {
	if p == "" {
		return false
	}
	for _, r := range p {
		if r <= ' ' || r == 0x7f || strings.ContainsRune(";[]()<>/.,", r) {
			return false
		}
	}
	return true
}

// methodNameOK says whether s is a method's name: <init>, <clinit> or a part with no
// forbidden character.
func methodNameOK(s string) bool {
	return s == "<init>" || s == "<clinit>" || partOK(s)
}
