/*
 * bbcount: a QEMU 7.2 TCG plugin that counts how often each translated block runs, per
 * process and guest thread, and writes the block catalogue with the counts in the
 * project's basic-block profile format (docs/bbprofile-format.md), one file per process.
 * It also names the image (program, library, loader, or code with no file) each block
 * comes from, and counts system calls per thread with the instructions run before each.
 *
 *   qemu-arm -plugin bbcount.so,outdir=DIR PROGRAM ARGS...   ->   DIR/bbprofile-<pid>.txt
 *
 * With cache=l1i:SIZE:WAYS:LINE:REPL:wa|nwa;l1d:…;l2:…[;l3:…] (sizes in bytes; REPL lru, plru,
 * random or round-robin) it also simulates that hierarchy per guest thread and counts each
 * block's fetches, reads, writes and misses (cachesim.h, docs/cachesim.md).
 *
 * Guests: qemu-arm, -armeb, -mipsel, -mips, -aarch64 and -x86_64 (the table "guests" below);
 * any other refuses the plugin with a sentence.
 *
 * Debian's qemu-user 7.2 ships no qemu-plugin.h, so the few prototypes used are declared
 * below from QEMU 7.2's include/qemu/qemu-plugin.h (plugin API version 1).
 *
 * Build (cachesim.h beside it): gcc -O2 -shared -fPIC -fvisibility=hidden -pthread -Wall -Wextra -Werror
 *   -o bbcount.so bbcount.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cachesim.h"

/* ---- QEMU 7.2 plugin API, declared by hand ---- */

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_simple_cb_t)(qemu_plugin_id_t id);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr,
					      uint64_t imm);
void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_exit_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_reset(qemu_plugin_id_t id, qemu_plugin_simple_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
char *qemu_plugin_insn_disas(const struct qemu_plugin_insn *insn);
const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *insn);
const char *qemu_plugin_path_to_binary(void);
uint64_t qemu_plugin_start_code(void);
void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *insn);
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num,
					      uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
					      uint64_t a6, uint64_t a7, uint64_t a8);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_syscall_cb_t cb);
typedef void (*qemu_plugin_vcpu_syscall_ret_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_idx, int64_t num,
						  int64_t ret);
void qemu_plugin_register_vcpu_syscall_ret_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_syscall_ret_cb_t cb);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op, void *ptr,
						uint64_t imm);
typedef uint32_t qemu_plugin_meminfo_t;
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_MEM_RW };
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
					  void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw, void *userdata);
void qemu_plugin_register_vcpu_mem_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_mem_rw rw,
					  enum qemu_plugin_op op, void *ptr, uint64_t imm);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

/* ---- the block catalogue ---- */

struct insn {
	uint64_t addr;
	uint8_t size;
	uint8_t bytes[15]; /* in guest memory order: QEMU 7.2 appends them as read */
	char *disas;	   /* from QEMU's disassembler; never freed, blocks live until exit */
};

struct image;
struct fetch;

struct block {
	uint32_t id; /* index in blocks[], also the index of its counters */
	uint64_t pc;
	const char *symbol;
	struct image *image; /* NULL: QEMU gave no host address for the code */
	size_t n;
	struct block *next_same_pc; /* other translations of the same pc (hash chain) */
	/*
	 * x86: the last instruction, when QEMU may have left it half-read at a page end, counts
	 * on counters of its own: this entry in blocks[], never written as a block (see
	 * "x86: instructions QEMU lists but does not run").
	 */
	struct block *tail;
	/* x86, a block that is one REP string instruction: the counter of its memory accesses */
	struct block *acc;
	uint8_t per_iteration; /* its accesses per iteration */
	bool shadow;	       /* an entry of blocks[] that only holds counters (a tail or accesses) */
	struct fetch *fetches; /* cache simulation: the instructions that may miss L1I */
	uint32_t n_fetches;
	struct insn insns[];
};

/*
 * Limits keep the counters in fixed two-level tables, so the exec callback of one thread
 * never sees memory that another thread is reallocating. QEMU reuses vCPU indices when
 * threads end, so MAX_VCPUS bounds live threads, not all threads.
 */
#define CHUNK_BITS 12
#define CHUNK (1u << CHUNK_BITS)
#define MAX_CHUNKS 4096 /* 16 M distinct blocks */
#define MAX_VCPUS 1024
#define HASH_SIZE (1u << 16)

static struct block **blocks; /* by id */
static uint16_t *lens;	      /* by id: instructions per block, packed for scan_insns */
static uint32_t n_blocks, cap_blocks;
static struct block *by_pc[HASH_SIZE];

/* One system call number's count in a thread, and the instructions run before those calls. */
struct sysent {
	int64_t nr;
	uint64_t count, insns;
};

/* Counters of one guest thread; kept after the thread ends. */
struct thread {
	pid_t tid;
	struct thread *next_done;
	uint64_t insns;		   /* instructions run (single mode: first's also gets inline adds) */
	uint64_t insns_at_syscall; /* insns at its last system call */
	struct sysent *sys;
	size_t n_sys, cap_sys;
	uint64_t *chunks[MAX_CHUNKS];
};

/*
 * Counting has two modes, because QEMU 7.2's inline add (about 1.1x plain emulation) can only
 * bump one shared address per block, while an exec callback (about 1.7x) knows the vCPU:
 *   single: one live guest thread; every block adds inline into first's counters.
 *   multi:  from the second thread on; blocks call on_exec, which counts per thread.
 * The switch flushes QEMU's code cache (qemu_plugin_reset), which QEMU does later, when every
 * vCPU has left the code cache. Until then the new thread still runs inline-counted blocks, so
 * the switch keeps a copy of first's counters from the moment the thread was created (QEMU
 * calls on_vcpu_init in the creating thread, before the new one runs) and, in on_reset, moves
 * everything counted since then to the new thread. That is exact: the creating thread was
 * kicked by the reset request and runs no block between its clone and the flush. The new
 * thread may end the whole process before the flush (exit_group, a crash): write_profile then
 * finishes the switch itself. The new thread's id comes from its first system call, or from
 * the clone's return in the creating thread, so a thread that ends the process, or is still
 * blocked in its first system calls when the process ends, is listed as itself.
 *
 * A thread's instruction count (for the instructions before each system call) costs a second
 * inline add per block, about 0.1x of plain emulation. So single mode starts without it and
 * sums first's counters × block lengths at each system call (scan_insns); only when those
 * sums take more than 2% of the run does it switch to the inline add (insns_inline), through
 * the same flush. Multi mode adds in on_exec.
 */
static struct thread *first;		/* the process's first thread */
static struct thread *vcpus[MAX_VCPUS]; /* multi mode: live threads by vCPU index */
static struct thread *done;		/* threads that ended */
static bool multi, switching;
static bool insns_inline;		 /* single mode: blocks also add their length to first->insns */
static bool want_inline, reset_requested; /* a flush is asked for: for insns_inline, or switching */
static uint64_t scan_ns, start_ns;	 /* time in scan_insns, and when the process started */
static qemu_plugin_id_t plugin_id;
static int live; /* live vCPUs */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The switch in progress: the thread being created, its vCPU, first's counters before it. */
static struct thread *pending;
static unsigned int pending_vcpu;
static bool pending_ended; /* it ended before the flush; its tid is known */
static uint64_t *before[MAX_CHUNKS];

static const char *outdir;
static const struct guest *guest; /* the guest QEMU runs: its target name, instruction set, calls */
static pid_t pid, ppid;
static bool written; /* this process's file is out */

