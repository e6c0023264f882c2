//go:build !race

package cli

// raceDetector says the tests run under -race, which multiplies the memory a process takes.
const raceDetector = false
