package perfscript

import (
	"bytes"
	"errors"
	"flag"
	"testing"

	"androprof/internal/fuzzseed"
	"androprof/internal/inputerr"
	"androprof/internal/testio"
	"androprof/model/samples"
)

var update = flag.Bool("update", false, "rewrite the seed corpus in testdata/fuzz/FuzzReader")

// FuzzReader feeds arbitrary bytes to detection and to the reader, through the builder an
// import uses: neither may panic, every refusal names the file and a line of the input, and
// what is read is well formed (no stack deeper than MaxFrames, no "[unknown]" left as a name).
func FuzzReader(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		Sniff(data)
		b := samples.NewSampleBuilder(samples.SampleSelection{})
		r := NewReader(bytes.NewReader(data), "fuzz")
		err := r.Feed(sinkFunc(func(s *samples.Sample) error {
			if len(s.Stack) > MaxFrames {
				t.Fatalf("%d frames", len(s.Stack))
			}
			for _, fr := range s.Stack {
				if fr.Symbol == "[unknown]" {
					t.Fatalf("frame %+v", fr)
				}
			}
			return b.Sample(s)
		}))
		b.Finish(r.Header())
		if err == nil {
			return
		}
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.File != "fuzz" || ie.Line < 1 {
			t.Fatalf("error without file and line: %v", err)
		}
		if n := int64(bytes.Count(data, []byte("\n")) + 1); ie.Line > n {
			t.Fatalf("line %d of a %d-line input: %v", ie.Line, n, err)
		}
	})
}

// TestWriteFuzzSeeds keeps the seed corpus in testdata/fuzz/FuzzReader: the start of the
// committed recording, the variants the reader tests read, and broken files (go test -run
// WriteFuzzSeeds -update).
func TestWriteFuzzSeeds(t *testing.T) {
	fuzzseed.Keep(t, fuzzSeeds(t), *update)
}

func fuzzSeeds(t *testing.T) map[string][]byte {
	rec := testio.ReadPlain(t, "testdata/java.perfscript.gz")
	head := rec[:bytes.Index(rec[8<<10:], []byte("\n\n"))+8<<10+2]
	return map[string][]byte{
		"recording-head": head,
		"pid-tid-cpu":    []byte("Thread 12 12345/12346 [001]   345.678901234:     250000 cpu-clock:ppp: \n\t7f1234 com.example.A.b(I)J (/tmp/perf-12345.map)\n\t7f1300 operator new(unsigned long) (/usr/lib/libstdc++.so.6)\n\t7f1600 Lcom/example/Foo;::bar (/memfd:jit-cache (deleted))\n\n"),
		"no-call-chain":  []byte("            spin 26881 57060.491370:     100000 cpu-clock:  ffffffff821cce99 mas_prev_slot+0xc9 ([kernel.kallsyms])\n            spin 21304  ffffffff81407e30 __rcu_read_unlock ([kernel.kallsyms])\n"),
		"ip-sym-dso":     []byte("\n\tffffffff81407e30 __rcu_read_unlock ([kernel.kallsyms])\n\n\n\t702db __sin_fma (/usr/lib/x86_64-linux-gnu/libm.so.6)\n\n"),
		"srcline-inline": []byte("spin 21304 56847.443489: sched:sched_switch: prev_comm=spin\n\tffffffff81407e30 __rcu_read_unlock+0x0 ([kernel.kallsyms])\n  [kernel.kallsyms][ffffffff81407e30]\n\t12d5 sq (inlined)\n\t12d5 outer+0x35 (/tmp/pa/spin)\n  spin.c:5\n\n"),
		"simpleperf":     []byte("# cmdline : simpleperf record -f 1000 -g\n#\nRenderThread\t4242/4260 [003] 12345.678901: 1000000 cpu-clock:\n\t    7f12340000 unknown ([anon:dalvik-jit-code-cache])\n\t    7e00001234 libhwui.so[+1234] (/system/lib64/libhwui.so)\n\ttracing data:\n\t\tcommon_type : 7\n\n"),
		"simpleperf-old": []byte("sudo\t4712 [001] 1051.622374:\t\t250000 cpu-clock:\n    7f9e0e7a2d6c\t__libc_start_main (/lib/x86_64-linux-gnu/libc-2.23.so)\n\n"),
		"header-crlf":    []byte("# cmdline : perf record -F 999 -g\r\n# event : name = cpu-clock, { sample_period, sample_freq } = 999, freq = 1\r\nspin 21304 56847.450512:    1001001 cpu-clock: \r\n\t702db __sin_fma+0x1b (/usr/lib/libm.so.6)\r\n"),
		"side-band":      []byte("perf-exec     0     0.000000: PERF_RECORD_COMM: perf-exec:8271/8271\nspin2  8271 57741.381724:    1001001 cpu-clock: \n\t702df __sin_fma+0x1f (/usr/lib/libm.so.6)\n\nspin2  8271 57741.390000: PERF_RECORD_EXIT(8271:8271):(8271:8271)\n"),
		"bad-frame":      []byte("java 1 1.000001: cpu-clock:\n\t7f1 f (a)\n\tzz f (a)\n"),
		"huge-numbers":   []byte(":-1 -1/-1 [4294967295] 9223372035.999999999: 18446744073709551615 e:\n\tffffffffffffffff x (y)\n"),
		"truncated":      rec[:2000],
	}
}
