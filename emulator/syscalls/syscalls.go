// Package syscalls names the Linux system calls of the guests user-mode QEMU runs, so that
// counts kept by number can be shown as the kernel names them: ARM EABI (numbers 0 up, plus
// ARM's private calls from 0x0f0000, named with an "ARM_" prefix as in "ARM_set_tls", after
// their __ARM_NR_ macros), MIPS o32 (numbers from 4000), AArch64 (the kernel's generic table,
// with the optional calls arm64 chooses) and x86-64 (its own table).
//
// The tables are generated from the kernel UAPI headers of Debian's packages (the cross
// packages; x86-64: the amd64 host's linux-libc-dev); run `go generate ./emulator/syscalls`
// after those packages change.
package syscalls

//go:generate go run ./internal/gen

import "strconv"

// Name is the system call's name ("read", "exit_group", "ARM_set_tls") and true, or
// "syscall_N" and false when arch has no table or its table no such number, so that a
// report always has a row label.
func Name(arch string, nr int64) (string, bool) {
	if name, ok := tables[arch][nr]; ok {
		return name, true
	}
	return "syscall_" + strconv.FormatInt(nr, 10), false
}

// Known reports whether arch (a QEMU target name: arm, armeb, mips, mipsel, aarch64, x86_64)
// has a table, so that callers can tell "no names for this guest" from an unknown number.
func Known(arch string) bool {
	_, ok := tables[arch]
	return ok
}
