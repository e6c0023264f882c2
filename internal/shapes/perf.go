package shapes

import (
	"bufio"
	"fmt"
	"io"
)

// PerfScript writes `perf script` text of n samples of one thread, 1 ms apart from 1000 s on
// perf's clock, each with a stack of three frames (one of 16 leaf functions, then main and
// __libc_start_main), as perf script prints them.
func PerfScript(w io.Writer, n int) error { return perfScript(w, n, -1) }

// PerfBackInTime is PerfScript whose sample n/2 goes back in time: it is dated 1 s before the
// first sample, as a file spliced from two recordings, or samples of CPUs perf did not merge,
// have it (finding 13: such a file imported with negative times). Its header is on line
// 5×(n/2)+1.
func PerfBackInTime(w io.Writer, n int) error { return perfScript(w, n, n/2) }

// perfScript writes n samples; sample back (-1: none) is dated before the first.
func perfScript(w io.Writer, n, back int) error {
	bw := bufio.NewWriter(w)
	for i := range n {
		ns := int64(1000e9) + int64(i)*1e6
		if i == back {
			ns = 999e9
		}
		fmt.Fprintf(bw, "spin 4242/4242 %d.%06d:    1000000 cpu-clock: \n", ns/1e9, ns%1e9/1e3)
		fmt.Fprintf(bw, "\t    55d0c0de%04x work_%d+0x%x (/tmp/spin)\n", 0x100*(i%16), i%16, i%64)
		fmt.Fprintf(bw, "\t    55d0c0de2000 main+0x40 (/tmp/spin)\n")
		fmt.Fprintf(bw, "\t    7f3d58429d90 __libc_start_main+0x80 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n\n")
	}
	return bw.Flush()
}
