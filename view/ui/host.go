package ui

import (
	"context"

	"fyne.io/fyne/v2"

	"androprof/model"
)

// Host is what the tabs of one kind of run (a method trace, a heap log, a heap dump) need of the
// window that shows them. The analysis window is the real one; their tests show them in a window
// of their own.
type Host interface {
	// Window is the window the tabs are in, the parent of their dialogs.
	Window() fyne.Window
	// Background runs their work off the UI goroutine.
	Background() *Background
	// Context is the context of every load for the run shown, cancelled when the user moves on.
	Context() context.Context
	// SetProblem shows why the tabs are stale, or clears the problem with "".
	SetProblem(msg string)
	// RunsOfKind lists the workspace's runs of a kind (model.RunKindMethods, …), in the order shown.
	RunsOfKind(kind model.RunKind) []string
}

// LoadRun reads what a tab set shows of run in the background and hands it to show on the UI
// goroutine, unless a newer load superseded it (*gen counts loads); errors go to the host's
// problem line.
func LoadRun[T any](h Host, gen *int, run string, load func(context.Context) (T, error), show func(T)) {
	*gen++
	mine, ctx := *gen, h.Context()
	h.Background().Run(func() func() {
		x, err := load(ctx)
		if ctx.Err() != nil {
			return nil // the user moved on; the new selection's loads say what they found
		}
		return func() {
			if mine != *gen {
				return
			}
			if err != nil {
				h.SetProblem(ProblemText("load the run", run, err))
				return
			}
			h.SetProblem("")
			show(x)
		}
	})
}
