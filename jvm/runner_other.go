//go:build !unix

package jvm

import (
	"os"
	"os/exec"
)

// killGroup: without process groups, cancellation kills the JVM alone.
func killGroup(cmd *exec.Cmd) {}

// signalOf: only Unix reports signals.
func signalOf(ps *os.ProcessState) string { return "" }
