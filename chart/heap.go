package chart

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"androprof/internal/human"
	heapmodel "androprof/model/heap"
)

// Heap charts keep this many lines or stacks of threads or classes; the rest are summed into
// "other". Cohorts are never summed into "other", which would pile young and old together:
// past heapMaxCohorts, adjacent cohorts are merged into larger ones instead, as the seed's
// cohort size parameter would.
const (
	heapMaxSeries  = 24
	heapMaxCohorts = 64
)

// fitCohorts regroups a profile whose run spans more than heapMaxCohorts cohorts.
func fitCohorts(p *heapmodel.HeapProfile) *heapmodel.HeapProfile {
	if p.Cohort == 0 {
		return p
	}
	n := (p.End + p.Cohort - 1) / p.Cohort
	if n <= heapMaxCohorts {
		return p
	}
	return p.Regroup(int((n + heapMaxCohorts - 1) / heapMaxCohorts))
}

// HeapFigure is one chart of a heap log's analysis, named after the seed figure it reproduces.
type HeapFigure struct {
	Name  string // for the command line: "cohort-volume"
	Seed  string // seed 001's figure number: "5.1"
	Tab   string // the analysis window tab that shows it
	Title string
	draw  func(p *heapmodel.HeapProfile) Drawing
}

// Draw makes the figure for a run's profile; run names the run in the title.
func (f HeapFigure) Draw(p *heapmodel.HeapProfile, run string) Drawing {
	d := f.draw(p)
	title := fmt.Sprintf("%s — %s (seed fig. %s)", f.Title, run, f.Seed)
	switch c := d.(type) {
	case Lines:
		c.Title = title
		return c
	case StackedColumns:
		c.Title = title
		return c
	}
	return d
}

// The tabs of a heap log's analysis.
const (
	TabCohorts  = "Cohorts"
	TabSizes    = "Sizes"
	TabThreads  = "Threads"
	TabClasses  = "Classes"
	TabPointers = "Pointers"
)

// HeapFigures are the charts of seed 001 chapter 5, in its order.
var HeapFigures = []HeapFigure{
	{"cohort-volume", "5.1", TabCohorts, "Heap volume by cohort", scopeLines(heapmodel.ScopeCohort, heapmodel.LiveBytes)},
	{"cohort-objects", "5.2", TabCohorts, "Live objects per cohort", scopeLines(heapmodel.ScopeCohort, heapmodel.LiveObjects)},
	{"cohort-array-volume", "5.3", TabCohorts, "Arrays total volume by cohort", scopeLines(heapmodel.ScopeCohort, heapmodel.LiveArrayBytes)},
	{"cohort-arrays", "5.4", TabCohorts, "Live arrays per cohort", scopeLines(heapmodel.ScopeCohort, heapmodel.LiveArrayObjects)},
	{"cohort-lifetime", "5.5", TabCohorts, "Average lifetime per cohort", scopeLines(heapmodel.ScopeCohort, heapmodel.AvgLifetime)},
	{"cohort-array-lifetime", "5.6", TabCohorts, "Average lifetime of arrays per cohort", scopeLines(heapmodel.ScopeCohort, heapmodel.AvgArrayLifetime)},
	{"size-allocated", "5.7", TabSizes, "Allocated objects by size (% of objects, by cohort)", sizeHistogram(false)},
	{"size-live", "5.8", TabSizes, "Objects live at the end by size (% of objects, by cohort)", sizeHistogram(true)},
	{"size-objects", "5.9", TabSizes, "Live objects by size", scopeLines(heapmodel.ScopeSize, heapmodel.LiveObjects)},
	{"size-volume", "5.10", TabSizes, "Live volume by size", scopeLines(heapmodel.ScopeSize, heapmodel.LiveBytes)},
	{"thread-volume", "5.11", TabThreads, "Heap volume by thread", scopeLines(heapmodel.ScopeThread, heapmodel.LiveBytes)},
	{"thread-objects", "5.12", TabThreads, "Live objects per thread", scopeLines(heapmodel.ScopeThread, heapmodel.LiveObjects)},
	{"thread-array-volume", "5.13", TabThreads, "Arrays total volume per thread", scopeLines(heapmodel.ScopeThread, heapmodel.LiveArrayBytes)},
	{"thread-arrays", "5.14", TabThreads, "Live arrays per thread", scopeLines(heapmodel.ScopeThread, heapmodel.LiveArrayObjects)},
	{"thread-lifetime", "5.15", TabThreads, "Average lifetime per thread", scopeLines(heapmodel.ScopeThread, heapmodel.AvgLifetime)},
	{"thread-array-lifetime", "5.16", TabThreads, "Average lifetime of arrays per thread", scopeLines(heapmodel.ScopeThread, heapmodel.AvgArrayLifetime)},
	{"class-volume", "5.17", TabClasses, "Heap volume by class", scopeLines(heapmodel.ScopeClass, heapmodel.LiveBytes)},
	{"class-objects", "5.18", TabClasses, "Live objects per class", scopeLines(heapmodel.ScopeClass, heapmodel.LiveObjects)},
	{"class-lifetime", "5.19", TabClasses, "Average lifetime per class", scopeLines(heapmodel.ScopeClass, heapmodel.AvgLifetime)},
	{"array-class-volume", "5.20", TabClasses, "Heap volume by array class", scopeLines(heapmodel.ScopeClass, heapmodel.LiveArrayBytes)},
	{"array-classes", "5.21", TabClasses, "Live arrays per array class", scopeLines(heapmodel.ScopeClass, heapmodel.LiveArrayObjects)},
	{"pointer-mutations", "5.22", TabPointers, "Pointer mutation distances over time", pointerLines(false)},
	{"pointer-snapshots", "5.23", TabPointers, "Pointer distances in heap snapshots", pointerLines(true)},
}

