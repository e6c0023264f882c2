// Package emulator runs guest programs (32-bit ARM and MIPS, 64-bit AArch64 and x86-64 Linux
// programs) under qemu-user with the project's TCG plugin (plugin/bbcount.c) and streams the
// basic-block profiles it writes into a model.BlockSink (Run). It tells ARM from Thumb code by
// a program's ELF symbols (ELFModes) and counts the instructions of QEMU logs for the profile
// editor (CountLogInstructions). The readers of what QEMU writes live beside the other
// readers: formats/bbprofile and formats/qemulog.
package emulator
