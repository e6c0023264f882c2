package formats

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"

	"androprof/internal/countio"
	"androprof/internal/gunzip"
)

// HeadSize is the most of a file's start Recognize reads: what a QEMU log may take to show
// its first record. It looks at firstLook bytes first, which settle every format for nearly
// every file, and reads on only when no format claims them.
const HeadSize = 4 << 20

// firstLook is what Recognize reads of a plain file first: small, so recognising a file costs
// the import no memory it keeps.
const firstLook = 64 << 10

// keptHead is what Recognize decompresses of a gzip file and keeps: every format that may be
// compressed says from it whether a file is its own, and a reader that goes back to the start
// (a trace's look ahead) finds it there.
const keptHead = 1 << 20

// Input is one file of an import, recognised and ready for its format's Read function.
type Input struct {
	Name   string
	Format *Format
	Size   int64 // on disk; -1 for a pipe
	// R is the file's content from its start, decompressed, counted by the import's Progress.
	// It is an io.ReadSeeker when the file is regular: a plain file seeks anywhere, a compressed
	// one only from its start (its first MiB is kept, further back it decompresses again).
	R io.Reader
}

// Recognize reads the start of f (decompressed when f is gzip-compressed), tells its format
// and adds f's size times the format's passes to p. Reading the returned Input goes through
// one countio.Reader on f, so it reports to p and fails once p's context is done. f stays the
// caller's to close.
func Recognize(f *os.File, p *countio.Progress) (*Input, error) {
	in := &Input{Name: f.Name(), Size: -1}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	counted := &countio.Reader{R: f, Progress: p}
	if st.Mode().IsRegular() {
		in.Size = st.Size()
		counted.R = &sized{f: f, size: in.Size}
		err = in.regular(f, counted)
	} else {
		err = in.pipe(counted)
	}
	if errors.As(err, new(*gunzip.ExpandError)) || errors.Is(err, gunzip.ErrSetting) {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	if err != nil {
		return nil, err
	}
	if in.Size >= 0 {
		p.Expect(in.Size * int64(max(in.Format.Passes, 1)))
	}
	return in, nil
}

// regular recognises a regular file. Its first look is not counted: the format reads the file
// from its start again, or from the kept head of a compressed one.
func (in *Input) regular(f *os.File, counted *countio.Reader) error {
	head, err := readHead(f, nil, int(min(in.Size, firstLook)))
	if err != nil {
		return err
	}
	in.R = counted
	if isGzip(head) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		z, err := newGzipInput(counted)
		if err == nil {
			in.R = z
			in.Format, err = recognize(in.Name, z.head, true)
			return err
		}
		if !damaged(err) {
			return err
		}
	}
	in.Format, _, err = recognizePlain(in.Name, f, head, int(min(in.Size, HeadSize)))
	if _, serr := f.Seek(0, io.SeekStart); err == nil {
		err = serr
	}
	return err
}

// pipe recognises what a pipe gives first and keeps it, to give it again.
func (in *Input) pipe(counted *countio.Reader) error {
	br := bufio.NewReader(counted)
	var head []byte
	var err error
	if magic, _ := br.Peek(2); isGzip(magic) {
		if zr, zerr := gunzip.NewReader(br); zerr == nil {
			if head, err = readHead(zr, nil, keptHead); err != nil {
				return err
			}
			in.Format, err = recognize(in.Name, head, true)
			in.R = io.MultiReader(bytes.NewReader(head), zr)
			return err
		} else if !damaged(zerr) {
			return zerr
		}
	}
	if head, err = readHead(br, nil, firstLook); err != nil {
		return err
	}
	in.Format, head, err = recognizePlain(in.Name, br, head, HeadSize)
	in.R = io.MultiReader(bytes.NewReader(head), br)
	return err
}

// recognizePlain recognises an uncompressed file from head, its first bytes, reading on from r
// up to limit bytes in all when no format claims them. While head may end before the file
// does, the formats see only its complete lines: a line format then answers as it would on the
// whole file, and a QEMU log's first record that is complete in them is complete in the file.
func recognizePlain(name string, r io.Reader, head []byte, limit int) (*Format, []byte, error) {
	look := head
	if i := bytes.LastIndexByte(head, '\n'); len(head) < limit && i >= 32 { // binary formats look at 32 bytes at most
		look = head[:i+1]
	}
	f, err := recognize(name, look, false)
	if !errors.Is(err, ErrUnknownFormat) || len(head) >= limit {
		return f, head, err
	}
	if head, err = readHead(r, head, limit); err != nil {
		return nil, head, err
	}
	f, err = recognize(name, head, false)
	return f, head, err
}