static void die(const char *msg)
{
	fprintf(stderr, "bbcount plugin: %s\n", msg);
	abort();
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p)
		die("out of memory");
	return p;
}

static pid_t gettid_(void) { return (pid_t)syscall(SYS_gettid); }

static uint64_t *chunk(struct thread *t, uint32_t id)
{
	uint64_t **slot = &t->chunks[id >> CHUNK_BITS];
	uint64_t *c = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (!c) {
		uint64_t *fresh = xcalloc(CHUNK, sizeof(uint64_t));
		if (__atomic_compare_exchange_n(slot, &c, fresh, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			c = fresh;
		else
			free(fresh);
	}
	return c;
}

/* t's count of counter id since base (NULL: since zero). */
static uint64_t count_since(const struct thread *t, uint64_t *const *base, uint32_t id)
{
	const uint64_t *c = t->chunks[id >> CHUNK_BITS];
	const uint64_t *b = base ? base[id >> CHUNK_BITS] : NULL;
	return (c ? c[id & (CHUNK - 1)] : 0) - (b ? b[id & (CHUNK - 1)] : 0);
}

/* ---- counting in multi mode: the hot path ---- */

static __attribute__((noinline)) struct thread *thread_start(unsigned int vcpu)
{
	if (vcpu >= MAX_VCPUS)
		die("more than 1024 live guest threads");
	/* In user mode every guest thread is a host thread, and gettid passes through. */
	pid_t tid = gettid_();
	pthread_mutex_lock(&lock);
	struct thread *t;
	if (first->tid == tid) {
		t = first;
	} else if (pending && pending_vcpu == vcpu && !switching) {
		t = pending; /* its blocks from before the switch are in already */
		pending = NULL;
	} else {
		t = xcalloc(1, sizeof *t);
	}
	t->tid = tid;
	vcpus[vcpu] = t;
	pthread_mutex_unlock(&lock);
	return t;
}

/* udata: the block's id in the low 32 bits, its length above (hosts are 64-bit). */
static void on_exec(unsigned int vcpu, void *udata)
{
	uint32_t id = (uint32_t)(uintptr_t)udata;
	struct thread *t = vcpu < MAX_VCPUS ? vcpus[vcpu] : NULL;
	if (__builtin_expect(t == NULL, 0))
		t = thread_start(vcpu);
	uint64_t *c = t->chunks[id >> CHUNK_BITS];
	if (__builtin_expect(c == NULL, 0))
		c = chunk(t, id);
	c[id & (CHUNK - 1)]++;
	t->insns += (uint64_t)((uintptr_t)udata >> 32);
}

/* ---- cache simulation (plugin argument cache=…; docs/cachesim.md) ---- */

/*
 * Each guest thread (vCPU) has its own hierarchy (cachesim.h) and its own counts per block.
 * Data: a memory callback on every instruction sees each load and store with its address and
 * size. Fetches: an instruction callback only on the instructions of a block that reference a
 * line the previous instruction of the block did not end in; the others hit the L1I line
 * just made most recent, which changes nothing under any replacement policy, so they need no
 * call (the reader counts every instruction as a fetch: executions × length). The simulation
 * keeps its own per-vCPU table, apart from the exec counts' single and multi modes: its
 * callbacks know the vCPU in both, and each thread's tid is read on the thread itself.
 */
static struct cachespec cspecs[4];
static uint32_t n_cspecs; /* 0: counts only, no cache simulation */

/* One thread's counts for one block: misses at L1, L2, L3 of fetches, reads and writes. */
struct ccount {
	uint64_t fm[3], r, rm[3], w, wm[3];
};

/* A block's counts in an ended thread's packed list. */
struct packed {
	uint32_t id;
	struct ccount c;
};

struct sim {
	pid_t tid;
	struct sim *next_done;
	struct hierarchy h; /* freed when the thread ends */
	struct ccount *chunks[MAX_CHUNKS];
	struct packed *packed; /* an ended thread's counts, by id: what the chunks held */
	uint32_t n_packed;
};

/* An instruction whose fetch is simulated: udata of on_fetch. */
struct fetch {
	uint64_t first, last; /* the L1I lines (tags: line + 1) of its first and last byte */
	uint64_t addr;
	uint32_t id; /* the block's counters */
	uint16_t size;
	uint16_t insn; /* its index in the block */
};

static struct sim *sims[MAX_VCPUS]; /* by vCPU index; each written only by its own thread */
static struct sim *sims_done;	    /* under lock: threads that ended */

static __attribute__((noinline)) struct sim *sim_start(unsigned int vcpu)
{
	if (vcpu >= MAX_VCPUS)
		die("more than 1024 live guest threads");
	struct sim *s = xcalloc(1, sizeof *s);
	s->tid = gettid_();
	hier_init(&s->h, cspecs, n_cspecs);
	__atomic_store_n(&sims[vcpu], s, __ATOMIC_RELEASE);
	return s;
}

static inline struct sim *sim_of(unsigned int vcpu)
{
	struct sim *s = vcpu < MAX_VCPUS ? sims[vcpu] : NULL;
	return __builtin_expect(s != NULL, 1) ? s : sim_start(vcpu);
}

static __attribute__((noinline)) struct ccount *ccount_chunk(struct sim *s, uint32_t id)
{
	struct ccount *c = xcalloc(CHUNK, sizeof *c);
	__atomic_store_n(&s->chunks[id >> CHUNK_BITS], c, __ATOMIC_RELEASE);
	return c;
}

static inline struct ccount *ccount_of(struct sim *s, uint32_t id)
{
	struct ccount *c = s->chunks[id >> CHUNK_BITS];
	if (__builtin_expect(c == NULL, 0))
		c = ccount_chunk(s, id);
	return &c[id & (CHUNK - 1)];
}

/*
 * The callbacks run for every fetch that may miss and every load and store, so each has a
 * fast path for the common case, a reference to the line referenced last (cachesim.h's
 * mru), and leaves the rest to a function of its own.
 */
static __attribute__((noinline)) void fetch_slow(unsigned int vcpu, const struct fetch *f)
{
	struct sim *s = sim_of(vcpu);
	if (cache_ref(&s->h.l1i, f->addr, f->size, false))
		hier_missed_l1(&s->h, f->addr, f->size, false, ccount_of(s, f->id)->fm);
}

static void on_fetch(unsigned int vcpu, void *udata)
{
	const struct fetch *f = udata;
	struct sim *s = vcpu < MAX_VCPUS ? sims[vcpu] : NULL;
	if (__builtin_expect(s != NULL && f->first == s->h.l1i.mru && f->last == f->first, 1))
		return;
	fetch_slow(vcpu, f);
}

/*
 * QEMU 7.2's meminfo is the access's MemOpIdx (MemOp << 4 | MMU index) with the access kind
 * (QEMU_PLUGIN_MEM_R/W) from bit 16. Reading it here saves two calls into QEMU per access;
 * install checks the layout against QEMU's own functions and falls back to them otherwise.
 */
static bool meminfo_inline;

static inline uint32_t mem_size(qemu_plugin_meminfo_t info)
{
	return 1u << (meminfo_inline ? (info >> 4) & 7 : qemu_plugin_mem_size_shift(info));
}

static inline bool mem_store(qemu_plugin_meminfo_t info)
{
	return meminfo_inline ? (info >> 16) & QEMU_PLUGIN_MEM_W : qemu_plugin_mem_is_store(info);
}

static void check_meminfo_layout(void)
{
	meminfo_inline = true;
	for (uint32_t shift = 0; shift < 4; shift++)
		for (uint32_t rw = QEMU_PLUGIN_MEM_R; rw <= QEMU_PLUGIN_MEM_W; rw++) {
			qemu_plugin_meminfo_t info = rw << 16 | shift << 4;
			meminfo_inline = meminfo_inline && qemu_plugin_mem_size_shift(info) == shift &&
					 qemu_plugin_mem_is_store(info) == (rw == QEMU_PLUGIN_MEM_W);
		}
}

/*
 * All but on_mem's fast path: an access to another line than the last, from its L1D lookup
 * on, and the first access of a thread or to a new chunk of counters (counted: on_mem has
 * counted the read or write already).
 */
static __attribute__((noinline)) void mem_slow(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
					       uint32_t id, bool counted)
{
	struct sim *s = sim_of(vcpu);
	struct ccount *c = ccount_of(s, id);
	uint32_t size = mem_size(info);
	bool store = mem_store(info);
	if (!counted)
		*(store ? &c->w : &c->r) += 1;
	if (cache_ref(&s->h.l1d, vaddr, size, store))
		hier_missed_l1(&s->h, vaddr, size, store, store ? c->wm : c->rm);
}

/*
 * udata: the block's counter id. The common case, another access to the line referenced
 * last, makes no call: every call here is the function's last act, so the fast path saves
 * no registers.
 */
static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	uint32_t id = (uint32_t)(uintptr_t)udata;
	struct sim *s = vcpu < MAX_VCPUS ? sims[vcpu] : NULL;
	struct ccount *chunk = s ? s->chunks[id >> CHUNK_BITS] : NULL;
	if (__builtin_expect(chunk == NULL || !meminfo_inline, 0))
		return mem_slow(vcpu, info, vaddr, id, false);
	struct ccount *c = &chunk[id & (CHUNK - 1)];
	uint32_t size = 1u << ((info >> 4) & 7);
	bool store = (info >> 16) & QEMU_PLUGIN_MEM_W;
	*(store ? &c->w : &c->r) += 1;
	uint64_t first = (vaddr >> s->h.l1d.line_bits) + 1, last = ((vaddr + size - 1) >> s->h.l1d.line_bits) + 1;
	if (__builtin_expect(first == s->h.l1d.mru && last == first, 1))
		return;
	return mem_slow(vcpu, info, vaddr, id, true);
}

/* Under lock, at translation: the instructions of b whose fetch may miss (see above). */
static void plan_fetches(struct block *b)
{
	uint32_t bits = log2_of(cspecs[0].line);
	uint64_t prev_last = 0;
	b->fetches = xcalloc(b->n, sizeof *b->fetches);
	for (size_t i = 0; i < b->n; i++) {
		const struct insn *in = &b->insns[i];
		uint32_t size = in->size ? in->size : 1;
		uint64_t first = in->addr >> bits, last = (in->addr + size - 1) >> bits;
		if (i == 0 || first != prev_last || last != prev_last)
			b->fetches[b->n_fetches++] =
				(struct fetch){first + 1, last + 1, in->addr, b->id, (uint16_t)size, (uint16_t)i};
		prev_last = last;
	}
}

/* On translation: the fetch and memory callbacks of a block, when simulating. */
static void instrument_caches(struct qemu_plugin_tb *tb, const struct block *b, size_t n)
{
	for (uint32_t k = 0; k < b->n_fetches; k++)
		qemu_plugin_register_vcpu_insn_exec_cb(qemu_plugin_tb_get_insn(tb, b->fetches[k].insn), on_fetch,
						       QEMU_PLUGIN_CB_NO_REGS, &b->fetches[k]);
	for (size_t i = 0; i < n; i++) /* QEMU calls back only from instructions that access memory */
		qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), on_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, (void *)(uintptr_t)b->id);
}

