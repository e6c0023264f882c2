/* A program that exercises integer, FP, Advanced SIMD, crypto, CRC and atomic instructions,
   so the AArch64 catalogue can be checked against what qemu-aarch64 -d in_asm prints. */
#include <arm_acle.h>
#include <arm_neon.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int sink_i;
static volatile double sink_d;
static volatile float sink_f;

__attribute__((noinline)) static uint64_t ints(uint64_t a, uint64_t b, int64_t c) {
	uint64_t r = a * b + (a >> 3) - (b << 5);
	r ^= (uint64_t)c / (b | 1);
	r += (uint64_t)((int64_t)c / (int64_t)(a | 1));
	r += __builtin_clzll(a | 1) + __builtin_ctzll(b | 1) + __builtin_popcountll(r);
	r += __builtin_bswap64(a) + __builtin_bswap32((uint32_t)b) + __builtin_bswap16((uint16_t)c);
	r += (unsigned __int128)a * b >> 64;
	r += ((__int128)(int64_t)a * (int64_t)b) >> 64;
	r += (a > b) ? a : c;
	r += (int32_t)(int8_t)a + (uint16_t)b + (int16_t)c + (int64_t)(int32_t)a;
	r += (r & 0xff00) >> 8 | (r << 56);
	if ((int64_t)r < c) r = ~r; else r = -r;
	r += (uint32_t)a * (uint32_t)b + (int64_t)(int32_t)a * (int32_t)b;
	r -= a * b - c;
	return r;
}

__attribute__((noinline)) static double fpd(double x, double y, int n) {
	double s = 0;
	for (int i = 1; i <= n; i++) {
		s += x / i + sqrt(y * i) - fabs(x - i) * fma(x, y, s);
		s = fmax(s, -1e9) + fmin(x, y) + floor(x) + ceil(y) + round(s) + trunc(x * 0.5);
		if (s > 1e12) s = -s;
		s += (double)(long)x + (double)(unsigned)y + (float)s;
	}
	return s + copysign(1.0, x) + nearbyint(y);
}

__attribute__((noinline)) static float fps(float x, float y, int n) {
	float s = 0;
	for (int i = 1; i <= n; i++) {
		s += x / i + sqrtf(y * i) - fabsf(x - i) * fmaf(x, y, s);
		s = fmaxf(s, -1e9f) + fminf(x, y) + floorf(x) + (float)(int)y - (x < y ? x : y);
		s -= -x * y;
	}
	return s;
}

__attribute__((noinline)) static void neon_int(int32_t *out, const int32_t *a, const int32_t *b, int n) {
	int32x4_t acc = vdupq_n_s32(0);
	for (int i = 0; i + 4 <= n; i += 4) {
		int32x4_t va = vld1q_s32(a + i), vb = vld1q_s32(b + i);
		int32x4_t m = vmulq_s32(va, vb);
		acc = vaddq_s32(acc, m);
		acc = vmlaq_s32(acc, va, vb);
		acc = vsubq_s32(acc, vshrq_n_s32(va, 2));
		acc = vabsq_s32(vmaxq_s32(acc, vminq_s32(va, vb)));
		acc = veorq_s32(acc, vandq_s32(va, vorrq_s32(vb, vshlq_n_s32(va, 3))));
		uint32x4_t c = vcgtq_s32(va, vb);
		acc = vbslq_s32(c, acc, va);
		acc = vqaddq_s32(acc, vqsubq_s32(va, vb));
		acc = vnegq_s32(vrev64q_s32(acc));
		vst1q_s32(out + i, acc);
	}
	int16x8_t h = vreinterpretq_s16_s32(acc);
	int32x4_t w = vmull_s16(vget_low_s16(h), vget_high_s16(h));
	w = vpaddq_s32(w, vmovl_s16(vget_low_s16(h)));
	int16x4_t nrw = vmovn_s32(w);
	uint8x16_t bytes = vreinterpretq_u8_s32(w);
	bytes = vcntq_u8(vclzq_u8(bytes));
	uint8x16_t tbl = vqtbl1q_u8(bytes, vdupq_n_u8(3));
	int32x4x2_t z = vzipq_s32(w, vreinterpretq_s32_u8(tbl));
	int32x4x2_t uz = vuzpq_s32(z.val[0], z.val[1]);
	int32x4x2_t tr = vtrnq_s32(uz.val[0], uz.val[1]);
	int32x4_t ex = vextq_s32(tr.val[0], tr.val[1], 1);
	int32x4x3_t l3 = vld3q_s32(a);
	vst3q_s32(out, l3);
	int32x4x2_t l2 = vld2q_s32(b);
	vst2q_s32(out + 8, l2);
	out[0] += vaddvq_s32(ex) + vgetq_lane_s32(ex, 2) + vget_lane_s16(nrw, 1) + vmaxvq_u8(bytes);
	int32x4_t sat = vqdmulhq_s32(ex, w);
	sat = vrshrq_n_s32(vsraq_n_s32(sat, ex, 4), 3);
	sat = vsetq_lane_s32(out[1], sat, 3);
	uint64x2_t wide = vpaddlq_u32(vreinterpretq_u32_s32(sat));
	out[1] += (int32_t)vgetq_lane_u64(wide, 0) + (int32_t)vgetq_lane_u64(vshlq_u64(wide, vdupq_n_s64(2)), 1);
	int8x16_t sb = vqmovn_high_s16(vqmovn_s16(vreinterpretq_s16_s32(sat)), vreinterpretq_s16_s32(ex));
	out[2] += vaddlvq_s8(sb) + vminvq_s32(sat);
	uint16x8_t hh = vabdq_u16(vreinterpretq_u16_s8(sb), vreinterpretq_u16_s32(w));
	hh = vhaddq_u16(hh, vmvnq_u16(hh));
	out[3] += vaddvq_u16(vmlsq_u16(hh, hh, hh));
	int64x2_t dd = vaddq_s64(vreinterpretq_s64_s32(sat), vreinterpretq_s64_u16(hh));
	out[4] += vaddd_s64(vgetq_lane_s64(dd, 0), vgetq_lane_s64(dd, 1));
	int32x4x4_t l4 = vld4q_s32(a);
	vst4q_s32(out + 12, l4);
	int32x4_t r1 = vld1q_dup_s32(a + 3);
	out[5] += vgetq_lane_s32(r1, 0);
	uint8x16_t x = vld1q_u8((const uint8_t *)a);
	uint8x16_t y = vrbitq_u8(vqtbx1q_u8(x, x, vcltq_u8(x, vdupq_n_u8(7))));
	out[6] += vaddvq_u8(vbicq_u8(y, vornq_u8(x, y)));
	uint8x8_t nar = vshrn_n_u16(vreinterpretq_u16_u8(y), 4);
	out[7] += vget_lane_u8(vqrshrn_n_u16(vmovl_u8(nar), 2), 0);
}

