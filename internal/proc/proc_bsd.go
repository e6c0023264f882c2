//go:build unix && !linux

package proc

import (
	"os"
	"os/exec"
	"syscall"
)

// DeathSignal: only Linux has a parent-death signal.
func DeathSignal(cmd *exec.Cmd, sig os.Signal) {}

// GroupRunning asks the kernel, which counts a zombie as a member.
func GroupRunning(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
