package qemulog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"androprof/formats/internal/blocks"
	"androprof/internal/countio"
	"androprof/internal/inputerr"
	"androprof/model"
	"androprof/model/cost"
)

// ImportLogs streams QEMU logs into sink: `-d in_asm,exec,nochain` logs in every layout of
// docs/formats.md#qemu-execution-lines, `-d in_asm` logs alone, or translation and execution logs of the same
// program in separate files. paths are the log files (formats.ExpandDirs lists a folder's), and
// each must be a QEMU log: nothing is skipped silently. isas is what the guest may run (see
// NewReader).
//
// Processes. A log cannot tell processes apart (docs/formats.md#processes-and-threads-in-qemu-logs), so file names do: when the
// files of one call differ only by the last run of digits before the extension, as
// `-D log_%d.txt` names do, each number is a pid. Otherwise every file belongs to one process,
// pid 1 (so is a single file). `-d tid` names files by thread id instead; a numbered file whose first Trace line
// comes from a vCPU other than 0 is such a thread file (a process starts on vCPU 0), and joins
// the process file numbered closest below it, as Linux hands out thread ids after their
// process's id. Process names come from the file names.
//
// Threads are vCPU indices (each user-mode guest thread is its own vCPU); logs that print no
// index give thread 0.
//
// Blocks are sent as they are read, once per (pid, pc, instruction set); a re-translation of
// the same code is not sent again. Execution counts are kept per (thread, pc, instruction
// set) in a map and sent at the end of each file. Memory therefore grows with the number of
// distinct blocks, never with the size of the logs. A Trace line that prints no mode (QEMU
// before 6.1), or a mode no translation at its pc has, counts for the block first translated
// at that pc. A "Stopped execution" line takes back the Trace line of the block QEMU did not
// run after all. Executions whose block no file translates are an error naming the file and
// line of the first of them; so is a log written without nochain, whose chained blocks have
// no Trace lines. A single log fails at once at such a line: QEMU logs a block's translation
// before the block first runs, so in one log a translation that has not come never will, and
// its executions are not kept to the end (counts of blocks another file may translate are).
func ImportLogs(ctx context.Context, paths []string, isas []cost.ISA, sink cost.BlockSink, progress func(done, total int64)) error {
	if len(paths) == 0 {
		return errors.New("no log files given")
	}
	p := countio.NewProgress(ctx, progress)
	logs := make([]Input, len(paths))
	for i, name := range paths {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil {
			p.Expect(st.Size())
		}
		logs[i] = Input{Name: name, R: &countio.Reader{R: f, Progress: p}}
	}
	if err := ReadLogs(logs, isas, sink); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	p.Finish()
	return nil
}

// Input is one QEMU log for ReadLogs: its name (a path: errors and process names come from
// it) and its content from the start. A log that can seek (a regular file) may be one of a
// set of numbered process or thread files; ReadLogs reads its start first to tell which.
type Input struct {
	Name string
	R    io.Reader
}

// ReadLogs is ImportLogs on logs already open: the files of one import, which an importer
// opened, recognised and counts progress and cancellation on.
func ReadLogs(logs []Input, isas []cost.ISA, sink cost.BlockSink) error {
	files := make([]logFile, len(logs))
	for i, l := range logs {
		files[i] = logFile{Input: l, regular: canSeek(l.R)}
	}
	for _, p := range assignProcesses(files, isas) {
		if err := sink.Process(p); err != nil {
			return err
		}
	}
	im := &importer{
		sink: sink, isas: isas, known: map[cost.BlockKey]struct{}{}, atPC: map[pidPC]cost.ISA{},
		threads: map[pidTID]bool{}, counts: map[execKey]*execCount{}, fast: map[uint64]*execCount{},
		single: len(files) == 1,
	}
	for i := range files {
		if err := im.file(i, &files[i]); err != nil {
			return err
		}
	}
	return im.finish(files)
}

// logFile is one input file and the process it belongs to.
type logFile struct {
	Input
	regular bool // may be read twice (pipes may not)
	pid     int
}

// canSeek tells a regular file from a pipe.
func canSeek(r io.Reader) bool {
	s, ok := r.(io.Seeker)
	if !ok {
		return false
	}
	_, err := s.Seek(0, io.SeekCurrent)
	return err == nil
}

// fileNumber splits a file name around the last run of digits before its extension:
// "sieve_5140.log" is ("sieve_", 5140, ".log").
type fileNumber struct {
	dir, prefix, suffix string
	num                 int
	ok                  bool
}

