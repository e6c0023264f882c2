package runset

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// sources holds each real file the set is made from, read once: as it is on disk and, for
// the files that are rewritten, decompressed.
type sources struct {
	disk  map[string][]byte
	plain map[string][]byte
}

func loadSources(o Options) (*sources, error) {
	s := &sources{disk: map[string][]byte{}, plain: map[string][]byte{}}
	for _, f := range Plan(Options{N: min(o.N, 4*4*PerCommit), Corpus: o.Corpus}) { // every source appears within 16 commits
		if _, ok := s.disk[f.Source]; ok {
			continue
		}
		if err := s.load(f, o); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *sources) load(f File, o Options) error {
	path := filepath.Join(o.Demo, f.Source)
	if name, ok := strings.CutPrefix(f.Source, "corpus:"); ok {
		path = filepath.Join(o.Corpus, name)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s.disk[f.Source] = data
	if f.Kind == "bbprofile" || f.Kind == "trace" {
		if s.plain[f.Source], err = gunzipped(data); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// gunzipped is data decompressed when it is gzip, else data.
func gunzipped(data []byte) ([]byte, error) {
	r, err := plainReader(data)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// plainReader reads data decompressed when it is gzip (every member), else as it is.
func plainReader(data []byte) (io.Reader, error) {
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		return bytes.NewReader(data), nil
	}
	return gzip.NewReader(bytes.NewReader(data))
}

// make is the bytes of one file of the set.
func (s *sources) make(f File) ([]byte, error) {
	if _, ok := s.disk[f.Source]; !ok {
		return nil, fmt.Errorf("source not loaded")
	}
	switch f.Kind {
	case "bbprofile":
		return scaleExecs(s.plain[f.Source], f.Factor)
	case "trace":
		return rewriteTrace(s.plain[f.Source], f.Factor, f.Regressed)
	case "hprof":
		return appendLeak(s.disk[f.Source], LeakEntries(f.Commit))
	}
	return s.disk[f.Source], nil // heap logs and perf recordings: kept whole, as compressed
}
