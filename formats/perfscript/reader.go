// Package perfscript reads the text `perf script` prints for a perf.data recording, and the same
// text Android's simpleperf prints with its report_sample.py script (docs/perfscript-format.md):
// per sample a header line (thread, time, period, event), then its stack, one frame a line, the
// leaf first. Samples recorded anywhere, a phone or a server, import like the workbench's own.
//
// The reader streams: it holds one sample, reused, and the distinct names it has met; never
// the file.
package perfscript

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strings"

	"androprof/formats/internal/lines"
	"androprof/internal/cutline"
	"androprof/internal/inputerr"
	"androprof/model/samples"
)

// The formats SampleHeader.Format names.
const (
	FormatPerf       = "perf-script"
	FormatSimpleperf = "simpleperf"
)

// ErrNotPerfScript says a file is not perf script text, so format detection tries another
// reader; a reader whose first line is no sample wraps it in its *inputerr.Error.
var ErrNotPerfScript = errors.New("not perf script text")

// MaxFrames is the deepest stack a sample may have: perf records at most
// kernel.perf_event_max_stack frames (127 by default), so more is a broken file.
const MaxFrames = 1 << 16

// maxNames bounds the names kept for reuse; past it names are made per frame, so a file of
// endless distinct names costs time, not memory.
const maxNames = 1 << 16

// maxCommFields is how many space-separated words a thread name may have: Linux keeps 15 bytes.
const maxCommFields = 16

// Reader streams one perf script file: Next returns its samples one by one, Feed hands them
// all to a model.SampleSink.
type Reader struct {
	name    string
	sc      *bufio.Scanner
	line    int64
	err     error // the first error, which ends the file for good
	header  samples.SampleHeader
	started bool // a sample was read: '#' lines are comments only before the first
	held    bool // the scanner's line is a header read ahead: the next sample starts with it
	heldLn  []byte

	s          samples.Sample // the sample being read, reused
	open       bool
	at         int64         // its first line
	tail       samples.Frame // the frame a header line carries when the sample has no call chain
	hasTail    bool
	inTrace    bool // simpleperf's tracing data runs to the sample's end
	afterFrame bool // the last line was a frame: a line of spaces under it is its source line
	inlined    int  // frames at the stack's end inlined into the next one, waiting for its image

	names      map[string]string
	toks       []span
	simpleperf bool
	cmdline    string
	freq       int  // the first event's sampling rate from `perf script --header`
	sawEvent   bool // the first "# event :" line was read
	lastNS     int64
	timed      bool // a sample had a time: lastNS is the latest
}

type span struct{ from, to int }

// NewReader reads perf script text from r; name is used in errors.
func NewReader(r io.Reader, name string) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), lines.MaxLine)
	sc.Split(cutline.ScanLines) // a last line cut short is refused, not read as a frame
	return &Reader{name: name, sc: sc, names: map[string]string{}, toks: make([]span, 0, 32),
		header: samples.SampleHeader{Format: FormatPerf}}
}

// Header is what the file says about its recording: the format, the first sample's event and,
// when perf script ran with --header, the recorded command line and rate. It is complete once
// the first sample was read.
func (r *Reader) Header() samples.SampleHeader { return r.header }

// Feed streams every sample into sink. A sink's error comes back with the sample's first line.
func (r *Reader) Feed(sink samples.SampleSink) error {
	for {
		s, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := sink.Sample(s); err != nil {
			r.err = &inputerr.Error{File: r.name, Line: r.at, Err: err}
			return r.err
		}
	}
}

// headerBanner is the first line of perf script --header (and simpleperf's report_sample.py
// --header).
const headerBanner = "# ========"

// Line is the number of the last line read.
func (r *Reader) Line() int64 { return r.line }

// Next returns the next sample, io.EOF after the last. The sample and its stack are reused
// by the next call.
func (r *Reader) Next() (*samples.Sample, error) {
	if r.err != nil {
		return nil, r.err
	}
	s, err := r.next()
	if err != nil {
		r.err = err
	}
	return s, err
}

