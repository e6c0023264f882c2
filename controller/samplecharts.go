package controller

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"androprof/chart"
	"androprof/internal/human"
	"androprof/model/samples"
)

// SampleBy is what a sampled run's table or chart is grouped or drawn by: `report --by` takes
// layer, image, symbol, component and thread; `chart --by` takes them all; the window's Layers
// and Flame tabs show layer-time, layer, thread and flame.
type SampleBy string

const (
	SampleByLayerTime SampleBy = "layer-time" // the layers over time (VARI's vertical profile)
	SampleByLayer     SampleBy = "layer"
	SampleByImage     SampleBy = "image"
	SampleBySymbol    SampleBy = "symbol" // seed 004's table V
	SampleByComponent SampleBy = "component"
	SampleByThread    SampleBy = "thread"
	SampleByFlame     SampleBy = "flame" // the mixed-mode flame graph
)

// SampleCharts are the charts of a sampled run, in the order help texts list them.
var SampleCharts = []SampleBy{SampleByLayerTime, SampleByLayer, SampleByImage, SampleBySymbol,
	SampleByComponent, SampleByThread, SampleByFlame}

// SampleBuckets is how many slices of time the layer timeline has unless asked otherwise:
// enough to tell a program's phases apart, few enough that each slice holds a readable share.
const SampleBuckets = 100

// sampleGroupings are the tables of a sampled run that are rows of samples: report's rows and
// the bars of their charts.
var sampleGroupings = map[SampleBy]func(*samples.SampleSet) []samples.SampleRow{
	SampleByLayer: (*samples.SampleSet).ByLayer, SampleByImage: (*samples.SampleSet).ByImage,
	SampleBySymbol: (*samples.SampleSet).BySymbol, SampleByComponent: (*samples.SampleSet).ByComponent,
}

// SampleRows is set's table by layer, image, symbol or component; ok is false for any other
// grouping.
func SampleRows(set *samples.SampleSet, by SampleBy) (rows []samples.SampleRow, ok bool) {
	group, ok := sampleGroupings[by]
	if !ok {
		return nil, false
	}
	return group(set), true
}

// SampleRowLabel is a row's name for people and scripts: a symbol's row is keyed by its id or
// by its image and name joined with a NUL, which no terminal or chart shows.
func SampleRowLabel(r samples.SampleRow) string {
	if r.SymbolID >= 0 {
		return r.Symbol + " (" + filepath.Base(r.Image) + ")"
	}
	return r.Key
}

// SampleChartSpec says which chart of a selection to draw.
type SampleChartSpec struct {
	By      SampleBy
	Buckets int  // layer-time's columns; 0: SampleBuckets
	Counts  bool // layer-time: stacked sample counts, not each column's shares
}

// Chart draws a chart of the samples of run that sel and app select (see Select), as
// `androprof chart` writes it. The window draws the same with SampleDrawing of the selection it
// keeps for its tables.
func (a *SampleAnalysis) Chart(ctx context.Context, run string, sel samples.SampleSelection, app []string, spec SampleChartSpec) (chart.Drawing, error) {
	set, err := a.Select(ctx, run, sel, app)
	if err != nil {
		return nil, err
	}
	return SampleDrawing(set, run, spec)
}

// SampleDrawing is chart spec of set, a selection of run's samples: the one function behind
// the window's charts of sampled runs and `androprof chart`, so the two draw the same. Titles
// say what was selected and how many samples that keeps (SampleScope).
func SampleDrawing(set *samples.SampleSet, run string, spec SampleChartSpec) (chart.Drawing, error) {
	scope := SampleScope(set)
	switch spec.By {
	case SampleByLayerTime:
		buckets := spec.Buckets
		if buckets <= 0 {
			buckets = SampleBuckets
		}
		return chart.FromLayerTimeline(set.Timeline(buckets), run, scope, !spec.Counts), nil
	case SampleByFlame:
		return chart.ReadableFlame(chart.FromFlame(set.Flame(), run, scope)), nil
	case SampleByThread:
		return chart.FromThreadRows(set.ByThread(), run, scope), nil
	}
	rows, ok := SampleRows(set, spec.By)
	if !ok {
		return nil, fmt.Errorf("no chart of a sampled run by %q", spec.By)
	}
	for i := range rows {
		rows[i].Key = SampleRowLabel(rows[i])
	}
	return chart.FromSampleRows(rows, string(spec.By), run, scope), nil
}

// SampleScope says which samples of a run set holds, for a chart's title: the threads, time
// window and focus selected, how many samples they keep, and what the recording itself left
// out: "thread 7 main, 1 s to end: 400 of 1000 samples".
func SampleScope(set *samples.SampleSet) string {
	sel, p := set.Selection, set.Profile
	var parts []string
	if len(sel.ThreadNames) > 0 {
		parts = append(parts, "threads "+strings.Join(sel.ThreadNames, ", "))
	}
	if len(sel.TIDs) > 0 {
		parts = append(parts, threadsText(p, sel.TIDs))
	}
	if len(parts) == 0 {
		parts = append(parts, "all threads")
	}
	if sel.FromNS > 0 || sel.ToNS > 0 {
		parts = append(parts, secondsText(sel.FromNS, "start")+" to "+secondsText(sel.ToNS, "end"))
	}
	if len(sel.Focus) > 0 {
		parts = append(parts, "focus "+strings.Join(sel.Focus, ", "))
	}
	kept := human.Count(set.Total, "sample", "samples")
	if set.Kept != set.Total {
		kept = human.Grouped(set.Kept) + " of " + kept
	}
	return strings.Join(parts, ", ") + ": " + kept + RecordingLeftOut(p)
}

// RecordingLeftOut says what the recording itself left out of p ("; 12 more left out when
// recorded (threads C*)"), after the counts of a selection; "" when it kept every sample.
func RecordingLeftOut(p *samples.SampleProfile) string {
	if p.LeftOut == 0 {
		return ""
	}
	return fmt.Sprintf("; %s more left out when recorded (%s)", human.Grouped(p.LeftOut), p.LeftOutWhy)
}

// threadsText names threads by id and name: "thread 7 main", "threads 7 main, 9 C2".
func threadsText(p *samples.SampleProfile, tids []int) string {
	names := make([]string, len(tids))
	for i, tid := range tids {
		names[i] = strconv.Itoa(tid)
		for _, t := range p.Threads {
			if t.TID == tid {
				names[i] = chart.ThreadLabel(t.TID, t.Comm)
				break
			}
		}
	}
	return human.Noun(len(tids), "thread ", "threads ") + strings.Join(names, ", ")
}

// secondsText is a time of a window in seconds, or open when it is not set.
func secondsText(ns int64, open string) string {
	if ns == 0 {
		return open
	}
	return strconv.FormatFloat(float64(ns)/1e9, 'f', -1, 64) + " s"
}
