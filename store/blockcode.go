package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"strings"
	"sync"

	"androprof/model/cost"
)

// codeWriter gives an import's blocks their code (block_code, code_insn; migration 012): a code
// the workspace has is shared, a new one is written. Codes are looked up a batch at a time, and
// only those the DB's codeCache does not know: a lookup per block was a sixth of a batch
// import's writer.
type codeWriter struct {
	ctx     context.Context
	tx      *writeTx
	known   *codeCache         // codes committed before this import
	ids     map[[32]byte]int64 // codes this import resolved, by digest
	pending []*pendingCode     // codes not looked up yet, in the order they came
	waiting map[[32]byte]*pendingCode
	nextID  int64 // the next new code's id, taken under the transaction's write lock
	codes   *rowInserter
	insns   *rowInserter
	lookups map[int]*sql.Stmt // the lookup of n digests
}

type pendingCode struct {
	digest    [32]byte
	insns     []cost.Insn
	mnemonics []int64
	blocks    []*blockRow // set once the code is resolved
}

// codesPerLookup is how many digests one lookup asks for.
const codesPerLookup = 256

func newCodeWriter(ctx context.Context, tx *writeTx, known *codeCache) (*codeWriter, error) {
	w := &codeWriter{ctx: ctx, tx: tx, known: known, ids: map[[32]byte]int64{}, waiting: map[[32]byte]*pendingCode{},
		lookups: map[int]*sql.Stmt{},
		codes:   newRowInserter(ctx, tx, `INSERT INTO block_code(id, digest) VALUES (?,?)`),
		insns:   newRowInserter(ctx, tx, `INSERT INTO code_insn(code_id, idx, addr, encoding, mnemonic_id, printed, operands) VALUES (?,?,?,?,?,?,?)`)}
	w.insns.before = w.codes.flush // a code's row is written before its instructions
	// Ids are never used again (AUTOINCREMENT), so a codeCache entry never names another code.
	if err := tx.QueryRowContext(ctx, `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'block_code'), 0),
		coalesce((SELECT max(id) FROM block_code), 0)) + 1`).Scan(&w.nextID); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *codeWriter) close() {
	w.codes.close()
	w.insns.close()
	for _, st := range w.lookups {
		st.Close()
	}
}

// add gives row the code of b (mnemonics: its instructions' catalogue ids), now or by the time
// flush returns.
func (w *codeWriter) add(row *blockRow, b *cost.Block, mnemonics []int64) error {
	digest := codeDigest(b)
	if id, ok := w.known.get(digest); ok {
		row.codeID = id
		return nil
	}
	if id, ok := w.ids[digest]; ok {
		row.codeID = id
		return nil
	}
	if p, ok := w.waiting[digest]; ok {
		p.blocks = append(p.blocks, row)
		return nil
	}
	p := &pendingCode{digest: digest, insns: append([]cost.Insn(nil), b.Insns...), mnemonics: mnemonics, blocks: []*blockRow{row}}
	w.pending = append(w.pending, p)
	w.waiting[digest] = p
	if len(w.pending) < codesPerLookup {
		return nil
	}
	return w.resolve()
}

