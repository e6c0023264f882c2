// Package cbuild compiles the project's embedded C sources (the QEMU plugin, the JVMTI agent)
// into shared objects with gcc on first use, and caches them by a hash of what went into them.
package cbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// ErrNoGCC says gcc is not on PATH; callers name the package to install.
var ErrNoGCC = errors.New("gcc is not installed")

// Source is one C file to build.
type Source struct {
	Name  string   // base name, e.g. "bbcount": the .c and .so are named after it
	Code  []byte   // the C source
	Flags []string // gcc flags, -shared and friends included
	Key   []byte   // anything else the build depends on (system headers), for the cache key
	// Headers are the source's own headers by file name (`#include "cachesim.h"`): written
	// beside it for gcc, and part of the cache key.
	Headers map[string][]byte
	What    string // for messages: "the QEMU plugin"
}

// Build returns the cached shared object of s in cacheDir, building it with gcc when missing.
func Build(cacheDir string, s Source) (string, error) {
	h := sha256.New()
	h.Write(s.Code)
	h.Write([]byte(strings.Join(s.Flags, " ") + "\x00"))
	h.Write(s.Key)
	names := make([]string, 0, len(s.Headers))
	for name := range s.Headers {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		fmt.Fprintf(h, "\x00%s\x00%d\x00", name, len(s.Headers[name]))
		h.Write(s.Headers[name])
	}
	so := filepath.Join(cacheDir, s.Name+"-"+hex.EncodeToString(h.Sum(nil))[:16]+".so")
	if _, err := os.Stat(so); err == nil {
		return so, nil
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		return "", ErrNoGCC
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("%s cache: %w", s.What, err)
	}
	tmp, err := os.MkdirTemp(cacheDir, "build-")
	if err != nil {
		return "", fmt.Errorf("%s cache: %w", s.What, err)
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, s.Name+".c")
	if err := os.WriteFile(src, s.Code, 0o644); err != nil {
		return "", fmt.Errorf("%s cache: %w", s.What, err)
	}
	for name, code := range s.Headers {
		if filepath.Base(name) != name {
			return "", fmt.Errorf("%s: header %q is not a plain file name", s.What, name)
		}
		if err := os.WriteFile(filepath.Join(tmp, name), code, 0o644); err != nil {
			return "", fmt.Errorf("%s cache: %w", s.What, err)
		}
	}
	out := filepath.Join(tmp, s.Name+".so")
	args := append(append([]string{}, s.Flags...), "-o", out, src)
	if msg, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s with gcc: %v\n%s", s.What, err, msg)
	}
	// Rename is atomic, so concurrent runs never load a half-written object.
	if err := os.Rename(out, so); err != nil {
		return "", fmt.Errorf("%s cache: %w", s.What, err)
	}
	return so, nil
}
