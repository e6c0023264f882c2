package bbprofile

import (
	"debug/elf"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"androprof/internal/testio"
	"androprof/model/cost"
)

// The fixture is a raw plugin file kept (KeepDir) from a run of assets/samples/sieve.c built
// -O2 for armhf, dynamically linked, with the argument 3000. Its program is gone, so the
// program's blocks that QEMU did not name are named by file offset; libc and the loader are
// named from the sysroot's files where it is installed, by offset otherwise.
func TestReadRealDynamicProfile(t *testing.T) {
	c, err := collectBB(t, string(testio.ReadPlain(t, "testdata/dyn-arm.bbprofile.gz")), "dyn-arm.bbprofile")
	if err != nil {
		t.Fatal(err)
	}
	want := []cost.Image{
		{PID: 30219, Path: "/tmp/fixgen/bin/sieve", Name: "sieve", Kind: cost.ImageProgram, Base: 0x40000000},
		{PID: 30219, Path: "/usr/arm-linux-gnueabihf/lib/libc.so.6", Name: "libc.so.6", Kind: cost.ImageLibrary, Base: 0x3f6bd000},
		{PID: 30219, Path: "/usr/arm-linux-gnueabihf/lib/ld-linux-armhf.so.3", Name: "ld-linux-armhf.so.3", Kind: cost.ImageLoader, Base: 0x3f7e0000},
	}
	for i := range c.Images {
		c.Images[i].Symbols = "" // depends on what this machine has
	}
	if !reflect.DeepEqual(c.Images, want) {
		t.Errorf("images = %+v", c.Images)
	}
	if c.Instructions() != 183194 {
		t.Errorf("instructions = %d", c.Instructions())
	}
	main, unnamed := 0, 0
	for _, b := range c.Blocks {
		if b.Image == "" || b.Symbol == "" {
			t.Errorf("block 0x%x: image %q, symbol %q", b.PC, b.Image, b.Symbol)
		}
		if b.Symbol == "main" {
			main++
		}
		if b.Image == want[0].Path && b.Symbol != "main" {
			unnamed++
			if _, err := os.Stat(b.Image); err != nil && b.Symbol != "sieve+0x"+strconv.FormatUint(b.PC-0x40000000, 16) {
				t.Errorf("program block 0x%x named %q, want its file offset", b.PC, b.Symbol)
			}
		}
	}
	if main != 14 || unnamed == 0 {
		t.Errorf("%d blocks named main by QEMU, %d other blocks of the program", main, unnamed)
	}
	var calls, before int64
	names := map[string]int64{}
	for _, s := range c.Syscalls {
		calls += s.Count
		before += s.Insns
		names[s.Name] += s.Count
	}
	if len(c.Syscalls) != 16 || calls != 122 || names["exit_group"] != 1 || names["openat"] != 49 || names["mmap2"] != 5 {
		t.Errorf("system calls %v", names)
	}
	if before != c.Instructions() {
		t.Errorf("instructions before system calls: %d of %d", before, c.Instructions())
	}
}

// Kinds: the program by its path or name, the loader by the program's PT_INTERP or its usual
// names, code with no file by a label; names fall back to IMAGE+0xOFFSET of the block when the
// image's file is not readable here, and a block's own symbol always wins.
func TestImageKindsAndOffsetNames(t *testing.T) {
	prog := interpELF(t, "/opt/rt/myloader")
	src := "androprof-bbprofile 2\nprocess 3 0 arm 0x10000 " + prog + "\n" +
		"image 0 0x10000 " + prog + "\n" +
		"image 1 0x20000 /elsewhere/prog\n" + // another copy of the program
		"image 2 0x30000 /opt/rt/myloader\n" +
		"image 3 0x40000 /lib/ld-linux-armhf.so.3\n" +
		"image 4 0x50000 /lib/ld.so.1\n" +
		"image 5 0x60000 /lib/ld-2.31.so\n" +
		"image 6 0x70000 /lib/libld.so\n" +
		"image 7 0x80000 /nonexistent/libfoo.so (deleted)\n" +
		"image 8 0xffff0000 [sigpage]\n" +
		"image 9 0x90000 [anon]\n" +
		"block 0 0x71234 ARM 1 6 \ninsn 0x71234 0000a0e1 mov r0, r0\nexec 3 1\n" +
		"block 1 0x71240 ARM 1 6 bar\ninsn 0x71240 0000a0e1 mov r0, r0\nexec 3 1\n" +
		"block 2 0xffff0010 ARM 1 8 \ninsn 0xffff0010 0000a0e1 mov r0, r0\nexec 3 1\n" +
		"block 3 0x80010 ARM 1 7 \ninsn 0x80010 0000a0e1 mov r0, r0\nexec 3 1\n" +
		"block 4 0x99000 ARM 1 - \ninsn 0x99000 0000a0e1 mov r0, r0\nexec 3 1\nend\n"
	c, err := collectBB(t, src, "kinds.bbprofile")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]cost.ImageKind{}
	for _, im := range c.Images {
		kinds[im.Name] = im.Kind
		if im.Kind == cost.ImageNoFile && im.Symbols != "no file" ||
			im.Path == "/nonexistent/libfoo.so (deleted)" && !strings.Contains(im.Symbols, "no such file") {
			t.Errorf("image %+v", im)
		}
	}
	wantKinds := map[string]cost.ImageKind{"prog": cost.ImageProgram, "myloader": cost.ImageLoader,
		"ld-linux-armhf.so.3": cost.ImageLoader, "ld.so.1": cost.ImageLoader, "ld-2.31.so": cost.ImageLoader,
		"libld.so": cost.ImageLibrary, "libfoo.so": cost.ImageLibrary, "[sigpage]": cost.ImageNoFile, "[anon]": cost.ImageNoFile}
	if !reflect.DeepEqual(kinds, wantKinds) || len(c.Images) != 10 {
		t.Errorf("kinds = %v of %d images", kinds, len(c.Images))
	}
	for pc, want := range map[uint64][2]string{
		0x71234:    {"/lib/libld.so", "libld.so+0x1234"}, // not readable: the block's own offset
		0x71240:    {"/lib/libld.so", "bar"},             // the line's symbol wins
		0xffff0010: {"[sigpage]", "[sigpage]+0x10"},
		0x80010:    {"/nonexistent/libfoo.so (deleted)", "libfoo.so+0x10"},
		0x99000:    {"", ""}, // no image: nothing to name it by
	} {
		b := c.Blocks[cost.BlockKey{PID: 3, PC: pc, ISA: cost.ARM}]
		if b == nil || b.Image != want[0] || b.Symbol != want[1] {
			t.Errorf("block 0x%x = %+v, want image %q named %q", pc, b, want[0], want[1])
		}
	}
}

