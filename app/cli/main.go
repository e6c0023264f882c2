package cli

import (
	"context"
	"os"
	"os/signal"
)

// Main runs one command line as the androprof program does and returns its exit status: Ctrl-C
// (SIGINT) cancels the command's context, so an import stops before its commit and leaves the
// workspace as it was. The program's main and the tests that run the command line in a child
// process (to see real exit codes, panics, peak memory and signals) both start here.
func Main(args []string, env Env) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return Run(ctx, args, env)
}
