package controller

import (
	"context"
	"fmt"
	"io"
	"math"

	"androprof/chart"
	"androprof/export/htmlreport"
	"androprof/model"
)

// HTMLReport writes a run's report as one HTML page that opens without the workbench or a
// network (export/htmlreport): the summary `androprof report --run R --json` gives, every chart
// of the run's kind as the window draws it, the main tables sortable, and for method traces and
// sampled runs an interactive flame graph. `androprof export --format html` and the window's
// File ▸ Export… write it.
func (w *Workspace) HTMLReport(ctx context.Context, run string, out io.Writer) error {
	kind, err := w.RunKind(ctx, run)
	if err != nil {
		return err
	}
	build, ok := htmlReports[kind]
	if !ok {
		return fmt.Errorf("run %s is %s: this androprof cannot write its report", RunText(run), model.RunKindText(kind))
	}
	doc := htmlreport.Document{Title: run, Kind: model.RunKindText(kind), Source: w.runSource(ctx, run)}
	if err := build(ctx, w, run, &doc); err != nil {
		return fmt.Errorf("HTML report of run %s: %w", RunText(run), err)
	}
	return htmlreport.Write(out, doc)
}

// htmlReports fills a run's page, by kind: each asks the kind's service what report --json and
// the window's tabs ask it.
var htmlReports = map[model.RunKind]func(ctx context.Context, w *Workspace, run string, doc *htmlreport.Document) error{
	model.RunKindEmulator: costHTML,
	model.RunKindMethods:  methodHTML,
	model.RunKindHeap:     heapLogHTML,
	model.RunKindHeapDump: dumpHTML,
	model.RunKindSamples:  sampleHTML,
}

// runSource is where run came from, as `androprof runs` lists it ("" when unknown).
func (w *Workspace) runSource(ctx context.Context, run string) string {
	runs, err := w.Runs(ctx)
	if err != nil {
		return ""
	}
	for _, r := range runs {
		if r.Name == run {
			return r.Source
		}
	}
	return ""
}

// field is one number of a page's summary under its report --json key.
func field(key, label string, v any, unit string) htmlreport.Field {
	return htmlreport.Field{Key: key, Label: label, Value: v, Unit: unit}
}

// knownValue is v, or nil (unknown) when ok is false or v is NaN: never a confident 0.
func knownValue(v float64, ok bool) any {
	if !ok || math.IsNaN(v) {
		return nil
	}
	return v
}

// addCharts draws each of the charts a page shows; a chart that cannot be built fails the page.
func addCharts(doc *htmlreport.Document, charts ...func() (string, chart.Drawing, error)) error {
	for _, c := range charts {
		title, d, err := c()
		if err != nil {
			return fmt.Errorf("chart %s: %w", title, err)
		}
		doc.Charts = append(doc.Charts, htmlreport.Chart{Title: title, Drawing: d})
	}
	return nil
}
