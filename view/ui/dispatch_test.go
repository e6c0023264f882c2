package ui

import (
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2/test"
)

// Each Background carries its own way of handing results over, chosen by whoever made it: the
// app's goes through fyne.DoAndWait at once, a test's waits for Wait; no global switches them.
func TestBackgroundDispatchIsInjected(t *testing.T) {
	test.NewTempApp(t)
	var applied atomic.Bool
	worked := make(chan struct{})
	job := func() func() {
		defer close(worked)
		return func() { applied.Store(true) }
	}

	queued := NewQueuedBackground()
	queued.Run(job)
	<-worked
	if applied.Load() {
		t.Fatal("a queued background applied a result before Wait")
	}
	queued.Wait()
	if !applied.Load() {
		t.Fatal("Wait did not apply the queued result")
	}

	applied.Store(false)
	worked = make(chan struct{})
	app := NewBackground()
	app.Run(job)
	app.Wait()
	if !applied.Load() {
		t.Fatal("the app's background did not hand its result to the UI goroutine")
	}

	var shown atomic.Int32
	queued.Show(func() { shown.Add(1) })
	app.Show(func() { shown.Add(10) })
	if shown.Load() != 10 {
		t.Errorf("Show ran %d: want only the app's update (10), a queued background drops it", shown.Load())
	}
}
