package controller

import (
	"context"
	"fmt"
	"strconv"

	"androprof/internal/termtext"
	"androprof/model"
)

// RunKind says what kind of run a name holds, so a front end can send a question to the
// kind's service. A name the workspace does not list is an error that quotes it (cut, as
// a person typed it) and names the workspace.
func (w *Workspace) RunKind(ctx context.Context, run string) (model.RunKind, error) {
	if w.store == nil {
		return "", fmt.Errorf("run %s: no workspace is open", RunText(run))
	}
	runs, err := w.Runs(ctx)
	if err != nil {
		return "", err
	}
	for _, r := range runs {
		if r.Name == run {
			return r.Kind, nil
		}
	}
	return "", fmt.Errorf("run %s is not in %s", RunText(run), w.Path())
}

// RunText is a run's name as messages quote it: cut to 80 characters and in quotes, so a
// long or odd name stays one readable token.
func RunText(run string) string { return strconv.Quote(termtext.Cut(run, 80)) }
