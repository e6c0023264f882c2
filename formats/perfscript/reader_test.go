package perfscript

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"androprof/formats/internal/lines"
	"androprof/internal/inputerr"
	"androprof/internal/testio"
	"androprof/model/samples"
)

// readAll reads text with Next and writes each sample as one line: "COMM PID/TID TIME PERIOD
// EVENT | ADDR SYMBOL (IMAGE) | …", so cases compare as text.
func readAll(t testing.TB, text, name string) ([]string, samples.SampleHeader, error) {
	t.Helper()
	r := NewReader(strings.NewReader(text), name)
	var got []string
	for {
		s, err := r.Next()
		if err == io.EOF {
			return got, r.Header(), nil
		}
		if err != nil {
			return got, r.Header(), err
		}
		got = append(got, format(s))
	}
}

func format(s *samples.Sample) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q %d/%d %d %d %q", s.Comm, s.PID, s.TID, s.TimeNS, s.Period, s.Event)
	for _, f := range s.Stack {
		fmt.Fprintf(&b, " | %x %q (%q)", f.Addr, f.Symbol, f.Image)
	}
	return b.String()
}

// Every variant of the text perf script prints (default fields, -F choices, no call chains,
// source lines, inlined functions) and report_sample.py's, old and new, reads to the same
// samples; names keep their blanks and parentheses, lose their offsets, and unnamed frames
// have no symbol.
func TestReadVariants(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
		header     samples.SampleHeader
	}{
		{
			name: "default",
			text: "java 25140 56979.592768:    1001001 cpu-clock: \n" +
				"\t    7f5c60ec7762 long Spin.loop(int)+0x162 (/tmp/perf-25138.map)\n" +
				"\t          78b2ee PhaseCFG::schedule_late+0x48e (/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so)\n" +
				"\t4548530030303030 [unknown] ([unknown])\n" +
				"\n" +
				"C2 CompilerThre 25153 56979.649443:    1001001 cpu-clock: \n" +
				"\tffffffff81407e30 __rcu_read_unlock+0x0 ([kernel.kallsyms])\n\n",
			want: []string{
				`"java" 0/25140 56979592768000 1001001 "cpu-clock" | 7f5c60ec7762 "long Spin.loop(int)" ("/tmp/perf-25138.map") | 78b2ee "PhaseCFG::schedule_late" ("/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so") | 4548530030303030 "" ("[unknown]")`,
				`"C2 CompilerThre" 0/25153 56979649443000 1001001 "cpu-clock" | ffffffff81407e30 "__rcu_read_unlock" ("[kernel.kallsyms]")`,
			},
			header: samples.SampleHeader{Format: FormatPerf, Event: "cpu-clock"},
		},
		{
			name: "pid-tid-cpu-ns-no-offsets",
			text: "Thread 12 12345/12346 [001]   345.678901234:     250000 cpu-clock:ppp: \n" +
				"\t7f1234 com.example.A.b(I)J (/tmp/perf-12345.map)\n" +
				"\t7f1300 operator new(unsigned long) (/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30)\n" +
				"\t7f1400 StubRoutines (1)+0x10 (/tmp/perf-12345.map)\n" +
				"\t7f1500 non-virtual thunk to LIRGenerator::block_do(BlockBegin*)+0xf8 (/usr/lib/libjvm.so)\n" +
				"\t7f1600 Lcom/example/Foo;::bar (/memfd:jit-cache (deleted))\n" +
				"\t7f1700 [unknown] (/tmp/perf-12345.map)\n",
			want: []string{
				`"Thread 12" 12345/12346 345678901234 250000 "cpu-clock:ppp" | 7f1234 "com.example.A.b(I)J" ("/tmp/perf-12345.map") | 7f1300 "operator new(unsigned long)" ("/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30") | 7f1400 "StubRoutines (1)" ("/tmp/perf-12345.map") | 7f1500 "non-virtual thunk to LIRGenerator::block_do(BlockBegin*)" ("/usr/lib/libjvm.so") | 7f1600 "Lcom/example/Foo;::bar" ("/memfd:jit-cache (deleted)") | 7f1700 "" ("/tmp/perf-12345.map")`,
			},
			header: samples.SampleHeader{Format: FormatPerf, Event: "cpu-clock:ppp"},
		},
		{
			name: "no-call-chain",
			text: "            spin 26881 57060.491370:     100000 cpu-clock:  ffffffff821cce99 mas_prev_slot+0xc9 ([kernel.kallsyms])\n" +
				"             cc1 26365 [000] 57061.630512:    2000000 cpu-clock:ppp:      7f3d5851aa91 __memmove_avx_unaligned_erms+0x11 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n" +
				"            spin 21304  ffffffff81407e30 __rcu_read_unlock ([kernel.kallsyms])\n",
			want: []string{
				`"spin" 0/26881 57060491370000 100000 "cpu-clock" | ffffffff821cce99 "mas_prev_slot" ("[kernel.kallsyms]")`,
				`"cc1" 0/26365 57061630512000 2000000 "cpu-clock:ppp" | 7f3d5851aa91 "__memmove_avx_unaligned_erms" ("/usr/lib/x86_64-linux-gnu/libc.so.6")`,
				`"spin" 0/21304 0 0 "" | ffffffff81407e30 "__rcu_read_unlock" ("[kernel.kallsyms]")`,
			},
			header: samples.SampleHeader{Format: FormatPerf, Event: "cpu-clock"},
		},
		{
			name: "ip-sym-dso-only", // perf script -F ip,sym,dso: an empty header line
			text: "\n\tffffffff81407e30 __rcu_read_unlock ([kernel.kallsyms])\n\t158b50 __strrchr_avx2 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n\n" +
				"\n\t702db __sin_fma (/usr/lib/x86_64-linux-gnu/libm.so.6)\n\n",
			want: []string{
				`"" 0/0 0 0 "" | ffffffff81407e30 "__rcu_read_unlock" ("[kernel.kallsyms]") | 158b50 "__strrchr_avx2" ("/usr/lib/x86_64-linux-gnu/libc.so.6")`,
				`"" 0/0 0 0 "" | 702db "__sin_fma" ("/usr/lib/x86_64-linux-gnu/libm.so.6")`,
			},
			header: samples.SampleHeader{Format: FormatPerf},
		},
		{
			name: "srcline-inlined-tracepoint", // -F +srcline; perf script --inline; a tracepoint's fields
			text: "spin 21304 56847.443489: sched:sched_switch: prev_comm=spin prev_pid=21304 ==> next_comm=swapper/0\n" +
				"\tffffffff81407e30 __rcu_read_unlock+0x0 ([kernel.kallsyms])\n" +
				"  [kernel.kallsyms][ffffffff81407e30]\n" +
				"\t12d5 sq (inlined)\n" +
				"\t12d5 outer+0x35 (/tmp/pa/spin)\n" +
				"  spin.c:5\n\n",
			want: []string{
				`"spin" 0/21304 56847443489000 0 "sched:sched_switch" | ffffffff81407e30 "__rcu_read_unlock" ("[kernel.kallsyms]") | 12d5 "sq" ("/tmp/pa/spin") | 12d5 "outer" ("/tmp/pa/spin")`,
			},
			header: samples.SampleHeader{Format: FormatPerf, Event: "sched:sched_switch"},
		},
		{
			name: "side-band-events", // perf script --show-mmap-events --show-task-events
			text: "swapper     0     0.000000: PERF_RECORD_MMAP -1/0: [0xffffffff81000000(0x1209988) @ 0xffffffff81000000]: x [kernel.kallsyms]_text\n" +
				"perf-exec     0     0.000000: PERF_RECORD_COMM: perf-exec:8271/8271\n" +
				"spin2  8271 57741.380722: PERF_RECORD_COMM exec: spin2:8271/8271\n" +
				"spin2  8271 57741.381724:    1001001 cpu-clock: \n\t702df __sin_fma+0x1f (/usr/lib/x86_64-linux-gnu/libm.so.6)\n\n" +
				"spin2  8271 57741.390000: PERF_RECORD_EXIT(8271:8271):(8271:8271)\n",
			want: []string{
				`"spin2" 0/8271 57741381724000 1001001 "cpu-clock" | 702df "__sin_fma" ("/usr/lib/x86_64-linux-gnu/libm.so.6")`,
			},
			header: samples.SampleHeader{Format: FormatPerf, Event: "cpu-clock"},
		},
		{
			name: "header-comments-crlf",
			text: "# ========\r\n# captured on    : Wed Nov 25 05:55:29 2026\r\n" +
				"# cmdline : /usr/bin/perf record -F 999 -g -e cpu-clock -o spin.data -- ./spin 20000 \r\n" +
				"# event : name = cpu-clock, , id = { 184, 185 }, type = 1, size = 128, { sample_period, sample_freq } = 999, sample_type = IP|TID|TIME|CALLCHAIN|PERIOD, disabled = 1, freq = 1, enable_on_exec = 1\r\n" +
				"# event : name = dummy:HG, , id = { 320, 321 }, { sample_period, sample_freq } = 500, freq = 1\r\n" +
				"# ========\r\n#\r\n" +
				"spin 21304 56847.450512:    1001001 cpu-clock: \r\n\t702db __sin_fma+0x1b (/usr/lib/x86_64-linux-gnu/libm.so.6)\r\n\r\n",
			want: []string{
				`"spin" 0/21304 56847450512000 1001001 "cpu-clock" | 702db "__sin_fma" ("/usr/lib/x86_64-linux-gnu/libm.so.6")`,
			},
			header: samples.SampleHeader{Format: FormatPerf, Command: "/usr/bin/perf record -F 999 -g -e cpu-clock -o spin.data -- ./spin 20000", Event: "cpu-clock", RateHz: 999},
		},
		{
			name: "period-sampling", // perf record -c: no rate; a cmdline without --header's event line
			text: "# event : name = cpu-clock, , id = { 305, 306 }, { sample_period, sample_freq } = 100000, sample_type = IP|TID|TIME, disabled = 1\n" +
				"spin 26881 57060.491370:     100000 cpu-clock:  ffffffff821cce99 mas_prev_slot+0xc9 ([kernel.kallsyms])\n",
			want:   []string{`"spin" 0/26881 57060491370000 100000 "cpu-clock" | ffffffff821cce99 "mas_prev_slot" ("[kernel.kallsyms]")`},
			header: samples.SampleHeader{Format: FormatPerf, Event: "cpu-clock"},
		},
		{
			name: "simpleperf", // report_sample.py --header --show_tracing_data
			text: "# ========\n# cmdline : /data/local/tmp/simpleperf record -f 1000 -g --app com.example.app\n# arch : arm64\n# ========\n#\n" +
				"RenderThread\t4242/4260 [003] 12345.678901: 1000000 cpu-clock:\n" +
				"\t    7f12345678 com.example.app.Main.draw (/data/app/com.example.app/oat/arm64/base.odex)\n" +
				"\t    7f12340000 unknown ([anon:dalvik-jit-code-cache])\n" +
				"\t    7e00001234 libhwui.so[+1234] (/system/lib64/libhwui.so)\n" +
				"\tffffffc0100851ec el0_svc_handler ([kernel.kallsyms])\n" +
				"\ttracing data:\n\t\tcommon_type : 7\n\n" +
				"binder:4242_2\t4242/4300 [000] 12345.679901: 1000000 cpu-clock:\n" +
				"\t    7a00000010 __epoll_pwait (/apex/com.android.runtime/lib64/bionic/libc.so)\n\n",
			want: []string{
				`"RenderThread" 4242/4260 12345678901000 1000000 "cpu-clock" | 7f12345678 "com.example.app.Main.draw" ("/data/app/com.example.app/oat/arm64/base.odex") | 7f12340000 "" ("[anon:dalvik-jit-code-cache]") | 7e00001234 "" ("/system/lib64/libhwui.so") | ffffffc0100851ec "el0_svc_handler" ("[kernel.kallsyms]")`,
				`"binder:4242_2" 4242/4300 12345679901000 1000000 "cpu-clock" | 7a00000010 "__epoll_pwait" ("/apex/com.android.runtime/lib64/bionic/libc.so")`,
			},
			header: samples.SampleHeader{Format: FormatSimpleperf, Command: "/data/local/tmp/simpleperf record -f 1000 -g --app com.example.app", Event: "cpu-clock", RateHz: 1000},
		},
		{
			name: "simpleperf-2016", // report_sample.py as the NDK shipped it until 2017
			text: "sudo\t4712 [001] 1051.622374:\t\t250000 cpu-clock:\n" +
				"    7f9e0e7a2d6c\t__libc_start_main (/lib/x86_64-linux-gnu/libc-2.23.so)\n" +
				"          4013a1\tmain (/tmp/a.out)\n\n",
			want: []string{
				`"sudo" 0/4712 1051622374000 250000 "cpu-clock" | 7f9e0e7a2d6c "__libc_start_main" ("/lib/x86_64-linux-gnu/libc-2.23.so") | 4013a1 "main" ("/tmp/a.out")`,
			},
			header: samples.SampleHeader{Format: FormatSimpleperf, Event: "cpu-clock"},
		},
		{
			name:   "empty",
			text:   "# ========\n# cmdline : perf record -F 99 -- true\n#\n",
			header: samples.SampleHeader{Format: FormatPerf},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, h, err := readAll(t, tc.text, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if tc.name != "empty" && h != tc.header {
				t.Errorf("header %+v, want %+v", h, tc.header)
			}
		})
	}
}

