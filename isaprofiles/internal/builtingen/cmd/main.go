// Command cmd writes the built-in ISA cost profiles to isaprofiles/builtin/<slug>.xml.
// `go generate ./isaprofiles` runs it from the isaprofiles directory, so the default output
// directory is "builtin"; -dir overrides it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"androprof/isaprofiles"
	"androprof/isaprofiles/internal/builtingen"
)

func main() {
	dir := flag.String("dir", "builtin", "directory to write the profiles to")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, core := range builtingen.Cores() {
		p, err := builtingen.Generate(core)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		path := filepath.Join(*dir, core.Slug+".xml")
		if err := isaprofiles.WriteFile(path, p); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		// WriteFile goes through a private temporary file; make the result readable like any source file.
		if err := os.Chmod(path, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("wrote", path)
	}
}
