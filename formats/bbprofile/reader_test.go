package bbprofile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"androprof/internal/inputerr"
	"androprof/internal/testio"
	"androprof/model"
	"androprof/model/cost"
)

func collectBB(t testing.TB, src, name string) (*Collector, error) {
	t.Helper()
	c := NewCollector()
	err := NewReader(strings.NewReader(src), name).Feed(c)
	return c, err
}

// The fixture is real plugin output (qemu-arm 7.2, assets/samples/forker.c built -marm), cut to
// the first blocks of each process: a parent and its forked child.
func TestReadRealProfile(t *testing.T) {
	b, err := os.ReadFile("testdata/forker-arm.bbprofile")
	if err != nil {
		t.Fatal(err)
	}
	c, err := collectBB(t, string(b), "forker-arm.bbprofile")
	if err != nil {
		t.Fatal(err)
	}
	want := []model.Process{{PID: 13833, ParentPID: 0, Name: "forker-arm"}, {PID: 13835, ParentPID: 13833, Name: "forker-arm"}}
	if !reflect.DeepEqual(c.Processes, want) {
		t.Errorf("processes = %+v", c.Processes)
	}
	if len(c.Threads) != 2 || c.Threads[1] != (model.Thread{PID: 13835, TID: 13835}) {
		t.Errorf("threads = %+v", c.Threads)
	}
	start := c.Blocks[cost.BlockKey{PID: 13833, PC: 0x10494, ISA: cost.Thumb}]
	if start == nil || len(start.Insns) != 14 || start.Symbol != "" || start.Line != 4 {
		t.Fatalf("_start block = %+v", start)
	}
	if in := start.Insns[0]; in != (cost.Insn{Addr: 0x10494, Encoding: "f04f 0b00", Mnemonic: "mov.w", Operands: "fp, #0", Class: "MOV"}) {
		t.Errorf("first insn = %+v", in)
	}
	if in := start.Insns[2]; in.Encoding != "bc02" || in.Mnemonic != "pop" || in.Operands != "{r1}" {
		t.Errorf("16-bit Thumb insn = %+v", in)
	}
	// One 4-byte instruction with a .w suffix: step 3 of the rule says Thumb.
	if b := c.Blocks[cost.BlockKey{PID: 13835, PC: 0x4defe, ISA: cost.Thumb}]; b == nil || b.Insns[0].Encoding != "f0c0 8124" {
		t.Errorf("blo.w block = %+v", b)
	}
	if n := c.Counts[ThreadBlock{cost.BlockKey{PID: 13833, PC: 0x10494, ISA: cost.Thumb}, 13833}]; n != 1 {
		t.Errorf("_start ran %d times", n)
	}
}

func TestReadRealMIPSProfile(t *testing.T) {
	b, err := os.ReadFile("testdata/sieve-mips.bbprofile")
	if err != nil {
		t.Fatal(err)
	}
	c, err := collectBB(t, string(b), "sieve-mips.bbprofile")
	if err != nil {
		t.Fatal(err)
	}
	blk := c.Blocks[cost.BlockKey{PID: c.Processes[0].PID, PC: 0x400730, ISA: cost.MIPS}]
	if blk == nil {
		t.Fatalf("no block at 0x400730: %v", c.Blocks)
	}
	// -d in_asm prints "bal	0x40073c"; the plugin's disassembler leaves the target out.
	if in := blk.Insns[1]; in.Encoding != "04110001" || in.Mnemonic != "bal" || in.Operands != "0x40073c" {
		t.Errorf("bal = %+v", in)
	}
}

func TestMIPSTargets(t *testing.T) {
	for _, tc := range []struct {
		mn, ops string
		w       uint32
		addr    uint64
		want    string
	}{
		{"beqz", "v0,", 0x10400008, 0x400140, "v0,0x400164"},              // checked against -d in_asm
		{"bnez", "v0, ", 0x1440fffa, 0x40015c, "v0,0x400148"},             // backwards
		{"bal", "", 0x04110001, 0x400734, "0x40073c"},                     // REGIMM bgezal
		{"j", "", 0x08100010, 0x400100, "0x400040"},                       // J-type
		{"b", "", 0x10000003, 0x1000, "0x1010"},                           // beq zero,zero
		{"bc1t", "", 0x45010002, 0x2000, "0x200c"},                        // COP1 branch
		{"jr", "ra", 0x03e00008, 0x1000, "ra"},                            // register jump: untouched
		{"addiu", "sp,sp,-16", 0x27bdfff0, 0x1000, "sp,sp,-16"},           // not a branch
		{"beq", "v0,v1,0x400164", 0x10430008, 0x400140, "v0,v1,0x400164"}, // already complete
	} {
		if got := completeMIPSTarget(tc.mn, tc.ops, tc.w, tc.addr); got != tc.want {
			t.Errorf("%s %q: got %q, want %q", tc.mn, tc.ops, got, tc.want)
		}
	}
}

