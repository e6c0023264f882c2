/* crash.c: does a little work, then dereferences NULL, so the runner's handling of a program
 * that dies under QEMU (SIGSEGV) can be tested. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
	volatile int *p = argc > 5 ? (int *)argv : NULL;
	long sum = 0;
	for (int i = 0; i < 1000; i++)
		sum += i;
	printf("about to crash after summing %ld\n", sum);
	fflush(stdout);
	return *p + (int)sum;
}
