// Package countio counts the bytes a reader gave, so long reads can report progress over a
// file's size and stop when the user cancels. Every importer shares it: one Progress per import,
// one Reader per file.
package countio

import (
	"context"
	"errors"
	"io"
)

// Reader counts the bytes read from R in N. With Progress set, each read also counts towards
// the import's progress, and a cancelled import makes the next read fail with the context's
// error, so every reader stops without checking a context itself.
type Reader struct {
	R        io.Reader
	N        int64
	Progress *Progress
}

func (c *Reader) Read(p []byte) (int, error) {
	if c.Progress != nil {
		if err := c.Progress.check(); err != nil {
			return 0, err
		}
	}
	n, err := c.R.Read(p)
	c.N += int64(n)
	if c.Progress != nil {
		c.Progress.done += int64(n)
	}
	return n, err
}

// ErrNoSeek says the counted reader cannot seek.
var ErrNoSeek = errors.New("the input cannot seek")

// Seek seeks R when R can: a reader that looks ahead (the end of a Traceview trace, a second
// pass over a heap dump) still counts what it reads. N and the progress count bytes read, so a
// second pass counts again.
func (c *Reader) Seek(offset int64, whence int) (int64, error) {
	s, ok := c.R.(io.Seeker)
	if !ok {
		return 0, ErrNoSeek
	}
	return s.Seek(offset, whence)
}

// checkEvery is how many bytes go by between looks at the context and progress reports: often
// enough to stop within a few milliseconds, rarely enough to cost nothing.
const checkEvery = 256 << 10

// Progress is one import's progress and cancellation, shared by the Readers of all its files.
type Progress struct {
	ctx    context.Context
	report func(done, total int64)
	total  int64
	done   int64
	next   int64 // done at which to look at the context again
}

// NewProgress reports to report (nil: nobody listens) and stops reads once ctx is done.
func NewProgress(ctx context.Context, report func(done, total int64)) *Progress {
	return &Progress{ctx: ctx, report: report}
}

// Expect adds n bytes to read to the total, e.g. a file's size times the passes over it.
func (p *Progress) Expect(n int64) { p.total += n }

// Done is how many bytes the Readers have read so far.
func (p *Progress) Done() int64 { return p.done }

// Finish reports the import complete.
func (p *Progress) Finish() {
	if p.report != nil {
		p.report(p.total, p.total)
	}
}

// check looks at the context and reports, the first time and then every checkEvery bytes.
func (p *Progress) check() error {
	if p.done < p.next {
		return nil
	}
	p.next = p.done + checkEvery
	if err := p.ctx.Err(); err != nil {
		return err
	}
	if p.report != nil {
		p.report(min(p.done, p.total), p.total)
	}
	return nil
}