// Reading, writing and reading again keeps everything, and a written file is a fixed point.
func TestRoundTrip(t *testing.T) {
	for _, fixture := range []string{"testdata/forker-arm.bbprofile", "testdata/sieve-mips.bbprofile"} {
		b, err := os.ReadFile(fixture)
		if err != nil {
			t.Fatal(err)
		}
		c1, err := collectBB(t, string(b), fixture)
		if err != nil {
			t.Fatal(err)
		}
		var w1 bytes.Buffer
		if err := Write(&w1, c1, nil); err != nil {
			t.Fatal(err)
		}
		c2, err := collectBB(t, w1.String(), "written")
		if err != nil {
			t.Fatalf("%s: rereading: %v\n%s", fixture, err, w1.String())
		}
		for k, b := range c2.Blocks {
			b.Line = c1.Blocks[k].Line // lines differ, the rest must not
		}
		if !reflect.DeepEqual(c1, c2) {
			t.Errorf("%s: round trip differs", fixture)
		}
		if c1.Instructions() != c2.Instructions() || c1.Instructions() == 0 {
			t.Errorf("%s: instructions %d then %d", fixture, c1.Instructions(), c2.Instructions())
		}
		var w2 bytes.Buffer
		if err := Write(&w2, c2, nil); err != nil {
			t.Fatal(err)
		}
		if w1.String() != w2.String() {
			t.Errorf("%s: writing is not stable", fixture)
		}
	}
}

// A collector filled by hand, as a converter from QEMU logs would: big-endian MIPS bytes,
// x86 bytes, a block without encodings, names with control characters, threads only counted.
func TestWrite(t *testing.T) {
	c := NewCollector()
	c.Process(model.Process{PID: 7, Name: "be"})
	c.Process(model.Process{PID: 9, ParentPID: 7, Name: "x86"})
	c.Thread(model.Thread{PID: 7, TID: 7, Name: "main\tthread"})
	mips := &cost.Block{PC: 0x400130, ISA: cost.MIPS, Symbol: "__start", Insns: []cost.Insn{
		{Addr: 0x400130, Encoding: "27bdfff0", Mnemonic: "addiu", Operands: "sp,sp,-16"},
		{Addr: 0x400134, Mnemonic: "nop"},
	}}
	x86 := &cost.Block{PC: 0x401000, ISA: cost.X86_64, Insns: []cost.Insn{{Addr: 0x401000, Encoding: "0f1f4000", Mnemonic: "nop", Operands: "dword ptr [rax]"}}}
	c.Block(7, mips)
	c.Block(9, x86)
	c.Count(7, 7, mips.PC, cost.MIPS, 3)
	c.Count(7, 8, mips.PC, cost.MIPS, 2)
	c.Count(9, 9, x86.PC, cost.X86_64, 1)
	var w bytes.Buffer
	if err := Write(&w, c, map[int]string{7: "mips"}); err != nil {
		t.Fatal(err)
	}
	want := `androprof-bbprofile 2
process 7 0 mips 0x0 be
thread 7 main thread
thread 8
block 0 0x400130 MIPS 2 - __start
insn 0x400130 27bdfff0 addiu sp,sp,-16
insn 0x400134 - nop
exec 7 3
exec 8 2
end
process 9 7 x86_64 0x0 x86
thread 9
block 0 0x401000 x86-64 1 - 
insn 0x401000 0f1f4000 nop dword ptr [rax]
exec 9 1
end
`
	if w.String() != want {
		t.Errorf("got\n%s\nwant\n%s", w.String(), want)
	}
	back, err := collectBB(t, w.String(), "written")
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Blocks[cost.BlockKey{PID: 7, PC: 0x400130, ISA: cost.MIPS}].Insns[0].Encoding; got != "27bdfff0" {
		t.Errorf("big-endian word read back as %q", got)
	}
	if back.Instructions() != 2*5+1 {
		t.Errorf("instructions = %d", back.Instructions())
	}
}

