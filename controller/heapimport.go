package controller

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"androprof/formats"
	"androprof/formats/hprof"
	"androprof/internal/countio"
	"androprof/internal/proc"
	"androprof/jvm"
	"androprof/model"
	"androprof/model/heap"
)

// heapMaxCells bounds a heap profile (about 136 bytes a cell): a longer log gets larger cohorts,
// so import memory and the workspace stay small whatever the log's length.
const heapMaxCells = 1 << 17

// importHeap imports one heap log or dump into a run of its own.
func (im Importer) importHeap(ctx context.Context, run, source string, in *formats.Input, p *countio.Progress) error {
	var err error
	if in.Format.Kind == model.RunKindHeap {
		b := heap.NewHeapBuilder(im.Cohort)
		b.MaxCells = heapMaxCells
		if err = in.Format.ReadHeapLog(in, b); err == nil {
			p.Finish()
			err = im.store.ImportHeapRun(ctx, run, source, b.Profile())
		}
	} else {
		var d *heap.HeapDump
		defer hprof.LowGC(in.Size)() // a big dump, until the store has it: docs/hprof.md "Cost"
		if d, err = in.Format.ReadHeapDump(in, im.options()); err == nil {
			defer d.Close() // the objects' records spilled to a temporary file, kept by the store
			p.Finish()
			err = im.store.ImportDumpRun(ctx, run, source, d)
		}
	}
	return err
}

// RunJava runs a Java program under the project's JVMTI heap agent and imports the heap log
// it wrote. argv is the java command line ("java", then its arguments). A program that fails
// is still imported when it left a readable log, and its exit error is returned after.
func (im Importer) RunJava(ctx context.Context, run string, argv []string, progress func(msg string)) error {
	java, args, err := jvm.Command(argv)
	if err != nil {
		return err
	}
	// The agent writes into a folder of its own, made afresh: a link planted in KeepDir is never
	// written through. The kept log is then moved beside it, replacing a link, not its target.
	if err := proc.CheckKeep(im.KeepDir, heapLogName); err != nil {
		return err
	}
	dir, err := proc.OutputDir(im.KeepDir, "androprof-heap-")
	if err != nil {
		return fmt.Errorf("folder for the heap log: %w", err)
	}
	defer os.RemoveAll(dir)
	log := filepath.Join(dir, heapLogName)
	opts := jvm.RunOptions{Java: java, Args: args, Log: log, Mutations: im.Mutations, CacheDir: im.CacheDir, Stdout: im.Stdout, Stderr: im.Stdout}
	if progress != nil {
		how := " under the heap agent"
		if im.Mutations {
			how += ", recording reference stores"
		}
		progress("running " + strings.Join(argv, " ") + how)
	}
	runErr := jvm.Run(ctx, opts)
	var stop *proc.StoppedError
	if errors.As(runErr, &stop) {
		if kept, err := im.keepHeapLog(log); err == nil && kept != log {
			stop.Kept = "the heap log so far is in " + kept
		}
		return stop
	}
	if runErr != nil && fileSize(log) == 0 {
		return runErr
	}
	if log, err = im.keepHeapLog(log); err != nil {
		return err
	}
	if progress != nil && im.KeepDir != "" {
		progress("heap log kept in " + log)
	}
	if progress != nil {
		progress("importing the heap log")
	}
	im.source = "heap " + strings.Join(argv, " ")
	if err := im.ImportFiles(ctx, run, []string{log}, nil); err != nil {
		if ctx.Err() != nil {
			stop = &proc.StoppedError{Err: context.Cause(ctx)}
			if im.KeepDir != "" {
				stop.Kept = "the heap log is in " + log
			}
			return stop
		}
		return err
	}
	return runErr
}

// heapLogName is the heap log's name in a kept folder.
const heapLogName = "heap.heaplog"

// keepHeapLog moves the heap log the agent wrote into KeepDir, and returns where it is now:
// where it was without KeepDir or when the agent wrote nothing.
func (im Importer) keepHeapLog(log string) (string, error) {
	if im.KeepDir == "" || fileSize(log) == 0 {
		return log, nil
	}
	kept := filepath.Join(im.KeepDir, heapLogName)
	if err := os.Rename(log, kept); err != nil {
		return log, fmt.Errorf("keeping the heap log: %w", err)
	}
	return kept, nil
}
