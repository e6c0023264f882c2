package ui

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

// ProgressDialog shows how far background work got and lets the user cancel it.
// (dialog.ProgressDialog is deprecated; this is the replacement Fyne suggests.)
type ProgressDialog struct {
	dlg    *dialog.CustomDialog
	msg    *widget.Label
	bar    *widget.ProgressBar
	cancel *widget.Button
	gate   throttle
	bg     *Background // hands the updates to the UI goroutine
	mu     sync.Mutex
	said   string // the last Say, for Said
}

// NewProgressDialog shows a modal progress bar whose Cancel button calls stop; the work it
// follows runs on bg, which hands its updates to the UI goroutine.
func NewProgressDialog(bg *Background, title, message string, stop context.CancelFunc, parent fyne.Window) *ProgressDialog {
	p := &ProgressDialog{msg: widget.NewLabel(message), bar: widget.NewProgressBar(), gate: throttle{every: progressEvery}, bg: bg}
	p.cancel = widget.NewButton("Cancel", func() {
		stop()
		p.cancel.SetText("Cancelling…")
		p.cancel.Disable()
	})
	content := container.NewVBox(p.msg, p.bar)
	p.dlg = dialog.NewCustomWithoutButtons(title, content, parent)
	p.dlg.SetButtons([]fyne.CanvasObject{p.cancel})
	p.dlg.Resize(fyne.NewSize(420, p.dlg.MinSize().Height))
	p.dlg.Show()
	closeDialogsOnEscape(parent.Canvas()) // Escape presses Cancel
	return p
}

// Report is the callback background work calls from its own goroutine. It hands at most one
// update per progressEvery to the UI goroutine and always lets the last one (done == total) through.
func (p *ProgressDialog) Report(done, total int64) {
	if total <= 0 || (done < total && !p.gate.allow(time.Now())) {
		return
	}
	v := float64(done) / float64(total)
	p.bg.Show(func() { p.bar.SetValue(v) })
}

// Say replaces the dialog's line with msg (what the work waits for: "waiting for another
// import to finish"); background work calls it from its own goroutine, rarely.
func (p *ProgressDialog) Say(msg string) {
	p.mu.Lock()
	p.said = msg
	p.mu.Unlock()
	p.bg.Show(func() { p.msg.SetText(msg) })
}

// Said is the last thing Say said ("" for none).
func (p *ProgressDialog) Said() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.said
}

// Close hides the dialog; call it on the UI goroutine.
func (p *ProgressDialog) Close() { p.dlg.Hide() }

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

// NewActivityDialog shows a modal with an endless bar, for work that cannot say how far it
// got (running a program), and a line saying what it does now; Cancel calls stop.
func NewActivityDialog(title, message string, stop context.CancelFunc, parent fyne.Window) *ActivityDialog {
	a := &ActivityDialog{msg: widget.NewLabel(message), gate: throttle{every: progressEvery}}
	a.msg.Truncation = fyne.TextTruncateEllipsis
	a.cancel = widget.NewButton("Cancel", func() {
		stop()
		a.cancel.SetText("Cancelling…")
		a.cancel.Disable()
	})
	a.dlg = dialog.NewCustomWithoutButtons(title, container.NewVBox(a.msg, widget.NewProgressBarInfinite()), parent)
	a.dlg.SetButtons([]fyne.CanvasObject{a.cancel})
	a.dlg.Resize(fyne.NewSize(460, a.dlg.MinSize().Height))
	a.dlg.Show()
	closeDialogsOnEscape(parent.Canvas()) // Escape presses Cancel
	return a
}

// ActivityDialog is the endless-bar counterpart of ProgressDialog.
type ActivityDialog struct {
	dlg    *dialog.CustomDialog
	msg    *widget.Label
	cancel *widget.Button
	gate   throttle

	mu     sync.Mutex
	latest string // the last thing said
	due    bool   // a timer will show latest
}

// Say is the callback background work calls from its own goroutine, throttled like Report; a
// message said too soon after another is shown when the gap has passed, unless a newer one
// replaced it, so the line never stays on a step the work has left ("preparing the plugin"
// while the program runs).
func (a *ActivityDialog) Say(msg string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.latest = msg
	switch {
	case a.due:
	case a.gate.allow(time.Now()):
		fyne.Do(func() { a.msg.SetText(msg) })
	default:
		a.due = true
		time.AfterFunc(progressEvery, func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.due = false
			m := a.latest
			fyne.Do(func() { a.msg.SetText(m) })
		})
	}
}

// Close hides the dialog; call it on the UI goroutine.
func (a *ActivityDialog) Close() { a.dlg.Hide() }
