package calls

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// A method run keeps every call (issue 28) as chunks: up to ChunkCalls consecutive calls of one
// thread, in the order they ended, packed with deltas and varints (docs/calls-store.md). The
// store keeps each chunk's bounds beside it, so a narrow window of the timeline decodes only the
// chunks that overlap it, and a whole-run export streams them one at a time.

// ChunkCalls is how many calls a chunk holds at most: small enough to decode in well under a
// millisecond, large enough that the per-chunk row costs little.
const ChunkCalls = 4096

// chunkHeldBytes bounds the buffers the threads' encoders hold in all: past it, every thread's
// unfinished chunk is emitted short and its buffer let go, so a trace of many threads stays
// flat rather than holding thousands of nearly full chunks.
const chunkHeldBytes = 16 << 20

// chunkFormat is the first byte of every chunk: the layout below; another value is refused.
const chunkFormat = 1

// ErrOnlySpans says a run was imported before every call was kept: what it has are the
// timeline's longest calls (MethodTrace.SpanMinMicros and longer).
var ErrOnlySpans = errors.New("this run was imported before every call was kept, so only its longest calls are stored: re-import it")

// CallChunk is one finished chunk of a thread's calls with its bounds on both clocks, so the
// store can index it on the run's timeline clock.
type CallChunk struct {
	TID                      int
	Seq                      int // 0, 1, … per thread, in the order the calls ended
	Calls                    int
	MinStartWall, MaxEndWall uint64
	MinStartCPU, MaxEndCPU   uint64
	Data                     []byte
}

// ChunkSource hands the chunks of an import to the store, one at a time (they may not all fit
// in memory); fn must not keep Data after it returns. Methods is the run's methods in the
// order chunks index them (ChunkWriter.Methods), which DecodeChunk needs.
type ChunkSource interface {
	EachChunk(fn func(CallChunk) error) error
	Methods() []uint64
}

// ChunkWriter packs the calls of a CallBuilder (use Add as OnCall) into chunks and hands each
// finished one to Emit. Memory stays bounded by chunkHeldBytes (and one chunk's growth).
type ChunkWriter struct {
	Emit    func(CallChunk) error
	methods methodIndex
	threads map[int]*chunkEncoder
	order   []*chunkEncoder // threads by first call, so flushes are deterministic
	held    int             // bytes of the encoders' buffers (their capacity)
	err     error
}

// methodIndex numbers methods in the order calls of them first end, so the methods called most
// often (and first) take one byte, and a whole run shares one table.
type methodIndex struct {
	index map[uint64]uint64
	order []uint64
}

func (m *methodIndex) of(id uint64) uint64 {
	if m.index == nil {
		m.index = map[uint64]uint64{}
	}
	k, ok := m.index[id]
	if !ok {
		k = uint64(len(m.order))
		m.index[id] = k
		m.order = append(m.order, id)
	}
	return k
}

// Methods is the run's methods in the order the chunks index them: keep it with the chunks.
func (w *ChunkWriter) Methods() []uint64 { return w.methods.order }

// chunkEncoder is one thread's unfinished chunk and what its next call is a delta from.
type chunkEncoder struct {
	tid, seq, n int
	buf         []byte
	methods     *methodIndex
	prev        Call
	guess       methodGuess
	bounds      CallChunk
}

// maxGuessDepth bounds the depths methodGuess remembers; deeper calls are spelt out.
const maxGuessDepth = 4096

// methodGuess predicts a call's method and caller from the calls that ended before it: calls
// end callees first, so the caller a call at depth d+1 named is most often the next call to end
// at depth d, and calls at one depth most often share their caller. A right guess costs one byte.
type methodGuess struct {
	parentAt []guessSlot // by depth: the caller of the last call that ended there
}

type guessSlot struct {
	method uint64
	ok     bool
}

func (g *methodGuess) at(depth int) guessSlot {
	if depth < 0 || depth >= len(g.parentAt) {
		return guessSlot{}
	}
	return g.parentAt[depth]
}

