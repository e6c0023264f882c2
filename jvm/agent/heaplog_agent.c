/*
 * heaplog_agent: a JVMTI agent that writes androprof's heap log (docs/heaplog-format.md) for
 * any Java program, as seed 001's instrumented Dalvik VM did: every allocation with its birth
 * ("time" = bytes allocated before it), size, thread and class; every death; thread starts and
 * ends; GC pauses; and the pointer distances of the reachable heap at exit.
 *
 *   java -agentpath:heaplog_agent.so=[snapshot=BYTES,]out=PATH MAIN ARGS...
 *
 * "out=" is the last option: the rest of the option string is the path, commas included.
 * snapshot=BYTES adds a heap snapshot each time that many more bytes were allocated.
 *
 * Allocations come from SampledObjectAlloc with a sampling interval of 0 (every allocation by
 * a Java thread), plus VMObjectAlloc for the few objects the VM allocates itself that sampling
 * misses. Every object is tagged with its id, birth+1, so a death (ObjectFree) and the
 * snapshot read the birth back from the tag alone. At VMInit the agent collects garbage once,
 * unlogged, because a thread starts being sampled only at its next TLAB. At VMDeath it
 * declares the loaded classes no object was seen of, collects garbage (so what is unreachable
 * at exit dies in the log), waits for the deaths to be posted and walks the heap.
 *
 * Locking: one raw monitor guards the clock, the tables and the file. While holding it a
 * thread calls nothing that can enter the VM (no JVMTI function but the raw monitor ones), so
 * a Java thread holding it never waits for a safepoint, and the GC callbacks, which take it
 * inside a safepoint, cannot deadlock.
 *
 * Build: gcc -std=c99 -shared -fPIC -O2 -Wall -Wextra -Werror -I$JDK/include -I$JDK/include/linux
 */
#include <jvmti.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AGENT_VERSION "1"
#define PREFIX "androprof heap agent: "

static jvmtiEnv *jvmti;
static jrawMonitorID lock;
static FILE *out;
static char *out_path;
static int dead;          /* VMDeath seen: the file is closed, write nothing more */
static uint64_t now;      /* bytes allocated so far: the log's clock */
static uint32_t nthreads; /* thread ids handed out */
static uint64_t snap_every, snap_next;
static int snapping; /* a periodic snapshot is being taken */
static int started;  /* VMInit's collection is done: log GCs from now on */

/* ---- errors ---- */

static int check(jvmtiError err, const char *what)
{
	char *name = NULL;
	if (err == JVMTI_ERROR_NONE)
		return 1;
	if ((*jvmti)->GetErrorName(jvmti, err, &name) == JVMTI_ERROR_NONE) {
		fprintf(stderr, PREFIX "%s: %s\n", what, name);
		(*jvmti)->Deallocate(jvmti, (unsigned char *)name);
	} else {
		fprintf(stderr, PREFIX "%s: JVMTI error %d\n", what, (int)err);
	}
	return 0;
}

static void enter(void) { (*jvmti)->RawMonitorEnter(jvmti, lock); }
static void leave(void) { (*jvmti)->RawMonitorExit(jvmti, lock); }

/* ---- writing records (lock held) ---- */

/* num appends " v" to a line being built. */
static char *num(char *p, int64_t v)
{
	char tmp[24];
	int n = 0;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	*p++ = ' ';
	if (v < 0)
		*p++ = '-';
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

/* put writes the line built in line[0:p]; nl ends it. */
static void put(const char *line, char *p, int nl)
{
	if (nl)
		*p++ = '\n';
	fwrite(line, 1, (size_t)(p - line), out);
}

/* text writes " s" without line breaks; a token also has no blanks, and "" becomes "-". */
static void text(const char *s, size_t n, int token)
{
	fputc(' ', out);
	if (n == 0 && token)
		fputc('-', out);
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\n' || c == '\r')
			c = ' ';
		if (token && (c == ' ' || c == '\t'))
			c = '_';
		fputc(c, out);
	}
}