func TestEncodingUnits(t *testing.T) {
	for _, tc := range []struct {
		raw  []byte
		isa  cost.ISA
		big  bool
		want string
	}{
		{[]byte{0xf0, 0x4f, 0x2d, 0xe9}, cost.ARM, false, "e92d4ff0"},
		{[]byte{0x4f, 0xf0, 0x00, 0x0b}, cost.Thumb, false, "f04f 0b00"},
		{[]byte{0x01, 0x28}, cost.Thumb, false, "2801"},
		{[]byte{0x27, 0xbd, 0xff, 0xf0}, cost.MIPS, true, "27bdfff0"},
		{[]byte{0xf0, 0xff, 0xbd, 0x27}, cost.MIPS, false, "27bdfff0"},
		{[]byte{0x90}, cost.X86_64, false, "90"},
		{[]byte{0x48, 0x89, 0xe5}, cost.X86_64, false, "4889e5"},
		{[]byte{0x0f, 0x1f, 0x40, 0x00}, cost.X86_64, false, "0f1f4000"}, // 4 bytes, still bytes
		{[]byte{0x1f, 0x20, 0x03, 0xd5}, cost.AArch64, false, "d503201f"},
		{nil, cost.MIPS, false, ""},
	} {
		got := encodingUnits(tc.raw, tc.isa, tc.big)
		if got != tc.want {
			t.Errorf("%x %s: got %q, want %q", tc.raw, tc.isa, got, tc.want)
		}
		back, err := unitBytes(got, tc.isa, tc.big)
		if err != nil || !bytes.Equal(back, tc.raw) {
			t.Errorf("%q back to %x, %v", got, back, err)
		}
	}
}

// Step 3 of the ARM/Thumb rule on hand-picked encodings (real ones from the ARM sieve build).
func TestGuessARMISAEncodings(t *testing.T) {
	for _, tc := range []struct {
		hex, mn string
		want    cost.ISA
	}{
		{"4ff0000b", "mov.w", cost.Thumb}, // wide suffix
		{"c0f02481", "blo.w", cost.Thumb},
		{"f04f2de9", "push", cost.ARM},           // ARM push: first halfword is not a Thumb-32 prefix
		{"f0ffffeb", "bl", cost.ARM},             // ARM bl backwards: Thumb-shaped, but AL
		{"f8ffff1a", "bne", cost.ARM},            // ARM bne backwards: Thumb-shaped, condition named
		{"dff818a0", "ldr.w", cost.Thumb},        // condition field 1010 (ge) not named
		{"2de98048", "push.w", cost.Thumb},       // first halfword e92d
		{"fff7b6ec", "blx #0x10168", cost.Thumb}, // AL, but an ARM blx #imm is 1111
		{"0bf061f8", "bl #0x26a8c", cost.Thumb},  // condition 1111, but not an unconditional instruction
		{"feffffea", "b #0x1000", cost.ARM},
		{"f0ffff0b", "bleq #0x1000", cost.ARM},
		{"700020e1", "bkpt #0", cost.ARM}, // not Thumb-shaped anyway
	} {
		raw, _ := hexBytes(tc.hex)
		mn, ops, _ := strings.Cut(tc.mn, " ")
		got := guessARMISA([]cost.Insn{{Mnemonic: mn, Operands: ops}}, [][]byte{raw}, false)
		if got != tc.want {
			t.Errorf("%s %s: got %s, want %s", tc.hex, tc.mn, got, tc.want)
		}
	}
}

func hexBytes(s string) ([]byte, error) {
	b := make([]byte, len(s)/2)
	_, err := fmt.Sscanf(s, "%x", &b)
	return b, err
}

