package heaplog_test

import (
	"bytes"
	"strings"
	"testing"

	"androprof/formats/heaplog"
	"androprof/model/heap"
)

// The writer refuses what the reader would, writes nothing for a refused event and carries on
// as before it.
func TestWriterRefuses(t *testing.T) {
	setup := []heap.HeapEvent{
		{Kind: heap.HeapThreadStart, Thread: 1, Name: "main"},
		{Kind: heap.HeapClass, Class: 1, Name: "java/lang/String"},
		{Kind: heap.HeapAlloc, Object: 1, Time: 0, Size: 24, Thread: 1, Class: 1},
		{Kind: heap.HeapGCStart, Time: 24},
	}
	for _, c := range []struct {
		name string
		e    heap.HeapEvent
		want string
	}{
		{"alloc time", heap.HeapEvent{Kind: heap.HeapAlloc, Object: 2, Time: 16, Size: 8, Thread: 1, Class: 1}, "total 24 bytes"},
		{"size 0", heap.HeapEvent{Kind: heap.HeapAlloc, Object: 2, Time: 24, Thread: 1, Class: 1}, "size 0"},
		{"oid 0", heap.HeapEvent{Kind: heap.HeapAlloc, Time: 24, Size: 8, Thread: 1, Class: 1}, "object 0"},
		{"overflow", heap.HeapEvent{Kind: heap.HeapAlloc, Object: 2, Time: 24, Size: 1<<64 - 1, Thread: 1, Class: 1}, "past 2^64"},
		{"undeclared thread", heap.HeapEvent{Kind: heap.HeapAlloc, Object: 2, Time: 24, Size: 8, Thread: 2, Class: 1}, "thread 2"},
		{"undeclared class", heap.HeapEvent{Kind: heap.HeapAlloc, Object: 2, Time: 24, Size: 8, Thread: 1, Class: 2}, "class 2"},
		{"time back", heap.HeapEvent{Kind: heap.HeapFree, Object: 1, Time: 0}, "before the previous record's 24"},
		{"time ahead", heap.HeapEvent{Kind: heap.HeapGCEnd, Time: 25}, "past the 24 bytes"},
		{"death of 0", heap.HeapEvent{Kind: heap.HeapFree, Time: 24}, "object 0"},
		{"mutation of 0", heap.HeapEvent{Kind: heap.HeapMutation, Time: 24, Target: 1}, "object 0"},
		{"bucket", heap.HeapEvent{Kind: heap.HeapSnapshot, Time: 24, Distance: 65}, "bucket 65"},
		{"bucket 0", heap.HeapEvent{Kind: heap.HeapSnapshot, Time: 24}, "bucket 0"},
		{"gc kind", heap.HeapEvent{Kind: heap.HeapGCStart, Time: 24, GCKind: "young"}, "GC kind"},
		{"thread twice", heap.HeapEvent{Kind: heap.HeapThreadStart, Thread: 1, Time: 24}, "declared twice"},
		{"thread end", heap.HeapEvent{Kind: heap.HeapThreadEnd, Thread: 3, Time: 24}, "thread 3"},
		{"class renamed", heap.HeapEvent{Kind: heap.HeapClass, Class: 1, Name: "X"}, "declared twice"},
		{"class name", heap.HeapEvent{Kind: heap.HeapClass, Class: 2}, "no name"},
		{"array flag", heap.HeapEvent{Kind: heap.HeapClass, Class: 2, Name: "[I"}, "array flag false"},
		{"kind", heap.HeapEvent{}, "unknown kind 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			w, _ := heaplog.NewWriter(&buf, heap.HeapHeader{})
			for i := range setup {
				if err := w.Write(&setup[i]); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Write(&c.e); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			last := heap.HeapEvent{Kind: heap.HeapAlloc, Object: 2, Time: 24, Size: 8, Thread: 1, Class: 1}
			if err := w.Write(&last); err != nil {
				t.Fatalf("after the refusal: %v", err)
			}
			w.Flush()
			if _, evs, err := readAll(t, buf.Bytes(), "w"); err != nil || len(evs) != len(setup)+1 {
				t.Errorf("read back %d events: %v\n%s", len(evs), err, buf.Bytes())
			}
		})
	}
}

func TestWriterHeader(t *testing.T) {
	for _, h := range []heap.HeapHeader{{Format: "hprof"}, {Version: 2}, {Props: map[string]string{"": "x"}}} {
		if _, err := heaplog.NewWriter(&bytes.Buffer{}, h); err == nil {
			t.Errorf("header %+v accepted", h)
		}
	}
}

// Names are made to fit their fields, an empty GC kind is written as unknown, and a class
// declared again with its name writes nothing.
func TestWriterSanitizes(t *testing.T) {
	var buf bytes.Buffer
	w, _ := heaplog.NewWriter(&buf, heap.HeapHeader{VM: "Open\nJDK", Props: map[string]string{"b key": "2\t3", "a": ""}})
	for _, e := range []heap.HeapEvent{
		{Kind: heap.HeapThreadStart, Thread: 4, Group: "system group", Name: "Signal\tCatcher"},
		{Kind: heap.HeapThreadStart, Thread: 5, Group: "g"},
		{Kind: heap.HeapClass, Class: 1, Name: "a b"},
		{Kind: heap.HeapClass, Class: 1, Name: "a_b"},
		{Kind: heap.HeapGCStart},
	} {
		if err := w.Write(&e); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	want := "androprof-heaplog 1\nvm Open JDK\nprop a \nprop b_key 2 3\nt 4 0 system_group Signal Catcher\nt 5 0 g\nc 1 a_b\ng 0 GC\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	h, _, err := readAll(t, buf.Bytes(), "s")
	if err != nil || h.Props["a"] != "" || h.Props["b_key"] != "2 3" || h.VM != "Open JDK" {
		t.Errorf("%v %+v", err, h)
	}
}
