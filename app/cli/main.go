package cli

import (
	"context"
	"errors"
)

// Main runs one command line as the androprof program does and returns its exit status: Ctrl-C
// (SIGINT), SIGTERM and SIGHUP cancel the command's context (stopOnSignal), so an import stops
// before its commit and leaves the workspace as it was, and the programs run, heap and vertical
// started are ended. The program's main and the tests that run the command line in a child
// process (to see real exit codes, panics, peak memory and signals) both start here.
func Main(args []string, env Env) int {
	ctx, stop := stopOnSignal(context.Background())
	defer stop()
	code := Run(ctx, args, env)
	var by *stoppedBy
	if code == 1 && errors.As(context.Cause(ctx), &by) {
		return 128 + int(by.sig) // what a shell reports for a command the signal ended
	}
	return code
}
