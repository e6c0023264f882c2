package countio

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// Progress sums the Readers of every file of an import, reports at the start and every
// checkEvery bytes, never more than the total, and the total at the end.
func TestProgress(t *testing.T) {
	var reports [][2]int64
	p := NewProgress(context.Background(), func(done, total int64) { reports = append(reports, [2]int64{done, total}) })
	a, b := bytes.Repeat([]byte("a"), 3*checkEvery), bytes.Repeat([]byte("b"), checkEvery/2)
	p.Expect(int64(len(a) + len(b)))
	for _, data := range [][]byte{a, b} {
		r := &Reader{R: bytes.NewReader(data), Progress: p}
		if _, err := io.Copy(io.Discard, r); err != nil {
			t.Fatal(err)
		}
		if r.N != int64(len(data)) {
			t.Errorf("counted %d of %d bytes", r.N, len(data))
		}
	}
	p.Finish()
	total := int64(len(a) + len(b))
	if p.Done() != total || len(reports) < 4 || reports[0] != [2]int64{0, total} || reports[len(reports)-1] != [2]int64{total, total} {
		t.Errorf("done %d of %d; reports %v", p.Done(), total, reports)
	}
	for i, r := range reports[1:] {
		if r[0] < reports[i][0] || r[0] > total {
			t.Errorf("report %v after %v", r, reports[i])
		}
	}
}

// Once the context is done the next look at it fails the read, however few bytes were read.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := &Reader{R: strings.NewReader("abc"), Progress: NewProgress(ctx, nil)}
	if _, err := r.Read(make([]byte, 3)); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	p := NewProgress(ctx, func(done, _ int64) {
		if done > 0 {
			cancel()
		}
	})
	p.Expect(4 * checkEvery)
	r = &Reader{R: bytes.NewReader(make([]byte, 4*checkEvery)), Progress: p}
	n, err := io.Copy(io.Discard, r)
	if !errors.Is(err, context.Canceled) || n > 2*checkEvery {
		t.Errorf("read %d bytes, %v; want a stop at the first look after cancel", n, err)
	}
}

// Seek reaches a reader that can seek and says so when it cannot.
func TestSeek(t *testing.T) {
	r := &Reader{R: strings.NewReader("abcdef")}
	if pos, err := r.Seek(-2, io.SeekEnd); err != nil || pos != 4 {
		t.Errorf("seek: %d, %v", pos, err)
	}
	if b, _ := io.ReadAll(r); string(b) != "ef" || r.N != 2 {
		t.Errorf("read %q, counted %d", b, r.N)
	}
	if _, err := (&Reader{R: struct{ io.Reader }{strings.NewReader("x")}}).Seek(0, io.SeekStart); !errors.Is(err, ErrNoSeek) {
		t.Errorf("seek on a pipe: %v", err)
	}
}
