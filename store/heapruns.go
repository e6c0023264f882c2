package store

import (
	"context"
	"database/sql"
	"fmt"

	"androprof/model"
	"androprof/model/heap"
)

// Heap logs and dumps are stored as their aggregates (migration 004): model.HeapProfile and
// model.HeapDump round-trip through these tables unchanged.

// u64 stores an unsigned count in SQLite's signed integer, bit for bit: a count of 2^63 or more
// reads as negative in sqlite3, and unsigned scans it back unchanged. (database/sql would scan
// such a value into a uint64 through its decimal text and fail, so a run would be written that
// no report could read.)
func u64(v uint64) int64 { return int64(v) }

// unsigned scans what u64 stored back into a uint64.
type unsigned struct{ p *uint64 }

func (u unsigned) Scan(v any) error {
	n, ok := v.(int64)
	if !ok {
		return fmt.Errorf("an unsigned count stored as %T", v)
	}
	*u.p = uint64(n)
	return nil
}

func countArgs(c heap.HeapCount) []any {
	return []any{u64(c.Objects), u64(c.Bytes), u64(c.ArrayObjects), u64(c.ArrayBytes)}
}

// countDest is where Scan puts a HeapCount's four columns.
func countDest(c *heap.HeapCount) []any {
	return []any{unsigned{&c.Objects}, unsigned{&c.Bytes}, unsigned{&c.ArrayObjects}, unsigned{&c.ArrayBytes}}
}

// ImportHeapRun stores a heap log's profile as a new run of kind model.RunKindHeap, in one transaction.
func (db *DB) ImportHeapRun(ctx context.Context, name, source string, p *heap.HeapProfile) error {
	return db.importTx(ctx, func(tx *writeTx) error {
		runID, err := insertRun(ctx, tx.Tx, name, source, model.RunKindHeap)
		if err != nil {
			return err
		}
		h := p.Header
		args := []any{runID, h.Format, h.Version, h.VM, encodeProperties(h.Props), u64(p.Cohort), u64(p.End)}
		args = append(args, countArgs(p.Allocated)...)
		args = append(args, countArgs(p.Freed)...)
		args = append(args, countArgs(p.MaxLive)...)
		args = append(args, u64(p.MaxLiveAt), u64(p.UnknownFrees))
		if _, err := tx.ExecContext(ctx, `INSERT INTO heap_info(run_id, format, version, vm, properties, cohort, end_time,
			alloc_objects, alloc_bytes, alloc_array_objects, alloc_array_bytes,
			freed_objects, freed_bytes, freed_array_objects, freed_array_bytes,
			max_live_objects, max_live_bytes, max_live_array_objects, max_live_array_bytes,
			max_live_at, unknown_frees) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, args...); err != nil {
			return err
		}
		if err := execRows(ctx, tx, `INSERT INTO heap_class(run_id, class_id, name, is_array) VALUES (?,?,?,?)`,
			len(p.Classes), func(i int) []any {
				c := p.Classes[i]
				return []any{runID, c.ID, c.Name, c.Array}
			}); err != nil {
			return err
		}
		if err := execRows(ctx, tx, `INSERT INTO heap_thread(run_id, thread_id, name, grp, start_time, end_time, ended) VALUES (?,?,?,?,?,?,?)`,
			len(p.Threads), func(i int) []any {
				t := p.Threads[i]
				return []any{runID, t.ID, t.Name, t.Group, u64(t.Start), u64(t.End), t.Ended}
			}); err != nil {
			return err
		}
		if err := execRows(ctx, tx, `INSERT INTO heap_gc(run_id, seq, kind, start_time, end_time) VALUES (?,?,?,?,?)`,
			len(p.GCs), func(i int) []any {
				g := p.GCs[i]
				return []any{runID, i, g.Kind, u64(g.Start), u64(g.End)}
			}); err != nil {
			return err
		}
		if err := execRows(ctx, tx, `INSERT INTO heap_cell(run_id, scope, key, bucket,
			born_objects, born_bytes, born_array_objects, born_array_bytes,
			survived_objects, survived_bytes, survived_array_objects, survived_array_bytes,
			died_objects, died_bytes, died_array_objects, died_array_bytes,
			lifetime, array_lifetime) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			len(p.Cells), func(i int) []any {
				c := &p.Cells[i]
				a := []any{runID, int(c.Scope), u64(c.Key), u64(c.Bucket)}
				a = append(a, countArgs(c.Born)...)
				a = append(a, countArgs(c.Survived)...)
				a = append(a, countArgs(c.Died)...)
				return append(a, u64(c.Lifetime), u64(c.ArrayLifetime))
			}); err != nil {
			return err
		}
		return execRows(ctx, tx, `INSERT INTO heap_pointer(run_id, snapshot, bucket, distance, count) VALUES (?,?,?,?,?)`,
			len(p.Pointers), func(i int) []any {
				q := p.Pointers[i]
				return []any{runID, q.Snapshot, u64(q.Bucket), q.Distance, u64(q.Count)}
			})
	})
}

