package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"androprof/model"
	"androprof/model/cost"
)

// ImportRun streams one import into the run called name (created when new; an existing
// emulator run gains the new processes, so several programs can share a run; a run of another
// kind is refused). feed calls the Sink it is
// given; everything happens in one transaction, so an error or a cancelled ctx leaves the
// database exactly as it was.
func (db *DB) ImportRun(ctx context.Context, name, source string, feed func(cost.BlockSink) error) error {
	if err := model.CheckRunName(name); err != nil {
		return err
	}
	var codes map[[32]byte]int64
	var gen int
	err := db.importTx(ctx, func(tx *writeTx) error {
		var err error
		if gen, err = db.codes.begin(ctx, tx.Tx); err != nil {
			return err
		}
		s, err := newRunSink(ctx, tx, name, source, &db.codes)
		if err != nil {
			return err
		}
		defer s.close()
		if err := feed(s); err != nil {
			return err
		}
		codes = s.code.ids
		return s.finish()
	})
	if err == nil {
		db.codes.commit(gen, codes)
	}
	return err
}

// runSink is the store's model.BlockSink, model.ImageSink and cost.CacheSink. A block's code
// (block_code, code_insn) is written as it arrives, unless the workspace has it already; the
// blocks, their counts and misses are kept in memory (one entry per block, and per thread and
// block) and written at the end with the derived tables.
type runSink struct {
	ctx    context.Context
	tx     *writeTx
	runID  int64
	name   string
	procs  map[int]int64 // pid → process row
	images map[imageKey]int64
	thrds  map[[2]int]int64
	mnems  map[cost.Instruction]int64
	blks   map[cost.BlockKey]*blockRow
	order  []*blockRow // the blocks in the order they came, by id
	execs  map[execKey]int64
	stmts  map[string]*sql.Stmt
	code   *codeWriter
	// The blocks' ids, taken as they come: counts and misses name them before they are
	// written. nextID is the next block's.
	nextID int64
	ops    int
	cache  runCache
}

type blockRow struct {
	id      int64
	procID  int64
	pc      uint64
	isa     cost.ISA
	nInsns  int
	imageID int64 // 0: none named
	codeID  int64
	symbol  string
	mix     []mixEntry
}

type imageKey struct {
	pid  int
	path string
}

type mixEntry struct {
	mnemonic int64
	n        int64
}

type execKey struct{ thread, block int64 }

// runInserts are written many rows to a statement (rowInserter), the bulk of an import.
var runInserts = map[string]string{
	"block":    `INSERT INTO block(id, process_id, pc, isa, symbol, n_insns, mix, image_id, code_id, executions) VALUES (?,?,?,?,?,?,?,?,?,?)`,
	"exec":     `INSERT INTO block_exec(thread_id, block_id, count) VALUES (?,?,?)`,
	"procInsn": `INSERT INTO process_insn(process_id, mnemonic_id, count) VALUES (?,?,?)`,
	"funcInsn": `INSERT INTO function_insn(process_id, image_id, symbol, mnemonic_id, count) VALUES (?,?,?,?,?)`,
}

// runStatements are prepared once per import and run a row at a time: rows whose ids the
// import needs back.
var runStatements = map[string]string{
	"process":  `INSERT INTO process(run_id, pid, parent_pid, name) VALUES (?,?,?,?)`,
	"thread":   `INSERT INTO thread(process_id, tid, name) VALUES (?,?,?)`,
	"mnemonic": `INSERT INTO mnemonic(isa, text) VALUES (?,?) ON CONFLICT(isa, text) DO UPDATE SET text = excluded.text RETURNING id`,
	"image":    `INSERT INTO image(process_id, path, name, kind, base, symbols) VALUES (?,?,?,?,?,?)`,
	"syscall":  `INSERT INTO syscall(thread_id, number, name, count, insns) VALUES (?,?,?,?,?) ON CONFLICT(thread_id, number) DO UPDATE SET count = count + excluded.count, insns = insns + excluded.insns`,
}

