package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"androprof/formats"
	"androprof/formats/heaplog/heaplogtest"
	"androprof/formats/hprof/hproftest"
	"androprof/internal/corpus"
	"androprof/internal/testio"
)

// batteryMemLimit is the most memory one import of a battery input may take: every input is
// at most a few MB, so more means memory grows with what a file claims, not what it holds.
const batteryMemLimit = 300 << 20

// want is what a battery input must get besides no panic, bounded memory and a sound workspace.
type want uint8

const (
	wantImport want = iota + 1 // a valid input: it imports, and the run reads back
	wantPlace                  // recognisably its format: it imports, or an error names the file and the line or byte
	wantName                   // not recognisably a format: it imports, or an error names the file
	wantFail                   // nothing to import: an error that names the file
)

// batteryCase is one input of the battery.
type batteryCase struct {
	group string // the format's name in the registry, or "files" for inputs of no format
	name  string
	path  string // what `androprof import` is given
	named string // the file an error must name; path when ""
	want  want
	stdin []byte // fed through a pipe (path is /dev/stdin)
	fifo  []byte // written into the FIFO at path while the import reads it
}

// batteryTally counts one group's inputs and what went wrong with them.
type batteryTally struct {
	inputs, panics, changed, unplaced, overMemory, refused int
	peak                                                   int64
}

func (s *batteryTally) add(o batteryTally) {
	s.inputs += o.inputs
	s.panics += o.panics
	s.changed += o.changed
	s.unplaced += o.unplaced
	s.overMemory += o.overMemory
	s.refused += o.refused
	s.peak = max(s.peak, o.peak)
}

func (s batteryTally) String() string {
	return fmt.Sprintf("%d inputs, %d panics, %d changed workspaces, %d errors without file and place, %d over %d MB, %d valid inputs refused, peak %d MB",
		s.inputs, s.panics, s.changed, s.unplaced, s.overMemory, batteryMemLimit>>20, s.refused, s.peak>>20)
}

// TestBattery is the project's own bad-input battery: for every format, real files cut short
// at many points, with bytes flipped (fixed seeds), with headers that claim huge counts and
// lengths, and given as pipes, FIFOs and folders; and empty files, folders and missing ones.
// Each input is imported by the command line in a child process into a copy of a workspace
// that holds runs of every kind. It must not panic, must stay under batteryMemLimit, and must
// either import (the run then reads back) or fail with a message naming the file and, when
// the file is recognisably a format, the line or byte; a failed import leaves the workspace as
// it was (integrity check, and every row of every table). The counts are printed per format
// (scripts/test.sh shows them).
func TestBattery(t *testing.T) {
	if raceDetector {
		t.Skip("the battery measures peak memory, which the race detector inflates; scripts/test.sh runs it without -race")
	}
	if testing.Short() {
		t.Skip("the battery imports a few hundred files")
	}
	dir := t.TempDir()
	base := batteryWorkspace(t, filepath.Join(dir, "base.db"))
	before := readWorkspace(t, base)
	cases := batteryCases(t, filepath.Join(dir, "in"))

	var mu sync.Mutex
	tallies := map[string]*batteryTally{}
	t.Run("inputs", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.group+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				got := tryBatteryCase(t, base, before, c)
				mu.Lock()
				defer mu.Unlock()
				if tallies[c.group] == nil {
					tallies[c.group] = &batteryTally{}
				}
				tallies[c.group].add(got)
			})
		}
	})
	var total batteryTally
	var peaks []string
	for _, g := range batteryGroups() {
		if s := tallies[g]; s != nil {
			fmt.Printf("battery: %s: %v\n", g, s)
			total.add(*s)
			peaks = append(peaks, fmt.Sprintf("%s %d MB", g, s.peak>>20))
		}
	}
	fmt.Printf("battery: %v (%s)\n", total, strings.Join(peaks, ", "))
}

// batteryGroups are the formats in the registry's order, then the inputs of no format.
func batteryGroups() []string {
	var g []string
	for _, f := range formats.All {
		g = append(g, f.Name)
	}
	return append(g, "files")
}

