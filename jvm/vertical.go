package jvm

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"androprof/internal/proc"
	"androprof/model/samples"
)

// Vertical profiles (seed 004, VARI): a Java program runs under `perf record` with the perf map
// agent, which writes the address range of every compiled method and every piece of generated
// code to /tmp/perf-PID.map as it appears (VARI's DIM), so `perf script` names each sample's
// frames — Java method, VM, native library or kernel — from one recording.

//go:embed agent/perfmap_agent.c
var perfmapSource []byte

//go:embed agent/phases_native.c
var phasesNativeSource []byte

var (
	perfmapAgent = cSource{name: "perfmap_agent", code: perfmapSource, what: "the perf map agent"}
	phasesNative = cSource{name: "phases_native", code: phasesNativeSource, what: "the JNI library of demo.Phases"}
)

// perfmapPrefix starts every line the perf map agent writes to stderr.
const perfmapPrefix = "androprof perfmap agent:"

// perfPackage is the Debian package of perf.
const perfPackage = "linux-perf"

// CallGraph is how perf walks a sample's stack.
type CallGraph string

const (
	// CallGraphFP follows frame pointers: the kernel walks the stack as the sample is taken,
	// which costs little, and HotSpot keeps frame pointers in compiled Java code when told to
	// (-XX:+PreserveFramePointer, which RecordVertical adds). Libraries built without frame
	// pointers lose their callers.
	CallGraphFP CallGraph = "fp"
	// CallGraphDWARF copies the top 8 KB of the user stack with every sample and unwinds it in
	// perf script with the images' DWARF tables: C and C++ stacks are whole without frame
	// pointers, but generated code (compiled Java, the interpreter) has no unwind tables, so a
	// stack stops at its first Java frame (a sample in Java code has its leaf alone), and
	// perf.data grows by about 8 KB a sample.
	CallGraphDWARF CallGraph = "dwarf"
)

// VerticalOptions say which Java program to record and how.
type VerticalOptions struct {
	Java string   // the java command; "" is java on PATH
	Args []string // java's arguments: options, then the main class or -jar and the program's arguments
	// RateHz is perf's sampling frequency per thread; 0 is 1000.
	RateHz    int
	CallGraph CallGraph // "" is CallGraphFP
	// Keep, when set, is a folder where perf.data, perf.script and the copy of perf-PID.map stay;
	// "" records into a temporary folder that Close removes.
	Keep string
	// Target is passed through to the recording for the import to apply (threads, time window).
	Target samples.SampleSelection
	Perf   string // the perf command; "" is perf on PATH
	// CacheDir holds the built agent; "" is os.UserCacheDir()/androprof.
	CacheDir string
	// Stdin, Stdout and Stderr are the program's (and perf's stderr); nil means /dev/null.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// VerticalRecording is what RecordVertical leaves: perf's files, ready to import.
type VerticalRecording struct {
	Dir    string // the folder holding the files
	Data   string // perf.data
	Script string // perf.script: `perf script` text, which formats/perfscript reads
	Map    string // the kept copy of perf-PID.map; "" without Keep or when the agent wrote none
	PID    int    // java's process id; 0 when the agent did not load
	// Exit is how the program ended when not with status 0; its samples until then are
	// recorded all the same.
	Exit     *proc.ExitError
	Agent    *AgentStats             // the agent's own counters; nil when the JVM did not reach its end
	Target   samples.SampleSelection // VerticalOptions.Target
	Record   []string                // the perf record command line that ran
	Convert  []string                // the perf script command line that made Script
	Warnings []string                // what the user should know about the recording (no agent: unnamed Java frames)

	temp bool // Dir is temporary
}

// Close removes the recording's temporary folder; a kept folder stays.
func (r *VerticalRecording) Close() error {
	if r == nil || !r.temp {
		return nil
	}
	return os.RemoveAll(r.Dir)
}

// AgentStats are the perf map agent's counters at VMDeath: how many map lines it wrote and the
// CPU time its own code took, so its share of the program's CPU time is exact (the goal
// is ≤ 1 %).
type AgentStats struct {
	PID        int
	Entries    int   // map lines: Compiled + Generated
	Compiled   int   // compiled methods (CompiledMethodLoad)
	Generated  int   // generated code (DynamicCodeGenerated)
	Bytes      int64 // the map's size
	AgentCPU   time.Duration
	ProcessCPU time.Duration // the JVM's CPU time, all threads, at VMDeath
}

// Share is the agent's part of the program's CPU time.
func (s *AgentStats) Share() float64 {
	if s.ProcessCPU <= 0 {
		return 0
	}
	return float64(s.AgentCPU) / float64(s.ProcessCPU)
}

// ReadAgentStats reads the agent's stats=PATH file. The agent writes the pid when it loads and
// everything else at VMDeath; complete says whether the JVM got there.
func ReadAgentStats(path string) (s *AgentStats, complete bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	s = &AgentStats{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		key, val, ok := strings.Cut(sc.Text(), " ")
		n, err := strconv.ParseInt(val, 10, 64)
		if !ok || err != nil {
			return nil, false, fmt.Errorf("%s:%d: want KEY NUMBER, have %q", path, line, sc.Text())
		}
		switch key {
		case "pid":
			s.PID = int(n)
		case "entries":
			s.Entries = int(n)
		case "compiled":
			s.Compiled = int(n)
		case "generated":
			s.Generated = int(n)
		case "bytes":
			s.Bytes = n
		case "agent_cpu_ns":
			s.AgentCPU = time.Duration(n)
		case "process_cpu_ns":
			s.ProcessCPU, complete = time.Duration(n), true
		}
	}
	return s, complete, sc.Err()
}

// PerfPermissionError says perf may not sample this program with its kernel frames, and what
// to do about it.
type PerfPermissionError struct {
	// Paranoid is kernel.perf_event_paranoid when it is the reason (above 1 a user's perf
	// cannot sample the kernel, above 2 on Debian not at all); -1 when perf itself refused.
	Paranoid int
	Detail   string // perf's own words, when it refused
}

// Error names the cause and the remedy.
func (e *PerfPermissionError) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("kernel.perf_event_paranoid is %d, so perf run by a user other than root cannot sample the kernel "+
			"(the vertical profile's kernel layer): run `sudo sysctl kernel.perf_event_paranoid=1` (until the next boot), "+
			"or record as root", e.Paranoid)
	}
	return fmt.Sprintf("perf may not record here: %s (perf events may be blocked by a container's seccomp profile or by "+
		"kernel.perf_event_paranoid: run `sudo sysctl kernel.perf_event_paranoid=1`, record as root, "+
		"or allow perf_event_open in the container)", e.Detail)
}

