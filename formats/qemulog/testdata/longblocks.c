/* longblocks.c: straight-line blocks of more than 1 KiB of x86 code, for the test of
 * capstone's skipped bytes: QEMU gives capstone a block's code 1 KiB at a time, and an
 * instruction across that boundary comes out as ".byte" lines. */
#include <stdio.h>
#include <stdlib.h>

#define S(k) x = x * (k | 1) + a[(k) & 63] + (x >> ((k) % 13)); a[((k) * 7) & 63] ^= x + (k) * 0x10001L;
#define S8(k) S(k) S(k + 1) S(k + 2) S(k + 3) S(k + 4) S(k + 5) S(k + 6) S(k + 7)
#define S64(k) S8(k) S8(k + 8) S8(k + 16) S8(k + 24) S8(k + 32) S8(k + 40) S8(k + 48) S8(k + 56)

static long a[64];

__attribute__((noinline)) static long mix(long x) {
	S64(1) S64(100)
	return x;
}

int main(int argc, char **argv) {
	long x = argc > 1 ? atol(argv[1]) : 1;
	for (int i = 0; i < 50; i++)
		x = mix(x + i);
	printf("%ld\n", x);
	return 0;
}