static bool ccount_zero(const struct ccount *c)
{
	static const struct ccount zero;
	return memcmp(c, &zero, sizeof zero) == 0;
}

/*
 * Keeps only the blocks s counted (88 bytes each) and frees its chunks (352 KiB each), so a
 * program of many short threads holds what each ran, not what its block ids span.
 */
static void pack_counts(struct sim *s)
{
	uint32_t n = 0;
	for (unsigned c = 0; c < MAX_CHUNKS; c++)
		for (uint32_t i = 0; s->chunks[c] && i < CHUNK; i++)
			n += !ccount_zero(&s->chunks[c][i]);
	s->packed = xcalloc(n ? n : 1, sizeof *s->packed);
	for (unsigned c = 0; c < MAX_CHUNKS; c++) {
		for (uint32_t i = 0; s->chunks[c] && i < CHUNK; i++)
			if (!ccount_zero(&s->chunks[c][i]))
				s->packed[s->n_packed++] = (struct packed){c << CHUNK_BITS | i, s->chunks[c][i]};
		free(s->chunks[c]);
		s->chunks[c] = NULL;
	}
}

/* Under lock, at the end: s's counts for block id, live or packed (zero: none). */
static struct ccount counts_for(const struct sim *s, uint32_t id)
{
	struct ccount none = {0};
	if (!s)
		return none;
	if (s->chunks[id >> CHUNK_BITS])
		return s->chunks[id >> CHUNK_BITS][id & (CHUNK - 1)];
	uint32_t lo = 0, hi = s->n_packed;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (s->packed[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n_packed && s->packed[lo].id == id ? s->packed[lo].c : none;
}

/* Runs on the ending thread, under lock: its caches are freed and its counts packed. */
static void sim_exit(unsigned int vcpu)
{
	struct sim *s = vcpu < MAX_VCPUS ? sims[vcpu] : NULL;
	if (!s)
		return;
	sims[vcpu] = NULL;
	hier_free(&s->h);
	pack_counts(s);
	s->next_done = sims_done;
	sims_done = s;
}

static void sim_drop(struct sim *s)
{
	hier_free(&s->h);
	for (unsigned c = 0; c < MAX_CHUNKS; c++)
		free(s->chunks[c]);
	free(s->packed);
	free(s);
}

/* A forked child starts with cold caches and no counts (it counts only what it runs). */
static void sims_after_fork(void)
{
	for (unsigned v = 0; v < MAX_VCPUS; v++) {
		if (sims[v])
			sim_drop(sims[v]);
		sims[v] = NULL;
	}
	while (sims_done) {
		struct sim *s = sims_done;
		sims_done = s->next_done;
		sim_drop(s);
	}
}

/* Under lock, at the end: the simulation of thread tid (NULL: it ran nothing simulated). */
static struct sim *sim_for(pid_t tid)
{
	for (unsigned v = 0; v < MAX_VCPUS; v++)
		if (sims[v] && sims[v]->tid == tid)
			return sims[v];
	for (struct sim *s = sims_done; s; s = s->next_done)
		if (s->tid == tid)
			return s;
	return NULL;
}

/* Reads the plugin argument "l1i:SIZE:WAYS:LINE:REPL:wa|nwa;l1d:…;l2:…[;l3:…]" (sizes in bytes). */
static bool parse_caches(const char *arg)
{
	static const char *const names[] = {"l1i", "l1d", "l2", "l3"};
	n_cspecs = 0;
	while (*arg && n_cspecs < 4) {
		size_t len = strcspn(arg, ";");
		if (!parse_cachespec(arg, len, &cspecs[n_cspecs]) || strcmp(cspecs[n_cspecs].name, names[n_cspecs]) != 0)
			return false;
		n_cspecs++;
		arg += len + (arg[len] == ';');
	}
	return *arg == 0 && n_cspecs >= 3;
}

/* ---- x86: instructions QEMU lists but does not run, and runs it does not count ---- */

/*
 * Two habits of QEMU 7.2's x86 translator would make the counts differ from what
 * `-singlestep -d exec,nochain` counts, the project's reference:
 *
 * Cut instructions. After its first instruction a block never reads code from another page:
 * an instruction that would cross the end of the block's first page is abandoned half-read
 * and starts the next block instead. The plugin API still lists it as the block's last
 * instruction, with the bytes read so far, although the block does not run it. So a block
 * whose last instruction starts within 15 bytes (the longest x86 instruction) of that page's
 * end counts its last instruction on counters of its own (the tail), through an instruction
 * callback that QEMU drops with the abandoned instruction: a tail that never ran was cut,
 * and the block is written without it.
 *
 * REP string instructions. Each iteration of a REP MOVS/STOS/LODS/CMPS/SCAS ends its block
 * and jumps back to the instruction, so an instruction that iterates k times runs as k block
 * executions, and -singlestep counts those. Without -singlestep (or -d nochain) QEMU also
 * jumps back after the last iteration, to find RCX zero and go on: one run of the block that
 * starts with the instruction (and is only it) more, doing no iteration. So such a block
 * counts its memory accesses too (inline, like its runs: a memset is millions of them), and
 * stands for its iterations: accesses ÷ accesses per iteration (MOVS and CMPS 2, the others
 * 1). A jump straight to a REP instruction with RCX zero (compilers jump to the code that
 * sets RCX up) would be one run this leaves out.
 */

/* A block's last instruction may be one QEMU abandoned at its first page's end (x86, 4 KiB pages). */
static bool may_be_cut(const struct block *b)
{
	uint64_t page_end = (b->pc | 0xfff) + 1;
	return b->n >= 2 && b->insns[b->n - 1].addr + 15 >= page_end;
}

/* The memory accesses per iteration of a REP string instruction; 0 for any other instruction. */
static uint8_t rep_accesses(const struct insn *in)
{
	bool rep = false;
	size_t i = 0;
	for (; i < in->size; i++) { /* legacy prefixes */
		uint8_t p = in->bytes[i];
		if (p == 0xf2 || p == 0xf3)
			rep = true;
		else if (p != 0xf0 && p != 0x66 && p != 0x67 && p != 0x2e && p != 0x36 && p != 0x3e && p != 0x26 &&
			 p != 0x64 && p != 0x65)
			break;
	}
	if (i < in->size && (in->bytes[i] & 0xf0) == 0x40)
		i++; /* REX */
	if (!rep || i >= in->size)
		return 0;
	switch (in->bytes[i]) {
	case 0xa4: case 0xa5: case 0xa6: case 0xa7: /* MOVS: a load and a store; CMPS: two loads */
		return 2;
	case 0xaa: case 0xab: case 0xac: case 0xad: case 0xae: case 0xaf: /* STOS LODS SCAS */
	case 0x6c: case 0x6d: case 0x6e: case 0x6f: /* INS OUTS (a user-mode guest faults) */
		return 1;
	}
	return 0;
}

/* The blocks that are one REP string instruction; a fixed table, read without the lock. */
#define MAX_REPS 65536
static struct block *rep_blocks[MAX_REPS]; /* beyond it, REP blocks go uncorrected */
static uint32_t n_reps;

/*
 * The runs t's counters hold for the REP blocks beyond their iterations, since base (NULL:
 * since zero), to take from its instruction count.
 */
static uint64_t rep_excess_since(const struct thread *t, uint64_t *const *base)
{
	uint64_t excess = 0;
	uint32_t n = __atomic_load_n(&n_reps, __ATOMIC_ACQUIRE);
	for (uint32_t i = 0; i < n; i++) {
		const struct block *b = rep_blocks[i];
		uint64_t runs = count_since(t, base, b->id), accesses = count_since(t, base, b->acc->id);
		uint64_t iterations = accesses / b->per_iteration;
		excess += runs > iterations ? runs - iterations : 0;
	}
	return excess;
}

/* Multi mode: a REP block's memory access, counted per thread; udata: its counter's id. */
static void on_access(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	(void)info, (void)vaddr;
	uint32_t id = (uint32_t)(uintptr_t)udata;
	struct thread *t = vcpu < MAX_VCPUS ? vcpus[vcpu] : NULL;
	if (__builtin_expect(t == NULL, 0))
		t = thread_start(vcpu);
	chunk(t, id)[id & (CHUNK - 1)]++;
}

/* ---- threads ---- */

static void on_reset(qemu_plugin_id_t id);

/* Runs in the creating thread while the new one waits to start (QEMU 7.2 user mode). */
static void on_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	pthread_mutex_lock(&lock);
	bool go = ++live > 1 && !multi && !switching;
	bool request = go && !reset_requested;
	if (go) {
		switching = reset_requested = true;
		pending = xcalloc(1, sizeof *pending);
		pending_vcpu = vcpu;
		pending_ended = false;
		for (unsigned c = 0; c < MAX_CHUNKS; c++) {
			if (first->chunks[c]) {
				before[c] = xcalloc(CHUNK, sizeof(uint64_t));
				memcpy(before[c], first->chunks[c], CHUNK * sizeof(uint64_t));
			}
		}
	}
	pthread_mutex_unlock(&lock);
	if (request)
		qemu_plugin_reset(id, on_reset);
}

static void keep_done(struct thread *t)
{
	t->next_done = done;
	done = t;
}

/* Runs on the ending thread: keep its counts, free its vCPU index for reuse. */
static void on_vcpu_exit(qemu_plugin_id_t id, unsigned int vcpu)
{
	(void)id;
	pthread_mutex_lock(&lock);
	live--;
	sim_exit(vcpu);
	if (vcpu < MAX_VCPUS && vcpus[vcpu]) {
		if (vcpus[vcpu] != first)
			keep_done(vcpus[vcpu]);
		vcpus[vcpu] = NULL;
	} else if (pending && pending_vcpu == vcpu) {
		/* It ran no block since the switch (or the switch is still to come). */
		pending->tid = gettid_();
		if (switching) {
			pending_ended = true;
		} else {
			keep_done(pending);
			pending = NULL;
		}
	}
	pthread_mutex_unlock(&lock);
}

/* Moves what first's counters gained since the pending thread was created to that thread. */
static void settle_pending(void)
{
	for (unsigned c = 0; c < MAX_CHUNKS; c++) {
		uint64_t *now = first->chunks[c];
		for (uint32_t i = 0; now && pending && i < CHUNK; i++) {
			uint64_t was = before[c] ? before[c][i] : 0;
			if (now[i] != was) {
				uint64_t moved = (now[i] - was) * lens[c << CHUNK_BITS | i];
				chunk(pending, c << CHUNK_BITS)[i] = now[i] - was;
				now[i] = was;
				pending->insns += moved;
				if (insns_inline)
					first->insns -= moved;
			}
		}
		free(before[c]);
		before[c] = NULL;
	}
	if (pending && pending_ended) {
		keep_done(pending);
		pending = NULL;
	}
}

/* ---- images: the file each block's code comes from ---- */

/*
 * In user mode QEMU maps a guest file's code with a host mmap of that very file, at the guest
 * address plus guest_base. So the host address of a block's first instruction
 * (qemu_plugin_insn_haddr), looked up in the host's /proc/self/maps, names the file and the
 * file offset of the code, with no help from the guest. The table is read again when an
 * address is not in it, and after a system call that maps or unmaps guest memory.
 */
struct image {
	uint32_t id;
	uint64_t base; /* guest address of file offset 0 (no file: the region's start) */
	char *path;    /* absolute path, or a label ("[anon]", "[heap]") for code with no file */
	bool used;     /* a block this process ran is in it */
	struct image *next;
};

struct mapping {
	uintptr_t lo, hi; /* host addresses */
	uint64_t offset;
	char *path; /* "" for an anonymous mapping */
};

static struct image *images;
static uint32_t n_images;
static struct mapping *maps;
static size_t n_maps, cap_maps;
static bool maps_stale = true; /* under lock; set by system calls that change mappings */

static void read_maps(void)
{
	for (size_t i = 0; i < n_maps; i++)
		free(maps[i].path);
	n_maps = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f)
		return;
	char line[4096 + 128];
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi, off, inode;
		unsigned dev_major, dev_minor;
		char perms[8];
		int at = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %x:%x %lu %n", &lo, &hi, perms, &off, &dev_major, &dev_minor, &inode,
			   &at) < 7 ||
		    at == 0)
			continue;
		char *path = line + at;
		path[strcspn(path, "\n")] = 0;
		if (n_maps == cap_maps) {
			cap_maps = cap_maps ? 2 * cap_maps : 256;
			maps = realloc(maps, cap_maps * sizeof *maps);
			if (!maps)
				die("out of memory");
		}
		maps[n_maps++] = (struct mapping){lo, hi, off, strdup(path)};
	}
	fclose(f);
}

