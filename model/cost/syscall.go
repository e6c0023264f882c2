package cost

import (
	"cmp"
	"slices"
)

// SyscallRow is one system call of a process (or of one thread), summed over what it groups.
type SyscallRow struct {
	PID, TID int // TID is 0 unless rows are per thread
	Number   int64
	Name     string
	Count    int64
	Insns    int64 // instructions run before these calls, each since the thread's previous call
}

// InsnsPerCall is the mean number of instructions a thread ran between its previous call and this one.
func (r SyscallRow) InsnsPerCall() float64 {
	if r.Count == 0 {
		return 0
	}
	return float64(r.Insns) / float64(r.Count)
}

// SummarizeSyscalls sums calls per process and name (per thread too with byThread), for
// process pid only when it is not 0; the most frequent first, then by pid, tid and name.
func SummarizeSyscalls(calls []Syscall, pid int, byThread bool) []SyscallRow {
	type key struct {
		pid, tid int
		nr       int64
	}
	index := map[key]int{}
	var out []SyscallRow
	for _, c := range calls {
		if pid != 0 && c.PID != pid {
			continue
		}
		k := key{c.PID, 0, c.Number}
		if byThread {
			k.tid = c.TID
		}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, SyscallRow{PID: c.PID, TID: k.tid, Number: c.Number, Name: c.Name})
		}
		out[i].Count += c.Count
		out[i].Insns += c.Insns
	}
	slices.SortFunc(out, func(a, b SyscallRow) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.PID, b.PID), cmp.Compare(a.TID, b.TID), cmp.Compare(a.Name, b.Name))
	})
	return out
}
