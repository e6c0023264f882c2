package benchmem

import "testing"

// CheckGoal judges an overhead ratio the way the overhead benchmarks share: over the issue's
// goal the run says it missed it, and past ciBound (the goal plus what a busy, shared CI host
// adds to the same code) it fails. what says what the ratio compares, e.g. "plugin run over
// plain qemu".
func CheckGoal(tb testing.TB, what string, ratio, goal, ciBound float64) {
	tb.Helper()
	switch {
	case ratio > ciBound:
		tb.Errorf("%s: %.2f×; the issue allows %g× (CI, for a busy host, %g×)", what, ratio, goal, ciBound)
	case ratio > goal:
		tb.Logf("over the issue's goal: %s: %.2f× (goal %g×)", what, ratio, goal)
	}
}
