package heap

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// The leak rules (docs/heap-leaks.md): Android's known leak patterns as LeakCanary's Shark
// inspects them (AndroidObjectInspectors), each finding with its leak trace marked as Shark
// marks it, and Eclipse MAT's accumulation points.

// LeakHeap is what the leak rules read of a dump besides its retention: objects' fields and
// classes' superclasses. The workspace reads them from the stored records; tests make them up.
type LeakHeap interface {
	// Object is one reachable object (by seq) with its fields: an instance's class's own
	// first, then each superclass's, as ObjectDetail lays them out.
	Object(seq int32) (ObjectDetail, error)
	// Supers names a class's superclasses (the class by its index in DumpRetention.Classes),
	// nearest first; none for java.lang.Object or when the dump does not say.
	Supers(class int32) ([]string, error)
}

// LeakOptions are the leak rules' settings.
type LeakOptions struct {
	// Share is the part of the reachable heap (0–1) an object of the dominator tree's top level
	// must retain to be looked into for an accumulation point: MAT's 10 % by default (0).
	Share float64
}

// MAT's settings: a suspect retains more than 10 % of the heap, and its dominator tree is
// descended while the largest child holds at least 70 % of its parent (the "big drop" ratio).
const (
	DefaultLeakShare = 0.10
	bigDropRatio     = 0.7
	maxDescent       = 1000
)

// FindLeaks runs the leak rules on a dump: the objects Android's leak patterns say should be
// gone (most retained first), then the accumulation points (most retained first).
func FindLeaks(r *DumpRetention, heap LeakHeap, opt LeakOptions) ([]LeakSuspect, error) {
	s := newLeakScan(r, heap)
	found, err := s.leakingObjects()
	if err != nil {
		return nil, err
	}
	out, err := s.traces(found)
	if err != nil {
		return nil, err
	}
	acc, err := s.accumulationPoints(opt.Share)
	if err != nil {
		return nil, err
	}
	return append(out, acc...), nil
}

// leakFound is a leaking object and the rule that found it.
type leakFound struct {
	seq  int32
	rule string
	why  string
}

// leakingObjects runs every rule's finder on every reachable instance of its class.
func (s *leakScan) leakingObjects() ([]leakFound, error) {
	var found []leakFound
	finders := map[int32][]leakRule{} // a class's rules that find leaking objects
	c := &s.r.Objects
	for i := range c.Len() {
		if c.IsClass[i] {
			continue
		}
		rules, ok := finders[c.Class[i]]
		if !ok {
			for _, rule := range leakRules {
				if rule.find != nil && s.classIs(c.Class[i], rule.class) {
					rules = append(rules, rule)
				}
			}
			finders[c.Class[i]] = rules
		}
		for _, rule := range rules {
			if why := rule.find(s, int32(i)); why != "" {
				found = append(found, leakFound{int32(i), rule.name, why})
				break
			}
		}
		if s.err != nil {
			return nil, s.err
		}
	}
	return found, nil
}

// traces builds each leaking object's trace. A leaking object whose shortest path goes through
// another one gets no trace of its own: the one nearer the root counts it in Also.
func (s *leakScan) traces(found []leakFound) ([]LeakSuspect, error) {
	leaking := make(map[int32]int, len(found)) // seq → index in found
	for k, f := range found {
		leaking[f.seq] = k
	}
	also := make([]int, len(found))
	paths := make([][]DumpObject, len(found))
	for k, f := range found {
		path := s.r.Path(f.seq)
		paths[k] = path
		for _, o := range path[:len(path)-1] {
			if j, ok := leaking[o.Seq]; ok {
				also[j]++
				paths[k] = nil
				break
			}
		}
	}
	var out []LeakSuspect
	for k, f := range found {
		if paths[k] == nil {
			continue
		}
		trace := s.leakTrace(paths[k], true)
		if s.err != nil {
			return nil, s.err
		}
		o := s.r.Object(f.seq)
		out = append(out, LeakSuspect{Rule: f.rule, Object: o, Class: o.ClassOf, Why: f.why, Trace: trace,
			Retained: o.Retained, Also: also[k], Signature: leakSignature(f.rule, o.ClassOf, trace)})
	}
	slices.SortStableFunc(out, func(a, b LeakSuspect) int {
		return cmp.Or(cmp.Compare(b.Retained, a.Retained), cmp.Compare(a.Object.ID, b.Object.ID))
	})
	return out, nil
}

