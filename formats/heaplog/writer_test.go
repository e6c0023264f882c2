package heaplog_test

import (
	"bytes"
	"strings"
	"testing"

	"androprof/formats/heaplog"
	"androprof/model"
)

// The writer refuses what the reader would, writes nothing for a refused event and carries on
// as before it.
func TestWriterRefuses(t *testing.T) {
	setup := []model.HeapEvent{
		{Kind: model.HeapThreadStart, Thread: 1, Name: "main"},
		{Kind: model.HeapClass, Class: 1, Name: "java/lang/String"},
		{Kind: model.HeapAlloc, Object: 1, Time: 0, Size: 24, Thread: 1, Class: 1},
		{Kind: model.HeapGCStart, Time: 24},
	}
	for _, c := range []struct {
		name string
		e    model.HeapEvent
		want string
	}{
		{"alloc time", model.HeapEvent{Kind: model.HeapAlloc, Object: 2, Time: 16, Size: 8, Thread: 1, Class: 1}, "total 24 bytes"},
		{"size 0", model.HeapEvent{Kind: model.HeapAlloc, Object: 2, Time: 24, Thread: 1, Class: 1}, "size 0"},
		{"oid 0", model.HeapEvent{Kind: model.HeapAlloc, Time: 24, Size: 8, Thread: 1, Class: 1}, "object 0"},
		{"overflow", model.HeapEvent{Kind: model.HeapAlloc, Object: 2, Time: 24, Size: 1<<64 - 1, Thread: 1, Class: 1}, "past 2^64"},
		{"undeclared thread", model.HeapEvent{Kind: model.HeapAlloc, Object: 2, Time: 24, Size: 8, Thread: 2, Class: 1}, "thread 2"},
		{"undeclared class", model.HeapEvent{Kind: model.HeapAlloc, Object: 2, Time: 24, Size: 8, Thread: 1, Class: 2}, "class 2"},
		{"time back", model.HeapEvent{Kind: model.HeapFree, Object: 1, Time: 0}, "before the previous record's 24"},
		{"time ahead", model.HeapEvent{Kind: model.HeapGCEnd, Time: 25}, "past the 24 bytes"},
		{"death of 0", model.HeapEvent{Kind: model.HeapFree, Time: 24}, "object 0"},
		{"mutation of 0", model.HeapEvent{Kind: model.HeapMutation, Time: 24, Target: 1}, "object 0"},
		{"bucket", model.HeapEvent{Kind: model.HeapSnapshot, Time: 24, Distance: 65}, "bucket 65"},
		{"bucket 0", model.HeapEvent{Kind: model.HeapSnapshot, Time: 24}, "bucket 0"},
		{"gc kind", model.HeapEvent{Kind: model.HeapGCStart, Time: 24, GCKind: "young"}, "GC kind"},
		{"thread twice", model.HeapEvent{Kind: model.HeapThreadStart, Thread: 1, Time: 24}, "declared twice"},
		{"thread end", model.HeapEvent{Kind: model.HeapThreadEnd, Thread: 3, Time: 24}, "thread 3"},
		{"class renamed", model.HeapEvent{Kind: model.HeapClass, Class: 1, Name: "X"}, "declared twice"},
		{"class name", model.HeapEvent{Kind: model.HeapClass, Class: 2}, "no name"},
		{"array flag", model.HeapEvent{Kind: model.HeapClass, Class: 2, Name: "[I"}, "array flag false"},
		{"kind", model.HeapEvent{}, "unknown kind 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			w, _ := heaplog.NewWriter(&buf, model.HeapHeader{})
			for i := range setup {
				if err := w.Write(&setup[i]); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Write(&c.e); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			last := model.HeapEvent{Kind: model.HeapAlloc, Object: 2, Time: 24, Size: 8, Thread: 1, Class: 1}
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
	for _, h := range []model.HeapHeader{{Format: "hprof"}, {Version: 2}, {Props: map[string]string{"": "x"}}} {
		if _, err := heaplog.NewWriter(&bytes.Buffer{}, h); err == nil {
			t.Errorf("header %+v accepted", h)
		}
	}
}

// Names are made to fit their fields, an empty GC kind is written as unknown, and a class
// declared again with its name writes nothing.
func TestWriterSanitizes(t *testing.T) {
	var buf bytes.Buffer
	w, _ := heaplog.NewWriter(&buf, model.HeapHeader{VM: "Open\nJDK", Props: map[string]string{"b key": "2\t3", "a": ""}})
	for _, e := range []model.HeapEvent{
		{Kind: model.HeapThreadStart, Thread: 4, Group: "system group", Name: "Signal\tCatcher"},
		{Kind: model.HeapThreadStart, Thread: 5, Group: "g"},
		{Kind: model.HeapClass, Class: 1, Name: "a b"},
		{Kind: model.HeapClass, Class: 1, Name: "a_b"},
		{Kind: model.HeapGCStart},
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
