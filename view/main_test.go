package view

import (
	"os"
	"testing"
)

// Results of background work wait for AnalysisView.Wait, which tests call on their own
// goroutine: see queueResults.
func init() { queueResults = true }

// cleanups run after every test, for fixtures the tests share (methodsDB).
var cleanups []func()

func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range cleanups {
		f()
	}
	os.Exit(code)
}
