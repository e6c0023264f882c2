package traceview

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"androprof/internal/inputerr"
	"androprof/model/calls"
)

// checkErr fails unless err is nil, an *inputerr.Error inside the data, or "not a trace".
func checkErr(t *testing.T, what string, err error, size int) *inputerr.Error {
	t.Helper()
	if err == nil || errors.Is(err, ErrNotTraceview) {
		return nil
	}
	var se *inputerr.Error
	if !errors.As(err, &se) {
		t.Fatalf("%s: error without an offset: %v", what, err)
	}
	if se.Offset < 0 || se.Offset > int64(size) {
		t.Fatalf("%s: offset %d outside the %d-byte input: %v", what, se.Offset, size, err)
	}
	return se
}

// readAll reads everything through a CallBuilder, as an import does.
func readAll(data []byte, seekable bool) error {
	var r io.Reader = bytes.NewReader(data)
	if !seekable {
		r = struct{ io.Reader }{r}
	}
	b := calls.NewCallBuilder()
	err := NewReader(r, "t").Feed(b)
	b.Finish()
	return err
}

// TestTruncated cuts traces at every length: a classic trace that states its record count and
// any trace cut inside a record, packet or key line must say where it ends.
func TestTruncated(t *testing.T) {
	for _, o := range []WriterOptions{
		{Version: 3, Clock: calls.ClockDual, NumMethodCalls: 60},
		{Version: 1, Clock: calls.ClockThreadCPU, NumMethodCalls: 60},
		{Version: 2, Clock: calls.ClockWall, Streaming: true, LegacyRecords: true},
		{Version: 3, Clock: calls.ClockDual, Streaming: true},
	} {
		data, _ := writeTrace(t, o, newTraceGen(5, 2, 6, 5, 0), 60)
		for n := range len(data) {
			err := readAll(data[:n], true)
			se := checkErr(t, "truncated", err, n)
			if !o.Streaming && n > 0 && se == nil && !errors.Is(err, ErrNotTraceview) {
				t.Fatalf("v%d classic cut at %d of %d: no error", o.Version, n, len(data))
			}
			if se != nil && !strings.Contains(se.Error(), "truncated") && !strings.Contains(se.Error(), "ends") {
				t.Fatalf("cut at %d: %v does not say the file ends early", n, se)
			}
		}
		if err := readAll(data, true); err != nil {
			t.Fatalf("whole trace: %v", err)
		}
	}
}

// TestCorrupted flips bytes at random: the reader may accept the result or refuse it with an
// offset, never panic.
func TestCorrupted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, o := range []WriterOptions{
		{Version: 3, Clock: calls.ClockDual},
		{Version: 2, Clock: calls.ClockThreadCPU, Streaming: true, LegacyRecords: true},
		{Version: 3, Clock: calls.ClockDual, Streaming: true, ARTMethodLines: true},
	} {
		data, _ := writeTrace(t, o, newTraceGen(9, 3, 8, 6, 0), 200)
		for range 2000 {
			c := bytes.Clone(data)
			for range 1 + rng.IntN(3) {
				c[rng.IntN(len(c))] ^= byte(1 + rng.IntN(255))
			}
			for _, seekable := range []bool{true, false} {
				checkErr(t, "corrupted", readAll(c, seekable), len(c))
			}
		}
	}
}

