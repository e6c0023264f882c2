package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"androprof/internal/proc"
)

// stopSignals stop a command cleanly: Ctrl-C, and what kill, timeout, systemd and CI send
// (SIGTERM), and a closed terminal (SIGHUP).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// stoppedBy is the cause of a context a signal cancelled: the command says it, and exits with
// the status a shell gives a command the signal ended (128 + its number).
type stoppedBy struct{ sig syscall.Signal }

func (s *stoppedBy) Error() string { return "stopped by " + proc.SignalName(s.sig) }

// Is makes a stop a cancellation, for the code that checks errors.Is(err, context.Canceled).
func (s *stoppedBy) Is(target error) bool { return target == context.Canceled }

// stopOnSignal is ctx cancelled by the first of stopSignals, with a *stoppedBy cause. A second
// signal takes its default action and ends androprof at once; the programs it started then
// die with it (proc.KillGroup). A signal androprof was started ignoring (nohup's SIGHUP, a
// script's background job's SIGINT) stays ignored: handling it would undo that.
func stopOnSignal(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	var sigs []os.Signal
	for _, sig := range stopSignals {
		if !signal.Ignored(sig) {
			sigs = append(sigs, sig)
		}
	}
	ch := make(chan os.Signal, 1)
	if len(sigs) > 0 { // Notify of none is Notify of every signal
		signal.Notify(ch, sigs...)
	}
	go func() {
		select {
		case sig := <-ch:
			signal.Reset(sigs...)
			cancel(&stoppedBy{sig.(syscall.Signal)})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}

// stopped is err as the end of a command whose programs were stopped: one sentence (what
// stopped it, what ended, what was kept) and the status of a command that signal ended, 1 for
// a cancellation with no signal. A cancellation no runner worded (a stop before the program
// started, e.g. while the import waited for the workspace) is said with ended, what was to
// run. Other errors pass as they are.
func stopped(ctx context.Context, err error, ended string) error {
	if err == nil || !errors.Is(err, context.Canceled) {
		return err
	}
	var stop *proc.StoppedError
	if !errors.As(err, &stop) {
		stop = proc.Stopped(ctx, ended)
	}
	return &exitError{code: stopCode(ctx), err: stop}
}

// stopCode is the exit status of a command ctx's cancellation stopped: a shell's 128 + the
// signal's number, 1 for a cancellation with no signal.
func stopCode(ctx context.Context) int {
	var by *stoppedBy
	if errors.As(context.Cause(ctx), &by) {
		return 128 + int(by.sig)
	}
	return 1
}