func (r *Reader) next() (*samples.Sample, error) {
	for {
		ln, ok := r.readLine()
		if !ok {
			if err := r.scanErr(); err != nil {
				return nil, err
			}
			if r.open {
				return r.finish(), nil
			}
			return nil, io.EOF
		}
		switch {
		case !r.started && !r.open && len(ln) > 0 && ln[0] == '#':
			r.comment(ln)
		case len(ln) == 0:
			if r.open {
				return r.finish(), nil
			}
		case isFrameLine(ln):
			if !r.open { // perf script -F ip,sym,dso prints an empty header line
				r.begin()
			}
			if err := r.frameLine(ln); err != nil {
				return nil, err
			}
		case r.afterFrame && ln[0] == ' ': // -F +srcline: the frame's source line
		case bytes.Contains(ln, sideBand): // --show-mmap-events and the like: no sample
			if r.open {
				return r.finish(), nil
			}
		default:
			if r.open {
				r.held, r.heldLn = true, ln // valid until the scanner reads on, in the next call
				return r.finish(), nil
			}
			if err := r.headerLine(ln); err != nil {
				return nil, err
			}
		}
	}
}

// sideBand marks what perf script --show-*-events prints between samples:
// "java 8271 57741.380765: PERF_RECORD_MMAP2 8271/8271: […]: r-xp /usr/lib/libm.so.6".
var sideBand = []byte(": PERF_RECORD_")

// readLine is the next line without its line end, the held one first.
func (r *Reader) readLine() ([]byte, bool) {
	if r.held {
		r.held = false
		return r.heldLn, true
	}
	if !r.sc.Scan() {
		return nil, false
	}
	r.line++
	ln := r.sc.Bytes()
	if len(ln) > 0 && ln[len(ln)-1] == '\r' {
		ln = ln[:len(ln)-1]
	}
	return ln, true
}

func (r *Reader) scanErr() error {
	err := r.sc.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return &inputerr.Error{File: r.name, Line: r.line + 1, Msg: lines.ErrTooLong.Error(), Err: lines.ErrTooLong}
	case err == cutline.ErrCut:
		return &inputerr.Error{File: r.name, Line: r.line + 1, Msg: err.Error(), Err: err}
	}
	return &inputerr.Error{File: r.name, Line: r.line + 1, Msg: "read: " + err.Error(), Err: err}
}

func (r *Reader) errorf(format string, args ...any) error {
	e := &inputerr.Error{File: r.name, Line: r.line, Msg: fmt.Sprintf(format, args...)}
	if !r.started && !r.open {
		e.Err = ErrNotPerfScript // the file's first line is no sample
	}
	return e
}

// begin starts a sample at the current line.
func (r *Reader) begin() {
	r.s = samples.Sample{Stack: r.s.Stack[:0]}
	r.open, r.at, r.hasTail, r.inTrace, r.afterFrame, r.inlined = true, r.line, false, false, false, 0
}

// finish ends the sample being read and returns it.
func (r *Reader) finish() *samples.Sample {
	if len(r.s.Stack) == 0 && r.hasTail {
		r.s.Stack = append(r.s.Stack, r.tail)
	}
	r.open, r.afterFrame = false, false
	if !r.started {
		r.started = true
		r.header.Event = r.s.Event
		if r.simpleperf {
			r.header.Format = FormatSimpleperf
		}
		r.header.Command = r.cmdline
		r.header.RateHz = r.freq
		if !r.sawEvent {
			r.header.RateHz = rateFromCmdline(r.cmdline, r.header.Format == FormatSimpleperf)
		}
	}
	return &r.s
}

// comment reads what `perf script --header` (and report_sample.py --header) says of the
// recording: "# cmdline : …" and the first "# event : …".
func (r *Reader) comment(ln []byte) {
	key, val, ok := bytes.Cut(ln[1:], []byte(" : "))
	if !ok {
		return
	}
	switch string(bytes.TrimSpace(key)) {
	case "cmdline":
		r.cmdline = string(bytes.TrimSpace(val))
		r.simpleperf = r.simpleperf || isSimpleperf(r.cmdline)
	case "event":
		if !r.sawEvent {
			r.sawEvent = true
			r.freq = freqOfEvent(string(val))
		}
	}
}