func TestNotMine(t *testing.T) {
	for _, src := range []string{"", "\n\n", "hello\n", "----------------\nIN: main\n", "# androprof-bbprofile 1\nprocess 1 0 arm 0x0 x\n"} {
		_, err := collectBB(t, src, "other.txt")
		if !errors.Is(err, ErrNotBBProfile) || !strings.Contains(err.Error(), "other.txt") {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// Each case is a file and the line and message its error must carry.
func TestErrors(t *testing.T) {
	const h = "androprof-bbprofile 1\n"
	const p = h + "process 5 0 arm 0x10000 /bin/x\n"
	const blk = "block 1 0x1000 ARM 1 f\ninsn 0x1000 f04f2de9 push {r4}\n"
	checkBBErrors(t, []bbErrorCase{
		{"androprof-bbprofile 4\n", 1, "unsupported basic-block profile version"},
		{"androprof-bbprofile 0\n", 1, "unsupported basic-block profile version"},
		{h + "thread 5\n", 2, "outside a process section"},
		{p + "block 1 0x1000 ARM 2 f\ninsn 0x1000 f04f2de9 push {r4}\nexec 5 1\n", 5, "has 1 of its 2 instructions"},
		{p + "block 1 0x1000 ARM 1000000000 f\n", 3, "is not in 1…4096"},
		{p + "block 1 0x1000 ARM 0 f\n", 3, "is not in 1…4096"},
		{p + "block 1 0x1000 PowerPC 1 f\n", 3, "unknown instruction set"},
		{p + "block 1 1000 ARM 1 f\n", 3, "want 0x"},
		{p + blk + "exec 5 0\n", 5, "bad execution count"},
		{p + blk + "exec 5\n", 5, "want 2 fields"},
		{p + blk + "exec 5 1 2\n", 5, "unexpected"},
		{p + blk + "insn 0x1004 00 nop\n", 5, "outside a block"},
		{p + "exec 5 1\n", 3, "before any block"},
		{p + "block 1 0x1000 ARM 1 f\ninsn 0x1000 f04f2de push\n", 4, "bad instruction bytes"},
		{p + "block 1 0x1000 ARM 1 f\ninsn 0x1000 " + strings.Repeat("00", 16) + " push\n", 4, "bad instruction bytes"},
		{p + "block 1 0x1000 ARM 1 f\ninsn 0x1000 zz push\n", 4, "bad instruction bytes"},
		{p + "block 1 0x1000 ARM 1 f\n", 3, "ends inside block 1"},
		{p + blk + "exec 5 1\n", 5, "no end line"},
		{p + "thread 0\n", 3, "bad thread id"},
		{p + "thread 6 a\x01b\n", 3, "control character"},
		{p + h, 3, "header inside process 5"},
		{p + "process 6 5 arm 0x0 y\n", 3, "end line is missing"},
		{h + "process x 0 arm 0x0 y\n", 2, "bad pid"},
		{h + "process 5 0 arm 10000 y\n", 2, "bad start of code"},
		{p + "end x\n", 3, "end line with fields"},
		{p + "frob\n", 3, "unknown record"},
		{h + "process 5 0 arm 0x" + strings.Repeat("f", 17) + " y\n", 2, "bad start of code"},
		{p + strings.Repeat("x", 2<<20) + "\n", 3, "longer than 1 MiB"},
	})
}

// bbErrorCase is a file and the line and message its error must carry.
type bbErrorCase struct {
	src  string
	line int64
	msg  string
}

func checkBBErrors(t *testing.T, cases []bbErrorCase) {
	t.Helper()
	for _, tc := range cases {
		_, err := collectBB(t, tc.src, "bad.bbprofile")
		var se *inputerr.Error
		if !errors.As(err, &se) || se.File != "bad.bbprofile" || se.Line != tc.line || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%.80q: got %v, want line %d %q", tc.src, err, tc.line, tc.msg)
		}
	}
}

// The records of version 2 are refused where they do not fit: in a version 1 profile, with ids
// that clash or were never declared, and with numbers out of range.
func TestV2Errors(t *testing.T) {
	const v1 = "androprof-bbprofile 1\nprocess 5 0 arm 0x10000 /bin/x\n"
	const p = "androprof-bbprofile 2\nprocess 5 0 arm 0x10000 /bin/x\n"
	const im = p + "image 0 0x10000 /bin/x\n"
	checkBBErrors(t, []bbErrorCase{
		{v1 + "image 0 0x10000 /bin/x\n", 3, "image line in a version 1 profile"},
		{v1 + "syscall 5 1 1 0\n", 3, "syscall line in a version 1 profile"},
		{"androprof-bbprofile 2\nimage 0 0x0 /x\n", 2, "outside a process section"},
		{im + "image 0 0x20000 /lib/libc.so.6\n", 4, "image 0 appears twice in process 5"},
		{im + "block 0 0x10000 ARM 1 1 main\n", 4, `block names image "1", which no image line of process 5 declared`},
		{p + "block 0 0x10000 ARM 1 0 main\nimage 0 0x10000 /bin/x\n", 3, "which no image line of process 5 declared"},
		{im + "end\nprocess 6 5 arm 0x10000 /bin/x\nblock 0 0x10000 ARM 1 0 \n", 6, "no image line of process 6"}, // ids are per process
		{im + "block 0 0x10000 ARM 1 x main\n", 4, `block names image "x"`},
		{im + "block 0 0x10000 ARM 1\n", 4, "want 5 fields, found 4"}, // a version 1 block line
		{im + "block 0 0x10000 ARM 1 main\n", 4, `block names image "main"`},
		{p + "image 0 10000 /bin/x\n", 3, "bad image base"},
		{p + "image 0 0x1g000 /bin/x\n", 3, "bad image base"},
		{p + "image 0 0x" + strings.Repeat("f", 17) + " /bin/x\n", 3, "bad image base"},
		{p + "image 0 0x10000 \n", 3, "image 0 has no path"},
		{p + "image 0 0x10000\n", 3, "image 0 has no path"},
		{p + "image 0\n", 3, "want 2 fields, found 1"},
		{p + "image 2147483648 0x10000 /bin/x\n", 3, "bad image id"},
		{p + "image -1 0x10000 /bin/x\n", 3, "bad image id"},
		{p + "image 0 0x10000 /bin/\x01x\n", 3, "control character"},
		{p + "syscall 5 1 0 0\n", 3, "bad system call count"},
		{p + "syscall 5 1 4611686018427387905 0\n", 3, "bad system call count"},
		{p + "syscall 5 1 x 0\n", 3, "bad system call count"},
		{p + "syscall 5 -1 1 0\n", 3, "bad system call number"},
		{p + "syscall 5 2147483648 1 0\n", 3, "bad system call number"},
		{p + "syscall 0 1 1 0\n", 3, "bad thread id"},
		{p + "syscall 2147483648 1 1 0\n", 3, "bad thread id"},
		{p + "syscall 5 1 1 4611686018427387905\n", 3, "bad instruction count"},
		{p + "syscall 5 1 1\n", 3, "want 4 fields, found 3"},
		{p + "syscall 5 1 1 0 x\n", 3, "unexpected"},
	})
}

// What Next returns for version 2 records, before Feed names anything; a "-" image and a
// version 1 block are NoImage.
func TestReaderV2Records(t *testing.T) {
	src := "androprof-bbprofile 2\nprocess 5 0 arm 0x10000 /bin/x\nthread 5\n" +
		"image 7 0x3f000000 /lib/libc.so.6\nimage 0 0xffff0000 [sigpage]\n" +
		"block 0 0x3f001000 ARM 1 7 \ninsn 0x3f001000 0000a0e1 mov r0, r0\nexec 5 2\n" +
		"block 1 0x10000 ARM 1 - _start\ninsn 0x10000 0000a0e1 mov r0, r0\n" +
		"syscall 5 248 1 41\nend\n" +
		"androprof-bbprofile 1\nprocess 6 5 arm 0x10000 /bin/x\n" +
		"block 0 0x10000 ARM 1 _start\ninsn 0x10000 0000a0e1 mov r0, r0\nend\n"
	br := NewReader(strings.NewReader(src), "v2")
	var images []Image
	var blockImages []int64
	var calls []cost.Syscall
	for {
		rec, err := br.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case rec.Image != nil:
			images = append(images, *rec.Image)
		case rec.Block != nil:
			blockImages = append(blockImages, rec.ImageID)
		case rec.Syscall != nil:
			calls = append(calls, *rec.Syscall)
		}
	}
	if want := []Image{{PID: 5, ID: 7, Base: 0x3f000000, Path: "/lib/libc.so.6"}, {PID: 5, ID: 0, Base: 0xffff0000, Path: "[sigpage]"}}; !reflect.DeepEqual(images, want) {
		t.Errorf("images = %+v", images)
	}
	if want := []int64{7, NoImage, NoImage}; !reflect.DeepEqual(blockImages, want) {
		t.Errorf("block images = %v", blockImages)
	}
	if want := []cost.Syscall{{PID: 5, TID: 5, Number: 248, Count: 1, Insns: 41}}; !reflect.DeepEqual(calls, want) {
		t.Errorf("system calls = %+v", calls)
	}
}

// Version 1 files still read, with no images, no image on any block and no system calls.
func TestReadVersion1HasNoImages(t *testing.T) {
	c, err := collectBB(t, string(testio.ReadPlain(t, "testdata/forker-arm.bbprofile")), "forker-arm.bbprofile")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Images) != 0 || len(c.Syscalls) != 0 || len(c.Blocks) == 0 {
		t.Errorf("%d images, %d system calls, %d blocks", len(c.Images), len(c.Syscalls), len(c.Blocks))
	}
	for _, b := range c.Blocks {
		if b.Image != "" {
			t.Errorf("block 0x%x of a version 1 profile is in image %q", b.PC, b.Image)
		}
	}
}