/* ---- classes: a hash table keyed by JVM signature; ids from 1 ---- */

struct klass {
	char *sig;
	uint32_t id;
};
static struct klass *classes;
static size_t classes_cap, nclasses;

static struct klass *slot(struct klass *table, size_t cap, const char *sig)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (const char *s = sig; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	size_t i = (size_t)h & (cap - 1);
	while (table[i].sig != NULL && strcmp(table[i].sig, sig) != 0)
		i = (i + 1) & (cap - 1);
	return &table[i];
}

static int grow_classes(void)
{
	size_t cap = classes_cap ? classes_cap * 2 : 4096;
	struct klass *table = calloc(cap, sizeof *table);
	if (table == NULL)
		return 0;
	for (size_t i = 0; i < classes_cap; i++)
		if (classes[i].sig != NULL)
			*slot(table, cap, classes[i].sig) = classes[i];
	free(classes);
	classes = table;
	classes_cap = cap;
	return 1;
}

/* class_id numbers a class, writing its "c" record the first time. The name is the JVM's
 * internal form: "Ljava/lang/String;" becomes java/lang/String; arrays keep their signature
 * ("[I", "[Ljava/lang/Object;"). 0 means out of memory. */
static uint32_t class_id(const char *sig)
{
	if (2 * (nclasses + 1) > classes_cap && !grow_classes())
		return 0;
	struct klass *k = slot(classes, classes_cap, sig);
	if (k->sig != NULL)
		return k->id;
	size_t n = strlen(sig);
	if ((k->sig = malloc(n + 1)) == NULL)
		return 0;
	memcpy(k->sig, sig, n + 1);
	k->id = (uint32_t)++nclasses;

	char line[32];
	line[0] = 'c';
	put(line, num(line + 1, k->id), 0);
	if (sig[0] == 'L' && n >= 2 && sig[n - 1] == ';')
		text(sig + 1, n - 2, 1);
	else
		text(sig, n, 1);
	fputc('\n', out);
	return k->id;
}

/* ---- threads: ids from 1 in JVMTI thread-local storage ---- */

static uint32_t current_thread_id(void)
{
	void *p = NULL;
	(*jvmti)->GetThreadLocalStorage(jvmti, NULL, &p);
	return (uint32_t)(uintptr_t)p;
}

/* declare_thread numbers the current thread and writes its "t" record, unless it has an id
 * already. 0 means it cannot be named yet (before VMInit) or the log is closed. */
static uint32_t declare_thread(JNIEnv *jni, jthread thread)
{
	uint32_t id = current_thread_id();
	if (id != 0)
		return id;
	jvmtiThreadInfo info;
	memset(&info, 0, sizeof info);
	if ((*jvmti)->GetThreadInfo(jvmti, thread, &info) != JVMTI_ERROR_NONE)
		return 0;
	jvmtiThreadGroupInfo group;
	memset(&group, 0, sizeof group);
	if (info.thread_group != NULL) {
		(*jvmti)->GetThreadGroupInfo(jvmti, info.thread_group, &group);
		(*jni)->DeleteLocalRef(jni, info.thread_group);
	}
	if (group.parent != NULL)
		(*jni)->DeleteLocalRef(jni, group.parent);
	if (info.context_class_loader != NULL)
		(*jni)->DeleteLocalRef(jni, info.context_class_loader);

	enter();
	if (!dead) {
		id = ++nthreads;
		char line[64];
		line[0] = 't';
		put(line, num(num(line + 1, id), (int64_t)now), 0);
		text(group.name, group.name ? strlen(group.name) : 0, 1);
		text(info.name, info.name ? strlen(info.name) : 0, 0);
		fputc('\n', out);
	}
	leave();
	(*jvmti)->Deallocate(jvmti, (unsigned char *)info.name);
	(*jvmti)->Deallocate(jvmti, (unsigned char *)group.name);
	if (id != 0)
		(*jvmti)->SetThreadLocalStorage(jvmti, NULL, (void *)(uintptr_t)id);
	return id;
}

