package formats

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/formats/traceview"
	"androprof/internal/corpus"
	"androprof/internal/countio"
	"androprof/internal/inputerr"
	"androprof/internal/testio"
	"androprof/model"
	"androprof/model/calls"
	"androprof/model/cost"
	"androprof/model/samples"
)

// realFiles are files real tools wrote (or, for the project's own formats, its writers), one or
// more of each registered format.
var realFiles = map[string][]string{
	"qemu-log":    {"qemulog/testdata/arm-7.2.log"},
	"bbprofile":   {"bbprofile/testdata/sieve-mips.bbprofile", "bbprofile/testdata/forker-arm.bbprofile"},
	"traceview":   {"../assets/demo/demo-methods.trace.gz"},
	"dpa":         {"dpa/testdata/figure4.dpa"},
	"rmp":         {"rmp/testdata/browser.rmp"},
	"heaplog":     {"heaplog/testdata/small.heaplog", "../assets/demo/demo-heap-threads.heaplog.gz"},
	"hprof":       {"../assets/demo/demo-heap-dump.hprof.gz"},
	"perf-script": {"perfscript/testdata/java.perfscript.gz"},
}

// recognizeFile opens path and recognises it, as the importer does.
func recognizeFile(t *testing.T, path string, p *countio.Progress) (*Input, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { f.Close() })
	return Recognize(f, p)
}

func newProgress() *countio.Progress { return countio.NewProgress(context.Background(), nil) }

// Every registered format recognises a real file of its own, plain and, when the format may
// be compressed, gzip-compressed; no other format claims it. A compressed file of a format
// that is never compressed is refused, as before the registry.
func TestRecognizeEachFormat(t *testing.T) {
	dir := t.TempDir()
	for _, f := range All {
		paths := realFiles[f.Name]
		if len(paths) == 0 {
			t.Errorf("format %s has no real file in this test", f.Name)
		}
		for _, src := range paths {
			data := testio.ReadPlain(t, src)
			for _, g := range All {
				if err := g.Sniff(data[:min(len(data), HeadSize)]); g != f && !errors.Is(err, g.NotMine) {
					t.Errorf("%s claims %s: %v", g.Name, src, err)
				}
			}
			name := strings.TrimSuffix(filepath.Base(src), ".gz")
			for _, gz := range []bool{false, true} {
				path := filepath.Join(dir, name)
				content := data
				if gz {
					path += ".gz"
					content = testio.Gzip(data)
				}
				if err := os.WriteFile(path, content, 0o644); err != nil {
					t.Fatal(err)
				}
				in, err := recognizeFile(t, path, newProgress())
				switch {
				case gz && !f.Gzip:
					if !errors.Is(err, ErrUnknownFormat) {
						t.Errorf("%s: %v, want ErrUnknownFormat (%s files are never compressed)", path, err, f.Name)
					}
				case err != nil:
					t.Errorf("%s: %v", path, err)
				case in.Format != f || in.Size != int64(len(content)):
					t.Errorf("%s: format %s, size %d; want %s, %d", path, in.Format.Name, in.Size, f.Name, len(content))
				}
			}
		}
	}
}

// A file no format claims is refused with ErrUnknownFormat, naming the file; a missing file
// with the file system's error.
func TestRecognizeUnknown(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"notes.txt": "just some notes\n",
		"empty":     "",
		"bad.gz":    "\x1f\x8b\x00\x00",
		"text.gz":   string(testio.Gzip([]byte("just some notes\n"))),
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(content), 0o644)
		if _, err := recognizeFile(t, path, newProgress()); !errors.Is(err, ErrUnknownFormat) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want ErrUnknownFormat naming the file", name, err)
		}
	}
	if _, err := recognizeFile(t, filepath.Join(dir, "missing"), newProgress()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

// A pipe is recognised from what it gives first, and its content is still all there for the
// format's reader.
func TestRecognizePipe(t *testing.T) {
	for _, src := range []string{"qemulog/testdata/arm-7.2.log", "../assets/demo/demo-methods.trace.gz"} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			pw.Write(data)
			pw.Close()
		}()
		in, err := Recognize(pr, newProgress())
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got, err := io.ReadAll(in.R)
		pr.Close()
		if err != nil || !bytes.Equal(got, testio.ReadPlain(t, src)) {
			t.Errorf("%s through a pipe: %d bytes, %v; want %d", src, len(got), err, len(testio.ReadPlain(t, src)))
		}
		if _, ok := in.R.(io.Seeker); ok || in.Size != -1 {
			t.Errorf("%s: a pipe seeks, or has size %d", src, in.Size)
		}
	}
}

