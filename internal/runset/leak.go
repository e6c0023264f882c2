package runset

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"androprof/formats/hprof/hproftest"
)

// The leak appended to every dump: a class whose static field holds an array of entries,
// each holding a payload, as a cache that is never cleared does.
const (
	LeakClass    = "com.example.LeakCache"
	LeakEntry    = "com.example.LeakEntry"
	PayloadBytes = 1024
)

// appendLeak adds to a real HPROF dump (plain or gzip) one more heap dump record holding a leak
// of n entries, written with hproftest's writer: new strings, classes and objects whose ids
// are odd and high, so they meet none of the dump's own (objects are aligned, so their ids
// are even). A gzip dump gets the leak as a second gzip member, which every gzip reader
// reads on from the first; the real dump's bytes stay as they are.
func appendLeak(dump []byte, n int) ([]byte, error) {
	plain, err := gunzippedHead(dump)
	if err != nil {
		return nil, err
	}
	version, idSize, err := hprofHeader(plain)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := writeLeak(&buf, hproftest.Options{Version: version, IDSize: idSize}, n); err != nil {
		return nil, err
	}
	records := buf.Bytes()[len("JAVA PROFILE ")+len(version)+1+12:] // without the writer's own header
	out := append([]byte{}, dump...)
	if !bytes.HasPrefix(dump, []byte{0x1f, 0x8b}) {
		return append(out, records...), nil
	}
	zb := bytes.NewBuffer(out)
	zw := gzip.NewWriter(zb)
	zw.Write(records)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return zb.Bytes(), nil
}

// gunzippedHead is the start of a dump, decompressed when it is gzip.
func gunzippedHead(dump []byte) ([]byte, error) {
	r, err := plainReader(dump)
	if err != nil {
		return nil, err
	}
	head := make([]byte, 64)
	n, err := io.ReadFull(r, head)
	if err == io.ErrUnexpectedEOF {
		err = nil // a short file: hprofHeader says what is missing
	}
	return head[:n], err
}

// hprofHeader reads "JAVA PROFILE 1.0.x", its NUL and the id size.
func hprofHeader(b []byte) (version string, idSize int, err error) {
	rest, ok := bytes.CutPrefix(b, []byte("JAVA PROFILE "))
	nul := bytes.IndexByte(rest, 0)
	if !ok || nul < 0 || len(rest) < nul+13 {
		return "", 0, errors.New("not an HPROF dump")
	}
	idSize = int(binary.BigEndian.Uint32(rest[nul+1:]))
	if idSize != 4 && idSize != 8 {
		return "", 0, fmt.Errorf("HPROF id size %d", idSize)
	}
	return string(rest[:nul]), idSize, nil
}

// leakIDs hands out odd ids from the top of the id space.
type leakIDs struct{ next uint64 }

func (l *leakIDs) id() uint64 { l.next += 2; return l.next }

func writeLeak(buf *bytes.Buffer, o hproftest.Options, n int) error {
	w, err := hproftest.NewWriter(buf, o)
	if err != nil {
		return err
	}
	ids := &leakIDs{next: 0xF7000001}
	if o.IDSize == 8 {
		ids.next = 0x7F00_0000_0000_0001
	}
	str := func(s string) uint64 {
		id := ids.id()
		w.String(id, s)
		return id
	}
	// A desktop JVM's dump names classes as the JVM does inside; an Android one as Java does.
	cacheName, entryName, arrayName := str(internalName(LeakClass)), str(internalName(LeakEntry)), str("[L"+internalName(LeakEntry)+";")
	if o.Version == "1.0.3" {
		cacheName, entryName, arrayName = str(LeakClass), str(LeakEntry), str(LeakEntry+"[]")
	}
	entriesField, payloadField := str("entries"), str("payload")
	cache, entry, array, holder := ids.id(), ids.id(), ids.id(), ids.id()
	for i, c := range [][2]uint64{{cache, cacheName}, {entry, entryName}, {array, arrayName}} {
		w.LoadClass(0x7F000000+uint32(i), c[0], c[1])
	}
	w.Root(hproftest.RootStickyClass, cache)
	w.ClassDump(hproftest.Class{ID: cache, Statics: []hproftest.Static{{Name: entriesField, Value: hproftest.Ref(holder)}}})
	w.ClassDump(hproftest.Class{ID: entry, InstanceSize: uint32(o.IDSize), Fields: []hproftest.Field{{Name: payloadField, Type: hproftest.Object}}})
	w.ClassDump(hproftest.Class{ID: array})
	entries := make([]uint64, n)
	for i := range entries {
		entries[i] = ids.id()
		payload := ids.id()
		w.Instance(entries[i], entry, w.Values(hproftest.Ref(payload)))
		w.PrimArray(payload, hproftest.Byte, PayloadBytes)
	}
	w.ObjArray(holder, array, entries)
	return w.Close()
}

// internalName is a class name as HPROF's strings hold it: com/example/Name.
func internalName(dotted string) string {
	return string(bytes.ReplaceAll([]byte(dotted), []byte("."), []byte("/")))
}