/* ---- heap snapshot ---- */

/* A snapshot counts references per distance bucket: index 64+b for bucket b (-64..64). */
struct snapshot {
	uint64_t count[129];
};

static int bitlen(uint64_t x)
{
	int n = 0;
	for (; x != 0; x >>= 1)
		n++;
	return n;
}

/* on_reference runs inside the heap walk: it may call no JVMTI or JNI function. */
static jint JNICALL on_reference(jvmtiHeapReferenceKind kind, const jvmtiHeapReferenceInfo *info,
				 jlong class_tag, jlong referrer_class_tag, jlong size, jlong *tag_ptr,
				 jlong *referrer_tag_ptr, jint length, void *user_data)
{
	(void)info, (void)class_tag, (void)referrer_class_tag, (void)size, (void)length;
	if ((kind == JVMTI_HEAP_REFERENCE_FIELD || kind == JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT) &&
	    referrer_tag_ptr != NULL && *referrer_tag_ptr > 0 && *tag_ptr > 0) {
		int64_t d = *tag_ptr - *referrer_tag_ptr; /* tags are birth+1 */
		int b = d > 0 ? bitlen((uint64_t)d) : d == 0 ? -1 : -bitlen((uint64_t)0 - (uint64_t)d);
		((struct snapshot *)user_data)->count[64 + b]++;
	}
	return JVMTI_VISIT_OBJECTS;
}

/* take_snapshot walks the reachable heap (a safepoint, so the lock must not be held) and
 * writes one "s" record per non-empty bucket at the current time. */
static void take_snapshot(void)
{
	struct snapshot *s = calloc(1, sizeof *s);
	if (s == NULL)
		return;
	jvmtiHeapCallbacks cb;
	memset(&cb, 0, sizeof cb);
	cb.heap_reference_callback = on_reference;
	if (check((*jvmti)->FollowReferences(jvmti, 0, NULL, NULL, &cb, s), "heap snapshot")) {
		enter();
		for (int i = 0; i < 129 && !dead; i++) {
			if (s->count[i] == 0)
				continue;
			char line[80];
			line[0] = 's';
			put(line, num(num(num(line + 1, (int64_t)now), i - 64), (int64_t)s->count[i]), 1);
		}
		leave();
	}
	free(s);
}

/* ---- events ---- */

static void JNICALL on_alloc(jvmtiEnv *env, JNIEnv *jni, jthread thread, jobject object,
			     jclass klass, jlong size)
{
	uint32_t tid = current_thread_id();
	if (tid == 0 && (tid = declare_thread(jni, thread)) == 0)
		return;
	char *sig = NULL;
	if (!check((*env)->GetClassSignature(env, klass, &sig, NULL), "class of an allocation"))
		return;
	uint64_t sz = ((uint64_t)size + 7) & ~(uint64_t)7, birth = 0;
	int snap = 0;
	enter();
	uint32_t cid = dead ? 0 : class_id(sig);
	if (cid != 0) {
		birth = now;
		now += sz;
		char line[128];
		line[0] = 'a';
		char *p = num(num(num(line + 1, (int64_t)birth + 1), (int64_t)birth), (int64_t)sz);
		put(line, num(num(num(p, tid), cid), sig[0] == '['), 1);
		if (snap_every != 0 && now >= snap_next && !snapping) {
			snap = snapping = 1;
			snap_next = now + snap_every;
		}
	}
	leave();
	(*env)->Deallocate(env, (unsigned char *)sig);
	if (cid == 0)
		return;
	check((*env)->SetTag(env, object, (jlong)birth + 1), "tagging an object");
	if (snap) {
		take_snapshot();
		enter();
		snapping = 0;
		leave();
	}
}

/* on_vm_object_alloc catches the few objects the VM allocates itself (reflection, class
 * loading) that sampling missed: those it did see are tagged by now. */
