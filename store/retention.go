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

// A heap dump's retention (migration 007) is written with its summary: the classes as rows,
// the objects column by column as blobs, which take a second where rows took ten.

// ErrNoRetention says a dump run has no retention: it was imported before migration 007.
var ErrNoRetention = errors.New("this dump was imported before retained sizes were worked out: import it again")

// writeRetention stores r for the run in tx.
func writeRetention(ctx context.Context, tx *writeTx, runID int64, r *heap.DumpRetention) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO dump_retention(run_id, weak, reachable) VALUES (?,?,?)`,
		runID, r.Weak, u64(r.Reachable)); err != nil {
		return err
	}
	if err := execRows(ctx, tx, `INSERT INTO dump_retained_class(run_id, seq, name, instances, shallow, retained) VALUES (?,?,?,?,?,?)`,
		len(r.Classes), func(i int) []any {
			c := r.Classes[i]
			return []any{runID, i, c.Name, u64(c.Instances), u64(c.Shallow), u64(c.Retained)}
		}); err != nil {
		return err
	}
	if err := execRows(ctx, tx, `INSERT INTO dump_field(run_id, seq, name) VALUES (?,?,?)`, len(r.Fields), func(i int) []any {
		return []any{runID, i, r.Fields[i]}
	}); err != nil {
		return err
	}
	cols := objectColumns(&r.Objects)
	if err := execRows(ctx, tx, `INSERT INTO dump_object_column(run_id, name, data) VALUES (?,?,?)`, len(cols), func(i int) []any {
		return []any{runID, cols[i].name, cols[i].pack()}
	}); err != nil {
		return err
	}
	return writeObjects(ctx, tx, runID, r)
}

// objectColumn is one column of model.DumpColumns as the store keeps it: one blob per run, so
// that writing, reading and checking name each column once.
type objectColumn struct {
	name   string
	pack   func() []byte
	unpack func([]byte)
	len    func() int
}

func column[T any](name string, v *[]T, pack func([]T) []byte, unpack func([]byte) []T) objectColumn {
	return objectColumn{name, func() []byte { return pack(*v) }, func(b []byte) { *v = unpack(b) }, func() int { return len(*v) }}
}

func objectColumns(c *heap.DumpColumns) []objectColumn {
	return []objectColumn{
		column("id", &c.ID, packU64, unpackU64), column("class", &c.Class, packI32, unpackI32),
		column("is_class", &c.IsClass, packBool, unpackBool), column("shallow", &c.Shallow, packU64, unpackU64),
		column("retained", &c.Retained, packU64, unpackU64), column("idom", &c.Idom, packI32, unpackI32),
		column("parent", &c.Parent, packI32, unpackI32), column("field", &c.Field, packI32, unpackI32),
		column("depth", &c.Depth, packI32, unpackI32), column("heap", &c.Heap, packU8, unpackU8),
	}
}

// DumpRetention reads a dump run's retention whole: classes, field names and every reachable
// object. A workspace changed by hand is checked, so queries on it cannot index out of range.
func (db *DB) DumpRetention(ctx context.Context, run string) (*heap.DumpRetention, error) {
	runID, err := db.runIDOfKind(ctx, run, model.RunKindHeapDump)
	if err != nil {
		return nil, err
	}
	r := &heap.DumpRetention{}
	err = db.read.QueryRowContext(ctx, `SELECT weak, reachable FROM dump_retention WHERE run_id = ?`, runID).
		Scan(&r.Weak, unsigned{&r.Reachable})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("run %q: %w", run, ErrNoRetention)
	}
	if err != nil {
		return nil, err
	}
	id := []any{runID}
	if err := db.each(ctx, `SELECT name, instances, shallow, retained FROM dump_retained_class WHERE run_id = ? ORDER BY seq`,
		id, func(rows *sql.Rows) error {
			var c heap.RetainedClass
			err := rows.Scan(&c.Name, unsigned{&c.Instances}, unsigned{&c.Shallow}, unsigned{&c.Retained})
			r.Classes = append(r.Classes, c)
			return err
		}); err != nil {
		return nil, err
	}
	if err := db.each(ctx, `SELECT name FROM dump_field WHERE run_id = ? ORDER BY seq`, id, func(rows *sql.Rows) error {
		var name string
		err := rows.Scan(&name)
		r.Fields = append(r.Fields, name)
		return err
	}); err != nil {
		return nil, err
	}
	cols := map[string]objectColumn{}
	for _, c := range objectColumns(&r.Objects) {
		cols[c.name] = c
	}
	if err := db.each(ctx, `SELECT name, data FROM dump_object_column WHERE run_id = ?`, id, func(rows *sql.Rows) error {
		var name string
		var data []byte
		if err := rows.Scan(&name, &data); err != nil {
			return err
		}
		if c, ok := cols[name]; ok {
			c.unpack(data)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if err = db.readObjects(ctx, runID, r); err == nil {
		err = checkColumns(r)
	}
	if err != nil {
		return nil, fmt.Errorf("run %q: its objects are damaged (changed by hand or by another program?): %w", run, err)
	}
	return r, nil
}

// checkColumns refuses columns of different lengths and indexes out of range.
func checkColumns(r *heap.DumpRetention) error {
	c := &r.Objects
	n := c.Len()
	for _, col := range objectColumns(c) {
		if l := col.len(); l != n && (col.name != "heap" || l != 0) { // no heaps: a run imported before them
			return fmt.Errorf("column %s holds %d values for %d objects", col.name, l, n)
		}
	}
	for i := range n {
		switch {
		case c.Class[i] < 0 || int(c.Class[i]) >= len(r.Classes):
			return fmt.Errorf("object %d: class %d of %d", i, c.Class[i], len(r.Classes))
		case c.Idom[i] < -1 || c.Idom[i] >= int32(i), c.Parent[i] < -1 || int(c.Parent[i]) >= n:
			return fmt.Errorf("object %d: dominator %d, parent %d", i, c.Idom[i], c.Parent[i])
		case int(c.Field[i]) >= len(r.Fields):
			return fmt.Errorf("object %d: field %d of %d", i, c.Field[i], len(r.Fields))
		case len(c.Heap) > 0 && int(c.Heap[i]) >= len(r.Heaps):
			return fmt.Errorf("object %d: heap %d of %d", i, c.Heap[i], len(r.Heaps))
		}
	}
	return nil
}

func packU64(v []uint64) []byte {
	b := make([]byte, 0, 8*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return b
}

func packI32(v []int32) []byte {
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	return b
}

func packBool(v []bool) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		if x {
			b[i] = 1
		}
	}
	return b
}

func unpackU64(b []byte) []uint64 {
	v := make([]uint64, len(b)/8)
	for i := range v {
		v[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return v
}

func unpackI32(b []byte) []int32 {
	v := make([]int32, len(b)/4)
	for i := range v {
		v[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

func unpackBool(b []byte) []bool {
	v := make([]bool, len(b))
	for i, x := range b {
		v[i] = x != 0
	}
	return v
}
