package store

import (
	"context"
	"database/sql"
	"math/bits"
	"strings"
)

// rowInserter writes rows of one table many to a statement (INSERT … VALUES (…),(…),…): in
// modernc's SQLite most of a one-row insert's time is the call, not the row, so a batch of
// runs imported together is mostly this.
type rowInserter struct {
	ctx  context.Context
	tx   *writeTx
	head string    // INSERT INTO t(a, b) VALUES
	row  string    // (?, ?)
	tail string    // what follows the rows, e.g. ON CONFLICT …
	cols int       // the row's placeholders
	full *sql.Stmt // the statement of a full batch, prepared on first use
	args []any
	size int // bytes of the queued strings and blobs
	// before runs ahead of each write: a table whose rows refer to another's flushes that one.
	before func() error
}

// rowsPerInsert is how many rows one statement carries, within SQLite's 32,766 variables.
const rowsPerInsert = 256

// maxBatchBytes bounds the strings and blobs one statement carries: SQLite copies every bound
// value, so a batch of a dump's object columns (MBs each) at once raised the 1 GB dump's
// import peak from 1.75 GB to 2.5 GB.
const maxBatchBytes = 1 << 20

// newRowInserter writes the rows of a one-row insert, "INSERT INTO t(a, b) VALUES (?, ?) [tail]",
// many to a statement.
func newRowInserter(ctx context.Context, tx *writeTx, insert string) *rowInserter {
	i := strings.LastIndex(insert, "VALUES") + len("VALUES")
	rest := strings.TrimSpace(insert[i:])
	j := strings.Index(rest, ")") + 1
	return &rowInserter{ctx: ctx, tx: tx, head: insert[:i] + " ", row: rest[:j], tail: strings.TrimSpace(rest[j:]),
		cols: strings.Count(rest[:j], "?")}
}

// add queues one row, writing a full batch; len(values) must be the columns'.
func (r *rowInserter) add(values ...any) error {
	r.args = append(r.args, values...)
	for _, v := range values {
		switch v := v.(type) {
		case []byte:
			r.size += len(v)
		case string:
			r.size += len(v)
		}
	}
	if r.size >= maxBatchBytes { // big blobs (a dump's object columns) go a few at a time
		return r.flush()
	}
	if len(r.args) < rowsPerInsert*r.cols {
		return nil
	}
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if r.full == nil {
		st, err := r.tx.prepare(r.ctx, r.query(rowsPerInsert))
		if err != nil {
			return err
		}
		r.full = st
	}
	err := r.write(r.full, r.args)
	r.reset()
	return err
}

// flush writes the rows still queued, in statements of a power of two rows each: the few
// statements of a table's sizes are prepared once and kept (stmtCache), where one of the
// exact count was prepared for each flush.
func (r *rowInserter) flush() error {
	defer r.reset()
	for rest := r.args; len(rest) > 0; {
		n := 1 << (bits.Len(uint(len(rest)/r.cols)) - 1)
		st, err := r.tx.prepare(r.ctx, r.query(n))
		if err != nil {
			return err
		}
		err = r.write(st, rest[:n*r.cols])
		st.Close()
		if err != nil {
			return err
		}
		rest = rest[n*r.cols:]
	}
	return nil
}

// write writes rows, values of queued rows, after what must come first (before).
func (r *rowInserter) write(st *sql.Stmt, rows []any) error {
	if r.before != nil {
		if err := r.before(); err != nil {
			return err
		}
	}
	_, err := st.ExecContext(r.ctx, rows...)
	return err
}

// reset forgets the queued rows, and lets their blobs go.
func (r *rowInserter) reset() {
	clear(r.args)
	r.args, r.size = r.args[:0], 0
}

// close flushes nothing: it frees the prepared statement (call flush first to keep the rows).
func (r *rowInserter) close() {
	if r.full != nil {
		r.full.Close()
	}
}

func (r *rowInserter) query(rows int) string {
	var b strings.Builder
	b.Grow(len(r.head) + rows*(len(r.row)+1) + len(r.tail) + 1)
	b.WriteString(r.head)
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(r.row)
	}
	if r.tail != "" {
		b.WriteByte(' ')
		b.WriteString(r.tail)
	}
	return b.String()
}