static void JNICALL on_vm_object_alloc(jvmtiEnv *env, JNIEnv *jni, jthread thread, jobject object,
				       jclass klass, jlong size)
{
	jlong tag = 0;
	if ((*env)->GetTag(env, object, &tag) == JVMTI_ERROR_NONE && tag == 0)
		on_alloc(env, jni, thread, object, klass, size);
}

static void JNICALL on_free(jvmtiEnv *env, jlong tag)
{
	(void)env;
	enter();
	if (!dead && tag > 0) {
		char line[64];
		line[0] = 'd';
		put(line, num(num(line + 1, tag), (int64_t)now), 1);
	}
	leave();
}

/* The GC callbacks run inside a safepoint: only the raw monitor functions are allowed. */
static void JNICALL on_gc_start(jvmtiEnv *env)
{
	(void)env;
	enter();
	if (started && !dead) {
		char line[64];
		line[0] = 'g';
		char *p = num(line + 1, (int64_t)now);
		memcpy(p, " GC", 3);
		put(line, p + 3, 1);
	}
	leave();
}

static void JNICALL on_gc_finish(jvmtiEnv *env)
{
	(void)env;
	enter();
	if (started && !dead) {
		char line[64];
		line[0] = 'h';
		put(line, num(line + 1, (int64_t)now), 1);
	}
	leave();
}

static void JNICALL on_thread_start(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
	(void)env;
	declare_thread(jni, thread);
}

static void JNICALL on_thread_end(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
	(void)env;
	uint32_t tid = declare_thread(jni, thread);
	if (tid == 0)
		return;
	enter();
	if (!dead) {
		char line[64];
		line[0] = 'e';
		put(line, num(num(line + 1, tid), (int64_t)now), 1);
	}
	leave();
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
	(void)env;
	/* Sampling starts at a thread's next TLAB: until then the threads already running (main
	 * among them) would allocate unseen in the TLAB they have. A collection retires them all. */
	check((*jvmti)->ForceGarbageCollection(jvmti), "starting to sample");
	enter();
	started = 1;
	leave();
	declare_thread(jni, thread);
}

/* declare_loaded_classes writes a "c" record for every loaded class no object was seen of,
 * so the log's classes are the program's loaded classes. */
