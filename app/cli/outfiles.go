package cli

import (
	"fmt"
	"io"
	"os"

	"androprof/internal/outfile"
)

// writeOut writes a file the user named (a chart, an export, a summary) through
// internal/outfile, so a link planted at path is replaced rather than followed, and says on
// standard error when a file was there before: an earlier output is never replaced without a
// word. What write fails with is said with the path.
func writeOut(path string, env Env, write func(io.Writer) error) error {
	replaced, err := outfile.Write(path, func(w io.Writer) error {
		if err := write(w); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if replaced {
		sayReplaced(path, env)
	}
	return nil
}

// exists says whether a file, folder or link is at path, for commands that write through a
// writer of their own (profile export) to say they replaced it.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// sayReplaced tells the user that a file they named was there before and is now replaced.
func sayReplaced(path string, env Env) {
	fmt.Fprintln(env.Stderr, "androprof: replaced", printable(path, ""))
}
