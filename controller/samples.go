package controller

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"androprof/formats"
	"androprof/internal/countio"
	"androprof/model/cost"
	"androprof/model/layers"
	"androprof/model/samples"
)

// SampleStore is the database as sampled runs (perf, simpleperf) need it.
type SampleStore interface {
	ImportSampleRun(ctx context.Context, name, source string, p *samples.SampleProfile) error
	SampleProfile(ctx context.Context, run string) (*samples.SampleProfile, error)
}

// SampleOptions choose what of a sampled recording is kept, and whose Java packages are the
// application's; `import` and `vertical` set them alike.
type SampleOptions struct {
	// Target is the recording-time target (VARI's service level): samples of other threads or
	// outside the time window are not stored, only counted, so the run's totals say what is
	// missing.
	Target samples.SampleSelection
	// AppPackages are the application's Java packages; nil: every class outside the Java
	// library prefixes is the application's.
	AppPackages []string
}

// importSamples reads one sampled recording into the profile the workspace keeps.
func (im Importer) importSamples(ctx context.Context, run, source string, in *formats.Input, p *countio.Progress) error {
	b := samples.NewSampleBuilder(im.Samples.Target)
	h, err := in.Format.ReadSamples(in, im.options(), b)
	if err != nil {
		return err
	}
	p.Finish()
	if h.Format == "" {
		h.Format = in.Format.Name
	}
	prof := b.Finish(h)
	prof.AppPackages = im.Samples.AppPackages
	return im.store.ImportSampleRun(ctx, run, source, prof)
}

// SampleAnalysis answers the vertical-profile views' and reports' questions from a run's stored
// samples, kept in memory per run so changing target, grouping or tab reads nothing again.
type SampleAnalysis struct {
	store SampleStore

	profiles runCache[*samples.SampleProfile]
}

// Profile loads a sampled run.
func (a *SampleAnalysis) Profile(ctx context.Context, run string) (*samples.SampleProfile, error) {
	return a.profiles.get(run, func() (*samples.SampleProfile, error) { return a.store.SampleProfile(ctx, run) })
}

// Select loads a sampled run and keeps the samples of sel. app re-classifies the run with other
// application packages; nil keeps the run's own.
func (a *SampleAnalysis) Select(ctx context.Context, run string, sel samples.SampleSelection, app []string) (*samples.SampleSet, error) {
	p, err := a.Profile(ctx, run)
	if err != nil {
		return nil, err
	}
	if app == nil {
		app = p.AppPackages
	}
	return p.Select(layers.LayerClassifier{AppPackages: app}, sel), nil
}

// SampleTimeWindow is a selection's time window (model.SampleSelection's FromNS and ToNS) from
// seconds after the recording's first sample, as a person gives them; to 0 is the end. The
// command line and the window both check it here, so neither takes a window the other refuses.
func SampleTimeWindow(from, to float64) (fromNS, toNS int64, err error) {
	for _, s := range []float64{from, to} {
		if !(s >= 0 && s < math.MaxInt64/1e9) { // NaN, infinities and times past the clock's end (292 years)
			return 0, 0, fmt.Errorf("%g is not a time in seconds after the first sample", s)
		}
	}
	if to > 0 && to <= from {
		return 0, 0, fmt.Errorf("the time window ends (%g s) before it starts (%g s)", to, from)
	}
	return int64(from * 1e9), int64(to * 1e9), nil
}

// forget drops a run from the cache after it was re-imported or deleted.
func (a *SampleAnalysis) forget(run string) { a.profiles.forget(run) }

// FindSymbol is the symbol a person names on a command line: the one whose name
// (model.DisplaySymbol) is name, or else the only one whose name contains it (any case). image,
// when set, picks among symbols of that name in several images (its path or file name). The
// error lists the candidates, so the person can say which.
func FindSymbol(set *samples.SampleSet, name, image string) (int32, error) {
	var exact, partial []int32
	for _, id := range set.FindSymbols(name) {
		s := set.Profile.Symbols[id]
		if image != "" && s.Image != image && !strings.HasSuffix(s.Image, "/"+image) {
			continue
		}
		partial = append(partial, id)
		if layers.DisplaySymbol(s) == name {
			exact = append(exact, id)
		}
	}
	found := exact
	if len(found) == 0 {
		found = partial
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		if image != "" {
			return 0, fmt.Errorf("no symbol %q in image %q: %w", name, image, cost.ErrNotFound)
		}
		return 0, fmt.Errorf("no symbol %q: %w", name, cost.ErrNotFound)
	}
	var names []string
	for _, id := range found {
		s := set.Profile.Symbols[id]
		names = append(names, layers.DisplaySymbol(s)+" in "+s.Image)
	}
	sort.Strings(names)
	more := ""
	if len(names) > 10 {
		names, more = names[:10], fmt.Sprintf(" and %d more", len(names)-10)
	}
	return 0, fmt.Errorf("%d symbols match %q: %s%s; name one whole, and its image when the name is in several",
		len(found), name, strings.Join(names, ", "), more)
}