static void declare_loaded_classes(void)
{
	jint n = 0;
	jclass *loaded = NULL;
	if (!check((*jvmti)->GetLoadedClasses(jvmti, &n, &loaded), "listing the loaded classes"))
		return;
	for (jint i = 0; i < n; i++) {
		char *sig = NULL;
		if ((*jvmti)->GetClassSignature(jvmti, loaded[i], &sig, NULL) != JVMTI_ERROR_NONE)
			continue;
		enter();
		if (!dead)
			class_id(sig);
		leave();
		(*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
	}
	(*jvmti)->Deallocate(jvmti, (unsigned char *)loaded);
}

static void JNICALL on_vm_death(jvmtiEnv *env, JNIEnv *jni)
{
	(void)env, (void)jni;
	declare_loaded_classes();
	check((*jvmti)->ForceGarbageCollection(jvmti), "final garbage collection");
	/* The service thread posts the deaths after the collection; enabling ObjectFree again
	 * waits for it and posts what it has not, before the log is closed. */
	check((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_OBJECT_FREE, NULL), "flushing deaths");
	take_snapshot();
	enter();
	dead = 1;
	if (ferror(out) | fclose(out))
		fprintf(stderr, PREFIX "writing %s failed\n", out_path);
	leave();
}

/* ---- start ---- */

/* property writes " value" of a system property, or nothing when it is unset. */
static int property(const char *key)
{
	char *v = NULL;
	if ((*jvmti)->GetSystemProperty(jvmti, key, &v) != JVMTI_ERROR_NONE)
		return 0;
	text(v, strlen(v), 0);
	(*jvmti)->Deallocate(jvmti, (unsigned char *)v);
	return 1;
}

static void write_header(void)
{
	fputs("androprof-heaplog 1\nvm", out);
	if (!property("java.vm.name"))
		fputs(" Java VM", out);
	property("java.vm.version");
	fputs(" (androprof heap agent " AGENT_VERSION ")\n", out);
	fputs("prop command", out);
	if (!property("sun.java.command"))
		fputs(" -", out);
	fputs("\nprop sampling 0\n", out);
	if (snap_every != 0)
		fprintf(out, "prop snapshot %llu\n", (unsigned long long)snap_every);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
	(void)reserved;
	char *path = NULL;
	for (char *o = options; o != NULL && *o != '\0';) {
		if (strncmp(o, "out=", 4) == 0) {
			path = o + 4;
			break;
		}
		if (strncmp(o, "snapshot=", 9) == 0) {
			snap_every = strtoull(o + 9, NULL, 10);
			snap_next = snap_every;
		} else {
			fprintf(stderr, PREFIX "unknown option in \"%s\": want [snapshot=BYTES,]out=PATH\n", options);
			return JNI_ERR;
		}
		o = strchr(o, ',');
		o = o ? o + 1 : NULL;
	}
	if (path == NULL || *path == '\0') {
		fprintf(stderr, PREFIX "no log file: want -agentpath:LIB=out=PATH\n");
		return JNI_ERR;
	}
	if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_11) != JNI_OK) {
		fprintf(stderr, PREFIX "this JVM offers no JVMTI 11 (OpenJDK 11 or newer is needed)\n");
		return JNI_ERR;
	}

	jvmtiCapabilities caps;
	memset(&caps, 0, sizeof caps);
	caps.can_generate_sampled_object_alloc_events = 1;
	caps.can_generate_vm_object_alloc_events = 1;
	caps.can_generate_object_free_events = 1;
	caps.can_generate_garbage_collection_events = 1;
	caps.can_tag_objects = 1;
	if (!check((*jvmti)->AddCapabilities(jvmti, &caps), "capabilities") ||
	    !check((*jvmti)->CreateRawMonitor(jvmti, "androprof heap log", &lock), "monitor") ||
	    !check((*jvmti)->SetHeapSamplingInterval(jvmti, 0), "sampling every allocation"))
		return JNI_ERR;

	size_t n = strlen(path);
	if ((out_path = malloc(n + 1)) == NULL)
		return JNI_ERR;
	memcpy(out_path, path, n + 1);
	if ((out = fopen(out_path, "w")) == NULL) {
		perror(PREFIX "creating the log");
		return JNI_ERR;
	}
	setvbuf(out, NULL, _IOFBF, 1 << 20);
	write_header();

	jvmtiEventCallbacks cb;
	memset(&cb, 0, sizeof cb);
	cb.SampledObjectAlloc = on_alloc;
	cb.VMObjectAlloc = on_vm_object_alloc;
	cb.ObjectFree = on_free;
	cb.GarbageCollectionStart = on_gc_start;
	cb.GarbageCollectionFinish = on_gc_finish;
	cb.ThreadStart = on_thread_start;
	cb.ThreadEnd = on_thread_end;
	cb.VMInit = on_vm_init;
	cb.VMDeath = on_vm_death;
	if (!check((*jvmti)->SetEventCallbacks(jvmti, &cb, sizeof cb), "callbacks"))
		return JNI_ERR;
	jvmtiEvent events[] = {JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, JVMTI_EVENT_VM_OBJECT_ALLOC, JVMTI_EVENT_OBJECT_FREE,
			       JVMTI_EVENT_GARBAGE_COLLECTION_START, JVMTI_EVENT_GARBAGE_COLLECTION_FINISH,
			       JVMTI_EVENT_THREAD_START, JVMTI_EVENT_THREAD_END,
			       JVMTI_EVENT_VM_INIT, JVMTI_EVENT_VM_DEATH};
	for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
		if (!check((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, events[i], NULL), "enabling events"))
			return JNI_ERR;
	return JNI_OK;
}
