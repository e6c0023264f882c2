// Exercises integer, x87, SSE scalar/packed, string, AES-NI, PCLMUL, SHA, CRC32, BMI, AVX2 and FMA code.
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int sink;

__attribute__((noinline)) long isum(const int *a, int n) {
	long s = 0;
	for (int i = 0; i < n; i++) s += (long)a[i] * (i & 3) / 3 + (a[i] >> 2) % 7;
	return s;
}

__attribute__((noinline)) double fsum(const double *a, int n) {
	double s = 0;
	for (int i = 0; i < n; i++) s += sqrt(a[i]) / (a[i] + 1.0);
	return s;
}

__attribute__((noinline)) float fsumf(const float *a, int n) {
	float s = 0;
	for (int i = 0; i < n; i++) s += sqrtf(a[i]) / (a[i] + 1.0f) * 2.5f;
	return s;
}

__attribute__((noinline)) long double ldsum(const long double *a, int n) {
	long double s = 0;
	for (int i = 0; i < n; i++) s += a[i] * a[i] / 3.0L;
	return s;
}

__attribute__((noinline)) void vadd(float *d, const float *a, const float *b, int n) {
	for (int i = 0; i < n; i++) d[i] = a[i] * b[i] + d[i];
}

__attribute__((noinline)) void strings(char *d, const char *s, size_t n) {
	memcpy(d, s, n);
	memset(d + n, 'x', n);
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
	sink = (int)strlen(s) + memcmp(d, s, 8) + (strchr(s, 'q') != 0);
}

__attribute__((noinline, target("aes,pclmul,sse4.2"))) void crypto(uint8_t *buf) {
	__m128i k = _mm_loadu_si128((void *)buf);
	__m128i x = _mm_loadu_si128((void *)(buf + 16));
	for (int i = 0; i < 10; i++) x = _mm_aesenc_si128(x, k);
	x = _mm_aesenclast_si128(x, k);
	x = _mm_aesdec_si128(x, k);
	x = _mm_clmulepi64_si128(x, k, 0x11);
	_mm_storeu_si128((void *)buf, x);
	uint32_t c = 0;
	for (int i = 0; i < 32; i++) c = _mm_crc32_u8(c, buf[i]);
	c = (uint32_t)_mm_crc32_u64(c, *(uint64_t *)buf);
	sink = (int)c;
}

__attribute__((noinline, target("sha"))) void sha(uint8_t *buf) {
	__m128i a = _mm_loadu_si128((void *)buf), b = _mm_loadu_si128((void *)(buf + 16));
	a = _mm_sha256rnds2_epu32(a, b, a);
	a = _mm_sha256msg1_epu32(a, b);
	a = _mm_sha1rnds4_epu32(a, b, 1);
	_mm_storeu_si128((void *)buf, a);
}

__attribute__((noinline, target("bmi,bmi2,lzcnt,popcnt"))) uint64_t bits(uint64_t x, uint64_t y) {
	return _pdep_u64(x, y) ^ _pext_u64(x, y) ^ _blsr_u64(x) ^ _andn_u64(x, y) ^ _lzcnt_u64(y) ^ _tzcnt_u64(x) ^
	       __builtin_popcountll(x) ^ _bzhi_u64(x, 17) ^ (x << (y & 63)) ^ _bextr_u64(x, 3, 9);
}

__attribute__((noinline, target("avx2,fma"))) void avx(float *d, const float *a, const float *b, int n) {
	for (int i = 0; i + 8 <= n; i += 8) {
		__m256 x = _mm256_loadu_ps(a + i), y = _mm256_loadu_ps(b + i), z = _mm256_loadu_ps(d + i);
		_mm256_storeu_ps(d + i, _mm256_fmadd_ps(x, y, z));
	}
	__m256i v = _mm256_set1_epi32(n);
	v = _mm256_add_epi32(v, _mm256_shuffle_epi8(v, v));
	sink = _mm256_extract_epi32(v, 3);
	_mm256_zeroupper();
}

