package heap

import "fmt"

// leakRule is one of Shark's object inspectors (AndroidObjectInspectors, ObjectInspectors),
// read from the fields the dump holds. inspect says why an instance of class leaks or not (for
// each step of a trace); find, when set, says why an instance is a leaking object to report.
type leakRule struct {
	name    string // the finding's name: "destroyed Activity"
	class   string // the rule looks at instances of this class and its subclasses
	find    func(s *leakScan, seq int32) string
	inspect func(s *leakScan, seq int32) (leaking, notLeaking []string)
}

// leakRules in the order a finding is named by: the first whose find says so.
var leakRules = []leakRule{
	{name: "destroyed Activity", class: "android.app.Activity", find: findBy(inspectActivity), inspect: inspectActivity},
	{name: "Fragment without a manager", class: "android.app.Fragment", find: findBy(inspectFragment("android.app.Fragment")),
		inspect: inspectFragment("android.app.Fragment")},
	{name: "Fragment without a manager", class: "android.support.v4.app.Fragment",
		find: findBy(inspectFragment("android.support.v4.app.Fragment")), inspect: inspectFragment("android.support.v4.app.Fragment")},
	{name: "destroyed Fragment", class: "androidx.fragment.app.Fragment", find: findBy(inspectAndroidXFragment), inspect: inspectAndroidXFragment},
	{name: "detached View", class: "android.view.View", find: findView, inspect: inspectView},
	{name: "detached View", class: "android.widget.Editor", find: findEditor},
	{name: "destroyed Service", class: "android.app.Service", find: findBy(inspectService), inspect: inspectService},
	{name: "context of a destroyed Activity", class: "android.content.ContextWrapper", find: findContextWrapper, inspect: inspectContextWrapper},
	{name: "context of a destroyed Activity", class: "android.app.ContextImpl", find: findBy(inspectContextImpl), inspect: inspectContextImpl},
	{name: "destroyed window", class: "android.view.ViewRootImpl", find: findBy(inspectViewRootImpl), inspect: inspectViewRootImpl},
	{name: "destroyed window", class: "android.view.Window", find: findBy(inspectWindow), inspect: inspectWindow},
	{name: "quit MessageQueue", class: "android.os.MessageQueue", find: findBy(inspectMessageQueue), inspect: inspectMessageQueue},
	{name: "Toast done showing", class: "android.widget.Toast", find: findBy(inspectToast), inspect: inspectToast},
	{class: "android.app.Application", inspect: never("Application is a singleton")},
	{class: "android.app.ActivityThread", inspect: never("ActivityThread is a singleton")},
	{class: "android.view.inputmethod.InputMethodManager", inspect: never("InputMethodManager is a singleton")},
	{class: "java.lang.ClassLoader", inspect: never("a ClassLoader is never leaking")},
	{class: "java.lang.Thread", inspect: inspectThread},
	{class: "androidx.lifecycle.LifecycleRegistry", inspect: inspectLifecycleRegistry},
}

// findBy is a finder that reports what an inspector says leaks.
func findBy(inspect func(*leakScan, int32) ([]string, []string)) func(*leakScan, int32) string {
	return func(s *leakScan, seq int32) string {
		if yes, _ := inspect(s, seq); len(yes) > 0 {
			return yes[0]
		}
		return ""
	}
}

func never(why string) func(*leakScan, int32) ([]string, []string) {
	return func(*leakScan, int32) ([]string, []string) { return nil, []string{why} }
}

func one(why string) []string { return []string{why} }

// inspectActivity: Activity.mDestroyed (Android 4.2 on). Older Androids have no mDestroyed;
// there Android Studio's mFinished says it (finish() was called).
func inspectActivity(s *leakScan, seq int32) ([]string, []string) {
	if d, ok := s.boolean(seq, "mDestroyed"); ok {
		if d {
			return one("Activity#mDestroyed is true"), nil
		}
		return nil, one("Activity#mDestroyed is false")
	}
	if f, ok := s.boolean(seq, "mFinished"); ok && f {
		return one("Activity#mFinished is true (this Android has no mDestroyed)"), nil
	}
	return nil, nil
}