// HeapProfile loads a heap run's profile: everything its charts and tables are computed from.
func (db *DB) HeapProfile(ctx context.Context, run string) (*heap.HeapProfile, error) {
	runID, err := db.runIDOfKind(ctx, run, model.RunKindHeap)
	if err != nil {
		return nil, err
	}
	p := &heap.HeapProfile{}
	var props string
	dest := []any{&p.Header.Format, &p.Header.Version, &p.Header.VM, &props, unsigned{&p.Cohort}, unsigned{&p.End}}
	dest = append(dest, countDest(&p.Allocated)...)
	dest = append(dest, countDest(&p.Freed)...)
	dest = append(dest, countDest(&p.MaxLive)...)
	dest = append(dest, unsigned{&p.MaxLiveAt}, unsigned{&p.UnknownFrees})
	if err := db.read.QueryRowContext(ctx, `SELECT format, version, vm, properties, cohort, end_time,
		alloc_objects, alloc_bytes, alloc_array_objects, alloc_array_bytes,
		freed_objects, freed_bytes, freed_array_objects, freed_array_bytes,
		max_live_objects, max_live_bytes, max_live_array_objects, max_live_array_bytes,
		max_live_at, unknown_frees FROM heap_info WHERE run_id = ?`, runID).Scan(dest...); err != nil {
		return nil, err
	}
	p.Header.Props = decodeProperties(props)
	id := []any{runID}
	if err := db.each(ctx, `SELECT class_id, name, is_array FROM heap_class WHERE run_id = ? ORDER BY class_id`, id, func(r *sql.Rows) error {
		var c heap.HeapClassInfo
		err := r.Scan(&c.ID, &c.Name, &c.Array)
		p.Classes = append(p.Classes, c)
		return err
	}); err != nil {
		return nil, err
	}
	if err := db.each(ctx, `SELECT thread_id, name, grp, start_time, end_time, ended FROM heap_thread WHERE run_id = ? ORDER BY thread_id`, id, func(r *sql.Rows) error {
		var t heap.HeapThreadInfo
		err := r.Scan(&t.ID, &t.Name, &t.Group, unsigned{&t.Start}, unsigned{&t.End}, &t.Ended)
		p.Threads = append(p.Threads, t)
		return err
	}); err != nil {
		return nil, err
	}
	if err := db.each(ctx, `SELECT kind, start_time, end_time FROM heap_gc WHERE run_id = ? ORDER BY seq`, id, func(r *sql.Rows) error {
		var g heap.HeapGC
		err := r.Scan(&g.Kind, unsigned{&g.Start}, unsigned{&g.End})
		p.GCs = append(p.GCs, g)
		return err
	}); err != nil {
		return nil, err
	}
	if err := db.each(ctx, `SELECT scope, key, bucket,
		born_objects, born_bytes, born_array_objects, born_array_bytes,
		survived_objects, survived_bytes, survived_array_objects, survived_array_bytes,
		died_objects, died_bytes, died_array_objects, died_array_bytes,
		lifetime, array_lifetime FROM heap_cell WHERE run_id = ? ORDER BY scope, key, bucket`, id, func(r *sql.Rows) error {
		var c heap.HeapCell
		d := []any{&c.Scope, unsigned{&c.Key}, unsigned{&c.Bucket}}
		d = append(d, countDest(&c.Born)...)
		d = append(d, countDest(&c.Survived)...)
		d = append(d, countDest(&c.Died)...)
		err := r.Scan(append(d, unsigned{&c.Lifetime}, unsigned{&c.ArrayLifetime})...)
		p.Cells = append(p.Cells, c)
		return err
	}); err != nil {
		return nil, err
	}
	if err := db.each(ctx, `SELECT snapshot, bucket, distance, count FROM heap_pointer WHERE run_id = ?
		ORDER BY snapshot, bucket, distance`, id, func(r *sql.Rows) error {
		var q heap.HeapPointers
		err := r.Scan(&q.Snapshot, unsigned{&q.Bucket}, &q.Distance, unsigned{&q.Count})
		p.Pointers = append(p.Pointers, q)
		return err
	}); err != nil {
		return nil, err
	}
	return p, nil
}