static struct mapping *mapping_at(uintptr_t haddr)
{
	size_t lo = 0, hi = n_maps; /* the kernel lists mappings in address order */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (haddr < maps[mid].lo)
			hi = mid;
		else if (haddr >= maps[mid].hi)
			lo = mid + 1;
		else
			return &maps[mid];
	}
	return NULL;
}

static struct image *image_for(const char *path, uint64_t base)
{
	for (struct image *im = images; im; im = im->next)
		if (im->base == base && strcmp(im->path, path) == 0)
			return im;
	struct image *im = xcalloc(1, sizeof *im);
	im->id = n_images++;
	im->base = base;
	im->path = strdup(path);
	im->next = images;
	images = im;
	return im;
}

/* Under lock. vaddr is the guest address whose code is at host address haddr. */
static struct image *image_at(uintptr_t haddr, uint64_t vaddr)
{
	if (!haddr)
		return NULL;
	struct mapping *m = maps_stale ? NULL : mapping_at(haddr);
	if (!m) {
		read_maps();
		maps_stale = false;
		m = mapping_at(haddr);
	}
	if (!m)
		return NULL;
	uint64_t guest_lo = vaddr - (uint64_t)(haddr - m->lo);
	if (m->path[0] == '/')
		return image_for(m->path, guest_lo - m->offset);
	return image_for(m->path[0] ? m->path : "[anon]", guest_lo);
}

