/* Prints "number name" for a fixed list of harmless system calls, then makes them by number,
   ending with exit_group: the last lines of `qemu-* -strace` are then these calls, in order,
   as QEMU names them. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static long buf[256];

#define CALL(name, ...) {SYS_##name, #name, {__VA_ARGS__}}

static const struct {
	long nr;
	const char *name;
	long args[6];
} calls[] = {
	CALL(getpid),
	CALL(getppid),
	CALL(gettid),
	CALL(getuid),
#ifdef SYS_getuid32
	CALL(getuid32),
#endif
	CALL(getgid),
	CALL(geteuid),
	CALL(getegid),
	CALL(sched_yield),
	CALL(umask, 022),
	CALL(times, 0),
	CALL(brk, 0),
	CALL(uname, (long)buf),
	CALL(getcwd, (long)buf, sizeof buf),
	CALL(sysinfo, (long)buf),
	CALL(clock_gettime, 0, (long)buf),
#ifdef SYS_clock_gettime64 /* 32-bit ABIs only */
	CALL(clock_gettime64, 0, (long)buf),
#endif
	CALL(read, -1, 0, 0),
	CALL(write, 1, (long)"", 0),
#ifdef SYS_mmap2
	CALL(mmap2, 0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
#else /* 64-bit ABIs: mmap takes a byte offset */
	CALL(mmap, 0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
#endif
	CALL(munmap, 0, 0),
	CALL(exit_group, 0),
};

int main(void)
{
	int n = sizeof calls / sizeof calls[0];
	for (int i = 0; i < n; i++)
		printf("%ld %s\n", calls[i].nr, calls[i].name);
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		const long *a = calls[i].args;
		syscall(calls[i].nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
	return 1; /* exit_group did not end the program */
}