// inspectFragment: a platform or support-library Fragment with no FragmentManager.
func inspectFragment(class string) func(*leakScan, int32) ([]string, []string) {
	simple := simpleName(class)
	return func(s *leakScan, seq int32) ([]string, []string) {
		null, ok := s.isNull(seq, "mFragmentManager")
		switch {
		case !ok:
			return nil, nil
		case null:
			return one(simple + "#mFragmentManager is null"), nil
		}
		return nil, one(simple + "#mFragmentManager is not null")
	}
}

// inspectAndroidXFragment: Shark's reading of an androidx Fragment's lifecycle.
func inspectAndroidXFragment(s *leakScan, seq int32) ([]string, []string) {
	reg, _, ok := s.ref(seq, "mLifecycleRegistry")
	if !ok || reg < 0 {
		return nil, nil
	}
	state, ok := lifecycleState(s, reg)
	switch {
	case !ok:
		return nil, nil
	case state == "DESTROYED":
		return one("Fragment.mLifecycleRegistry.state is DESTROYED"), nil
	case state != "INITIALIZED":
		return nil, one("Fragment.mLifecycleRegistry.state is " + state)
	}
	if _, ok := s.field(seq, "mMaxState"); !ok { // androidx.fragment 1.0: INITIALIZED is "never created"
		return nil, one("Fragment.mLifecycleRegistry.state is INITIALIZED")
	}
	if null, ok := s.isNull(seq, "mFragmentManager"); ok && !null {
		return nil, one("Fragment.mLifecycleRegistry.state is INITIALIZED and Fragment.mFragmentManager is set")
	}
	called, ok := s.boolean(seq, "mCalled")
	switch {
	case !ok:
		return nil, nil
	case called:
		return one("Fragment.mLifecycleRegistry.state was reset to INITIALIZED by Fragment#initState() after Fragment#onDestroy()"), nil
	}
	return nil, one("Fragment.mLifecycleRegistry.state is INITIALIZED and the fragment was never attached")
}

func lifecycleState(s *leakScan, reg int32) (string, bool) {
	if st, ok := s.enumName(reg, "state"); ok {
		return st, true
	}
	return s.enumName(reg, "mState")
}

func inspectLifecycleRegistry(s *leakScan, seq int32) ([]string, []string) {
	if st, ok := lifecycleState(s, seq); ok && st != "DESTROYED" {
		return nil, one("state is " + st)
	}
	return nil, nil
}

func inspectThread(s *leakScan, seq int32) ([]string, []string) {
	if name, ok := s.stringField(seq, "name"); ok && name == "main" {
		return nil, one("the main thread always runs")
	}
	return nil, nil
}

// destroyedActivity says whether a context unwraps to an Activity whose mDestroyed is true.
func destroyedActivity(s *leakScan, context int32) bool {
	a := unwrapComponent(s, context)
	if a < 0 || !s.instanceOf(a, "android.app.Activity") {
		return false
	}
	d, ok := s.boolean(a, "mDestroyed")
	return ok && d
}

// componentKinds are the classes Shark unwraps a context to.
var componentKinds = []string{"android.content.ContextWrapper", "android.app.Activity", "android.app.Application", "android.app.Service"}

// componentKind is the first of componentKinds up an object's class chain, "" for none.
func componentKind(s *leakScan, seq int32) string {
	if !s.isInstance(seq) {
		return ""
	}
	for _, c := range s.hierarchy(s.r.Objects.Class[seq]) {
		for _, k := range componentKinds {
			if c == k {
				return k
			}
		}
	}
	return ""
}

// unwrapComponent follows ContextWrapper.mBase to the Activity, Application or Service a context
// wraps (Shark's unwrapComponentContext); -1 when it wraps none.
func unwrapComponent(s *leakScan, seq int32) int32 {
	switch componentKind(s, seq) {
	case "":
		return -1
	case "android.content.ContextWrapper":
	default:
		return seq
	}
	seen := map[int32]bool{}
	for ctx := seq; ctx >= 0 && !seen[ctx]; {
		seen[ctx] = true
		base, _, _ := s.ref(ctx, "mBase")
		if base < 0 {
			return -1
		}
		kind := componentKind(s, base)
		if kind == "android.app.Activity" {
			return base
		}
		if s.instanceOf(ctx, "com.android.internal.policy.DecorContext") {
			if w, _, ok := s.ref(ctx, "mPhoneWindow"); ok && w >= 0 {
				if c, _, _ := s.ref(w, "mContext"); s.instanceOf(c, "android.app.Activity") {
					return c
				}
			}
		}
		if kind == "android.app.Application" || kind == "android.app.Service" {
			return base
		}
		if kind != "android.content.ContextWrapper" {
			return -1
		}
		ctx = base
	}
	return -1
}