func (g *methodGuess) saw(c Call) {
	if c.Depth < 0 || c.Depth >= maxGuessDepth {
		return
	}
	for len(g.parentAt) <= c.Depth {
		g.parentAt = append(g.parentAt, guessSlot{})
	}
	g.parentAt[c.Depth] = guessSlot{c.ParentMethod, true}
}

// Add packs one finished call; after an error of Emit, calls are dropped and Err returns it.
func (w *ChunkWriter) Add(c Call) {
	if w.err != nil {
		return
	}
	if w.threads == nil {
		w.threads = map[int]*chunkEncoder{}
	}
	e := w.threads[c.TID]
	if e == nil {
		e = &chunkEncoder{tid: c.TID, methods: &w.methods}
		w.threads[c.TID] = e
		w.order = append(w.order, e)
	}
	before := cap(e.buf)
	e.add(c)
	w.held += cap(e.buf) - before
	if e.n >= ChunkCalls {
		w.err = w.emit(e) // the buffer is kept: a busy thread fills it again
	} else if w.held > chunkHeldBytes {
		w.err = w.Flush()
	}
}

// Flush emits every unfinished chunk and lets the buffers go; call it once the trace has ended.
func (w *ChunkWriter) Flush() error {
	for _, e := range w.order {
		if w.err == nil && e.n > 0 {
			w.err = w.emit(e)
		}
		w.held -= cap(e.buf)
		e.buf, e.guess.parentAt = nil, nil
	}
	return w.err
}

// Err is the first error Emit returned.
func (w *ChunkWriter) Err() error { return w.err }

func (w *ChunkWriter) emit(e *chunkEncoder) error {
	c := e.bounds
	c.TID, c.Seq, c.Calls, c.Data = e.tid, e.seq, e.n, e.buf
	err := w.Emit(c)
	e.seq++
	e.n, e.buf, e.prev, e.guess.parentAt = 0, e.buf[:0], Call{}, e.guess.parentAt[:0]
	return err
}

func zigzag(d uint64) uint64   { return d<<1 ^ uint64(int64(d)>>63) }
func unzigzag(u uint64) uint64 { return u>>1 ^ -(u & 1) }

// method appends 0 for a right guess, else 1 + the method's index in the run.
func (e *chunkEncoder) method(id uint64, guess guessSlot) {
	if guess.ok && guess.method == id {
		e.buf = append(e.buf, 0)
		return
	}
	e.buf = binary.AppendUvarint(e.buf, e.methods.of(id)+1)
}

// add appends one call: its flags with its depth's change from the call before, its method and
// its caller (method), then its ends as deltas from the call before, its lengths, and each
// clock's inclusive minus exclusive time (0 for a leaf).
func (e *chunkEncoder) add(c Call) {
	if e.n == 0 {
		e.buf = append(e.buf, chunkFormat)
		e.bounds = CallChunk{MinStartWall: c.StartWall, MaxEndWall: c.EndWall, MinStartCPU: c.StartCPU, MaxEndCPU: c.EndCPU}
	}
	b := &e.bounds
	b.MinStartWall, b.MaxEndWall = min(b.MinStartWall, c.StartWall), max(b.MaxEndWall, c.EndWall)
	b.MinStartCPU, b.MaxEndCPU = min(b.MinStartCPU, c.StartCPU), max(b.MaxEndCPU, c.EndCPU)
	flags := uint64(c.End)
	if c.Recursive {
		flags |= 1 << 2
	}
	if c.Orphan {
		flags |= 1 << 3
	}
	p, inclWall, inclCPU := e.prev, c.EndWall-c.StartWall, c.EndCPU-c.StartCPU
	e.buf = binary.AppendUvarint(e.buf, flags|zigzag(uint64(c.Depth-p.Depth))<<4)
	e.method(c.Method, e.guess.at(c.Depth+1))
	e.method(c.ParentMethod, e.guess.at(c.Depth))
	for _, v := range [...]uint64{zigzag(c.EndWall - p.EndWall), inclWall, zigzag(c.EndCPU - p.EndCPU), inclCPU,
		zigzag(inclWall - c.ExclusiveWall), zigzag(inclCPU - c.ExclusiveCPU)} {
		e.buf = binary.AppendUvarint(e.buf, v)
	}
	e.guess.saw(c)
	e.prev = c
	e.n++
}

