package elfsym

import (
	"bytes"
	"debug/elf"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"androprof/emulator/qemutest"
)

// testC has global, weak and static functions. The static helpers unwind differently from each
// other (a leaf, a caller, a large frame), so GNU ld cannot merge their .ARM.exidx entries.
const testC = `#include <stdlib.h>
volatile int sink;
void consume(int *p, int n);
static __attribute__((noinline)) int helper_add(int *a, int n) {
	int s = 0;
	for (int i = 0; i < n; i++) s += a[i] * (i + 3);
	return s;
}
static __attribute__((noinline)) int helper_mul(int *a, int n) {
	int *tmp = malloc(n * sizeof *a);
	int p = 1;
	for (int i = 0; i < n; i++) { tmp[i] = a[i] ^ i; p *= tmp[i] | 1; }
	free(tmp);
	return p;
}
static __attribute__((noinline)) int helper_frame(int n) {
	int buf[64];
	for (int i = 0; i < 64; i++) buf[i] = i * n;
	consume(buf, 64);
	return buf[n & 63];
}
int compute(int *a, int n) { return helper_add(a, n) + helper_mul(a, n) + helper_frame(n); }
__attribute__((weak)) int weak_entry(int x) { sink = x; return compute((int *)&sink, 1) + x; }
void consume(int *p, int n) { while (n--) sink += *p++; }
`

// mainC makes the library an executable.
const mainC = `int compute(int *a, int n);
int main(int argc, char **argv) { int a[3] = {argc, 2, 3}; return compute(a, 3) & 1; }
`

// statics are testC's static functions: a stripped file names them only by unwind starts.
var statics = []string{"helper_add", "helper_mul", "helper_frame"}

// toolchain is a Debian cross toolchain and the flags of one build.
type toolchain struct {
	name, prefix string
	flags        []string
	libc         bool // links executables; the big-endian builds have no C library to link
}

var toolchains = []toolchain{
	{"arm", "arm-linux-gnueabihf-", []string{"-marm"}, true},
	{"thumb", "arm-linux-gnueabihf-", []string{"-mthumb"}, true},
	{"mips", "mipsel-linux-gnu-", nil, true},
	{"armbe", "arm-linux-gnueabihf-", []string{"-marm", "-mbig-endian", "-nostdlib"}, false},
	{"mipsbe", "mipsel-linux-gnu-", []string{"-EB", "-nostdlib"}, false},
	{"amd64", "x86_64-linux-gnu-", nil, true},
}

func (tc toolchain) require(t testing.TB) {
	t.Helper()
	qemutest.Require(t, tc.prefix+"gcc", tc.prefix+"objcopy", tc.prefix+"strip", tc.prefix+"nm")
}

// tool runs one of the toolchain's programs and returns its standard output.
func (tc toolchain) tool(t testing.TB, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tc.prefix+name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s%s %v: %v\n%s", tc.prefix, name, args, err, stderr.Bytes())
	}
	return string(out)
}

