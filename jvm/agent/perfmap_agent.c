/*
 * perfmap_agent: a JVMTI agent that names the JVM's generated code for a system profiler, as
 * seed 004's DIM does: every compiled method and every piece of code the VM generates
 * (interpreter, stubs, adapters) is written with its address range to perf's JIT map,
 * /tmp/perf-PID.map (tools/perf/Documentation/jit-interface.txt: "START SIZE name", START and
 * SIZE in hex without 0x, the name is the rest of the line), which perf reads when it names
 * samples in anonymous executable memory.
 *
 *   java -agentpath:perfmap_agent.so[=stats=PATH] ...
 *
 * Names: a compiled method (or a native method's wrapper) is "com.example.Phases.appLoop(I)J",
 * the dotted class, '.', the method and its JVM descriptor; generated code keeps HotSpot's name
 * ("Interpreter", "StubRoutines (1)", ...), which never holds '('. Inlined methods are part of
 * the method they were inlined into. An address range reused after a method was unloaded keeps
 * both lines: the map has no time, so perf may name such a sample by either.
 *
 * Events: CompiledMethodLoad and DynamicCodeGenerated; at VMInit GenerateEvents replays both,
 * so code made before the agent's events were on is listed too (a duplicate line is harmless).
 *
 * Cost: lines go to a 64 KB buffer written with write(2) when full, once a second by a flusher
 * thread (so a killed JVM loses at most a second of names) and at VMDeath. The agent counts
 * the CPU time its own code takes (each callback's thread CPU time, the flushes, the start) and
 * at VMDeath writes it with the process's CPU time to stats=PATH ("-": stderr), one
 * "key value" line each: pid, entries, compiled, generated, bytes, agent_cpu_ns,
 * process_cpu_ns; the file has the pid alone from the start, for a JVM that never gets to
 * VMDeath. Without stats= it writes nothing but errors.
 *
 * Build: gcc -std=c99 -shared -fPIC -O2 -Wall -Wextra -Werror -I$JDK/include -I$JDK/include/linux
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jvmti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PREFIX "androprof perfmap agent: "
#define BUF_SIZE (64 << 10)
#define LINE_MAX_NAME 2048 /* longer names are cut: perf keeps names short anyway */

static jvmtiEnv *jvmti;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int fd = -1;     /* the map; -1 when it could not be made */
static int dead;        /* VMDeath seen: the map is closed */
static char buf[BUF_SIZE];
static size_t used;
static char map_path[64];
static char *stats_path; /* NULL: no stats; "-": stderr */

/* counters, under lock */
static uint64_t entries, compiled, generated, bytes, agent_ns;

/* inside is set while this thread is in the agent, so nested callbacks (GenerateEvents at
 * VMInit) are not counted twice. */
static __thread int inside;

