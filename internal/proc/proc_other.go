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