// tryBatteryCase imports one input into a copy of the workspace base and checks the outcome.
func tryBatteryCase(t *testing.T, base string, before wsState, c batteryCase) batteryTally {
	db := filepath.Join(t.TempDir(), "w.db")
	copyWorkspace(t, base, db)
	var stdin io.Reader
	if c.stdin != nil {
		stdin = bytes.NewReader(c.stdin)
	}
	var stopFIFO func()
	if c.fifo != nil {
		stopFIFO = feedFIFO(t, c.path, c.fifo)
	}
	r := runChild(t, stdin, "import", "--db", db, "--run", "battery", c.path)
	if stopFIFO != nil {
		stopFIFO()
	}
	after := readWorkspace(t, db)
	t.Logf("%s: %v", c.name, r)
	s := batteryTally{inputs: 1, peak: r.peak}
	named := c.named
	if named == "" {
		named = c.path
	}
	switch {
	case r.timedOut:
		s.panics++
		t.Errorf("hung, killed after %v: %v", childTimeout, r)
	case r.crashed():
		s.panics++
		t.Errorf("crashed: %v", r)
	}
	if r.peak > batteryMemLimit {
		s.overMemory++
		t.Errorf("peak memory %d MB, over %d MB: %v", r.peak>>20, batteryMemLimit>>20, r)
	}
	if after.integrity != "ok" {
		s.changed++
		t.Errorf("integrity check: %s", after.integrity)
	}
	if r.code == 0 {
		if problem := importedRun(t, db, before, after); problem != "" {
			s.changed++
			t.Errorf("imported, but %s: %v", problem, r)
		}
		if c.want == wantFail {
			s.changed++ // a run made of nothing
			t.Errorf("imported, want an error: %v", r)
		}
		return s
	}
	if after.digest != before.digest {
		s.changed++
		t.Errorf("failed, and the workspace changed (runs %v, were %v): %v", after.runs, before.runs, r)
	}
	if c.want == wantImport {
		s.refused++
		t.Errorf("a valid input was refused: %v", r)
	}
	if !strings.Contains(r.stderr, named) {
		s.unplaced++
		t.Errorf("the message does not name %s: %v", named, r)
	} else if c.want == wantPlace && !placed(r.stderr, named) {
		s.unplaced++
		t.Errorf("the message names %s but not the line or byte: %v", named, r)
	}
	return s
}

// placed tells whether msg says where in file the problem is: "FILE:LINE:" or "FILE: byte N".
func placed(msg, file string) bool {
	re := regexp.MustCompile(regexp.QuoteMeta(file) + `(:\d+:|: .*\b(byte|line|offset) \d+)`)
	return re.MatchString(msg)
}

// importedRun checks a successful import: the runs are the ones before and the new one, and
// the new run reads back; it returns what is wrong, or "".
func importedRun(t *testing.T, db string, before, after wsState) string {
	want := slices.Sorted(slices.Values(append(slices.Clone(before.runs), "battery")))
	if !slices.Equal(after.runs, want) {
		return fmt.Sprintf("the runs are %v, want %v", after.runs, want)
	}
	if r := runChild(t, nil, "report", "--db", db, "--run", "battery", "--json"); r.code != 0 {
		return fmt.Sprintf("its report fails: %v", r)
	}
	return ""
}

