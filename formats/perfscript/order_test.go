package perfscript_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"androprof/formats/perfscript"
	"androprof/internal/inputerr"
	"androprof/internal/shapes"
	"androprof/model/samples"
)

// Issue 24, finding 13 (the reader's side): a recording whose samples go back in time (here
// sample 20 of 40, dated before the first) is refused at that sample's header line, saying
// both times; no sample reaches the sink with a time before an earlier one's.
func TestBackInTimeRefused(t *testing.T) {
	var text bytes.Buffer
	if err := shapes.PerfBackInTime(&text, 40); err != nil {
		t.Fatal(err)
	}
	sink := &lastTime{}
	err := perfscript.NewReader(&text, "back.perfscript").Feed(sink)
	var ie *inputerr.Error
	want := "sample time 999.000000 is before the previous sample's 1000.019000"
	if !errors.As(err, &ie) || ie.File != "back.perfscript" || ie.Line != 5*20+1 || !strings.Contains(err.Error(), want) {
		t.Errorf("%v; want it refused at line %d: %s", err, 5*20+1, want)
	}
	if sink.back {
		t.Error("a sample went back in time into the sink")
	}
}

// lastTime notes whether a sample came earlier than the one before it.
type lastTime struct {
	last int64
	back bool
}

func (s *lastTime) Sample(m *samples.Sample) error {
	s.back = s.back || m.TimeNS < s.last
	s.last = m.TimeNS
	return nil
}
