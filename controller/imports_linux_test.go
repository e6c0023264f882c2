package controller

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"androprof/internal/corpus"
)

// opens counts, through the kernel (inotify), every time any process opens path until the
// returned function is called. Closes are watched too: the kernel merges identical events in a
// row, and an open then a close are not identical.
func opens(t *testing.T, path string) func() int {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		t.Skipf("inotify: %v", err)
	}
	if _, err := syscall.InotifyAddWatch(fd, path, syscall.IN_OPEN|syscall.IN_CLOSE); err != nil {
		syscall.Close(fd)
		t.Fatal(err)
	}
	return func() int {
		defer syscall.Close(fd)
		n := 0
		buf := make([]byte, 64<<10)
		for {
			got, err := syscall.Read(fd, buf)
			if errors.Is(err, syscall.EAGAIN) {
				return n
			}
			if err != nil {
				t.Fatal(err)
			}
			for off := 0; off+syscall.SizeofInotifyEvent <= got; {
				mask := binary.NativeEndian.Uint32(buf[off+4:])
				if mask&syscall.IN_OPEN != 0 {
					n++
				}
				off += syscall.SizeofInotifyEvent + int(binary.NativeEndian.Uint32(buf[off+12:]))
			}
		}
	}
}

// copyFile copies a corpus file where no other test opens it.
func copyFile(t *testing.T, src, dst string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// Importing a file opens it once: it is recognised from what the first read gave, and the
// format reads on from there (a plain trace's look at its end, a compressed streaming trace's
// summary and a numbered QEMU log's first Trace line included).
func TestImportOpensEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		files []string // copied into a directory of their own; one file is imported by its path
	}{
		{"classic trace", []string{corpus.File(t, "jag-dmtrace.trace")}},
		{"compressed streaming trace", []string{corpus.File(t, "art-trace-regular.trace.gz")}},
		{"heap log", []string{"../assets/demo/demo-heap-threads.heaplog.gz"}},
		{"QEMU logs of two processes", []string{"../formats/qemulog/testdata/arm-7.2.log", "../formats/qemulog/testdata/arm-7.2.log"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub := filepath.Join(dir, filepath.Base(t.Name()))
			if err := os.Mkdir(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			var counts []func() int
			path := sub
			for i, f := range tc.files {
				name := filepath.Base(f)
				if len(tc.files) > 1 {
					name = []string{"run_100.log", "run_200.log"}[i] // -D run_%d.log: pids from names
				}
				path = copyFile(t, f, filepath.Join(sub, name))
				counts = append(counts, opens(t, path))
			}
			if len(tc.files) > 1 {
				path = sub
			}
			if err := NewWorkspace(openStore(t)).Importer().ImportFiles(context.Background(), "r", []string{path}, nil); err != nil {
				t.Fatal(err)
			}
			for i, n := range counts {
				if got := n(); got != 1 {
					t.Errorf("%s opened %d times", tc.files[i], got)
				}
			}
		})
	}
}
