package emulator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

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
	got := benchmem.Allocated(func() { err = ImportLogs(context.Background(), paths, armThumb, NewCollector(), nil) })
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
	c := NewCollector()
	benchmem.WithinInput(t, 2*len(execs)+blocks.Len(), func() { err = ImportLogs(context.Background(), paths, armThumb, c, nil) })
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Counts) != n {
		t.Fatalf("%d counts, want %d", len(c.Counts), n)
	}
}

// A profile's blocks claim their instruction counts; only the lines read take memory, and
// threads declared by the thousand cost what their lines hold (docs/readers.md, "Memory").
func TestBBProfileMemory(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("androprof-bbprofile 1\nprocess 1 0 arm 0x10000 ./p\n")
	for tid := 1; tid <= 100_000; tid++ {
		fmt.Fprintf(&b, "thread %d\n", tid)
	}
	fmt.Fprintf(&b, "block 0 0x10000 ARM %d f\ninsn 0x10000 0000a0e1 mov r0, r0\nend\n", MaxBlockInsns)
	var err error
	benchmem.WithinInput(t, b.Len(), func() { err = NewBBReader(bytes.NewReader(b.Bytes()), "claims.bbprofile").Feed(NewCollector()) })
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line != 100_005 || !strings.Contains(ie.Msg, "has 1 of its 4096 instructions") {
		t.Fatalf("err = %v, want line 100005: block 0 … has 1 of its 4096 instructions", err)
	}
}