// paranoidFile holds the kernel's perf_event_paranoid level.
const paranoidFile = "/proc/sys/kernel/perf_event_paranoid"

// checkPerfAccess refuses before anything runs when perf would record without the kernel: a
// user's perf with kernel.perf_event_paranoid above 1 silently samples user space only.
func checkPerfAccess() error { return perfAccess(os.Geteuid(), paranoidFile) }

// perfAccess is checkPerfAccess for the user euid and the sysctl's file.
func perfAccess(euid int, paranoidFile string) error {
	if euid == 0 {
		return nil
	}
	b, err := os.ReadFile(paranoidFile)
	if err != nil {
		return fmt.Errorf("this kernel offers no perf events (%v): vertical profiles need a kernel built with CONFIG_PERF_EVENTS", err)
	}
	v, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err == nil && v > 1 {
		return &PerfPermissionError{Paranoid: v}
	}
	return nil
}

// perfScript is the perf script command line that writes data's samples as text
// (docs/perfscript-format.md): --header adds the recorded command line and rate; -F asks for
// each sample's thread, time, period and event, then its stack (ip, sym, dso) a frame a line.
// --no-inline leaves out the frames of functions inlined into a C frame, which perf finds by
// running addr2line on each image with debug information: with DWARF stacks that took 35 s
// instead of 0.4 s for 600 samples here, and Java frames never have them.
func perfScript(perf, data string) []string {
	return []string{perf, "script", "--header", "--no-inline", "-i", data, "-F", "comm,pid,tid,time,period,event,ip,sym,dso"}
}

