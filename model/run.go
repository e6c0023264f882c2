package model

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Process is one guest process of a run. In user-mode QEMU a forked child is its own process.
type Process struct {
	PID       int
	ParentPID int    // 0 when unknown or none
	Name      string // program name, e.g. "sieve-arm"
}

// Thread is one guest thread. In user-mode QEMU each guest thread is its own vCPU, so logs that
// print only a vCPU index give that index as the thread id.
type Thread struct {
	PID  int
	TID  int
	Name string
}

// RunInfo describes a stored run in lists.
type RunInfo struct {
	Name         string
	Kind         RunKind
	CreatedAt    string
	Source       string // what was imported or run, for people
	Processes    int
	Blocks       int
	Instructions int64 // dynamic count over all processes
}

// RunKind is what a run holds, and so which controller service reads it. Its values are the
// workspace's runs.kind column; these constants are the only place they are spelled.
type RunKind string

// The kinds of run (RunInfo.Kind).
const (
	RunKindEmulator RunKind = "emulator" // basic-block counts from QEMU
	RunKindMethods  RunKind = "methods"  // a method trace: Traceview, DPA, RMP
	RunKindHeap     RunKind = "heap"     // a heap log
	RunKindHeapDump RunKind = "heapdump" // an HPROF heap dump
	RunKindSamples  RunKind = "samples"  // a system profiler's samples with call stacks (perf, simpleperf)
)

// RunKinds lists every kind of run, in the order lists show them.
var RunKinds = []RunKind{RunKindEmulator, RunKindMethods, RunKindHeap, RunKindHeapDump, RunKindSamples}

// RunKindText names a kind of run for messages.
func RunKindText(kind RunKind) string {
	switch kind {
	case RunKindEmulator:
		return "an emulator run"
	case RunKindMethods:
		return "a method trace"
	case RunKindHeap:
		return "a heap log"
	case RunKindHeapDump:
		return "a heap dump"
	case RunKindSamples:
		return "a sampled profile"
	}
	return "a run of kind " + string(kind)
}

// MaxRunName is the longest run name in bytes: a name is a label in lists and charts.
const MaxRunName = 200

// CheckRunName says what is wrong with a run name, or nil. Names are shown in the runs list,
// chart titles and a terminal, so control characters (a newline breaks `androprof runs`, an
// escape sequence reaches the terminal raw, a bidi override reorders what is shown) and blank or
// space-padded names are refused.
//
// A refused name is echoed cut (runNameText): it may be 10 KB of anything.
func CheckRunName(name string) error {
	switch {
	case len(name) > MaxRunName:
		return fmt.Errorf("run name %s is %d bytes long: at most %d", runNameText(name), len(name), MaxRunName)
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("a run needs a name that is not blank (got %q)", name)
	case strings.TrimSpace(name) != name:
		return fmt.Errorf("run name %s begins or ends with a space", runNameText(name))
	case !utf8.ValidString(name):
		return fmt.Errorf("run name %s is not valid UTF-8", runNameText(name))
	}
	for _, r := range name {
		if ControlRune(r) {
			return fmt.Errorf("run name %s holds a control character (%U)", runNameText(name), r)
		}
	}
	return nil
}

// runNameText quotes a refused run name for a message, cut after 60 bytes.
func runNameText(name string) string {
	const most = 60
	if len(name) <= most {
		return strconv.Quote(name)
	}
	cut := most
	for i := 0; i < utf8.UTFMax && !utf8.RuneStart(name[cut]); i++ {
		cut-- // not in the middle of a letter
	}
	return strconv.Quote(name[:cut]) + "…"
}

// ControlRune says whether r changes how a terminal or a list shows what follows it rather
// than showing itself: a control character (newline, escape), a line or paragraph separator,
// or a bidi override.
func ControlRune(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp, unicode.Bidi_Control)
}
