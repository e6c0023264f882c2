package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"

	"androprof/model"
	"androprof/model/heap"
)

// The object level of a heap dump (migration 011, docs/heap-objects.md): each reachable
// object's record in chunks, the class layouts that decode them, the referrers and the heaps,
// written with the retention in the import's one transaction.

// ErrNoObjects says a dump run has no object records: it was imported before migration 011.
var ErrNoObjects = errors.New("this dump was imported before the object view: import it again")

// writeObjects stores the heaps, the referrers and the records the import spilled.
func writeObjects(ctx context.Context, tx *writeTx, runID int64, r *heap.DumpRetention) error {
	if err := execRows(ctx, tx, `INSERT INTO dump_object_heap(run_id, seq, name) VALUES (?,?,?)`, len(r.Heaps), func(i int) []any {
		return []any{runID, i, r.Heaps[i]}
	}); err != nil {
		return err
	}
	o := r.Records
	if o == nil {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO dump_objects(run_id, id_size, record, layouts, ref_start, ref_from)
		VALUES (?,?,?,?,?,?)`, runID, o.IDSize, packU32(o.Record), o.Layouts, packU32(r.RefStart), packI32(r.RefFrom)); err != nil {
		return err
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO dump_record_chunk(run_id, first, data) VALUES (?,?,?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	return o.Each(func(c heap.RecordChunk, data []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		_, err := st.ExecContext(ctx, runID, c.First, data)
		return err
	})
}

// readObjects adds the heaps and referrers to a retention read from the store: nil for a run
// imported before they were kept.
func (db *DB) readObjects(ctx context.Context, runID int64, r *heap.DumpRetention) error {
	if err := db.each(ctx, `SELECT name FROM dump_object_heap WHERE run_id = ? ORDER BY seq`, []any{runID}, func(rows *sql.Rows) error {
		var name string
		err := rows.Scan(&name)
		r.Heaps = append(r.Heaps, name)
		return err
	}); err != nil {
		return err
	}
	var start, from []byte
	err := db.read.QueryRowContext(ctx, `SELECT ref_start, ref_from FROM dump_objects WHERE run_id = ?`, runID).Scan(&start, &from)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	r.RefStart, r.RefFrom = unpackU32(start), unpackI32(from)
	return checkReferrers(r)
}

// checkReferrers refuses referrers that do not fit the objects.
func checkReferrers(r *heap.DumpRetention) error {
	n := r.Objects.Len()
	if len(r.RefStart) != n+1 || r.RefStart[n] != uint32(len(r.RefFrom)) {
		return fmt.Errorf("referrers: %d starts and %d referrers for %d objects", len(r.RefStart), len(r.RefFrom), n)
	}
	for i := range n {
		if r.RefStart[i] > r.RefStart[i+1] {
			return fmt.Errorf("referrers of object %d start after those of the next", i)
		}
	}
	for _, f := range r.RefFrom {
		if f < 0 || int(f) >= n {
			return fmt.Errorf("a referrer %d of %d objects", f, n)
		}
	}
	return nil
}

// DumpRecordIndex reads what finds and decodes a dump run's object records: ErrNoObjects for
// a run imported before they were kept.
func (db *DB) DumpRecordIndex(ctx context.Context, run string) (*heap.RecordIndex, error) {
	runID, err := db.runIDOfKind(ctx, run, model.RunKindHeapDump)
	if err != nil {
		return nil, err
	}
	var record []byte
	x := &heap.RecordIndex{}
	err = db.read.QueryRowContext(ctx, `SELECT id_size, record, layouts FROM dump_objects WHERE run_id = ?`, runID).
		Scan(&x.IDSize, &record, &x.Layouts)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("run %q: %w", run, ErrNoObjects)
	}
	if err != nil {
		return nil, err
	}
	x.Record = unpackU32(record)
	return x, nil
}

// DumpRecordChunk reads the chunk of a dump run's records that holds record k: the index of
// its first record and its bytes (heap.RecordIn finds k in them).
func (db *DB) DumpRecordChunk(ctx context.Context, run string, k uint32) (first uint32, data []byte, err error) {
	runID, err := db.runIDOfKind(ctx, run, model.RunKindHeapDump)
	if err != nil {
		return 0, nil, err
	}
	err = db.read.QueryRowContext(ctx, `SELECT first, data FROM dump_record_chunk WHERE run_id = ? AND first <= ?
		ORDER BY first DESC LIMIT 1`, runID, k).Scan(&first, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, fmt.Errorf("run %q has no record %d: %w", run, k, ErrNoObjects)
	}
	return first, data, err
}

func packU32(v []uint32) []byte {
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}

func unpackU32(b []byte) []uint32 {
	v := make([]uint32, len(b)/4)
	for i := range v {
		v[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return v
}

func packU8(v []uint8) []byte { return append([]byte{}, v...) }

func unpackU8(b []byte) []uint8 {
	if len(b) == 0 {
		return nil // a dump of no heaps per object: one imported before them
	}
	return append([]uint8{}, b...)
}
