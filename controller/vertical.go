package controller

import (
	"context"
	"strings"

	"androprof/internal/proc"
	"androprof/jvm"
)

// RecordVertical records a Java program under perf with the perf map agent (jvm.RecordVertical)
// and imports the samples into run through the same path as `import FILE.perfscript`. opts says
// the program, the rate and the call stacks; the folder kept, the agent's cache and the program's
// standard streams are the importer's (KeepDir, CacheDir, Stdin, Stdout, Stderr), and the
// recording's target and application packages its Samples. A program that fails is imported all
// the same: the recording returned says how it ended (Exit), what the agent cost and what to
// warn about; its temporary files are gone by then.
func (im Importer) RecordVertical(ctx context.Context, run string, opts jvm.VerticalOptions, say func(msg string)) (*jvm.VerticalRecording, error) {
	opts.Keep, opts.CacheDir, opts.Target = im.KeepDir, im.CacheDir, im.Samples.Target
	opts.Stdin, opts.Stdout, opts.Stderr = im.Stdin, im.Stdout, im.Stderr
	if opts.Stderr == nil {
		opts.Stderr = im.Stdout
	}
	rec, err := jvm.RecordVertical(ctx, opts, say)
	if err != nil {
		return nil, err
	}
	defer rec.Close()
	if say != nil {
		say("importing the samples")
	}
	java := opts.Java
	if java == "" {
		java = "java"
	}
	im.source = "vertical " + strings.Join(append([]string{java}, opts.Args...), " ")
	err = im.ImportFiles(ctx, run, []string{rec.Script}, nil)
	if err != nil && ctx.Err() != nil {
		stop := &proc.StoppedError{Err: context.Cause(ctx)}
		if im.KeepDir != "" {
			stop.Kept = "perf.data and perf.script are in " + rec.Dir
		}
		return rec, stop
	}
	return rec, err
}