// build compiles testC (and mainC for an executable, linked at a fixed address so that file
// offsets and addresses differ) with unwind tables and a build-id, into dir; extra flags last.
func (tc toolchain) build(t testing.TB, dir string, exe bool, extra ...string) string {
	t.Helper()
	src := filepath.Join(dir, "lib.c")
	if err := os.WriteFile(src, []byte(testC), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-O2", "-g", "-fasynchronous-unwind-tables", "-Wl,--build-id"}, tc.flags...)
	args = append(args, extra...)
	out := filepath.Join(dir, "lib-"+tc.name+".so")
	if exe {
		mainSrc := filepath.Join(dir, "main.c")
		if err := os.WriteFile(mainSrc, []byte(mainC), 0o644); err != nil {
			t.Fatal(err)
		}
		out = filepath.Join(dir, "prog-"+tc.name)
		args = append(args, "-no-pie", "-o", out, src, mainSrc)
	} else {
		args = append(args, "-shared", "-fPIC", "-o", out, src)
	}
	tc.tool(t, "gcc", args...)
	return out
}

// nmFunc is a function nm lists: its address and size, and every name at that address.
type nmFunc struct {
	addr, size uint64
	names      []string
	global     bool
}

// nmFuncs lists the defined symbols in code of path as nm sees them (-D: the dynamic ones).
func (tc toolchain) nmFuncs(t testing.TB, path string, dynamic bool) map[uint64]*nmFunc {
	t.Helper()
	args := []string{"-S", "--defined-only", path}
	if dynamic {
		args = append([]string{"-D"}, args...)
	}
	ef, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	inCode := func(addr uint64) bool { // nm's W is also a weak data symbol
		for _, s := range ef.Sections {
			if s.Flags&elf.SHF_EXECINSTR != 0 && addr >= s.Addr && addr < s.Addr+s.Size {
				return true
			}
		}
		return false
	}
	funcs := map[uint64]*nmFunc{}
	for _, line := range strings.Split(tc.tool(t, "nm", args...), "\n") {
		fields := strings.Fields(line)
		var size uint64
		switch len(fields) {
		case 4:
			s, err := strconv.ParseUint(fields[1], 16, 64)
			if err != nil {
				t.Fatalf("nm line %q", line)
			}
			size, fields = s, []string{fields[0], fields[2], fields[3]}
		case 3:
		default:
			continue
		}
		if !strings.Contains("TtWi", fields[1]) {
			continue
		}
		addr, err := strconv.ParseUint(fields[0], 16, 64)
		if err != nil {
			t.Fatalf("nm line %q", line)
		}
		if !inCode(addr) {
			continue
		}
		name, _, _ := strings.Cut(fields[2], "@")
		fn := funcs[addr]
		if fn == nil {
			fn = &nmFunc{addr: addr}
			funcs[addr] = fn
		}
		fn.names = append(fn.names, name)
		fn.size = max(fn.size, size)
		fn.global = fn.global || fields[1] != "t"
	}
	return funcs
}

// offsetOf is the file offset of addr, by the program headers as debug/elf reads them.
func offsetOf(t testing.TB, path string, addr uint64) uint64 {
	t.Helper()
	ef, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	for _, p := range ef.Progs {
		if p.Type == elf.PT_LOAD && addr >= p.Vaddr && addr < p.Vaddr+p.Filesz {
			return addr - p.Vaddr + p.Off
		}
	}
	t.Fatalf("%s: address %#x is not in a PT_LOAD segment", path, addr)
	return 0
}

// mid is an address inside fn, away from its start.
func (fn *nmFunc) mid() uint64 { return fn.addr + fn.size/2&^1 }

// checkNamed checks that fn is named at its start and, when nm knows its size, in its middle.
func checkNamed(t *testing.T, f *File, path string, fn *nmFunc) {
	t.Helper()
	addrs := []uint64{fn.addr}
	if fn.size > 2 {
		addrs = append(addrs, fn.mid())
	}
	for _, a := range addrs {
		off := offsetOf(t, path, a)
		if back, ok := f.Offset(a); !ok || back != off {
			t.Errorf("%s: Offset(%#x) = %#x, %v; want %#x", filepath.Base(path), a, back, ok, off)
		}
		got := f.Lookup(off)
		if !contains(fn.names, got.Name) || got.Start != fn.addr || got.FromUnwind {
			t.Errorf("%s: Lookup(%#x) = %+v, want one of %v starting at %#x", filepath.Base(path), a, got, fn.names, fn.addr)
		}
	}
}

// checkUnwound checks that fn is found by its unwind-table start, unnamed.
func checkUnwound(t *testing.T, f *File, path string, fn *nmFunc) {
	t.Helper()
	for _, a := range []uint64{fn.addr, fn.mid()} {
		got := f.Lookup(offsetOf(t, path, a))
		if got != (Func{Start: fn.addr, FromUnwind: true}) {
			t.Errorf("%s: Lookup(%#x) in %v = %+v, want the unwind start %#x", filepath.Base(path), a, fn.names, got, fn.addr)
		}
	}
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

func byName(funcs map[uint64]*nmFunc, name string) *nmFunc {
	for _, fn := range funcs {
		if contains(fn.names, name) {
			return fn
		}
	}
	return nil
}

// binaries builds tc's shared object, and its executable when tc links one.
func (tc toolchain) binaries(t *testing.T) []string {
	bins := []string{tc.build(t, t.TempDir(), false)}
	if tc.libc {
		bins = append(bins, tc.build(t, t.TempDir(), true))
	}
	return bins
}

func TestSymtabNamesEveryFunction(t *testing.T) {
	for _, tc := range toolchains {
		t.Run(tc.name, func(t *testing.T) {
			tc.require(t)
			for _, bin := range tc.binaries(t) {
				f, err := Open(bin, t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				if f.Source() != ".symtab" {
					t.Errorf("%s: Source() = %q, want .symtab", bin, f.Source())
				}
				if len(f.BuildID()) != 40 {
					t.Errorf("%s: BuildID() = %q, want a 20-byte SHA-1", bin, f.BuildID())
				}
				for _, fn := range tc.nmFuncs(t, bin, false) {
					checkNamed(t, f, bin, fn)
				}
			}
		})
	}
}

func TestStrippedNamesExportsAndUnwindStarts(t *testing.T) {
	for _, tc := range toolchains {
		t.Run(tc.name, func(t *testing.T) {
			tc.require(t)
			for _, bin := range tc.binaries(t) {
				funcs := tc.nmFuncs(t, bin, false)
				stripped := bin + ".stripped"
				tc.tool(t, "strip", "--strip-all", "-o", stripped, bin)
				f, err := Open(stripped, t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				// A MIPS executable exports its functions; others export none of their own.
				dynamic := tc.nmFuncs(t, stripped, true)
				want := map[bool]string{true: ".dynsym", false: "unwind tables only"}[len(dynamic) > 0]
				if f.Source() != want {
					t.Errorf("%s: Source() = %q, want %q", stripped, f.Source(), want)
				}
				if strings.HasSuffix(bin, ".so") {
					for _, name := range []string{"compute", "weak_entry", "consume"} {
						if byName(dynamic, name) == nil {
							t.Errorf("nm -D lists no %s", name)
						}
					}
				}
				for _, fn := range dynamic {
					checkNamed(t, f, stripped, fn)
				}
				for _, name := range statics {
					checkUnwound(t, f, stripped, byName(funcs, name))
				}
			}
		})
	}
}

func TestDebugFileByBuildIDAndDebuglink(t *testing.T) {
	for _, tc := range toolchains {
		t.Run(tc.name, func(t *testing.T) {
			tc.require(t)
			bin := tc.build(t, t.TempDir(), false)
			funcs := tc.nmFuncs(t, bin, false)
			work := t.TempDir()
			debug := filepath.Join(work, "lib.debug")
			tc.tool(t, "objcopy", "--only-keep-debug", bin, debug)
			stripped := filepath.Join(work, "stripped.so")
			tc.tool(t, "strip", "--strip-all", "-o", stripped, bin)
			linked := filepath.Join(work, "linked.so")
			tc.tool(t, "objcopy", "--add-gnu-debuglink="+debug, stripped, linked)
			debugBytes, err := os.ReadFile(debug)
			if err != nil {
				t.Fatal(err)
			}
			// place copies file into a new folder, and writes debugFile at debugAt inside it.
			place := func(file, debugAt string, debugFile []byte) (folder, path string) {
				folder = t.TempDir()
				path = filepath.Join(folder, filepath.Base(file))
				copyFile(t, file, path)
				at := filepath.Join(folder, debugAt)
				if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(at, debugFile, 0o644); err != nil {
					t.Fatal(err)
				}
				return folder, path
			}
			check := func(path, wantSource string, debugDirs ...string) {
				t.Helper()
				f, err := Open(path, debugDirs...)
				if err != nil {
					t.Fatal(err)
				}
				if f.Source() != wantSource {
					t.Fatalf("Source() = %q, want %q", f.Source(), wantSource)
				}
				if wantSource == ".dynsym" {
					return
				}
				for _, fn := range funcs {
					checkNamed(t, f, bin, fn)
				}
			}

			f, err := Open(stripped, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			id := f.BuildID()
			byID := filepath.Join(".build-id", id[:2], id[2:]+".debug")
			root, path := place(stripped, byID, debugBytes)
			check(path, "debug file "+filepath.Join(root, byID), t.TempDir(), root)

			folder, path := place(linked, "lib.debug", debugBytes)
			check(path, "debug file "+filepath.Join(folder, "lib.debug"), t.TempDir())
			folder, path = place(linked, filepath.Join(".debug", "lib.debug"), debugBytes)
			check(path, "debug file "+filepath.Join(folder, ".debug", "lib.debug"), t.TempDir())

			root = t.TempDir()
			path = filepath.Join(t.TempDir(), "linked.so")
			copyFile(t, linked, path)
			under := filepath.Join(root, filepath.Dir(path), "lib.debug")
			if err := os.MkdirAll(filepath.Dir(under), 0o755); err != nil {
				t.Fatal(err)
			}
			copyFile(t, debug, under)
			check(path, "debug file "+under, root)

			// Neither another build's debug file at the build-id path nor a debug file whose
			// CRC does not match the link is believed.
			other := filepath.Join(t.TempDir(), "other.debug")
			tc.tool(t, "objcopy", "--only-keep-debug", tc.build(t, t.TempDir(), false, "-O1"), other)
			otherBytes, err := os.ReadFile(other)
			if err != nil {
				t.Fatal(err)
			}
			root, path = place(stripped, byID, otherBytes)
			check(path, ".dynsym", root)
			_, path = place(linked, "lib.debug", append(bytes.Clone(debugBytes), 0))
			check(path, ".dynsym", t.TempDir())
		})
	}
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestNotELFNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("not an ELF file at all, just text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + ".missing"} {
		_, err := Open(p)
		if err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("Open(%s) error = %v, want one naming the file", p, err)
		}
	}
}

// TestDamagedFiles truncates real builds and garbles their headers and tables: Open may fail or
// name less, but never panics, and what it builds keeps its invariants.
func TestDamagedFiles(t *testing.T) {
	for _, tc := range toolchains[:3] {
		t.Run(tc.name, func(t *testing.T) {
			tc.require(t)
			bin := tc.build(t, t.TempDir(), false)
			orig, err := os.ReadFile(bin)
			if err != nil {
				t.Fatal(err)
			}
			for k := 0; k < 64; k++ {
				checkDamaged(t, orig[:len(orig)*k/64])
			}
			regions := tableRegions(t, bin)
			rng := rand.New(rand.NewPCG(1, 2))
			for range 400 {
				b := bytes.Clone(orig)
				r := regions[rng.IntN(len(regions))]
				for range 1 + rng.IntN(8) {
					b[r[0]+rng.IntN(r[1])] = byte(rng.Uint32())
				}
				checkDamaged(t, b)
			}
		})
	}
}

// tableRegions lists [start, length) of the byte ranges elfsym reads: headers and tables.
func tableRegions(t testing.TB, path string) [][2]int {
	ef, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	regions := [][2]int{{0, 52}}
	for _, p := range ef.Progs {
		if p.Type != elf.PT_LOAD && p.Filesz > 0 {
			regions = append(regions, [2]int{int(p.Off), int(p.Filesz)})
		}
	}
	for _, s := range ef.Sections {
		switch s.Type {
		case elf.SHT_SYMTAB, elf.SHT_DYNSYM, elf.SHT_STRTAB, elf.SHT_NOTE, shtARMExidx:
			regions = append(regions, [2]int{int(s.Offset), int(s.FileSize)})
		}
	}
	return regions
}

// checkDamaged opens damaged bytes and looks up every offset in them.
func checkDamaged(t *testing.T, b []byte) {
	t.Helper()
	f, err := load(bytes.NewReader(b), int64(len(b)), "/nonexistent/damaged.so", []string{"/nonexistent"})
	if err != nil {
		if !strings.Contains(err.Error(), "/nonexistent/damaged.so") {
			t.Errorf("error %q does not name the file", err)
		}
		return
	}
	checkInvariants(t, f)
	for off := uint64(0); off < uint64(len(b))+64; off += 2 {
		f.Lookup(off)
	}
}

// checkInvariants checks what the binary searches rely on.
func checkInvariants(t testing.TB, f *File) {
	t.Helper()
	for i, s := range f.spans {
		if s.from >= s.end || s.start > s.from || i > 0 && f.spans[i-1].from >= s.from {
			t.Fatalf("span %d %+v breaks the order (previous %+v)", i, s, f.spans[max(i-1, 0)])
		}
	}
	for i := 1; i < len(f.unwind); i++ {
		if f.unwind[i-1] >= f.unwind[i] {
			t.Fatalf("unwind starts not sorted and unique at %d", i)
		}
	}
}

// crossLibcs are the C libraries of Debian's cross toolchains, as Debian ships them (stripped).
var crossLibcs = []struct{ prefix, path string }{
	{"arm-linux-gnueabihf-", "/usr/arm-linux-gnueabihf/lib/libc.so.6"},
	{"mipsel-linux-gnu-", "/usr/mipsel-linux-gnu/lib/libc.so.6"},
}

func TestRealLibc(t *testing.T) {
	for _, lc := range crossLibcs {
		t.Run(lc.prefix+"libc", func(t *testing.T) {
			if _, err := os.Stat(lc.path); err != nil {
				t.Skip(err)
			}
			tc := toolchain{prefix: lc.prefix}
			qemutest.Require(t, lc.prefix+"nm")
			begin := time.Now()
			f, err := Open(lc.path)
			took := time.Since(begin)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: names from %s, build-id %s, %d spans, %d unwind starts, opened in %v",
				lc.path, f.Source(), f.BuildID(), len(f.spans), len(f.unwind), took)
			checkInvariants(t, f)
			funcs := tc.nmFuncs(t, lc.path, true)
			for _, name := range []string{"memcpy", "malloc"} {
				fn := byName(funcs, name)
				if fn == nil {
					t.Fatalf("nm -D lists no %s", name)
				}
				if got := f.Lookup(offsetOf(t, lc.path, fn.addr)); got.Name != name || got.Start != fn.addr {
					t.Errorf("Lookup(%s at %#x) = %+v", name, fn.addr, got)
				}
			}
		})
	}
}

// BenchmarkOpenLibc opens the largest cross libc (2 MB, mipsel): well under 100 ms is the aim.
func BenchmarkOpenLibc(b *testing.B) {
	path := crossLibcs[1].path
	if _, err := os.Stat(path); err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, err := Open(path); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBuildSpans checks the table rules real toolchains rarely show: aliases, nesting, size-0
// symbols bounded by their section and by an enclosing function, the last unwind start.
func TestBuildSpans(t *testing.T) {
	never := ^uint64(0)
	spans := buildSpans([]cand{
		{start: 0x100, size: 0x10, secEnd: never, name: "__alias", rank: 0},
		{start: 0x100, size: 0x10, secEnd: never, name: "weak_alias", rank: 1},
		{start: 0x100, size: 0, secEnd: never, name: "_alias", rank: 0},
		{start: 0x100, size: 0x10, secEnd: never, name: "label", rank: 4},
		{start: 0x200, size: 0x100, secEnd: never, name: "outer", rank: 2},
		{start: 0x240, size: 0x20, secEnd: never, name: "inner", rank: 2},
		{start: 0x280, size: 0, secEnd: never, name: "entry", rank: 4},
		{start: 0x400, size: 0, secEnd: 0x420, name: "last_in_section", rank: 2},
		{start: 0x500, size: never, secEnd: never, name: "huge", rank: 0},
	})
	f := &File{spans: spans, unwind: []uint64{0x100, 0x300, 0x380}}
	checkInvariants(t, f)
	for _, c := range []struct {
		addr uint64
		want Func
	}{
		{0x100, Func{Name: "_alias", Start: 0x100}},
		{0x10f, Func{Name: "_alias", Start: 0x100}},
		{0x110, Func{Start: 0x100, FromUnwind: true}}, // no symbol: the unwind start before it
		{0x23f, Func{Name: "outer", Start: 0x200}},
		{0x25f, Func{Name: "inner", Start: 0x240}},
		{0x260, Func{Name: "outer", Start: 0x200}},
		{0x2ff, Func{Name: "entry", Start: 0x280}},
		{0x37f, Func{Start: 0x300, FromUnwind: true}},
		{0x41f, Func{Name: "last_in_section", Start: 0x400}},
		{0x420, Func{Start: 0x420}}, // after the last unwind start: its extent is unknown
		{never - 1, Func{Name: "huge", Start: 0x500}},
	} {
		if got := f.LookupAddr(c.addr); got != c.want {
			t.Errorf("LookupAddr(%#x) = %+v, want %+v", c.addr, got, c.want)
		}
	}
}