__attribute__((noinline)) static void neon_fp(float *o, const float *a, const float *b, double *od, int n) {
	float32x4_t acc = vdupq_n_f32(0);
	float64x2_t dacc = vdupq_n_f64(1.0);
	for (int i = 0; i + 4 <= n; i += 4) {
		float32x4_t va = vld1q_f32(a + i), vb = vld1q_f32(b + i);
		acc = vfmaq_f32(acc, va, vb);
		acc = vaddq_f32(acc, vmulq_f32(va, vb));
		acc = vdivq_f32(acc, vaddq_f32(vabsq_f32(vb), vdupq_n_f32(1)));
		acc = vsqrtq_f32(vabsq_f32(acc));
		acc = vmaxnmq_f32(acc, vminq_f32(va, vb));
		uint32x4_t c = vcgeq_f32(va, vb);
		acc = vbslq_f32(c, acc, vnegq_f32(va));
		acc = vrndnq_f32(vrecpeq_f32(vaddq_f32(acc, vdupq_n_f32(2))));
		acc = vmulq_n_f32(vrsqrteq_f32(vabsq_f32(acc)), 0.5f);
		acc = vcvtq_f32_s32(vcvtq_s32_f32(acc));
		float64x2_t d = vcvt_f64_f32(vget_low_f32(acc));
		dacc = vdivq_f64(vfmaq_f64(dacc, d, d), vaddq_f64(vabsq_f64(d), vdupq_n_f64(1)));
		dacc = vsqrtq_f64(vabsq_f64(dacc));
		vst1q_f32(o + i, acc);
	}
	o[0] += vaddvq_f32(acc) + vmaxvq_f32(acc) + vpadds_f32(vget_low_f32(acc));
	od[0] = vgetq_lane_f64(dacc, 0) + vaddvq_f64(dacc);
	float32x2_t cv = vcvt_f32_f64(dacc);
	o[1] = vget_lane_f32(cv, 1);
	o[2] = vgetq_lane_f32(vfmaq_laneq_f32(acc, acc, acc, 2), 1);
}

