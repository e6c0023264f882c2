// Package jvm runs Java programs on OpenJDK under the project's JVMTI agents: the heap agent,
// which writes the heap log of docs/heaplog-format.md (seed 001's allocation, death, thread and
// GC records, measured on a stock JVM instead of an instrumented Dalvik), and the perf map
// agent, which names JIT-compiled code for perf so a recording shows Java methods, the VM,
// native libraries and the kernel in one profile (seed 004, vertical.go). The agents are C,
// carried by the binary and built with gcc against the JDK's headers on first use, like the
// QEMU plugin of package emulator; the Java agent that makes reference stores call the heap
// agent (pointer mutations, mutations.go) is built with javac against Debian's ASM the same way.
package jvm

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"androprof/internal/cbuild"
	"androprof/internal/proc"
)

// agentSource is the JVMTI agent; Debian's JDK ships its headers, never a build of it.
//
//go:embed agent/heaplog_agent.c
var agentSource []byte

// agentCFlags are part of the cache key, so changing them rebuilds.
var agentCFlags = []string{"-std=c99", "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-fvisibility=hidden"}

// agentPrefix starts every message the agent writes (to stderr, for real errors only).
const agentPrefix = "androprof heap agent:"

// mutationsPrefix starts what the agents write about mutations that is no error: the heap
// agent's summary at exit, and the Java agent's word on a class it left as it was.
const mutationsPrefix = "androprof mutations:"

// jdkPackage is the Debian package that provides java, javac and the JVMTI headers.
const jdkPackage = "openjdk-17-jdk-headless"

// JDK is one installed Java kit: the java that runs programs, the javac that compiles the
// samples and the headers that build the agent. A runtime-only install has no Javac or Include.
type JDK struct {
	Home    string // e.g. /usr/lib/jvm/java-17-openjdk-amd64
	Java    string // Home/bin/java
	Javac   string // Home/bin/javac, "" when missing
	Include string // Home/include holding jvmti.h, "" when missing
}

// JDKOf finds the kit a java command belongs to, following the symlinks that Debian's
// alternatives put on PATH (/usr/bin/java → /usr/lib/jvm/…/bin/java).
func JDKOf(java string) (*JDK, error) {
	path, err := exec.LookPath(java)
	if err != nil {
		return nil, &proc.MissingToolError{Tool: java, Package: jdkPackage, Purpose: "to run Java programs"}
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, fmt.Errorf("finding the JDK of %s: %w", path, err)
	}
	if real, err = filepath.Abs(real); err != nil {
		return nil, err
	}
	home := filepath.Dir(filepath.Dir(real))
	j := &JDK{Home: home, Java: real}
	if isFile(filepath.Join(home, "bin", "javac")) {
		j.Javac = filepath.Join(home, "bin", "javac")
	}
	if isFile(filepath.Join(home, "include", "jvmti.h")) {
		j.Include = filepath.Join(home, "include")
	}
	return j, nil
}

// FindJDK picks the kit to use when none is named: $JAVA_HOME, then Debian's OpenJDK 17
// (/usr/lib/jvm/java-17-openjdk-*), then the java on PATH. It wants a full JDK (javac and
// headers) and falls back to a runtime only when no JDK is found.
func FindJDK() (*JDK, error) {
	var candidates []string
	if home := os.Getenv("JAVA_HOME"); home != "" {
		candidates = append(candidates, filepath.Join(home, "bin", "java"))
	}
	debian, _ := filepath.Glob("/usr/lib/jvm/java-17-openjdk-*/bin/java")
	sort.Strings(debian)
	candidates = append(append(candidates, debian...), "java")
	var runtime *JDK
	for _, c := range candidates {
		j, err := JDKOf(c)
		if err != nil {
			continue
		}
		if j.Javac != "" && j.Include != "" {
			return j, nil
		}
		if runtime == nil {
			runtime = j
		}
	}
	if runtime != nil {
		return runtime, nil
	}
	return nil, &proc.MissingToolError{Tool: "java", Package: jdkPackage, Purpose: "to run Java programs"}
}

