package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"

	"androprof/model"
	"androprof/model/cost"
)

// Runs lists the stored runs, oldest first.
func (db *DB) Runs(ctx context.Context) ([]model.RunInfo, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT r.name, r.kind, r.created_at, r.source,
		(SELECT count(*) FROM process p WHERE p.run_id = r.id),
		(SELECT count(*) FROM block b JOIN process p ON p.id = b.process_id WHERE p.run_id = r.id),
		(SELECT coalesce(sum(pi.count), 0) FROM process_insn pi JOIN process p ON p.id = pi.process_id WHERE p.run_id = r.id)
		FROM run r ORDER BY r.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []model.RunInfo
	for rows.Next() {
		var ri model.RunInfo
		if err := rows.Scan(&ri.Name, &ri.Kind, &ri.CreatedAt, &ri.Source, &ri.Processes, &ri.Blocks, &ri.Instructions); err != nil {
			return nil, err
		}
		out = append(out, ri)
	}
	return out, rows.Err()
}

func (db *DB) runID(ctx context.Context, name string) (int64, error) {
	var id int64
	err := db.read.QueryRowContext(ctx, `SELECT id FROM run WHERE name = ?`, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("run %q: %w", name, cost.ErrNotFound)
	}
	return id, err
}

// DeleteRun removes a run and everything imported into it.
func (db *DB) DeleteRun(ctx context.Context, name string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		db.codes.forget() // before the commit: an import after it must not name a deleted code
		res, err := tx.ExecContext(ctx, `DELETE FROM run WHERE name = ?`, name)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("run %q: %w", name, cost.ErrNotFound)
		}
		// Block code is shared between runs: what no block uses any more goes with the run.
		// (One pass over block: an index on code_id would cost every import more.)
		_, err = tx.ExecContext(ctx, `DELETE FROM block_code WHERE id NOT IN (SELECT code_id FROM block WHERE code_id IS NOT NULL)`)
		return err
	})
}

