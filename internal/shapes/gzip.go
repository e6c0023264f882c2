package shapes

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
)

// HPROFBomb writes a gzip-compressed HPROF dump that expands to about expandedMiB MiB: a
// valid dump whose heap is byte arrays of zeros, so a reader without a bound on gzip expansion
// reads all of it (finding 11: 2.6 MB on disk for 2.7 GB, about 1000:1). The file is about
// expandedMiB KiB; it is made in milliseconds, by repeating the compressed bytes of one MiB of
// zeros, not by compressing gigabytes. The importer refuses it once it has expanded past
// gunzip.Free (16 MiB), so a bomb of 16 MiB or less imports: it costs nothing.
func HPROFBomb(w io.Writer, expandedMiB int) error {
	b := newBomb(w)
	b.plain(append([]byte("JAVA PROFILE 1.0.2\x00"), 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0)) // id size 4, time 0
	const perArray = 256 << 20
	left := int64(expandedMiB) << 20
	for id := uint32(1); left > 0; id++ {
		n := min(left, perArray)
		rec := []byte{0x1C, 0, 0, 0, 0} // HEAP DUMP SEGMENT, time 0
		rec = binary.BigEndian.AppendUint32(rec, uint32(14+n))
		rec = append(rec, 0x23) // PRIMITIVE ARRAY DUMP
		rec = binary.BigEndian.AppendUint32(rec, id)
		rec = binary.BigEndian.AppendUint32(rec, 0) // stack serial
		rec = binary.BigEndian.AppendUint32(rec, uint32(n))
		rec = append(rec, 8) // byte[]
		b.plain(rec)
		b.zeros(n)
		left -= n
	}
	b.plain([]byte{0x2C, 0, 0, 0, 0, 0, 0, 0, 0}) // HEAP DUMP END
	return b.close()
}

// bomb writes gzip data whose runs of zeros cost no compression: once a MiB of zeros
// compresses to the bytes the MiB before did (the window holds nothing but zeros, and a flush
// aligns each MiB to a byte), those bytes stand for every further MiB.
type bomb struct {
	w            io.Writer
	out          bytes.Buffer // the compressor's output not yet written to w
	zw           *flate.Writer
	crc          uint32
	size         int64
	last, steady []byte // the last MiB of zeros compressed; the bytes every MiB compresses to
	err          error
}

const mib = 1 << 20

var zeroMiB = make([]byte, mib)

func newBomb(w io.Writer) *bomb {
	b := &bomb{w: w}
	b.out.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}) // gzip header: deflate, no name, no time
	b.zw, _ = flate.NewWriter(&b.out, flate.BestCompression)   // a valid level never fails
	return b
}

// plain compresses p as it is.
func (b *bomb) plain(p []byte) {
	b.zw.Write(p) // into a bytes.Buffer: no error
	b.count(p)
	b.last, b.steady = nil, nil // the window holds more than zeros now
}

func (b *bomb) count(p []byte) {
	b.crc = crc32.Update(b.crc, crc32.IEEETable, p)
	b.size += int64(len(p))
}

// zeros adds n zeros, a MiB at a time.
func (b *bomb) zeros(n int64) {
	for ; n >= mib; n -= mib {
		b.count(zeroMiB)
		if b.steady != nil {
			b.write(b.steady)
			continue
		}
		start := b.out.Len() // what plain compressed before is still in out
		b.zw.Write(zeroMiB)
		b.zw.Flush()
		if chunk := b.out.Bytes()[start:]; bytes.Equal(chunk, b.last) {
			b.steady = b.last
		} else {
			b.last = bytes.Clone(chunk)
		}
		b.write(b.out.Bytes())
		b.out.Reset()
	}
	b.plain(zeroMiB[:n])
}

func (b *bomb) write(p []byte) {
	if b.err == nil {
		_, b.err = b.w.Write(p)
	}
}

// close ends the deflate stream and writes gzip's trailer: the CRC and size of all it stands for.
func (b *bomb) close() error {
	b.zw.Close()
	b.out.Write(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, b.crc), uint32(b.size)))
	b.write(b.out.Bytes())
	if b.err != nil {
		return errors.Join(errors.New("shapes: writing a gzip bomb"), b.err)
	}
	return nil
}
