package hprof

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"androprof/formats/hprof/hproftest"
	"androprof/internal/inputerr"
)

// checkErr fails unless err is nil, io.EOF, "not HPROF", or an *inputerr.Error inside the data.
func checkErr(t *testing.T, what string, err error, size int) *inputerr.Error {
	t.Helper()
	if err == nil || err == io.EOF || errors.Is(err, ErrNotHPROF) {
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

// readAll reads every record and every array element, as a consumer may.
func readAll(data []byte) error {
	r := NewReader(bytes.NewReader(data), "t")
	defer r.Close()
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if rec.Kind == KindObjArray || rec.Kind == KindPrimArray {
			for {
				b, err := r.Elements()
				if err != nil {
					return err
				}
				if b == nil {
					break
				}
			}
		}
	}
}

// recordEnds lists the offsets where the dump's top-level records end: where a cut leaves a
// whole, valid file.
func recordEnds(data []byte) map[int]bool {
	at := bytes.IndexByte(data, 0) + 13
	ends := map[int]bool{at: true}
	for at+9 <= len(data) {
		at += 9 + int(binary.BigEndian.Uint32(data[at+5:]))
		ends[at] = true
	}
	return ends
}

// TestTruncated cuts dumps at every length: a cut between records leaves a valid dump, any
// other says "truncated" at the byte where the data ends.
func TestTruncated(t *testing.T) {
	for _, version := range []string{"1.0.2", "1.0.3"} {
		for _, idSize := range []int{4, 8} {
			data := handDump(t, version, idSize, false)
			ends := recordEnds(data)
			for n := range len(data) + 1 {
				cut := data[:n]
				for _, err := range []error{readAll(cut), summarizeErr(cut)} {
					switch {
					case n < len(magic):
						if !errors.Is(err, ErrNotHPROF) {
							t.Fatalf("%s/%d cut at %d: %v, want not HPROF", version, idSize, n, err)
						}
					case ends[n]:
						if err != nil {
							t.Fatalf("%s/%d cut at %d, between records: %v", version, idSize, n, err)
						}
					default:
						se := checkErr(t, "truncated", err, n)
						if se == nil || se.Offset != int64(n) || !strings.Contains(se.Msg, "truncated") {
							t.Fatalf("%s/%d cut at %d: %v, want truncated at byte %d", version, idSize, n, err, n)
						}
					}
				}
			}
		}
	}
}

func summarizeErr(data []byte) error {
	_, err := summarizeBytes(context.Background(), data, nil)
	return err
}

// TestCorrupted changes bytes at random: the reader and the summary may accept the result or
// refuse it with an offset, never panic.
func TestCorrupted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var gen bytes.Buffer
	if _, err := hproftest.Generate(&gen, hproftest.Options{Version: "1.0.3", SegmentBytes: 512}, 16<<10, 2); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(handDump(t, "1.0.3", 4, false))
	zw.Close()
	for _, data := range [][]byte{handDump(t, "1.0.3", 4, false), handDump(t, "1.0.2", 8, true), gen.Bytes(), gz.Bytes()} {
		for range 1000 {
			c := bytes.Clone(data)
			for range 1 + rng.IntN(3) {
				c[rng.IntN(len(c))] ^= byte(1 + rng.IntN(255))
			}
			checkErr(t, "corrupted", readAll(c), len(c)+1<<20)
			checkErr(t, "corrupted", summarizeErr(c), len(c)+1<<20)
		}
	}
}

// dumpOf is a header for ids of idSize bytes followed by records.
func dumpOf(version string, idSize uint32, records ...[]byte) []byte {
	b := append([]byte("JAVA PROFILE "+version), 0)
	b = binary.BigEndian.AppendUint32(b, idSize)
	b = append(b, 0, 0, 1, 0x47, 0x22, 0x34, 0xaa, 0xd3)
	for _, r := range records {
		b = append(b, r...)
	}
	return b
}

// rec is a record with the length it claims.
func rec(tag byte, length uint32, body ...byte) []byte {
	b := binary.BigEndian.AppendUint32([]byte{tag, 0, 0, 0, 0}, length)
	return append(b, body...)
}

