package controller

import (
	"context"

	"androprof/formats"
	"androprof/internal/countio"
	"androprof/model/calls"
)

// importMethodTrace reads one method trace, rebuilds its calls and stores it as a new run.
func (im Importer) importMethodTrace(ctx context.Context, run, source string, in *formats.Input, p *countio.Progress) error {
	b := calls.NewCallBuilder()
	spans := &calls.SpanKeeper{}
	b.OnCall = spans.Add
	h, err := in.Format.ReadMethods(in, im.options(), b)
	if err != nil {
		return err
	}
	p.Finish()
	t := &calls.MethodTrace{Header: h, Profile: b.Finish(), Spans: spans.Calls(), SpanMinMicros: spans.Min}
	if t.Header.Format == "" {
		t.Header.Format = in.Format.Name
	}
	return im.store.ImportMethodRun(ctx, run, source, t)
}
