package controller

import (
	"context"
	"fmt"
	"io"

	"androprof/chart"
	"androprof/export/chrometrace"
	"androprof/export/speedscope"
	"androprof/model/layers"
	"androprof/model/samples"
)

// export writes a sampled run in one of its formats (ExportFormats); tid 0 is every thread.
func (a *SampleAnalysis) export(ctx context.Context, run, format string, opts ExportOptions, out io.Writer) (ExportSummary, error) {
	switch format {
	case formatFolded.Name:
		var sel samples.SampleSelection
		if opts.TID != 0 {
			sel.TIDs = []int{opts.TID}
		}
		set, err := a.Select(ctx, run, sel, nil)
		if err != nil {
			return ExportSummary{}, err
		}
		return exportFolded(set.Flame(), opts.Focus, out)
	case formatPprof.Name:
		p, err := a.Pprof(ctx, run)
		return exportPprof(p, err, opts.TID, out)
	}
	p, err := a.Profile(ctx, run)
	if err != nil {
		return ExportSummary{}, err
	}
	return speedscopeSamples(p, run, opts.TID, out)
}

// speedscopeSamples writes a sampled run as one sampled profile per thread, each sample a
// stack of weight 1 in time order.
func speedscopeSamples(p *samples.SampleProfile, run string, tid int, out io.Writer) (ExportSummary, error) {
	byThread := make([][]int32, len(p.Threads))
	for i, r := range p.Samples {
		if tid == 0 || p.Threads[r.Thread].TID == tid {
			byThread[r.Thread] = append(byThread[r.Thread], int32(i))
		}
	}
	w := speedscope.NewWriter(out, "run "+run, "androprof")
	frames := make([]int, len(p.Symbols))
	for i := range frames {
		frames[i] = -1
	}
	var s ExportSummary
	var stack []int
	for t, idx := range byThread {
		if len(idx) == 0 {
			continue
		}
		th := p.Threads[t]
		w.BeginSampled(fmt.Sprintf("thread %d %s", th.TID, th.Comm), "none")
		for _, i := range idx {
			stack = stack[:0]
			for n := p.Samples[i].Node; n >= 0; n = p.Nodes[n].Parent {
				sym := p.Nodes[n].Symbol
				if frames[sym] < 0 {
					ss := p.Symbols[sym]
					frames[sym] = w.Frame(speedscope.Frame{Name: layers.DisplaySymbol(ss), File: ss.Image})
				}
				stack = append(stack, frames[sym])
			}
			for l, r := 0, len(stack)-1; l < r; l, r = l+1, r-1 { // outermost first
				stack[l], stack[r] = stack[r], stack[l]
			}
			w.Sample(stack, 1)
		}
		w.EndSampled()
		s.Threads++
	}
	err := w.Finish()
	s.Events = w.Events
	return s, err
}

// heapCounterFigure is the figure whose series a heap log's Chrome trace carries as counters.
const heapCounterFigure = "cohort-volume"

// exportChrome writes a heap log as Chrome counters: the live bytes of each cohort over
// allocation time, the series of the cohort-volume figure (seed 5.1). Chrome's time axis is
// microseconds; here one microsecond is one byte allocated.
func (h *HeapLogs) exportChrome(ctx context.Context, run string, opts ExportOptions, out io.Writer) (ExportSummary, error) {
	if opts.TID != 0 {
		return ExportSummary{}, fmt.Errorf("a heap log's export has every thread: its counters are by cohort")
	}
	fig, err := chart.FindHeapFigure(heapCounterFigure)
	if err != nil {
		return ExportSummary{}, err
	}
	d, err := h.Figure(ctx, run, 1, fig)
	if err != nil {
		return ExportSummary{}, err
	}
	lines, ok := d.(chart.Lines)
	if !ok {
		return ExportSummary{}, fmt.Errorf("heap figure %s is a %T, not lines", heapCounterFigure, d)
	}
	w := chrometrace.NewWriter(out)
	w.ProcessName(0, "heap log "+run)
	values := make([]chrometrace.CounterValue, len(lines.Series))
	for i, x := range lines.X {
		for j, s := range lines.Series {
			values[j] = chrometrace.CounterValue{Series: "cohort " + s.Label, Value: s.Values[i]}
		}
		w.Counter(0, "live bytes by cohort", uint64(x), values)
	}
	err = w.Close()
	return ExportSummary{Events: w.Events(), Clock: "bytes allocated"}, err
}