// Images, the image of each block and the system calls survive a write and a read. The reader
// names what it reads (image kinds, IMAGE+0xOFFSET for blocks without a symbol, system calls
// by the guest's table), and a second round trip changes nothing.
func TestV2RoundTrip(t *testing.T) {
	nop := func(pc uint64, sym, image string) *cost.Block {
		return &cost.Block{PC: pc, ISA: cost.ARM, Symbol: sym, Image: image,
			Insns: []cost.Insn{{Addr: pc, Encoding: "e1a00000", Mnemonic: "mov", Operands: "r0, r0"}}}
	}
	c := NewCollector()
	c.Process(model.Process{PID: 40, Name: "prog"})
	c.Process(model.Process{PID: 41, ParentPID: 40, Name: "prog"})
	c.Thread(model.Thread{PID: 40, TID: 40})
	c.Thread(model.Thread{PID: 40, TID: 42, Name: "worker"})
	c.Image(cost.Image{PID: 40, Path: "/nonexistent/prog", Base: 0x10000})
	c.Image(cost.Image{PID: 40, Path: "/nonexistent/libc.so.6", Base: 0x3f000000})
	c.Image(cost.Image{PID: 40, Path: "[sigpage]", Base: 0xffff0000})
	c.Image(cost.Image{PID: 41, Path: "/nonexistent/libc.so.6", Base: 0x3f000000})
	for pid, b := range map[int]*cost.Block{40: nop(0x10100, "main", "/nonexistent/prog"), 41: nop(0x3f001234, "", "/nonexistent/libc.so.6")} {
		c.Block(pid, b)
		c.Count(pid, pid, b.PC, cost.ARM, 5)
	}
	for _, b := range []*cost.Block{nop(0x3f001234, "", "/nonexistent/libc.so.6"), nop(0xffff0010, "", "[sigpage]"), nop(0x20000, "jit", "")} {
		c.Block(40, b)
		c.Count(40, 42, b.PC, cost.ARM, 3)
	}
	c.Syscall(cost.Syscall{PID: 40, TID: 40, Number: 4, Count: 2, Insns: 100})
	c.Syscall(cost.Syscall{PID: 40, TID: 42, Number: 248, Count: 1, Insns: 9})
	c.Syscall(cost.Syscall{PID: 41, TID: 41, Number: 0xf0005, Count: 1, Insns: 7})
	var w1 bytes.Buffer
	if err := Write(&w1, c, map[int]string{40: "arm", 41: "arm"}); err != nil {
		t.Fatal(err)
	}
	want := `androprof-bbprofile 2
process 40 0 arm 0x0 prog
thread 40
thread 42 worker
image 0 0x10000 /nonexistent/prog
image 1 0x3f000000 /nonexistent/libc.so.6
image 2 0xffff0000 [sigpage]
block 0 0x10100 ARM 1 0 main
insn 0x10100 0000a0e1 mov r0, r0
exec 40 5
block 1 0x20000 ARM 1 - jit
insn 0x20000 0000a0e1 mov r0, r0
exec 42 3
block 2 0x3f001234 ARM 1 1 
insn 0x3f001234 0000a0e1 mov r0, r0
exec 42 3
block 3 0xffff0010 ARM 1 2 
insn 0xffff0010 0000a0e1 mov r0, r0
exec 42 3
syscall 40 4 2 100
syscall 42 248 1 9
end
process 41 40 arm 0x0 prog
thread 41
image 0 0x3f000000 /nonexistent/libc.so.6
block 0 0x3f001234 ARM 1 0 
insn 0x3f001234 0000a0e1 mov r0, r0
exec 41 5
syscall 41 983045 1 7
end
`
	if w1.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", w1.String(), want)
	}
	c1, err := collectBB(t, w1.String(), "written")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []cost.ImageKind
	for _, im := range c1.Images {
		kinds = append(kinds, im.Kind)
	}
	if want := []cost.ImageKind{cost.ImageProgram, cost.ImageLibrary, cost.ImageNoFile, cost.ImageLibrary}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("image kinds = %v (%+v)", kinds, c1.Images)
	}
	for key, want := range map[cost.BlockKey][2]string{
		{PID: 40, PC: 0x10100, ISA: cost.ARM}:    {"/nonexistent/prog", "main"},
		{PID: 40, PC: 0x3f001234, ISA: cost.ARM}: {"/nonexistent/libc.so.6", "libc.so.6+0x1234"},
		{PID: 40, PC: 0xffff0010, ISA: cost.ARM}: {"[sigpage]", "[sigpage]+0x10"},
		{PID: 40, PC: 0x20000, ISA: cost.ARM}:    {"", "jit"},
		{PID: 41, PC: 0x3f001234, ISA: cost.ARM}: {"/nonexistent/libc.so.6", "libc.so.6+0x1234"},
	} {
		if b := c1.Blocks[key]; b == nil || b.Image != want[0] || b.Symbol != want[1] {
			t.Errorf("block %+v = %+v, want image %q named %q", key, b, want[0], want[1])
		}
	}
	wantCalls := []cost.Syscall{{PID: 40, TID: 40, Number: 4, Name: "write", Count: 2, Insns: 100},
		{PID: 40, TID: 42, Number: 248, Name: "exit_group", Count: 1, Insns: 9},
		{PID: 41, TID: 41, Number: 0xf0005, Name: "ARM_set_tls", Count: 1, Insns: 7}}
	if !reflect.DeepEqual(c1.Syscalls, wantCalls) {
		t.Errorf("system calls = %+v", c1.Syscalls)
	}
	if c1.Instructions() != c.Instructions() {
		t.Errorf("instructions %d, then %d", c.Instructions(), c1.Instructions())
	}
	var w2, w3 bytes.Buffer
	if err := Write(&w2, c1, map[int]string{40: "arm", 41: "arm"}); err != nil {
		t.Fatal(err)
	}
	c2, err := collectBB(t, w2.String(), "rewritten")
	if err != nil {
		t.Fatal(err)
	}
	for k, b := range c2.Blocks {
		b.Line = c1.Blocks[k].Line
	}
	if !reflect.DeepEqual(c1, c2) {
		t.Errorf("second round trip differs:\n%+v\n%+v", c1, c2)
	}
	if err := Write(&w3, c2, map[int]string{40: "arm", 41: "arm"}); err != nil || w2.String() != w3.String() {
		t.Errorf("writing is not stable: %v", err)
	}
}

