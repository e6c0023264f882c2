package heap

// The object level of a heap dump (issue 29): one object's fields, its referrers, a class's
// instances, and the leak suspects found among them. docs/heap-objects.md says what each
// number is and where it comes from.

// ObjectKind says what sort of object a dump record holds.
type ObjectKind uint8

// The kinds of objects a dump holds.
const (
	KindInstanceObject ObjectKind = iota + 1 // an instance of a class
	KindObjectArray                          // an array of references
	KindPrimitiveArray                       // an array of int, char, byte, …
	KindClassObject                          // a class itself (its statics are its fields)
)

// String names the kind as the window and `report --object` say it.
func (k ObjectKind) String() string {
	switch k {
	case KindInstanceObject:
		return "instance"
	case KindObjectArray:
		return "object array"
	case KindPrimitiveArray:
		return "primitive array"
	case KindClassObject:
		return "class"
	}
	return "unknown"
}

// ObjectDetail is one reachable object as the object view shows it.
type ObjectDetail struct {
	DumpObject            // seq, id, class, sizes, dominator, path parent
	Kind       ObjectKind //
	Heap       string     // the heap its record is in ("default" when the dump names none)
	// Fields are an instance's fields (its class's own first, then each superclass's, as the
	// dump lays them out), or a class object's static fields.
	Fields []FieldValue
	// Length is an array's length; Elements its first elements (at most ElementsShown), each
	// named "[i]".
	Length   int
	Elements []FieldValue
	// Text is a String, char[] or byte[] read as text, when TextKnown (cut at TextShown
	// characters; TextCut says so).
	Text      string
	TextKnown bool
	TextCut   bool
	// Image is a Bitmap's pixels, when the dump holds them (nil otherwise).
	Image *Bitmap
}

// How much of an object the object view reads: longer arrays and texts are cut, and say so.
const (
	ElementsShown = 1000
	TextShown     = 10_000
)

// FieldValue is one field (or array element) and its value.
type FieldValue struct {
	Name string // "count", "[3]"
	Type string // "int", "boolean", "java.lang.Object" for references…
	// Value is the value as Java would print it: "42", "true", "null", "0x12f4a0 java.lang.String".
	Value string
	// Ref is the object a reference points to: its seq among the reachable objects, or -1
	// (null, a primitive, or an id that is no reachable object of the dump: RefID says which).
	Ref   int32
	RefID uint64
}

// Referrer is an object that refers to another, and through which fields.
type Referrer struct {
	DumpObject
	Fields []string // "next", "[17]": every field of the referrer that holds the object
}

// Bitmap is an android.graphics.Bitmap's pixels as the dump holds them.
type Bitmap struct {
	Width, Height int
	Format        string // "ARGB_8888", "RGB_565"
	Pixels        []byte // as the dump holds them, row by row
}

// LeakSuspect is one finding of the leak rules (docs/heap-leaks.md): an object one of
// Android's known leak patterns says should be gone, or an accumulation point.
type LeakSuspect struct {
	Rule   string // the rule's name: "destroyed Activity", "accumulation point", …
	Object DumpObject
	Class  string
	// Why says, in words, what the rule saw ("Activity#mDestroyed is true").
	Why string
	// Trace is the leak trace: a root first, the leaking object last; each step's Field is
	// the reference from the step before, and each step says whether it leaks (LeakStep).
	Trace    []LeakStep
	Retained uint64
	// Also counts the other leaking objects whose shortest path goes through this one: fixing
	// this leak frees them too, so they get no trace of their own (Shark's "also retains").
	Also int
	// Signature names the leak across dumps: the rule, the class and the suspect references
	// (their owner classes and fields, array indexes left out), as Shark's leak fingerprint.
	Signature string
}

// LeakStatus is what the leak rules know of one object of a trace, as Shark says it.
type LeakStatus uint8

// The three answers: not known, not leaking, leaking.
const (
	LeakUnknown LeakStatus = iota
	LeakNo
	LeakYes
)

// String is the status as Shark prints it ("Leaking: YES").
func (s LeakStatus) String() string {
	switch s {
	case LeakNo:
		return "NO"
	case LeakYes:
		return "YES"
	}
	return "UNKNOWN"
}

// LeakStep is one object of a leak trace and what the rules say of it.
type LeakStep struct {
	DumpObject
	Leaking LeakStatus
	Reason  string // why it leaks or not ("a class is never leaking"), "" when unknown
	// Suspect marks the reference into this step (its Field) as one Shark underlines with ~~~:
	// it leaves the last object known not to leak, or an object not known either way, before
	// the first leaking one. The bug is one of these references.
	Suspect bool
}
