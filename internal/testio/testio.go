// Package testio holds what tests of several packages do with files and output: compress and
// decompress test data, read a test file as its reader sees it, and collect a child process's
// output while the test reads it.
package testio

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"sync"
	"testing"
)

// Gzip compresses data.
func Gzip(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data) // a bytes.Buffer does not fail
	zw.Close()
	return b.Bytes()
}

// Gunzip decompresses data, failing t when it is not whole gzip data.
func Gunzip(t testing.TB, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// IsGzip says whether data starts as gzip data does.
func IsGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

// ReadPlain is the content of the file at path, decompressed when it is gzip-compressed.
func ReadPlain(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !IsGzip(data) {
		return data
	}
	return Gunzip(t, data)
}

// Buffer collects what a child process writes; a test may read it while the child writes.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
