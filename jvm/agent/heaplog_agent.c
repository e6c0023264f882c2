/*
 * heaplog_agent: a JVMTI agent that writes androprof's heap log (docs/heaplog-format.md) for
 * any Java program, as seed 001's instrumented Dalvik VM did: every allocation with its birth
 * ("time" = bytes allocated before it), size, thread and class; every death; thread starts and
 * ends; GC pauses; the pointer distances of the reachable heap at exit; and, with mutations,
 * every reference store of instrumented code (the "m" records seed 001's write barrier made).
 *
 *   java -agentpath:heaplog_agent.so=[snapshot=BYTES,][mutations,]out=PATH MAIN ARGS...
 *
 * "out=" is the last option: the rest of the option string is the path, commas included.
 * snapshot=BYTES adds a heap snapshot each time that many more bytes were allocated.
 * mutations tags every object at its birth, so that Java_androprof_agent_Mutations_store (the
 * native method of the bytecode agent in mutations/, which calls it at each reference store)
 * can name both ends; without it only snapshots tag objects, which keeps the common run fast.
 *
 * Allocations come from SampledObjectAlloc with a sampling interval of 0 (every allocation by
 * a Java thread), plus VMObjectAlloc for the objects the VM allocates on a thread sampling has
 * not seen yet. Each object's id is birth+1. Deaths come from one JNI weak reference per
 * object: after each GC the sweeper thread writes a death for each one the GC cleared. (Tagging
 * every object and waiting for ObjectFree cost twice as much in all: JVMTI's tag table is a
 * hash table of weak handles that grows to every object allocated since the last GC.) Class
 * mirrors are tagged with minus their class id, so an allocation finds its class without
 * asking the VM for its name, and each thread keeps its recent classes (class_of).
 * At VMInit the agent collects garbage once, unlogged, because a thread starts being sampled
 * only at its next TLAB. At VMDeath it declares the loaded classes no object was seen of,
 * collects garbage (so what is unreachable at exit dies in the log), sweeps and walks the heap.
 * On the Garbage sample (800,000 allocations) it costs under 4x the plain run, 10x before
 * (BenchmarkHeapAgentOverhead).
 *
 * Locking: the mutex "lock" guards the clock, the tables and the log's chunks. While holding
 * it a thread calls nothing that can enter the VM (no JVMTI or JNI function), so a Java thread
 * holding it never waits for a safepoint, and the GC callbacks, which take it inside a
 * safepoint, cannot deadlock. A thread waiting for a free chunk waits for the writer thread,
 * which is no Java thread and never waits for the VM. The raw monitor "sweeping" lets one
 * thread at a time check the weak references; the GC callbacks never take it.
 *
 * Build: gcc -std=c99 -shared -fPIC -O2 -Wall -Wextra -Werror -I$JDK/include -I$JDK/include/linux
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <jvmti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AGENT_VERSION "1"
#define PREFIX "androprof heap agent: "

static jvmtiEnv *jvmti;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gc_ended = PTHREAD_COND_INITIALIZER; /* wakes the sweeper */
static char *out_path;
static int dead;          /* VMDeath seen: the file is closed, write nothing more */
static uint64_t now;      /* bytes allocated so far: the log's clock */
static uint32_t nthreads; /* thread ids handed out */
static uint64_t snap_every, snap_next;
static int snapping;  /* a periodic snapshot is being taken */
static int started;   /* VMInit's collection is done: log GCs from now on */
static int mutations; /* tag every object, for the mutation records */
static jrawMonitorID sweeping;
static int swept;     /* a GC ended since the sweeper last looked (lock) */
static uint64_t stores_logged, stores_static, stores_unseen; /* mutation counts (lock) */

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

static void enter(void) { pthread_mutex_lock(&lock); }
static void leave(void) { pthread_mutex_unlock(&lock); }

/* ---- the log file: records go into 1 MiB chunks that a writer thread writes ---- */

/* The writer thread is a plain POSIX thread, not a Java one: it never waits for the VM, so a
 * thread (even a GC callback) waiting for a free chunk always gets one. Writing the file took
 * a sixth of the allocating thread's time before. */
enum { chunk_size = 1 << 20, max_queued = 16 };

static int fd = -1;
static int write_failed;
static char *cur; /* the chunk being filled (lock) */
static size_t cur_len;
static char *queue[max_queued]; /* full chunks, oldest first (lock) */
static size_t queue_len[max_queued], queue_head, queued;
static char *spare[max_queued + 1]; /* written chunks to fill again (lock) */
static size_t nspare;
static int writer_running, closing;
static pthread_t writer_thread;
static pthread_cond_t chunk_queued = PTHREAD_COND_INITIALIZER, chunk_written = PTHREAD_COND_INITIALIZER;

