package heaplog_test

import (
	"fmt"
	"strings"
	"testing"

	"androprof/formats/heaplog"
	"androprof/internal/benchmem"
	"androprof/model/heap"
)

// TestMemoryFollowsContent feeds a few lines whose numbers are large (thread and class ids near
// 2^20, an allocation that moves time a million cohorts on) into the sink an import uses: what
// is allocated must follow the lines, not the ids (docs/readers.md, "Memory").
func TestMemoryFollowsContent(t *testing.T) {
	const id = 1<<20 - 1
	size := uint64(id) * heap.DefaultCohort
	log := "androprof-heaplog 1\n" +
		fmt.Sprintf("t %d 0 main main\nc %d java/lang/Object\n", id, id) +
		fmt.Sprintf("a 1 0 %d %d %d 0\na 2 %d 8 %d %d 0\nd 1 %d\nd 2 %d\n", size, id, id, size, id, id, size+8, size+8)
	var err error
	benchmem.WithinInput(t, len(log), func() {
		b := heap.NewHeapBuilder(0)
		b.MaxCells = 1 << 17
		err = heaplog.NewReader(strings.NewReader(log), "ids.heaplog").Feed(b)
		b.Profile()
	})
	if err != nil {
		t.Fatal(err)
	}
}