// interpELF writes a 32-bit little-endian ARM executable holding only a PT_INTERP segment
// naming interp: what the reader's loader rule reads from a program.
func interpELF(t *testing.T, interp string) string {
	t.Helper()
	le := binary.LittleEndian
	const ehsize, phsize = 52, 32
	h := []byte{0x7f, 'E', 'L', 'F', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	h = le.AppendUint16(h, 3)  // ET_DYN
	h = le.AppendUint16(h, 40) // EM_ARM
	h = le.AppendUint32(h, 1)
	h = le.AppendUint32(h, 0)      // entry
	h = le.AppendUint32(h, ehsize) // phoff
	h = le.AppendUint32(h, 0)      // shoff
	h = le.AppendUint32(h, 0x05000400)
	h = le.AppendUint16(h, ehsize)
	h = le.AppendUint16(h, phsize)
	h = le.AppendUint16(h, 1) // phnum
	h = le.AppendUint16(h, 40)
	h = le.AppendUint16(h, 0)
	h = le.AppendUint16(h, 0)
	body := interp + "\x00"
	for _, v := range []uint32{uint32(elf.PT_INTERP), ehsize + phsize, 0, 0, uint32(len(body)), uint32(len(body)), 4, 1} {
		h = le.AppendUint32(h, v)
	}
	p := filepath.Join(t.TempDir(), "prog")
	if err := os.WriteFile(p, append(h, body...), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// Profiles of the 64-bit guests as the plugin writes them: AArch64 words read as QEMU prints
// them, x86-64 bytes as they are, system calls named by each guest's table, and an image named
// from this machine's file only when that file is the guest's kind (here /bin/true is an x86-64
// program: an aarch64 profile naming that path must not take its symbols).
func TestRead64BitGuests(t *testing.T) {
	host, err := elf.Open("/bin/true")
	if err != nil {
		t.Skipf("no /bin/true: %v", err)
	}
	machine := host.Machine
	host.Close()
	for _, tc := range []struct {
		arch, isa, bytes, enc string
		isaWant               cost.ISA
		machine               elf.Machine
		write                 int64
	}{
		{"aarch64", "AArch64", "1f2003d5", "d503201f", cost.AArch64, elf.EM_AARCH64, 64},
		{"x86_64", "x86-64", "4889e5", "4889e5", cost.X86_64, elf.EM_X86_64, 1},
	} {
		src := "androprof-bbprofile 2\nprocess 4 0 " + tc.arch + " 0x400000 /tmp/prog\nthread 4\n" +
			"image 0 0x400000 /bin/true\n" +
			"block 0 0x401000 " + tc.isa + " 1 0 \ninsn 0x401000 " + tc.bytes + " nop\nexec 4 3\n" +
			"syscall 4 " + strconv.FormatInt(tc.write, 10) + " 2 9\nend\n"
		c, err := collectBB(t, src, tc.arch)
		if err != nil {
			t.Fatal(err)
		}
		b := c.Blocks[cost.BlockKey{PID: 4, PC: 0x401000, ISA: tc.isaWant}]
		if b == nil || b.Insns[0].Encoding != tc.enc {
			t.Fatalf("%s: block %+v, want ISA %s encoding %q", tc.arch, b, tc.isaWant, tc.enc)
		}
		if len(c.Syscalls) != 1 || c.Syscalls[0].Name != "write" {
			t.Errorf("%s: system calls %+v, want write", tc.arch, c.Syscalls)
		}
		fromFile := !strings.HasPrefix(c.Images[0].Symbols, "as the profile names them")
		if fromFile != (machine == tc.machine) {
			t.Errorf("%s profile naming this machine's %s /bin/true: symbols %q", tc.arch, machine, c.Images[0].Symbols)
		}
		if b.Symbol == "" {
			t.Errorf("%s: block has no name", tc.arch)
		}
	}
}