static void write_all(const char *p, size_t n)
{
	while (n > 0 && !write_failed) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			write_failed = 1;
			return;
		}
		p += k;
		n -= (size_t)k;
	}
}

/* rotate queues the chunk being filled and starts another (lock held). */
static void rotate(void)
{
	if (cur_len == 0)
		return;
	if (!writer_running) {
		write_all(cur, cur_len);
		cur_len = 0;
		return;
	}
	while (queued == max_queued)
		pthread_cond_wait(&chunk_written, &lock);
	queue[(queue_head + queued) % max_queued] = cur;
	queue_len[(queue_head + queued) % max_queued] = cur_len;
	queued++;
	pthread_cond_signal(&chunk_queued);
	while (nspare == 0 && (cur = malloc(chunk_size)) == NULL)
		pthread_cond_wait(&chunk_written, &lock);
	if (nspare > 0)
		cur = spare[--nspare];
	cur_len = 0;
}

static void *writer(void *arg)
{
	(void)arg;
	enter();
	for (;;) {
		while (queued == 0 && !closing)
			pthread_cond_wait(&chunk_queued, &lock);
		if (queued == 0)
			break;
		char *c = queue[queue_head];
		size_t n = queue_len[queue_head];
		queue_head = (queue_head + 1) % max_queued;
		queued--;
		leave();
		write_all(c, n);
		enter();
		if (nspare <= max_queued)
			spare[nspare++] = c;
		else
			free(c);
		pthread_cond_broadcast(&chunk_written);
	}
	leave();
	return NULL;
}

/* emit appends n bytes (n <= chunk_size) to the log (lock held). */
static void emit(const char *p, size_t n)
{
	if (cur_len + n > chunk_size)
		rotate();
	memcpy(cur + cur_len, p, n);
	cur_len += n;
}

/* open_log creates the log and its first chunk; close_log writes what is left and closes it,
 * saying whether all was written. */
static int open_log(void)
{
	if ((fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0)
		return 0;
	if ((cur = malloc(chunk_size)) == NULL)
		return 0;
	writer_running = pthread_create(&writer_thread, NULL, writer, NULL) == 0;
	return 1;
}

static int close_log(void)
{
	enter();
	rotate();
	closing = 1;
	pthread_cond_signal(&chunk_queued);
	int joined = writer_running; /* it writes every queued chunk before it returns */
	leave();
	if (joined)
		pthread_join(writer_thread, NULL);
	return !write_failed & (close(fd) == 0);
}

/* ---- writing records (lock held) ---- */

/* num appends " v" to a line being built, two digits a step: it is most of the agent's own
 * time, called six times an allocation. */
static char *num(char *p, int64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
				    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
				    "8081828384858687888990919293949596979899";
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	*p++ = ' ';
	if (v < 0)
		*p++ = '-';
	static const uint64_t tens[] = {10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
					1000000000u, 10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
					100000000000000u, 1000000000000000u, 10000000000000000u,
					100000000000000000u, 1000000000000000000u, 10000000000000000000u};
	int n = 1;
	while (n < 20 && u >= tens[n - 1])
		n++;
	char *e = p + n;
	while (u >= 100) {
		e -= 2;
		memcpy(e, pairs + 2 * (u % 100), 2);
		u /= 100;
	}
	if (u >= 10)
		memcpy(e - 2, pairs + 2 * u, 2);
	else
		e[-1] = (char)('0' + u);
	return p + n;
}

/* put writes the line built in line[0:p]; nl ends it. */
static void put(const char *line, char *p, int nl)
{
	if (nl)
		*p++ = '\n';
	emit(line, (size_t)(p - line));
}

/* puts_ writes a string. */
static void puts_(const char *s) { emit(s, strlen(s)); }

/* text writes " s" without line breaks; a token also has no blanks, and "" becomes "-".
 * Names longer than 64 KiB (none are) are cut there, so a line always fits a chunk. */
static void text(const char *s, size_t n, int token)
{
	static char buf[2 + (1 << 16)];
	size_t k = 0;
	buf[k++] = ' ';
	if (n == 0 && token)
		buf[k++] = '-';
	if (n > 1 << 16)
		n = 1 << 16;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\n' || c == '\r')
			c = ' ';
		if (token && (c == ' ' || c == '\t'))
			c = '_';
		buf[k++] = c;
	}
	emit(buf, k);
}

