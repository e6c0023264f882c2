package proc

import (
	"context"
	"fmt"
	"strings"
)

// MissingToolError says a program or file a runner needs is not installed, and which Debian
// package provides it, so the user can act on the message as it is.
type MissingToolError struct {
	Tool    string // e.g. qemu-arm, javac
	Package string // e.g. qemu-user
	Purpose string // e.g. "to run sieve"
}

// Error says what to install.
func (e *MissingToolError) Error() string {
	return fmt.Sprintf("%s is not installed (needed %s): install the Debian package %s (apt-get install %s)",
		e.Tool, e.Purpose, e.Package, e.Package)
}

// ExitError reports a program that did not exit with status 0: a crash or a failure of the
// program itself. Runners return it after keeping whatever the program left (profiles, a heap
// log), so the caller decides whether a run of a failing program is worth keeping.
type ExitError struct {
	Program  string
	Under    string // the emulator it ran under, e.g. qemu-arm; "" when it ran natively
	ExitCode int    // -1 when killed by a signal
	Signal   string // e.g. "SIGSEGV (segmentation fault)"; "" for a normal exit
	// SignalNumber is the signal's number (0 for a normal exit), for a wrapper's exit status.
	SignalNumber int
	Detail       string // its last words, e.g. "qemu: uncaught target signal 11 ..."
	Imported     int    // profiles read from it up to its end (emulator runs)
	Kept         string // what was kept anyway, e.g. "no profile was written"; "" says nothing
	// Said is the program's own last line on standard error (e.g. "usage: sieve [2..200000]"),
	// not the emulator's; a window, which shows no terminal, says it with the exit.
	Said string
}

// Ended is how the program ended, in words: "sieve exited with status 1 under qemu-arm".
func (e *ExitError) Ended() string {
	var sb strings.Builder
	if e.Signal != "" {
		fmt.Fprintf(&sb, "%s was killed by signal %s", e.Program, e.Signal)
	} else {
		fmt.Fprintf(&sb, "%s exited with status %d", e.Program, e.ExitCode)
	}
	if e.Under != "" {
		fmt.Fprintf(&sb, " under %s", e.Under)
	}
	return sb.String()
}

// Error names the program, how it ended, its last words and what was kept.
func (e *ExitError) Error() string {
	var sb strings.Builder
	sb.WriteString(e.Ended())
	if e.Detail != "" {
		fmt.Fprintf(&sb, " (%s)", e.Detail)
	}
	if e.Kept != "" {
		fmt.Fprintf(&sb, "; %s", e.Kept)
	}
	return sb.String()
}

// Status is the exit status a shell gives the program: its exit code, or 128 + the signal.
func (e *ExitError) Status() int {
	if e.SignalNumber > 0 {
		return 128 + e.SignalNumber
	}
	if e.ExitCode < 0 {
		return 1
	}
	return e.ExitCode
}

// StoppedError says the programs a command ran were ended before their end because the command
// was stopped (Ctrl-C, SIGTERM, a window's Cancel), and what stays of them: whatever the runners
// wrote is removed unless it is named in Kept.
type StoppedError struct {
	Ended string // the programs that were ended, e.g. "java", "perf and java"; "" when none ran any more
	Kept  string // what stays, e.g. "the heap log so far is in DIR/heap.heaplog"; "" is nothing
	Err   error  // why: the context's cause (context.Canceled, or the signal that stopped the command)
}

// Error says why, what ended and what was kept, in one sentence.
func (e *StoppedError) Error() string {
	why := "stopped" // a plain cancel's "context canceled" says nothing to a user
	if e.Err != nil && e.Err != context.Canceled {
		why = e.Err.Error()
	}
	var sb strings.Builder
	sb.WriteString(why)
	if e.Ended != "" {
		fmt.Fprintf(&sb, ": %s ended", e.Ended)
	} else {
		sb.WriteString(" before the import's commit")
	}
	sb.WriteString("; nothing was imported, the workspace is unchanged; ")
	if e.Kept == "" {
		sb.WriteString("kept nothing")
	} else {
		sb.WriteString(e.Kept)
	}
	return sb.String()
}

// Unwrap is the cause, so errors.Is(err, context.Canceled) holds.
func (e *StoppedError) Unwrap() error { return e.Err }

// Stopped is the error of a runner whose context was cancelled while ended ran: the
// context's cause, with what ended.
func Stopped(ctx context.Context, ended string) *StoppedError {
	return &StoppedError{Ended: ended, Err: context.Cause(ctx)}
}