// be4 is a big-endian u4.
func be4(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func TestSpecificErrors(t *testing.T) {
	const h = 31 // header of a 1.0.2 dump
	// A 25-byte instance with 8 bytes of fields.
	instance := cat([]byte{0x21}, be4(0x1000), be4(0), be4(0x200), be4(8), make([]byte, 8))
	for _, tc := range []struct {
		name   string
		data   []byte
		offset int64
		msg    string
	}{
		{"id size 5", dumpOf("1.0.2", 5), 19, "id size 5"},
		{"id size 0", dumpOf("1.0.3", 0), 19, "id size 0"},
		{"unknown version", dumpOf("1.1", 4), 0, "unknown HPROF version"},
		{"unknown sub-record", dumpOf("1.0.2", 4, rec(0x1C, 7, 0x05, 0, 0, 0, 1, 0x42, 0)), h + 9 + 5, "unknown heap dump sub-record tag 0x42"},
		{"STRING claims 4 GB", dumpOf("1.0.2", 4, rec(0x01, 0xFFFFFFFF, 0, 0, 0, 1, 'a', 'b')), h + 15, "truncated"},
		{"STRING shorter than its id", dumpOf("1.0.2", 4, rec(0x01, 2, 0, 1)), h, "no room for its 4-byte id"},
		{"LOAD_CLASS too short", dumpOf("1.0.2", 8, rec(0x02, 12, make([]byte, 12)...)), h, "LOAD_CLASS record of 12 bytes, needs 24"},
		{"skipped record claims 4 GB", dumpOf("1.0.2", 4, rec(0x05, 0xFFFFFFFF, 1, 2, 3)), h + 12, "a record of tag 0x05 that starts at byte 31: truncated"},
		{"segment claims 4 GB", dumpOf("1.0.2", 4, rec(0x1C, 0xFFFFFFFF, instance...)), h + 9 + 25, "file ends inside a heap dump sub-record: truncated"},
		{"instance claims 4 GB", dumpOf("1.0.2", 4, rec(0x1C, 0xFFFFFFFF, cat(instance[:13], be4(0xFFFFFF00), []byte{1, 2})...)), h + 9 + 19, "INSTANCE_DUMP sub-record that starts at byte 40: truncated"},
		{"array claims 4 G elements", dumpOf("1.0.2", 4, rec(0x1C, 0xFFFFFFFF, cat([]byte{0x22}, be4(1), be4(0), be4(0x3FFFFFF0), be4(0x400), be4(7))...)), h + 9 + 21, "truncated"},
		{"instance overruns its segment", dumpOf("1.0.2", 4, rec(0x1C, 10, instance...)), h + 9, "ends at byte 50"},
		{"instance values overrun", dumpOf("1.0.2", 4, rec(0x1C, 20, instance...)), h + 9, "INSTANCE_DUMP sub-record needs 8 more bytes at byte 57"},
		{"array elements overrun", dumpOf("1.0.2", 4, rec(0x1C, 21, cat([]byte{0x22}, be4(1), be4(0), be4(2), be4(0x400), be4(7))...)), h + 9, "OBJ_ARRAY_DUMP"},
		{"root overruns", dumpOf("1.0.2", 4, rec(0x1C, 3, 0xFF, 0, 0, 0, 1)), h + 9, "root sub-record of tag 0xff needs 4 more bytes"},
		{"primitive array of objects", dumpOf("1.0.2", 4, rec(0x1C, 14, cat([]byte{0x23}, be4(1), be4(0), be4(0), []byte{2})...)), h + 9 + 13, "primitive array of Object"},
		{"static of unknown type", dumpOf("1.0.2", 4, rec(0x1C, 100, cat([]byte{0x20}, make([]byte, 7*4+8), []byte{0, 0, 0, 1}, be4(9), []byte{3})...)), h + 9 + 45, "static field of unknown type 3"},
		{"field of unknown type", dumpOf("1.0.2", 4, rec(0x1C, 100, cat([]byte{0x20}, make([]byte, 7*4+8), []byte{0, 0, 0, 0, 0, 1}, be4(9), []byte{12})...)), h + 9 + 47, "instance field of unknown type 12"},
		{"heap info cut", dumpOf("1.0.3", 4, rec(0x1C, 10, 0xFE, 0, 0, 0, 'Z', 0, 0)), h + 9 + 7, "HEAP_DUMP_INFO sub-record that starts at byte 40: truncated"},
		{"record header cut", dumpOf("1.0.2", 4, []byte{0x01, 0, 0}), h + 3, "a record header: truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := readAll(tc.data)
			runtime.ReadMemStats(&after)
			se := checkErr(t, tc.name, err, len(tc.data))
			if se == nil || se.Offset != tc.offset || !strings.Contains(se.Msg, tc.msg) {
				t.Fatalf("%v, want byte %d: …%s…", err, tc.offset, tc.msg)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2*bufSize {
				t.Errorf("reading %d bytes allocated %d", len(tc.data), alloc)
			}
			var se2 *inputerr.Error
			if err2 := summarizeErr(tc.data); !errors.As(err2, &se2) || se2.Offset != se.Offset || se2.Msg != se.Msg {
				t.Errorf("summary: %v, reader: %v", err2, err)
			}
		})
	}
}

// TestStickyError checks that Next and Elements keep returning the first error.
func TestStickyError(t *testing.T) {
	data := dumpOf("1.0.2", 4, rec(0x1C, 7, 0x05, 0, 0, 0, 1, 0x42, 0))
	r := NewReader(bytes.NewReader(data), "t")
	var err1 error
	for err1 == nil {
		_, err1 = r.Next()
	}
	_, err2 := r.Next()
	_, err3 := r.Elements()
	if err1 == nil || err1 != err2 || err1 != err3 {
		t.Fatalf("errors %v, %v, %v", err1, err2, err3)
	}
}
