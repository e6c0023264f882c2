// Command tour is androprof with the developer's tooling, kept out of the shipping program:
//
//	tour screenshot --out DIR [--db FILE]   one PNG of the editor and of each tab of the analysis
//	                                        window on the demo data (run it under xvfb-run)
//	tour ARGS...                            androprof ARGS..., writing each window's widget map
//	                                        to $ANDROPROF_WIDGETS when it is set
//
// The end-to-end tests (TestRealWindow) and the screenshot tests in this folder run it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"androprof/app/cli"
	"androprof/app/desktop"
	"androprof/store/workspacedb"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "screenshot" {
		os.Exit(screenshotMain(args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(cli.Main(args, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		GUI: desktop.GUI{Shown: startWidgetReports}, Demos: desktop.DemoRuns(), Databases: workspacedb.Databases()}))
}

// screenshotMain runs `tour screenshot` and is its exit status: 2 for a mistake in the command
// line, 1 when a window could not be captured.
func screenshotMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("screenshot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory for the PNG files")
	db := fs.String("db", workspacedb.Databases().DefaultPath, "workspace database `file`")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return 0
	} else if err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: tour screenshot --out DIR [--db FILE]")
		return 2
	}
	files, err := screenshot(*db, *out)
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	if err != nil {
		fmt.Fprintln(stderr, "tour screenshot:", err)
		return 1
	}
	return 0
}