// A QEMU log may log other -d items before its first record: Recognize reads on for it, up to
// HeadSize, from a file and from a pipe.
func TestRecognizeLateQEMURecord(t *testing.T) {
	log, err := os.ReadFile("qemulog/testdata/arm-7.2.log")
	if err != nil {
		t.Fatal(err)
	}
	page := []byte("start    end      size     prot\n0000000000010000-0000000000011000 0000000000001000 r-x\n")
	for preamble, want := range map[int]error{3 << 19: nil, HeadSize + 1000: ErrUnknownFormat} {
		data := append(bytes.Repeat(page, preamble/len(page)+1), log...)
		path := filepath.Join(t.TempDir(), "late.log")
		os.WriteFile(path, data, 0o644)
		in, err := recognizeFile(t, path, newProgress())
		if !errors.Is(err, want) || err == nil && in.Format.Name != "qemu-log" {
			t.Errorf("first record after %d bytes: %v, %v; want %v", preamble, in, err, want)
		}
		if want != nil {
			continue
		}
		if got, err := io.ReadAll(in.R); err != nil || !bytes.Equal(got, data) {
			t.Errorf("read %d of %d bytes after recognising, %v", len(got), len(data), err)
		}
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			pw.Write(data)
			pw.Close()
		}()
		in, err = Recognize(pr, newProgress())
		if err != nil || in.Format.Name != "qemu-log" {
			t.Errorf("through a pipe: %v, %v", in, err)
		} else if got, err := io.ReadAll(in.R); err != nil || !bytes.Equal(got, data) {
			t.Errorf("through a pipe: read %d of %d bytes, %v", len(got), len(data), err)
		}
		pr.Close()
	}
}

// A line that the first look cuts is not judged by its start: a heap log's magic word there,
// cut from a longer word, is not a heap log.
func TestRecognizeCutLine(t *testing.T) {
	comment := []byte("# " + strings.Repeat("-", 97) + "\n")
	pad := bytes.Repeat(comment, firstLook/len(comment))
	pad = append(pad, "#"+strings.Repeat("-", firstLook-len(pad)-len(heaplogMagic)-2)+"\n"...)
	for line, want := range map[string]error{heaplogMagic + " 1\n": nil, heaplogMagic + "s 1\n": ErrUnknownFormat} {
		data := append(append(bytes.Clone(pad), line...), bytes.Repeat([]byte("x\n"), firstLook)...)
		if i := bytes.Index(data, []byte(heaplogMagic)); i+len(heaplogMagic) != firstLook {
			t.Fatalf("the magic word ends at %d, not where the first look does", i+len(heaplogMagic))
		}
		path := filepath.Join(t.TempDir(), "cut.log")
		os.WriteFile(path, data, 0o644)
		if in, err := recognizeFile(t, path, newProgress()); !errors.Is(err, want) || err == nil && in.Format.Name != "heaplog" {
			t.Errorf("%q: %v, %v; want %v", line, in, err, want)
		}
	}
}

const heaplogMagic = "androprof-heaplog"

// A compressed file is read decompressed, from its start again as often as a reader seeks
// there, and anywhere forward; only its end is out of reach.
func TestGzipInputSeeks(t *testing.T) {
	data := make([]byte, keptHead+300_000)
	for i := range data {
		data[i] = byte(i * 7 / 3)
	}
	path := filepath.Join(t.TempDir(), "x.gz")
	os.WriteFile(path, testio.Gzip(data), 0o644)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := newGzipInput(&countio.Reader{R: f})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int64{0, 10, keptHead - 5, keptHead + 1000, 100, keptHead + 200_000, keptHead + 100} {
		if _, err := g.Seek(at, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 5000)
		n, err := io.ReadFull(g, buf)
		if want := min(int64(len(data))-at, 5000); err != nil && int64(n) != want || !bytes.Equal(buf[:n], data[at:at+int64(n)]) {
			t.Errorf("at %d: %d bytes, %v", at, n, err)
		}
	}
	if _, err := g.Seek(0, io.SeekEnd); err == nil {
		t.Error("seek from the end of a compressed file")
	}
}

