/* mips-be.c: a big-endian MIPS guest without libc (Debian has no big-endian MIPS libc for the
 * mipsel cross compiler), for the runner's qemu-mips test. Build: mipsel-linux-gnu-gcc -EB
 * -O2 -static -nostdlib. Loops a little, then calls exit(0) by syscall 4001. */
void __start(void) {
	for (volatile int i = 0; i < 100; i++)
		;
	__asm__ volatile("li $2, 4001\n\tmove $4, $0\n\tsyscall" ::: "memory");
	for (;;)
		;
}
