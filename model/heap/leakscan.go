package heap

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// objectsKept bounds the objects a scan keeps decoded: a dump of a phone's app holds tens of
// thousands of Views.
const objectsKept = 4096

// leakScan reads a dump's objects for the leak rules: classes by name up their superclass
// chain, fields by name, each object decoded once. The first error stops the scan (err).
type leakScan struct {
	r     *DumpRetention
	heap  LeakHeap
	chain map[int32][]string // class index → its name and its superclasses', Java's way
	objs  map[int32]*ObjectDetail
	err   error
	// services the ActivityThread holds (inspectService), once read; servicesRead says the
	// dump has an ActivityThread.mServices to read them from.
	services     map[int32]bool
	servicesRead bool
}

func newLeakScan(r *DumpRetention, heap LeakHeap) *leakScan {
	return &leakScan{r: r, heap: heap, chain: map[int32][]string{}, objs: map[int32]*ObjectDetail{}}
}

// hierarchy is a class and its superclasses, nearest first, named as Java does.
func (s *leakScan) hierarchy(class int32) []string {
	if h, ok := s.chain[class]; ok {
		return h
	}
	var h []string
	if class >= 0 && int(class) < len(s.r.Classes) {
		h = append(h, javaName(s.r.Classes[class].Name))
		supers, err := s.heap.Supers(class)
		if err != nil && s.err == nil {
			s.err = err
		}
		for _, n := range supers {
			h = append(h, javaName(n))
		}
	}
	s.chain[class] = h
	return h
}

// classIs says whether a class is the named one or a subclass of it.
func (s *leakScan) classIs(class int32, name string) bool {
	return slices.Contains(s.hierarchy(class), name)
}

// instanceOf says whether object seq is an instance of the named class or of a subclass.
func (s *leakScan) instanceOf(seq int32, name string) bool {
	return s.isInstance(seq) && s.classIs(s.r.Objects.Class[seq], name)
}

// isInstance says whether seq is one of the dump's reachable objects, and no class object.
func (s *leakScan) isInstance(seq int32) bool {
	return seq >= 0 && int(seq) < s.r.Objects.Len() && !s.r.Objects.IsClass[seq]
}

// className is an object's class, as Java names it.
func (s *leakScan) className(seq int32) string {
	if !s.isInstance(seq) {
		return ""
	}
	if h := s.hierarchy(s.r.Objects.Class[seq]); len(h) > 0 {
		return h[0]
	}
	return ""
}

// object is an object decoded (nil after an error).
func (s *leakScan) object(seq int32) *ObjectDetail {
	if o, ok := s.objs[seq]; ok {
		return o
	}
	if s.err != nil || seq < 0 || int(seq) >= s.r.Objects.Len() {
		return nil
	}
	o, err := s.heap.Object(seq)
	if err != nil {
		s.err = fmt.Errorf("the leak rules reading object %#x: %w", s.r.Objects.ID[seq], err)
		return nil
	}
	if len(s.objs) >= objectsKept {
		clear(s.objs) // a rule reads a few objects again, never thousands
	}
	s.objs[seq] = &o
	return &o
}

// field is an instance's field by name: the last of that name, so the one the class highest
// up the chain declares (a subclass may declare a field of the same name, never a superclass
// of the classes the rules name).
func (s *leakScan) field(seq int32, name string) (FieldValue, bool) {
	o := s.object(seq)
	if o == nil {
		return FieldValue{}, false
	}
	for i := len(o.Fields) - 1; i >= 0; i-- {
		if o.Fields[i].Name == name {
			return o.Fields[i], true
		}
	}
	return FieldValue{}, false
}

// boolean is a boolean field's value; ok is false when the object has no such field.
func (s *leakScan) boolean(seq int32, name string) (v, ok bool) {
	f, ok := s.field(seq, name)
	if !ok || f.Type != "boolean" {
		return false, false
	}
	return f.Value == "true", true
}

// integer is an int (or long, short, byte) field's value.
func (s *leakScan) integer(seq int32, name string) (int64, bool) {
	f, ok := s.field(seq, name)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(f.Value, 10, 64)
	return v, err == nil
}

// ref is the reachable object a reference field holds: -1 for null or an object that is not
// reachable (or not in the dump); null says whether it is null; ok whether the field exists.
func (s *leakScan) ref(seq int32, name string) (target int32, null, ok bool) {
	f, ok := s.field(seq, name)
	if !ok {
		return -1, false, false
	}
	return f.Ref, f.Ref < 0 && f.RefID == 0, true
}

// isNull says whether a reference field is null; ok is false when there is no such field.
func (s *leakScan) isNull(seq int32, name string) (null, ok bool) {
	_, null, ok = s.ref(seq, name)
	return null, ok
}

// text is a String's (or char[]'s) text, "" when the object holds none.
func (s *leakScan) text(seq int32) (string, bool) {
	if seq < 0 {
		return "", false
	}
	o := s.object(seq)
	if o == nil || !o.TextKnown {
		return "", false
	}
	return o.Text, true
}

// stringField is the text of a String field.
func (s *leakScan) stringField(seq int32, name string) (string, bool) {
	t, _, ok := s.ref(seq, name)
	if !ok {
		return "", false
	}
	return s.text(t)
}

// enumName is the name of the enum constant a field holds (java.lang.Enum's name).
func (s *leakScan) enumName(seq int32, field string) (string, bool) {
	e, _, ok := s.ref(seq, field)
	if !ok || e < 0 {
		return "", false
	}
	return s.stringField(e, "name")
}

// inspect runs every rule's inspector on one step of a trace: Shark's resolution of what each
// says (leaking reasons win over not-leaking ones only on the leaking object itself).
func (s *leakScan) inspect(o DumpObject, leakingWins bool) (LeakStatus, string) {
	var yes, no []string
	if o.IsClass {
		no = append(no, "a class is never leaking")
	} else {
		for _, rule := range leakRules {
			if rule.inspect == nil || !s.classIs(o.Class, rule.class) {
				continue
			}
			y, n := rule.inspect(s, o.Seq)
			yes, no = append(yes, y...), append(no, n...)
		}
	}
	switch {
	case len(yes) > 0 && (len(no) == 0 || leakingWins):
		return LeakYes, joinReasons(strings.Join(yes, " and "), conflictsWith(no))
	case len(no) > 0:
		return LeakNo, joinReasons(strings.Join(no, " and "), conflictsWith(yes))
	}
	return LeakUnknown, ""
}

func conflictsWith(reasons []string) string {
	if len(reasons) == 0 {
		return ""
	}
	return "conflicts with " + strings.Join(reasons, " and ")
}