// RecordVertical runs a Java program under perf record with the perf map agent and turns the
// recording into perf script text. perf samples cpu-clock at opts.RateHz with call stacks on the
// monotonic clock; the program has opts' standard input, output and error. A program that
// exits non-zero or dies of a signal still leaves its samples (VerticalRecording.Exit says how
// it ended). Cancelling ctx kills the program and perf and returns a *proc.StoppedError. The
// caller closes the recording once it imported it.
func RecordVertical(ctx context.Context, opts VerticalOptions, progress func(msg string)) (*VerticalRecording, error) {
	say := func(msg string) {
		if progress != nil {
			progress(msg)
		}
	}
	if err := proc.CheckKeep(opts.Keep, "perf.data", "perf.script"); err != nil {
		return nil, err
	}
	opts, perf, err := opts.settled()
	if err != nil {
		return nil, err
	}
	jdk, err := JDKOf(opts.Java)
	if err != nil {
		return nil, err
	}
	so, err := perfmapAgent.buildFor(jdk, opts.CacheDir)
	if err != nil {
		return nil, err
	}
	agent, err := agentPath(so, perfmapAgent.what)
	if err != nil {
		return nil, err
	}

	// perf writes into a folder of its own, made afresh: a link planted in Keep is never
	// written through. Kept files are then moved beside it, replacing a link, not its target.
	dir, err := proc.OutputDir(opts.Keep, "androprof-vertical-")
	if err != nil {
		return nil, fmt.Errorf("folder for the recording: %w", err)
	}
	rec := &VerticalRecording{Dir: dir, Data: filepath.Join(dir, "perf.data"), Script: filepath.Join(dir, "perf.script"),
		Target: opts.Target, temp: true}
	fail := func(err error) (*VerticalRecording, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	stats := filepath.Join(dir, "agent.stats")
	rec.Record = perfRecord(perf, opts.RateHz, opts.CallGraph, rec.Data, javaCommand(jdk.Java, agent, stats, opts.CallGraph, opts.Args))

	say(fmt.Sprintf("recording %s under perf at %d Hz (%s call stacks)", strings.Join(append([]string{opts.Java}, opts.Args...), " "),
		opts.RateHz, opts.CallGraph))
	cmd, tail := proc.Wrapped(ctx, rec.Record, opts.Stdin, opts.Stdout, opts.Stderr)
	// perf record ends its program when it gets SIGTERM, so a killed androprof ends both.
	proc.DeathSignal(cmd, syscall.SIGTERM)
	runErr := proc.Run(cmd)
	if ctx.Err() != nil {
		removeAgentMap(stats)
		return fail(proc.Stopped(ctx, "perf and "+filepath.Base(opts.Java)))
	}
	if err := rec.ended(runErr, tail, opts.Java); err != nil {
		return fail(err)
	}
	tmpMap := rec.agentEnded(stats, tail, opts.Java)
	if tmpMap != "" {
		defer os.Remove(tmpMap) // the agent's, made for this recording
	}

	say("naming the samples' frames (perf script)")
	rec.Convert = perfScript(perf, rec.Data)
	if err := runToFile(ctx, rec.Convert, rec.Script); err != nil {
		if ctx.Err() != nil {
			err = proc.Stopped(ctx, "perf script")
		}
		return fail(err)
	}
	os.Remove(stats)
	if opts.Keep == "" {
		return rec, nil
	}
	if tmpMap != "" && fileSize(tmpMap) > 0 {
		rec.Map = filepath.Join(dir, filepath.Base(tmpMap))
		if err := copyFile(tmpMap, rec.Map); err != nil {
			return fail(fmt.Errorf("keeping %s: %w", tmpMap, err))
		}
	}
	if err := rec.keep(opts.Keep); err != nil {
		return fail(err)
	}
	say("perf.data, perf.script and the JIT map kept in " + opts.Keep)
	return rec, nil
}

// settled is opts with the defaults filled in, and the path of perf, or why they cannot be.
func (opts VerticalOptions) settled() (VerticalOptions, string, error) {
	if opts.Perf == "" {
		opts.Perf = "perf"
	}
	perf, err := exec.LookPath(opts.Perf)
	if err != nil {
		return opts, "", &proc.MissingToolError{Tool: opts.Perf, Package: perfPackage, Purpose: "to record vertical profiles"}
	}
	if err := checkPerfAccess(); err != nil {
		return opts, "", err
	}
	if opts.RateHz == 0 {
		opts.RateHz = 1000
	}
	if opts.RateHz < 0 {
		return opts, "", fmt.Errorf("sampling rate %d Hz: want a positive rate", opts.RateHz)
	}
	if opts.CallGraph == "" {
		opts.CallGraph = CallGraphFP
	}
	if opts.CallGraph != CallGraphFP && opts.CallGraph != CallGraphDWARF {
		return opts, "", fmt.Errorf("call graph %q: want fp or dwarf", opts.CallGraph)
	}
	if opts.Java == "" {
		opts.Java = "java"
	}
	return opts, perf, nil
}

// ended reads how perf record ended: perf's own failure is the error; otherwise perf ended as
// the program did (its status, or killed by its signal), which Exit keeps.
func (r *VerticalRecording) ended(runErr error, tail *proc.Tail, java string) error {
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return fmt.Errorf("starting perf: %w", runErr)
	}
	// perf stopped before the program ran: it left no data, or could not start the program.
	if fileSize(r.Data) == 0 || exitErr != nil && exitErr.ExitCode() == 255 && tail.LastWith("Failed to collect") != "" {
		return perfFailure(tail)
	}
	if exitErr != nil {
		ps := exitErr.ProcessState
		detail := tail.LastWith(perfmapPrefix)
		if detail == "" {
			detail = tail.LastLine()
		}
		r.Exit = &proc.ExitError{Program: java, ExitCode: exitErr.ExitCode(), Signal: proc.SignalOf(ps),
			SignalNumber: proc.SignalNumber(ps), Detail: detail, Kept: "its samples until then were recorded"}
	}
	return nil
}

