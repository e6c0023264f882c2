/* cpu.c: a CPU-bound sample for the plugin overhead benchmark. Mixes the block shapes real
 * programs have: a tight sieve loop, a call-heavy recursive function, and a byte-wise hash
 * with data-dependent branches, so neither very long nor very short blocks dominate.
 * Usage: cpu [ROUNDS]  (default 20; each round is about 40 M guest instructions on ARM). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char composite[1 << 20];

static int sieve(int n) {
	memset(composite, 0, (size_t)n);
	int count = 0;
	for (int i = 2; i < n; i++) {
		if (composite[i])
			continue;
		count++;
		for (int j = i * 2; j < n; j += i)
			composite[j] = 1;
	}
	return count;
}

static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static unsigned hash(const unsigned char *p, size_t n) {
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h = (h ^ p[i]) * 16777619u;
		if (h & 1)
			h ^= h >> 7;
	}
	return h;
}

int main(int argc, char **argv) {
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	unsigned sum = 0;
	for (int r = 0; r < rounds; r++) {
		sum += (unsigned)sieve((int)sizeof composite);
		sum += fib(22);
		sum += hash(composite, sizeof composite);
	}
	printf("cpu: %d rounds, checksum %u\n", rounds, sum);
	return 0;
}
