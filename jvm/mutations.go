package jvm

import (
	"archive/zip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"androprof/internal/proc"
)

// mutationSources is the Java agent that makes each reference store of a program call the
// heap agent (RunOptions.Mutations): a ClassFileTransformer written with ObjectWeb ASM.
//
//go:embed agent/mutations/androprof/agent/*.java
var mutationSources embed.FS

const mutationsDir = "agent/mutations/androprof/agent"

// asmDir holds Debian's ASM (libasm-java). The transformer needs asm and asm-commons (for
// AdviceAdapter, which needs nothing more than asm); they are copied beside the agent jar,
// whose manifest puts all three on the boot class path.
var (
	asmDir  = "/usr/share/java"
	asmJars = []string{"asm.jar", "asm-commons.jar"}
)

// mutationsJar names the agent jar.
const mutationsJar = "androprof-mutations.jar"

// namedFile is a file to write into the build: a Java source or an ASM jar.
type namedFile struct {
	name string
	data []byte
}

// BuildMutations compiles the embedded Java agent with javac against Debian's ASM into
// cacheDir/mutations-HASH, once per version of its sources and of ASM, and returns the agent
// jar's path for java's -javaagent. javac may be "" when the agent is in the cache already.
func BuildMutations(cacheDir, javac string) (string, error) {
	const purpose = "to record pointer mutations"
	var sources, asm []namedFile
	ents, err := fs.ReadDir(mutationSources, mutationsDir)
	if err != nil {
		return "", err
	}
	for _, e := range ents {
		b, err := fs.ReadFile(mutationSources, path.Join(mutationsDir, e.Name()))
		if err != nil {
			return "", err
		}
		sources = append(sources, namedFile{e.Name(), b})
	}
	for _, name := range asmJars {
		b, err := os.ReadFile(filepath.Join(asmDir, name))
		if err != nil {
			return "", &proc.MissingToolError{Tool: filepath.Join(asmDir, name), Package: "libasm-java", Purpose: purpose}
		}
		asm = append(asm, namedFile{name, b})
	}
	h := sha256.New()
	h.Write([]byte(strings.Join(javacFlags, " ") + "\x00"))
	for _, f := range append(append([]namedFile{}, sources...), asm...) {
		h.Write([]byte(f.name + "\x00"))
		h.Write(f.data)
	}
	dir := filepath.Join(cacheDir, "mutations-"+hex.EncodeToString(h.Sum(nil))[:16])
	jar := filepath.Join(dir, mutationsJar)
	if isFile(jar) {
		return jar, nil
	}
	if javac == "" {
		return "", &proc.MissingToolError{Tool: "javac", Package: jdkPackage, Purpose: purpose}
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("mutation agent cache: %w", err)
	}
	tmp, err := os.MkdirTemp(cacheDir, "mutations-build-")
	if err != nil {
		return "", fmt.Errorf("mutation agent cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := buildMutationsIn(tmp, javac, sources, asm); err != nil {
		return "", err
	}
	// Rename is atomic, so concurrent runs never load a half-written jar; a run that lost the
	// race uses the winner's.
	if err := os.Rename(filepath.Join(tmp, "jar"), dir); err != nil && !isFile(jar) {
		return "", fmt.Errorf("mutation agent cache: %w", err)
	}
	return jar, nil
}

// buildMutationsIn compiles the sources in tmp, and writes the agent jar beside copies of the
// ASM jars into tmp/jar.
func buildMutationsIn(tmp, javac string, sources, asm []namedFile) error {
	src, classes, out := filepath.Join(tmp, "src"), filepath.Join(tmp, "classes"), filepath.Join(tmp, "jar")
	for _, d := range []string{src, classes, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	var cp []string
	for _, f := range asm {
		cp = append(cp, filepath.Join(out, f.name))
		if err := os.WriteFile(filepath.Join(out, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	args := append(append([]string{}, javacFlags...), "-cp", strings.Join(cp, string(filepath.ListSeparator)), "-d", classes)
	for _, f := range sources {
		if err := os.WriteFile(filepath.Join(src, f.name), f.data, 0o644); err != nil {
			return err
		}
		args = append(args, filepath.Join(src, f.name))
	}
	if msg, err := exec.Command(javac, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("compiling the mutation agent with %s: %v\n%s", javac, err, msg)
	}
	return writeAgentJar(filepath.Join(out, mutationsJar), classes)
}

// writeAgentJar writes the classes under dir into the agent jar, manifest first. Its
// Boot-Class-Path (relative to the jar's folder) puts the agent and ASM on the boot class path,
// so that androprof.agent.Mutations is one class that classes of every loader call. (A program
// that brings its own ASM then gets Debian's: class loaders ask the boot loader first.)
func writeAgentJar(jar, dir string) error {
	f, err := os.Create(jar)
	if err != nil {
		return err
	}
	defer f.Close()
	z := zip.NewWriter(f)
	manifest := "Manifest-Version: 1.0\r\n" +
		"Premain-Class: androprof.agent.Premain\r\n" +
		"Boot-Class-Path: " + strings.Join(append([]string{mutationsJar}, asmJars...), " ") + "\r\n\r\n"
	w, err := z.Create("META-INF/MANIFEST.MF")
	if err != nil {
		return err
	}
	if _, err := w.Write([]byte(manifest)); err != nil {
		return err
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := z.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	if err := z.Close(); err != nil {
		return err
	}
	return f.Close()
}

// javaAgentFor is java's -javaagent option for the mutation agent, built for the java of jdk
// (with its javac, else FindJDK's) in cacheDir ("" is os.UserCacheDir()/androprof).
func javaAgentFor(jdk *JDK, cacheDir string) (string, error) {
	cacheDir, err := cacheDirOr(cacheDir, "the mutation agent")
	if err != nil {
		return "", err
	}
	javac := jdk.Javac
	if javac == "" {
		if j, err := FindJDK(); err == nil {
			javac = j.Javac
		}
	}
	jar, err := BuildMutations(cacheDir, javac)
	if err != nil {
		return "", err
	}
	return pathOption("-javaagent:", jar, "the mutation agent")
}
