// Package gunzip decompresses gzip input with a bound on how far it may expand, so a small
// file that claims to be a dump or a trace (a gzip bomb: 2.6 MB of zeros is 2.7 GB) is refused
// after a few MiB instead of costing gigabytes and minutes (issue 24, finding 11).
//
// Two bounds, each overridable by an environment variable so the window and the command line
// obey the same ones: the ratio of what comes out to what went in so far (past the first
// 16 MiB out, which any file may expand to), and the most that comes out in all. Nothing is
// allocated for what the gzip trailer claims: the data streams.
package gunzip

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// The defaults. Real files expand far less than DefaultRatio: the project's gzip files 3–39
// times (a perf script 39), a QEMU exec log of a program spinning in one block 285 times (one
// 67-byte line repeated: the most of any real file measured); zeros, a bomb's usual content,
// 1030 times, deflate's limit. A heap dump that is mostly a zeroed array expands that far too:
// it needs the variable. DefaultBytes is 16 times the largest inputs measured (a 1 GB QEMU log).
const (
	DefaultRatio = 500
	DefaultBytes = 16 << 30
	// Free is what any file may expand to before its ratio is looked at: the first blocks of a
	// small file may expand far more than the whole file does.
	Free = 16 << 20
)

// The environment variables that override the defaults: a whole number, 0 for no bound;
// ANDROPROF_GUNZIP_MAX_BYTES takes a K, M, G or T suffix (powers of 1024).
const (
	RatioEnv = "ANDROPROF_GUNZIP_MAX_RATIO"
	BytesEnv = "ANDROPROF_GUNZIP_MAX_BYTES"
)

// Limits bound a decompression; 0 is no bound.
type Limits struct {
	Ratio int64 // decompressed bytes per compressed byte read, past Free
	Bytes int64 // decompressed bytes in all
}

// ErrSetting says an environment variable's value is not a bound.
var ErrSetting = errors.New("bad setting")

// LimitsFromEnv are the defaults, overridden by the environment variables.
func LimitsFromEnv() (Limits, error) {
	l := Limits{Ratio: DefaultRatio, Bytes: DefaultBytes}
	var err error
	if v, ok := os.LookupEnv(RatioEnv); ok {
		if l.Ratio, err = parse(v, false); err != nil {
			return l, fmt.Errorf("%w: %s=%q: want a whole number (0: no bound)", ErrSetting, RatioEnv, v)
		}
	}
	if v, ok := os.LookupEnv(BytesEnv); ok {
		if l.Bytes, err = parse(v, true); err != nil {
			return l, fmt.Errorf("%w: %s=%q: want a number of bytes, e.g. 64G (0: no bound)", ErrSetting, BytesEnv, v)
		}
	}
	return l, nil
}

func parse(v string, suffix bool) (int64, error) {
	v = strings.TrimSpace(v)
	shift := 0
	if i := strings.IndexAny(v, "KkMmGgTt"); suffix && i > 0 && i == len(v)-1 {
		shift = 10 * (1 + strings.IndexByte("KMGT", strings.ToUpper(v[i:])[0]))
		v = v[:i]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("bad number %q", v)
	}
	return n << shift, nil
}

// Reader decompresses like gzip.Reader (several members read as one stream) and fails with an
// *ExpandError once a bound is passed.
type Reader struct {
	zr  *gzip.Reader
	in  counter
	out int64
	lim Limits
}

// NewReader reads the gzip header from r with the limits of the environment. Errors in the
// header are gzip's own (gzip.ErrHeader), so callers tell damaged data as before.
func NewReader(r io.Reader) (*Reader, error) {
	lim, err := LimitsFromEnv()
	if err != nil {
		return nil, err
	}
	z := &Reader{lim: lim}
	if err := z.Reset(r); err != nil {
		return nil, err
	}
	return z, nil
}

// Reset starts over on r, as gzip.Reader.Reset does, with nothing counted yet.
func (z *Reader) Reset(r io.Reader) error {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	z.in, z.out = counter{r: br}, 0
	if z.zr == nil {
		zr, err := gzip.NewReader(&z.in)
		z.zr = zr
		return err
	}
	return z.zr.Reset(&z.in)
}

func (z *Reader) Read(p []byte) (int, error) {
	if z.lim.Ratio > 0 && z.out > Free && z.out/z.lim.Ratio > z.in.n { // out > ratio × in, without overflow
		return 0, &ExpandError{In: z.in.n, Out: z.out, Limits: z.lim, ByRatio: true}
	}
	if z.lim.Bytes > 0 {
		if z.out >= z.lim.Bytes {
			return 0, z.atBound()
		}
		p = p[:min(int64(len(p)), z.lim.Bytes-z.out)]
	}
	n, err := z.zr.Read(p)
	z.out += int64(n)
	return n, err
}

// atBound tells data that ends at the total's bound (io.EOF) from data that goes on past it.
func (z *Reader) atBound() error {
	var one [1]byte
	if n, err := io.ReadFull(z.zr, one[:]); n == 0 {
		return err
	}
	return &ExpandError{In: z.in.n, Out: z.out, Limits: z.lim}
}

// Close closes the gzip reader (not what it reads).
func (z *Reader) Close() error { return z.zr.Close() }

// counter counts the compressed bytes the decompressor has taken: it is a flate.Reader
// (ReadByte), so gzip reads it directly, byte by byte, with nothing buffered in between.
type counter struct {
	r *bufio.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *counter) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// ExpandError says compressed data expanded past a bound, and where in the compressed file.
// The readers put the file's name and their place before it.
type ExpandError struct {
	In, Out int64 // compressed bytes read, decompressed bytes given
	Limits
	ByRatio bool // the ratio's bound, not the total's
}

func (e *ExpandError) Error() string {
	if e.ByRatio {
		return fmt.Sprintf("gzip data expands more than %d times (to %d bytes from the first %d of the compressed file): "+
			"a gzip bomb? Set %s higher, or 0, to read it", e.Ratio, e.Out, e.In, RatioEnv)
	}
	return fmt.Sprintf("gzip data expands past %d bytes (at byte %d of the compressed file); set %s higher, or 0, to read it",
		e.Bytes, e.In, BytesEnv)
}