// A gzip-compressed streaming Traceview trace is decompressed once on import: the file is read
// exactly once, though the trace is longer than what Recognize keeps of its start, and the
// header still has what only the summary at its end says.
func TestStreamingTraceDecompressedOnce(t *testing.T) {
	var buf bytes.Buffer
	w, err := traceview.NewWriter(&buf, traceview.WriterOptions{Version: 3, Clock: calls.ClockDual, Streaming: true, PID: 77, VM: "art"})
	if err != nil {
		t.Fatal(err)
	}
	w.Thread(calls.ThreadInfo{TID: 1, Name: "main"})
	for m := range uint64(100) {
		w.Method(calls.MethodInfo{ID: 8 * (m + 1), Class: "a/B", Name: "f" + strings.Repeat("x", int(m))})
	}
	for i := range uint64(3 * keptHead / 14) {
		w.Event(calls.MethodEvent{TID: 1, Method: 8 * (i/2%100 + 1), Action: calls.MethodAction(i % 2), ThreadCPU: i, Wall: 2 * i})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, path string, pid int, vm string) {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		p := newProgress()
		in, err := recognizeFile(t, path, p)
		if err != nil || in.Format.Name != "traceview" {
			t.Fatalf("%v, %v", in, err)
		}
		b := calls.NewCallBuilder()
		h, err := in.Format.ReadMethods(in, Options{}, b)
		if err != nil {
			t.Fatal(err)
		}
		if p.Done() != st.Size() {
			t.Errorf("read %d bytes of a %d-byte file", p.Done(), st.Size())
		}
		if h.PID != pid || h.Clock != calls.ClockDual || h.Version != 3 || h.VM != vm {
			t.Errorf("header %+v, want pid %d, dual clock, version 3 and VM %s from the summary", h, pid, vm)
		}
		if p := b.Finish(); len(p.Threads) == 0 {
			t.Error("no threads")
		}
	}
	path := filepath.Join(t.TempDir(), "big.trace.gz")
	os.WriteFile(path, testio.Gzip(buf.Bytes()), 0o644)
	check(t, path, 77, "art")
	t.Run("real", func(t *testing.T) { check(t, corpus.File(t, "art-trace-regular.trace.gz"), 21491, "art") })
}

// A compressed single-clock streaming trace is the one case that is read twice: its records
// cannot be read without the clock only its summary, at the end, tells.
func TestSingleClockStreamingTrace(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	w, err := traceview.NewWriter(&buf, traceview.WriterOptions{Version: 2, Clock: calls.ClockThreadCPU, Streaming: true, PID: 9, VM: "art"})
	if err != nil {
		t.Fatal(err)
	}
	w.Thread(calls.ThreadInfo{TID: 1, Name: "main"})
	w.Method(calls.MethodInfo{ID: 8, Class: "a/B", Name: "f"})
	for i := range uint64(1000) {
		w.Event(calls.MethodEvent{TID: 1, Method: 8, Action: calls.MethodAction(i % 2), ThreadCPU: 10 * i})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"t.trace": buf.Bytes(), "t.trace.gz": testio.Gzip(buf.Bytes())} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, content, 0o644)
		in, err := recognizeFile(t, path, newProgress())
		if err != nil {
			t.Fatal(err)
		}
		b := calls.NewCallBuilder()
		h, err := in.Format.ReadMethods(in, Options{}, b)
		if err != nil || h.Clock != calls.ClockThreadCPU || h.PID != 9 || h.VM != "art" {
			t.Errorf("%s: header %+v, %v", name, h, err)
		}
		if p := b.Finish(); len(p.Threads) != 1 || p.Threads[0].LastCPU == 0 {
			t.Errorf("%s: threads %+v", name, p.Threads)
		}
	}
}

