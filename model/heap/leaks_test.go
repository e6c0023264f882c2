package heap

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// leakDump is a hand-made dump for the leak rules: objects added one by one with their path
// parent (also their dominator), their fields and their class's superclasses.
type leakDump struct {
	r      DumpRetention
	fields map[int32][]FieldValue
	supers map[string][]string
	// elements and texts are arrays' elements and strings' texts, by seq.
	elements map[int32][]FieldValue
	texts    map[int32]string
	fail     int32 // Object fails for this seq (-1: never)
}

func newLeakDump() *leakDump {
	return &leakDump{fields: map[int32][]FieldValue{}, supers: map[string][]string{}, fail: -1}
}

// add appends an object of class (an instance; "class X" for a class object) reached from
// parent through field, retaining size bytes of its own; it returns its seq.
func (d *leakDump) add(class string, parent int32, field string, size uint64, fields ...FieldValue) int32 {
	isClass := strings.HasPrefix(class, "class ")
	name := strings.TrimPrefix(class, "class ")
	ci := int32(-1)
	for i, c := range d.r.Classes {
		if c.Name == name {
			ci = int32(i)
		}
	}
	if ci < 0 {
		ci = int32(len(d.r.Classes))
		d.r.Classes = append(d.r.Classes, RetainedClass{Name: name})
	}
	fi := int32(len(d.r.Fields))
	if strings.HasPrefix(field, "[") {
		var k int32
		fmt.Sscanf(field, "[%d]", &k)
		fi = -(k + 1)
	} else {
		d.r.Fields = append(d.r.Fields, field)
	}
	seq := int32(d.r.Objects.Len())
	depth := int32(0)
	if parent >= 0 {
		depth = d.r.Objects.Depth[parent] + 1
	}
	d.r.Objects.Append(DumpObject{ID: 0x1000 + uint64(seq)*16, Class: ci, IsClass: isClass, Shallow: size,
		Idom: parent, Parent: parent, Depth: depth}, fi)
	d.r.Objects.Retained = d.r.Objects.Retained[:seq] // summed below
	d.r.Objects.Retained = append(d.r.Objects.Retained, 0)
	for p := seq; p >= 0; p = d.r.Objects.Idom[p] {
		d.r.Objects.Retained[p] += size
	}
	d.r.Reachable += size
	d.fields[seq] = fields
	return seq
}

func (d *leakDump) Object(seq int32) (ObjectDetail, error) {
	if seq == d.fail {
		return ObjectDetail{}, errors.New("record damaged")
	}
	o := ObjectDetail{DumpObject: d.r.Object(seq), Fields: d.fields[seq], Elements: d.elements[seq], Length: len(d.elements[seq])}
	o.Text, o.TextKnown = d.texts[seq]
	return o, nil
}

func (d *leakDump) Supers(class int32) ([]string, error) {
	return d.supers[d.r.Classes[class].Name], nil
}

func boolField(name string, v bool) FieldValue {
	return FieldValue{Name: name, Type: "boolean", Value: fmt.Sprint(v), Ref: -1}
}

func refField(name string, seq int32) FieldValue {
	return FieldValue{Name: name, Type: "java.lang.Object", Value: "0x…", Ref: seq, RefID: 1}
}

var activitySupers = []string{"android.app.Activity", "android.view.ContextThemeWrapper", "android.content.ContextWrapper",
	"android.content.Context", "java.lang.Object"}

// traceText is a trace as one line: each step's reference, class, status, suspect mark.
func traceText(tr []LeakStep) string {
	var parts []string
	for _, st := range tr {
		mark := ""
		if st.Suspect {
			mark = "~"
		}
		parts = append(parts, fmt.Sprintf("%s%s %s %s", mark, st.Field, st.ClassOf, st.Leaking))
	}
	return strings.Join(parts, " → ")
}

