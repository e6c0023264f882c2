// Package assets holds the files the binary carries: its icon and the demo data that a first
// start and `androprof screenshot` show.
package assets

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
)

// Icon is the application icon (PNG, 256×256).
//
//go:embed icon.png
var Icon []byte

//go:embed demo/sieve-arm.inasm-exec.log.gz
var demoLogGz []byte

// DemoLogName names the demo log in messages.
const DemoLogName = "sieve-arm.inasm-exec.log"

// DemoLog is a real `qemu-arm -d in_asm,exec,nochain` log of samples/sieve.c (demo/make-demo.sh).
func DemoLog() (io.Reader, error) {
	return gzip.NewReader(bytes.NewReader(demoLogGz))
}
