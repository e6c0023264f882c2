package chrometrace

import (
	"bytes"
	"encoding/json"
	"testing"
)

// What the writer streams is the JSON Object Format, whatever the names hold (quotes, control
// characters, bytes that are not UTF-8), with each field where the viewers read it.
func TestWriterWritesTraceEventJSON(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.ProcessName(7, "app \"quoted\"")
	w.ThreadName(7, 8, "main\n\x01")
	w.Slice(Slice{PID: 7, TID: 8, Name: "a.B.c", Category: "a", StartMicros: 10, Dur: 5, Args: []Arg{{"class", "a/B"}, {"signature", "()V"}}})
	w.Slice(Slice{PID: 7, TID: 8, Name: "bad \xff name", StartMicros: 11, Dur: 0})
	w.Counter(7, "live bytes", 3, []CounterValue{{"cohort 0", 1.5}, {"cohort 1", 2}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var f struct {
		TraceEvents []struct {
			Ph, Name, Cat string
			PID, TID      int
			TS, Dur       uint64
			Args          map[string]any
		}
		DisplayTimeUnit string
	}
	if err := json.Unmarshal(buf.Bytes(), &f); err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	if w.Events() != 5 || len(f.TraceEvents) != 5 || f.DisplayTimeUnit != "ms" {
		t.Fatalf("%d events written, %d read: %s", w.Events(), len(f.TraceEvents), buf.Bytes())
	}
	e := f.TraceEvents
	if e[0].Ph != "M" || e[0].Args["name"] != "app \"quoted\"" || e[1].Args["name"] != "main\n\x01" || e[1].TID != 8 {
		t.Errorf("metadata: %+v %+v", e[0], e[1])
	}
	if e[2].Ph != "X" || e[2].TS != 10 || e[2].Dur != 5 || e[2].Cat != "a" || e[2].Args["signature"] != "()V" {
		t.Errorf("slice: %+v", e[2])
	}
	if e[3].Name != "bad \uFFFD name" {
		t.Errorf("a name that is not UTF-8 reads %q", e[3].Name)
	}
	if e[4].Ph != "C" || e[4].Args["cohort 0"] != 1.5 || e[4].Args["cohort 1"] != 2.0 {
		t.Errorf("counter: %+v", e[4])
	}
}
