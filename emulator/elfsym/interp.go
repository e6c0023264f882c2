package elfsym

import (
	"debug/elf"
	"io"
	"strings"
)

// Interp is a program's dynamic loader as its PT_INTERP names it ("/lib/ld-linux-armhf.so.3"),
// "" when the program is static or not readable here. The QEMU runner finds a sysroot by it, and
// the basic-block profile reader tells the loader's image from the libraries by it.
func Interp(program string) string {
	f, err := elf.Open(program)
	if err != nil {
		return ""
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP && p.Filesz < 4096 {
			b, err := io.ReadAll(p.Open())
			if err == nil {
				return strings.TrimRight(string(b), "\x00")
			}
		}
	}
	return ""
}
