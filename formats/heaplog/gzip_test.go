package heaplog_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"androprof/formats/heaplog"
	"androprof/formats/heaplog/heaplogtest"
	"androprof/formats/internal/lines"
	"androprof/internal/inputerr"
)

func gzipped(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Open reads plain and gzip-compressed files alike, telling them by their first bytes, and
// Offset counts the file's bytes so progress can be shown against its size.
func TestOpenGzip(t *testing.T) {
	dir := t.TempDir()
	plain := writeAll(t, smallHeader, smallLog)
	files := map[string][]byte{
		"small.heaplog":         plain,
		"small.heaplog.gz":      gzipped(t, plain),
		"misnamed.heaplog":      gzipped(t, plain),
		"not-compressed.gz":     plain,
		"two-members.heaplog.z": append(gzipped(t, plain[:100]), gzipped(t, plain[100:])...),
	}
	if err := heaplog.Sniff(plain); err != nil { // what the importer sniffs, decompressed
		t.Errorf("Sniff: %v", err)
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := heaplog.Open(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var c collector
		if err := r.Feed(&c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(c.events, smallLog) || c.headers[0].VM != smallHeader.VM {
			t.Errorf("%s: %d events, header %+v", name, len(c.events), c.headers[0])
		}
		if r.Offset() != int64(len(data)) {
			t.Errorf("%s: offset %d at the end of %d bytes", name, r.Offset(), len(data))
		}
		if err := r.Close(); err != nil {
			t.Errorf("%s: close: %v", name, err)
		}
	}
}

// Sniff judges the first bytes of a file as the importer hands them over, decompressed (a file
// that is not there, or a compressed DPA log, is the importer's to refuse: package formats).
func TestSniff(t *testing.T) {
	for name, src := range map[string]string{
		"dpa":       "androprof-dpa 1\nprocess 1\nend\n",
		"empty":     "",
		"text":      "hello\n",
		"gz-header": "\x1f\x8b",
		"long line": strings.Repeat("x", lines.MaxLine+10) + "\nandroprof-heaplog 1\n",
	} {
		if err := heaplog.Sniff([]byte(src)); !errors.Is(err, heaplog.ErrNotHeapLog) {
			t.Errorf("Sniff(%s) = %v", name, err)
		}
	}
	// Another version is still a heap log: the reader explains what it cannot read.
	if err := heaplog.Sniff([]byte("# later\nandroprof-heaplog 2\n")); err != nil {
		t.Errorf("Sniff(v2) = %v", err)
	}
	if _, err := heaplog.Open(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Open(missing) succeeded")
	}
}

// A gzip stream cut anywhere, or damaged, ends the log with an error naming the file and a
// line, never a clean io.EOF.
func TestGzipTruncated(t *testing.T) {
	var plain bytes.Buffer
	if err := heaplogtest.Synthetic(&plain, 3000, 7); err != nil {
		t.Fatal(err)
	}
	gz := gzipped(t, plain.Bytes())
	for _, n := range []int{30, len(gz) / 3, len(gz) / 2, len(gz) - 9, len(gz) - 1} {
		_, _, err := readAll(t, gz[:n], "cut.heaplog.gz")
		var se *inputerr.Error
		if !errors.As(err, &se) || se.File != "cut.heaplog.gz" || se.Line < 1 {
			t.Errorf("cut at %d of %d: %v", n, len(gz), err)
		}
	}
	_, _, err := readAll(t, gz[:len(gz)/2], "cut.heaplog.gz")
	if !strings.Contains(err.Error(), "compressed data damaged or cut off by this line: unexpected EOF") {
		t.Errorf("cut in half: %v", err)
	}
	bad := bytes.Clone(gz)
	bad[len(bad)-6] ^= 0xff // the CRC
	if _, _, err := readAll(t, bad, "crc.gz"); err == nil || !strings.Contains(err.Error(), "crc.gz:") {
		t.Errorf("bad checksum: %v", err)
	}
}

// Errors from the input itself are reported with the file name and where reading stopped.
func TestReadError(t *testing.T) {
	in := io.MultiReader(strings.NewReader(decl), iotest{})
	r := heaplog.NewReader(in, "dev")
	var err error
	for err == nil {
		_, err = r.Next()
	}
	if err == nil || !strings.Contains(err.Error(), "dev: after line 3: device gone") || !errors.Is(err, errGone) {
		t.Errorf("%v", err)
	}
}

var errGone = errors.New("device gone")

type iotest struct{}

func (iotest) Read([]byte) (int, error) { return 0, errGone }
