package store

import (
	"context"
	"database/sql"
	"fmt"

	"androprof/model"
	"androprof/model/layers"
	"androprof/model/samples"
)

// Sampled runs are stored as model.SampleProfile's arrays (migration 006), row seq = index, so
// a profile round-trips through these tables unchanged.

// ImportSampleRun stores a sampled profile as a new run of kind model.RunKindSamples, in one transaction:
// an import that fails or is cancelled leaves the workspace as it was.
func (db *DB) ImportSampleRun(ctx context.Context, name, source string, p *samples.SampleProfile) error {
	if err := checkSampleProfile(p); err != nil {
		return fmt.Errorf("sampled profile: %w", err)
	}
	return db.importTx(ctx, func(tx *writeTx) error {
		runID, err := insertRun(ctx, tx.Tx, name, source, model.RunKindSamples)
		if err != nil {
			return err
		}
		h := p.Header
		if _, err := tx.ExecContext(ctx, `INSERT INTO sample_info(run_id, format, command, event, rate_hz, left_out, left_out_why)
			VALUES (?,?,?,?,?,?,?)`, runID, h.Format, h.Command, h.Event, h.RateHz, p.LeftOut, p.LeftOutWhy); err != nil {
			return err
		}
		if err := execRows(ctx, tx, `INSERT INTO sample_app_package(run_id, seq, name) VALUES (?,?,?)`,
			len(p.AppPackages), func(i int) []any { return []any{runID, i, p.AppPackages[i]} }); err != nil {
			return err
		}
		if err := execRows(ctx, tx, `INSERT INTO sample_thread(run_id, seq, pid, tid, comm) VALUES (?,?,?,?,?)`,
			len(p.Threads), func(i int) []any {
				t := p.Threads[i]
				return []any{runID, i, t.PID, t.TID, t.Comm}
			}); err != nil {
			return err
		}
		if err := execRows(ctx, tx, `INSERT INTO sample_symbol(run_id, seq, image, symbol) VALUES (?,?,?,?)`,
			len(p.Symbols), func(i int) []any {
				s := p.Symbols[i]
				return []any{runID, i, s.Image, s.Symbol}
			}); err != nil {
			return err
		}
		if err := execRows(ctx, tx, `INSERT INTO sample_node(run_id, seq, parent, symbol) VALUES (?,?,?,?)`,
			len(p.Nodes), func(i int) []any {
				n := p.Nodes[i]
				return []any{runID, i, n.Parent, n.Symbol}
			}); err != nil {
			return err
		}
		return execRows(ctx, tx, `INSERT INTO sample(run_id, seq, thread, node, time_ns, period) VALUES (?,?,?,?,?,?)`,
			len(p.Samples), func(i int) []any {
				s := p.Samples[i]
				return []any{runID, i, s.Thread, s.Node, s.TimeNS, u64(s.Period)}
			})
	})
}

// checkSampleProfile refuses a profile whose indexes point nowhere: stored, it would make every
// view of the run fail (or worse, index out of range) long after the import said yes.
func checkSampleProfile(p *samples.SampleProfile) error {
	for i, n := range p.Nodes {
		if n.Parent < -1 || int(n.Parent) >= i {
			return fmt.Errorf("stack node %d has parent %d, not an earlier node", i, n.Parent)
		}
		if n.Symbol < 0 || int(n.Symbol) >= len(p.Symbols) {
			return fmt.Errorf("stack node %d names symbol %d of %d", i, n.Symbol, len(p.Symbols))
		}
	}
	for i, s := range p.Samples {
		if s.Thread < 0 || int(s.Thread) >= len(p.Threads) {
			return fmt.Errorf("sample %d names thread %d of %d", i, s.Thread, len(p.Threads))
		}
		if s.Node < 0 || int(s.Node) >= len(p.Nodes) {
			return fmt.Errorf("sample %d names stack node %d of %d", i, s.Node, len(p.Nodes))
		}
	}
	return nil
}

// SampleProfile loads a sampled run: every sample with its stack, what all its views are
// computed from.
func (db *DB) SampleProfile(ctx context.Context, run string) (*samples.SampleProfile, error) {
	runID, err := db.runIDOfKind(ctx, run, model.RunKindSamples)
	if err != nil {
		return nil, err
	}
	p := &samples.SampleProfile{}
	h := &p.Header
	if err := db.read.QueryRowContext(ctx, `SELECT format, command, event, rate_hz, left_out, left_out_why
		FROM sample_info WHERE run_id = ?`, runID).Scan(&h.Format, &h.Command, &h.Event, &h.RateHz, &p.LeftOut, &p.LeftOutWhy); err != nil {
		return nil, fmt.Errorf("run %q: %w", run, err)
	}
	if p.AppPackages, err = loadSeq(ctx, db, "sample_app_package", "name", runID, func(rows *sql.Rows, name *string) error {
		return rows.Scan(name)
	}); err != nil {
		return nil, err
	}
	if p.Threads, err = loadSeq(ctx, db, "sample_thread", "pid, tid, comm", runID, func(rows *sql.Rows, t *samples.SampleThread) error {
		return rows.Scan(&t.PID, &t.TID, &t.Comm)
	}); err != nil {
		return nil, err
	}
	if p.Symbols, err = loadSeq(ctx, db, "sample_symbol", "image, symbol", runID, func(rows *sql.Rows, s *layers.SampleSymbol) error {
		return rows.Scan(&s.Image, &s.Symbol)
	}); err != nil {
		return nil, err
	}
	if p.Nodes, err = loadSeq(ctx, db, "sample_node", "parent, symbol", runID, func(rows *sql.Rows, n *samples.StackNode) error {
		return rows.Scan(&n.Parent, &n.Symbol)
	}); err != nil {
		return nil, err
	}
	if p.Samples, err = loadSeq(ctx, db, "sample", "thread, node, time_ns, period", runID, func(rows *sql.Rows, s *samples.SampleRec) error {
		return rows.Scan(&s.Thread, &s.Node, &s.TimeNS, unsigned{&s.Period})
	}); err != nil {
		return nil, err
	}
	if err := checkSampleProfile(p); err != nil {
		return nil, fmt.Errorf("run %q: %w", run, err)
	}
	return p, nil
}

// loadSeq reads one of a sampled run's arrays in index order; none is nil, as the builder
// leaves it.
func loadSeq[T any](ctx context.Context, db *DB, table, columns string, runID int64, scan func(*sql.Rows, *T) error) ([]T, error) {
	var out []T
	err := db.each(ctx, `SELECT `+columns+` FROM `+table+` WHERE run_id = ? ORDER BY seq`, []any{runID}, func(rows *sql.Rows) error {
		var v T
		if err := scan(rows, &v); err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}