/* ---- classes: a hash table keyed by JVM signature; ids from 1 ---- */

struct klass {
	char *sig;
	uint32_t id;
};
static struct klass *classes;
static size_t classes_cap, nclasses;
static unsigned char *arrays; /* arrays[id]: class id names an array class */
static size_t arrays_cap;

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
	if (nclasses + 2 > arrays_cap) {
		unsigned char *a = realloc(arrays, classes_cap);
		if (a == NULL)
			return 0;
		arrays = a;
		arrays_cap = classes_cap;
	}
	struct klass *k = slot(classes, classes_cap, sig);
	if (k->sig != NULL)
		return k->id;
	size_t n = strlen(sig);
	if ((k->sig = malloc(n + 1)) == NULL)
		return 0;
	memcpy(k->sig, sig, n + 1);
	k->id = (uint32_t)++nclasses;
	arrays[k->id] = sig[0] == '[';

	char line[32];
	line[0] = 'c';
	put(line, num(line + 1, k->id), 0);
	if (sig[0] == 'L' && n >= 2 && sig[n - 1] == ';')
		text(sig + 1, n - 2, 1);
	else
		text(sig, n, 1);
	emit("\n", 1);
	return k->id;
}

/* ---- threads: ids from 1 ---- */

/* thread_id is the current Java thread's id, 0 before it has one. A C thread-local, not
 * JVMTI's thread-local storage: it is read at every allocation, and a JVMTI call costs more.
 * It is per OS thread, so ThreadEnd clears it. */
static __thread uint32_t thread_id;

static uint32_t current_thread_id(void) { return thread_id; }

/* agent_work is set while the current thread allocates for the agent itself (its sweeper
 * thread's objects): those allocations are not the program's and stay out of the log. */
static __thread int agent_work;

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
		emit("\n", 1);
	}
	leave();
	(*jvmti)->Deallocate(jvmti, (unsigned char *)info.name);
	(*jvmti)->Deallocate(jvmti, (unsigned char *)group.name);
	thread_id = id;
	return id;
}

/* ---- live objects: a JNI weak reference each, checked after every GC ---- */

struct object {
	jweak ref;
	uint64_t id; /* birth+1 */
};

/* objects is a growable array. */
struct objects {
	struct object *at;
	size_t n, cap;
};

static int push(struct objects *o, struct object x)
{
	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 4096;
		struct object *at = realloc(o->at, cap * sizeof *at);
		if (at == NULL)
			return 0;
		o->at = at;
		o->cap = cap;
	}
	o->at[o->n++] = x;
	return 1;
}

static struct objects born;  /* allocated since the last sweep (lock) */
static struct objects empty; /* born's last array, emptied, to fill again (lock) */
static struct objects held;  /* alive at the last sweep (sweeping) */

/* write_deaths writes a "d" record for each id, a lock for them all, so allocating threads
 * rarely wait for the sweeper. */
static void write_deaths(const uint64_t *ids, size_t n)
{
	enter();
	for (size_t k = 0; k < n && !dead; k++) {
		char line[64];
		line[0] = 'd';
		put(line, num(num(line + 1, (int64_t)ids[k]), (int64_t)now), 1);
	}
	leave();
}

/* sweep moves the objects born since the last sweep to held, writes a "d" record for each one
 * whose weak reference was cleared and lets its reference go. With tag, it also tags the
 * living with their ids, for a heap snapshot. The caller holds "sweeping", not "lock". */
static void sweep(JNIEnv *jni, int tag)
{
	enter();
	struct objects fresh = born;
	born = empty;
	empty = (struct objects){0};
	swept = 0;
	leave();
	for (size_t i = 0; i < fresh.n; i++)
		if (!push(&held, fresh.at[i])) {
			fprintf(stderr, PREFIX "out of memory: deaths from now on are lost\n");
			break;
		}
	fresh.n = 0;
	enter();
	if (empty.at == NULL) /* reused: growing a fresh array page by page cost more than sweeping */
		empty = fresh;
	else
		free(fresh.at);
	leave();

	enum { batch = 4096 };
	static uint64_t ids[batch];
	size_t keep = 0, nids = 0;
	for (size_t i = 0; i < held.n; i++) {
		struct object o = held.at[i];
		if (!(*jni)->IsSameObject(jni, o.ref, NULL)) {
			if (tag && !mutations)
				(*jvmti)->SetTag(jvmti, o.ref, (jlong)o.id);
			held.at[keep++] = o;
			continue;
		}
		(*jni)->DeleteWeakGlobalRef(jni, o.ref);
		ids[nids++] = o.id;
		if (nids == batch) {
			write_deaths(ids, nids);
			nids = 0;
		}
	}
	write_deaths(ids, nids);
	held.n = keep;
}