// The rate comes from the recorder's command line when no event line says it.
func TestRateFromCmdline(t *testing.T) {
	for _, tc := range []struct {
		cmdline    string
		simpleperf bool
		want       int
	}{
		{"perf record -F 999 -g -- java -F 5", false, 999},
		{"perf record -F999 -g", false, 999},
		{"perf record --freq=250 -g", false, 250},
		{"perf record --freq 250 -g", false, 250},
		{"perf record -g -- java -F 5", false, 0},
		{"perf record -F max -g", false, 0},
		{"simpleperf record -f 4000 --app x", true, 4000},
		{"perf record -f 4000", false, 0},
	} {
		if got := rateFromCmdline(tc.cmdline, tc.simpleperf); got != tc.want {
			t.Errorf("%q: %d, want %d", tc.cmdline, got, tc.want)
		}
	}
}

// Broken text fails at its line, naming the file; a first line that is no sample says the
// file is not perf script text at all. The reader keeps failing the same way.
func TestReadErrors(t *testing.T) {
	deep := "java 1 1.000001: cpu-clock:\n" + strings.Repeat("\t1 f (a)\n", MaxFrames+1)
	for _, tc := range []struct {
		name, text string
		line       int64
		msg        string
		notMine    bool
	}{
		{"not-mine", "just some notes\n", 1, "not a sample header or a frame", true},
		{"bad-frame", "java 1 1.000001: cpu-clock:\n\t7f1 f (a)\n\tzz f (a)\n", 3, "a frame must start with its address in hex", false},
		{"wide-address", "java 1 1.000001: cpu-clock:\n\t1234567890abcdef1 f (a)\n", 2, "an address longer than 64 bits", false},
		{"junk-after-sample", "java 1 1.000001: cpu-clock:\n\t7f1 f (a)\n\nsome words\n", 4, "not a sample header or a frame", false},
		{"long-line", "java 1 1.000001: cpu-clock:\n\t7f1 " + strings.Repeat("x", lines.MaxLine) + "\n", 2, "line longer than 1 MiB", false},
		{"deep-stack", deep, MaxFrames + 2, "a stack deeper than 65536 frames", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.text), "x.perfscript")
			var err error
			for err == nil {
				_, err = r.Next()
			}
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.File != "x.perfscript" || ie.Line != tc.line || !strings.HasPrefix(ie.Msg, tc.msg) {
				t.Fatalf("%v; want x.perfscript:%d: %s…", err, tc.line, tc.msg)
			}
			if errors.Is(err, ErrNotPerfScript) != tc.notMine {
				t.Errorf("%v: wraps ErrNotPerfScript: %v, want %v", err, !tc.notMine, tc.notMine)
			}
			if _, again := r.Next(); again != err {
				t.Errorf("then %v", again)
			}
		})
	}
}

