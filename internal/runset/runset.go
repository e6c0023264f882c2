// Package runset makes a lab's worth of input files from the real ones the project carries
// (assets/demo) and the corpus beside it (../shared/corpus): a benchmark suite run on five
// cores for every commit, each commit's method traces, a series of heap dumps of one app
// with a leak that grows, heap logs and perf recordings. Every file is a valid file of its
// format that `androprof import` reads, its numbers varied per run by a seeded factor, so
// questions across runs (docs/parquet.md) have answers that differ from run to run. The
// same options make the same bytes.
package runset

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// PerCommit is how many runs one commit of the set holds (see Plan).
const PerCommit = 10

// Options say what set to make.
type Options struct {
	N       int    // runs
	Damaged int    // files damaged (cut or clobbered) so that each fails alone
	Seed    uint64 // the same seed makes the same set
	Demo    string // assets/demo
	Corpus  string // ../shared/corpus, or "" to use the demo files in its place
}

// File is one file of the set.
type File struct {
	Path   string  // relative to the set's folder, e.g. commit-0042/sieve-arm.bbprofile
	Kind   string  // bbprofile, trace, hprof, heaplog, perfscript
	Source string  // the real file it was made from
	Commit int     // the commit (series index) it belongs to
	Factor float64 // what its counts or times were scaled by (1: kept whole)
	// Regressed says the file's app trace has one method slower by RegressedMicros a call.
	Regressed bool
	Damaged   bool // cut or clobbered (see damage): its import must fail, alone
}

// Run is the run name `androprof import --jobs N DIR` gives the file: its path below DIR
// without .gz and its extension (commit-0042/sieve-arm). Tests import each file alone
// with --run Run(), so both ways make the same workspace.
func (f File) Run() string {
	p := strings.TrimSuffix(f.Path, ".gz")
	return strings.TrimSuffix(p, path.Ext(p))
}

// Generate writes the set into dir (made if missing; files already there are replaced) and
// returns its files in order.
func Generate(dir string, o Options) ([]File, error) {
	if o.N < 1 {
		return nil, errors.New("runset: at least one run")
	}
	if o.Damaged < 0 || o.Damaged > o.N {
		return nil, fmt.Errorf("runset: %d damaged files of %d", o.Damaged, o.N)
	}
	files := Plan(o)
	src, err := loadSources(o)
	if err != nil {
		return nil, err
	}
	if err := writeAll(dir, files, src, o); err != nil {
		return nil, err
	}
	return files, nil
}

// writeAll writes the files on every core; each file's bytes depend only on its own seed.
func writeAll(dir string, files []File, src *sources, o Options) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int)
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := writeFile(dir, files[i], src, i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	return first
}

func writeFile(dir string, f File, src *sources, i int) error {
	data, err := src.make(f)
	if err != nil {
		return fmt.Errorf("runset: %s from %s: %w", f.Path, f.Source, err)
	}
	if f.Damaged {
		data = damage(data, i)
	}
	path := filepath.Join(dir, filepath.FromSlash(f.Path))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// damage cuts a file inside its second half (every reader refuses a cut file: a last line
// without its line end, a record short of its length, a gzip stream without its end) or,
// for every other damaged file, overwrites its first bytes so no format recognizes it.
func damage(data []byte, i int) []byte {
	if i%2 == 1 {
		out := append([]byte{}, data...)
		copy(out, "\x00damaged by runset\x00")
		return out
	}
	cut := len(data)/2 + 1
	for cut > 1 && data[cut-1] == '\n' {
		cut--
	}
	return data[:cut]
}
