package formats

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ExpandDirs lists the files that paths name: a directory stands for every regular file in it,
// in name order, and must hold nothing else; a file is itself, whatever it is (a pipe from
// <(qemu …) too). This is how the files of one run import together: a folder of QEMU logs
// (one per process or thread) or of basic-block profiles.
func ExpandDirs(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		files, err := dirFiles(p)
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	if len(out) == 0 {
		return nil, errors.New("no files given")
	}
	return out, nil
}

// dirFiles lists the regular files in dir, in name order; anything else in it is an error,
// so nothing is skipped silently.
func dirFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if e.IsDir() {
			return nil, fmt.Errorf("%s: a directory inside %s; give its files by name", path, dir)
		}
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", path)
		}
		out = append(out, path)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no files in the directory", dir)
	}
	return out, nil
}
