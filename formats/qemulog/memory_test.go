package qemulog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"androprof/formats/bbprofile"
	"androprof/internal/benchmem"
	"androprof/internal/inputerr"
)

// traceLines are n Trace lines of n distinct blocks.
func traceLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "Trace 0: 0x7f0000001000 [00000000/%08x/00000000/00000000] f\n", 0x10000+4*i)
	}
	return b.String()
}

// A single log of executions whose blocks it never translates fails at its first line, having
// kept nothing of the lines after it (docs/readers.md, "Memory").
func TestLogMemoryUntranslated(t *testing.T) {
	log := traceLines(200_000)
	_, paths := writeFiles(t, map[string]string{"exec.log": log})
	var err error
	got := benchmem.Allocated(func() { err = ImportLogs(context.Background(), paths, armThumb, bbprofile.NewCollector(), nil) })
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.File != paths[0] || ie.Line != 1 || !strings.Contains(ie.Msg, "no translation") {
		t.Fatalf("err = %v, want %s:1: … no translation …", err, paths[0])
	}
	if limit := benchmem.InputBound(0); got > limit {
		t.Errorf("%d bytes of log allocated %d bytes before failing at line 1, more than %d", len(log), got, limit)
	}
}

// Executions read before the file that translates them are kept as one count per block, so
// what is allocated follows the distinct blocks (docs/readers.md, "Memory").
func TestLogMemoryTranslationsLater(t *testing.T) {
	const n = 100_000
	var blocks strings.Builder
	for i := range n {
		fmt.Fprintf(&blocks, "IN: f\n0x%08x:  e1a00000  mov      r0, r0\n\n", 0x10000+4*i)
	}
	execs := traceLines(n)
	_, paths := writeFiles(t, map[string]string{"a-exec.log": execs + execs, "b-in_asm.log": blocks.String()})
	var err error
	c := bbprofile.NewCollector()
	benchmem.WithinInput(t, 2*len(execs)+blocks.Len(), func() { err = ImportLogs(context.Background(), paths, armThumb, c, nil) })
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Counts) != n {
		t.Fatalf("%d counts, want %d", len(c.Counts), n)
	}
}