func findContextWrapper(s *leakScan, seq int32) string {
	if componentKind(s, seq) == "android.content.ContextWrapper" && destroyedActivity(s, seq) {
		return simpleName(s.className(seq)) + " wraps an Activity with Activity.mDestroyed true"
	}
	return ""
}

func inspectContextWrapper(s *leakScan, seq int32) ([]string, []string) {
	if why := findContextWrapper(s, seq); why != "" {
		return one(why), nil
	}
	return nil, nil
}

// inspectContextImpl: a ContextImpl is what its mOuterContext is.
func inspectContextImpl(s *leakScan, seq int32) ([]string, []string) {
	outer, _, ok := s.ref(seq, "mOuterContext")
	if !ok || outer < 0 {
		return nil, nil
	}
	name := s.className(outer)
	switch {
	case s.instanceOf(outer, "android.app.Activity"):
		d, ok := s.boolean(outer, "mDestroyed")
		if !ok {
			return nil, nil
		}
		if d {
			return one("ContextImpl.mOuterContext is an instance of " + name + " with Activity.mDestroyed true"), nil
		}
		return nil, one("ContextImpl.mOuterContext is an instance of " + name + " with Activity.mDestroyed false")
	case s.instanceOf(outer, "android.app.Application"):
		return nil, one("ContextImpl.mOuterContext is an instance of " + name + " which extends android.app.Application")
	}
	return nil, nil
}

func inspectViewRootImpl(s *leakScan, seq int32) ([]string, []string) {
	if null, ok := s.isNull(seq, "mView"); ok && null {
		return one("ViewRootImpl#mView is null"), nil
	}
	if c, _, ok := s.ref(seq, "mContext"); ok && destroyedActivity(s, c) {
		return one("ViewRootImpl.mContext references a destroyed activity"), nil
	}
	return nil, nil
}

func inspectWindow(s *leakScan, seq int32) ([]string, []string) {
	if d, ok := s.boolean(seq, "mDestroyed"); ok && d {
		return one("Window#mDestroyed is true"), nil
	}
	return nil, nil
}

func inspectMessageQueue(s *leakScan, seq int32) ([]string, []string) {
	name := "mQuitting"
	q, ok := s.boolean(seq, name)
	if !ok {
		name = "mQuiting"
		if q, ok = s.boolean(seq, name); !ok {
			return nil, nil
		}
	}
	if q {
		return one("MessageQueue#" + name + " is true"), nil
	}
	return nil, one("MessageQueue#" + name + " is false")
}

// inspectToast: a Toast shown (its TN has a window manager) and hidden again (no view).
func inspectToast(s *leakScan, seq int32) ([]string, []string) {
	tn, _, ok := s.ref(seq, "mTN")
	if !ok || tn < 0 {
		return nil, nil
	}
	if wmNull, ok := s.isNull(tn, "mWM"); !ok || wmNull {
		return nil, nil
	}
	viewNull, ok := s.isNull(tn, "mView")
	switch {
	case !ok:
		return nil, nil
	case viewNull:
		return one("this toast is done showing (Toast.mTN.mWM != null && Toast.mTN.mView == null)"), nil
	}
	return nil, one("this toast is showing (Toast.mTN.mWM != null && Toast.mTN.mView != null)")
}

// findEditor: an Editor whose TextView is a leaking view.
func findEditor(s *leakScan, seq int32) string {
	if tv, _, ok := s.ref(seq, "mTextView"); ok && tv >= 0 && s.instanceOf(tv, "android.view.View") {
		if why := findView(s, tv); why != "" {
			return "Editor#mTextView: " + why
		}
	}
	return ""
}

// decorView is the class of a window's root view.
const decorView = "com.android.internal.policy.DecorView"