/* ---- system calls ---- */

/*
 * The guests the plugin knows, with the numbers of their system calls that it watches, from
 * the kernel's UAPI headers (asm/unistd*.h; AArch64 uses the generic table):
 *   maps:   mmap, munmap, mprotect, mremap and, where the ABI has it, mmap2: the calls that
 *           map or unmap guest memory, after which the table of mappings is read again;
 *   clones: clone, clone3, fork and vfork where the ABI has them: the calls that return the
 *           id of the thread or process they created.
 * Both lists end with -1. Any other target (i386, riscv64, …) is refused at install: its
 * instruction set has no catalogue and its numbers are not here.
 */
struct guest {
	const char *target; /* QEMU's target name, for the process line */
	const char *isa;    /* for block lines; "ARM/Thumb" lets the reader decide (7.2 plugins cannot read CPSR) */
	int64_t maps[6];
	int64_t clones[5];
	bool x86; /* variable-length instructions: see "x86: instructions QEMU lists but does not run" */
};

static const struct guest guests[] = {
	{"arm", "ARM/Thumb", {90, 91, 125, 163, 192, -1}, {120, 435, 2, 190, -1}, false}, /* EABI */
	{"armeb", "ARM/Thumb", {90, 91, 125, 163, 192, -1}, {120, 435, 2, 190, -1}, false},
	{"mipsel", "MIPS", {4090, 4091, 4125, 4167, 4210, -1}, {4120, 4435, 4002, -1}, false}, /* o32 */
	{"mips", "MIPS", {4090, 4091, 4125, 4167, 4210, -1}, {4120, 4435, 4002, -1}, false},
	{"aarch64", "AArch64", {222, 215, 226, 216, -1}, {220, 435, -1}, false}, /* asm-generic */
	{"x86_64", "x86-64", {9, 11, 10, 25, -1}, {56, 435, 57, 58, -1}, true},
};

static bool listed(const int64_t *list, int64_t nr)
{
	for (; *list >= 0; list++)
		if (*list == nr)
			return true;
	return false;
}

static bool changes_mappings(int64_t nr) { return listed(guest->maps, nr); }

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Under lock: the instructions t's counters gained since base (NULL: since zero),
 * Σ executions × block length, as the threads' insns fields count them: the runs of x86 REP
 * blocks that did no iteration are in (insns_of takes them out).
 */
static uint64_t scan_insns_since(const struct thread *t, uint64_t *const *base)
{
	uint64_t sum = 0;
	for (uint32_t c = 0; (c << CHUNK_BITS) < n_blocks; c++) {
		const uint64_t *k = t->chunks[c];
		const uint64_t *b = base ? base[c] : NULL;
		uint32_t hi = n_blocks - (c << CHUNK_BITS);
		const uint16_t *l = lens + (c << CHUNK_BITS);
		for (uint32_t i = 0; k && i < CHUNK && i < hi; i++)
			sum += (k[i] - (b ? b[i] : 0)) * l[i];
	}
	return sum;
}

static uint64_t scan_insns(const struct thread *t) { return scan_insns_since(t, NULL); }

/* Under lock: the flush came (on_reset) or will not come (the process ends); count per thread. */
static void finish_switch(void)
{
	settle_pending();
	if (!insns_inline)
		first->insns = scan_insns(first);
	multi = true;
	switching = false;
}

/*
 * The instructions the thread on vcpu has run so far. In single mode without insns_inline it is
 * a scan, timed: when scans take more than 2% of the run (and 20 ms), it asks for insns_inline.
 */
static uint64_t insns_of(unsigned int vcpu, struct thread **tp)
{
	if (multi) {
		struct thread *t = vcpu < MAX_VCPUS ? vcpus[vcpu] : NULL;
		*tp = t ? t : thread_start(vcpu);
		return __atomic_load_n(&(*tp)->insns, __ATOMIC_RELAXED) - rep_excess_since(*tp, NULL);
	}
	pthread_mutex_lock(&lock);
	struct thread *t = pending && pending_vcpu == vcpu ? pending : first;
	uint64_t n;
	bool request = false;
	if (t == pending) {
		pending->tid = gettid_(); /* it may end the process before the creating thread learns it */
		/* switching: all first gained since is the new thread's */
		n = scan_insns_since(first, before) - rep_excess_since(first, before);
	} else if (insns_inline) {
		n = first->insns - rep_excess_since(first, NULL);
	} else {
		uint64_t t0 = now_ns();
		n = scan_insns(first) - rep_excess_since(first, NULL);
		uint64_t t1 = now_ns();
		scan_ns += t1 - t0;
		if (!want_inline && scan_ns > 20000000u && scan_ns * 50 > t1 - start_ns) {
			want_inline = true;
			request = !reset_requested;
			reset_requested = true;
		}
	}
	pthread_mutex_unlock(&lock);
	if (request)
		qemu_plugin_reset(plugin_id, on_reset);
	*tp = t;
	return n;
}

