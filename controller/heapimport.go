package controller

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"androprof/formats/heaplog"
	"androprof/formats/hprof"
	"androprof/jvm"
	"androprof/model"
)

// Heap formats `androprof import` recognises besides emulator and method files.
const (
	heapLogFormat  = "heaplog"
	heapDumpFormat = "hprof"
)

// heapFormat tells whether path is a heap log or an HPROF dump; "" when it is neither.
func heapFormat(path string) (string, error) {
	if err := heaplog.Sniff(path); err == nil {
		return heapLogFormat, nil
	} else if !errors.Is(err, heaplog.ErrNotHeapLog) {
		return "", err
	}
	if err := hprof.Sniff(path); err == nil {
		return heapDumpFormat, nil
	} else if !errors.Is(err, hprof.ErrNotHPROF) {
		return "", err
	}
	return "", nil
}

// heapMaxCells bounds a heap profile (about 136 bytes a cell): a longer log gets larger cohorts,
// so import memory and the workspace stay small whatever the log's length.
const heapMaxCells = 1 << 17

// importHeap imports one heap log or dump into a run of its own.
func (im Importer) importHeap(ctx context.Context, run, path, format string, progress func(done, total int64)) error {
	var err error
	if format == heapLogFormat {
		err = im.importHeapLog(ctx, run, path, im.sourceOr("import "+path), progress)
	} else {
		var d *model.HeapDump
		if d, err = hprof.Summarize(ctx, path, progress); err == nil {
			err = im.Store.ImportDumpRun(ctx, run, im.sourceOr("import "+path), d)
		}
	}
	if im.Heap != nil {
		im.Heap.Forget(run)
	}
	return err
}

// importHeapLog streams a heap log through the cohort builder and stores the profile.
func (im Importer) importHeapLog(ctx context.Context, run, path, source string, progress func(done, total int64)) error {
	r, err := heaplog.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	size := fileSize(path)
	b := model.NewHeapBuilder(im.Cohort)
	b.MaxCells = heapMaxCells
	if err := b.HeapHeader(r.Header()); err != nil {
		return err
	}
	for n := 1; ; n++ {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := b.HeapEvent(e); err != nil {
			return fmt.Errorf("%s line %d: %w", path, r.Line(), err)
		}
		if n%16384 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(min(r.Offset(), size), size)
			}
		}
	}
	if progress != nil {
		progress(size, size)
	}
	return im.Store.ImportHeapRun(ctx, run, source, b.Profile())
}

// RunJava runs a Java program under the project's JVMTI heap agent and imports the heap log
// it wrote. argv is the java command line ("java", then its arguments). A program that fails
// is still imported when it left a readable log, and its exit error is returned after.
func (im Importer) RunJava(ctx context.Context, run string, argv []string, progress func(msg string)) error {
	java, args, err := jvm.Command(argv)
	if err != nil {
		return err
	}
	dir := im.KeepDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "androprof-heap"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	log := filepath.Join(dir, "heap.heaplog")
	opts := jvm.RunOptions{Java: java, Args: args, Log: log, CacheDir: im.CacheDir, Stdout: im.Stdout, Stderr: im.Stdout}
	if progress != nil {
		progress("running " + strings.Join(argv, " ") + " under the heap agent")
	}
	runErr := jvm.Run(ctx, opts)
	if runErr != nil && (ctx.Err() != nil || fileSize(log) == 0) {
		return runErr
	}
	if progress != nil {
		progress("importing the heap log")
	}
	source := "heap " + strings.Join(argv, " ")
	err = im.importHeapLog(ctx, run, log, source, nil)
	if im.Heap != nil {
		im.Heap.Forget(run)
	}
	if err != nil {
		return err
	}
	return runErr
}