// Processes lists a run's processes with their sizes, by pid.
func (db *DB) Processes(ctx context.Context, run string) ([]cost.ProcessSummary, error) {
	id, err := db.runID(ctx, run)
	if err != nil {
		return nil, err
	}
	rows, err := db.read.QueryContext(ctx, `SELECT p.pid, p.parent_pid, p.name,
		(SELECT count(*) FROM thread t WHERE t.process_id = p.id),
		(SELECT coalesce(sum(b.executions), 0) FROM block b WHERE b.process_id = p.id),
		(SELECT coalesce(sum(pi.count), 0) FROM process_insn pi WHERE pi.process_id = p.id)
		FROM process p WHERE p.run_id = ? ORDER BY p.pid`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cost.ProcessSummary
	for rows.Next() {
		var ps cost.ProcessSummary
		if err := rows.Scan(&ps.PID, &ps.ParentPID, &ps.Name, &ps.Threads, &ps.BlocksExecuted, &ps.Instructions); err != nil {
			return nil, err
		}
		out = append(out, ps)
	}
	return out, rows.Err()
}

// ProcessInstructions gives each process's dynamic count per instruction: the small table a
// profile is applied to.
func (db *DB) ProcessInstructions(ctx context.Context, run string) ([]cost.ProcessInstructions, error) {
	id, err := db.runID(ctx, run)
	if err != nil {
		return nil, err
	}
	rows, err := db.read.QueryContext(ctx, `SELECT p.pid, m.isa, m.text, pi.count FROM process_insn pi
		JOIN process p ON p.id = pi.process_id JOIN mnemonic m ON m.id = pi.mnemonic_id
		WHERE p.run_id = ? ORDER BY p.pid, m.isa, m.text`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cost.ProcessInstructions
	for rows.Next() {
		var r cost.ProcessInstructions
		if err := rows.Scan(&r.PID, &r.Instruction.ISA, &r.Instruction.Mnemonic, &r.Count); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// FunctionInstructions gives each function's dynamic count per instruction.
func (db *DB) FunctionInstructions(ctx context.Context, run string) ([]cost.FunctionInstructions, error) {
	id, err := db.runID(ctx, run)
	if err != nil {
		return nil, err
	}
	rows, err := db.read.QueryContext(ctx, `SELECT p.pid, coalesce(i.name, ''), f.symbol, m.isa, m.text, f.count FROM function_insn f
		JOIN process p ON p.id = f.process_id JOIN mnemonic m ON m.id = f.mnemonic_id
		LEFT JOIN image i ON i.id = f.image_id
		WHERE p.run_id = ? ORDER BY p.pid, f.symbol`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cost.FunctionInstructions
	for rows.Next() {
		var r cost.FunctionInstructions
		if err := rows.Scan(&r.PID, &r.Image, &r.Symbol, &r.Instruction.ISA, &r.Instruction.Mnemonic, &r.Count); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Blocks lists every block of a run with its executions and instruction mix.
func (db *DB) Blocks(ctx context.Context, run string) ([]cost.BlockSummary, error) {
	id, err := db.runID(ctx, run)
	if err != nil {
		return nil, err
	}
	mnems, err := db.mnemonics(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := db.read.QueryContext(ctx, `SELECT b.id, p.pid, b.pc, b.isa, b.symbol, coalesce(i.name, ''), coalesce(i.kind, ''),
		b.n_insns, b.executions, b.mix
		FROM block b JOIN process p ON p.id = b.process_id LEFT JOIN image i ON i.id = b.image_id WHERE p.run_id = ?`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cost.BlockSummary
	var blob []byte
	for rows.Next() {
		var b cost.BlockSummary
		var pc int64
		if err := rows.Scan(&b.ID, &b.PID, &pc, &b.ISA, &b.Symbol, &b.Image, &b.ImageKind, &b.Insns, &b.Executions, &blob); err != nil {
			return nil, err
		}
		b.PC = uint64(pc)
		if b.Mix, err = decodeMix(blob, mnems); err != nil {
			return nil, fmt.Errorf("block %d: %w", b.ID, err)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

func (db *DB) mnemonics(ctx context.Context) (map[int64]cost.Instruction, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, isa, text FROM mnemonic`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]cost.Instruction{}
	for rows.Next() {
		var id int64
		var in cost.Instruction
		if err := rows.Scan(&id, &in.ISA, &in.Mnemonic); err != nil {
			return nil, err
		}
		out[id] = in
	}
	return out, rows.Err()
}

func decodeMix(blob []byte, mnems map[int64]cost.Instruction) ([]cost.InstructionCount, error) {
	var out []cost.InstructionCount
	for len(blob) > 0 {
		id, n1 := binary.Uvarint(blob)
		if n1 <= 0 {
			return nil, errors.New("corrupt instruction mix")
		}
		count, n2 := binary.Uvarint(blob[n1:])
		if n2 <= 0 {
			return nil, errors.New("corrupt instruction mix")
		}
		blob = blob[n1+n2:]
		in, ok := mnems[int64(id)]
		if !ok {
			return nil, fmt.Errorf("instruction mix names unknown mnemonic %d", id)
		}
		out = append(out, cost.InstructionCount{Instruction: in, Count: int64(count)})
	}
	return out, nil
}

// BlockInstructions lists one block's instructions in address order.
func (db *DB) BlockInstructions(ctx context.Context, blockID int64) ([]cost.BlockInstruction, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT bi.addr, bi.encoding, bi.printed, bi.operands, m.isa, m.text
		FROM block_insn bi JOIN mnemonic m ON m.id = bi.mnemonic_id WHERE bi.block_id = ? ORDER BY bi.idx`, blockID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cost.BlockInstruction
	for rows.Next() {
		var bi cost.BlockInstruction
		var addr int64
		if err := rows.Scan(&addr, &bi.Encoding, &bi.Printed, &bi.Operands, &bi.Instruction.ISA, &bi.Instruction.Mnemonic); err != nil {
			return nil, err
		}
		bi.Addr = uint64(addr)
		out = append(out, bi)
	}
	return out, rows.Err()
}

// Images lists each process's images, by pid and path.
func (db *DB) Images(ctx context.Context, run string) ([]cost.Image, error) {
	id, err := db.runID(ctx, run)
	if err != nil {
		return nil, err
	}
	rows, err := db.read.QueryContext(ctx, `SELECT p.pid, i.path, i.name, i.kind, i.base, i.symbols
		FROM image i JOIN process p ON p.id = i.process_id WHERE p.run_id = ? ORDER BY p.pid, i.path`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cost.Image
	for rows.Next() {
		var im cost.Image
		if err := rows.Scan(&im.PID, &im.Path, &im.Name, &im.Kind, unsigned{&im.Base}, &im.Symbols); err != nil {
			return nil, err
		}
		out = append(out, im)
	}
	return out, rows.Err()
}

// Syscalls lists each thread's system calls, by pid, tid and number.
func (db *DB) Syscalls(ctx context.Context, run string) ([]cost.Syscall, error) {
	id, err := db.runID(ctx, run)
	if err != nil {
		return nil, err
	}
	rows, err := db.read.QueryContext(ctx, `SELECT p.pid, t.tid, s.number, s.name, s.count, s.insns
		FROM syscall s JOIN thread t ON t.id = s.thread_id JOIN process p ON p.id = t.process_id
		WHERE p.run_id = ? ORDER BY p.pid, t.tid, s.number`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cost.Syscall
	for rows.Next() {
		var sc cost.Syscall
		if err := rows.Scan(&sc.PID, &sc.TID, &sc.Number, &sc.Name, &sc.Count, &sc.Insns); err != nil {
			return nil, err
		}
		out = append(out, sc)
	}
	return out, rows.Err()
}
