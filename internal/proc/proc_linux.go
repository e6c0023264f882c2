package proc

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// DeathSignal has the kernel send sig to the command when androprof dies, even by SIGKILL,
// which no handler sees. perf record takes SIGTERM (it then ends its program and writes its
// file), a program run directly SIGKILL. The signal goes when the thread that started the
// command ends; Go ends threads only of goroutines that locked them and did not unlock.
func DeathSignal(cmd *exec.Cmd, sig os.Signal) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = sig.(syscall.Signal)
}

// GroupRunning says whether a process of group pgid still runs. A zombie runs nothing and
// writes nothing; it only waits for its parent (or init) to reap it.
func GroupRunning(pgid int) bool {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return syscall.Kill(-pgid, 0) == nil
	}
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // ended meanwhile
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
		f := bytes.Fields(b[bytes.LastIndexByte(b, ')')+1:])
		if len(f) > 2 && string(f[0]) != "Z" && string(f[2]) == strconv.Itoa(pgid) {
			return true
		}
	}
	return false
}