// Numbers in the file are only numbers: an image id, system call number, count or thread id at
// its limit is accepted without allocating anything in proportion to it.
func TestClaimsAllocateNothing(t *testing.T) {
	src := "androprof-bbprofile 2\nprocess 2147483647 0 arm 0x0 /p\nthread 2147483647\n" +
		"image 2147483647 0xffffffffffffffff /nonexistent/libc.so.6\n" +
		"block 18446744073709551615 0xffffffffffffffff ARM 1 2147483647 f\n" +
		"insn 0xffffffffffffffff 0000a0e1 mov r0, r0\nexec 2147483647 4611686018427387904\n" +
		"syscall 2147483647 2147483647 4611686018427387904 4611686018427387904\nend\n"
	c, err := collectBB(t, src, "limits")
	if err != nil {
		t.Fatal(err)
	}
	// Measured on a second read, past one-time set-up such as the ARM catalogue.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	collectBB(t, src, "limits")
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 256<<10 {
		t.Errorf("reading a 500-byte profile allocated %d bytes", grown)
	}
	want := cost.Syscall{PID: 2147483647, TID: 2147483647, Number: 2147483647, Name: "syscall_2147483647", Count: 1 << 62, Insns: 1 << 62}
	if len(c.Images) != 1 || len(c.Syscalls) != 1 || c.Syscalls[0] != want {
		t.Errorf("images %+v, system calls %+v", c.Images, c.Syscalls)
	}
}

