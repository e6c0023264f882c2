//go:build unix

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// KillGroup runs a command in its own process group and makes cancellation kill the whole
// group: a forked guest child is a separate QEMU process, and a JVM may start programs, that
// would otherwise outlive the run.
func KillGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// SignalOf names the signal that killed a process, "" when it exited.
func SignalOf(ps *os.ProcessState) string {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ""
	}
	sig := ws.Signal()
	name, ok := signalNames[sig]
	if !ok {
		name = fmt.Sprintf("%d", int(sig))
	}
	return name + " (" + sig.String() + ")"
}

// SignalNumber is the number of the signal that ended a process, 0 when it exited.
func SignalNumber(ps *os.ProcessState) int {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0
	}
	return int(ws.Signal())
}

// signalNames are the signals a crashing or stopped program dies of.
var signalNames = map[syscall.Signal]string{
	syscall.SIGSEGV: "SIGSEGV", syscall.SIGBUS: "SIGBUS", syscall.SIGILL: "SIGILL",
	syscall.SIGFPE: "SIGFPE", syscall.SIGABRT: "SIGABRT", syscall.SIGTRAP: "SIGTRAP",
	syscall.SIGSYS: "SIGSYS", syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM",
	syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT", syscall.SIGPIPE: "SIGPIPE",
}