// freqOfEvent is the rate of an event perf sampled at a frequency: "{ sample_period,
// sample_freq } = 999, …, freq = 1"; 0 when it sampled every N events.
func freqOfEvent(attrs string) int {
	if !strings.Contains(attrs, ", freq = 1") {
		return 0
	}
	_, v, ok := strings.Cut(attrs, "sample_freq } = ")
	if !ok {
		if _, v, ok = strings.Cut(attrs, "sample_freq = "); !ok {
			return 0
		}
	}
	v, _, _ = strings.Cut(v, ",")
	n, ok := lines.Uint([]byte(v), math.MaxInt32)
	if !ok {
		return 0
	}
	return int(n)
}

// rateFromCmdline finds -F N, -FN, --freq N or --freq=N (simpleperf: -f too) among the options
// of a recorder's command line, before the profiled command's "--".
func rateFromCmdline(cmdline string, simpleperf bool) int {
	args := strings.Fields(cmdline)
	for i, a := range args {
		var v string
		switch {
		case a == "--":
			return 0
		case a == "-F" || a == "--freq" || simpleperf && a == "-f":
			if i+1 < len(args) {
				v = args[i+1]
			}
		case strings.HasPrefix(a, "--freq="):
			v = a[len("--freq="):]
		case strings.HasPrefix(a, "-F"):
			v = a[2:]
		default:
			continue
		}
		if n, ok := lines.Uint([]byte(v), math.MaxInt32); ok {
			return int(n)
		}
	}
	return 0
}

func isSimpleperf(cmdline string) bool {
	prog, _, _ := strings.Cut(cmdline, " ")
	return path.Base(prog) == "simpleperf"
}

// headerLine starts a sample at its header line.
func (r *Reader) headerLine(ln []byte) error {
	h, ok := r.parseHeader(ln)
	if !ok {
		return r.errorf("not a sample header or a frame: %q", lines.Clip(ln))
	}
	if err := r.inOrder(h); err != nil {
		return err
	}
	r.begin()
	r.s.Comm, r.s.Event = r.str(h.comm), r.str(h.event)
	r.s.PID, r.s.TID, r.s.TimeNS, r.s.Period = h.pid, h.tid, h.timeNS, h.period
	if h.tabbed && !r.started {
		r.simpleperf = true
	}
	if len(h.tail) > 0 {
		f, inlined, msg := r.parseFrame(h.tail)
		r.tail, r.hasTail = f, msg == "" && !inlined
	}
	return nil
}

// inOrder refuses a sample dated before the one before it: perf script prints a recording's
// samples in time order, so one that goes back comes from files spliced together or samples
// perf did not sort, and times measured from the first sample would go negative (issue 24,
// finding 13).
func (r *Reader) inOrder(h header) error {
	if !h.hasTime {
		return nil
	}
	if r.timed && h.timeNS < r.lastNS {
		return r.errorf("sample time %s is before the previous sample's %s: samples must be in time order "+
			"(perf script sorts them; do not splice recordings)", seconds(h.timeNS), seconds(r.lastNS))
	}
	r.lastNS, r.timed = h.timeNS, true
	return nil
}

// seconds writes a time as perf script does: seconds and microseconds, or nanoseconds when
// the time has them (--ns).
func seconds(ns int64) string {
	if ns%1000 == 0 {
		return fmt.Sprintf("%d.%06d", ns/1e9, ns%1e9/1e3)
	}
	return fmt.Sprintf("%d.%09d", ns/1e9, ns%1e9)
}