/* Runs on the calling thread, before QEMU carries the call out. */
static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t nr, uint64_t a1, uint64_t a2, uint64_t a3,
		       uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
	(void)id, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7, (void)a8;
	struct thread *t;
	uint64_t now = insns_of(vcpu, &t);
	/* A new thread's first calls, before the switch to per-thread counting, may see first's count. */
	uint64_t since = now >= t->insns_at_syscall ? now - t->insns_at_syscall : 0;
	t->insns_at_syscall = now;
	struct sysent *e = NULL;
	for (size_t i = 0; i < t->n_sys && !e; i++)
		if (t->sys[i].nr == nr)
			e = &t->sys[i];
	if (!e) {
		if (t->n_sys == t->cap_sys) {
			t->cap_sys = t->cap_sys ? 2 * t->cap_sys : 32;
			t->sys = realloc(t->sys, t->cap_sys * sizeof *t->sys);
			if (!t->sys)
				die("out of memory");
		}
		e = &t->sys[t->n_sys++];
		*e = (struct sysent){nr, 0, 0};
	}
	e->count++;
	e->insns += since;
	if (changes_mappings(nr)) {
		pthread_mutex_lock(&lock);
		maps_stale = true;
		pthread_mutex_unlock(&lock);
	}
}

/*
 * Runs on the calling thread after the call. The clone that created the pending thread
 * returns its thread id in the creating thread (the only other one running until the flush).
 */
static void on_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu, int64_t nr, int64_t ret)
{
	(void)id;
	if (ret <= 0 || !listed(guest->clones, nr))
		return;
	pthread_mutex_lock(&lock);
	if (pending && !pending->tid && vcpu != pending_vcpu)
		pending->tid = (pid_t)ret;
	pthread_mutex_unlock(&lock);
}

/* ---- translation: record the catalogue ---- */

static bool same_code(const struct block *b, const struct qemu_plugin_tb *tb, size_t n)
{
	if (b->n != n)
		return false;
	for (size_t i = 0; i < n; i++) {
		const struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		size_t sz = qemu_plugin_insn_size(in);
		if (sz != b->insns[i].size || memcmp(qemu_plugin_insn_data(in), b->insns[i].bytes, sz) != 0)
			return false;
	}
	return true;
}

/* Under lock: gives b the next id, with len instructions for scan_insns. */
static void add_block(struct block *b, size_t len)
{
	if (n_blocks >= (uint32_t)MAX_CHUNKS * CHUNK)
		die("too many distinct blocks");
	if (n_blocks == cap_blocks) {
		cap_blocks = cap_blocks ? 2 * cap_blocks : 4096;
		blocks = realloc(blocks, cap_blocks * sizeof *blocks);
		lens = realloc(lens, cap_blocks * sizeof *lens);
		if (!blocks || !lens)
			die("out of memory");
	}
	b->id = n_blocks;
	lens[n_blocks] = (uint16_t)len;
	blocks[n_blocks++] = b;
}

/* Under lock: an entry of blocks[] that only holds counters, each run standing for len instructions. */
static struct block *add_shadow(size_t len)
{
	struct block *s = xcalloc(1, sizeof *s);
	s->shadow = true;
	add_block(s, len);
	return s;
}

/* Under lock: the catalogue entry of a block QEMU translated for the first time. */
static struct block *new_block(const struct qemu_plugin_tb *tb, uint64_t pc, size_t n)
{
	struct block *b = xcalloc(1, sizeof *b + n * sizeof(struct insn));
	b->pc = pc;
	b->n = n;
	for (size_t i = 0; i < n; i++) {
		const struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		struct insn *o = &b->insns[i];
		size_t sz = qemu_plugin_insn_size(in);
		o->addr = qemu_plugin_insn_vaddr(in);
		o->size = (uint8_t)(sz < sizeof o->bytes ? sz : sizeof o->bytes);
		memcpy(o->bytes, qemu_plugin_insn_data(in), o->size);
		o->disas = qemu_plugin_insn_disas(in);
		if (i == 0)
			b->symbol = qemu_plugin_insn_symbol(in);
	}
	b->image = image_at((uintptr_t)qemu_plugin_insn_haddr(qemu_plugin_tb_get_insn(tb, 0)), pc);
	bool cut = guest->x86 && may_be_cut(b);
	add_block(b, cut ? n - 1 : n);
	if (cut)
		b->tail = add_shadow(1);
	if (n_cspecs)
		plan_fetches(b);
	uint8_t per_iteration = guest->x86 && n == 1 ? rep_accesses(&b->insns[0]) : 0;
	if (per_iteration && n_reps < MAX_REPS) {
		b->acc = add_shadow(0);
		b->per_iteration = per_iteration;
		rep_blocks[n_reps] = b;
		__atomic_store_n(&n_reps, n_reps + 1, __ATOMIC_RELEASE);
	}
	return b;
}

/*
 * QEMU retranslates code after a flush, and may translate one pc as blocks of different
 * lengths (e.g. a one-instruction re-execution): identical code shares one id, different
 * code gets its own, so executions × length stays exact.
 */
static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	uint64_t pc = qemu_plugin_tb_vaddr(tb);
	size_t n = qemu_plugin_tb_n_insns(tb);
	unsigned h = (unsigned)((pc >> 1) ^ (pc >> 17)) & (HASH_SIZE - 1);

	pthread_mutex_lock(&lock);
	struct block *b = by_pc[h];
	while (b && !(b->pc == pc && same_code(b, tb, n)))
		b = b->next_same_pc;
	if (!b) {
		b = new_block(tb, pc, n);
		b->next_same_pc = by_pc[h];
		by_pc[h] = b;
	}
	bool inline_add = !multi, add_insns = insns_inline;
	uint64_t *counter = inline_add ? &chunk(first, b->id)[b->id & (CHUNK - 1)] : NULL;
	uint64_t *tail_counter = inline_add && b->tail ? &chunk(first, b->tail->id)[b->tail->id & (CHUNK - 1)] : NULL;
	uint64_t *acc_counter = inline_add && b->acc ? &chunk(first, b->acc->id)[b->acc->id & (CHUNK - 1)] : NULL;
	pthread_mutex_unlock(&lock);
	size_t body = b->tail ? n - 1 : n; /* the instructions the block's own counter stands for */
	struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, n - 1);
	if (inline_add) {
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, counter, 1);
		if (add_insns)
			qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &first->insns, body);
		if (b->tail) {
			qemu_plugin_register_vcpu_insn_exec_inline(last, QEMU_PLUGIN_INLINE_ADD_U64, tail_counter, 1);
			if (add_insns)
				qemu_plugin_register_vcpu_insn_exec_inline(last, QEMU_PLUGIN_INLINE_ADD_U64, &first->insns,
									   1);
		}
		if (b->acc) /* loads and stores: QEMU 7.2 filters the kinds unreliably */
			qemu_plugin_register_vcpu_mem_inline(last, QEMU_PLUGIN_MEM_RW, QEMU_PLUGIN_INLINE_ADD_U64,
							     acc_counter, 1);
	} else {
		uintptr_t udata = (uintptr_t)b->id | (uintptr_t)body << 32;
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec, QEMU_PLUGIN_CB_NO_REGS, (void *)udata);
		if (b->tail)
			qemu_plugin_register_vcpu_insn_exec_cb(last, on_exec, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)((uintptr_t)b->tail->id | (uintptr_t)1 << 32));
		if (b->acc)
			qemu_plugin_register_vcpu_mem_cb(last, on_access, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
							 (void *)(uintptr_t)b->acc->id);
	}
	if (n_cspecs)
		instrument_caches(tb, b, n);
}

