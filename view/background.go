package view

import (
	"context"
	"sync"

	"fyne.io/fyne/v2"
)

// queueResults makes results wait in a queue for wait() instead of going through fyne.Do.
// The view's tests set it: Fyne's test driver runs fyne.Do on the calling goroutine, so
// results would overlap the test's own UI calls; queued, they run on the test's goroutine,
// which plays the UI goroutine, as they run on the real one in the app.
var queueResults = false

// background runs the analysis window's work (reports, queries, chart images, imports) off
// the UI goroutine and hands each result to the UI goroutine. It counts what is under way so
// tests and `androprof screenshot` can wait until the window has settled.
type background struct {
	mu      sync.Mutex
	changed *sync.Cond
	n       int      // jobs working or with a result not yet applied
	queue   []func() // results waiting for wait(), with queueResults
}

func newBackground() *background {
	b := &background{}
	b.changed = sync.NewCond(&b.mu)
	return b
}

// run calls work in a goroutine, then the function it returns (if any) on the UI goroutine.
// The job counts as under way until that function returned, so work it starts is awaited too.
func (b *background) run(work func() (apply func())) {
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
	go func() {
		apply := work()
		switch {
		case apply == nil:
		case queueResults:
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

func (b *background) done() {
	b.mu.Lock()
	b.n--
	b.changed.Broadcast()
	b.mu.Unlock()
}

// wait blocks until no work is under way. In the app, never call it on the UI goroutine, which
// the results need; in tests, call it on the test's goroutine, which then applies them.
func (b *background) wait() {
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

// latest is a kind of load whose newest request is the only one that matters: the table for
// the current selection, the trace of the run shown. Starting one cancels the context of the
// one before, so work the user moved away from stops instead of running to completion, and
// only the newest result is applied. The zero value is ready; use it on the UI goroutine.
type latest struct {
	gen    int
	cancel context.CancelFunc
}

// start runs load on bg with a context the next start (or stop) cancels; the function load
// returns runs on the UI goroutine unless a newer start came since.
func (l *latest) start(bg *background, load func(ctx context.Context) (apply func())) {
	l.stop()
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	mine := l.gen
	bg.run(func() func() {
		defer cancel()
		apply := load(ctx)
		if apply == nil {
			return nil
		}
		return func() {
			if mine == l.gen {
				apply()
			}
		}
	})
}

// stop cancels the load under way, if any, and drops its result.
func (l *latest) stop() {
	l.gen++
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
}
