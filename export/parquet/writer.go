package parquet

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"androprof/internal/outfile"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"
)

// FileName is the name of every run's file of a table, in its partition folder.
const FileName = "part-0.parquet"

// batchRows is how many rows a Part holds before it hands them to the Parquet writer: rows
// are streamed, so a run of millions of rows is written in the memory of a batch and a page.
const batchRows = 4096

// Dir is an export's folder: what has been written into it so far.
type Dir struct {
	Root  string
	Files int
	Rows  map[string]int64 // by table
	Bytes int64
}

// NewDir starts an export into root, made if it is not there.
func NewDir(root string) (*Dir, error) {
	if err := os.MkdirAll(root, 0o777); err != nil {
		return nil, err
	}
	return &Dir{Root: root, Rows: map[string]int64{}}, nil
}

// EscapeRun is a run's name as a Hive partition value (Hive's and Spark's escapePathName):
// the bytes a path or a partition cannot hold are written %XX.
func EscapeRun(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte("\"#%'*/:=?\\{[]^", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// partDir is the partition folder of one run's table.
func (d *Dir) partDir(table, kind, run string) string {
	return filepath.Join(d.Root, table, "kind="+EscapeRun(kind), "run="+EscapeRun(run))
}

// RunFiles are one run's files of every table being written: none is in place until Commit,
// so a failed or cancelled run leaves the run's previous files as they were.
type RunFiles struct {
	dir       *Dir
	kind, run string
	parts     []committer
}

// committer is a Part of any row type.
type committer interface {
	finish() (rows int64, err error) // writes the footer; 0 rows: nothing to commit
	commit() (bytes int64, err error)
	abort()
	table() string
}

// BeginRun starts writing run, of kind.
func (d *Dir) BeginRun(kind, run string) *RunFiles {
	return &RunFiles{dir: d, kind: kind, run: run}
}

// Commit puts the run's files in place: the run's folders of tables it has no rows in now
// (in any kind's folder: the run may have been re-imported as another kind) are removed, and
// each written file renamed over the one it replaces, so the folder holds each run's rows once.
func (rf *RunFiles) Commit() error {
	written := map[string]int64{}
	for _, p := range rf.parts {
		n, err := p.finish()
		if err != nil {
			rf.Abort()
			return err
		}
		if n > 0 {
			written[p.table()] = n
		}
	}
	if err := rf.removeStale(written); err != nil {
		rf.Abort()
		return err
	}
	for _, p := range rf.parts {
		n, ok := written[p.table()]
		if !ok {
			p.abort()
			continue
		}
		size, err := p.commit()
		if err != nil {
			rf.Abort()
			return err
		}
		rf.dir.Files++
		rf.dir.Rows[p.table()] += n
		rf.dir.Bytes += size
	}
	return nil
}

// removeStale removes the run's partition folders that this export does not write again.
func (rf *RunFiles) removeStale(written map[string]int64) error {
	tables, err := os.ReadDir(rf.dir.Root)
	if err != nil {
		return err
	}
	want := "run=" + EscapeRun(rf.run)
	for _, t := range tables {
		if !t.IsDir() {
			continue
		}
		kinds, err := os.ReadDir(filepath.Join(rf.dir.Root, t.Name()))
		if err != nil {
			return err
		}
		for _, k := range kinds {
			if !k.IsDir() || !strings.HasPrefix(k.Name(), "kind=") {
				continue
			}
			_, keep := written[t.Name()]
			if keep && k.Name() == "kind="+EscapeRun(rf.kind) {
				continue
			}
			err := os.RemoveAll(filepath.Join(rf.dir.Root, t.Name(), k.Name(), want))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// Abort removes the run's unfinished files and leaves its previous ones.
func (rf *RunFiles) Abort() {
	for _, p := range rf.parts {
		p.abort()
	}
}

// Part is one run's file of one table, filled a row at a time.
type Part[T any] struct {
	rf    *RunFiles
	name  string
	path  string
	out   *outfile.File
	w     *pq.GenericWriter[T]
	batch []T
	rows  int64
	err   error
}

// NewPart starts run's file of table: it is made with the first row, so a table the run has
// no rows in gets no file.
func NewPart[T any](rf *RunFiles, table string) *Part[T] {
	p := &Part[T]{rf: rf, name: table, path: filepath.Join(rf.dir.partDir(table, rf.kind, rf.run), FileName)}
	rf.parts = append(rf.parts, p)
	return p
}

// Add appends a row; the first error is kept and returned by every later call.
func (p *Part[T]) Add(row T) error {
	if p.err != nil {
		return p.err
	}
	p.batch = append(p.batch, row)
	if len(p.batch) >= batchRows {
		p.err = p.flush()
	}
	return p.err
}

// flush hands the batch to the Parquet writer, opening the file with the first rows.
func (p *Part[T]) flush() error {
	if len(p.batch) == 0 {
		return nil
	}
	if p.w == nil {
		if err := os.MkdirAll(filepath.Dir(p.path), 0o777); err != nil {
			return err
		}
		out, err := outfile.Create(p.path)
		if err != nil {
			return err
		}
		p.out = out
		p.w = pq.NewGenericWriter[T](out, pq.Compression(&snappy.Codec{}))
	}
	if _, err := p.w.Write(p.batch); err != nil {
		return fmt.Errorf("%s: %w", p.path, err)
	}
	p.rows += int64(len(p.batch))
	clear(p.batch)
	p.batch = p.batch[:0]
	return nil
}

func (p *Part[T]) finish() (int64, error) {
	if p.err == nil {
		p.err = p.flush()
	}
	if p.err == nil && p.w != nil {
		if err := p.w.Close(); err != nil {
			p.err = fmt.Errorf("%s: %w", p.path, err)
		}
	}
	return p.rows, p.err
}

func (p *Part[T]) commit() (int64, error) {
	if _, err := p.out.Commit(); err != nil {
		return 0, err
	}
	st, err := os.Stat(p.path)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

func (p *Part[T]) abort() {
	if p.out != nil {
		p.out.Abort()
		os.Remove(filepath.Dir(p.path)) // the folder made for it, when nothing else is there
	}
}

func (p *Part[T]) table() string { return p.name }