/* ---- output ---- */

/* The format is line-oriented: control characters in free text become spaces. */
static void put_text(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

/* t's runs of block b: x86 REP blocks stand for their iterations (see "x86: …"). */
static uint64_t runs_of(const struct thread *t, const struct block *b)
{
	uint64_t runs = count_since(t, NULL, b->id);
	if (b->acc) {
		uint64_t iterations = count_since(t, NULL, b->acc->id) / b->per_iteration;
		runs = iterations < runs ? iterations : runs;
	}
	return runs;
}

/* Writes a block with its first n instructions (the last one left out when it was cut). */
static void write_block(FILE *f, const struct block *b, size_t n)
{
	fprintf(f, "block %" PRIu32 " 0x%" PRIx64 " %s %zu ", b->id, b->pc, guest->isa, n);
	if (b->image)
		fprintf(f, "%" PRIu32 " ", b->image->id);
	else
		fputs("- ", f);
	put_text(f, b->symbol);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		const struct insn *in = &b->insns[i];
		fprintf(f, "insn 0x%" PRIx64 " ", in->addr);
		if (in->size == 0)
			fputc('-', f);
		for (size_t k = 0; k < in->size; k++)
			fprintf(f, "%02x", in->bytes[k]);
		/* "mnemonic operands": the text splits at its first blank, as in -d in_asm */
		const char *d = in->disas ? in->disas : "";
		d += strspn(d, " \t");
		size_t m = strcspn(d, " \t");
		if (m == 0)
			fputs(" ?", f);
		else
			fprintf(f, " %.*s", (int)m, d);
		d += m;
		d += strspn(d, " \t");
		if (*d) {
			fputc(' ', f);
			put_text(f, d);
		}
		fputc('\n', f);
	}
}

/*
 * The misses line of thread t for block b (written with n instructions), after its exec
 * line; none when t did not run b. Fetch misses are at most one per fetch: only a thread
 * created in the moment before per-thread counting (see struct thread) can have run fetches
 * its exec line does not show, and those misses are left out.
 */
static void write_misses(FILE *f, const struct thread *t, const struct sim *s, const struct block *b, size_t n)
{
	uint64_t runs = runs_of(t, b);
	if (!runs)
		return;
	struct ccount c = counts_for(s, b->id);
	uint64_t bound = runs * n;
	fprintf(f, "misses %d", (int)t->tid);
	const uint64_t *groups[3] = {c.fm, c.rm, c.wm};
	const uint64_t *accesses[3] = {NULL, &c.r, &c.w};
	for (int g = 0; g < 3; g++) {
		if (accesses[g])
			fprintf(f, " %" PRIu64, *accesses[g]);
		for (uint32_t k = 0; k < 3; k++) {
			if (k >= n_cspecs - 1) { /* a level the geometry lacks */
				fputs(" -", f);
				continue;
			}
			uint64_t m = groups[g][k];
			if (g == 0) /* see above */
				bound = m = m < bound ? m : bound;
			fprintf(f, " %" PRIu64, m);
		}
	}
	fputc('\n', f);
}

static void write_profile(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (written)
		return;
	written = true;
	char path[4096];
	snprintf(path, sizeof path, "%s/bbprofile-%d.txt", outdir, (int)pid);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "bbcount plugin: %s: %s\n", path, strerror(errno));
		return;
	}
	static char buf[1 << 16];
	setvbuf(f, buf, _IOFBF, sizeof buf);

	pthread_mutex_lock(&lock);
	/*
	 * The process ends before QEMU flushed: the new thread ended it at once, or crashed (then
	 * this runs on it, as only it and the creating thread, which runs no block, exist).
	 */
	if (switching && pending && !pending->tid && gettid_() != first->tid)
		pending->tid = gettid_();
	if (switching && pending && pending->tid)
		finish_switch();
	size_t nt = 0, cap = 2 + MAX_VCPUS;
	for (struct thread *t = done; t; t = t->next_done)
		cap++;
	struct thread **all = xcalloc(cap, sizeof *all);
	all[nt++] = first;
	for (unsigned v = 0; v < MAX_VCPUS; v++)
		if (vcpus[v] && vcpus[v] != first)
			all[nt++] = vcpus[v];
	for (struct thread *t = done; t; t = t->next_done)
		all[nt++] = t;
	if (pending && pending->tid && !switching)
		all[nt++] = pending; /* alive, and ran no block since the flush */

	fprintf(f, "androprof-bbprofile 3\n");
	fprintf(f, "process %d %d %s 0x%" PRIx64 " ", (int)pid, (int)ppid, guest->target, qemu_plugin_start_code());
	put_text(f, qemu_plugin_path_to_binary());
	fputc('\n', f);
	for (size_t k = 0; k < nt; k++)
		fprintf(f, "thread %d\n", (int)all[k]->tid);
	for (uint32_t k = 0; k < n_cspecs; k++)
		fprintf(f, "cache %s %" PRIu64 " %" PRIu32 " %" PRIu32 " %s %s\n", cspecs[k].name, cspecs[k].size,
			cspecs[k].ways, cspecs[k].line, repl_names[cspecs[k].repl], cspecs[k].wa ? "wa" : "nwa");
	struct sim **simof = xcalloc(nt, sizeof *simof); /* each thread's simulation, if any */
	for (size_t k = 0; n_cspecs && k < nt; k++)
		simof[k] = sim_for(all[k]->tid);
	/* Only blocks this process ran (a forked child inherits the parent's whole catalogue),
	 * and only the images they are in. */
	for (struct image *im = images; im; im = im->next)
		im->used = false;
	for (uint32_t i = 0; i < n_blocks; i++)
		for (size_t k = 0; k < nt && blocks[i]->image && !blocks[i]->image->used; k++)
			blocks[i]->image->used = runs_of(all[k], blocks[i]) != 0;
	for (struct image *im = images; im; im = im->next) {
		if (!im->used)
			continue;
		fprintf(f, "image %" PRIu32 " 0x%" PRIx64 " ", im->id, im->base);
		put_text(f, im->path);
		fputc('\n', f);
	}
	for (uint32_t i = 0; i < n_blocks; i++) {
		const struct block *b = blocks[i];
		if (b->shadow)
			continue; /* counted with its block */
		size_t n = b->n;
		if (b->tail) {
			bool ran = false;
			for (size_t k = 0; k < nt && !ran; k++)
				ran = count_since(all[k], NULL, b->tail->id) != 0;
			n -= !ran; /* QEMU abandoned it half-read: the block never runs it */
		}
		bool described = false;
		for (size_t k = 0; k < nt; k++) {
			uint64_t c = runs_of(all[k], b);
			if (!c)
				continue;
			if (!described)
				write_block(f, b, n);
			described = true;
			fprintf(f, "exec %d %" PRIu64 "\n", (int)all[k]->tid, c);
		}
		for (size_t k = 0; n_cspecs && described && k < nt; k++)
			write_misses(f, all[k], simof[k], b, n);
	}
	for (size_t k = 0; k < nt; k++)
		for (size_t i = 0; i < all[k]->n_sys; i++)
			fprintf(f, "syscall %d %" PRId64 " %" PRIu64 " %" PRIu64 "\n", (int)all[k]->tid, all[k]->sys[i].nr,
				all[k]->sys[i].count, all[k]->sys[i].insns);
	fprintf(f, "end\n");
	pthread_mutex_unlock(&lock);
	free(all);
	free(simof);
	if (fclose(f) != 0)
		fprintf(stderr, "bbcount plugin: %s: %s\n", path, strerror(errno));
}

