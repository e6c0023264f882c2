//go:build !unix

package proc

import (
	"os"
	"os/exec"
)

// KillGroup: without process groups, cancellation kills the process alone.
func KillGroup(cmd *exec.Cmd) {}

// SignalOf: only Unix reports signals.
func SignalOf(ps *os.ProcessState) string { return "" }

// SignalNumber is 0: no signals here.
func SignalNumber(ps *os.ProcessState) int { return 0 }

// DeathSignal: no parent-death signal here.
func DeathSignal(cmd *exec.Cmd, sig os.Signal) {}

// Run runs the command: no watcher here.
func Run(cmd *exec.Cmd) error { return cmd.Run() }