// headers finds jvmti.h: in the JDK of the java that will load the agent when it has them,
// else in any JDK (JVMTI's headers are compatible across versions). what is what they build.
func headers(jdk *JDK, what string) (string, error) {
	if jdk != nil && jdk.Include != "" {
		return jdk.Include, nil
	}
	if j, err := FindJDK(); err == nil && j.Include != "" {
		return j.Include, nil
	}
	any, _ := filepath.Glob("/usr/lib/jvm/*/include/jvmti.h")
	sort.Strings(any)
	if len(any) > 0 {
		return filepath.Dir(any[0]), nil
	}
	return "", &proc.MissingToolError{Tool: "jvmti.h (the JDK's headers)", Package: jdkPackage, Purpose: "to build " + what}
}

// BuildAgent compiles the embedded agent with gcc against the headers of FindJDK's kit into
// cacheDir, once per version of its source and headers, and returns the shared object's path.
func BuildAgent(cacheDir string) (string, error) {
	jdk, _ := FindJDK()
	include, err := headers(jdk, heapAgent.what)
	if err != nil {
		return "", err
	}
	return BuildAgentWith(cacheDir, include)
}

// BuildAgentWith is BuildAgent against the headers in include (a JDK's include directory).
func BuildAgentWith(cacheDir, include string) (string, error) {
	return heapAgent.build(cacheDir, include)
}

// cSource is a C file of this package built against the JDK's headers: an agent or the JNI
// library of a sample.
type cSource struct {
	name string // the .c and .so are named after it
	code []byte
	what string // for messages: "the heap agent"
}

var heapAgent = cSource{name: "heaplog_agent", code: agentSource, what: "the heap agent"}

// build compiles s against the headers in include into cacheDir, once per version of its
// source and headers.
func (s cSource) build(cacheDir, include string) (string, error) {
	jvmti, err := os.ReadFile(filepath.Join(include, "jvmti.h"))
	if err != nil {
		return "", &proc.MissingToolError{Tool: filepath.Join(include, "jvmti.h"), Package: jdkPackage, Purpose: "to build " + s.what}
	}
	flags := append(append([]string{}, agentCFlags...), "-I", include, "-I", filepath.Join(include, "linux"))
	so, err := cbuild.Build(cacheDir, cbuild.Source{Name: s.name, Code: s.code, Flags: flags, Key: jvmti, What: s.what})
	if errors.Is(err, cbuild.ErrNoGCC) {
		return "", &proc.MissingToolError{Tool: "gcc", Package: "gcc", Purpose: "to build " + s.what}
	}
	return so, err
}

// buildFor builds s for the java of jdk: against its headers (or another JDK's), in cacheDir
// ("" is os.UserCacheDir()/androprof).
func (s cSource) buildFor(jdk *JDK, cacheDir string) (string, error) {
	include, err := headers(jdk, s.what)
	if err != nil {
		return "", err
	}
	if cacheDir, err = cacheDirOr(cacheDir, s.what); err != nil {
		return "", err
	}
	return s.build(cacheDir, include)
}

// cacheDirOr is cacheDir, or os.UserCacheDir()/androprof when it is "", for building what.
func cacheDirOr(cacheDir, what string) (string, error) {
	if cacheDir != "" {
		return cacheDir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for %s: %w", what, err)
	}
	return filepath.Join(base, "androprof"), nil
}

// agentPath is java's -agentpath option for the agent so, up to its options.
func agentPath(so, what string) (string, error) { return pathOption("-agentpath:", so, what) }

// pathOption is a java option that names a file (-agentpath:, -javaagent:), which cannot hold
// '=': java reads the agent's options after it.
func pathOption(option, path, what string) (string, error) {
	if strings.Contains(path, "=") {
		return "", fmt.Errorf("the path %s of %s holds '=', which java's %s cannot take: choose another cache directory", path, what, strings.TrimSuffix(option, ":"))
	}
	return option + path, nil
}

