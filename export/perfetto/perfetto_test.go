package perfetto

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"androprof/internal/fastlane"
)

// twoThreads is a process with two threads, one with two nested slices; names repeat, so the
// second "a" is interned.
func twoThreads(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	p := w.Process(42, "app")
	main := w.Thread(p, 42, 42, "main")
	main.Begin(1000, "a")
	main.Begin(2000, "b")
	main.End(3000)
	main.End(4000)
	main.Begin(5000, "a")
	main.End(6000)
	other := w.Thread(p, 42, 43, "")
	other.Begin(10, "a")
	other.End(20)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if main.Slices != 3 || other.Slices != 1 || w.Packets() != 11 {
		t.Fatalf("%d and %d slices, %d packets", main.Slices, other.Slices, w.Packets())
	}
	return buf.Bytes()
}

// The file is a Trace: nothing but field 1, each a packet, as many as written.
func TestWriterWritesPackets(t *testing.T) {
	b := twoThreads(t)
	packets := 0
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num != 1 || typ != protowire.BytesType {
			t.Fatalf("field %d type %d at packet %d", num, typ, packets)
		}
		b = b[n:]
		_, n = protowire.ConsumeBytes(b)
		if n < 0 {
			t.Fatalf("packet %d cut", packets)
		}
		b = b[n:]
		packets++
	}
	if packets != 11 {
		t.Errorf("%d packets", packets)
	}
}

// protoc decodes the file with perfetto's own schema (testdata/perfetto_trace.proto, from
// google/perfetto), finding the tracks, the interned names and the slices where they were put.
func TestProtocDecodesWithPerfettosSchema(t *testing.T) {
	fastlane.Needs(t, "protoc")
	cmd := exec.Command("protoc", "--decode=perfetto.protos.Trace", "-I", "testdata", "perfetto_trace.proto")
	cmd.Stdin = bytes.NewReader(twoThreads(t))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	text := string(out)
	for _, want := range []string{`process_name: "app"`, `thread_name: "main"`, "tid: 43", "parent_uuid: 1",
		`name: "a"`, `name: "b"`, "timestamp: 6000", "trusted_packet_sequence_id: 3", "sequence_flags: 3"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %s in\n%s", want, text)
		}
	}
	if n := strings.Count(text, "TYPE_SLICE_BEGIN"); n != 4 || strings.Count(text, "TYPE_SLICE_END") != 4 {
		t.Errorf("%d begins", n)
	}
	if n := strings.Count(text, `name: "a"`); n != 2 { // once per sequence
		t.Errorf(`"a" interned %d times, want once per thread`, n)
	}
}
