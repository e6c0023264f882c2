package controller

import (
	"context"
	"strings"
	"testing"

	"androprof/model"
	"androprof/model/calls"
)

// RunKind sends a front end to the kind's service; a name the workspace lacks is said, cut and
// quoted, with the workspace it is not in.
func TestRunKind(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	ws := NewWorkspace(db)
	if err := db.ImportMethodRun(ctx, "trace", "test", &calls.MethodTrace{Profile: &calls.CallProfile{Clock: calls.ClockDual}}); err != nil {
		t.Fatal(err)
	}
	if kind, err := ws.RunKind(ctx, "trace"); err != nil || kind != model.RunKindMethods {
		t.Errorf("trace: %q, %v", kind, err)
	}
	long := strings.Repeat("x", 200)
	_, err := ws.RunKind(ctx, long)
	if err == nil || !strings.Contains(err.Error(), RunText(long)) || !strings.Contains(err.Error(), ws.Path()) || len(err.Error()) > 200 {
		t.Errorf("a missing run: %v", err)
	}
	if _, err := NewWorkspace(nil).RunKind(ctx, "trace"); err == nil {
		t.Error("a run without a workspace")
	}
}