// RunOptions says which Java program to run under the heap agent and where its log goes.
type RunOptions struct {
	Java string   // the java command; "" is java on PATH
	Args []string // java's arguments: options, then the main class or -jar and the program's arguments
	Log  string   // the heap log to write
	// SnapshotEvery, when not 0, adds a heap snapshot each time that many more bytes were
	// allocated; there is always one at exit.
	SnapshotEvery uint64
	// Mutations logs every reference store of the program's classes (figure 5.22) through a
	// Java agent that instruments them (BuildMutations); the JDK's own classes are not. It
	// about doubles the time a run under the heap agent takes (demo.Garbage).
	Mutations bool
	// CacheDir holds built agents; default os.UserCacheDir()/androprof.
	CacheDir string
	// Stdin, Stdout and Stderr are the program's; nil means /dev/null.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Command splits the command line of `androprof heap -- java ARGS...`: a first word naming
// java (a path whose base name is java) is the java to run; otherwise every word is an
// argument of the default java.
func Command(argv []string) (java string, args []string, err error) {
	if len(argv) == 0 {
		return "", nil, errors.New("no Java command: want java [options] MAINCLASS [args] or java [options] -jar JAR [args]")
	}
	base := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	if base == "java" {
		java, argv = argv[0], argv[1:]
	}
	if len(argv) == 0 {
		return "", nil, errors.New("java needs a main class or -jar JAR")
	}
	return java, append([]string(nil), argv...), nil
}

// Run runs a Java program with the heap agent writing opts.Log, building the agent first if
// needed. Cancelling ctx kills the JVM and returns a *proc.StoppedError (the log is then cut
// short). A program that exits non-zero gives an *ExitError.
func Run(ctx context.Context, opts RunOptions) error {
	if opts.Log == "" {
		return errors.New("no heap log file given")
	}
	java := opts.Java
	if java == "" {
		java = "java"
	}
	jdk, err := JDKOf(java)
	if err != nil {
		return err
	}
	log, err := filepath.Abs(opts.Log)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(log), 0o755); err != nil {
		return fmt.Errorf("heap log: %w", err)
	}
	argv, err := heapCommand(jdk, log, opts)
	if err != nil {
		return err
	}

	cmd, tail := proc.Wrapped(ctx, argv, opts.Stdin, opts.Stdout, opts.Stderr)
	runErr := proc.Run(cmd)
	if ctx.Err() != nil {
		return proc.Stopped(ctx, filepath.Base(java))
	}
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return fmt.Errorf("starting %s: %w", jdk.Java, runErr)
	}
	if exitErr != nil {
		detail := tail.LastWith(agentPrefix)
		if detail == "" {
			detail = tail.LastLineWithout(mutationsPrefix) // the program's, not the agent's summary
		}
		return &proc.ExitError{Program: java, ExitCode: exitErr.ExitCode(), Signal: proc.SignalOf(exitErr.ProcessState), Detail: detail}
	}
	if msg := tail.LastWith(agentPrefix); msg != "" {
		return fmt.Errorf("%s ran, but the heap log may be incomplete: %s", java, msg)
	}
	if st, err := os.Stat(log); err != nil || st.Size() == 0 {
		return fmt.Errorf("%s ran, but the heap agent wrote no log to %s", java, log)
	}
	return nil
}

// heapCommand is the command line that runs opts.Args on jdk's java under the heap agent
// writing log (an absolute path), and under the Java agent too with opts.Mutations. It builds
// the agents when they are not in the cache yet.
func heapCommand(jdk *JDK, log string, opts RunOptions) ([]string, error) {
	so, err := heapAgent.buildFor(jdk, opts.CacheDir)
	if err != nil {
		return nil, err
	}
	agent, err := agentPath(so, heapAgent.what)
	if err != nil {
		return nil, err
	}
	agent += "="
	if opts.SnapshotEvery != 0 {
		agent += "snapshot=" + strconv.FormatUint(opts.SnapshotEvery, 10) + ","
	}
	var javaAgent []string
	if opts.Mutations {
		opt, err := javaAgentFor(jdk, opts.CacheDir)
		if err != nil {
			return nil, err
		}
		agent += "mutations,"
		javaAgent = []string{opt} // after the heap agent, which then sees its allocations
	}
	agent += "out=" + log // last: the agent takes the rest as the path
	return append(append([]string{jdk.Java, agent}, javaAgent...), opts.Args...), nil
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
