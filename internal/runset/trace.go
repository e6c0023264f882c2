package runset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// RegressedMicros is how much slower the regressed method of the later commits' app traces
// is on each call, in both clocks.
const RegressedMicros = 300

// traceMagic starts the binary part of a classic Traceview trace ("SLOW").
const traceMagic = 0x574F4C53

// traceLayout is what the rewrite needs of a classic trace's data header.
type traceLayout struct {
	start   int // first record
	recSize int
	tidSize int
	dual    bool // two clocks a record: thread-cpu, then wall
}

// rewriteTrace scales every time of a classic Traceview trace (docs/formats.md) by f and, when
// regressed, makes RegressedMethod slower: each of its exits comes RegressedMicros later on
// its thread's clocks, and so does everything after it on that thread. Records, methods and
// threads are kept, so the calls are the same and each thread's clocks still only go forward.
func rewriteTrace(trace []byte, f float64, regressed bool) ([]byte, error) {
	lay, err := classicLayout(trace)
	if err != nil {
		return nil, err
	}
	out := append([]byte{}, trace...)
	slow := uint32(0)
	if regressed {
		slow = regressedMethod(trace, lay)
	}
	clocks := map[int]*threadClocks{}
	for at := lay.start; at+lay.recSize <= len(out); at += lay.recSize {
		rec := out[at : at+lay.recSize]
		tid := int(rec[0])
		if lay.tidSize == 2 {
			tid = int(binary.LittleEndian.Uint16(rec))
		}
		c := clocks[tid]
		if c == nil {
			c = &threadClocks{}
			clocks[tid] = c
		}
		mv := binary.LittleEndian.Uint32(rec[lay.tidSize:])
		if slow != 0 && mv&^3 == slow && mv&3 != 0 {
			c.shift += RegressedMicros
		}
		c.rewrite(rec[lay.tidSize+4:], 0, f)
		if lay.dual {
			c.rewrite(rec[lay.tidSize+8:], 1, f)
		}
	}
	return out, nil
}

// threadClocks follows one thread's two 32-bit clocks past their wrap, as the reader does.
type threadClocks struct {
	last  [2]uint32
	hi    [2]uint64
	seen  [2]bool
	shift uint64
}

func (c *threadClocks) rewrite(b []byte, clock int, f float64) {
	v := binary.LittleEndian.Uint32(b)
	if c.seen[clock] && v < c.last[clock] && c.last[clock]-v > 1<<31 {
		c.hi[clock] += 1 << 32
	}
	c.last[clock], c.seen[clock] = v, true
	t := uint64(math.Round(float64(c.hi[clock]|uint64(v))*f)) + c.shift
	binary.LittleEndian.PutUint32(b, uint32(t))
}

// classicLayout finds the records of a classic (key section, then data) trace.
func classicLayout(trace []byte) (traceLayout, error) {
	key := bytes.Index(trace, []byte("\n*end\n"))
	if !bytes.HasPrefix(trace, []byte("*version\n")) || key < 0 {
		return traceLayout{}, errors.New("not a classic Traceview trace (no *version … *end key section)")
	}
	h := trace[key+len("\n*end\n"):]
	if len(h) < 16 || binary.LittleEndian.Uint32(h) != traceMagic {
		return traceLayout{}, errors.New("no data header after the key section")
	}
	version, offset := binary.LittleEndian.Uint16(h[4:]), int(binary.LittleEndian.Uint16(h[6:]))
	lay := traceLayout{start: len(trace) - len(h) + offset, tidSize: 2, recSize: 10}
	lay.dual = bytes.Contains(trace[:key], []byte("\nclock=dual\n"))
	switch version {
	case 1:
		lay.tidSize, lay.recSize = 1, 9
	case 3:
		if len(h) < 18 {
			return traceLayout{}, errors.New("data header cut")
		}
		lay.recSize = int(binary.LittleEndian.Uint16(h[16:]))
	}
	if need := lay.tidSize + 8 + map[bool]int{true: 4}[lay.dual]; lay.recSize < need || version > 3 {
		return traceLayout{}, fmt.Errorf("version %d with %d-byte records", version, lay.recSize)
	}
	return lay, nil
}

// regressedMethod is the method a regressed trace slows down: the first to return on a thread
// that entered it in the trace (a leaf the app runs early; an exit whose enter came before the
// trace started is not a call the reports count); 0 when none does.
func regressedMethod(trace []byte, lay traceLayout) uint32 {
	type call struct {
		tid    uint16
		method uint32
	}
	entered := map[call]bool{}
	for at := lay.start; at+lay.recSize <= len(trace); at += lay.recSize {
		tid := uint16(trace[at])
		if lay.tidSize == 2 {
			tid = binary.LittleEndian.Uint16(trace[at:])
		}
		mv := binary.LittleEndian.Uint32(trace[at+lay.tidSize:])
		c := call{tid, mv &^ 3}
		switch mv & 3 {
		case 0:
			entered[c] = true
		case 1:
			if entered[c] {
				return c.method
			}
		}
	}
	return 0
}
