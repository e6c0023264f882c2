/* threads.c: a multi-threaded guest for the `-d tid` import test. Three threads sum
 * different ranges; each guest thread is its own QEMU vCPU. The run must execute the same
 * instructions under `-singlestep`, so no path depends on timing: each thread reports
 * through a pipe and then blocks in read() for good; the main thread blocks in read() until
 * all three reported, sleeps so the last one reaches its read(), and exit() ends them all.
 * (pthread_join would take another path when the thread has already finished.) */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static unsigned long sums[3];
static int done[2], never[2];

static void *work(void *arg) {
	long k = (long)arg;
	unsigned long s = 0;
	for (long i = 0; i < 2000 * (k + 1); i++)
		s += (unsigned long)(i * i) % (7 + k);
	sums[k] = s;
	char c = 'k';
	write(done[1], &c, 1);
	read(never[0], &c, 1);
	return NULL;
}

int main(void) {
	pthread_t t;
	if (pipe(done) || pipe(never))
		return 1;
	for (long k = 0; k < 3; k++)
		pthread_create(&t, NULL, work, (void *)k);
	for (int k = 0; k < 3; k++) {
		char c;
		read(done[0], &c, 1);
	}
	struct timespec pause = {0, 200000000};
	nanosleep(&pause, NULL);
	printf("%lu %lu %lu\n", sums[0], sums[1], sums[2]);
	return 0;
}