// ImportDumpRun stores an HPROF dump's summary as a new run of kind model.RunKindHeapDump.
func (db *DB) ImportDumpRun(ctx context.Context, name, source string, d *heap.HeapDump) error {
	return db.importTx(ctx, func(tx *writeTx) error {
		runID, err := insertRun(ctx, tx.Tx, name, source, model.RunKindHeapDump)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO dump_info(run_id, version, id_size, timestamp_ms, loaded_classes,
			array_classes, roots) VALUES (?,?,?,?,?,?,?)`, runID, d.Version, d.IDSize, u64(d.Timestamp),
			d.LoadedClasses, d.ArrayClasses, d.Roots); err != nil {
			return err
		}
		if err := execRows(ctx, tx, `INSERT INTO dump_heap(run_id, seq, name) VALUES (?,?,?)`, len(d.Heaps), func(i int) []any {
			return []any{runID, i, d.Heaps[i]}
		}); err != nil {
			return err
		}
		if err := execRows(ctx, tx, `INSERT INTO dump_class(run_id, heap, name, is_array, objects, bytes) VALUES (?,?,?,?,?,?)`,
			len(d.Classes), func(i int) []any {
				c := d.Classes[i]
				return []any{runID, c.Heap, c.Name, c.Array, u64(c.Objects), u64(c.Bytes)}
			}); err != nil {
			return err
		}
		if err := execRows(ctx, tx, `INSERT INTO dump_size(run_id, heap, size_class, instance_objects, instance_bytes,
			array_objects, array_bytes) VALUES (?,?,?,?,?,?,?)`, len(d.Sizes), func(i int) []any {
			s := d.Sizes[i]
			return []any{runID, s.Heap, u64(s.SizeClass), u64(s.Instances.Objects), u64(s.Instances.Bytes),
				u64(s.Arrays.Objects), u64(s.Arrays.Bytes)}
		}); err != nil {
			return err
		}
		if err := execRows(ctx, tx, `INSERT INTO dump_pointer(run_id, heap, distance, count) VALUES (?,?,?,?)`,
			len(d.Pointers), func(i int) []any {
				q := d.Pointers[i]
				return []any{runID, q.Heap, q.Bucket, u64(q.Count)}
			}); err != nil {
			return err
		}
		if d.Retention == nil {
			return nil
		}
		return writeRetention(ctx, tx, runID, d.Retention)
	})
}

// HeapDump loads a dump run's summary.
func (db *DB) HeapDump(ctx context.Context, run string) (*heap.HeapDump, error) {
	runID, err := db.runIDOfKind(ctx, run, model.RunKindHeapDump)
	if err != nil {
		return nil, err
	}
	d := &heap.HeapDump{}
	if err := db.read.QueryRowContext(ctx, `SELECT version, id_size, timestamp_ms, loaded_classes, array_classes, roots
		FROM dump_info WHERE run_id = ?`, runID).Scan(&d.Version, &d.IDSize, unsigned{&d.Timestamp}, &d.LoadedClasses,
		&d.ArrayClasses, &d.Roots); err != nil {
		return nil, err
	}
	id := []any{runID}
	if err := db.each(ctx, `SELECT name FROM dump_heap WHERE run_id = ? ORDER BY seq`, id, func(r *sql.Rows) error {
		var name string
		err := r.Scan(&name)
		d.Heaps = append(d.Heaps, name)
		return err
	}); err != nil {
		return nil, err
	}
	if err := db.each(ctx, `SELECT heap, name, is_array, objects, bytes FROM dump_class WHERE run_id = ?
		ORDER BY heap, name`, id, func(r *sql.Rows) error {
		var c heap.DumpClass
		err := r.Scan(&c.Heap, &c.Name, &c.Array, unsigned{&c.Objects}, unsigned{&c.Bytes})
		d.Classes = append(d.Classes, c)
		return err
	}); err != nil {
		return nil, err
	}
	if err := db.each(ctx, `SELECT heap, size_class, instance_objects, instance_bytes, array_objects, array_bytes
		FROM dump_size WHERE run_id = ? ORDER BY heap, size_class`, id, func(r *sql.Rows) error {
		var s heap.DumpSize
		err := r.Scan(&s.Heap, unsigned{&s.SizeClass}, unsigned{&s.Instances.Objects}, unsigned{&s.Instances.Bytes},
			unsigned{&s.Arrays.Objects}, unsigned{&s.Arrays.Bytes})
		d.Sizes = append(d.Sizes, s)
		return err
	}); err != nil {
		return nil, err
	}
	if err := db.each(ctx, `SELECT heap, distance, count FROM dump_pointer WHERE run_id = ? ORDER BY heap, distance`, id, func(r *sql.Rows) error {
		var q heap.DumpPointers
		err := r.Scan(&q.Heap, &q.Bucket, unsigned{&q.Count})
		d.Pointers = append(d.Pointers, q)
		return err
	}); err != nil {
		return nil, err
	}
	return d, nil
}
