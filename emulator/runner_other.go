//go:build !unix

package emulator

import (
	"os"
	"os/exec"
)

// killGroup: without process groups, cancellation kills QEMU alone.
func killGroup(cmd *exec.Cmd) {}

// signalOf: only Unix reports signals.
func signalOf(ps *os.ProcessState) string { return "" }
