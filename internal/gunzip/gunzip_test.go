package gunzip

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
)

func compress(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// readAll decompresses gz within the environment's bounds.
func readAll(gz []byte) (int64, error) {
	z, err := NewReader(bytes.NewReader(gz))
	if err != nil {
		return 0, err
	}
	return io.Copy(io.Discard, z)
}

// The most compressible real text, a QEMU exec log of a program spinning in one block (one
// line repeated: 285:1 with gzip), reads whole under the default ratio; zeros (1030:1) do not,
// unless the variable lifts the bound.
func TestRatio(t *testing.T) {
	spin := bytes.Repeat([]byte("Trace 0: 0x7fd220e29e80 [00000480/00010370/00000000/00000200] main\n"), 400_000)
	gz := compress(t, spin)
	if n, err := readAll(gz); err != nil || n != int64(len(spin)) {
		t.Errorf("spinning exec log (%d:1): %d bytes, %v", len(spin)/len(gz), n, err)
	}
	zeros := compress(t, make([]byte, 3*Free))
	n, err := readAll(zeros)
	var ee *ExpandError
	if !errors.As(err, &ee) || !ee.ByRatio || n > Free+64<<10 || !strings.Contains(err.Error(), RatioEnv) {
		t.Errorf("zeros (%d:1): %d bytes, %v", 3*Free/len(zeros), n, err)
	}
	t.Setenv(RatioEnv, "0")
	if n, err := readAll(zeros); err != nil || n != 3*Free {
		t.Errorf("zeros with %s=0: %d bytes, %v", RatioEnv, n, err)
	}
}

// The total bound stops at its byte exactly, whatever the ratio, and its variable takes
// binary suffixes.
func TestBytes(t *testing.T) {
	data := compress(t, bytes.Repeat([]byte("0123456789abcdef"), 1<<16)) // 1 MiB
	t.Setenv(BytesEnv, "512K")
	n, err := readAll(data)
	var ee *ExpandError
	if !errors.As(err, &ee) || ee.ByRatio || n != 512<<10 || !strings.Contains(err.Error(), BytesEnv) {
		t.Errorf("1 MiB under a 512 KiB bound: %d bytes, %v", n, err)
	}
	t.Setenv(BytesEnv, "1M")
	if n, err := readAll(data); err != nil || n != 1<<20 {
		t.Errorf("1 MiB under a 1 MiB bound: %d bytes, %v", n, err)
	}
}

// A value that is not a bound is refused before anything is read, naming the variable.
func TestBadSetting(t *testing.T) {
	for v, val := range map[string]string{RatioEnv: "lots", BytesEnv: "-1"} {
		t.Run(v, func(t *testing.T) {
			t.Setenv(v, val)
			if _, err := NewReader(bytes.NewReader(compress(t, []byte("x")))); !errors.Is(err, ErrSetting) || !strings.Contains(err.Error(), v) {
				t.Errorf("%s=%s: %v", v, val, err)
			}
		})
	}
}

// Starting over counts from nothing: a second pass over a file is bounded as the first was.
func TestReset(t *testing.T) {
	data := compress(t, make([]byte, 1<<20))
	t.Setenv(BytesEnv, "1M")
	z, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for pass := range 2 {
		if n, err := io.Copy(io.Discard, z); err != nil || n != 1<<20 {
			t.Fatalf("pass %d: %d bytes, %v", pass, n, err)
		}
		if err := z.Reset(bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
	}
}
