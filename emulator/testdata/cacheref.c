/*
 * The cache simulation's referee program (emulator/cache_referee_test.go): run natively under
 * cachegrind and under QEMU with the plugin, with the same geometry, its hot functions must
 * miss alike. They touch only code and global data: drive() and everything it calls run on a
 * stack that is a global array (main switches to it), so even calls and returns read and
 * write the same addresses natively and emulated. Code and arrays are aligned to whole
 * lines, so nothing the C library ran before drive() shares a line with them.
 *
 * Built gcc -static -O2 -no-pie -g. Hot functions, each a different way to miss:
 *   strided:  sums a 256 KiB array at a 4 KiB stride, then at 64 bytes: conflict misses in
 *             the L1D (a few sets take every access) and capacity misses in the L2;
 *   chase:    walks a random cycle through 64 Ki pointers (256 KiB): every step a new line;
 *   bump:     big[i] += 1, a read-modify-write instruction (cachegrind: one "modify" write;
 *             QEMU: a load and a store) over the array;
 *   unaligned: 8-byte loads that straddle two lines;
 *   bigcode:  ~20 KiB of straight-line code, run again and again: L1I misses.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define HOT __attribute__((noinline, aligned(64), optimize("no-tree-vectorize")))

static long big[32768] __attribute__((aligned(4096)));	  /* 256 KiB */
static uint32_t next[65536] __attribute__((aligned(4096))); /* 256 KiB */
static unsigned char bytes[16384] __attribute__((aligned(4096)));
static char stack[65536] __attribute__((aligned(4096)));
static uint64_t result[8] __attribute__((aligned(64)));

HOT void init(void)
{
	uint32_t seed = 12345;
	for (uint32_t i = 0; i < 65536; i++)
		next[i] = i;
	for (uint32_t i = 65535; i > 0; i--) { /* Sattolo: one cycle through all */
		seed = seed * 1103515245u + 12345u;
		uint32_t j = (seed >> 8) % i;
		uint32_t t = next[i];
		next[i] = next[j];
		next[j] = t;
	}
}

HOT void strided(void)
{
	long s = 0;
	for (int r = 0; r < 8; r++)
		for (int i = 0; i < 32768; i += 512)
			s += big[i];
	for (int r = 0; r < 3; r++)
		for (int i = 0; i < 32768; i += 8)
			s += big[i];
	result[0] = (uint64_t)s;
}

HOT void chase(void)
{
	uint32_t p = 0;
	for (int i = 0; i < 200000; i++)
		p = next[p];
	result[1] = p;
}

HOT void bump(void)
{
	for (int r = 0; r < 2; r++)
		for (int i = 0; i < 32768; i += 4)
			big[i] += 1;
}

HOT void unaligned(void)
{
	uint64_t s = 0, v;
	for (int r = 0; r < 4; r++)
		for (int i = 0; i + 1 < 16384 / 64; i++) {
			memcpy(&v, bytes + 64 * i + 60, sizeof v); /* bytes 60..67 of a line pair */
			s += v;
		}
	result[2] = s;
}

#define S1(k) x = x * 0x9e3779b97f4a7c15ull + ((x >> 29) ^ (k));
#define S10(k) S1(k##0) S1(k##1) S1(k##2) S1(k##3) S1(k##4) S1(k##5) S1(k##6) S1(k##7) S1(k##8) S1(k##9)
#define S100(k) S10(k##0) S10(k##1) S10(k##2) S10(k##3) S10(k##4) S10(k##5) S10(k##6) S10(k##7) S10(k##8) S10(k##9)

HOT void bigcode(void)
{
	uint64_t x = result[3];
	for (int r = 0; r < 20; r++) {
		S100(1) S100(2) S100(3) S100(4) S100(5) S100(6) S100(7) S100(8) S100(9)
	}
	result[3] = x + 1;
}

HOT void drive(void)
{
	init();
	strided();
	chase();
	bump();
	unaligned();
	bigcode();
	strided();
}

int main(void)
{
	void *top = stack + sizeof stack;
	__asm__ volatile("mov %%rsp, %%rbx\n\t"
			 "mov %0, %%rsp\n\t"
			 "call drive\n\t"
			 "mov %%rbx, %%rsp"
			 :
			 : "r"(top)
			 : "rbx", "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "memory", "cc", "xmm0",
			   "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
			   "xmm12", "xmm13", "xmm14", "xmm15");
	printf("%llu %llu %llu %llu\n", (unsigned long long)result[0], (unsigned long long)result[1],
	       (unsigned long long)result[2], (unsigned long long)result[3]);
	return 0;
}
