package heaplog_test

import (
	"bytes"
	"errors"
	"testing"

	"androprof/formats/heaplog"
	"androprof/formats/heaplog/heaplogtest"
	"androprof/formats/internal/lines"
	"androprof/internal/fuzzseed"
	"androprof/internal/inputerr"
	"androprof/model/heap"
)

// FuzzReader feeds arbitrary bytes to the reader: it must never panic, must explain every
// refusal with the file and a line inside the input (or say the input is not a heap log), and
// what it accepts the writer must write back so that it reads the same again.
func FuzzReader(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		h, evs, err := readAll(t, data, "fuzz")
		if err != nil {
			checkErr(t, err, data)
			return
		}
		r := heaplog.NewReader(bytes.NewReader(data), "fuzz")
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
		if r.Offset() != int64(len(data)) {
			t.Fatalf("offset %d at the end of %d bytes", r.Offset(), len(data))
		}
		rewriteAndCompare(t, h, evs)
	})
}

// checkErr fails unless err says "not a heap log" or is an *inputerr.Error on a line of the input.
func checkErr(t *testing.T, err error, data []byte) {
	t.Helper()
	if errors.Is(err, heaplog.ErrNotHeapLog) {
		return
	}
	var se *inputerr.Error
	if !errors.As(err, &se) {
		t.Fatalf("error without a line: %v", err)
	}
	if se.File != "fuzz" || se.Line < 1 {
		t.Fatalf("error without file and line: %v", err)
	}
	gz := len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b
	if n := int64(bytes.Count(data, []byte("\n")) + 1); !gz && se.Line > n {
		t.Fatalf("line %d of a %d-line input: %v", se.Line, n, err)
	}
}

// rewriteAndCompare writes what was read and checks it reads back the same, up to the writer
// making names fit their fields.
func rewriteAndCompare(t *testing.T, h heap.HeapHeader, evs []heap.HeapEvent) {
	t.Helper()
	var buf bytes.Buffer
	w, err := heaplog.NewWriter(&buf, h)
	if err != nil {
		t.Fatalf("header %+v read but not writable: %v", h, err)
	}
	for i := range evs {
		if err := w.Write(&evs[i]); err != nil {
			t.Fatalf("event %d %+v read but not writable: %v", i, evs[i], err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	h2, again, err := readAll(t, buf.Bytes(), "rewritten")
	if err != nil {
		t.Fatalf("rereading what was written: %v\n%s", err, buf.Bytes())
	}
	if h2.VM != lines.Text(h.VM) || len(h2.Props) > len(h.Props) {
		t.Fatalf("header %+v, then %+v", h, h2)
	}
	if len(again) != len(evs) {
		t.Fatalf("%d events, then %d", len(evs), len(again))
	}
	for i, e := range evs {
		switch e.Kind {
		case heap.HeapClass:
			e.Name = lines.Token(e.Name)
		case heap.HeapThreadStart:
			e.Name, e.Group = lines.Text(e.Name), lines.Token(e.Group)
		}
		if again[i] != e {
			t.Fatalf("event %d: %+v, then %+v", i, e, again[i])
		}
	}
}

// TestWriteFuzzSeeds keeps the seed corpus in testdata/fuzz/FuzzReader: logs the writer made,
// gzip-compressed and cut ones, and a few near misses (go test -run WriteFuzzSeeds -update).
func TestWriteFuzzSeeds(t *testing.T) {
	fuzzseed.Keep(t, fuzzSeeds(t), *update)
}

func fuzzSeeds(t *testing.T) map[string][]byte {
	small := writeAll(t, smallHeader, smallLog)
	var syn bytes.Buffer
	if err := heaplogtest.Synthetic(&syn, 400, 5); err != nil {
		t.Fatal(err)
	}
	gz := gzipped(t, small)
	return map[string][]byte{
		"small":         small,
		"small-gzip":    gz,
		"gzip-cut":      gz[:len(gz)*2/3],
		"synthetic-400": syn.Bytes(),
		"lenient":       []byte("# c\r\nandroprof-heaplog 1\r\nprop  k\tv\nt\t1  0 -  x\r\nc 7 [I \na 5 0 16 1 7 1\ne 1 16\n"),
		"huge-numbers": []byte(head + "t 4294967295 0 - x\nc 4294967295 [J\n" +
			"a 18446744073709551615 0 18446744073709551615 4294967295 4294967295 1\n" +
			"m 18446744073709551615 18446744073709551615 4294967295 18446744073709551615\n" +
			"s 18446744073709551615 -64 18446744073709551615\n"),
		"overflow":    []byte(decl + "a 1 0 18446744073709551615 1 1 0\na 2 18446744073709551615 1 1 1 0\n"),
		"truncated":   small[:len(small)-10],
		"time-back":   []byte(decl + "a 1 0 100 1 1 0\nd 1 100\nd 2 50\n"),
		"other-magic": []byte("androprof-dpa 1\nprocess 1\nend\n"),
	}
}