// A sink's error stops Feed, located at the sample's first line.
func TestFeedSinkError(t *testing.T) {
	text := "java 1 1.000001: cpu-clock:\n\t7f1 f (a)\n\njava 1 1.000002: cpu-clock:\n\t7f1 f (a)\n\n"
	full := errors.New("disk full")
	n := 0
	err := NewReader(strings.NewReader(text), "x.perfscript").Feed(sinkFunc(func(*samples.Sample) error {
		if n++; n == 2 {
			return full
		}
		return nil
	}))
	var ie *inputerr.Error
	if !errors.Is(err, full) || !errors.As(err, &ie) || ie.Line != 4 || err.Error() != "x.perfscript:4: disk full" {
		t.Errorf("%v", err)
	}
}

// The reader hands out one sample and one stack, reused, and keeps no text of the file: its
// names are shared strings.
func TestSampleReused(t *testing.T) {
	text := "java 1 1.000001: cpu-clock:\n\t7f1 f (a)\n\t7f2 g (a)\n\njava 1 1.000002: cpu-clock:\n\t7f1 f (a)\n\n"
	r := NewReader(strings.NewReader(text), "x")
	s1, _ := r.Next()
	st := &s1.Stack[0]
	s2, err := r.Next()
	if err != nil || s1 != s2 || &s2.Stack[0] != st || len(s2.Stack) != 1 || s2.TimeNS != 1000002000 {
		t.Errorf("%v %v %+v", s1 == s2, err, s2)
	}
}