// agentEnded reads what the agent said of itself (its pid from the start, its counters from
// VMDeath) and returns the path of its map in /tmp, "" when it did not load. A missing or
// empty map is a warning: perf names no frame in JIT-compiled code without it.
func (r *VerticalRecording) agentEnded(stats string, tail *proc.Tail, java string) string {
	if s, complete, err := ReadAgentStats(stats); err == nil {
		r.PID = s.PID
		if complete {
			r.Agent = s
		}
	}
	if r.PID == 0 {
		r.Warnings = append(r.Warnings, "the perf map agent did not load: is "+java+
			" a JVM that passes -agentpath on?; samples in JIT-compiled Java code stay unnamed")
		return ""
	}
	tmpMap := fmt.Sprintf("/tmp/perf-%d.map", r.PID)
	if fileSize(tmpMap) == 0 {
		why := "the perf map agent wrote no " + tmpMap
		if msg := tail.LastWith(perfmapPrefix); msg != "" {
			why += " (" + msg + ")"
		}
		r.Warnings = append(r.Warnings, why+"; samples in JIT-compiled Java code stay unnamed")
	}
	return tmpMap
}

// removeAgentMap removes the map the perf map agent wrote to /tmp for a recording that was
// stopped, which nothing reads; stats names its pid.
func removeAgentMap(stats string) {
	if s, _, err := ReadAgentStats(stats); err == nil && s.PID > 0 {
		os.Remove(fmt.Sprintf("/tmp/perf-%d.map", s.PID))
	}
}

// perfRecord is the perf record command line that samples argv: cpu-clock at rate Hz per
// thread, call stacks as cg says, time stamps on the monotonic clock, into data. -N keeps perf
// from copying the images into ~/.debug; -q has it say only what went wrong; --no-bpf-event
// spares a second at the end (perf 6.1 waits for its BPF side-band thread's 1 s poll), and
// the names of BPF programs the kernel runs meanwhile, which a Java program's profile needs not.
func perfRecord(perf string, rate int, cg CallGraph, data string, argv []string) []string {
	return append([]string{perf, "record", "-q", "-N", "--no-bpf-event", "-e", "cpu-clock", "-F", strconv.Itoa(rate),
		"--call-graph", string(cg), "-k", "mono", "-o", data, "--"}, argv...)
}

// javaCommand is the java command line under the perf map agent (agent is its -agentpath
// option, up to its options; "" runs java without it), which writes its counters to stats.
// With frame-pointer stacks HotSpot keeps frame pointers in compiled code too.
func javaCommand(java, agent, stats string, cg CallGraph, args []string) []string {
	argv := []string{java}
	if agent != "" {
		argv = append(argv, agent+"=stats="+stats)
	}
	if cg == CallGraphFP {
		argv = append(argv, "-XX:+PreserveFramePointer")
	}
	return append(argv, args...)
}

// keep moves the recording's files from its fresh folder into keep and removes the folder.
func (r *VerticalRecording) keep(keep string) error {
	for _, p := range []*string{&r.Data, &r.Script, &r.Map} {
		if *p == "" {
			continue
		}
		kept := filepath.Join(keep, filepath.Base(*p))
		if err := os.Rename(*p, kept); err != nil {
			return fmt.Errorf("keeping %s: %w", filepath.Base(*p), err)
		}
		*p = kept
	}
	os.RemoveAll(r.Dir)
	r.Dir, r.temp = keep, false
	return nil
}

// perfFailure says why perf recorded nothing, from its last words.
func perfFailure(tail *proc.Tail) error {
	detail := tail.LastLine()
	all := strings.ToLower(tail.String())
	if strings.Contains(all, "permission") || strings.Contains(all, "not permitted") || strings.Contains(all, "paranoid") {
		return &PerfPermissionError{Paranoid: -1, Detail: detail}
	}
	if detail == "" {
		detail = "it said nothing"
	}
	return fmt.Errorf("perf record failed: %s", detail)
}

// runToFile runs argv with its standard output in path; a failure carries its last words.
func runToFile(ctx context.Context, argv []string, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = f
	tail := &proc.Tail{Max: 4096}
	cmd.Stderr = tail
	proc.KillGroup(cmd) // with what it runs (addr2line, objdump)
	err = proc.Run(cmd)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %v: %s", strings.Join(argv[:2], " "), err, tail.LastLine())
	}
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// BuildPhasesNative builds the JNI library of the sample demo.Phases (jvm/agent/phases_native.c)
// against FindJDK's headers into cacheDir ("" for the user's cache) and returns its path, for
// java's -Dphases.native=PATH.
func BuildPhasesNative(cacheDir string) (string, error) {
	jdk, _ := FindJDK()
	return phasesNative.buildFor(jdk, cacheDir)
}
