package store

import (
	"context"
	"database/sql"
	"strings"

	"androprof/pipeline"
)

// keysPerQuery bounds the keys one PipelineCycles query binds, well under SQLite's limit on
// host parameters.
const keysPerQuery = 500

// PipelineCycles gives the machine model's cycles the workspace keeps for the keys
// (pipeline.Key), so a block is priced once for every run that has it. Keys never priced are
// absent from the map; a block the model could not price is there with OK false and its note.
func (db *DB) PipelineCycles(ctx context.Context, keys []string) (map[string]pipeline.Result, error) {
	out := map[string]pipeline.Result{}
	for len(keys) > 0 {
		n := min(len(keys), keysPerQuery)
		if err := db.pipelineCycles(ctx, keys[:n], out); err != nil {
			return nil, err
		}
		keys = keys[n:]
	}
	return out, nil
}

// pipelineCycles reads one query's worth of keys into out.
func (db *DB) pipelineCycles(ctx context.Context, keys []string, out map[string]pipeline.Result) error {
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	rows, err := db.read.QueryContext(ctx, `SELECT key, cycles, note FROM block_pipeline WHERE key IN (?`+
		strings.Repeat(",?", len(keys)-1)+`)`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var key, note string
		var cycles sql.NullFloat64
		if err := rows.Scan(&key, &cycles, &note); err != nil {
			return err
		}
		out[key] = pipeline.Result{Cycles: cycles.Float64, OK: cycles.Valid, Note: note}
	}
	return rows.Err()
}

// SavePipelineCycles keeps the results by key in one transaction (NULL cycles and the note for
// a block the model could not price), replacing what was kept under the same keys.
func (db *DB) SavePipelineCycles(ctx context.Context, results map[string]pipeline.Result) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO block_pipeline(key, cycles, note) VALUES (?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for key, r := range results {
			cycles := sql.NullFloat64{Float64: r.Cycles, Valid: r.OK}
			if _, err := stmt.ExecContext(ctx, key, cycles, r.Note); err != nil {
				return err
			}
		}
		return nil
	})
}

// BlockEncodings gives each block of a run (by block id) its instructions' encodings in
// order, what the machine model reads; an instruction the trace had no bytes for is "".
func (db *DB) BlockEncodings(ctx context.Context, run string) (map[int64][]string, error) {
	id, err := db.runID(ctx, run)
	if err != nil {
		return nil, err
	}
	rows, err := db.read.QueryContext(ctx, `SELECT bi.block_id, bi.encoding FROM block_insn bi
		JOIN block b ON b.id = bi.block_id JOIN process p ON p.id = b.process_id
		WHERE p.run_id = ? ORDER BY bi.block_id, bi.idx`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]string{}
	for rows.Next() {
		var block int64
		var enc string
		if err := rows.Scan(&block, &enc); err != nil {
			return nil, err
		}
		out[block] = append(out[block], enc)
	}
	return out, rows.Err()
}