func TestSpecificErrors(t *testing.T) {
	classic := func(key string, records ...[]byte) []byte {
		var b bytes.Buffer
		b.WriteString(key)
		h := make([]byte, 32)
		binary.LittleEndian.PutUint32(h, Magic)
		binary.LittleEndian.PutUint16(h[4:], 3)
		binary.LittleEndian.PutUint16(h[6:], 32)
		binary.LittleEndian.PutUint16(h[16:], 14)
		b.Write(h)
		for _, r := range records {
			b.Write(r)
		}
		return b.Bytes()
	}
	key := "*version\n3\nclock=dual\n*threads\n1\tmain\n*methods\n0x10\tA\tm\t()V\tA.java\t3\n*end\n"
	rec := func(tid uint16, mv, t1, t2 uint32) []byte {
		b := make([]byte, 14)
		binary.LittleEndian.PutUint16(b, tid)
		binary.LittleEndian.PutUint32(b[2:], mv)
		binary.LittleEndian.PutUint32(b[6:], t1)
		binary.LittleEndian.PutUint32(b[10:], t2)
		return b
	}
	for _, tc := range []struct {
		name   string
		data   []byte
		offset int64
		msg    string
	}{
		{"action 3", classic(key, rec(1, 0x10, 1, 1), rec(1, 0x13, 2, 2)), int64(len(key)) + 32 + 14 + 2, "action 3"},
		{"bad magic", []byte(key + "SLOX" + strings.Repeat("\x00", 28)), int64(len(key)), "magic"},
		{"version mismatch", []byte("*version\n2\nclock=wall\n*end\n" + string(classic("")[:32])), 27 + 4, "says version 3"},
		{"half a record", append(classic(key, rec(1, 0x10, 1, 1)), 1, 0, 0), int64(len(key)) + 32 + 14, "inside a record"},
		{"claimed records", classic(strings.Replace(key, "clock=dual\n", "clock=dual\nnum-method-calls=4000000000\n", 1), rec(1, 0x10, 1, 1)),
			int64(len(key)) + 28 + 32 + 14, "claims 4000000000 records"},
		{"no *end", []byte("*version\n3\nclock=dual\n*threads\n1\tmain\n"), 38, "no *end"},
		{"bad method id", []byte("*version\n3\n*methods\nzz\tA\n*end\n"), 20, "method id"},
		{"bad thread", []byte("*version\n3\n*threads\nmain\n*end\n"), 20, "thread line"},
		{"unknown section", []byte("*version\n1\n*stuff\n"), 11, "unknown key section"},
		{"version 4", []byte("*version\n4\n"), 9, "unsupported trace version"},
		{"dual in v2", []byte("*version\n2\nclock=dual\n*end\n"), 22, "needs version 3"},
		{"record too small", classic(key)[:len(key)+32], int64(len(key)) + 16, "too small"},
	} {
		data := tc.data
		if tc.name == "record too small" {
			binary.LittleEndian.PutUint16(data[len(key)+16:], 10)
		}
		err := readAll(data, true)
		var se *inputerr.Error
		if !errors.As(err, &se) || se.Offset != tc.offset || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%s: %v, want a syntax error at byte %d saying %q", tc.name, err, tc.offset, tc.msg)
		}
	}
}

// allocated is what f allocates in total, in bytes.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestHugeClaims: lengths and counts in a file are checked against what follows, never used to
// size an allocation.
func TestHugeClaims(t *testing.T) {
	stream := func(version uint16, tail ...byte) []byte {
		h := make([]byte, 32)
		binary.LittleEndian.PutUint32(h, Magic)
		binary.LittleEndian.PutUint16(h[4:], version)
		binary.LittleEndian.PutUint16(h[6:], 32)
		binary.LittleEndian.PutUint16(h[16:], 14)
		return append(h, tail...)
	}
	cases := map[string][]byte{
		"summary of 4 GiB":      stream(0xF3, append([]byte{0, 0, 3, 0xff, 0xff, 0xff, 0xff}, "*version\n3\n"...)...),
		"method line of 64 KiB": stream(0xF3, 0, 0, 1, 0xff, 0xff, '0', '\t'),
		"thread name of 64 KiB": stream(0xF3, 0, 0, 2, 1, 0, 0xff, 0xff),
		"offset to data 65535":  append(stream(0xF3)[:6], 0xff, 0xff),
		"record size 65535":     append(stream(0xF3)[:16], 0xff, 0xff, 0, 0),
		"record count 2^62":     []byte("*version\n3\nnum-method-calls=4611686018427387904\nclock=dual\n*end\n"),
		"10 MB key line":        []byte("*version\n3\n" + strings.Repeat("x", 10<<20)),
	}
	for name, data := range cases {
		var err error
		n := allocated(func() { err = readAll(data, true) })
		if checkErr(t, name, err, len(data)) == nil {
			t.Errorf("%s: accepted", name)
		}
		if n > 2<<20 {
			t.Errorf("%s: allocated %d bytes", name, n)
		}
	}
}

