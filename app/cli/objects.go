package cli

import (
	"context"

	"androprof/controller"
)

// objectReport prints one object of a dump run (report --object ID).
func objectReport(ctx context.Context, ws *controller.Workspace, run, id string, asJSON bool, env Env) error {
	_, err := ws.HeapDumps.Object(ctx, run, -1)
	return err
}

// instancesReport prints a class's reachable instances (report --instances CLASS).
func instancesReport(ctx context.Context, ws *controller.Workspace, run, class, find string, top int, asJSON bool, env Env) error {
	_, err := ws.HeapDumps.Instances(ctx, run, -1)
	return err
}