// FindHeapFigure looks a figure up by name or seed number ("cohort-volume" or "5.1").
func FindHeapFigure(s string) (HeapFigure, error) {
	for _, f := range HeapFigures {
		if f.Name == s || f.Seed == s || "fig"+f.Seed == s {
			return f, nil
		}
	}
	names := make([]string, len(HeapFigures))
	for i, f := range HeapFigures {
		names[i] = f.Name
	}
	return HeapFigure{}, fmt.Errorf("unknown heap figure %q (want a seed number 5.1–5.23 or one of %s)", s, strings.Join(names, ", "))
}

// FiguresOf lists the figures of one tab.
func FiguresOf(tab string) []HeapFigure {
	var out []HeapFigure
	for _, f := range HeapFigures {
		if f.Tab == tab {
			out = append(out, f)
		}
	}
	return out
}

// scopeLines draws a metric by scope over allocation time: stacked bands for volumes and
// counts (the top line is the whole heap), plain lines for averages, as the seed does.
func scopeLines(scope heapmodel.HeapScope, m heapmodel.HeapMetric) func(*heapmodel.HeapProfile) Drawing {
	return func(p *heapmodel.HeapProfile) Drawing {
		limit := heapMaxSeries
		if scope == heapmodel.ScopeCohort {
			p, limit = fitCohorts(p), 0
		}
		times, series := p.Series(scope, m, limit)
		avg := m == heapmodel.AvgLifetime || m == heapmodel.AvgArrayLifetime
		l := Lines{XLabel: "time (bytes allocated)", YLabel: m.String(), XBytes: true, Stacked: !avg,
			YBytes: m == heapmodel.LiveBytes || m == heapmodel.LiveArrayBytes || avg}
		l.X = make([]float64, len(times))
		for i, t := range times {
			l.X[i] = float64(t)
		}
		for _, s := range series {
			l.Series = append(l.Series, LineSeries{Label: s.Label, Values: s.Values})
		}
		if avg {
			// An average is unknown until the first death: a gap, not a zero lifetime.
			for _, s := range l.Series {
				for i := range s.Values {
					if s.Values[i] == 0 {
						s.Values[i] = math.NaN()
					}
				}
			}
		}
		return l
	}
}

func sizeHistogram(live bool) func(*heapmodel.HeapProfile) Drawing {
	return func(p *heapmodel.HeapProfile) Drawing {
		sizes, cohorts := fitCohorts(p).SizeHistogram(live, 0)
		c := StackedColumns{XLabel: "object size (bytes, up to)", YLabel: "objects (%)", YPercent: true}
		for _, s := range sizes {
			c.Labels = append(c.Labels, strconv.FormatUint(s, 10))
		}
		for _, s := range cohorts {
			c.Series = append(c.Series, LineSeries{Label: "cohort " + s.Label, Values: s.Values})
		}
		return c
	}
}

// pointerLines draws the share of each distance bucket over time (figures 5.22, 5.23); with a
// single time (one snapshot) it is a histogram.
func pointerLines(snapshot bool) func(*heapmodel.HeapProfile) Drawing {
	return func(p *heapmodel.HeapProfile) Drawing {
		times, buckets, percent := p.PointerSeries(snapshot)
		if len(times) == 1 {
			c := StackedColumns{XLabel: "distance (bytes of allocation, target − source)", YLabel: "pointers (%)", YPercent: true}
			s := LineSeries{Label: "snapshot at " + human.Bytes(times[0]), Values: percent[0]}
			for _, b := range buckets {
				c.Labels = append(c.Labels, DistanceLabel(b))
			}
			c.Series = []LineSeries{s}
			return c
		}
		l := Lines{XLabel: "time (bytes allocated)", YLabel: "pointers (%)", XBytes: true, YPercent: true}
		for _, t := range times {
			l.X = append(l.X, float64(t))
		}
		for j, b := range buckets {
			s := LineSeries{Label: DistanceLabel(b), Values: make([]float64, len(times))}
			for i := range times {
				s.Values[i] = percent[i][j]
			}
			l.Series = append(l.Series, s)
		}
		return l
	}
}

