/*
 * Access patterns whose misses are known by hand or by a few lines of reference simulation,
 * for every guest (emulator/cache_policy_test.go). Both functions are leaves that touch only
 * the array they are given, so their loops see no other data; the callers compute the
 * addresses (ARM and MIPS load them from a literal pool or the GOT: those loads stay in main).
 *   pattern: 4-byte words 1 KiB apart, all in one set of a 4 KiB 4-way L1D (16 sets of 64
 *            bytes): four read once, so the set holds only lines read no more, then five
 *            read A B A C D E fifty times: 304 reads;
 *   stream:  writes 64 KiB once, 4 bytes at a time: 16384 writes over 1024 fresh lines.
 */
#include <stdint.h>

#define HOT __attribute__((noinline, aligned(64), optimize("no-tree-vectorize")))

static uint32_t lines[4096] __attribute__((aligned(4096)));
static uint32_t wonly[16384] __attribute__((aligned(4096)));

/* v: A B C D at 1 KiB steps, e: E, sweep: the four lines read once (offsets a Thumb load reaches) */
HOT void pattern(volatile uint32_t *v, volatile uint32_t *e, volatile uint32_t *sweep)
{
	(void)sweep[0];
	(void)sweep[256];
	(void)sweep[512];
	(void)sweep[768];
	for (int r = 0; r < 50; r++) {
		(void)v[0];
		(void)v[256];
		(void)v[0];
		(void)v[512];
		(void)v[768];
		(void)e[0];
	}
}

HOT void stream(volatile uint32_t *w)
{
	for (uint32_t i = 0; i < 16384; i++)
		w[i] = i;
}

int main(void)
{
	pattern(lines, lines + 1024, lines + 2048);
	stream(wonly);
	return 0;
}