// frameLine adds a frame to the sample's stack, or skips simpleperf's tracing data.
func (r *Reader) frameLine(ln []byte) error {
	r.afterFrame = true
	if r.inTrace {
		return nil
	}
	if string(ln) == "\ttracing data:" {
		r.inTrace = true
		return nil
	}
	if len(r.s.Stack) >= MaxFrames {
		return r.errorf("a stack deeper than %d frames", MaxFrames)
	}
	f, inlined, msg := r.parseFrame(ln)
	if msg != "" {
		return r.errorf("%s: %q", msg, lines.Clip(bytes.TrimSpace(ln)))
	}
	if inlined {
		r.inlined++
	} else {
		for i := len(r.s.Stack) - r.inlined; i < len(r.s.Stack); i++ {
			r.s.Stack[i].Image = f.Image // an inlined function's code lies in its caller's image
		}
		r.inlined = 0
	}
	r.s.Stack = append(r.s.Stack, f)
	return nil
}

// isFrameLine tells a frame: a tab first (perf, simpleperf), or the address right-aligned in
// 16 columns and a tab (report_sample.py before 2017).
func isFrameLine(ln []byte) bool {
	if ln[0] == '\t' {
		return true
	}
	i := 0
	for i < len(ln) && ln[i] == ' ' {
		i++
	}
	j := i
	for j < len(ln) && isHex(ln[j]) {
		j++
	}
	return j > i && j < len(ln) && ln[j] == '\t'
}

// parseFrame reads "ADDR [SYMBOL[+0xOFF]] [(IMAGE)]", blanks around it; "(inlined)" in place
// of the image marks a function perf found inlined at the address. msg says what is wrong.
func (r *Reader) parseFrame(b []byte) (f samples.Frame, inlined bool, msg string) {
	b = bytes.TrimLeft(b, " \t")
	n := 0
	for n < len(b) && isHex(b[n]) {
		n++
	}
	if n == 0 || n < len(b) && b[n] != ' ' && b[n] != '\t' {
		return f, false, "a frame must start with its address in hex"
	}
	addr, ok := hexUint(b[:n])
	if !ok {
		return f, false, "an address longer than 64 bits"
	}
	f.Addr = addr
	rest := bytes.TrimRight(bytes.TrimLeft(b[n:], " \t"), " \t")
	sym := rest
	var image []byte
	if k := openParen(rest); k >= 0 {
		sym, image = bytes.TrimRight(rest[:k], " \t"), rest[k+1:len(rest)-1]
	}
	if string(image) == "inlined" {
		image, inlined = nil, true
	}
	f.Image = r.str(image)
	f.Symbol = r.str(r.symbol(sym, image))
	return f, inlined, ""
}

// openParen finds where the image in parentheses at the end of a frame starts: the '(' that
// matches its last ')' and follows a blank, so "operator new(unsigned long)" stays a symbol
// and "(/memfd:jit-cache (deleted))" stays one image; -1 when there is none.
func openParen(b []byte) int {
	if len(b) == 0 || b[len(b)-1] != ')' {
		return -1
	}
	depth := 0
	for i := len(b) - 1; i >= 0; i-- {
		switch b[i] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				if i == 0 || b[i-1] == ' ' || b[i-1] == '\t' {
					return i
				}
				return -1
			}
		}
	}
	return -1
}

// symbol is a frame's symbol without its offset, empty when the recorder had no name: perf's
// "[unknown]", simpleperf's "unknown" or "IMAGE[+ADDR]".
func (r *Reader) symbol(sym, image []byte) []byte {
	if i := bytes.LastIndex(sym, []byte("+0x")); i >= 0 && allHex(sym[i+3:]) {
		sym = sym[:i]
	}
	switch {
	case string(sym) == "[unknown]":
		return nil
	case r.simpleperf && string(sym) == "unknown":
		return nil
	case r.simpleperf && bytes.HasSuffix(sym, []byte("]")):
		if i := bytes.LastIndex(sym, []byte("[+")); i >= 0 && allHex(sym[i+2:len(sym)-1]) &&
			string(bytes.TrimPrefix(sym[:i], []byte("*"))) == path.Base(string(image)) {
			return nil
		}
	}
	return sym
}

// header is what a sample's header line says.
type header struct {
	comm, event []byte
	pid, tid    int
	timeNS      int64
	period      uint64
	hasEvent    bool
	hasTime     bool
	tabbed      bool   // a tab follows the thread name, as report_sample.py prints it
	tail        []byte // what follows the fields: a frame without a call chain, or event data
}

