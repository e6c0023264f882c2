package jvm

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"androprof/assets"
	"androprof/internal/proc"
)

// samplesDir is where assets keeps the Java samples.
const samplesDir = "samples/java"

// Samples names the main classes of the Java sample workloads (assets/samples/java), ready
// for `java -cp DIR NAME`: demo.Cache, demo.Garbage, demo.Mutate, demo.Phases, demo.Retain,
// demo.Threads.
func Samples() []string {
	ents, _ := fs.ReadDir(assets.JavaSamples, samplesDir)
	var names []string
	for _, e := range ents {
		if !e.IsDir() { // android/…: classes the samples use, no samples
			names = append(names, "demo."+strings.TrimSuffix(e.Name(), ".java"))
		}
	}
	return names
}

// javacFlags compile the embedded Java sources (the samples, the mutation agent) for Java 11,
// so any later java runs them. The sources are UTF-8, and javac reads the locale's charset
// otherwise: US-ASCII on a fresh Debian without a locale. They are part of the mutation
// agent's cache key, so changing them rebuilds it.
var javacFlags = []string{"--release", "11", "-encoding", "UTF-8"}

// CompileSamples compiles the Java samples into dir (class files under dir/demo) with javac,
// "" meaning FindJDK's. They are compiled for Java 11, so any later java runs them.
func CompileSamples(ctx context.Context, javac, dir string) error {
	if javac == "" {
		jdk, err := FindJDK()
		if err != nil {
			return err
		}
		if jdk.Javac == "" {
			return &proc.MissingToolError{Tool: "javac", Package: jdkPackage, Purpose: "to compile the Java samples"}
		}
		javac = jdk.Javac
	} else if _, err := exec.LookPath(javac); err != nil {
		return &proc.MissingToolError{Tool: javac, Package: jdkPackage, Purpose: "to compile the Java samples"}
	}
	src, err := os.MkdirTemp("", "androprof-java-samples-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(src)
	args := append(append([]string{}, javacFlags...), "-d", dir)
	err = fs.WalkDir(assets.JavaSamples, samplesDir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := fs.ReadFile(assets.JavaSamples, p)
		if err != nil {
			return err
		}
		f := filepath.Join(src, filepath.FromSlash(strings.TrimPrefix(p, samplesDir+"/")))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			return err
		}
		args = append(args, f)
		return os.WriteFile(f, b, 0o644)
	})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if msg, err := exec.CommandContext(ctx, javac, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("compiling the Java samples with %s: %v\n%s", javac, err, msg)
	}
	return nil
}