// readHead reads r until head holds n bytes or r ends. Damaged compressed data ends it too: the
// format's reader reports that where it meets it.
func readHead(r io.Reader, head []byte, n int) ([]byte, error) {
	if cap(head) < n {
		head = append(make([]byte, 0, n), head...)
	}
	m, err := io.ReadFull(r, head[len(head):n])
	head = head[:len(head)+m]
	if err == io.EOF || err != nil && damaged(err) {
		err = nil
	}
	return head, err
}

func isGzip(head []byte) bool { return len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b }

// damaged tells an error in compressed data, which the format's reader reports where it meets
// it, from one of the file system or a cancellation, which stops the import now.
func damaged(err error) bool {
	var corrupt flate.CorruptInputError
	return errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.As(err, &corrupt) ||
		errors.Is(err, io.ErrUnexpectedEOF)
}

// sized reads a regular file and fails where it ends short of the size it had when the import
// began: another program cut it meanwhile (a recorder run again over it, `>` on it), and what
// was read is only a prefix, which the file's last line need not show (issue 24, finding 16).
type sized struct {
	f    io.ReadSeeker
	size int64
	pos  int64
}

func (s *sized) Read(p []byte) (int, error) {
	n, err := s.f.Read(p)
	s.pos += int64(n)
	if err == io.EOF && s.pos < s.size {
		err = fmt.Errorf("the file shrank to %d bytes during the import (it had %d when the import began): "+
			"another program cut it", s.pos, s.size)
	}
	return n, err
}

func (s *sized) Seek(offset int64, whence int) (int64, error) {
	pos, err := s.f.Seek(offset, whence)
	if err == nil {
		s.pos = pos
	}
	return pos, err
}

// errSeekEnd says a compressed file cannot seek from its end: it would have to be decompressed
// to get there.
var errSeekEnd = errors.New("a compressed file seeks only from its start")

// gzipInput is a gzip-compressed regular file, read decompressed within gunzip's bounds. It
// keeps the first MiB, so a reader that looks at the start again (a trace's header, Recognize's
// sniffing) does not decompress it again; a reader that goes back further (a heap dump's second
// pass) makes it start over from the file's start.
type gzipInput struct {
	file io.ReadSeeker
	buf  *bufio.Reader // between file and zr
	zr   *gunzip.Reader
	head []byte
	pos  int64 // where the next Read reads
	zpos int64 // how many bytes zr has given
}

func newGzipInput(file io.ReadSeeker) (*gzipInput, error) {
	g := &gzipInput{file: file, buf: bufio.NewReaderSize(file, 64<<10)}
	var err error
	if g.zr, err = gunzip.NewReader(g.buf); err != nil {
		return nil, err
	}
	if g.head, err = readHead(g.zr, nil, keptHead); err != nil {
		return nil, err
	}
	g.zpos = int64(len(g.head))
	return g, nil // a damaged stream fails again where the format reads on, at its place
}

func (g *gzipInput) Read(p []byte) (int, error) {
	if g.pos < int64(len(g.head)) {
		n := copy(p, g.head[g.pos:])
		g.pos += int64(n)
		return n, nil
	}
	if g.zpos != g.pos {
		if err := g.reach(g.pos); err != nil {
			return 0, err
		}
	}
	n, err := g.zr.Read(p)
	g.pos += int64(n)
	g.zpos += int64(n)
	return n, err
}

// reach puts the decompressor at pos: forward by skipping, back by starting over.
func (g *gzipInput) reach(pos int64) error {
	if pos < g.zpos {
		if _, err := g.file.Seek(0, io.SeekStart); err != nil {
			return err
		}
		g.buf.Reset(g.file)
		if err := g.zr.Reset(g.buf); err != nil {
			return err
		}
		g.zpos = 0
	}
	n, err := io.CopyN(io.Discard, g.zr, pos-g.zpos)
	g.zpos += n
	if err == io.EOF {
		return nil // past the end: the next Read says so
	}
	return err
}

// Seek moves where the next Read reads; only from the start or the current position.
func (g *gzipInput) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += g.pos
	default:
		return 0, errSeekEnd
	}
	if offset < 0 {
		return 0, errors.New("seek before the start")
	}
	g.pos = offset
	return offset, nil
}
