package elfsym

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

// TestMain shortens the fuzzer's minimizing of each new input (60 s by default) unless
// -test.fuzzminimizetime is given: minimizing a byte slice is quadratic in its length, so on
// KB-sized ELF inputs a short -fuzztime run would do nothing else.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.fuzzminimizetime" })
	if !set {
		flag.Set("test.fuzzminimizetime", "1s")
	}
	os.Exit(m.Run())
}

// FuzzOpen feeds real builds, mutated, to Open: it must never panic, and what it builds must
// keep the order Lookup's binary searches rely on.
func FuzzOpen(f *testing.F) {
	for _, tc := range []toolchain{toolchains[1], toolchains[2], toolchains[4]} { // thumb, mips, mipsbe
		tc.require(f)
		// Small seeds (no C library, no DWARF) keep the fuzzer's minimizing of each new
		// input short; they still carry .symtab, .dynsym, build-id and unwind tables.
		bin := tc.build(f, f.TempDir(), false, "-nostdlib", "-g0")
		tc.tool(f, "strip", "--strip-debug", "-R", ".comment", bin)
		b, err := os.ReadFile(bin)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := load(bytes.NewReader(b), int64(len(b)), "/nonexistent/fuzz.so", []string{"/nonexistent"})
		if err != nil {
			return
		}
		checkInvariants(t, file)
		for off := uint64(0); off < uint64(len(b)); off += 64 {
			file.Lookup(off)
		}
	})
}