__attribute__((noinline)) static uint32_t crypto(uint8_t *buf, size_t len) {
	uint8x16_t key = vld1q_u8(buf), st = vld1q_u8(buf + 16);
	for (int r = 0; r < 10; r++) {
		st = vaesmcq_u8(vaeseq_u8(st, key));
		st = vaesimcq_u8(vaesdq_u8(st, key));
	}
	vst1q_u8(buf, st);
	uint32x4_t abcd = vld1q_u32((uint32_t *)buf), w0 = vld1q_u32((uint32_t *)buf + 4);
	uint32x4_t w1 = vld1q_u32((uint32_t *)buf + 8), w2 = vld1q_u32((uint32_t *)buf + 12);
	uint32_t e = vsha1h_u32(vgetq_lane_u32(abcd, 0));
	abcd = vsha1cq_u32(abcd, e, w0);
	abcd = vsha1pq_u32(abcd, e, w1);
	abcd = vsha1mq_u32(abcd, e, w2);
	w0 = vsha1su1q_u32(vsha1su0q_u32(w0, w1, w2), w2);
	uint32x4_t efgh = vsha256hq_u32(abcd, w0, w1);
	abcd = vsha256h2q_u32(abcd, efgh, w1);
	w1 = vsha256su1q_u32(vsha256su0q_u32(w1, w2), w0, abcd);
	poly128_t p = vmull_p64(vgetq_lane_u64(vreinterpretq_u64_u32(w1), 0), vgetq_lane_u64(vreinterpretq_u64_u32(abcd), 1));
	poly128_t p2 = vmull_high_p64(vreinterpretq_p64_u32(w1), vreinterpretq_p64_u32(abcd));
	uint32_t crc = 0xffffffff;
	for (size_t i = 0; i + 8 <= len; i += 8) {
		uint64_t v;
		memcpy(&v, buf + i, 8);
		crc = __crc32cd(crc, v) ^ __crc32d(crc, v);
		crc = __crc32cb(crc, buf[i]) + __crc32h(crc, (uint16_t)v) + __crc32w(crc, (uint32_t)v) + __crc32b(crc, buf[i + 1]);
		crc = __crc32ch(crc, (uint16_t)v) ^ __crc32cw(crc, (uint32_t)v);
	}
	return crc + (uint32_t)p + (uint32_t)(p2 >> 64) + vgetq_lane_u32(efgh, 2);
}

static int counter;
static long lcounter;

/* Exclusives: -mno-outline-atomics with the default armv8-a keeps LDXR/STXR loops. */
__attribute__((noinline)) static int atomics_excl(int n) {
	for (int i = 0; i < n; i++) {
		__atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
		int exp = counter;
		__atomic_compare_exchange_n(&counter, &exp, exp + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
		__atomic_exchange_n(&lcounter, (long)i, __ATOMIC_RELEASE);
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return __atomic_load_n(&counter, __ATOMIC_ACQUIRE) + (int)__atomic_load_n(&lcounter, __ATOMIC_RELAXED);
}

/* LSE atomics (ARMv8.1): CAS, LDADD, SWP, LDCLR, LDSET, LDEOR, STADD. */
__attribute__((noinline, target("arch=armv8.1-a"))) static int atomics_lse(int n) {
	unsigned char b = 0;
	unsigned short h = 0;
	for (int i = 0; i < n; i++) {
		__atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&lcounter, 2, __ATOMIC_RELAXED);
		__atomic_fetch_or(&counter, 4, __ATOMIC_ACQUIRE);
		__atomic_fetch_and(&counter, ~8, __ATOMIC_RELEASE);
		__atomic_fetch_xor(&lcounter, 16, __ATOMIC_ACQ_REL);
		__atomic_fetch_add(&b, 1, __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&h, 1, __ATOMIC_RELAXED);
		int exp = counter;
		__atomic_compare_exchange_n(&counter, &exp, exp + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		__atomic_exchange_n(&lcounter, (long)i, __ATOMIC_SEQ_CST);
	}
	return counter + (int)lcounter + b + h;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 64;
	int32_t *a = malloc(64 * sizeof *a), *b = malloc(64 * sizeof *b), *o = calloc(64, sizeof *o);
	float *fa = malloc(64 * sizeof *fa), *fb = malloc(64 * sizeof *fb), *fo = calloc(64, sizeof *fo);
	double od[2];
	uint8_t buf[256];
	for (int i = 0; i < 64; i++) {
		a[i] = i * 7 - 100; b[i] = 3 * i + 1;
		fa[i] = i * 0.25f; fb[i] = 1.0f / (i + 1);
	}
	for (int i = 0; i < 256; i++) buf[i] = (uint8_t)(i * 13);
	neon_int(o, a, b, 64);
	neon_fp(fo, fa, fb, od, 64);
	qsort(a, 64, sizeof *a, cmp_int);
	char text[128];
	snprintf(text, sizeof text, "%d %g %f", o[3], (double)fo[1], od[0]);
	sink_i = (int)strlen(text) + (int)strtol("123", 0, 10);
	sink_d = fpd(1.5, 2.5, n) + strtod("2.5", 0);
	sink_f = fps(1.5f, 2.5f, n);
	uint64_t r = ints((uint64_t)n * 12345, (uint64_t)n + 77, -n);
	uint32_t c = crypto(buf, sizeof buf);
	int at = atomics_excl(n) + atomics_lse(n);
	printf("%s %llu %u %d %g %g\n", text, (unsigned long long)r, c, at, sink_d, (double)sink_f);
	return 0;
}
