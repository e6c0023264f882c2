package ui

import (
	"sync"

	"fyne.io/fyne/v2"
)

// Background runs the analysis window's work (reports, queries, chart images, imports) off
// the UI goroutine and hands each result to the UI goroutine. It counts what is under way so
// tests and the screenshot tour (cmd/tour) can wait until the window has settled. Whoever
// makes a window gives it its Background: NewBackground in the app, NewQueuedBackground in
// tests.
type Background struct {
	queued  bool // results wait for Wait instead of going through fyne.DoAndWait
	mu      sync.Mutex
	changed *sync.Cond
	n       int      // jobs working or with a result not yet applied
	queue   []func() // results waiting for Wait, when queued
}

// NewBackground hands each result to the UI goroutine (fyne.DoAndWait), as the app needs.
func NewBackground() *Background { return newBackground(false) }

// NewQueuedBackground keeps each result in a queue until Wait applies it on the goroutine that
// calls Wait. Tests of windows use it: Fyne's test driver runs fyne.Do on the calling
// goroutine, so results would overlap the test's own UI calls; queued, they run on the test's
// goroutine, which plays the UI goroutine, as they run on the real one in the app.
func NewQueuedBackground() *Background { return newBackground(true) }

func newBackground(queued bool) *Background {
	b := &Background{queued: queued}
	b.changed = sync.NewCond(&b.mu)
	return b
}

// Show hands f, a UI update nobody waits for (a progress bar's value), to the UI goroutine. A
// queued Background drops it: the test driver would run it on the worker's goroutine (see
// NewQueuedBackground), and tests check what the work did, not the bar.
func (b *Background) Show(f func()) {
	if !b.queued {
		fyne.Do(f)
	}
}

// Run calls work in a goroutine, then the function it returns (if any) on the UI goroutine.
// The job counts as under way until that function returned, so work it starts is awaited too.
func (b *Background) Run(work func() (apply func())) {
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
	go func() {
		apply := work()
		switch {
		case apply == nil:
		case b.queued:
			b.mu.Lock()
			b.queue = append(b.queue, apply)
			b.changed.Broadcast()
			b.mu.Unlock()
			return // counted down by wait, once applied
		default:
			fyne.DoAndWait(apply)
		}
		b.done()
	}()
}

func (b *Background) done() {
	b.mu.Lock()
	b.n--
	b.changed.Broadcast()
	b.mu.Unlock()
}

// Wait blocks until no work is under way. In the app, never call it on the UI goroutine, which
// the results need; in tests, call it on the test's goroutine, which then applies them.
func (b *Background) Wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.n > 0 {
		if len(b.queue) == 0 {
			b.changed.Wait()
			continue
		}
		apply := b.queue[0]
		b.queue = b.queue[1:]
		b.mu.Unlock()
		apply()
		b.mu.Lock()
		b.n--
	}
}
