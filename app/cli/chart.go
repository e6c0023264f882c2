package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"androprof/chart"
	"androprof/controller"
	"androprof/model"
)

// runChart writes the analysis window's charts as files: a report's rows (--by) or a comparison
// of runs and processes (--compare), as PNG or SVG by the file's extension.
func runChart(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("chart", env)
	var rf reportFlags
	fs.StringVar(&rf.run, "run", "", "run `NAME`")
	fs.StringVar(&rf.profile, "profile", "", "profile `NAME|FILE` (default: the window's for each run's instruction set: cortex-a8 for ARM and Thumb, mips-74k for MIPS); an item of an instruction set it does not price gets that set's default")
	fs.StringVar(&rf.by, "by", "pid", "bars per `pid|bb|insn|category|function|image|layer|syscall` (layer: each process split into program, libraries, loader; sampled runs: layer-time|layer|image|symbol|component|thread|flame)")
	fs.IntVar(&rf.pid, "pid", 0, "only this process")
	fs.Float64Var(&rf.freq, "frequency-ghz", 0, "clock `GHz` (default: the profile's, else 1)")
	compare := fs.String("compare", "", "compare `RUN[:PID],RUN[:PID],...` instead of one run (with --by image: image by image)")
	metric := fs.String("metric", "cycles", "`cycles|time|energy|instructions`")
	kind := fs.String("kind", "bar", "`bar|column|pie`")
	out := fs.String("out", "", "output `FILE.png|FILE.svg`")
	width := fs.Int("width", 1200, "width in pixels")
	height := fs.Int("height", 700, "height in pixels")
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	var hf heapFlags
	hf.add(fs)
	figure := fs.String("figure", "", "heap runs: the seed figure `5.1..5.23|NAME` (dumps: dump-classes|dump-packages|dump-sizes|dump-pointers)")
	var sf sampleFlags
	sf.add(fs, false)
	buckets := fs.Int("buckets", 100, "sampled runs, --by layer-time: columns `N`")
	counts := fs.Bool("counts", false, "sampled runs, --by layer-time: stack sample counts, not each column's shares")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("%w: chart needs --out FILE.png|FILE.svg", errUsage)
	}
	format, err := chart.FormatFor(*out)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	m, err := chart.ParseMetric(*metric)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	k, err := chart.ParseKind(*kind)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	db, profiles, err := openDB(*dbPath, false)
	if err != nil {
		return err
	}
	defer db.Close()
	analysis := controller.NewWorkspace(db).Costs
	var c chart.Chart
	if *compare == "" && rf.run != "" {
		if kind, err := runKind(ctx, db, rf.run); err != nil {
			return err
		} else if kind == model.RunKindHeap || kind == model.RunKindHeapDump {
			d, err := heapDrawing(ctx, db, kind, rf.run, *figure, hf)
			if err != nil {
				return err
			}
			return writeDrawing(d, *out, format, *width, *height, *asJSON, env)
		} else if kind == model.RunKindSamples {
			d, err := sampleDrawing(ctx, db, rf.run, rf.by, sf.target, *buckets, !*counts)
			if err != nil {
				return err
			}
			return writeDrawing(d, *out, format, *width, *height, *asJSON, env)
		}
	}
	if *compare != "" {
		items, kind, err := compareList(ctx, db, *compare)
		if err != nil {
			return err
		}
		if kind != model.RunKindEmulator {
			return fmt.Errorf("run %q is %s: chart --compare draws emulator runs (report --compare puts two heap dumps side by side)", items[0].Run, model.RunKindText(kind))
		}
		forISA, err := compareProfiles(ctx, profiles, rf, true)
		if err != nil {
			return err
		}
		if rf.by == string(model.ByImage) {
			rows, err := analysis.CompareImages(ctx, items, forISA, rf.freq)
			if err != nil {
				return err
			}
			c = chart.FromImageComparison(compareNames(items), rows, m)
		} else {
			rows, err := analysis.Compare(ctx, items, forISA, rf.freq)
			if err != nil {
				return err
			}
			c = chart.FromComparison(rows, m, k)
		}
	} else if kind, err := runKind(ctx, db, rf.run); err != nil {
		return err
	} else if kind == "methods" {
		if rf.top == 0 && k != chart.Pie {
			rf.top = 15 // DPA figure 6: the top methods
		}
		rep, err := methodReport(ctx, db, rf, "")
		if err != nil {
			return err
		}
		c = methodChart(rep, *metric, k)
	} else if rf.by == "syscall" {
		calls, err := analysis.Syscalls(ctx, rf.run, rf.pid, false)
		if err != nil {
			return err
		}
		c = chart.FromSyscalls(rf.run, calls)
	} else {
		opts, err := rf.options(ctx, profiles, analysis)
		if err != nil {
			return err
		}
		if opts.By == model.ByLayer {
			if c, err = layerChart(ctx, analysis, opts, m); err != nil {
				return err
			}
		} else {
			rep, err := analysis.Report(ctx, opts)
			if err != nil {
				return err
			}
			c = chart.FromReport(rep, m, k, nil)
		}
	}
	return writeDrawing(c, *out, format, *width, *height, *asJSON, env)
}

// layerChart is the analysis window's layer chart: each process (or opts.PID's) split by the
// kind of image its code ran in, with its system calls beside it.
func layerChart(ctx context.Context, a *controller.Analysis, opts model.ReportOptions, m chart.Metric) (chart.Chart, error) {
	d, err := a.Load(ctx, opts.Run)
	if err != nil {
		return chart.Chart{}, err
	}
	var rows []model.ReportRow
	names := map[string]string{}
	for _, p := range d.Processes {
		if opts.PID != 0 && p.PID != opts.PID {
			continue
		}
		o := opts
		o.By, o.PID, o.Top = model.ByImage, p.PID, 0 // rows of one process carry its pid
		rep, err := a.Report(ctx, o)
		if err != nil {
			return chart.Chart{}, err
		}
		rows = append(rows, rep.Rows...)
		names[strconv.Itoa(p.PID)] = strings.TrimSpace(fmt.Sprintf("%d %s", p.PID, p.Name))
	}
	calls, err := a.Syscalls(ctx, opts.Run, opts.PID, false)
	if err != nil {
		return chart.Chart{}, err
	}
	if len(calls) == 0 {
		calls = nil // a trace without system calls: no "0 system calls" notes
	}
	return chart.FromLayers(opts.Run, opts.Profile.Name, rows, calls, names, m), nil
}

// writeDrawing writes a chart to path; a chart that cannot be drawn leaves path as it was.
func writeDrawing(d chart.Drawing, path string, format chart.Format, width, height int, asJSON bool, env Env) error {
	if err := writeOut(path, env, func(w io.Writer) error { return d.Render(w, format, width, height) }); err != nil {
		return err
	}
	if asJSON {
		return writeJSON(env.Stdout, map[string]any{"out": path, "empty": d.Empty()})
	}
	fmt.Fprintln(env.Stdout, path)
	return nil
}