// The Java sample's shape: a static list holds a destroyed Activity, another static field a
// live one. Only the destroyed one is found, with Shark's marks: the class is not leaking, the
// list and its array are not known, so every reference from the class on is a suspect.
func TestDestroyedActivity(t *testing.T) {
	d := newLeakDump()
	d.supers["demo/Leaks$MainActivity"] = activitySupers
	cls := d.add("class demo/Leaks", -1, "system class", 100)
	list := d.add("java/util/ArrayList", cls, "listeners", 24)
	arr := d.add("[Ljava/lang/Object;", list, "elementData", 56)
	dead := d.add("demo/Leaks$MainActivity", arr, "[0]", 40, boolField("mDestroyed", true), boolField("mFinished", true))
	d.add("[B", dead, "state", 4096)
	d.add("demo/Leaks$MainActivity", cls, "current", 40, boolField("mDestroyed", false))

	got, err := FindLeaks(&d.r, d, LeakOptions{Share: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d suspects, want 1: %+v", len(got), got)
	}
	s := got[0]
	if s.Rule != "destroyed Activity" || s.Object.Seq != dead || s.Why != "Activity#mDestroyed is true" || s.Retained != 40+4096 {
		t.Errorf("suspect %q %d %q retained %d", s.Rule, s.Object.Seq, s.Why, s.Retained)
	}
	want := "system class class demo/Leaks NO → ~listeners java/util/ArrayList UNKNOWN → ~elementData [Ljava/lang/Object; UNKNOWN → " +
		"~[0] demo/Leaks$MainActivity YES"
	if tr := traceText(s.Trace); tr != want {
		t.Errorf("trace\n %s\nwant\n %s", tr, want)
	}
	if s.Trace[0].Reason != "a class is never leaking" {
		t.Errorf("the class's reason: %q", s.Trace[0].Reason)
	}
	if want := "destroyed Activity | demo.Leaks$MainActivity | class demo.Leaks.listeners | java.util.ArrayList.elementData | [Ljava.lang.Object;.[]"; s.Signature != want {
		t.Errorf("signature %q, want %q", s.Signature, want)
	}
}

// Shark's statuses: an object before one known not to leak does not leak either; after the
// first leaking one, every object leaks; the suspects lie between. A leaking object reached
// through another gets no trace of its own: the first counts it.
func TestLeakStatusesAndAlso(t *testing.T) {
	d := newLeakDump()
	d.supers["demo/Main"] = activitySupers
	d.supers["demo/App"] = []string{"android.app.Application", "android.content.ContextWrapper", "java.lang.Object"}
	d.supers["demo/Frag"] = []string{"android.app.Fragment", "java.lang.Object"}
	cls := d.add("class demo/Registry", -1, "system class", 10)
	holder := d.add("demo/Holder", cls, "holder", 10)
	app := d.add("demo/App", holder, "app", 10)
	m := d.add("java/util/HashMap", app, "listeners", 10)
	frag := d.add("demo/Frag", m, "value", 10, refField("mFragmentManager", -1))
	// Fragment's FieldValue for null: no seq, no id.
	d.fields[frag][0].RefID = 0
	act := d.add("demo/Main", frag, "mHost", 10, boolField("mDestroyed", true))
	d.add("demo/Main", act, "previous", 10, boolField("mDestroyed", true))

	got, err := FindLeaks(&d.r, d, LeakOptions{Share: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Object.Seq != frag || got[0].Rule != "Fragment without a manager" || got[0].Also != 2 {
		t.Fatalf("suspects %+v, want the Fragment alone, also retaining the two Activities", got)
	}
	want := "system class class demo/Registry NO → holder demo/Holder NO → app demo/App NO → ~listeners java/util/HashMap UNKNOWN → " +
		"~value demo/Frag YES"
	if tr := traceText(got[0].Trace); tr != want {
		t.Errorf("trace\n %s\nwant\n %s", tr, want)
	}
	if r := got[0].Trace[1].Reason; r != "App↓ is not leaking" {
		t.Errorf("the holder's reason %q", r)
	}
}

// MAT's accumulation point: a class holds a list whose array spreads its bytes over many
// elements; the descent stops at the array. A dump where nothing holds that share has none.
func TestAccumulationPoint(t *testing.T) {
	d := newLeakDump()
	cls := d.add("class demo/Cache", -1, "system class", 10)
	list := d.add("java/util/ArrayList", cls, "entries", 10)
	arr := d.add("[Ljava/lang/Object;", list, "elementData", 10)
	for k := range 5 {
		d.add("demo/Entry", arr, fmt.Sprintf("[%d]", k), 100)
	}
	d.add("class demo/Other", -1, "system class", 20)

	got, err := FindLeaks(&d.r, d, LeakOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Rule != AccumulationRule || got[0].Object.Seq != arr || got[0].Retained != 510 {
		t.Fatalf("suspects %+v, want the array as the accumulation point", got)
	}
	if !strings.Contains(got[0].Why, "class demo.Cache 0x1000 retains 96.4 %") || !strings.Contains(got[0].Why, "it accumulates in one java.lang.Object[] it dominates (510 B), spread over 5 objects it dominates, the largest of which holds 19.6 %") {
		t.Errorf("why: %s", got[0].Why)
	}
	if n := len(got[0].Trace); n != 3 {
		t.Errorf("trace of %d steps, want 3", n)
	}
	if got, _ := FindLeaks(&d.r, d, LeakOptions{Share: 0.97}); len(got) != 0 {
		t.Errorf("with a 97 %% share: %+v", got)
	}
}

// A record that cannot be read stops the rules with an error naming the object.
func TestLeaksError(t *testing.T) {
	d := newLeakDump()
	d.supers["demo/Main"] = activitySupers
	cls := d.add("class demo/Leaks", -1, "system class", 10)
	d.fail = d.add("demo/Main", cls, "main", 10)
	_, err := FindLeaks(&d.r, d, LeakOptions{})
	if err == nil || !strings.Contains(err.Error(), "0x1010") {
		t.Errorf("error %v, want one naming object 0x1010", err)
	}
}

// Two dumps: the leak with more leaking objects after is listed, the unchanged one is not.
func TestGrownLeaks(t *testing.T) {
	a := LeakSuspect{Rule: "destroyed Activity", Class: "A", Signature: "a", Retained: 10}
	b := LeakSuspect{Rule: "destroyed Activity", Class: "B", Signature: "b", Retained: 10}
	acc := LeakSuspect{Rule: AccumulationRule, Class: "C", Signature: "c", Retained: 100}
	grown := acc
	grown.Retained = 300
	a2 := a
	a2.Also = 2
	got := GrownLeaks([]LeakSuspect{a, b, acc}, []LeakSuspect{a2, b, grown})
	if len(got) != 2 || got[0].Signature != "c" || got[1].Signature != "a" || got[1].Before != 1 || got[1].After != 3 {
		t.Errorf("grown %+v", got)
	}
}

func nullField(name string) FieldValue {
	return FieldValue{Name: name, Type: "java.lang.Object", Value: "null", Ref: -1}
}

func intField(name string, v int) FieldValue {
	return FieldValue{Name: name, Type: "int", Value: fmt.Sprint(v), Ref: -1}
}

// Shark's other patterns, each on a small dump: what is found, and why.
func TestAndroidPatterns(t *testing.T) {
	viewSupers := []string{"android.view.View", "java.lang.Object"}
	cases := []struct {
		name  string
		build func(d *leakDump, holder int32)
		want  string // rule: why, "" for none
	}{
		{"a root view a ViewRootImpl holds, detached after being attached", func(d *leakDump, h int32) {
			d.supers["demo/Root"] = viewSupers
			impl := d.add("android/view/ViewRootImpl", h, "root", 10)
			d.add("demo/Root", impl, "mView", 10, refField("mParent", impl), nullField("mAttachInfo"), intField("mWindowAttachCount", 1))
		}, "detached View: root View detached from its window (View.mAttachInfo is null, mWindowAttachCount = 1) yet still held by its ViewRootImpl"},
		{"a parentless view never attached", func(d *leakDump, h int32) {
			d.supers["demo/Root"] = viewSupers
			d.add("demo/Root", h, "cached", 10, nullField("mParent"), nullField("mAttachInfo"), intField("mWindowAttachCount", 0))
		}, ""},
		{"a wrapper of a destroyed Activity", func(d *leakDump, h int32) {
			d.supers["demo/Main"] = activitySupers
			d.supers["android/view/ContextThemeWrapper"] = []string{"android.content.ContextWrapper", "android.content.Context", "java.lang.Object"}
			a := d.add("demo/Main", -1, "JNI global", 10, boolField("mDestroyed", true))
			d.add("android/view/ContextThemeWrapper", h, "themed", 10, refField("mBase", a))
		}, "destroyed Activity: Activity#mDestroyed is true|context of a destroyed Activity: ContextThemeWrapper wraps an Activity with Activity.mDestroyed true"},
		{"a Service ActivityThread no longer holds, and one it holds", func(d *leakDump, h int32) {
			d.supers["demo/Sync"] = []string{"android.app.Service", "android.content.ContextWrapper", "java.lang.Object"}
			d.supers["android/util/ArrayMap"] = []string{"java.lang.Object"}
			gone := d.add("demo/Sync", h, "service", 10)
			alive := d.add("demo/Sync", h, "other", 10)
			at := d.add("android/app/ActivityThread", -1, "Java frame", 10)
			m := d.add("android/util/ArrayMap", at, "mServices", 10, intField("mSize", 1))
			arr := d.add("[Ljava/lang/Object;", m, "mArray", 10)
			d.fields[at] = []FieldValue{refField("mServices", m)}
			d.fields[m] = append(d.fields[m], refField("mArray", arr))
			d.elements = map[int32][]FieldValue{arr: {refField("[0]", -1), refField("[1]", alive), refField("[2]", -1), refField("[3]", gone)}}
		}, "destroyed Service: Service not held by ActivityThread"},
		{"an androidx Fragment reset by initState after onDestroy", func(d *leakDump, h int32) {
			d.supers["demo/Page"] = []string{"androidx.fragment.app.Fragment", "java.lang.Object"}
			reg := d.add("androidx/lifecycle/LifecycleRegistry", h, "registry", 10)
			state := d.add("androidx/lifecycle/Lifecycle$State", reg, "state", 10)
			name := d.add("java/lang/String", state, "name", 10)
			d.fields[reg] = []FieldValue{refField("state", state)}
			d.fields[state] = []FieldValue{refField("name", name)}
			d.texts = map[int32]string{name: "INITIALIZED"}
			d.add("demo/Page", h, "page", 10, refField("mLifecycleRegistry", reg), nullField("mFragmentManager"),
				boolField("mCalled", true), intField("mMaxState", 0))
		}, "destroyed Fragment: Fragment.mLifecycleRegistry.state was reset to INITIALIZED by Fragment#initState() after Fragment#onDestroy()"},
		{"a MessageQueue that quit", func(d *leakDump, h int32) {
			d.add("android/os/MessageQueue", h, "queue", 10, boolField("mQuitting", true))
		}, "quit MessageQueue: MessageQueue#mQuitting is true"},
	}
	for _, c := range cases {
		d := newLeakDump()
		holder := d.add("class demo/Holder", -1, "system class", 10)
		c.build(d, holder)
		found, err := FindLeaks(&d.r, d, LeakOptions{Share: 1})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, s := range found {
			got = append(got, s.Rule+": "+s.Why)
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("%s:\n %s\nwant\n %s", c.name, g, c.want)
		}
	}
}
