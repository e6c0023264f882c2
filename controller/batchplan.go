package controller

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"androprof/formats"
	"androprof/internal/countio"
	"androprof/model"
)

// batchUnit is one run a batch import makes: one file, or a folder's QEMU logs (a translation
// log and an execution log are often separate files of one run).
type batchUnit struct {
	run    string
	files  []string
	kind   model.RunKind
	format string // the formats registry's name
	size   int64  // bytes to read, passes included: what progress counts
	err    error  // the files could not be recognised: the unit fails without being read
}

// BatchSkip is a path a batch import did not read, and why.
type BatchSkip struct {
	File   string
	Reason string
}

// planBatch turns the named files and folders (walked to any depth) into units, in path
// order, named so that no two are alike and none is already in the workspace (those are
// skipped: a lab's folder imported again brings in only its new files).
func planBatch(ctx context.Context, paths []string, existing map[string]bool) ([]batchUnit, []BatchSkip, error) {
	var units []batchUnit
	var skipped []BatchSkip
	qemu := map[string]int{} // folder → index in units of its QEMU logs
	for _, arg := range paths {
		files, skips, err := batchFiles(arg)
		if err != nil {
			return nil, nil, err
		}
		skipped = append(skipped, skips...)
		for _, f := range files {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			u := recognizeUnit(ctx, arg, f)
			if u.err == nil && u.format == qemuLog {
				dir := filepath.Dir(f)
				if i, ok := qemu[dir]; ok {
					units[i].files = append(units[i].files, f)
					units[i].size += u.size
					continue
				}
				qemu[dir] = len(units)
				u.run = batchRunName(arg, dir, true)
			}
			units = append(units, u)
		}
	}
	units, dup := nameUnits(units, existing)
	return units, append(skipped, dup...), nil
}

// qemuLog is the format whose files group per folder into one run.
const qemuLog = "qemu-log"

// recognizeUnit opens f and tells its format from its first bytes, as ImportFiles will.
func recognizeUnit(ctx context.Context, arg, f string) batchUnit {
	u := batchUnit{run: batchRunName(arg, f, false), files: []string{f}}
	file, err := os.Open(f)
	if err != nil {
		u.err = err
		return u
	}
	defer file.Close()
	p := countio.NewProgress(ctx, nil)
	in, err := formats.Recognize(file, p)
	if err != nil {
		u.err = err
		return u
	}
	u.kind, u.format = in.Format.Kind, in.Format.Name
	u.size = max(in.Size, 0) * int64(max(in.Format.Passes, 1))
	return u
}

// batchFiles lists the regular files arg names: itself, or every file under it in name order.
// Hidden files and folders (".git", ".DS_Store") and what is not a regular file are skipped,
// and said.
func batchFiles(arg string) ([]string, []BatchSkip, error) {
	st, err := os.Stat(arg)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		if !st.Mode().IsRegular() { // a FIFO would hold the whole batch until something writes to it
			return nil, []BatchSkip{{arg, "not a regular file (import a FIFO without --jobs)"}}, nil
		}
		return []string{arg}, nil, nil
	}
	var files []string
	var skipped []BatchSkip
	err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case p != arg && strings.HasPrefix(d.Name(), "."):
			skipped = append(skipped, BatchSkip{p, "hidden"})
			if d.IsDir() {
				return filepath.SkipDir
			}
		case d.IsDir():
		case d.Type().IsRegular():
			files = append(files, p)
		case d.Type()&fs.ModeSymlink != 0:
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				files = append(files, p)
			} else {
				skipped = append(skipped, BatchSkip{p, "a link to no regular file"})
			}
		default:
			skipped = append(skipped, BatchSkip{p, "not a regular file"})
		}
		return nil
	})
	sort.Strings(files) // WalkDir's lexical order within each folder; this makes it one order overall
	return files, skipped, err
}

// batchRunName is the run a file (or a folder of QEMU logs) becomes: its path below the
// folder named on the command line, without extensions ("lab/c42/sieve-arm.bbprofile.gz",
// given "lab": "c42/sieve-arm"), so a series of folders stays apart; a file named by itself
// is named as a single import names it.
func batchRunName(arg, p string, folder bool) string {
	rel, err := filepath.Rel(arg, p)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		if folder {
			return RunNameOf(p + ".dir")
		}
		return RunNameOf(p)
	}
	dir, base := path.Split(filepath.ToSlash(rel))
	if folder {
		base += ".dir" // RunNameOf drops one extension
	}
	name := dir + RunNameOf(base)
	if len(name) > model.MaxRunName { // the folders' part is cut, the file's name kept
		name = RunNameOf(base)
	}
	return name
}

// nameUnits makes the units' runs distinct ("x", "x-2", "x-3") and drops those already in
// the workspace, which are skipped.
func nameUnits(units []batchUnit, existing map[string]bool) ([]batchUnit, []BatchSkip) {
	var kept []batchUnit
	var skipped []BatchSkip
	taken := map[string]bool{}
	for _, u := range units {
		if existing[u.run] {
			skipped = append(skipped, BatchSkip{strings.Join(u.files, ", "), fmt.Sprintf("run %s is already in the workspace", RunText(u.run))})
			continue
		}
		name := u.run
		for n := 2; taken[name] || existing[name]; n++ {
			name = u.run + "-" + strconv.Itoa(n)
		}
		taken[name] = true
		u.run = name
		kept = append(kept, u)
	}
	return kept, skipped
}