func splitFileNumber(path string) fileNumber {
	base := filepath.Base(path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	end := len(stem)
	for end > 0 && !isDigit(stem[end-1]) {
		end--
	}
	start := end
	for start > 0 && isDigit(stem[start-1]) {
		start--
	}
	n, err := strconv.Atoi(stem[start:end])
	if end == 0 || err != nil || end-start > 9 {
		return fileNumber{}
	}
	return fileNumber{dir: filepath.Dir(path), prefix: stem[:start], suffix: base[end:], num: n, ok: true}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// assignProcesses gives each file its pid by the rule in ImportLogs' comment.
func assignProcesses(files []logFile, isas []cost.ISA) []model.Process {
	nums := make([]fileNumber, len(files))
	numbered := len(files) > 1
	seen := map[int]bool{}
	for i, f := range files {
		nums[i] = splitFileNumber(f.Name)
		n := nums[i]
		if !n.ok || !f.regular || seen[n.num] || n.dir != nums[0].dir || n.prefix != nums[0].prefix || n.suffix != nums[0].suffix {
			numbered = false
		}
		seen[n.num] = true
	}
	if !numbered {
		for i := range files {
			files[i].pid = 1
		}
		base := filepath.Base(files[0].Name)
		return []model.Process{{PID: 1, Name: strings.TrimSuffix(base, filepath.Ext(base))}}
	}
	name := strings.Trim(nums[0].prefix+strings.TrimSuffix(nums[0].suffix, filepath.Ext(nums[0].suffix)), "_-. ")
	var owners []int // numbers of process files, ascending
	for i, f := range files {
		if firstCPU(f.Input, isas) <= 0 {
			owners = append(owners, nums[i].num)
		}
	}
	slices.Sort(owners)
	if len(owners) == 0 { // only thread files: call them one process
		owners = []int{slices.MinFunc(nums, func(a, b fileNumber) int { return cmp.Compare(a.num, b.num) }).num}
	}
	var procs []model.Process
	for i := range files {
		n := nums[i].num
		pid := owners[0]
		for _, o := range owners {
			if o <= n {
				pid = o
			}
		}
		files[i].pid = pid
		if !slices.ContainsFunc(procs, func(p model.Process) bool { return p.PID == pid }) {
			pname := name
			if pname == "" {
				pname = "process " + strconv.Itoa(pid)
			}
			procs = append(procs, model.Process{PID: pid, Name: pname})
		}
	}
	return procs
}

// firstCPU is the vCPU index of a log's first Trace line, -1 when it has none in its first
// few MiB or cannot be read (the import proper reports why). It seeks the log back to its start.
func firstCPU(in Input, isas []cost.ISA) int {
	defer in.R.(io.Seeker).Seek(0, io.SeekStart)
	lr := NewReader(io.LimitReader(in.R, 4<<20), in.Name, isas)
	for {
		k, err := lr.scan()
		if err != nil {
			return -1
		}
		if k == kindExec {
			return lr.ex.CPU
		}
	}
}

type pidPC struct {
	pid int
	pc  uint64
}

type pidTID struct{ pid, tid int }

// execKey is the hot map's key: one file, so one pid.
type execKey struct {
	pc  uint64
	cpu int32
	isa isaCode
}

type execCount struct {
	n    int64
	line int64 // first Trace line, for errors
}

// unmatched is a count whose block no file read so far translates.
type unmatched struct {
	pid, tid int
	pc       uint64
	isa      cost.ISA
	n        int64
	file     int
	line     int64
}

type importer struct {
	sink    cost.BlockSink
	isas    []cost.ISA
	known   map[cost.BlockKey]struct{}
	atPC    map[pidPC]cost.ISA // the mode of the first block translated at a pc
	threads map[pidTID]bool
	counts  map[execKey]*execCount // one file's counts; keys packKey cannot fold
	fast    map[uint64]*execCount  // one file's counts by packKey
	pending []unmatched
	single  bool // one log: no other file can translate what it executes
}

func (im *importer) file(idx int, lf *logFile) error {
	lr := NewReader(lf.R, lf.Name, im.isas)
	counts, fast := im.counts, im.fast
	clear(counts)
	clear(fast)
	lastKey, last := ^uint64(0), (*execCount)(nil) // no packed key is all ones
	pid := lf.pid
	for {
		k, err := lr.scan()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if k == kindExec {
			// A loop block runs many times in a row: one compare often saves the map lookup.
			key, packed := packKey(lr.ex.PC, lr.ex.CPU, lr.exCode)
			switch {
			case packed && key == lastKey:
				last.n++
			case packed:
				c := fast[key]
				if c == nil {
					if err := im.untranslated(pid, lr); err != nil {
						return err
					}
					c = &execCount{line: lr.line}
					fast[key] = c
				}
				c.n++
				lastKey, last = key, c
			default:
				key := execKey{lr.ex.PC, int32(lr.ex.CPU), lr.exCode}
				c := counts[key]
				if c == nil {
					if err := im.untranslated(pid, lr); err != nil {
						return err
					}
					c = &execCount{line: lr.line}
					counts[key] = c
				}
				c.n++
			}
		} else if k == kindStopped {
			if key, packed := packKey(lr.ex.PC, lr.ex.CPU, lr.exCode); packed {
				fast[key].n--
			} else {
				counts[execKey{lr.ex.PC, int32(lr.ex.CPU), lr.exCode}].n--
			}
		} else if err := im.block(pid, lr.out); err != nil {
			return &inputerr.Error{File: lf.Name, Line: lr.line, Err: err}
		}
	}
	for k, c := range fast {
		counts[unpackKey(k)] = c
	}
	return im.flush(idx, lf, counts)
}

// packKey folds an execution key into one word, so the hot map hashes a uint64: pcs below
// 2^44 (every 32-bit guest), vCPU indices -1 to 4094.
func packKey(pc uint64, cpu int, isa isaCode) (uint64, bool) {
	if pc >= 1<<44 || cpu < -1 || cpu >= 1<<12-1 {
		return 0, false
	}
	return pc | uint64(cpu+1)<<44 | uint64(isa)<<56, true
}

func unpackKey(k uint64) execKey {
	return execKey{pc: k & (1<<44 - 1), cpu: int32(k>>44&(1<<12-1)) - 1, isa: isaCode(k >> 56)}
}

// untranslated fails a single log at the first execution of a block it has not translated
// before (see ImportLogs); with several logs, a later one may translate it.
func (im *importer) untranslated(pid int, lr *Reader) error {
	if !im.single {
		return nil
	}
	if _, ok := im.resolve(pid, lr.ex.PC, lr.ex.ISA); ok {
		return nil
	}
	return lr.errorf("the block at 0x%x executed here has no translation before it, and QEMU logs a block's translation before it runs: give the -d in_asm output together with the exec log", lr.ex.PC)
}

func (im *importer) block(pid int, b *cost.Block) error {
	k := cost.BlockKey{PID: pid, PC: b.PC, ISA: b.ISA}
	if _, ok := im.known[k]; ok {
		return nil // a re-translation of the same code
	}
	im.known[k] = struct{}{}
	if _, ok := im.atPC[pidPC{pid, b.PC}]; !ok {
		im.atPC[pidPC{pid, b.PC}] = b.ISA
	}
	blocks.Classify(b)
	return im.sink.Block(pid, b)
}

// resolve finds the block a count belongs to: its own key, or the block translated at its pc
// when the Trace line did not tell the mode or told another one.
func (im *importer) resolve(pid int, pc uint64, isa cost.ISA) (cost.ISA, bool) {
	if isa != "" {
		if _, ok := im.known[cost.BlockKey{PID: pid, PC: pc, ISA: isa}]; ok {
			return isa, true
		}
	}
	a, ok := im.atPC[pidPC{pid, pc}]
	return a, ok
}

// flush sends one file's counts, in a stable order, and keeps those whose block has not been
// read yet for finish.
func (im *importer) flush(idx int, lf *logFile, counts map[execKey]*execCount) error {
	keys := make([]execKey, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b execKey) int {
		return cmp.Or(cmp.Compare(a.cpu, b.cpu), cmp.Compare(a.pc, b.pc), cmp.Compare(a.isa, b.isa))
	})
	for _, k := range keys {
		c := counts[k]
		if c.n == 0 { // its only executions were stopped
			continue
		}
		isa := isaByCode[k.isa]
		if k.isa == isaOther {
			isa = im.isas[0]
		}
		u := unmatched{pid: lf.pid, tid: max(int(k.cpu), 0), pc: k.pc, isa: isa, n: c.n, file: idx, line: c.line}
		if err := im.send(u); err != nil {
			return &inputerr.Error{File: lf.Name, Line: u.line, Err: err}
		}
	}
	return nil
}

func (im *importer) send(u unmatched) error {
	isa, ok := im.resolve(u.pid, u.pc, u.isa)
	if !ok {
		im.pending = append(im.pending, u)
		return nil
	}
	if t := (pidTID{u.pid, u.tid}); !im.threads[t] {
		im.threads[t] = true
		if err := im.sink.Thread(model.Thread{PID: u.pid, TID: u.tid, Name: fmt.Sprintf("vCPU %d", u.tid)}); err != nil {
			return err
		}
	}
	return im.sink.Count(u.pid, u.tid, u.pc, isa, u.n)
}

// finish sends the counts whose translation came in a later file, and fails on the rest.
func (im *importer) finish(files []logFile) error {
	pending := im.pending
	im.pending = nil
	for _, u := range pending {
		if err := im.send(u); err != nil {
			return &inputerr.Error{File: files[u.file].Name, Line: u.line, Err: err}
		}
	}
	if len(im.pending) == 0 {
		return nil
	}
	first := slices.MinFunc(im.pending, func(a, b unmatched) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
	})
	var execs int64
	for _, u := range im.pending {
		execs += u.n
	}
	return &inputerr.Error{File: files[first.file].Name, Line: first.line, Msg: fmt.Sprintf(
		"the block at 0x%x executed here has no translation in the logs (%d untranslated blocks, %d executions in all): give the -d in_asm output together with the exec log",
		first.pc, len(im.pending), execs)}
}
