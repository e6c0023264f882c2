package controller

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"

	"androprof/formats"
	"androprof/internal/countio"
	"androprof/model/calls"
)

// importMethodTrace reads one method trace, rebuilds its calls and stores it as a new run with
// every call: the calls are packed into chunks as they finish and spooled to a temporary file,
// which the store's transaction copies, so memory stays flat however long the trace.
func (im Importer) importMethodTrace(ctx context.Context, run, source string, in *formats.Input, p *countio.Progress) error {
	spool, err := newCallSpool()
	if err != nil {
		return err
	}
	defer spool.remove()
	b := calls.NewCallBuilder()
	spans := &calls.SpanKeeper{}
	chunks := &calls.ChunkWriter{Emit: spool.add}
	b.OnCall = func(c calls.Call) {
		spans.Add(c)
		chunks.Add(c)
	}
	h, err := in.Format.ReadMethods(in, im.options(), b)
	if err != nil {
		return err
	}
	p.Finish()
	prof := b.Finish() // closes the calls still open: they reach OnCall
	if err := chunks.Flush(); err != nil {
		return fmt.Errorf("keeping the calls of %s: %w", source, err)
	}
	spool.methods = chunks.Methods()
	t := &calls.MethodTrace{Header: h, Profile: prof, Spans: spans.Calls(), SpanMinMicros: spans.Min, Chunks: spool}
	if t.Header.Format == "" {
		t.Header.Format = in.Format.Name
	}
	return im.store.ImportMethodRun(ctx, run, source, t)
}

// callSpool holds an import's finished chunks in a temporary file until the store copies them:
// their bounds in memory (one entry per 4,096 calls), their bytes on disk.
type callSpool struct {
	f       *os.File
	w       *bufio.Writer
	chunks  []calls.CallChunk // Data nil: the bytes are at offsets[i] in f
	offset  []int64
	size    int64
	methods []uint64 // what the chunks index: ChunkWriter.Methods
}

// Methods is the method index the spooled chunks use.
func (s *callSpool) Methods() []uint64 { return s.methods }

func newCallSpool() (*callSpool, error) {
	f, err := os.CreateTemp("", "androprof-calls-*.spool")
	if err != nil {
		return nil, fmt.Errorf("a temporary file for the calls of an import: %w", err)
	}
	return &callSpool{f: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

func (s *callSpool) add(c calls.CallChunk) error {
	if _, err := s.w.Write(c.Data); err != nil {
		return fmt.Errorf("spooling calls to %s: %w", s.f.Name(), err)
	}
	s.offset = append(s.offset, s.size)
	s.size += int64(len(c.Data))
	c.Data = nil
	s.chunks = append(s.chunks, c)
	return nil
}

// EachChunk hands the spooled chunks back in the order they were added.
func (s *callSpool) EachChunk(fn func(calls.CallChunk) error) error {
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("spooling calls to %s: %w", s.f.Name(), err)
	}
	r := bufio.NewReaderSize(io.NewSectionReader(s.f, 0, s.size), 1<<20)
	var buf []byte
	for i, c := range s.chunks {
		end := s.size
		if i+1 < len(s.offset) {
			end = s.offset[i+1]
		}
		n := int(end - s.offset[i])
		buf = slices.Grow(buf[:0], n)[:n]
		if _, err := io.ReadFull(r, buf); err != nil {
			return fmt.Errorf("reading spooled calls back from %s: %w", s.f.Name(), err)
		}
		c.Data = buf
		if err := fn(c); err != nil {
			return err
		}
	}
	return nil
}

// remove deletes the spool: the import is over, stored or not.
func (s *callSpool) remove() {
	s.f.Close()
	os.Remove(s.f.Name())
}
