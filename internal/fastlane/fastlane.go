// Package fastlane is the rule of the fast lane, `go test -short ./...`: every test that needs
// no program outside Go (no QEMU, cross-compiler, Java, perf, Xvfb, apt or network) and takes
// seconds, in under two minutes on a 2-core machine, so a change to a reader is checked at once.
// The full suite (scripts/test.sh, what CI runs) passes no -short and runs everything.
//
// The helpers that find a test's tools call Needs, so a test that needs QEMU or Java leaves the
// fast lane on every machine alike, not only where the tool is missing.
package fastlane

import "testing"

// Needs leaves t out of the fast lane: it runs what, a program outside Go ("qemu-arm", "Java").
func Needs(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("needs %s: not in the fast lane (-short); the full suite runs it", what)
	}
}

// Slow leaves t out of the fast lane although it needs nothing outside Go: why says what takes
// the time ("every tab at two window sizes").
func Slow(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("slow (%s): not in the fast lane (-short); the full suite runs it", why)
	}
}