// leakTrace marks each step of a path with what the rules know of it, then as Shark does: the
// last step leaks (when leakingLast), every step before the last one not leaking does not,
// every step after the first leaking one does, and the references in between are suspects.
func (s *leakScan) leakTrace(path []DumpObject, leakingLast bool) []LeakStep {
	steps := make([]LeakStep, len(path))
	last := len(path) - 1
	lastNo, firstYes := -1, len(path)
	for i, o := range path {
		steps[i] = LeakStep{DumpObject: o}
		st := &steps[i]
		st.Leaking, st.Reason = s.inspect(o, leakingLast && i == last)
		if leakingLast && i == last && st.Leaking != LeakYes {
			st.Leaking, st.Reason = LeakYes, joinReasons("this is the leaking object", st.Reason)
		}
		switch {
		case st.Leaking == LeakNo:
			lastNo, firstYes = i, len(path)
		case st.Leaking == LeakYes && firstYes == len(path):
			firstYes = i
		}
	}
	for i := range lastNo {
		if steps[i].Leaking != LeakNo {
			next := nextNotLeaking(steps, i, lastNo)
			steps[i].Reason = joinReasons(simpleName(steps[next].ClassOf)+"↓ is not leaking", conflict(steps[i]))
			steps[i].Leaking = LeakNo
		}
	}
	for i := firstYes + 1; i < len(steps); i++ {
		if steps[i].Leaking != LeakYes {
			steps[i].Leaking, steps[i].Reason = LeakYes, simpleName(steps[i-1].ClassOf)+"↑ is leaking"
		}
	}
	if !leakingLast {
		return steps
	}
	for i := 1; i < len(steps); i++ { // the reference from step i-1 into step i
		from := steps[i-1].Leaking
		steps[i].Suspect = from == LeakUnknown || from == LeakNo && steps[i].Leaking != LeakNo
	}
	return steps
}

// nextNotLeaking is the first step after i, up to last, known not to leak.
func nextNotLeaking(steps []LeakStep, i, last int) int {
	for j := i + 1; j < last; j++ {
		if steps[j].Leaking == LeakNo {
			return j
		}
	}
	return last
}

// conflict is what a step forced to "not leaking" had said of itself.
func conflict(st LeakStep) string {
	if st.Leaking == LeakYes {
		return "conflicts with " + st.Reason
	}
	return ""
}

func joinReasons(a, b string) string {
	if b == "" {
		return a
	}
	if a == "" {
		return b
	}
	return a + "; " + b
}

// leakSignature is what matches one leak across two dumps (LeakSuspect.Signature).
func leakSignature(rule, class string, trace []LeakStep) string {
	parts := []string{rule, javaName(class)}
	for i, st := range trace {
		if st.Suspect && i > 0 {
			field := st.Field
			if strings.HasPrefix(field, "[") {
				field = "[]"
			}
			parts = append(parts, javaName(trace[i-1].ClassOf)+"."+field)
		}
	}
	return strings.Join(parts, " | ")
}

// javaName is a class name with dots: HotSpot's demo/Leaks and "class demo/Leaks" become
// demo.Leaks and "class demo.Leaks".
func javaName(name string) string { return strings.ReplaceAll(name, "/", ".") }

// JavaClassName is a class name as Java writes it, whichever way the dump does: HotSpot's
// java/util/ArrayList and [Ljava/lang/Object; become java.util.ArrayList and
// java.lang.Object[] (a leak trace reads as Shark prints it).
func JavaClassName(name string) string {
	dims := 0
	for dims < len(name) && name[dims] == '[' {
		dims++
	}
	base := name[dims:]
	if dims > 0 {
		if prim, ok := primitiveNames[base]; ok {
			base = prim
		} else {
			base = strings.TrimSuffix(strings.TrimPrefix(base, "L"), ";")
		}
	}
	return javaName(base) + strings.Repeat("[]", dims)
}

var primitiveNames = map[string]string{"Z": "boolean", "C": "char", "F": "float", "D": "double", "B": "byte", "S": "short",
	"I": "int", "J": "long"}

// simpleName is a class name without its package ("class " kept off).
func simpleName(name string) string {
	name = strings.TrimPrefix(javaName(name), "class ")
	return name[strings.LastIndexByte(name, '.')+1:]
}

// percentText is part of whole as a percentage for a sentence.
func percentText(part, whole uint64) string {
	if whole == 0 {
		return "an unknown share"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(part)/float64(whole))
}