// Concatenated files, comments, blank lines, a block with no exec line, several threads.
func TestConcatenated(t *testing.T) {
	src := `androprof-bbprofile 1
# written by hand
process 10 0 mipsel 0x400000 /tmp/a b

thread 10
thread 11 worker two
block 0 0x400000 MIPS 1 main
insn 0x400000 00000000 nop
exec 10 4
exec 11 6
block 1 0x400004 MIPS 1 main
insn 0x400004 00000000 nop
end
androprof-bbprofile 1
process 12 10 mipsel 0x400000 /tmp/a b
block 0 0x400000 MIPS 1 main
insn 0x400000 00000000 nop
exec 12 1
end
`
	c, err := collectBB(t, src, "cat.bbprofile")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Processes) != 2 || c.Processes[0].Name != "a b" || c.Processes[1].ParentPID != 10 {
		t.Errorf("processes = %+v", c.Processes)
	}
	if c.Threads[1].Name != "worker two" {
		t.Errorf("threads = %+v", c.Threads)
	}
	if c.Instructions() != 11 || len(c.Blocks) != 3 {
		t.Errorf("instructions = %d, blocks = %d", c.Instructions(), len(c.Blocks))
	}
}

func TestReaderModeAt(t *testing.T) {
	src := "androprof-bbprofile 1\nprocess 5 0 arm 0x20000 /bin/x\n" +
		"block 1 0x21000 ARM/Thumb 1 f\ninsn 0x21000 f04f2de9 push {r4}\nexec 5 1\n" +
		"block 2 0x22000 ARM/Thumb 1 g\ninsn 0x22000 0128 cmp r0, #1\nexec 5 1\nend\n"
	br := NewReader(strings.NewReader(src), "x")
	var asked []uint64
	br.ModeAt = func(p *Process, pc uint64) (cost.ISA, bool) {
		asked = append(asked, pc)
		if p.StartCode != 0x20000 {
			t.Errorf("start code %#x", p.StartCode)
		}
		return cost.ARM, true // wrong for the 2-byte block: step 2 must win
	}
	c := NewCollector()
	if err := br.Feed(c); err != nil {
		t.Fatal(err)
	}
	if c.Blocks[cost.BlockKey{PID: 5, PC: 0x21000, ISA: cost.ARM}] == nil || c.Blocks[cost.BlockKey{PID: 5, PC: 0x22000, ISA: cost.Thumb}] == nil {
		t.Errorf("blocks = %v", c.Blocks)
	}
	if len(asked) != 2 {
		t.Errorf("ModeAt asked for %x", asked)
	}
}

