package controller

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"androprof/formats/heaplog/heaplogtest"
	"androprof/formats/hprof/hproftest"
)

func syntheticLog(t *testing.T, events int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := heaplogtest.Synthetic(&buf, events, 7); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A heap log or dump that is cut off, damaged or cancelled leaves the workspace as it was, and
// the error says where in which file.
func TestHeapImportFailuresLeaveNothing(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	im := NewWorkspace(db).Importer()
	im.Cohort = 4096
	log := syntheticLog(t, 50_000)

	if err := im.ImportFiles(ctx, "ok", []string{writeFile(t, "ok.heaplog", log)}, nil); err != nil {
		t.Fatal(err)
	}
	p, err := (&HeapLogs{store: db}).Profile(ctx, "ok", 1)
	if err != nil || p.Cohort != 4096 || p.Allocated.Objects == 0 {
		t.Fatalf("imported profile: cohort %d, %+v, %v", p.Cohort, p.Allocated, err)
	}

	// A time that goes backwards in the middle of the log.
	lines := strings.Split(string(log), "\n")
	mid := len(lines) / 2
	for !strings.HasPrefix(lines[mid], "a ") {
		mid++
	}
	f := strings.Fields(lines[mid])
	f[2] = "1"
	lines[mid] = strings.Join(f, " ")
	bad := writeFile(t, "bad.heaplog", []byte(strings.Join(lines, "\n")))
	err = im.ImportFiles(ctx, "bad", []string{bad}, nil)
	if err == nil || !strings.Contains(err.Error(), "bad.heaplog") || !strings.Contains(err.Error(), strconv.Itoa(mid+1)) {
		t.Errorf("damaged log: %v (want the file and line %d)", err, mid+1)
	}

	// A dump cut in the middle of a record.
	var dump bytes.Buffer
	if _, err := hproftest.Generate(&dump, hproftest.Options{Version: "1.0.3"}, 256<<10, 3); err != nil {
		t.Fatal(err)
	}
	cut := writeFile(t, "cut.hprof", dump.Bytes()[:dump.Len()*2/3])
	if err := im.ImportFiles(ctx, "cut", []string{cut}, nil); err == nil || !strings.Contains(err.Error(), "cut.hprof") ||
		!strings.Contains(err.Error(), "byte ") {
		t.Errorf("cut dump: %v (want the file and the byte offset)", err)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := im.ImportFiles(cctx, "cancelled", []string{writeFile(t, "c.heaplog", log)}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled import: %v", err)
	}
	runs, err := db.Runs(ctx)
	if err != nil || len(runs) != 1 || runs[0].Name != "ok" {
		t.Errorf("runs after the failed imports = %+v, %v", runs, err)
	}
}
