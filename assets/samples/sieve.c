/* sieve.c: a small CPU-bound sample for the workbench's demo data and exact-count tests.
 * Counts primes below N with a sieve of Eratosthenes, then checksums them with a few
 * multiplies and divides so every cost class of a simple integer program is exercised. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char composite[200000];

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 50000;
	if (n < 2 || n > (int)sizeof composite) {
		fprintf(stderr, "usage: sieve [2..%zu]\n", sizeof composite);
		return 2;
	}
	memset(composite, 0, (size_t)n);
	int count = 0;
	unsigned long sum = 0;
	for (int i = 2; i < n; i++) {
		if (composite[i])
			continue;
		count++;
		sum = sum * 31u + (unsigned)i % 97u;
		for (int j = i * 2; j < n; j += i)
			composite[j] = 1;
	}
	double mean = count ? (double)sum / count : 0;
	printf("primes below %d: %d (checksum %lu, %.3f)\n", n, count, sum, mean);
	return 0;
}