// parseHeader reads "[COMM] [PID/TID|TID] [[CPU]] [SECS.FRAC:] [PERIOD] [EVENT:] [TAIL]", each
// field present or not as perf script's -F chose. The thread name may hold blanks and digits,
// so the fields are tried from each word on: the first reading with an event wins, else the
// first that reads at all.
func (r *Reader) parseHeader(ln []byte) (header, bool) {
	r.toks = r.toks[:0]
	for i := 0; i < len(ln) && len(r.toks) < cap(r.toks); {
		for i < len(ln) && (ln[i] == ' ' || ln[i] == '\t') {
			i++
		}
		j := i
		for j < len(ln) && ln[j] != ' ' && ln[j] != '\t' {
			j++
		}
		if j > i {
			r.toks = append(r.toks, span{i, j})
		}
		i = j
	}
	var first header
	found := false
	for i := 0; i < len(r.toks) && i <= maxCommFields; i++ {
		h, ok := r.fieldsFrom(ln, i)
		if ok && h.hasEvent {
			return h, true
		}
		if ok && !found {
			first, found = h, true
		}
	}
	return first, found
}

// fieldsFrom reads the header's fields from word i on; the words before it are the thread name.
func (r *Reader) fieldsFrom(ln []byte, i int) (header, bool) {
	var h header
	toks := r.toks
	tok := func(j int) []byte { return ln[toks[j].from:toks[j].to] }
	j, anchored := i, false
	if j < len(toks) {
		if pid, tid, ok := parseIDs(tok(j)); ok {
			h.pid, h.tid, anchored = pid, tid, true
			j++
		}
	}
	if j < len(toks) && isCPU(tok(j)) {
		j++
	}
	if j < len(toks) {
		if t, ok := parseTime(tok(j)); ok {
			h.timeNS, h.hasTime, anchored = t, true, true
			j++
		}
	}
	if !anchored {
		return h, false
	}
	if j+1 < len(toks) && isEvent(tok(j+1)) {
		if p, ok := lines.Uint(tok(j), math.MaxUint64); ok {
			h.period = p
			j++
		}
	}
	if j < len(toks) && isEvent(tok(j)) {
		e := tok(j)
		h.event, h.hasEvent = e[:len(e)-1], true
		j++
	}
	if j < len(toks) {
		h.tail = ln[toks[j].from:]
		if !h.hasEvent && !startsWithAddr(h.tail) {
			return h, false // words no field reads: a longer thread name, or no header
		}
	}
	if i > 0 {
		h.comm = bytes.TrimLeft(ln[:toks[i-1].to], " ") // perf pads the name to 16 columns
		h.tabbed = ln[toks[i].from-1] == '\t'
	}
	return h, true
}

// parseIDs reads "PID/TID" or a lone "TID" (perf script's default prints only the thread);
// perf prints -1 for a thread it does not know.
func parseIDs(b []byte) (pid, tid int, ok bool) {
	p, t, both := bytes.Cut(b, []byte("/"))
	if !both {
		tid, ok = parseID(b)
		return 0, tid, ok
	}
	pid, ok1 := parseID(p)
	tid, ok2 := parseID(t)
	return pid, tid, ok1 && ok2
}

func parseID(b []byte) (int, bool) {
	if string(b) == "-1" {
		return -1, true
	}
	v, ok := lines.Uint(b, math.MaxInt32)
	return int(v), ok
}

// isCPU reads "[001]".
func isCPU(b []byte) bool {
	if len(b) < 3 || b[0] != '[' || b[len(b)-1] != ']' {
		return false
	}
	_, ok := lines.Uint(b[1:len(b)-1], math.MaxInt32)
	return ok
}

