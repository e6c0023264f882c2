package view

import (
	"context"
	"testing"
)

// TestLatestCancelsStaleLoad: a second load cancels the first one's context, and only the
// second's result is applied, as when the user picks another run before the first one loaded.
func TestLatestCancelsStaleLoad(t *testing.T) {
	bg := newBackground()
	var l latest
	started, stopped := make(chan struct{}), make(chan error, 1)
	applied := []string{}
	l.start(bg, func(ctx context.Context) func() {
		close(started)
		<-ctx.Done() // a long query that only stops when told to
		stopped <- ctx.Err()
		return func() { applied = append(applied, "first") }
	})
	<-started
	l.start(bg, func(ctx context.Context) func() {
		return func() { applied = append(applied, "second") }
	})
	if err := <-stopped; err != context.Canceled {
		t.Fatalf("first load ended with %v, want it cancelled", err)
	}
	bg.wait()
	if len(applied) != 1 || applied[0] != "second" {
		t.Errorf("applied %v, want only the second load's result", applied)
	}
}
