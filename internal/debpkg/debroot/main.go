// Command debroot prints the folder holding Debian's own packages of one architecture,
// fetching them on first use, so shell scripts (the demo set) run the same programs as the
// tests:
//
//	root=$(go run ./internal/debpkg/debroot armhf bzip2 libbz2-1.0 libc6)
//	qemu-arm -L "$root" "$root/bin/bzip2" -c FILE
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"androprof/internal/debpkg"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: debroot ARCH PACKAGE...   (e.g. debroot armhf bzip2 libbz2-1.0 libc6)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	dir, err := debpkg.CacheDir()
	if err == nil {
		dir, err = debpkg.Root(ctx, dir, os.Args[1], os.Args[2:]...)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "debroot:", err)
		os.Exit(1)
	}
	fmt.Println(dir)
}