type failingSink struct{ Collector }

func (f *failingSink) Block(pid int, b *cost.Block) error { return errors.New("disk full") }

func TestSinkError(t *testing.T) {
	b, _ := os.ReadFile("testdata/sieve-mips.bbprofile")
	err := NewReader(bytes.NewReader(b), "sieve-mips.bbprofile").Feed(&failingSink{*NewCollector()})
	if err == nil || !strings.Contains(err.Error(), "sieve-mips.bbprofile:") || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("got %v", err)
	}
}

// FuzzReadBBProfile: the reader ends on any input without panicking, and whatever it accepts
// survives a write and a second read with the same instruction total.
func FuzzReadBBProfile(f *testing.F) {
	for _, fixture := range []string{"testdata/forker-arm.bbprofile", "testdata/sieve-mips.bbprofile"} {
		b, err := os.ReadFile(fixture)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("androprof-bbprofile 1\nprocess 1 0 armeb 0x0 x\nthread 1\nblock 0 0x0 ARM/Thumb 1 \ninsn 0x0 e92d4ff0 push {lr}\nexec 1 9\nend\n"))
	f.Add([]byte("androprof-bbprofile 2\nprocess 1 0 arm 0x10000 /p\nthread 1\nimage 1 0x10000 /p\nimage 0 0x0 [anon]\n" +
		"block 0 0x10000 ARM 1 1 \ninsn 0x10000 0000a0e1 mov r0, r0\nexec 1 9\nblock 1 0x20 ARM 1 - f\ninsn 0x20 - ?\nexec 1 1\nsyscall 1 248 1 9\nend\n"))
	f.Add([]byte(v3))
	f.Fuzz(func(t *testing.T, b []byte) {
		c := NewCollector()
		if err := NewReader(bytes.NewReader(b), "fuzz").Feed(c); err != nil {
			return
		}
		var w bytes.Buffer
		if err := Write(&w, c, nil); err != nil {
			return // e.g. two sections with one pid: the collector merged them
		}
		c2 := NewCollector()
		if err := NewReader(&w, "rewritten").Feed(c2); err != nil {
			t.Fatalf("rereading what was written: %v\n%s", err, w.String())
		}
		if c.Instructions() != c2.Instructions() {
			t.Fatalf("instructions %d, then %d", c.Instructions(), c2.Instructions())
		}
		if a, b := perImageInsns(c), perImageInsns(c2); !reflect.DeepEqual(a, b) {
			t.Fatalf("instructions per image %v, then %v", a, b)
		}
		if len(c.Syscalls) != len(c2.Syscalls) {
			t.Fatalf("%d system call lines, then %d", len(c.Syscalls), len(c2.Syscalls))
		}
		if !reflect.DeepEqual(c.Cache, c2.Cache) || !reflect.DeepEqual(c.Geometries, c2.Geometries) {
			t.Fatalf("cache data %v %v, then %v %v", c.Geometries, c.Cache, c2.Geometries, c2.Cache)
		}
	})
}

// perImageInsns sums a collector's instructions by process and image path, as the writer puts
// the path (valid UTF-8 on one line).
func perImageInsns(c *Collector) map[string]int64 {
	sums := map[string]int64{}
	for k, n := range c.Counts {
		if b := c.Blocks[k.BlockKey]; b != nil {
			sums[fmt.Sprintf("%d %s", k.PID, text(b.Image))] += n * int64(len(b.Insns))
		}
	}
	return sums
}
