//go:build unix

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// KillGroup runs a command in its own process group and makes cancellation kill the whole
// group: a forked guest child is a separate QEMU process, and a JVM may start programs, that
// would otherwise outlive the run. Cancellation returns once no process of the group runs, so
// the caller may remove the folder they wrote into. The command also dies with androprof
// (SIGKILL when androprof's thread that started it ends; Linux only): a killed androprof
// cannot kill the group, and a group of its own does not get the terminal's signals.
func KillGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	DeathSignal(cmd, syscall.SIGKILL)
	cmd.Cancel = func() error {
		group := groupOf(cmd)
		err := syscall.Kill(-group, syscall.SIGKILL)
		waitGroupGone(group, groupPatience)
		return err
	}
}

// groupOf is the process group of a started command: the watcher's (Run), else its own.
func groupOf(cmd *exec.Cmd) int {
	if cmd.SysProcAttr.Pgid != 0 {
		return cmd.SysProcAttr.Pgid
	}
	return cmd.Process.Pid
}

// Run runs a command set up by KillGroup (else as cmd.Run does) in the process group of a
// watcher that kills the group if androprof dies first: the parent-death signal reaches the
// command alone, not what it forked (a guest's fork under qemu-user is a second QEMU process),
// and a killed androprof cannot kill the group itself. The watcher leads the group before the
// command starts, so there is no moment when the command runs unwatched.
func Run(cmd *exec.Cmd) error {
	w := startWatcher(cmd)
	err := cmd.Run()
	w.done()
	return err
}

// watcherScript kills its own process group unless androprof says "done" before its end
// closes the pipe.
const watcherScript = `read said; [ "$said" = done ] || kill -s KILL 0`

// watcher is a shell that outlives androprof to end the process group it leads.
type watcher struct {
	pipe *os.File
	sh   *exec.Cmd
}

// startWatcher starts the watcher and puts cmd into its group; nil (no watch, the command
// leads a group of its own) when cmd gets no group of its own or no shell can start.
func startWatcher(cmd *exec.Cmd) *watcher {
	if cmd.SysProcAttr == nil || !cmd.SysProcAttr.Setpgid {
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	defer r.Close()
	sh := exec.Command("/bin/sh", "-c", watcherScript)
	sh.Stdin = r
	// A group of its own, the command's: the terminal's Ctrl-C, which androprof handles, must
	// not end them.
	sh.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := sh.Start(); err != nil {
		w.Close()
		return nil
	}
	cmd.SysProcAttr.Pgid = sh.Process.Pid
	return &watcher{pipe: w, sh: sh}
}

// done tells the watcher the group needs it no more, and waits for it to end (a cancelled
// command's group, the watcher with it, is killed already).
func (w *watcher) done() {
	if w != nil {
		w.pipe.WriteString("done\n")
		w.pipe.Close()
		w.sh.Wait()
	}
}

// groupPatience bounds the wait for a killed group's processes to be gone: SIGKILL ends a
// process as soon as it leaves the kernel, but one stuck in a disk or NFS write may take longer.
const groupPatience = 5 * time.Second

// waitGroupGone waits until no process of group pgid runs, or patience has passed.
func waitGroupGone(pgid int, patience time.Duration) {
	deadline := time.Now().Add(patience)
	for GroupRunning(pgid) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
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
	syscall.SIGHUP: "SIGHUP",
}

// SignalName is a signal's name as a shell prints it, e.g. SIGTERM.
func SignalName(sig syscall.Signal) string {
	if name, ok := signalNames[sig]; ok {
		return name
	}
	return fmt.Sprintf("signal %d", int(sig))
}
