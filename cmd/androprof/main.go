// Command androprof is the AndroProf workbench: with no arguments it opens the windows
// (app/desktop), with a subcommand it works from the command line (app/cli). The screenshot
// tour and the end-to-end tests' widget map are in the developer command cmd/tour, not here.
package main

import (
	"os"

	"androprof/app/cli"
	"androprof/app/desktop"
	"androprof/store/workspacedb"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		GUI: desktop.GUI{}, Demos: desktop.DemoRuns(), Databases: workspacedb.Databases()}))
}
