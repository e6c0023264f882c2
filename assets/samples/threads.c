/* threads.c: the main thread starts two workers that each do a fixed amount of work, so a
 * run holds one process with three threads. Usage: threads [N]  (default 200000). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long n = 200000;

static void *work(void *arg) {
	unsigned long s = (unsigned long)(size_t)arg;
	for (long i = 0; i < n; i++)
		s = s * 33 + (unsigned long)i % 7;
	return (void *)(size_t)s;
}

int main(int argc, char **argv) {
	if (argc > 1)
		n = atol(argv[1]);
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, work, (void *)(size_t)i) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	unsigned long sum = 0;
	for (int i = 0; i < 2; i++) {
		void *r;
		pthread_join(t[i], &r);
		sum += (unsigned long)(size_t)r;
	}
	printf("threads: %lu\n", sum);
	return 0;
}