// resolve looks the pending codes up and writes those the workspace lacks, in the order they
// came, so the ids are the same however the import was read.
func (w *codeWriter) resolve() error {
	if len(w.pending) == 0 {
		return nil
	}
	st, err := w.lookup(len(w.pending))
	if err != nil {
		return err
	}
	args := make([]any, len(w.pending))
	for i, p := range w.pending {
		args[i] = p.digest[:]
	}
	rows, err := st.QueryContext(w.ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var digest []byte
		var id int64
		if err := rows.Scan(&digest, &id); err != nil {
			return err
		}
		w.ids[[32]byte(digest)] = id
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, p := range w.pending {
		id, ok := w.ids[p.digest]
		if !ok {
			id = w.nextID
			w.nextID++
			w.ids[p.digest] = id
			if err := w.write(id, p); err != nil {
				return err
			}
		}
		for _, b := range p.blocks {
			b.codeID = id
		}
		delete(w.waiting, p.digest)
	}
	w.pending = w.pending[:0]
	return nil
}

func (w *codeWriter) write(id int64, p *pendingCode) error {
	if err := w.codes.add(id, p.digest[:]); err != nil {
		return err
	}
	for i, in := range p.insns {
		if err := w.insns.add(id, i, int64(in.Addr), in.Encoding, p.mnemonics[i], in.Mnemonic, in.Operands); err != nil {
			return err
		}
	}
	return nil
}

// flush resolves every pending code and writes what is queued: the blocks may then be written.
func (w *codeWriter) flush() error {
	if err := w.resolve(); err != nil {
		return err
	}
	if err := w.codes.flush(); err != nil {
		return err
	}
	return w.insns.flush()
}

func (w *codeWriter) lookup(n int) (*sql.Stmt, error) {
	if st, ok := w.lookups[n]; ok {
		return st, nil
	}
	q := `SELECT digest, id FROM block_code WHERE digest IN (?` + strings.Repeat(",?", n-1) + `)`
	st, err := w.tx.PrepareContext(w.ctx, q)
	if err != nil {
		return nil, err
	}
	w.lookups[n] = st
	return st, nil
}

// codeDigest is the SHA-256 of everything code_insn keeps of a block: its ISA and each
// instruction's address, encoding, mnemonic (class or normalised), printed mnemonic and
// operands, each field after its length so no two blocks run together.
func codeDigest(b *cost.Block) [32]byte {
	h := sha256.New()
	var buf []byte
	field := func(s string) {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	field(string(b.ISA))
	for _, in := range b.Insns {
		buf = binary.AppendUvarint(buf, in.Addr)
		field(in.Encoding)
		field(in.ClassOrMnemonic())
		field(in.Mnemonic)
		field(in.Operands)
		if len(buf) > 4096 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
	return [32]byte(h.Sum(nil))
}

// codeCache remembers the codes this DB's imports found or wrote, by digest, so a batch of runs
// of one program looks each code up once. An entry is right as long as its code exists: ids are
// never used again. So the cache is emptied when a run is deleted, and when the workspace was
// changed through another connection (data_version) or the writer's connection is a new one
// (total_changes fell); an import's codes join it once the import is committed.
type codeCache struct {
	mu      sync.Mutex
	ids     map[[32]byte]int64
	version int64 // the writer connection's data_version at the last import
	changes int64 // and its total_changes()
	gen     int   // how many times it was emptied: an import's codes join it only if it was not since the import began
}

// codeCacheSize bounds the cache (about 50 bytes an entry).
const codeCacheSize = 1 << 20

// begin readies the cache for an import in tx: it forgets what may no longer be right, and
// returns the generation to give commit.
func (c *codeCache) begin(ctx context.Context, tx *sql.Tx) (gen int, err error) {
	var version, changes int64
	if err := tx.QueryRowContext(ctx, `SELECT data_version, total_changes() FROM pragma_data_version()`).Scan(&version, &changes); err != nil {
		return 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ids == nil || version != c.version || changes < c.changes {
		c.ids = map[[32]byte]int64{}
		c.gen++
	}
	c.version, c.changes = version, changes
	return c.gen, nil
}

// get is the id of the code with digest, if the cache knows it.
func (c *codeCache) get(digest [32]byte) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ok := c.ids[digest]
	return id, ok
}

// commit adds the codes a committed import found or wrote, unless the cache was emptied since
// the import began (a run deleted meanwhile may have taken them).
func (c *codeCache) commit(gen int, fresh map[[32]byte]int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.ids == nil || len(c.ids)+len(fresh) > codeCacheSize {
		c.ids = map[[32]byte]int64{}
		c.gen++
	}
	for k, v := range fresh {
		c.ids[k] = v
	}
}

// forget empties the cache: codes were deleted.
func (c *codeCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids = nil
	c.gen++
}
