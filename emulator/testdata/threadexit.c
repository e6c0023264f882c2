/* threadexit.c: forks K children (default 20); each starts a thread that ends the child
 * process at once (_exit, i.e. exit_group) while the child's main thread waits in
 * pthread_join. The thread often ends its process before QEMU has flushed the code cache
 * for the plugin's switch to per-thread counting. Usage: threadexit [K] */
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

static void *quit(void *arg)
{
	for (long i = 0; i < (long)arg; i++)
		sink = sink * 33 + (unsigned long)i;
	_exit(0);
}

static void child(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, quit, (void *)10L) != 0)
		_exit(2);
	pthread_join(t, NULL);
	_exit(3); /* quit ends the process first */
}

int main(int argc, char **argv)
{
	long k = argc > 1 ? atol(argv[1]) : 20;
	for (long i = 0; i < k; i++) {
		pid_t p = fork();
		if (p < 0)
			return 1;
		if (p == 0)
			child();
	}
	int st, bad = 0;
	while (wait(&st) > 0)
		bad += !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	return bad != 0;
}
