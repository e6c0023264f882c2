// Package assets holds the files the binary carries: its icon and the demo data that a first
// start and the screenshot tour (cmd/tour) show.
package assets

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io"
	"path"
	"sort"
	"strings"
)

// Icon is the application icon (PNG, 256×256).
//
//go:embed icon.png
var Icon []byte

//go:embed demo/sieve-arm.inasm-exec.log.gz
var demoLogGz []byte

// DemoLogName names the demo log in messages.
const DemoLogName = "sieve-arm.inasm-exec.log"

// DemoLog is a real `qemu-arm -d in_asm,exec,nochain` log of samples/sieve.c (demo/make-demo.sh).
func DemoLog() (io.Reader, error) {
	return gzip.NewReader(bytes.NewReader(demoLogGz))
}

//go:embed demo/*.bbprofile.gz demo/*.trace.gz demo/*.heaplog.gz demo/*.hprof.gz demo/*.perfscript.gz
var demoRuns embed.FS

// DemoRun is one run of the demo data set: a basic-block profile the real runner wrote
// (demo/gen) for a sample program, a real app's Traceview method trace (demo-methods: the
// jag-dmtrace.trace of ../shared/corpus, a Dalvik trace of an Android game), or a heap log and
// heap dump that the Java samples wrote under the real JVMTI agent and HotSpot, or perf's
// samples of the four-phase Java sample under the perf map agent (demo/gen).
type DemoRun struct {
	Name string // the run's name, e.g. "demo-sieve-arm"
	file string
}

// File is the name of the run's file, as it was before it was compressed into the binary.
func (d DemoRun) File() string { return strings.TrimSuffix(path.Base(d.file), ".gz") }

// Open streams the run's file, decompressed.
func (d DemoRun) Open() (io.ReadCloser, error) {
	f, err := demoRuns.Open(d.file)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return readCloser{zr, f}, nil
}

type readCloser struct {
	io.Reader
	f io.Closer
}

func (r readCloser) Close() error { return r.f.Close() }

// DemoRuns lists the demo runs by name.
func DemoRuns() []DemoRun {
	entries, _ := demoRuns.ReadDir("demo")
	var out []DemoRun
	for _, e := range entries {
		name := e.Name()[:strings.Index(e.Name(), ".")]
		out = append(out, DemoRun{Name: name, file: path.Join("demo", e.Name())})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