// ChunkError says which chunk could not be read: damaged, or written by a newer androprof.
type ChunkError struct {
	Run      string
	TID, Seq int
	Msg      string
}

func (e *ChunkError) Error() string {
	return fmt.Sprintf("run %q, thread %d, chunk %d of its calls: %s", e.Run, e.TID, e.Seq, e.Msg)
}

// DecodeChunk hands fn the calls of one chunk (what CallChunk.Data holds), in the order they
// ended; methods is the run's ChunkWriter.Methods. Damaged data is an error naming nothing:
// the caller wraps it in a ChunkError.
func DecodeChunk(data []byte, tid, n int, methods []uint64, fn func(Call) error) error {
	if len(data) == 0 || data[0] != chunkFormat {
		return errors.New("not a chunk of calls this androprof reads")
	}
	d := chunkDecoder{data: data[1:], methods: methods}
	var prev Call
	for i := 0; i < n; i++ {
		c, err := d.call(prev, tid)
		if err != nil {
			return fmt.Errorf("call %d: %w", i, err)
		}
		if err := fn(c); err != nil {
			return err
		}
		d.guess.saw(c)
		prev = c
	}
	if len(d.data) != 0 {
		return fmt.Errorf("%d bytes after its %d calls", len(d.data), n)
	}
	return nil
}

type chunkDecoder struct {
	data    []byte
	methods []uint64 // the run's, by index
	guess   methodGuess
	err     error
}

func (d *chunkDecoder) next() uint64 {
	if d.err != nil {
		return 0
	}
	v, k := binary.Uvarint(d.data)
	if k <= 0 {
		d.err = errors.New("cut short or a number too long")
		return 0
	}
	d.data = d.data[k:]
	return v
}

func (d *chunkDecoder) method(guess guessSlot) uint64 {
	k := d.next()
	switch {
	case d.err != nil:
		return 0
	case k == 0 && guess.ok:
		return guess.method
	case k == 0:
		d.err = errors.New("a guessed method with nothing to guess from")
		return 0
	case k-1 < uint64(len(d.methods)):
		return d.methods[k-1]
	}
	d.err = fmt.Errorf("method %d of a run that has %d", k-1, len(d.methods))
	return 0
}

func (d *chunkDecoder) call(p Call, tid int) (Call, error) {
	head := d.next()
	flags := head & 0xf
	c := Call{TID: tid, End: CallEnd(flags & 3), Recursive: flags&4 != 0, Orphan: flags&8 != 0}
	c.Depth = p.Depth + int(int64(unzigzag(head>>4)))
	if d.err == nil && c.Depth < 0 {
		d.err = fmt.Errorf("depth %d", c.Depth)
	}
	c.Method = d.method(d.guess.at(c.Depth + 1))
	c.ParentMethod = d.method(d.guess.at(c.Depth))
	c.EndWall = p.EndWall + unzigzag(d.next())
	c.StartWall = c.EndWall - d.next()
	c.EndCPU = p.EndCPU + unzigzag(d.next())
	c.StartCPU = c.EndCPU - d.next()
	c.ExclusiveWall = c.EndWall - c.StartWall - unzigzag(d.next())
	c.ExclusiveCPU = c.EndCPU - c.StartCPU - unzigzag(d.next())
	return c, d.err
}

// AppendMethods packs a run's method index (ChunkWriter.Methods) for the store.
func AppendMethods(b []byte, methods []uint64) []byte {
	for _, m := range methods {
		b = binary.AppendUvarint(b, m)
	}
	return b
}

// ParseMethods unpacks what AppendMethods packed.
func ParseMethods(b []byte) ([]uint64, error) {
	d := chunkDecoder{data: b}
	var out []uint64
	for len(d.data) > 0 && d.err == nil {
		out = append(out, d.next())
	}
	return out, d.err
}