// DistanceLabel names a signed power-of-two distance bucket by its bound: "≤ 2^4", "≥ -2^10".
func DistanceLabel(bucket int) string {
	if bucket > 0 {
		return fmt.Sprintf("< 2^%d", bucket)
	}
	return fmt.Sprintf("> -2^%d", -bucket)
}

// DumpFigure is one chart of a heap dump (HPROF), of one heap or of all ("").
type DumpFigure struct {
	Name  string // for the command line: "dump-sizes"
	Title string
	draw  func(d *heapmodel.HeapDump, heap string) Drawing
}

// Draw makes the figure; run names the run in the title.
func (f DumpFigure) Draw(d *heapmodel.HeapDump, heap, run string) Drawing {
	title := fmt.Sprintf("%s — %s", f.Title, run)
	if heap != "" {
		title += ", heap " + heap
	}
	switch c := f.draw(d, heap).(type) {
	case Chart:
		c.Title = title
		return c
	case StackedColumns:
		c.Title = title
		return c
	default:
		return c
	}
}

// DumpFigures are the charts of a heap dump: the snapshot questions of seed 001 (classes,
// packages, object sizes, figure 5.23's pointer distances by address).
var DumpFigures = []DumpFigure{
	{"dump-classes", "Bytes by class", func(d *heapmodel.HeapDump, heap string) Drawing {
		return dumpBars(d.DumpRows(heap, false), Bars)
	}},
	{"dump-packages", "Bytes by package", func(d *heapmodel.HeapDump, heap string) Drawing {
		return dumpBars(d.DumpRows(heap, true), Pie)
	}},
	{"dump-sizes", "Objects by size (% of objects)", dumpSizes},
	{"dump-pointers", "Pointer distances by address (seed fig. 5.23)", dumpPointers},
}

// FindDumpFigure looks a dump figure up by name.
func FindDumpFigure(s string) (DumpFigure, error) {
	names := make([]string, len(DumpFigures))
	for i, f := range DumpFigures {
		if f.Name == s {
			return f, nil
		}
		names[i] = f.Name
	}
	return DumpFigure{}, fmt.Errorf("unknown heap dump figure %q (want one of %s)", s, strings.Join(names, ", "))
}

func dumpBars(rows []heapmodel.DumpRow, kind Kind) Chart {
	c := Chart{YLabel: "bytes", Unit: "B", Kind: kind}
	for _, r := range rows {
		c.Bars = append(c.Bars, Bar{Label: r.Name, Value: float64(r.Bytes())})
	}
	return c
}

func dumpSizes(d *heapmodel.HeapDump, heap string) Drawing {
	type parts struct{ instances, arrays uint64 }
	by := map[uint64]*parts{}
	var sizes []uint64
	var total uint64
	for _, s := range d.Sizes {
		if heap != "" && s.Heap != heap {
			continue
		}
		p := by[s.SizeClass]
		if p == nil {
			p = &parts{}
			by[s.SizeClass] = p
			sizes = append(sizes, s.SizeClass)
		}
		p.instances += s.Instances.Objects
		p.arrays += s.Arrays.Objects
		total += s.Instances.Objects + s.Arrays.Objects
	}
	slices.Sort(sizes)
	c := StackedColumns{XLabel: "object size (bytes, up to)", YLabel: "objects (%)", YPercent: true,
		Series: []LineSeries{{Label: "instances"}, {Label: "arrays"}}}
	for _, s := range sizes {
		c.Labels = append(c.Labels, strconv.FormatUint(s, 10))
		c.Series[0].Values = append(c.Series[0].Values, percent(by[s].instances, total))
		c.Series[1].Values = append(c.Series[1].Values, percent(by[s].arrays, total))
	}
	return c
}

func dumpPointers(d *heapmodel.HeapDump, heap string) Drawing {
	var buckets []int
	counts := map[string]map[int]uint64{}
	var total uint64
	for _, p := range d.Pointers {
		if heap != "" && p.Heap != heap {
			continue
		}
		if counts[p.Heap] == nil {
			counts[p.Heap] = map[int]uint64{}
		}
		if !slices.Contains(buckets, p.Bucket) {
			buckets = append(buckets, p.Bucket)
		}
		counts[p.Heap][p.Bucket] += p.Count
		total += p.Count
	}
	slices.Sort(buckets)
	c := StackedColumns{XLabel: "distance (bytes of address, target − source)", YLabel: "pointers (%)", YPercent: true}
	for _, b := range buckets {
		c.Labels = append(c.Labels, DistanceLabel(b))
	}
	for _, h := range d.Heaps {
		if counts[h] == nil {
			continue
		}
		s := LineSeries{Label: "from heap " + h}
		for _, b := range buckets {
			s.Values = append(s.Values, percent(counts[h][b], total))
		}
		c.Series = append(c.Series, s)
	}
	return c
}

func percent(part, whole uint64) float64 {
	if whole == 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}