// Spellings capstone prints differently from x86asm's op names: AT&T string forms (movsl, cmpsb
// with repe), SSE movsd/movq beside the string and integer ones, x87 reversed operations, atomics.
__attribute__((noinline)) void spellings(uint64_t *m, char *s, char *d) {
	__asm__ volatile(
		"mov $4, %%ecx\n\trep movsl\n\t"
		"mov $4, %%ecx\n\tsub $16, %%rsi\n\tsub $16, %%rdi\n\trepe cmpsb\n\t"
		"mov $8, %%ecx\n\txor %%eax, %%eax\n\trepne scasb\n\t"
		"lodsb\n\tstosb\n\tstosl\n\tlodsq\n\t"
		: "+S"(s), "+D"(d) : : "rax", "rcx", "memory", "cc");
	__asm__ volatile(
		"movsd (%0), %%xmm0\n\tmovsd %%xmm0, 8(%0)\n\tmovsd %%xmm0, %%xmm1\n\t"
		"movq (%0), %%xmm2\n\tmovq %%xmm2, 16(%0)\n\tmovq %%xmm2, %%rax\n\tmovq %%rax, %%xmm3\n\t"
		"movd %%xmm3, %%edx\n\tmovd 4(%0), %%xmm4\n\tmovd %%xmm4, 24(%0)\n\t"
		"movss (%0), %%xmm5\n\tmovss %%xmm5, 28(%0)\n\tmovaps %%xmm5, %%xmm6\n\t"
		"movabsq $0x123456789, %%rdx\n\tmovzbl 1(%0), %%edx\n\tmovsbq 2(%0), %%rdx\n\tmovzwl %%dx, %%edx\n\t"
		"movslq 4(%0), %%rdx\n\tmovb %%dl, 32(%0)\n\tmovw $7, 34(%0)\n\tmovl %%fs:0, %%edx\n\t"
		"bswap %%rdx\n\tlock xaddq %%rdx, 40(%0)\n\tlock incl 48(%0)\n\txchgq %%rdx, 40(%0)\n\t"
		"mov %%rdx, %%rax\n\tlock cmpxchgq %%rdx, 40(%0)\n\t"
		"cvtsi2sdq %%rdx, %%xmm0\n\tcvttsd2si %%xmm0, %%rdx\n\tcmpltsd %%xmm1, %%xmm0\n\tcmpnless %%xmm1, %%xmm0\n\t"
		"sal $1, %%rdx\n\tsarq %%cl, %%rdx\n\tshldq $3, %%rax, %%rdx\n\tbtsq $5, %%rdx\n\tsetl %%dl\n\tcmovlq %%rax, %%rdx\n\t"
		"cltq\n\tcqto\n\tcwtl\n\tcltd\n\tpushfq\n\tpopfq\n\tpause\n\tlfence\n\trdtsc\n\t"
		"fldl (%0)\n\tfldl 8(%0)\n\tfsubrp\n\tfldl (%0)\n\tfdivrp\n\tfldl (%0)\n\tfsubp\n\tfldl (%0)\n\tfdivp\n\t"
		"fld %%st(0)\n\tfsubr %%st(1), %%st\n\tfdiv %%st(1), %%st\n\tfsub %%st, %%st(1)\n\tfdivr %%st, %%st(1)\n\t"
		"fildll 16(%0)\n\tfistpll 16(%0)\n\tfisttpl 8(%0)\n\tfstps 8(%0)\n\tfstpt 48(%0)\n\tfldt 48(%0)\n\tfstpl 56(%0)\n\tfldz\n\tfstp %%st(0)\n\t"
		: : "r"(m) : "rax", "rdx", "rcx", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "memory", "cc");
}

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 256;
	int *ia = malloc(n * sizeof *ia);
	double *da = malloc(n * sizeof *da);
	float *fa = malloc(n * sizeof *fa), *fb = malloc(n * sizeof *fb), *fd = calloc(n, sizeof *fd);
	long double *la = malloc(n * sizeof *la);
	for (int i = 0; i < n; i++) ia[i] = i * 7 - 100, da[i] = i * 0.5, fa[i] = i, fb[i] = 1.0f / (i + 1), la[i] = i;
	char src[64] = "the quick brown fox jumps over the lazy dog", dst[256];
	uint8_t buf[32];
	memcpy(buf, src, 32);
	strings(dst, src, 40);
	uint64_t words[16] = {0x4010000000000000ULL, 3, 5, 7};
	spellings(words, src, dst);
	vadd(fd, fa, fb, n);
	crypto(buf);
	if (__builtin_cpu_supports("sha")) sha(buf);
	if (__builtin_cpu_supports("bmi2") && __builtin_cpu_supports("lzcnt")) sink = (int)bits(0x1234567890abcdefULL, 0xff00ff00ff00ff00ULL);
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) avx(fd, fa, fb, n);
	printf("%ld %.3f %.3f %.3Lf %d\n", isum(ia, n), fsum(da, n), fsumf(fa, n), ldsum(la, n), sink);
	return 0;
}
