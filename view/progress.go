package view

import (
	"context"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// progressEvery is the shortest gap between two progress bar updates: background work reports
// far more often than a person can see, and every update costs the UI goroutine a repaint.
const progressEvery = 50 * time.Millisecond

// progressDialog shows how far background work got and lets the user cancel it.
// (dialog.ProgressDialog is deprecated; this is the replacement Fyne suggests.)
type progressDialog struct {
	dlg    *dialog.CustomDialog
	bar    *widget.ProgressBar
	cancel *widget.Button
	gate   throttle
}

// newProgressDialog shows a modal progress bar whose Cancel button calls stop.
func newProgressDialog(title, message string, stop context.CancelFunc, parent fyne.Window) *progressDialog {
	p := &progressDialog{bar: widget.NewProgressBar(), gate: throttle{every: progressEvery}}
	p.cancel = widget.NewButton("Cancel", func() {
		stop()
		p.cancel.SetText("Cancelling…")
		p.cancel.Disable()
	})
	content := container.NewVBox(widget.NewLabel(message), p.bar)
	p.dlg = dialog.NewCustomWithoutButtons(title, content, parent)
	p.dlg.SetButtons([]fyne.CanvasObject{p.cancel})
	p.dlg.Resize(fyne.NewSize(420, p.dlg.MinSize().Height))
	p.dlg.Show()
	return p
}

// report is the callback background work calls from its own goroutine. It hands at most one
// update per progressEvery to the UI goroutine and always lets the last one (done == total) through.
func (p *progressDialog) report(done, total int64) {
	if total <= 0 || (done < total && !p.gate.allow(time.Now())) {
		return
	}
	v := float64(done) / float64(total)
	fyne.Do(func() { p.bar.SetValue(v) })
}

// close hides the dialog; call it on the UI goroutine.
func (p *progressDialog) close() { p.dlg.Hide() }

// throttle lets an event through at most once per interval.
type throttle struct {
	mu    sync.Mutex
	every time.Duration
	last  time.Time
}

func (t *throttle) allow(now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.last.IsZero() && now.Sub(t.last) < t.every {
		return false
	}
	t.last = now
	return true
}