// A file that starts as a QEMU log does is one even when its first record is broken: the import
// says what is wrong, where, instead of "not a format androprof can import".
func TestRecognizeBrokenQEMULog(t *testing.T) {
	var block strings.Builder
	block.WriteString("----------------\nIN: g\n")
	for i := range 5000 {
		fmt.Fprintf(&block, "0x%08x:  e1a00000  mov      r0, r0\n", 0x20000+4*i)
	}
	block.WriteString("\nTrace 0: 0x7f0000001000 [00000000/00020000/00000000/00000000] g\n")
	long := "Trace 0: 0x7f0000001000 [00000000/00020000/00000000/00000000] " + strings.Repeat("x", 3<<20) + "\n"
	for _, tc := range []struct {
		name, content string
		line          int64
		msg           string
	}{
		{"block.log", block.String(), 4099, "a block of 5000 instructions"},
		{"line.log", long, 1, "a line longer than 1 MiB"},
		{"in.log", "----------------\nIN: f\n0x00010000:  " + strings.Repeat("x", 3<<20) + "\n", 3, "a line longer than 1 MiB"},
	} {
		path := filepath.Join(t.TempDir(), tc.name)
		os.WriteFile(path, []byte(tc.content), 0o644)
		in, err := recognizeFile(t, path, newProgress())
		if err != nil || in.Format.Name != "qemu-log" {
			t.Errorf("%s: %v, %v; want a QEMU log", tc.name, in, err)
			continue
		}
		err = in.Format.ReadBlocks([]*Input{in}, Options{}, discardBlocks{})
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.File != path || ie.Line != tc.line || !strings.HasPrefix(ie.Msg, tc.msg) {
			t.Errorf("%s: %v; want %s:%d: %s…", tc.name, err, path, tc.line, tc.msg)
		}
	}
}

type discardBlocks struct{}

func (discardBlocks) Process(model.Process) error                   { return nil }
func (discardBlocks) Thread(model.Thread) error                     { return nil }
func (discardBlocks) Block(int, *cost.Block) error                  { return nil }
func (discardBlocks) Count(int, int, uint64, cost.ISA, int64) error { return nil }

// A perf script recording is recognised, plain or compressed, and read whole into the sample
// sink; one that starts as perf script and breaks later says where, not "not a format".
func TestRecognizeAndReadSamples(t *testing.T) {
	data := testio.ReadPlain(t, "perfscript/testdata/java.perfscript.gz")
	dir := t.TempDir()
	for name, content := range map[string][]byte{"java.perfscript": data, "java.perfscript.gz": testio.Gzip(data)} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, content, 0o644)
		p := newProgress()
		in, err := recognizeFile(t, path, p)
		if err != nil || in.Format.Name != "perf-script" || in.Format.Kind != model.RunKindSamples {
			t.Fatalf("%s: %v, %v", name, in, err)
		}
		b := samples.NewSampleBuilder(samples.SampleSelection{})
		h, err := in.Format.ReadSamples(in, Options{}, b)
		if err != nil || h.Event != "cpu-clock" || h.RateHz != 499 {
			t.Errorf("%s: header %+v, %v", name, h, err)
		}
		if got := len(b.Finish(h).Samples); got != 551 || p.Done() != int64(len(content)) {
			t.Errorf("%s: %d samples, read %d of %d bytes", name, got, p.Done(), len(content))
		}
	}
	path := filepath.Join(dir, "broken.perfscript")
	os.WriteFile(path, append(bytes.Clone(data[:bytes.Index(data, []byte("\n\n"))+2]), "java 1 99999.000001: cpu-clock:\n\tnot a frame\n"...), 0o644)
	in, err := recognizeFile(t, path, newProgress())
	if err != nil || in.Format.Name != "perf-script" {
		t.Fatalf("broken: %v, %v", in, err)
	}
	_, err = in.Format.ReadSamples(in, Options{}, samples.NewSampleBuilder(samples.SampleSelection{}))
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.File != path || ie.Line != int64(bytes.Count(data[:bytes.Index(data, []byte("\n\n"))+2], []byte("\n"))+2) {
		t.Errorf("broken: %v", err)
	}
}
