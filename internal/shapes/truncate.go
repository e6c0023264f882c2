package shapes

import (
	"bytes"
	"io"

	"androprof/formats/heaplog/heaplogtest"
)

// CutInLastLine is data cut in the middle of its last line that holds something, without
// its newline: the file a copy stopped early, a full disk or a writer killed mid-line leaves.
// The cut line is on line bytes.Count(cut, "\n")+1.
func CutInLastLine(data []byte) []byte {
	end := len(bytes.TrimRight(data, "\r\n"))
	start := bytes.LastIndexByte(data[:end], '\n') + 1
	return data[:start+max((end-start)/2, 1)]
}

// TruncatedPerfScript writes PerfScript's n samples cut inside the last frame of the last
// sample (finding 16: such a file imported its last frame cut short, "start_thread+0x305 (/").
func TruncatedPerfScript(w io.Writer, n int) error {
	var b bytes.Buffer
	if err := PerfScript(&b, n); err != nil {
		return err
	}
	_, err := w.Write(CutInLastLine(b.Bytes()))
	return err
}

// TruncatedHeapLog writes a synthetic heap log of about n events whose last line, a class
// declaration, is cut to "java/lang/Obj" (finding 16: such a log imported the cut class name).
func TruncatedHeapLog(w io.Writer, n int) error {
	var b bytes.Buffer
	if err := heaplogtest.Synthetic(&b, n, 1); err != nil {
		return err
	}
	b.WriteString("c 4294967295 java/lang/Object\n") // an id no generated class has
	_, err := w.Write(bytes.TrimSuffix(b.Bytes(), []byte("ect\n")))
	return err
}
