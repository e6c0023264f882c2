// Command gen writes a run set (internal/runset) for scripts and by hand:
//
//	go run ./internal/runset/gen -n 1000 -out DIR [-damaged K] [-seed S]
//
// It prints one line: the files, their bytes and the time it took.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"androprof/internal/corpus"
	"androprof/internal/runset"
)

func main() {
	n := flag.Int("n", 100, "runs (files) to write")
	out := flag.String("out", "", "`DIR` to write them into")
	damaged := flag.Int("damaged", 0, "files to damage (cut or clobbered)")
	seed := flag.Uint64("seed", 1, "the same seed writes the same set")
	demo := flag.String("demo", "assets/demo", "the demo data set (`DIR`)")
	corpusDir := flag.String("corpus", corpus.Dir(), "the real files of ../shared/corpus (`DIR`); empty: demo files only")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gen -n N -out DIR [-damaged K] [-seed S]")
		os.Exit(2)
	}
	if *corpusDir != "" {
		if _, err := os.Stat(*corpusDir); err != nil {
			fmt.Fprintf(os.Stderr, "gen: %s is absent; the set has no corpus traces or dumps\n", *corpusDir)
			*corpusDir = ""
		}
	}
	start := time.Now()
	files, err := runset.Generate(*out, runset.Options{N: *n, Damaged: *damaged, Seed: *seed, Demo: *demo, Corpus: *corpusDir})
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	var bytes int64
	for _, f := range files {
		if st, err := os.Stat(filepath.Join(*out, f.Path)); err == nil {
			bytes += st.Size()
		}
	}
	fmt.Printf("%d files, %d bytes in %s, %.1fs\n", len(files), bytes, *out, time.Since(start).Seconds())
}