static uint64_t cpu_ns(clockid_t clock)
{
	struct timespec ts;
	if (clock_gettime(clock, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* begin and end bracket the agent's own work on this thread; end adds its CPU time. */
static uint64_t begin(void)
{
	if (inside++)
		return 0;
	return cpu_ns(CLOCK_THREAD_CPUTIME_ID);
}

static void end(uint64_t t0)
{
	if (--inside)
		return;
	uint64_t d = cpu_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	pthread_mutex_lock(&lock);
	agent_ns += d;
	pthread_mutex_unlock(&lock);
}

/* flush writes the buffer (lock held). A failed write drops the lines: the program runs on. */
static void flush(void)
{
	size_t off = 0;
	while (fd >= 0 && off < used) {
		ssize_t n = write(fd, buf + off, used - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, PREFIX "writing %s: %s\n", map_path, strerror(errno));
			close(fd);
			fd = -1;
			break;
		}
		off += (size_t)n;
	}
	used = 0;
}

/* hex appends v in lower-case hex without 0x. */
static char *hex(char *p, uint64_t v)
{
	char tmp[16];
	int n = 0;
	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v != 0);
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

/* name appends s, with line breaks and other control characters as '?'; a NULL s adds nothing. */
static char *name(char *p, const char *lim, const char *s)
{
	for (; s != NULL && *s != '\0' && p < lim; s++)
		*p++ = (unsigned char)*s < ' ' || *s == 0x7f ? '?' : *s;
	return p;
}

/* emit writes one map line for [addr, addr+size): the name's parts joined; kind counts it. */
static void emit(uint64_t *kind, const void *addr, jint size, const char *a, const char *b, const char *c,
		 const char *d)
{
	char line[LINE_MAX_NAME + 40];
	char *lim = line + sizeof line - 1;
	char *p = hex(line, (uint64_t)(uintptr_t)addr);
	*p++ = ' ';
	p = hex(p, (uint64_t)(uint32_t)size);
	*p++ = ' ';
	p = name(p, lim, a);
	p = name(p, lim, b);
	p = name(p, lim, c);
	p = name(p, lim, d);
	*p++ = '\n';
	size_t n = (size_t)(p - line);
	pthread_mutex_lock(&lock);
	if (!dead && fd >= 0) {
		if (used + n > sizeof buf)
			flush();
		memcpy(buf + used, line, n);
		used += n;
		entries++;
		(*kind)++;
		bytes += n;
	}
	pthread_mutex_unlock(&lock);
}

/* ---- events ---- */

static void JNICALL on_compiled(jvmtiEnv *env, jmethodID method, jint size, const void *addr, jint nmap,
				const jvmtiAddrLocationMap *map, const void *info)
{
	(void)nmap, (void)map, (void)info;
	uint64_t t0 = begin();
	jclass cls = NULL;
	char *csig = NULL, *mname = NULL, *msig = NULL;
	if ((*env)->GetMethodDeclaringClass(env, method, &cls) == JVMTI_ERROR_NONE &&
	    (*env)->GetClassSignature(env, cls, &csig, NULL) == JVMTI_ERROR_NONE &&
	    (*env)->GetMethodName(env, method, &mname, &msig, NULL) == JVMTI_ERROR_NONE) {
		/* "Lcom/example/Phases;" → "com.example.Phases" */
		char *c = csig;
		size_t n = strlen(c);
		if (n >= 2 && c[0] == 'L' && c[n - 1] == ';') {
			c[n - 1] = '\0';
			c++;
		}
		for (char *s = c; *s; s++)
			if (*s == '/')
				*s = '.';
		emit(&compiled, addr, size, c, ".", mname, msig);
	}
	(*env)->Deallocate(env, (unsigned char *)csig);
	(*env)->Deallocate(env, (unsigned char *)mname);
	(*env)->Deallocate(env, (unsigned char *)msig);
	end(t0);
}

static void JNICALL on_generated(jvmtiEnv *env, const char *gname, const void *addr, jint size)
{
	(void)env;
	uint64_t t0 = begin();
	emit(&generated, addr, size, gname, NULL, NULL, NULL);
	end(t0);
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
	(void)jni, (void)thread;
	uint64_t t0 = begin();
	if ((*env)->GenerateEvents(env, JVMTI_EVENT_DYNAMIC_CODE_GENERATED) != JVMTI_ERROR_NONE ||
	    (*env)->GenerateEvents(env, JVMTI_EVENT_COMPILED_METHOD_LOAD) != JVMTI_ERROR_NONE)
		fprintf(stderr, PREFIX "cannot list the code made before the VM started; some may stay unnamed\n");
	end(t0);
}

static void write_stats(void)
{
	FILE *f = stderr;
	if (strcmp(stats_path, "-") != 0 && (f = fopen(stats_path, "w")) == NULL) {
		fprintf(stderr, PREFIX "writing %s: %s\n", stats_path, strerror(errno));
		return;
	}
	const char *p = f == stderr ? PREFIX : "";
	fprintf(f, "%spid %ld\n%sentries %llu\n%scompiled %llu\n%sgenerated %llu\n%sbytes %llu\n",
		p, (long)getpid(), p, (unsigned long long)entries, p, (unsigned long long)compiled, p,
		(unsigned long long)generated, p, (unsigned long long)bytes);
	fprintf(f, "%sagent_cpu_ns %llu\n%sprocess_cpu_ns %llu\n", p, (unsigned long long)agent_ns, p,
		(unsigned long long)cpu_ns(CLOCK_PROCESS_CPUTIME_ID));
	if (f != stderr)
		fclose(f);
}

static void JNICALL on_vm_death(jvmtiEnv *env, JNIEnv *jni)
{
	(void)env, (void)jni;
	uint64_t t0 = begin();
	pthread_mutex_lock(&lock);
	flush();
	dead = 1;
	if (fd >= 0)
		close(fd);
	fd = -1;
	pthread_mutex_unlock(&lock);
	end(t0);
	if (stats_path != NULL) {
		pthread_mutex_lock(&lock);
		write_stats();
		pthread_mutex_unlock(&lock);
	}
}

/* flusher writes what the callbacks buffered once a second. */
static void *flusher(void *arg)
{
	(void)arg;
	struct timespec second = {1, 0};
	for (;;) {
		nanosleep(&second, NULL);
		uint64_t t0 = begin();
		pthread_mutex_lock(&lock);
		int done = dead;
		if (used > 0)
			flush();
		pthread_mutex_unlock(&lock);
		end(t0);
		if (done)
			return NULL;
	}
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
	(void)reserved;
	uint64_t t0 = begin();
	if (options != NULL && *options != '\0') {
		if (strncmp(options, "stats=", 6) != 0 || options[6] == '\0') {
			fprintf(stderr, PREFIX "unknown options \"%s\": want stats=PATH or none\n", options);
			return JNI_ERR;
		}
		stats_path = strdup(options + 6);
		FILE *f;
		if (strcmp(stats_path, "-") != 0 && (f = fopen(stats_path, "w")) != NULL) {
			fprintf(f, "pid %ld\n", (long)getpid()); /* all a killed JVM leaves */
			fclose(f);
		}
	}
	if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_1_2) != JNI_OK) {
		fprintf(stderr, PREFIX "this JVM offers no JVMTI 1.2\n");
		return JNI_ERR;
	}
	jvmtiCapabilities caps;
	memset(&caps, 0, sizeof caps);
	caps.can_generate_compiled_method_load_events = 1;
	if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE) {
		fprintf(stderr, PREFIX "this JVM does not report compiled methods\n");
		return JNI_ERR;
	}

	/* A stale map of an earlier process with this pid is replaced; O_EXCL|O_NOFOLLOW never
	 * writes through a link planted in /tmp. The program runs on without a map. */
	snprintf(map_path, sizeof map_path, "/tmp/perf-%ld.map", (long)getpid());
	unlink(map_path);
	fd = open(map_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, PREFIX "cannot create %s: %s; Java frames stay unnamed\n", map_path, strerror(errno));
		end(t0);
		return JNI_OK;
	}

	jvmtiEventCallbacks cb;
	memset(&cb, 0, sizeof cb);
	cb.CompiledMethodLoad = on_compiled;
	cb.DynamicCodeGenerated = on_generated;
	cb.VMInit = on_vm_init;
	cb.VMDeath = on_vm_death;
	jvmtiEvent events[] = {JVMTI_EVENT_COMPILED_METHOD_LOAD, JVMTI_EVENT_DYNAMIC_CODE_GENERATED, JVMTI_EVENT_VM_INIT,
			       JVMTI_EVENT_VM_DEATH};
	if ((*jvmti)->SetEventCallbacks(jvmti, &cb, sizeof cb) != JVMTI_ERROR_NONE) {
		fprintf(stderr, PREFIX "cannot set the event callbacks\n");
		return JNI_ERR;
	}
	for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
		if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, events[i], NULL) != JVMTI_ERROR_NONE) {
			fprintf(stderr, PREFIX "cannot enable event %d\n", (int)events[i]);
			return JNI_ERR;
		}
	}
	pthread_t t;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, flusher, NULL) != 0)
		fprintf(stderr, PREFIX "no flusher thread: the map is written when its buffer fills and at exit\n");
	pthread_attr_destroy(&attr);
	end(t0);
	return JNI_OK;
}