// feedFIFO makes a FIFO at path and writes data into it once a reader opens it; the returned
// function ends the writer (call it after the reader has ended).
func feedFIFO(t *testing.T, path string, data []byte) func() {
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
			if err == nil {
				if err := syscall.SetNonblock(fd, false); err != nil {
					syscall.Close(fd)
					return
				}
				f := os.NewFile(uintptr(fd), path)
				f.Write(data) // EPIPE when the reader stops early
				f.Close()
				return
			}
			if !errors.Is(err, syscall.ENXIO) { // ENXIO: no reader yet
				return
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() { close(stop); <-done }
}

// batteryWorkspace imports runs of every kind (blocks, a method trace, a heap log, a heap
// dump) into a new workspace at path, in a child that then exits, so the file is closed.
func batteryWorkspace(t *testing.T, path string) string {
	dir := t.TempDir()
	importInto(t, path, "blocks", "../../formats/bbprofile/testdata/forker-arm.bbprofile")
	importInto(t, path, "methods", "../../formats/dpa/testdata/figure4.dpa")
	importInto(t, path, "rounds", "../../formats/rmp/testdata/browser.rmp")
	importInto(t, path, "heap", writeFile(t, dir, "small.heaplog", syntheticHeapLog(t, 2000)))
	importInto(t, path, "dump", writeFile(t, dir, "small.hprof", generatedDump(t, 64<<10, "1.0.3")))
	return path
}

func syntheticHeapLog(t *testing.T, events int) []byte {
	var b bytes.Buffer
	if err := heaplogtest.Synthetic(&b, events, 7); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func generatedDump(t *testing.T, size int64, version string) []byte {
	var b bytes.Buffer
	if _, err := hproftest.Generate(&b, hproftest.Options{Version: version, SegmentBytes: 16 << 10}, size, 3); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sample is a real file of a format, the start of the battery's damaged inputs.
type sample struct {
	format string
	name   string
	data   []byte // the file: plain, or gzip-compressed
	valid  bool   // it imports as it is
}

// samples are the real files the battery damages: the corpus (when it is there), the demo
// data, the readers' test data and what the project's own writers make.
func batterySamples(t *testing.T) []sample {
	read := func(path string) []byte { return readFile(t, path) }
	gunzip := func(b []byte) []byte { return testio.Gunzip(t, b) }
	s := []sample{
		{"hprof", "generated-1.0.3", generatedDump(t, 256<<10, "1.0.3"), true},
		{"hprof", "generated-1.0.2.gz", testio.Gzip(generatedDump(t, 128<<10, "1.0.2")), true},
		{"traceview", "demo-methods.trace.gz", read("../../assets/demo/demo-methods.trace.gz"), true},
		{"heaplog", "synthetic", syntheticHeapLog(t, 3000), true},
		{"heaplog", "demo-heap-threads.heaplog.gz", read("../../assets/demo/demo-heap-threads.heaplog.gz"), true},
		{"dpa", "figure4.dpa", read("../../formats/dpa/testdata/figure4.dpa"), true},
		{"rmp", "browser.rmp", read("../../formats/rmp/testdata/browser.rmp"), true},
		{"bbprofile", "forker-arm.bbprofile", read("../../formats/bbprofile/testdata/forker-arm.bbprofile"), true},
		{"bbprofile", "demo-sieve-thumb.bbprofile", gunzip(read("../../assets/demo/demo-sieve-thumb.bbprofile.gz")), true},
		{"bbprofile", "dyn-arm.bbprofile", gunzip(read("../../formats/bbprofile/testdata/dyn-arm.bbprofile.gz")), true}, // version 2: images, system calls
		{"qemu-log", "arm-7.2.log", read("../../formats/qemulog/testdata/arm-7.2.log"), true},
		{"qemu-log", "sieve-arm.inasm-exec.log", gunzip(read("../../assets/demo/sieve-arm.inasm-exec.log.gz")), true},
		{"perf-script", "java.perfscript.gz", read("../../formats/perfscript/testdata/java.perfscript.gz"), true},
		{"perf-script", "demo-vertical-phases.perfscript", gunzip(read("../../assets/demo/demo-vertical-phases.perfscript.gz")), true},
	}
	for _, c := range []struct{ format, name string }{
		{"hprof", "ahat-RI.hprof"}, {"traceview", "perflib-basic.trace"}, {"traceview", "jag-dmtrace.trace"},
		{"traceview", "art-trace-regular.trace.gz"},
	} {
		if p := filepath.Join(corpus.Dir(), c.name); fileExists(p) {
			s = append(s, sample{c.format, c.name, read(p), true})
		}
	}
	return s
}

func readFile(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// plainStart is the first n bytes of data as a reader sees them: decompressed, as far as
// that goes, when data is gzip-compressed.
func plainStart(data []byte, n int) []byte {
	if !testio.IsGzip(data) {
		return data[:min(n, len(data))]
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	out, _ := io.ReadAll(io.LimitReader(zr, int64(n)))
	return out
}

// signature is how much of the start of a file of the format says which format it is: a
// damaged file that still starts with it is recognisably that format, so an error about it
// must say where.
func signature(format string, plain []byte) int {
	switch format {
	case "hprof":
		return len("JAVA PROFILE ")
	case "traceview":
		if bytes.HasPrefix(plain, []byte("*version")) {
			return len("*version\n")
		}
		return 6 // a streaming trace's magic and version
	case "qemu-log": // the whole first record: a log has no magic
		if i := bytes.Index(plain, []byte("\nTrace ")); i >= 0 {
			if j := bytes.IndexByte(plain[i+1:], '\n'); j >= 0 {
				return i + 1 + j + 1
			}
		}
		if i := bytes.Index(plain, []byte("\n\n")); i >= 0 {
			return i + 2
		}
		return len(plain)
	}
	return bytes.IndexByte(plain, '\n') + 1 // the first line
}

// recognisable tells whether damaged, derived from a file of the format whose plain start
// is orig, still starts as that format's files do, or the format's own sniffer claims it.
func recognisable(format string, orig, damaged []byte) bool {
	sig := signature(format, orig)
	head := plainStart(damaged, formats.HeadSize)
	if len(orig) > 0 && len(orig) >= sig && len(head) >= sig && bytes.Equal(head[:sig], orig[:sig]) { // no original (a fuzz seed): the sniffer decides
		return true
	}
	for _, f := range formats.All {
		if f.Name == format {
			return len(head) > 0 && f.Sniff(head) == nil
		}
	}
	return false
}

// cutPoints are where the battery cuts a file short: inside the signature, just after it,
// inside the first lines or records, at fractions of the file, and one byte before its end.
func cutPoints(format string, data, plain []byte) []int {
	n := len(data)
	sig := signature(format, plain)
	pts := []int{1, sig / 2, sig - 1, sig, sig + 1, sig + 7, 64, 512, n / 10, n / 4, n / 2, 3 * n / 4, 9 * n / 10, n - 2, n - 1}
	compressed := len(plain) != len(data) || !bytes.Equal(plain, data)
	switch {
	case compressed:
		pts = append(pts, 10, 20) // inside the gzip header, the first deflate block
	case format == "hprof":
		pts = append(pts, 20, 24, 28, 31+4, 31+9+3) // the id size, the timestamp, the first record's header and body
	case format == "traceview" && bytes.HasPrefix(plain, []byte("*version")):
		if i := bytes.Index(plain, []byte("SLOW")); i >= 0 { // the binary header and the first record
			hdr := int(binary.LittleEndian.Uint16(plain[i+6:]))
			pts = append(pts, i+2, i+9, i+hdr+3)
		}
	default: // a line format: inside lines 2 and 3, and just after line 2
		lines := bytes.SplitAfter(plain[:min(len(plain), 4096)], []byte("\n"))
		off := 0
		for i, ln := range lines[:min(len(lines), 3)] {
			if i > 0 {
				pts = append(pts, off+len(ln)/2)
			}
			off += len(ln)
			if i == 1 {
				pts = append(pts, off)
			}
		}
		if i := bytes.IndexByte(plain[n/2:], '\n'); i >= 0 { // a clean cut after a line, halfway
			pts = append(pts, n/2+i+1)
		}
	}
	slices.Sort(pts)
	pts = slices.Compact(pts)
	return slices.DeleteFunc(pts, func(p int) bool { return p <= 0 || p >= n })
}

// flipCounts is how many bytes each flip seed changes.
var flipCounts = []int{1, 1, 1, 1, 2, 4, 16, 64}

// flip changes count bytes of data at places seed picks (the same for the same sample).
func flip(data []byte, name string, seed, count int) []byte {
	h := fnv.New64a()
	h.Write([]byte(name))
	rng := rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
	out := slices.Clone(data)
	for range count {
		out[rng.IntN(len(out))] ^= byte(1 + rng.IntN(255))
	}
	return out
}

// batteryCases writes the battery's inputs under dir.
func batteryCases(t *testing.T, dir string) []batteryCase {
	var cases []batteryCase
	file := func(group, name string, data []byte) string {
		d := filepath.Join(dir, group)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return writeFile(t, d, name, data)
	}
	add := func(group, name string, data []byte, w want) {
		cases = append(cases, batteryCase{group: group, name: name, path: file(group, name, data), want: w})
	}
	damaged := func(format string, orig, data []byte) want {
		if recognisable(format, orig, data) {
			return wantPlace
		}
		return wantName
	}
	for _, s := range batterySamples(t) {
		plain := plainStart(s.data, 1<<30)
		add(s.format, s.name, s.data, wantImport)
		for _, p := range cutPoints(s.format, s.data, plain) {
			d := s.data[:p]
			add(s.format, fmt.Sprintf("%s-cut-%d", s.name, p), d, damaged(s.format, plain, d))
		}
		for seed, n := range flipCounts {
			d := flip(s.data, s.name, seed+1, n)
			add(s.format, fmt.Sprintf("%s-flip-%d-seed-%d", s.name, n, seed+1), d, damaged(s.format, plain, d))
		}
	}
	for _, sd := range fuzzSeeds(t) {
		w := wantName
		if recognisable(sd.format, nil, sd.data) {
			w = wantPlace
		}
		add(sd.format, "fuzz-"+sd.name, sd.data, w)
	}
	for _, c := range claims(t) {
		add(c.format, "claims-"+c.name, c.data, wantPlace)
	}
	cases = append(cases, oddFiles(t, filepath.Join(dir, "odd"))...)
	return cases
}

// fuzzSeeds are the readers' fuzz seed corpora: small files made to reach their corners.
func fuzzSeeds(t *testing.T) []sample {
	dirs := map[string][]string{
		"hprof":       {"../../formats/hprof/testdata/fuzz/FuzzReader"},
		"traceview":   {"../../formats/traceview/testdata/fuzz/FuzzReader"},
		"heaplog":     {"../../formats/heaplog/testdata/fuzz/FuzzReader"},
		"dpa":         {"../../formats/dpa/testdata/fuzz/FuzzReader"},
		"rmp":         {"../../formats/rmp/testdata/fuzz/FuzzReader"},
		"bbprofile":   {"../../formats/bbprofile/testdata/fuzz/FuzzReadBBProfile"},
		"qemu-log":    {"../../formats/qemulog/testdata/fuzz/FuzzLogReader", "../../formats/qemulog/testdata/fuzz/FuzzImportLogs"},
		"perf-script": {"../../formats/perfscript/testdata/fuzz/FuzzReader"},
	}
	var out []sample
	for _, g := range batteryGroups() {
		for _, d := range dirs[g] {
			entries, err := os.ReadDir(d)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				b, err := os.ReadFile(filepath.Join(d, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(string(b), "\n")
				if len(lines) < 2 || !strings.HasPrefix(lines[1], "[]byte(") {
					continue
				}
				data, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
				if err != nil || len(data) == 0 {
					continue
				}
				out = append(out, sample{format: g, name: filepath.Base(d) + "-" + e.Name(), data: []byte(data)})
			}
		}
	}
	return out
}

// claims are files whose headers or records claim huge counts, lengths and ids, or declare
// far more than they use: what they claim must not become memory, overflow or a stored run.
func claims(t *testing.T) []sample {
	var out []sample
	add := func(format, name string, data []byte) {
		out = append(out, sample{format: format, name: name, data: data})
	}
	u32 := func(b []byte, off int, v uint32) []byte {
		b = slices.Clone(b)
		binary.BigEndian.PutUint32(b[off:], v)
		return b
	}
	// HPROF: the header is "JAVA PROFILE 1.0.2\0", the id size and a timestamp (31 bytes);
	// each record a tag, a time and a 32-bit length.
	dump := func(o hproftest.Options, body func(w *hproftest.Writer)) []byte {
		var b bytes.Buffer
		w, err := hproftest.NewWriter(&b, o)
		if err != nil {
			t.Fatal(err)
		}
		w.String(1, "java.lang.Object")
		w.LoadClass(1, 100, 1)
		body(w)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	obj := hproftest.Class{ID: 100, InstanceSize: 8}
	plain := dump(hproftest.Options{}, func(w *hproftest.Writer) { w.ClassDump(obj); w.Instance(200, 100, nil) })
	add("hprof", "record-length-4G", u32(plain, 31+5, 0xffffffff))
	add("hprof", "id-size-255", u32(plain, 19, 255))
	seg := 31 // the heap dump segment's header
	for plain[seg] != 0x1C {
		seg += 9 + int(binary.BigEndian.Uint32(plain[seg+5:]))
	}
	add("hprof", "segment-length-4G", u32(plain, seg+5, 0xffffffff))
	sub := func(name string, b []byte) {
		add("hprof", name, dump(hproftest.Options{}, func(w *hproftest.Writer) { w.ClassDump(obj); w.Sub(b) }))
	}
	id := func(b []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(b, v) }
	sub("prim-array-4G-longs", append(id(id(id([]byte{0x23}, 300), 0), 0xffffffff), hproftest.Long))
	sub("obj-array-4G-elements", id(id(id(id([]byte{0x22}, 300), 0), 0xffffffff), 100))
	sub("instance-4G-bytes", id(id(id(id([]byte{0x21}, 300), 0), 100), 0xffffffff))
	sub("class-65535-fields", append(id(id(id(id(id(id(id(id(id([]byte{0x20}, 101), 0), 100), 0), 0), 0), 0), 0), 8), 0, 0, 0, 0, 0xff, 0xff))
	add("hprof", "segment-length-4G.gz", testio.Gzip(u32(plain, seg+5, 0xffffffff)))

	// Traceview: a classic trace's binary header ("SLOW", version, data offset, start time,
	// record size) and key section.
	tv := classicTrace()
	slow := bytes.Index(tv, []byte("SLOW"))
	le16 := func(off int, v uint16) []byte {
		b := slices.Clone(tv)
		binary.LittleEndian.PutUint16(b[off:], v)
		return b
	}
	add("traceview", "data-offset-65535", le16(slow+6, 0xffff))
	add("traceview", "record-size-65535", le16(slow+16, 0xffff))
	add("traceview", "record-size-0", le16(slow+16, 0))
	add("traceview", "version-65535", le16(slow+4, 0xffff))
	key := func(old, new string) []byte { return bytes.Replace(tv, []byte(old), []byte(new), 1) }
	add("traceview", "thread-id-4G", key("*threads\n", "*threads\n4294967295\thuge\n"))
	add("traceview", "method-id-4G", key("*methods\n", "*methods\n0xffffffff\tBig\tm\t()V\tBig.java\n"))
	add("traceview", "calls-2^64-1", key("clock=", "num-method-calls=18446744073709551615\nclock="))
	add("traceview", "200k-threads", key("*threads\n", "*threads\n"+repeatLines(200_000, func(i int) string { return fmt.Sprintf("%d\tt%d", 100+i, i) })))

	// Heap logs: counts, sizes and ids at their limits, and threads declared by the thousand.
	hl := "androprof-heaplog 1\nt 1 0 main main\nc 1 java/lang/String\n"
	add("heaplog", "snapshot-count-2^64-1", []byte(hl+"a 1 0 24 1 1 0\ns 24 64 18446744073709551615\n"))
	add("heaplog", "snapshot-counts-overflow", []byte(hl+"a 1 0 24 1 1 0\ns 24 64 18446744073709551615\ns 24 65 18446744073709551615\n"))
	add("heaplog", "size-2^64-8", []byte(hl+"a 1 0 18446744073709551608 1 1 0\na 2 18446744073709551608 16 1 1 0\n"))
	add("heaplog", "ids-at-limits", []byte("androprof-heaplog 1\nt 4294967295 0 main main\nc 4294967295 X\na 18446744073709551615 0 16 4294967295 4294967295 0\nd 18446744073709551615 16\n"))
	add("heaplog", "cohort-bytes-1", []byte("androprof-heaplog 1\nprop cohort-bytes 1\nt 1 0 main main\nc 1 X\na 1 0 4000000000 1 1 1\n"))
	add("heaplog", "200k-threads", []byte(hl+repeatLines(200_000, func(i int) string { return fmt.Sprintf("t %d 0 - t%d", 2+i, i) })))

	// DPA and RMP: ids and times at their limits, and threads declared by the thousand.
	dpa := "androprof-dpa 1\nprocess 2001 app\nthread 2001 main\n"
	add("dpa", "method-id-2^63", []byte(dpa+"method 9223372036854775807 A m ()V\nenter 2001 1 10 9223372036854775807\nexit 2001 1 20 0 9223372036854775807\nend\n"))
	add("dpa", "pid-2^63", []byte("androprof-dpa 1\nprocess 9223372036854775807 app\nend\n"))
	add("dpa", "calibrate-2^64-1", []byte("androprof-dpa 1\ncalibrate 18446744073709551615 1\nprocess 1 app\nend\n"))
	add("dpa", "level-4G", []byte(dpa+"method 1 A m ()V\nenter 2001 4294967295 10 1\nend\n"))
	add("dpa", "200k-threads", []byte(dpa+repeatLines(200_000, func(i int) string { return fmt.Sprintf("thread %d t%d", 3000+i, i) })+"end\n"))
	rmp := "androprof-rmp 1\nprocess 1234 app\n"
	add("rmp", "probe-id-2^64-1", []byte(rmp+"probe 18446744073709551615 method app on A.m\nthread 1234 main\nin 1234 0 18446744073709551615\nout 1234 10 18446744073709551615\nend\n"))
	add("rmp", "cost-2^64-1", []byte(rmp+"cost app 18446744073709551615\nprobe 1 method app on A.m\nthread 1234 main\nin 1234 0 1\nout 1234 10 1\nend\n"))
	add("rmp", "200k-threads", []byte(rmp+repeatLines(200_000, func(i int) string { return fmt.Sprintf("thread %d t%d", 2000+i, i) })+"end\n"))

	// Basic-block profiles: a block claiming billions of instructions, counts that overflow,
	// ids at their limits, threads by the thousand.
	bb := "androprof-bbprofile 1\nprocess 1 0 arm 0x10000 ./p\nthread 1\n"
	insn := "insn 0x10000 0000a0e1 mov r0, r0\n"
	add("bbprofile", "block-4G-insns", []byte(bb+"block 0 0x10000 ARM 4000000000 f\n"+insn+"exec 1 1\nend\n"))
	add("bbprofile", "exec-counts-overflow", []byte(bb+"thread 2\nblock 0 0x10000 ARM 1 f\n"+insn+"exec 1 18446744073709551615\nexec 2 18446744073709551615\nend\n"))
	add("bbprofile", "ids-at-limits", []byte("androprof-bbprofile 1\nprocess 4294967295 4294967295 arm 0xffffffffffffffff ./p\nthread 4294967295\nblock 18446744073709551615 0xffffffffffffffff ARM 1 f\ninsn 0xffffffffffffffff 0000a0e1 mov r0, r0\nexec 4294967295 1\nend\n"))
	add("bbprofile", "200k-threads", []byte(bb+repeatLines(200_000, func(i int) string { return fmt.Sprintf("thread %d", 2+i) })+"end\n"))

	// QEMU logs: a block far longer than QEMU translates, a line of 2 MB after a good record,
	// and 48 MB of executions of blocks the log never translated.
	first := "----------------\nIN: f\n0x00010000:  e1a00000  mov      r0, r0\n\nTrace 0: 0x7f0000000000 [00000000/00010000/00000000/00000000] f\n"
	long := "----------------\nIN: g\n" + repeatLines(5000, func(i int) string { return fmt.Sprintf("0x%08x:  e1a00000  mov      r0, r0", 0x20000+4*i) }) + "\n"
	add("qemu-log", "block-5000-insns", []byte(long+"Trace 0: 0x7f0000001000 [00000000/00020000/00000000/00000000] g\n"+first))
	add("qemu-log", "line-2MB", []byte(first+strings.Repeat("x", 2<<20)+"\n"+first))
	untranslated := repeatLines(48<<20/64, func(i int) string {
		return fmt.Sprintf("Trace 0: 0x7f%010x [00000000/%08x/00000000/00000000] ", i, 0x100000+16*i)
	})
	add("qemu-log", "48MB-untranslated-executions", []byte(first+untranslated))
	return out
}

// classicTrace is a small classic (v3) Traceview trace made by the project's writer.
func classicTrace() []byte {
	b, err := os.ReadFile("../../formats/traceview/testdata/fuzz/FuzzReader/classic-v3-dual")
	if err != nil {
		panic(err)
	}
	lines := strings.Split(string(b), "\n")
	data, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
	if err != nil {
		panic(err)
	}
	return []byte(data)
}

// repeatLines joins n lines that line(i) makes, each ending in a newline.
func repeatLines(n int, line func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(line(i))
		b.WriteByte('\n')
	}
	return b.String()
}

// oddFiles are inputs that are not plain files of one format: empty files, missing files,
// folders (empty, with a bad file, with a folder inside), pipes and FIFOs.
func oddFiles(t *testing.T, dir string) []batteryCase {
	mkdir := func(parts ...string) string {
		d := filepath.Join(append([]string{dir}, parts...)...)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	read := func(path string) []byte { return readFile(t, path) }
	dpa := read("../../formats/dpa/testdata/figure4.dpa")
	forker := read("../../formats/bbprofile/testdata/forker-arm.bbprofile")
	mips := read("../../formats/bbprofile/testdata/sieve-mips.bbprofile")
	rmp := read("../../formats/rmp/testdata/browser.rmp")
	heap := syntheticHeapLog(t, 3000)
	qemu := read("../../formats/qemulog/testdata/arm-7.2.log")
	sieve := testio.Gunzip(t, read("../../assets/demo/sieve-arm.inasm-exec.log.gz")) // more than recognising a pipe looks at
	trace := classicTrace()
	dump := generatedDump(t, 64<<10, "1.0.2")

	var cases []batteryCase
	add := func(c batteryCase) { cases = append(cases, c) }
	empty := mkdir("empty-folder")
	add(batteryCase{group: "files", name: "empty-folder", path: empty, want: wantFail})
	add(batteryCase{group: "files", name: "empty-file", path: writeFile(t, mkdir(), "empty.trace", nil), want: wantFail})
	add(batteryCase{group: "files", name: "missing-file", path: filepath.Join(dir, "missing.dpa"), want: wantFail})
	add(batteryCase{group: "files", name: "dev-null", path: "/dev/null", want: wantFail})
	add(batteryCase{group: "files", name: "empty-pipe", path: "/dev/stdin", stdin: []byte{}, want: wantFail})
	add(batteryCase{group: "files", name: "text-file", path: writeFile(t, mkdir(), "notes.txt", []byte("just some notes\nnothing to import\n")), want: wantFail})
	nested := mkdir("nested", "inner")
	writeFile(t, nested, "figure4.dpa", dpa)
	add(batteryCase{group: "files", name: "folder-in-folder", path: filepath.Dir(nested), named: nested, want: wantFail})
	two := mkdir("two-traces")
	writeFile(t, two, "a.dpa", dpa)
	writeFile(t, two, "b.rmp", rmp)
	add(batteryCase{group: "files", name: "folder-of-two-traces", path: two, want: wantFail})

	one := mkdir("one-dpa")
	writeFile(t, one, "figure4.dpa", dpa)
	add(batteryCase{group: "dpa", name: "folder-of-one-valid", path: one, want: wantImport})
	cut := mkdir("one-cut-dpa")
	add(batteryCase{group: "dpa", name: "folder-of-one-cut", path: cut, named: writeFile(t, cut, "figure4.dpa", dpa[:len(dpa)/2]), want: wantPlace})
	bbs := mkdir("bbprofiles")
	writeFile(t, bbs, "forker.bbprofile", forker)
	writeFile(t, bbs, "sieve.bbprofile", mips)
	add(batteryCase{group: "bbprofile", name: "folder-of-two-valid", path: bbs, want: wantImport})
	bbCut := mkdir("bbprofiles-one-cut")
	writeFile(t, bbCut, "a-forker.bbprofile", forker)
	add(batteryCase{group: "bbprofile", name: "folder-with-one-cut", path: bbCut, named: writeFile(t, bbCut, "b-sieve.bbprofile", mips[:len(mips)*2/3]), want: wantPlace})
	bbFIFO := mkdir("bbprofiles-with-fifo")
	writeFile(t, bbFIFO, "a.bbprofile", forker)
	if err := syscall.Mkfifo(filepath.Join(bbFIFO, "b.bbprofile"), 0o644); err != nil {
		t.Fatal(err)
	}
	add(batteryCase{group: "bbprofile", name: "folder-with-a-fifo", path: bbFIFO, named: filepath.Join(bbFIFO, "b.bbprofile"), want: wantName})

	// Each format through a pipe and through a FIFO, whole and cut short. A heap dump is
	// read twice, so through a pipe it may be refused: the message must name it.
	fifos := mkdir("fifos")
	for _, in := range []struct {
		format string
		data   []byte
		whole  want
	}{
		{"hprof", dump, wantName}, {"traceview", trace, wantImport}, {"heaplog", heap, wantImport},
		{"heaplog", testio.Gzip(heap), wantImport}, {"dpa", dpa, wantImport}, {"rmp", rmp, wantImport},
		{"bbprofile", forker, wantImport}, {"qemu-log", qemu, wantImport}, {"qemu-log", sieve, wantImport},
	} {
		name := fmt.Sprintf("%s-%dk", in.format, len(in.data)>>10)
		if in.data[0] == 0x1f {
			name += "-gz"
		}
		half := in.data[:len(in.data)/2]
		cutWant := wantPlace
		if in.whole == wantName {
			cutWant = wantName
		}
		add(batteryCase{group: in.format, name: "pipe-" + name, path: "/dev/stdin", stdin: in.data, want: in.whole})
		add(batteryCase{group: in.format, name: "pipe-cut-" + name, path: "/dev/stdin", stdin: half, want: cutWant})
		add(batteryCase{group: in.format, name: "fifo-" + name, path: filepath.Join(fifos, name), fifo: in.data, want: in.whole})
		add(batteryCase{group: in.format, name: "fifo-cut-" + name, path: filepath.Join(fifos, name+"-cut"), fifo: half, want: cutWant})
	}
	return cases
}
