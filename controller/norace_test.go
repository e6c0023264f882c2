//go:build !race

package controller

// raceDetector says the tests run under -race, which makes SQLite several times slower.
const raceDetector = false
