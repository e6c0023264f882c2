package ui

import (
	"context"
	"errors"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/model"
)

// testHost is a Host whose context the test cancels, as the analysis window does when the user
// picks another run.
type testHost struct {
	win     fyne.Window
	bg      *Background
	ctx     context.Context
	problem string
}

func (h *testHost) Window() fyne.Window               { return h.win }
func (h *testHost) Background() *Background           { return h.bg }
func (h *testHost) Context() context.Context          { return h.ctx }
func (h *testHost) SetProblem(msg string)             { h.problem = msg }
func (h *testHost) RunsOfKind(model.RunKind) []string { return nil }

// TestLoadRunStopsWhenUserMovesOn: a load under way sees its context cancelled when the user moves
// on, stops, and leaves neither its result nor a "Cancelled" problem in the tabs.
func TestLoadRunStopsWhenUserMovesOn(t *testing.T) {
	ctx, moveOn := context.WithCancel(context.Background())
	h := &testHost{win: test.NewTempApp(t).NewWindow("t"), bg: NewQueuedBackground(), ctx: ctx}
	started, stopped := make(chan struct{}), make(chan error, 1)
	shown := false
	var gen int
	LoadRun(h, &gen, "big", func(ctx context.Context) (int, error) {
		close(started)
		<-ctx.Done() // a long query that stops only when told to
		stopped <- ctx.Err()
		return 0, ctx.Err()
	}, func(int) { shown = true })
	<-started
	moveOn()
	if err := <-stopped; !errors.Is(err, context.Canceled) {
		t.Fatalf("load ended with %v, want it cancelled", err)
	}
	h.bg.Wait()
	if shown || h.problem != "" {
		t.Errorf("a cancelled load was shown (%v) or left the problem %q", shown, h.problem)
	}
}
