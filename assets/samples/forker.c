/* forker.c: forks a child that does some work while the parent waits, so a run holds two
 * processes. Used to check that the plugin writes a forked child as its own process with
 * the right parent pid. Usage: forker [N]  (the child sums N numbers; default 100000).
 * It prints no process ids: printing one takes an instruction per digit or so, and a test
 * compares two runs' instruction counts, whose pids may differ in length. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long work(long n) {
	unsigned long s = 0;
	for (long i = 0; i < n; i++)
		s = s * 33 + (unsigned long)i % 7;
	return s;
}

int main(int argc, char **argv) {
	long n = argc > 1 ? atol(argv[1]) : 100000;
	fflush(stdout);
	pid_t child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child == 0) {
		printf("child: %lu\n", work(n));
		return 0;
	}
	int status;
	if (waitpid(child, &status, 0) < 0) {
		perror("waitpid");
		return 1;
	}
	printf("parent: child exited with %d\n", WEXITSTATUS(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
