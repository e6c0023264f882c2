/* tiny.c: the guest of the AArch64 and x86-64 fixtures (testdata/*-7.2.log): a loop around
 * a call, and an exit system call, without libc, so the whole `-d in_asm,exec,nochain` log
 * is a few KiB. Made on Debian 12 (gcc 12, QEMU 7.2.22) with
 *   aarch64-linux-gnu-gcc -O1 -static -nostdlib -fno-stack-protector -o tiny-a64 tiny.c
 *   qemu-aarch64 -d in_asm,exec,nochain -D aarch64-7.2.log ./tiny-a64
 * and the same with gcc and qemu-x86_64 for x86_64-7.2.log. `-singlestep -d exec,nochain`
 * logs of the same programs hold 368 (AArch64) and 408 (x86-64) Trace lines. */
__attribute__((noinline)) static long square_mod(long x) { return x * x % 7; }

static void exit_with(long code) {
#if defined(__aarch64__)
	register long x0 __asm__("x0") = code;
	register long x8 __asm__("x8") = 93; /* exit */
	__asm__ volatile("svc #0" : : "r"(x0), "r"(x8));
#elif defined(__x86_64__)
	__asm__ volatile("syscall" : : "a"(60L), "D"(code)); /* exit */
#endif
	for (;;) {
	}
}

void _start(void) {
	long s = 0;
	for (long i = 0; i < 20; i++)
		s += square_mod(i);
	exit_with(s & 0x7f);
}
