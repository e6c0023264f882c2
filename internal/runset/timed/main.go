// Command timed runs a command and prints, on stderr's last line, its wall time and peak
// resident memory, for scripts/scale.sh (Debian does not install /usr/bin/time by default):
//
//	timed COMMAND [ARG...]   →   timed: 12.34 s 56789 KiB exit 0
//
// The peak is the kernel's own count for the child (getrusage's ru_maxrss), not a sample.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: timed COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "timed:", err)
		os.Exit(127)
	}
	code, peak := cmd.ProcessState.ExitCode(), int64(0)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak = ru.Maxrss // KiB on Linux
	}
	fmt.Fprintf(os.Stderr, "timed: %.2f s %d KiB exit %d\n", took.Seconds(), peak, code)
	os.Exit(code)
}