/* ---- registration, reset, fork ---- */

static void register_all(qemu_plugin_id_t id)
{
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
	qemu_plugin_register_vcpu_exit_cb(id, on_vcpu_exit);
	qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
	qemu_plugin_register_vcpu_syscall_ret_cb(id, on_syscall_ret);
	qemu_plugin_register_atexit_cb(id, write_profile, NULL);
}

/*
 * The code cache is empty and every vCPU stopped: blocks translated from here on count per
 * thread (switching), or add their length to first->insns (want_inline).
 */
static void on_reset(qemu_plugin_id_t id)
{
	pthread_mutex_lock(&lock);
	reset_requested = false;
	if (switching) {
		finish_switch();
	} else if (want_inline && !multi) {
		first->insns = scan_insns(first);
		insns_inline = true;
	}
	want_inline = false;
	pthread_mutex_unlock(&lock);
	register_all(id);
}

static void before_fork(void) { pthread_mutex_lock(&lock); }
static void after_fork_parent(void) { pthread_mutex_unlock(&lock); }

static void free_thread(struct thread *t)
{
	for (unsigned c = 0; c < MAX_CHUNKS; c++)
		free(t->chunks[c]);
	free(t->sys);
	free(t);
}

/*
 * The child keeps the catalogue (its code cache still holds the parent's blocks, whose inline
 * adds point into first's counters) but not the parent's counts: it is a new process with
 * one thread, and writes its own file at exit.
 */
static void after_fork_child(void)
{
	ppid = pid;
	pid = getpid();
	for (unsigned v = 0; v < MAX_VCPUS; v++) {
		if (vcpus[v] && vcpus[v] != first)
			free_thread(vcpus[v]);
		vcpus[v] = NULL; /* the next execution records the child's thread id */
	}
	if (pending) {
		free_thread(pending); /* the thread being created is not in the child */
		pending = NULL;
	}
	for (unsigned c = 0; c < MAX_CHUNKS; c++) {
		free(before[c]);
		before[c] = NULL;
	}
	while (done) {
		struct thread *t = done;
		done = t->next_done;
		free_thread(t);
	}
	sims_after_fork();
	for (unsigned c = 0; c < MAX_CHUNKS; c++)
		if (first->chunks[c])
			memset(first->chunks[c], 0, CHUNK * sizeof(uint64_t));
	first->tid = pid;
	first->insns = first->insns_at_syscall = 0;
	first->n_sys = 0;
	live = 1;
	written = false;
	pthread_mutex_unlock(&lock);
}

/* ---- a guest killed by a signal ---- */

/*
 * QEMU 7.2 ends a guest that dies of a signal by resetting the host signal to its default
 * and calling kill(getpid(), sig), without running the plugins' exit callbacks. The counts
 * up to the crash are worth keeping, so the plugin redirects QEMU's own imported kill()
 * (its GOT slot) to write the profile first. Anything unexpected leaves QEMU untouched:
 * the only loss is the crashed process's file.
 */
static int (*real_kill)(pid_t, int);

static int kill_hook(pid_t p, int sig)
{
	if (p == getpid() && sig != 0)
		write_profile(0, NULL);
	return real_kill(p, sig);
}

static int find_kill_slot(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	void ***slot = data;
	ElfW(Dyn) *dyn = NULL;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	if (!dyn)
		return 1;
	ElfW(Rela) *jmprel = NULL;
	size_t relsz = 0;
	ElfW(Sym) *symtab = NULL;
	const char *strtab = NULL;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		switch (dyn->d_tag) { /* already relocated to run-time addresses by ld.so */
		case DT_JMPREL: jmprel = (ElfW(Rela) *)dyn->d_un.d_ptr; break;
		case DT_PLTRELSZ: relsz = dyn->d_un.d_val; break;
		case DT_SYMTAB: symtab = (ElfW(Sym) *)dyn->d_un.d_ptr; break;
		case DT_STRTAB: strtab = (const char *)dyn->d_un.d_ptr; break;
		}
	}
	for (size_t i = 0; jmprel && symtab && strtab && i < relsz / sizeof *jmprel; i++)
		if (strcmp(strtab + symtab[ELF64_R_SYM(jmprel[i].r_info)].st_name, "kill") == 0)
			*slot = (void **)(info->dlpi_addr + jmprel[i].r_offset);
	return 1; /* the first object is the QEMU executable itself */
}

static void hook_kill(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	void **slot = NULL;
	dl_iterate_phdr(find_kill_slot, &slot);
	if (!slot)
		return;
	long pg = sysconf(_SC_PAGESIZE);
	void *page = (void *)((uintptr_t)slot & ~(uintptr_t)(pg - 1));
	if (mprotect(page, (size_t)pg, PROT_READ | PROT_WRITE) != 0)
		return;
	real_kill = (int (*)(pid_t, int))*slot;
	*slot = (void *)kill_hook;
	mprotect(page, (size_t)pg, PROT_READ); /* the GOT is read-only after relocation (RELRO) */
#endif
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "outdir=", 7) == 0) {
			outdir = argv[i] + 7;
		} else if (strncmp(argv[i], "cache=", 6) == 0) {
			if (!parse_caches(argv[i] + 6)) {
				fprintf(stderr,
					"bbcount plugin: bad cache geometry %s (want "
					"cache=l1i:SIZE:WAYS:LINE:REPL:wa|nwa;l1d:…;l2:…[;l3:…])\n",
					argv[i] + 6);
				return -1;
			}
		} else {
			fprintf(stderr, "bbcount plugin: unknown argument %s (want outdir=DIR [cache=…])\n", argv[i]);
			return -1;
		}
	}
	if (!outdir || !*outdir) {
		fprintf(stderr, "bbcount plugin: missing outdir=DIR\n");
		return -1;
	}
	if (info->system_emulation) {
		fprintf(stderr, "bbcount plugin: user-mode emulation only (qemu-arm, qemu-aarch64, ...)\n");
		return -1;
	}
	for (size_t i = 0; i < sizeof guests / sizeof guests[0] && !guest; i++)
		if (info->target_name && strcmp(info->target_name, guests[i].target) == 0)
			guest = &guests[i];
	if (!guest) {
		fprintf(stderr,
			"bbcount plugin: unsupported guest %s: androprof runs arm, armeb, mipsel, mips, aarch64 "
			"and x86_64 programs\n",
			info->target_name ? info->target_name : "(unnamed)");
		return -1;
	}
	if (n_cspecs)
		check_meminfo_layout();
	pid = getpid();
	ppid = 0; /* the first process's parent is not part of the run */
	plugin_id = id;
	start_ns = now_ns();
	first = xcalloc(1, sizeof *first);
	first->tid = gettid_();
	if (pthread_atfork(before_fork, after_fork_parent, after_fork_child) != 0) {
		fprintf(stderr, "bbcount plugin: pthread_atfork failed\n");
		return -1;
	}
	/* A guest core file (qemu_PROGRAM_*.core) would land in the program's directory. */
	struct rlimit no_core = {0, 0};
	setrlimit(RLIMIT_CORE, &no_core);
	hook_kill();
	register_all(id);
	return 0;
}