func newRunSink(ctx context.Context, tx *writeTx, name, source string, knownCodes *codeCache) (*runSink, error) {
	s := &runSink{ctx: ctx, tx: tx, name: name, procs: map[int]int64{}, images: map[imageKey]int64{}, thrds: map[[2]int]int64{},
		mnems: map[cost.Instruction]int64{}, blks: map[cost.BlockKey]*blockRow{},
		execs: map[execKey]int64{}, stmts: map[string]*sql.Stmt{}}
	var kind model.RunKind
	err := tx.QueryRowContext(ctx, `SELECT id, kind FROM run WHERE name = ?`, name).Scan(&s.runID, &kind)
	if errors.Is(err, sql.ErrNoRows) {
		res, err := tx.ExecContext(ctx, `INSERT INTO run(name, source) VALUES (?, ?)`, name, source)
		if err != nil {
			return nil, err
		}
		s.runID, _ = res.LastInsertId()
	} else if err != nil {
		return nil, err
	} else if kind != model.RunKindEmulator {
		return nil, fmt.Errorf("run %q is %s: emulator blocks go into an emulator run (name another run)", name, model.RunKindText(kind))
	} else if _, err := tx.ExecContext(ctx, `UPDATE run SET source = source || '; ' || ? WHERE id = ?`, source, s.runID); err != nil {
		return nil, err
	}
	if err := s.loadCache(); err != nil {
		return nil, err
	}
	// Blocks are written at the end, so their ids are taken here: the transaction holds the
	// write lock, so nothing else takes them.
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) + 1 FROM block`).Scan(&s.nextID); err != nil {
		return nil, err
	}
	if s.code, err = newCodeWriter(ctx, tx, knownCodes); err != nil {
		return nil, err
	}
	if err := s.loadMnemonics(); err != nil {
		return nil, err
	}
	for k, q := range runStatements {
		st, err := tx.prepare(ctx, q)
		if err != nil {
			s.close()
			return nil, err
		}
		s.stmts[k] = st
	}
	return s, nil
}

func (s *runSink) close() {
	for _, st := range s.stmts {
		st.Close()
	}
	if s.code != nil {
		s.code.close()
	}
}

// tick checks for cancellation every few thousand writes, cheap enough for the hot path.
func (s *runSink) tick() error {
	s.ops++
	if s.ops%4096 == 0 {
		return s.ctx.Err()
	}
	return nil
}

func (s *runSink) Process(p model.Process) error {
	if _, dup := s.procs[p.PID]; dup {
		return fmt.Errorf("process %d appears twice in this import", p.PID)
	}
	res, err := s.stmts["process"].ExecContext(s.ctx, s.runID, p.PID, p.ParentPID, p.Name)
	if err != nil {
		if isUniqueViolation(err) {
			return fmt.Errorf("the run already has a process %d: import into a new run or another pid", p.PID)
		}
		return err
	}
	s.procs[p.PID], _ = res.LastInsertId()
	return nil
}

// process returns the row of pid, creating an unnamed process for readers that know no names.
func (s *runSink) process(pid int) (int64, error) {
	if id, ok := s.procs[pid]; ok {
		return id, nil
	}
	if err := s.Process(model.Process{PID: pid}); err != nil {
		return 0, err
	}
	return s.procs[pid], nil
}

func (s *runSink) Thread(t model.Thread) error {
	_, err := s.thread(t.PID, t.TID, t.Name)
	return err
}

func (s *runSink) thread(pid, tid int, name string) (int64, error) {
	if id, ok := s.thrds[[2]int{pid, tid}]; ok {
		return id, nil
	}
	pr, err := s.process(pid)
	if err != nil {
		return 0, err
	}
	res, err := s.stmts["thread"].ExecContext(s.ctx, pr, tid, name)
	if err != nil {
		return 0, err
	}
	id, _ := res.LastInsertId()
	s.thrds[[2]int{pid, tid}] = id
	return id, nil
}

// Image writes an image of a process; blocks name it by its path.
func (s *runSink) Image(im cost.Image) error {
	key := imageKey{im.PID, im.Path}
	if _, dup := s.images[key]; dup {
		return nil
	}
	procID, err := s.process(im.PID)
	if err != nil {
		return err
	}
	res, err := s.stmts["image"].ExecContext(s.ctx, procID, im.Path, im.Name, string(im.Kind), int64(im.Base), im.Symbols)
	if err != nil {
		return err
	}
	s.images[key], _ = res.LastInsertId()
	return nil
}

// Syscall adds a thread's count of one system call.
func (s *runSink) Syscall(sc cost.Syscall) error {
	if sc.Count < 0 || sc.Insns < 0 {
		return fmt.Errorf("negative count for system call %d of thread %d", sc.Number, sc.TID)
	}
	th, err := s.thread(sc.PID, sc.TID, "")
	if err != nil {
		return err
	}
	_, err = s.stmts["syscall"].ExecContext(s.ctx, th, sc.Number, sc.Name, sc.Count, sc.Insns)
	return err
}

// loadMnemonics reads the catalogue of mnemonics the workspace knows (a few thousand at
// most): asking for each of an import's hundreds one by one is a tenth of its time.
func (s *runSink) loadMnemonics() error {
	rows, err := s.tx.QueryContext(s.ctx, `SELECT id, isa, text FROM mnemonic`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var isa, text string
		if err := rows.Scan(&id, &isa, &text); err != nil {
			return err
		}
		s.mnems[cost.Instruction{ISA: cost.ISA(isa), Mnemonic: text}] = id
	}
	return rows.Err()
}

func (s *runSink) mnemonic(in cost.Instruction) (int64, error) {
	if id, ok := s.mnems[in]; ok {
		return id, nil
	}
	var id int64
	if err := s.stmts["mnemonic"].QueryRowContext(s.ctx, string(in.ISA), in.Mnemonic).Scan(&id); err != nil {
		return 0, err
	}
	s.mnems[in] = id
	return id, nil
}

// Block writes a block and its instructions; a re-translation of a known key is ignored.
func (s *runSink) Block(pid int, b *cost.Block) error {
	key := cost.BlockKey{PID: pid, PC: b.PC, ISA: b.ISA}
	if _, seen := s.blks[key]; seen {
		return nil
	}
	if len(b.Insns) == 0 {
		return fmt.Errorf("block at 0x%x has no instructions", b.PC)
	}
	if err := s.checkSimulated(pid); err != nil {
		return err
	}
	procID, err := s.process(pid)
	if err != nil {
		return err
	}
	ids := make([]int64, len(b.Insns))
	counts := map[int64]int64{}
	var order []int64
	for i, in := range b.Insns {
		id, err := s.mnemonic(cost.Instruction{ISA: b.ISA, Mnemonic: in.ClassOrMnemonic()})
		if err != nil {
			return err
		}
		ids[i] = id
		if counts[id] == 0 {
			order = append(order, id)
		}
		counts[id]++
	}
	row := &blockRow{id: s.nextID, procID: procID, pc: b.PC, isa: b.ISA, nInsns: len(b.Insns), symbol: b.Symbol}
	s.nextID++
	if err := s.code.add(row, b, ids); err != nil {
		return err
	}
	if b.Image != "" {
		id, ok := s.images[imageKey{pid, b.Image}]
		if !ok {
			return fmt.Errorf("block at 0x%x is in image %s, which process %d does not have", b.PC, b.Image, pid)
		}
		row.imageID = id
	}
	for _, id := range order {
		row.mix = append(row.mix, mixEntry{id, counts[id]})
	}
	s.blks[key] = row
	s.order = append(s.order, row)
	return s.tick()
}

// mixBlob encodes a block's mix for block.mix: uvarint pairs (mnemonic id, occurrences).
func mixBlob(mix []mixEntry) []byte {
	var out []byte
	for _, m := range mix {
		out = binary.AppendUvarint(out, uint64(m.mnemonic))
		out = binary.AppendUvarint(out, uint64(m.n))
	}
	return out
}

func (s *runSink) Count(pid, tid int, pc uint64, isa cost.ISA, n int64) error {
	b, ok := s.blks[cost.BlockKey{PID: pid, PC: pc, ISA: isa}]
	if !ok {
		return fmt.Errorf("process %d executed a %s block at 0x%x that has no instructions in the input", pid, isa, pc)
	}
	if n < 0 {
		return fmt.Errorf("negative execution count %d for the block at 0x%x", n, pc)
	}
	th, err := s.thread(pid, tid, "")
	if err != nil {
		return err
	}
	s.execs[execKey{th, b.id}] += n
	return s.tick()
}

// finish writes the blocks with their executions (summed over threads), the counts and
// misses, and derives per-process and per-function instruction counts.
func (s *runSink) finish() error {
	if err := s.code.flush(); err != nil {
		return err
	}
	firstID := s.nextID - int64(len(s.order))
	executions := make([]int64, len(s.order))
	for k, n := range s.execs {
		executions[k.block-firstID] += n
	}
	blocks := newRowInserter(s.ctx, s.tx, runInserts["block"])
	defer blocks.close()
	for i, b := range s.order {
		if err := blocks.add(b.id, b.procID, int64(b.pc), string(b.isa), b.symbol, b.nInsns, mixBlob(b.mix), b.imageID, b.codeID, executions[i]); err != nil {
			return err
		}
	}
	if err := blocks.flush(); err != nil {
		return err
	}
	type procMnem struct{ proc, mnem int64 }
	type funcMnem struct {
		proc   int64
		image  int64
		symbol string
		mnem   int64
	}
	procs := map[procMnem]int64{}
	funcs := map[funcMnem]int64{}
	execs := newRowInserter(s.ctx, s.tx, runInserts["exec"])
	defer execs.close()
	for _, k := range slices.SortedFunc(maps.Keys(s.execs), compareExec) {
		n := s.execs[k]
		if err := execs.add(k.thread, k.block, n); err != nil {
			return err
		}
		b := s.order[k.block-firstID]
		for _, m := range b.mix {
			procs[procMnem{b.procID, m.mnemonic}] += n * m.n
			funcs[funcMnem{b.procID, b.imageID, b.symbol, m.mnemonic}] += n * m.n
		}
	}
	if err := execs.flush(); err != nil {
		return err
	}
	if err := s.finishCache(); err != nil {
		return err
	}
	if err := insertAll(s.ctx, s.tx, runInserts["procInsn"], procs, func(a, b procMnem) int {
		return cmp.Or(cmp.Compare(a.proc, b.proc), cmp.Compare(a.mnem, b.mnem))
	}, func(k procMnem, n int64) []any {
		return []any{k.proc, k.mnem, n}
	}); err != nil {
		return err
	}
	return insertAll(s.ctx, s.tx, runInserts["funcInsn"], funcs, func(a, b funcMnem) int {
		return cmp.Or(cmp.Compare(a.proc, b.proc), cmp.Compare(a.image, b.image), strings.Compare(a.symbol, b.symbol), cmp.Compare(a.mnem, b.mnem))
	}, func(k funcMnem, n int64) []any {
		return []any{k.proc, k.image, k.symbol, k.mnem, n}
	})
}

func compareExec(a, b execKey) int {
	return cmp.Or(cmp.Compare(a.thread, b.thread), cmp.Compare(a.block, b.block))
}

// insertAll writes a map's entries with a one-row insert, many to a statement, in the order
// of compare, the table's key: SQLite appends rows in key order far faster than it places
// them at random.
func insertAll[K comparable, V any](ctx context.Context, tx *writeTx, insert string, m map[K]V, compare func(a, b K) int, args func(K, V) []any) error {
	r := newRowInserter(ctx, tx, insert)
	defer r.close()
	for _, k := range slices.SortedFunc(maps.Keys(m), compare) {
		if err := r.add(args(k, m[k])...); err != nil {
			return err
		}
	}
	return r.flush()
}

func isUniqueViolation(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}
