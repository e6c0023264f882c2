package benchmem

import "testing"

// CheckGoal judges an overhead ratio the way the overhead benchmarks share: over the issue's
// goal the run says it missed it, and past ciBound (the goal plus what a busy, shared CI host
// adds to the same code) it fails. what says what the ratio compares, e.g. "plugin run over
// plain qemu". Go's first call of a benchmark, with b.N 1 before -benchtime's count, is one
// sample: it is said, not judged (one such pair measured 1.43× on a fresh machine where the
// 21 after it measured 1.13–1.18×).
func CheckGoal(b *testing.B, what string, ratio, goal, ciBound float64) {
	b.Helper()
	switch {
	case b.N == 1:
		b.Logf("%s: %.2f× in Go's one-run probe (judged on the runs -benchtime asks for)", what, ratio)
	case ratio > ciBound:
		b.Errorf("%s: %.2f×; the issue allows %g× (CI, for a busy host, %g×)", what, ratio, goal, ciBound)
	case ratio > goal:
		b.Logf("over the issue's goal: %s: %.2f× (goal %g×)", what, ratio, goal)
	}
}
