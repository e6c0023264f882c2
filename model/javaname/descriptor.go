package javaname

import "strings"

// primitives are the JVM's base types by their descriptor letter (JVMS §4.3.2).
var primitives = map[byte]string{'B': "byte", 'C': "char", 'D': "double", 'F': "float", 'I': "int", 'J': "long", 'S': "short", 'Z': "boolean"}

// maxDims is the JVM's limit on array dimensions (JVMS §4.4.1): a descriptor with more is
// malformed, not a reason to build a long string.
const maxDims = 255

// Params reads a method descriptor, "(I[Ljava/lang/String;)V", into its parameter types and
// return type as Java source writes them with simple class names: ["int", "String[]"] and
// "void". ok is false when the descriptor is malformed (then the others are empty).
func Params(descriptor string) (params []string, ret string, ok bool) {
	rest, found := strings.CutPrefix(descriptor, "(")
	if !found {
		return nil, "", false
	}
	for !strings.HasPrefix(rest, ")") {
		t, r, ok := fieldType(rest)
		if !ok {
			return nil, "", false
		}
		params, rest = append(params, t), r
	}
	rest = rest[1:]
	if rest == "V" {
		return params, "void", true
	}
	ret, rest, ok = fieldType(rest)
	if !ok || rest != "" {
		return nil, "", false
	}
	return params, ret, true
}

// Type reads one field descriptor, "[Ljava/util/Map$Entry;", as Java source writes the type
// with its simple class name: "Map$Entry[]". ok is false when it is malformed or not alone.
func Type(descriptor string) (string, bool) {
	t, rest, ok := fieldType(descriptor)
	if !ok || rest != "" {
		return descriptor, false
	}
	return t, true
}

// fieldType reads the field descriptor at the start of s and returns what follows it.
func fieldType(s string) (t, rest string, ok bool) {
	dims := 0
	for dims < len(s) && s[dims] == '[' {
		dims++
	}
	if dims > maxDims || dims == len(s) {
		return "", "", false
	}
	s = s[dims:]
	if p, isPrim := primitives[s[0]]; isPrim {
		t, rest = p, s[1:]
	} else {
		if s[0] != 'L' {
			return "", "", false
		}
		end := strings.IndexByte(s, ';')
		if end < 0 {
			return "", "", false
		}
		cls := s[1:end]
		if cls == "" || strings.Contains(cls, ".") || !pathOK(cls) {
			return "", "", false
		}
		t, rest = cls[strings.LastIndexByte(cls, '/')+1:], s[end+1:]
	}
	return t + strings.Repeat("[]", dims), rest, true
}