/* sweeper is the agent thread that sweeps after each GC until the VM dies. */
static void JNICALL sweeper(jvmtiEnv *env, JNIEnv *jni, void *arg)
{
	(void)env, (void)arg;
	for (;;) {
		enter();
		while (!swept && !dead)
			pthread_cond_wait(&gc_ended, &lock);
		int stop = dead;
		leave();
		if (stop)
			return;
		(*jvmti)->RawMonitorEnter(jvmti, sweeping);
		sweep(jni, 0);
		(*jvmti)->RawMonitorExit(jvmti, sweeping);
	}
}

/* start_sweeper runs sweeper in a daemon thread of its own. */
static jobject sweeper_thread; /* a global reference: its thread events stay out of the log */

static int is_sweeper(JNIEnv *jni, jthread thread)
{
	return sweeper_thread != NULL && (*jni)->IsSameObject(jni, thread, sweeper_thread);
}

static void start_sweeper(JNIEnv *jni)
{
	agent_work = 1;
	jclass cls = (*jni)->FindClass(jni, "java/lang/Thread");
	jmethodID init = cls ? (*jni)->GetMethodID(jni, cls, "<init>", "(Ljava/lang/String;)V") : NULL;
	jstring name = (*jni)->NewStringUTF(jni, "androprof heap sweeper");
	jthread t = init && name ? (*jni)->NewObject(jni, cls, init, name) : NULL;
	sweeper_thread = t ? (*jni)->NewGlobalRef(jni, t) : NULL;
	agent_work = 0;
	if (sweeper_thread == NULL) {
		(*jni)->ExceptionClear(jni);
		fprintf(stderr, PREFIX "cannot start the sweeper thread: deaths are logged at exit only\n");
		return;
	}
	check((*jvmti)->RunAgentThread(jvmti, t, sweeper, NULL, JVMTI_THREAD_NORM_PRIORITY), "starting the sweeper");
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

/* take_snapshot tags the living with their ids, walks the reachable heap (a safepoint, so
 * the lock must not be held) and writes one "s" record per non-empty bucket at the current
 * time. */
static void take_snapshot(JNIEnv *jni)
{
	(*jvmti)->RawMonitorEnter(jvmti, sweeping);
	sweep(jni, 1);
	(*jvmti)->RawMonitorExit(jvmti, sweeping);
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

/* tagged_class numbers a class from its mirror's tag, tagging it the first time. */
static uint32_t tagged_class(jvmtiEnv *env, jclass klass)
{
	jlong tag = 0;
	if ((*env)->GetTag(env, klass, &tag) == JVMTI_ERROR_NONE && tag < 0)
		return (uint32_t)-tag;
	char *sig = NULL;
	if (!check((*env)->GetClassSignature(env, klass, &sig, NULL), "class of an allocation"))
		return 0;
	enter();
	uint32_t cid = dead ? 0 : class_id(sig);
	leave();
	(*env)->Deallocate(env, (unsigned char *)sig);
	if (cid != 0)
		(*env)->SetTag(env, klass, -(jlong)cid);
	return cid;
}

/* A thread's recent classes: GetTag took a sixth of the agent's time per allocation (a lock
 * and a hash table of weak handles), IsSameObject a third of that. The slot is picked by the
 * word the local reference points to, which on HotSpot is the mirror's address; IsSameObject
 * confirms, so a mirror the GC moved, or a VM whose handles hold something else, costs a
 * miss, never a wrong class. The weak references let classes unload. */
enum { class_slots = 64 };
struct class_slot {
	uintptr_t key;
	jweak ref;
	uint32_t cid;
};
static __thread struct class_slot class_cache[class_slots];

static uint32_t class_of(jvmtiEnv *env, JNIEnv *jni, jclass klass)
{
	uintptr_t key = *(const uintptr_t *)klass;
	struct class_slot *c = &class_cache[(key >> 3 ^ key >> 11) % class_slots];
	if (c->key == key && c->ref != NULL && (*jni)->IsSameObject(jni, c->ref, klass))
		return c->cid;
	uint32_t cid = tagged_class(env, klass);
	jweak ref = cid != 0 ? (*jni)->NewWeakGlobalRef(jni, klass) : NULL;
	if (ref != NULL) {
		if (c->ref != NULL)
			(*jni)->DeleteWeakGlobalRef(jni, c->ref);
		*c = (struct class_slot){key, ref, cid};
	}
	return cid;
}

/* forget_classes empties the current thread's class cache as it ends. */
static void forget_classes(JNIEnv *jni)
{
	for (int i = 0; i < class_slots; i++)
		if (class_cache[i].ref != NULL)
			(*jni)->DeleteWeakGlobalRef(jni, class_cache[i].ref);
	memset(class_cache, 0, sizeof class_cache);
}

/* is_array says whether a class id names an array class (lock held). */
static int is_array(uint32_t cid) { return arrays[cid]; }

static void JNICALL on_alloc(jvmtiEnv *env, JNIEnv *jni, jthread thread, jobject object,
			     jclass klass, jlong size)
{
	if (agent_work)
		return;
	uint32_t tid = current_thread_id();
	if (tid == 0 && (tid = declare_thread(jni, thread)) == 0)
		return;
	uint32_t cid = class_of(env, jni, klass);
	if (cid == 0)
		return;
	jweak ref = (*jni)->NewWeakGlobalRef(jni, object);
	if (ref == NULL)
		return;
	uint64_t sz = ((uint64_t)size + 7) & ~(uint64_t)7, birth = 0;
	int snap = 0, kept = 0;
	enter();
	if (!dead) {
		birth = now;
		now += sz;
		kept = push(&born, (struct object){ref, birth + 1});
		char line[128];
		line[0] = 'a';
		char *p = num(num(num(line + 1, (int64_t)birth + 1), (int64_t)birth), (int64_t)sz);
		put(line, num(num(num(p, tid), cid), is_array(cid)), 1);
		if (snap_every != 0 && now >= snap_next && !snapping) {
			snap = snapping = 1;
			snap_next = now + snap_every;
		}
	}
	leave();
	if (!kept) {
		(*jni)->DeleteWeakGlobalRef(jni, ref);
		return;
	}
	if (mutations)
		check((*env)->SetTag(env, object, (jlong)birth + 1), "tagging an object");
	if (snap) {
		take_snapshot(jni);
		enter();
		snapping = 0;
		leave();
	}
}

/* on_vm_object_alloc catches the objects the VM allocates itself (reflection, class loading)
 * on a thread that sampling has not seen allocate. Once sampling has seen a thread it sees all
 * its allocations, the VM's among them, which this event then repeats: on the samples
 * (TestThreadsLog and the others) every repeat was on a seen thread, every new object on an
 * unseen one. */
static void JNICALL on_vm_object_alloc(jvmtiEnv *env, JNIEnv *jni, jthread thread, jobject object,
				       jclass klass, jlong size)
{
	if (current_thread_id() == 0)
		on_alloc(env, jni, thread, object, klass, size);
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
		swept = 1;
		pthread_cond_signal(&gc_ended);
	}
	leave();
}

static void JNICALL on_thread_start(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
	(void)env;
	if (is_sweeper(jni, thread))
		agent_work = 1;
	else
		declare_thread(jni, thread);
}

static void JNICALL on_thread_end(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
	(void)env;
	if (agent_work)
		return;
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
	thread_id = 0; /* the OS thread may come back as another Java thread (DestroyJavaVM does) */
	forget_classes(jni);
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
	start_sweeper(jni);
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
	(void)env;
	declare_loaded_classes();
	check((*jvmti)->ForceGarbageCollection(jvmti), "final garbage collection");
	take_snapshot(jni); /* sweeps first: what the collection freed dies in the log */
	enter();
	dead = 1;
	pthread_cond_signal(&gc_ended);
	uint64_t logged = stores_logged, statics = stores_static, unseen = stores_unseen;
	leave();
	if (!close_log())
		fprintf(stderr, PREFIX "writing %s failed\n", out_path);
	if (mutations)
		fprintf(stderr, "androprof mutations: %llu reference stores logged; not logged: %llu into static fields "
				"(a class has no birth), %llu with an end allocated before the agent started\n",
			(unsigned long long)logged, (unsigned long long)statics, (unsigned long long)unseen);
}

/* ---- mutations ---- */

/* Java_androprof_agent_Mutations_store is the native method androprof.agent.Mutations calls
 * at each reference store of instrumented code: src's field at offset now holds dst (NULL:
 * null). src NULL is a store into a static field. The JVM finds it in this library because
 * it looks for native methods in the agent libraries too. */
JNIEXPORT void JNICALL Java_androprof_agent_Mutations_store(JNIEnv *jni, jclass cls, jobject src, jobject dst, jlong offset)
{
	(void)jni, (void)cls;
	jlong from = 0, to = 0;
	if (src != NULL)
		(*jvmti)->GetTag(jvmti, src, &from);
	if (dst != NULL)
		(*jvmti)->GetTag(jvmti, dst, &to);
	enter();
	if (src == NULL) {
		stores_static++;
	} else if (from <= 0 || (dst != NULL && to <= 0)) {
		stores_unseen++;
	} else if (!dead) {
		stores_logged++;
		char line[96];
		line[0] = 'm';
		put(line, num(num(num(num(line + 1, (int64_t)now), from), offset), to), 1);
	}
	leave();
}

/* ---- start ---- */

/* property writes " value" of a system property, or nothing when it is unset. */
static int property(const char *key)
{
	char *v = NULL;
	if ((*jvmti)->GetSystemProperty(jvmti, key, &v) != JVMTI_ERROR_NONE)
		return 0;
	enter();
	text(v, strlen(v), 0);
	leave();
	(*jvmti)->Deallocate(jvmti, (unsigned char *)v);
	return 1;
}

/* write_header writes the header; the lock is taken per record, as property calls JVMTI. */
static void write_header(void)
{
	enter();
	puts_("androprof-heaplog 1\nvm");
	leave();
	int named = property("java.vm.name");
	enter();
	if (!named)
		puts_(" Java VM");
	leave();
	property("java.vm.version");
	enter();
	puts_(" (androprof heap agent " AGENT_VERSION ")\nprop command");
	leave();
	named = property("sun.java.command");
	enter();
	puts_(named ? "\nprop sampling 0\n" : " -\nprop sampling 0\n");
	if (mutations)
		puts_("prop mutations on\n");
	if (snap_every != 0) {
		char line[64] = "prop snapshot";
		put(line, num(line + strlen(line), (int64_t)snap_every), 1);
	}
	leave();
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
		} else if (strncmp(o, "mutations,", 10) == 0) {
			mutations = 1;
		} else {
			fprintf(stderr, PREFIX "unknown option in \"%s\": want [snapshot=BYTES,][mutations,]out=PATH\n", options);
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
	caps.can_generate_garbage_collection_events = 1;
	caps.can_tag_objects = 1;
	if (!check((*jvmti)->AddCapabilities(jvmti, &caps), "capabilities") ||
	    !check((*jvmti)->CreateRawMonitor(jvmti, "androprof heap sweep", &sweeping), "monitor") ||
	    !check((*jvmti)->SetHeapSamplingInterval(jvmti, 0), "sampling every allocation"))
		return JNI_ERR;

	size_t n = strlen(path);
	if ((out_path = malloc(n + 1)) == NULL)
		return JNI_ERR;
	memcpy(out_path, path, n + 1);
	if (!open_log()) {
		fprintf(stderr, PREFIX "creating the log %s: %s\n", out_path, strerror(errno));
		return JNI_ERR;
	}
	write_header();

	jvmtiEventCallbacks cb;
	memset(&cb, 0, sizeof cb);
	cb.SampledObjectAlloc = on_alloc;
	cb.VMObjectAlloc = on_vm_object_alloc;
	cb.GarbageCollectionStart = on_gc_start;
	cb.GarbageCollectionFinish = on_gc_finish;
	cb.ThreadStart = on_thread_start;
	cb.ThreadEnd = on_thread_end;
	cb.VMInit = on_vm_init;
	cb.VMDeath = on_vm_death;
	if (!check((*jvmti)->SetEventCallbacks(jvmti, &cb, sizeof cb), "callbacks"))
		return JNI_ERR;
	jvmtiEvent events[] = {JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, JVMTI_EVENT_VM_OBJECT_ALLOC,
			       JVMTI_EVENT_GARBAGE_COLLECTION_START, JVMTI_EVENT_GARBAGE_COLLECTION_FINISH,
			       JVMTI_EVENT_THREAD_START, JVMTI_EVENT_THREAD_END,
			       JVMTI_EVENT_VM_INIT, JVMTI_EVENT_VM_DEATH};
	for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
		if (!check((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, events[i], NULL), "enabling events"))
			return JNI_ERR;
	return JNI_OK;
}