// findView is Shark's filter of leaking views: only root views (no parent, or a parent that is
// no View, i.e. a ViewRootImpl), whose context is a destroyed Activity, or that were attached
// to a window once and are not any more while a ViewRootImpl or a DecorView still says so.
func findView(s *leakScan, seq int32) string {
	parent, parentNull, ok := s.ref(seq, "mParent")
	if !ok {
		return ""
	}
	childOfRootImpl := !parentNull && parent >= 0 && !s.instanceOf(parent, "android.view.View")
	if !parentNull && !childOfRootImpl {
		return "" // not a root view: one view of a hierarchy is enough
	}
	if c, _, ok := s.ref(seq, "mContext"); ok && destroyedActivity(s, c) {
		return "View.mContext references a destroyed activity"
	}
	detached, ok := s.isNull(seq, "mAttachInfo")
	count, countOK := s.integer(seq, "mWindowAttachCount")
	if !ok || !detached || !countOK || count <= 0 {
		return ""
	}
	switch {
	case childOfRootImpl:
		return fmt.Sprintf("root View detached from its window (View.mAttachInfo is null, mWindowAttachCount = %d) yet still held by its ViewRootImpl", count)
	case s.className(seq) == decorView:
		return fmt.Sprintf("DecorView detached from its window (View.mAttachInfo is null, mWindowAttachCount = %d)", count)
	}
	return ""
}

// inspectView is Shark's inspection of a view on a trace: leaking when its context is a
// destroyed Activity, or when it was attached to a window and is detached while still part of
// the window's view hierarchy; not leaking when it is attached.
func inspectView(s *leakScan, seq int32) ([]string, []string) {
	if c, _, ok := s.ref(seq, "mContext"); ok && destroyedActivity(s, c) {
		return one("View.mContext references a destroyed activity"), nil
	}
	rootParent, _, ok := s.ref(seq, "mParent")
	if !ok {
		return nil, nil
	}
	rootView := int32(-1)
	for n := 0; rootParent >= 0 && s.instanceOf(rootParent, "android.view.View") && n < maxDescent; n++ {
		rootView = rootParent
		rootParent, _, _ = s.ref(rootParent, "mParent")
	}
	inWindow := rootParent >= 0 || rootView >= 0 && s.className(rootView) == decorView
	count, countOK := s.integer(seq, "mWindowAttachCount")
	detached, ok := s.isNull(seq, "mAttachInfo")
	if !inWindow || !countOK || count <= 0 || !ok {
		return nil, nil
	}
	if detached {
		return one("View detached yet still part of window view hierarchy"), nil
	}
	if rootView >= 0 {
		if rootDetached, ok := s.isNull(rootView, "mAttachInfo"); ok && rootDetached {
			return one("View attached but root view " + s.className(rootView) + " detached (attach disorder)"), nil
		}
	}
	return nil, one("View attached")
}

// inspectService: a Service the ActivityThread no longer holds in mServices was destroyed.
func inspectService(s *leakScan, seq int32) ([]string, []string) {
	alive, known := s.aliveServices()
	switch {
	case !known:
		return nil, nil
	case alive[seq]:
		return nil, one("Service held by ActivityThread")
	}
	return one("Service not held by ActivityThread"), nil
}

// aliveServices are the services ActivityThread.mServices (an ArrayMap) holds: its values, at
// the odd indexes of mArray. known is false when the dump has no such map to read.
func (s *leakScan) aliveServices() (alive map[int32]bool, known bool) {
	if s.services != nil {
		return s.services, len(s.services) > 0 || s.servicesRead
	}
	s.services = map[int32]bool{}
	c := &s.r.Objects
	for i := range c.Len() {
		if c.IsClass[i] || !s.classIs(c.Class[i], "android.app.ActivityThread") {
			continue
		}
		m, _, _ := s.ref(int32(i), "mServices")
		if !s.instanceOf(m, "android.util.ArrayMap") {
			continue
		}
		arr, _, _ := s.ref(m, "mArray")
		o := s.object(arr)
		if arr < 0 || o == nil || o.Length > len(o.Elements) {
			continue // an array cut short: some services unseen
		}
		n := len(o.Elements)
		if size, ok := s.integer(m, "mSize"); ok && size >= 0 && 2*int(size) < n {
			n = 2 * int(size) // past the map's size the array holds no entries
		}
		s.servicesRead = true
		for k := 1; k < n; k += 2 {
			if e := o.Elements[k].Ref; e >= 0 {
				s.services[e] = true
			}
		}
	}
	return s.services, s.servicesRead
}
