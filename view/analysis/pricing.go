package analysis

import (
	"context"
	"errors"
	"math"
	"sync"

	"fyne.io/fyne/v2"

	"androprof/controller"
	"androprof/model/cost"
	"androprof/pipeline"
	"androprof/view/ui"
)

// pricingProgress shows the machine model's pricing of a run's blocks (llvm-mca over hundreds
// of blocks the first time; the workspace keeps the results) with a progress bar and Cancel.
// The bar opens only when there is work to wait for, so a pricing the workspace already holds
// shows nothing.
type pricingProgress struct {
	bg  *ui.Background
	win fyne.Window

	mu      sync.Mutex
	opening bool
	dlg     *ui.ProgressDialog
	cancel  context.CancelFunc // stops the pricing, not the reports
}

// report is the pricing's progress callback, called on its goroutine.
func (p *pricingProgress) report(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dlg == nil && !p.opening && done < total {
		p.opening = true
		cancel := p.cancel
		p.bg.Show(func() {
			dlg := ui.NewProgressDialog(p.bg, "Pricing the blocks", "Running the profile's machine model on the run's hottest blocks…", cancel, p.win)
			p.mu.Lock()
			p.dlg = dlg
			p.mu.Unlock()
		})
	}
	if p.dlg != nil {
		p.dlg.Report(int64(done), int64(total))
	}
}

// close hides the bar, if it opened; call it on the UI goroutine.
func (p *pricingProgress) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dlg != nil {
		p.dlg.Close()
	}
}

// unpricedKey names a run's pricing by one machine model, which the user cancelled.
func unpricedKey(run string, m cost.PipelineModel) string { return run + "\x00" + pipeline.Describe(m) }

// cancelledNote is the waterfall's pipeline note after Cancel.
const cancelledNote = "pricing was cancelled: the category costs stand (choose the run again to price it)"

// preparePipeline prices the run's hottest blocks with the profile's machine model before the
// reports, with p's bar. When the user cancels (or cancelled before: skip), opts carries no
// model cycles and says so, so the reports keep the category costs instead of pricing again
// without a bar. It reports whether the pricing was cancelled.
func preparePipeline(ctx context.Context, a *controller.Analysis, d *cost.RunData, p *pricingProgress, skip bool, opts *cost.ReportOptions) (bool, error) {
	m := opts.Profile.Pipeline
	if m.IsZero() {
		return false, nil
	}
	if !skip {
		pctx, cancel := context.WithCancel(ctx)
		defer cancel()
		progress := func(int, int) {}
		if p != nil {
			p.mu.Lock()
			p.cancel = cancel
			p.mu.Unlock()
			progress = p.report
		}
		err := a.PreparePipeline(pctx, opts.Run, opts.Profile, progress)
		if err == nil || ctx.Err() != nil || !errors.Is(err, context.Canceled) {
			return false, err
		}
	}
	opts.BlockCycles = make([]float64, len(d.Blocks))
	for i := range opts.BlockCycles {
		opts.BlockCycles[i] = math.NaN()
	}
	opts.Pipeline, opts.PipelineNote = pipeline.Describe(m), cancelledNote
	return true, nil
}
