package bbprofile

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"androprof/formats/internal/blocks"
	"androprof/internal/benchmem"
	"androprof/internal/inputerr"
)

// A profile's blocks claim their instruction counts; only the lines read take memory, and
// threads declared by the thousand cost what their lines hold (docs/readers.md, "Memory").
func TestMemoryFollowsContent(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("androprof-bbprofile 1\nprocess 1 0 arm 0x10000 ./p\n")
	for tid := 1; tid <= 100_000; tid++ {
		fmt.Fprintf(&b, "thread %d\n", tid)
	}
	fmt.Fprintf(&b, "block 0 0x10000 ARM %d f\ninsn 0x10000 0000a0e1 mov r0, r0\nend\n", blocks.MaxInsns)
	var err error
	benchmem.WithinInput(t, b.Len(), func() { err = NewReader(bytes.NewReader(b.Bytes()), "claims.bbprofile").Feed(NewCollector()) })
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line != 100_005 || !strings.Contains(ie.Msg, "has 1 of its 4096 instructions") {
		t.Fatalf("err = %v, want line 100005: block 0 … has 1 of its 4096 instructions", err)
	}
}