// TestMethodLineDialects covers every method-line form of docs/formats.md#traceview-key-section.
func TestMethodLineDialects(t *testing.T) {
	key := "*version\n3\nclock=dual\n*threads\n*methods\n" +
		"0x4105b494\tjava/lang/Long\tdoubleValue\t()D\tLong.java\t168\n" + // Dalvik: six tokens
		"0x1468\tjava.lang.BootClassLoader\tfindResources\t(Ljava/lang/String;)Ljava/util/Enumeration;\tClassLoader.java\n" + // ART: five
		"0\tcom.android.internal.os.ZygoteInit\tmain\t([Ljava/lang/String;)V\tZygoteInit.java\n" + // ART 9+: id 0 as "0"
		"62ae8a10\tcom/test/Basic\tbar\t()I\n" + // no 0x, no file
		"0x20\tmy_function\n" + // id and a bare name
		"0x24\tcom/x/Y\tFile.java\t-2\n" + // class, file, line (perflib's else branch)
		"0x28\tcom/x/Y\tz\n" + // id, class, method
		"0x2c\tcom/x/Y\tnat\t(J)V\tY.java\t-2\r\n" + // native, CRLF
		"*end\n"
	data := []byte(key)
	h := make([]byte, 32)
	binary.LittleEndian.PutUint32(h, Magic)
	binary.LittleEndian.PutUint16(h[4:], 3)
	binary.LittleEndian.PutUint16(h[6:], 32)
	binary.LittleEndian.PutUint16(h[16:], 14)
	data = append(data, h...)
	got := &collector{}
	if err := NewReader(bytes.NewReader(data), "dialects").Feed(got); err != nil {
		t.Fatal(err)
	}
	want := []calls.MethodInfo{
		{ID: 0x4105b494, Class: "java/lang/Long", Name: "doubleValue", Signature: "()D", File: "Long.java", Line: 168},
		{ID: 0x1468, Class: "java.lang.BootClassLoader", Name: "findResources", Signature: "(Ljava/lang/String;)Ljava/util/Enumeration;", File: "ClassLoader.java", Line: -1},
		{ID: 0, Class: "com.android.internal.os.ZygoteInit", Name: "main", Signature: "([Ljava/lang/String;)V", File: "ZygoteInit.java", Line: -1},
		{ID: 0x62ae8a10, Class: "com/test/Basic", Name: "bar", Signature: "()I", Line: -1},
		{ID: 0x20, Class: "my_function", Line: -1},
		{ID: 0x24, Class: "com/x/Y", File: "File.java", Line: -2},
		{ID: 0x28, Class: "com/x/Y", Name: "z", Line: -1},
		{ID: 0x2c, Class: "com/x/Y", Name: "nat", Signature: "(J)V", File: "Y.java", Line: -2},
	}
	if len(got.methods) != len(want) {
		t.Fatalf("%d methods, want %d", len(got.methods), len(want))
	}
	for i := range want {
		if got.methods[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i+1, got.methods[i], want[i])
		}
	}
	if h := got.headers[0]; h.Clock != calls.ClockDual || h.Version != 3 {
		t.Errorf("header %+v", h)
	}
}

// TestOldClockNames: very old Dalvik wrote no clock line, or "global" for wall.
func TestOldClockNames(t *testing.T) {
	for key, want := range map[string]calls.Clock{
		"*version\n1\n*threads\n*methods\n*end\n":               calls.ClockWall,
		"*version\n2\nclock=global\n*threads\n*methods\n*end\n": calls.ClockWall,
	} {
		got := &collector{}
		v := int(key[9] - '0')
		data := []byte(key)
		h := make([]byte, 16)
		binary.LittleEndian.PutUint32(h, Magic)
		binary.LittleEndian.PutUint16(h[4:], uint16(v))
		binary.LittleEndian.PutUint16(h[6:], 16)
		if err := NewReader(bytes.NewReader(append(data, h...)), "old").Feed(got); err != nil {
			t.Fatal(err)
		}
		if got.headers[0].Clock != want {
			t.Errorf("%q: clock %s, want %s", key, got.headers[0].Clock, want)
		}
	}
}
