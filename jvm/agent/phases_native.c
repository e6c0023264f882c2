/*
 * phases_native: the JNI library of the Java sample demo.Phases (assets/samples/java): its
 * native phase calls nativeWork, a C loop doing real work in this library, so a vertical
 * profile shows that phase's samples in the native layer under this image.
 *
 * Build: gcc -std=c99 -shared -fPIC -O2 -Wall -Wextra -Werror -I$JDK/include -I$JDK/include/linux
 */
#include <jni.h>
#include <stdint.h>

/* nativeWork runs n rounds of a xorshift generator folded into a running hash, from seed, and
 * returns the hash, which the caller keeps: serial integer work that no compiler turns into a
 * closed form or a vector loop. */
JNIEXPORT jlong JNICALL Java_demo_Phases_nativeWork(JNIEnv *env, jclass cls, jlong n, jlong seed)
{
	(void)env, (void)cls;
	uint64_t x = (uint64_t)seed | 1, h = 0xcbf29ce484222325ull;
	for (jlong i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		h = (h ^ x) * 0x100000001b3ull;
	}
	return (jlong)h;
}