// Detection claims every variant's start, and nothing perf script did not print.
func TestSniff(t *testing.T) {
	for _, text := range []string{
		"java 25140 56979.592768:    1001001 cpu-clock: \n\t7f5c60ec7762 long Spin.loop(int)+0x162 (/tmp/perf-25138.map)\n",
		"# ========\n# cmdline : perf record\n#\njava 1/2 [000] 1.000001: 1 cpu-clock:\n",
		"RenderThread\t4242/4260 [003] 12345.678901: 1000000 cpu-clock:\n",
		"sudo\t4712 [001] 1051.622374:\t\t250000 cpu-clock:\n    7f9e0e7a2d6c\t__libc_start_main (/lib/libc.so)\n",
		"\n\tffffffff81407e30 __rcu_read_unlock ([kernel.kallsyms])\n",
		"spin 21304\n\tffffffff81407e30 __rcu_read_unlock\n",
		"perf-exec     0     0.000000: PERF_RECORD_COMM: perf-exec:8271/8271\nspin2  8271 57741.381724:    1001001 cpu-clock: \n",
		"            spin 21304 56847.443489:  ffffffff81407e30 __rcu_read_unlock ([kernel.kallsyms])\n            spin 21304 56847.450512:      7f5fdf1102db __sin_fma (/usr/lib/x86_64-linux-gnu/libm.so.6)\n",
	} {
		if err := Sniff([]byte(text)); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
	for _, text := range []string{
		"(toplevel)\t0\t6081916\t0\t0\t(toplevel)\n(unknown)\t0\t221799\t31\t0\t(unknown)\n", // dmtracedump
		"",
		"just some notes\n",
		"Hello 12 world:\nmore\n",
		"Version 2\n\nnotes\n",
		"\tdone 12 (x)\n",
		"----------------\nIN: g\n0x00010000:  e1a00000  mov      r0, r0\n",
		"Trace 0: 0x7f0000001000 [00000000/00020000/00000000/00000000] g\n",
		"start    end      size     prot\n0000000000010000-0000000000011000 0000000000001000 r-x\n",
		"androprof-dpa 1\nprocess 1 p\n",
		"spin 21304  ffffffff81407e30 __rcu_read_unlock ([kernel.kallsyms])\n\n",
		"spin 21304  ffffffff81407e30 __rcu_read_unlock ([kernel.kallsyms])\nspin 21304  7f5fdf1102db __sin_fma (/usr/lib/libm.so.6)\n", // too little to tell
	} {
		if err := Sniff([]byte(text)); !errors.Is(err, ErrNotPerfScript) {
			t.Errorf("%q: %v, want ErrNotPerfScript", text, err)
		}
	}
}

// Reading the committed recording gives its samples with their threads and stacks.
func TestCommittedRecording(t *testing.T) {
	b := samples.NewSampleBuilder(samples.SampleSelection{})
	data := testio.ReadPlain(t, "testdata/java.perfscript.gz")
	r := NewReader(bytes.NewReader(data), "java.perfscript")
	if err := r.Feed(b); err != nil {
		t.Fatal(err)
	}
	p := b.Finish(r.Header())
	comms := map[string]bool{}
	for _, th := range p.Threads {
		comms[th.Comm] = true
	}
	if len(p.Samples) != 551 || !comms["C2 CompilerThre"] || !comms["java"] {
		t.Errorf("%d samples, threads %v", len(p.Samples), comms)
	}
}
