package speedscope

import (
	"bytes"
	"encoding/json"
	"testing"
)

// An evented and a sampled profile read back as speedscope's schema has them: frames shared
// once at the end, events and samples in the order written, a sampled profile's end the sum of
// its weights.
func TestWriterWritesTheFileFormat(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, "run \"x\"", "test")
	a := w.Frame(Frame{Name: "a", File: "A.java", Line: 3})
	b := w.Frame(Frame{Name: "b"})
	if w.Frame(Frame{Name: "a", File: "A.java", Line: 3}) != a {
		t.Fatal("a frame added twice")
	}
	w.BeginEvented("thread 1 main", "microseconds")
	w.Open(a, 5)
	w.Open(b, 6)
	w.Close(b, 7)
	w.Close(a, 9)
	w.EndEvented(5, 9)
	w.BeginSampled("thread 2", "none")
	w.Sample([]int{a, b}, 1)
	w.Sample([]int{a}, 2)
	w.EndSampled()
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	var f struct {
		Schema   string `json:"$schema"`
		Name     string
		Profiles []struct {
			Type, Name, Unit     string
			StartValue, EndValue uint64
			Events               []struct {
				Type  string
				Frame int
				At    uint64
			}
			Samples [][]int
			Weights []int64
		}
		Shared struct {
			Frames []struct {
				Name, File string
				Line       int
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &f); err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	if f.Schema != Schema || f.Name != `run "x"` || len(f.Profiles) != 2 || len(f.Shared.Frames) != 2 || f.Shared.Frames[0].Line != 3 {
		t.Fatalf("%s", buf.Bytes())
	}
	ev, sa := f.Profiles[0], f.Profiles[1]
	if ev.Type != "evented" || len(ev.Events) != 4 || ev.Events[3].Type != "C" || ev.Events[3].At != 9 || ev.StartValue != 5 || ev.EndValue != 9 {
		t.Errorf("evented: %+v", ev)
	}
	if sa.Type != "sampled" || len(sa.Samples) != 2 || len(sa.Samples[0]) != 2 || sa.Weights[1] != 2 || sa.EndValue != 3 {
		t.Errorf("sampled: %+v", sa)
	}
	if w.Events != 6 {
		t.Errorf("%d events and samples counted, want 6", w.Events)
	}
}
