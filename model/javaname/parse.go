package javaname

import "strings"

// Traceview reads a method as Traceview and dmtracedump name it, "class.name signature"
// ("com/jag/positron/GameScreen.paint (F)V"; dotted on ART): how a report's key or a chart's
// label names a method. ok is false, and the name raw, for anything else ("(toplevel)").
func Traceview(key string) (Name, bool) {
	left, sig, _ := strings.Cut(key, " ")
	dot := strings.LastIndexByte(left, '.')
	if dot <= 0 || sig != "" && !strings.HasPrefix(sig, "(") {
		return Raw(key), false
	}
	if n, ok := Method(left[:dot], left[dot+1:], sig); ok {
		return n, true
	}
	return Raw(key), false
}

// Symbol reads a Java frame's symbol as sampled runs name them: "com.example.Phases.work(I)J"
// (androprof's JIT map agent), "Lcom/example/Phases;work(I)J" and "Lcom/example/Phases;::work"
// (perf-map-agent), "void com.example.Phases.work(int)" and "com.example.Phases.work" (ART and
// simpleperf). ok is false, and the name raw, for anything else. A native symbol can look like
// a Java one ("foo.constprop.0"), so ask only of frames already known to be Java.
func Symbol(sym string) (Name, bool) {
	if strings.HasPrefix(sym, "L") {
		if class, rest, found := strings.Cut(sym[1:], ";"); found {
			rest = strings.TrimPrefix(rest, "::")
			name, desc := rest, ""
			if i := strings.IndexByte(rest, '('); i >= 0 {
				name, desc = rest[:i], rest[i:]
			}
			if n, ok := Method(class, name, desc); ok {
				return n, true
			}
			return Raw(sym), false
		}
	}
	s := sym
	if sp := strings.IndexByte(s, ' '); sp >= 0 && sp < strings.IndexByte(s+"(", '(') { // ART's return type
		s = s[sp+1:]
	}
	head, desc := s, ""
	if i := strings.IndexByte(s, '('); i >= 0 {
		head, desc = s[:i], s[i:]
	}
	dot := strings.LastIndexByte(head, '.')
	if dot <= 0 {
		return Raw(sym), false
	}
	if n, ok := Method(head[:dot], head[dot+1:], desc); ok {
		return n, true
	}
	if n, ok := sourceForm(head[:dot], head[dot+1:], desc); ok {
		return n, true
	}
	return Raw(sym), false
}

// sourceForm reads a method whose parameters are written as Java source writes them,
// "(int, java.lang.String)", as ART's and simpleperf's symbols are.
func sourceForm(class, method, params string) (Name, bool) {
	inner, found := strings.CutPrefix(params, "(")
	if inner, found = strings.CutSuffix(inner, ")"); !found {
		return Name{}, false
	}
	var ps []string
	if strings.TrimSpace(inner) != "" {
		for _, p := range strings.Split(inner, ",") {
			p = strings.TrimSpace(p)
			base := strings.TrimRight(p, "[]")
			if !pathOK(base) || strings.Count(p[len(base):], "[]")*2 != len(p)-len(base) {
				return Name{}, false
			}
			ps = append(ps, base[strings.LastIndexByte(base, '.')+1:]+p[len(base):])
		}
	}
	n, ok := Method(class, method, "")
	if !ok {
		return Name{}, false
	}
	if method == "<clinit>" {
		return n, true
	}
	if method == "<init>" {
		n.Short = strings.TrimSuffix(n.Short, "()")
	}
	n.Short += "(" + strings.Join(ps, ", ") + ")"
	return n, true
}
