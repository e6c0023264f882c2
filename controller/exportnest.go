package controller

import "androprof/model/calls"

// nestHoldCalls bounds the finished outermost calls a callNester keeps before writing them: an
// orphan call (one that began before tracing) can only take in the calls still held.
const nestHoldCalls = 1 << 18

// nestedCall is a finished call as a callNester keeps it: 40 bytes and no pointers, so a
// thread's millions of calls cost the garbage collector nothing to hold.
type nestedCall struct {
	method     uint64
	start, end uint64 // on the export's clock
	size       int    // calls in its subtree, itself included: they are the size−1 before it
	depth      int32
}

// callNester turns one thread's calls as EachCall hands them (in the order they ended, a
// callee before its caller) into opens and closes in time order, a caller before its callees,
// for the formats that nest slices: Chrome's (whose viewers nest slices of equal times in file
// order), Perfetto's begin and end, speedscope's evented profiles. It keeps a call until its
// outermost caller ends. An orphan call ran around the outermost calls before it, so it takes
// them in as its own, as the profile table's level-1 time counts them. Times never go
// backwards: an event earlier than the one before is written at that one's time.
type callNester struct {
	at    func(calls.Call) (start, end uint64) // the clock
	open  func(method, start, end uint64) error
	close func(method, ts uint64) error
	held  []nestedCall // finished calls, in the order they ended
	roots []int        // indexes in held of the calls whose caller has not ended
	kids  []int        // scratch of write
	last  uint64       // the last time written
}

// add takes the next call of the thread.
func (n *callNester) add(c calls.Call) error {
	start, end := n.at(c)
	nc := nestedCall{method: c.Method, start: start, end: max(end, start), size: 1, depth: int32(c.Depth)}
	k := len(n.roots)
	for k > 0 && (n.held[n.roots[k-1]].depth > nc.depth || c.Orphan && c.Depth == 0) {
		k--
		nc.size += n.held[n.roots[k]].size
	}
	n.roots = append(n.roots[:k], len(n.held))
	n.held = append(n.held, nc)
	if len(n.held) > nestHoldCalls && len(n.roots) > 1 && n.held[n.roots[0]].depth == 0 {
		return n.writeOutermost()
	}
	return nil
}

// writeOutermost writes the finished outermost calls held but the last: only a later orphan
// would have taken them in.
func (n *callNester) writeOutermost() error {
	k := 0
	for ; k < len(n.roots)-1 && n.held[n.roots[k]].depth == 0; k++ {
		if err := n.write(n.roots[k]); err != nil {
			return err
		}
	}
	done := n.roots[k] - n.held[n.roots[k]].size + 1 // the first call under roots[k]
	n.held = append(n.held[:0], n.held[done:]...)
	n.roots = append(n.roots[:0], n.roots[k:]...)
	for i := range n.roots {
		n.roots[i] -= done
	}
	return nil
}

// flush writes every call held, as the thread's end does.
func (n *callNester) flush() error {
	for _, r := range n.roots {
		if err := n.write(r); err != nil {
			return err
		}
	}
	n.held, n.roots = n.held[:0], n.roots[:0]
	return nil
}

// write opens held[r], writes its callees in the order they ran, then closes it.
func (n *callNester) write(r int) error {
	c := n.held[r]
	start := n.advance(c.start)
	if err := n.open(c.method, start, max(c.end, start)); err != nil {
		return err
	}
	base := len(n.kids)
	for k := r - 1; k > r-c.size; k -= n.held[k].size { // the callees, last first
		n.kids = append(n.kids, k)
	}
	for i := len(n.kids) - 1; i >= base; i-- {
		if err := n.write(n.kids[i]); err != nil {
			return err
		}
	}
	n.kids = n.kids[:base]
	return n.close(c.method, n.advance(c.end))
}

func (n *callNester) advance(ts uint64) uint64 {
	n.last = max(n.last, ts)
	return n.last
}

// clockOf picks a call's times on the wall clock, else thread-CPU.
func clockOf(wall bool) func(calls.Call) (uint64, uint64) {
	if wall {
		return func(c calls.Call) (uint64, uint64) { return c.StartWall, c.EndWall }
	}
	return func(c calls.Call) (uint64, uint64) { return c.StartCPU, c.EndCPU }
}