// parseTime reads "SECS.FRAC:", microseconds or (perf script --ns) nanoseconds.
func parseTime(b []byte) (int64, bool) {
	if len(b) < 4 || b[len(b)-1] != ':' {
		return 0, false
	}
	secs, frac, ok := bytes.Cut(b[:len(b)-1], []byte("."))
	if !ok || len(frac) == 0 || len(frac) > 9 {
		return 0, false
	}
	s, ok1 := lines.Uint(secs, math.MaxInt64/1_000_000_000-1)
	f, ok2 := lines.Uint(frac, math.MaxInt64)
	if !ok1 || !ok2 {
		return 0, false
	}
	for range 9 - len(frac) {
		f *= 10
	}
	return int64(s)*1e9 + int64(f), true
}

// isEvent tells an event's name and its colon, "cpu-clock:", "sched:sched_switch:", from a
// number or a time.
func isEvent(b []byte) bool {
	if len(b) < 2 || b[len(b)-1] != ':' {
		return false
	}
	for _, c := range b {
		if (c < '0' || c > '9') && c != '.' && c != ':' {
			return true
		}
	}
	return false
}

// startsWithAddr tells a frame on the header line (perf script without a call chain).
func startsWithAddr(b []byte) bool {
	n := 0
	for n < len(b) && isHex(b[n]) {
		n++
	}
	return n > 0 && n <= 16 && (n == len(b) || b[n] == ' ' || b[n] == '\t')
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func allHex(b []byte) bool {
	for _, c := range b {
		if !isHex(c) {
			return false
		}
	}
	return len(b) > 0
}

func hexUint(b []byte) (uint64, bool) {
	for len(b) > 1 && b[0] == '0' {
		b = b[1:]
	}
	if len(b) > 16 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		switch {
		case c >= 'a':
			c -= 'a' - 10
		case c >= 'A':
			c -= 'A' - 10
		default:
			c -= '0'
		}
		v = v<<4 | uint64(c)
	}
	return v, true
}

// str is b as a string, the same string for the same bytes while there are not too many.
func (r *Reader) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if s, ok := r.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(r.names) < maxNames {
		r.names[s] = s
	}
	return s
}

// Sniff answers format detection from a file's first bytes: nil when they start as perf
// script text, an error wrapping ErrNotPerfScript when they do not. The first sample must read
// plainly: a header with a time and an event, or a header or an empty line followed by a
// frame, or (without call chains) two headers with times that each carry a frame with its
// image. Comment lines and side-band events before it are skipped.
func Sniff(head []byte) error {
	// perf's --header banner is its own: a recording with no sample, or one cut short inside
	// its header, is still perf script text, refused at its place rather than as unknown.
	if first, _, _ := bytes.Cut(head, []byte("\n")); string(bytes.TrimSuffix(first, []byte("\r"))) == headerBanner {
		return nil
	}
	r := NewReader(nil, "")
	rest := head
	var prev *header
	for len(rest) > 0 {
		var ln []byte
		ln, rest, _ = bytes.Cut(rest, []byte("\n"))
		ln = bytes.TrimSuffix(ln, []byte("\r"))
		switch {
		case prev == nil && len(ln) > 0 && ln[0] == '#':
			continue
		case prev == nil && (len(ln) == 0 || bytes.Contains(ln, sideBand)):
			continue
		case len(ln) == 0:
			return ErrNotPerfScript
		case isFrameLine(ln):
			// after a header any frame; first in the file (-F ip,sym,dso) one with its image
			if f, _, msg := r.parseFrame(ln); msg == "" && (prev != nil || f.Image != "") {
				return nil
			}
			return ErrNotPerfScript
		}
		h, ok := r.parseHeader(ln)
		switch {
		case !ok:
			return ErrNotPerfScript
		case h.hasTime && h.hasEvent:
			return nil
		case prev != nil:
			if framed(r, *prev) && framed(r, h) && prev.hasTime && h.hasTime {
				return nil
			}
			return ErrNotPerfScript
		}
		prev = &h
	}
	return ErrNotPerfScript
}

// framed says a header line carries a frame with its image.
func framed(r *Reader, h header) bool {
	if len(h.tail) == 0 {
		return false
	}
	f, _, msg := r.parseFrame(h.tail)
	return msg == "" && f.Image != ""
}
