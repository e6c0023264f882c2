/* x86habits.c: the two habits of QEMU 7.2's x86 translator the plugin corrects for
 * (emulator/plugin/bbcount.c, "x86: instructions QEMU lists but does not run"), for the
 * exactness test of x86-64 guests:
 *   crosspage(): a 10-byte instruction that crosses a page boundary after 4090 one-byte nops,
 *     so the block before it lists it half-read;
 *   reps(): every REP string instruction with 0, 1 and many iterations, REPE/REPNE stopping on
 *     ZF and on RCX.
 * Both run in the main thread, then in two threads at once (per-thread counting).
 * Usage: x86habits [N]  (N rounds of each; default 300). Prints a checksum. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

__asm__(".text\n"
	".p2align 12\n"
	".globl crosspage\n"
	".type crosspage, @function\n"
	"crosspage:\n"
	".fill 4090, 1, 0x90\n"
	"movabs $0x1122334455667788, %rax\n" /* bytes 4090..4099: across the page end */
	"ret\n"
	".size crosspage, .-crosspage\n");
unsigned long crosspage(void);

static long rounds = 300;

__attribute__((noinline, noclone)) static unsigned long reps(long n)
{
	static __thread unsigned char a[256], b[256];
	unsigned long s = 0;
	for (long k = 0; k < n; k++) {
		unsigned long c = (unsigned long)k % 67; /* 0 to 66 iterations */
		void *d = a, *src = b;
		__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(c) : : "memory");
		c = (unsigned long)k % 5;
		d = a;
		__asm__ volatile("rep stosq" : "+D"(d), "+c"(c) : "a"(k) : "memory");
		c = 64; /* a differs from b where stosq wrote k (ZF stop), else RCX runs out */
		d = a;
		src = b;
		__asm__ volatile("repe cmpsb" : "+D"(d), "+S"(src), "+c"(c) : : "memory", "cc");
		s += c;
		c = 100; /* finds k's low byte (ZF stop) or runs out */
		d = a;
		__asm__ volatile("repne scasb" : "+D"(d), "+c"(c) : "a"(k & 0xff) : "memory", "cc");
		s += c;
		c = (unsigned long)k % 3;
		src = a;
		unsigned long last = 0;
		__asm__ volatile("rep lodsb" : "+S"(src), "+c"(c), "+a"(last) : : "memory");
		s += last & 0xff;
	}
	return s;
}

static void *work(void *arg)
{
	unsigned long s = (unsigned long)(size_t)arg;
	for (long i = 0; i < rounds; i++)
		s += crosspage();
	return (void *)(size_t)(s + reps(rounds));
}

int main(int argc, char **argv)
{
	if (argc > 1)
		rounds = atol(argv[1]);
	unsigned long sum = (unsigned long)(size_t)work(NULL);
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, work, NULL) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	for (int i = 0; i < 2; i++) {
		void *r;
		pthread_join(t[i], &r);
		sum += (unsigned long)(size_t)r;
	}
	printf("x86habits: %lu\n", sum);
	return 0;
}
