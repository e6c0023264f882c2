/*
 * cachesim.h: the cache hierarchy the bbcount plugin simulates per guest thread, with no
 * QEMU in it (docs/cachesim.md). The referee is Valgrind's cachegrind (cg_sim.c), so the
 * rules are its rules:
 *   - an access of SIZE bytes at ADDR references every line it spans, in address order, all
 *     of them even after a miss (the state changes as a side effect); it is one miss when any
 *     of them misses, and then the next level is referenced for the whole access;
 *   - a level below is referenced only on a miss above;
 *   - LRU moves the line to the front of its set on every hit and inserts at the front;
 *   - write-allocate (wa) treats a write miss as a read miss; nwa does not allocate the line
 *     at that level, and the access goes on to the next level;
 *   - no write-back traffic, no prefetching.
 * plru (tree pseudo-LRU), random (a fixed-seed xorshift per cache, so two runs agree) and
 * round-robin (per set) use an empty way first, as hardware with valid bits does; LRU and
 * round-robin fill empty ways first by construction.
 *
 * Tags are the line number + 1, so 0 is an empty way and a calloc'ed set is empty.
 */
#ifndef CACHESIM_H
#define CACHESIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum repl { REPL_LRU, REPL_PLRU, REPL_RANDOM, REPL_RR };

/* One level's geometry, as the plugin argument gives it. */
struct cachespec {
	char name[4]; /* l1i, l1d, l2, l3 */
	uint64_t size;
	uint32_t ways, line;
	enum repl repl;
	bool wa;
};

/* One level's state in one thread: tags (sets × ways) and the replacement's state. */
struct cache {
	uint64_t *tags;
	uint64_t *plru; /* plru: per set, the tree's ways-1 bits (bit k: node k+1 points right) */
	uint8_t *rr;	/* round-robin: per set, the next way to fill */
	uint64_t rng;	/* random: xorshift64 state */
	uint64_t mru;	/* the line referenced last (tag form): a hit that changes nothing */
	uint64_t set_mask;
	uint32_t ways, line_bits, tree_depth;
	enum repl repl;
	bool wa;
};

static const char *const repl_names[] = {"lru", "plru", "random", "round-robin"};

static unsigned log2_of(uint64_t n)
{
	unsigned k = 0;
	while ((1ull << k) < n)
		k++;
	return k;
}

/* Reads "l1d:32768:4:64:lru:wa" into s; returns false on anything malformed. */
static bool parse_cachespec(const char *text, size_t len, struct cachespec *s)
{
	char buf[96], repl[16], wa[4];
	unsigned long long size;
	unsigned ways, line;
	int used = 0;
	if (len >= sizeof buf)
		return false;
	memcpy(buf, text, len);
	buf[len] = 0;
	memset(s, 0, sizeof *s);
	if (sscanf(buf, "%3[a-z0-9]:%llu:%u:%u:%15[a-z-]:%3[a-z]%n", s->name, &size, &ways, &line, repl, wa, &used) != 6 ||
	    (size_t)used != len)
		return false;
	s->size = size, s->ways = ways, s->line = line;
	s->repl = (enum repl)-1;
	for (int r = 0; r < 4; r++)
		if (strcmp(repl, repl_names[r]) == 0)
			s->repl = (enum repl)r;
	s->wa = strcmp(wa, "wa") == 0;
	/* The runner validated the geometry (cost.CacheGeometry.Validate); these keep a hand-made
	 * argument from making the plugin divide by zero or mask with a non-power of two. */
	uint64_t lines = line ? size / line : 0;
	return (int)s->repl >= 0 && (s->wa || strcmp(wa, "nwa") == 0) && line >= 4 && (line & (line - 1)) == 0 &&
	       ways >= 1 && ways <= 64 && lines >= ways && lines % ways == 0 && ((lines / ways) & (lines / ways - 1)) == 0 &&
	       (s->repl != REPL_PLRU || (ways & (ways - 1)) == 0);
}

/* Allocates a level's state once, when a thread starts: memory is sets × ways tags. */
static void cache_init(struct cache *c, const struct cachespec *s, unsigned seed)
{
	uint64_t sets = s->size / s->line / s->ways;
	memset(c, 0, sizeof *c);
	c->set_mask = sets - 1;
	c->ways = s->ways;
	c->line_bits = log2_of(s->line);
	c->tree_depth = log2_of(s->ways);
	c->repl = s->repl;
	c->wa = s->wa;
	c->rng = 0x9e3779b97f4a7c15ull ^ seed;
	c->tags = calloc(sets * s->ways, sizeof *c->tags);
	if (c->repl == REPL_PLRU)
		c->plru = calloc(sets, sizeof *c->plru);
	if (c->repl == REPL_RR)
		c->rr = calloc(sets, sizeof *c->rr);
	if (!c->tags || (c->repl == REPL_PLRU && !c->plru) || (c->repl == REPL_RR && !c->rr)) {
		fputs("bbcount plugin: out of memory for the cache simulation\n", stderr);
		abort();
	}
}

static void cache_free(struct cache *c)
{
	free(c->tags);
	free(c->plru);
	free(c->rr);
	memset(c, 0, sizeof *c);
}

/* plru: way w of set was used; every node on its path points away from it. */
static void plru_touch(struct cache *c, uint64_t set, uint32_t w)
{
	uint64_t bits = c->plru[set];
	uint32_t node = 1;
	for (uint32_t d = c->tree_depth; d-- > 0;) {
		uint32_t right = (w >> d) & 1;
		if (right)
			bits &= ~(1ull << (node - 1));
		else
			bits |= 1ull << (node - 1);
		node = 2 * node + right;
	}
	c->plru[set] = bits;
}

/* The way a miss fills: an empty one first, else the policy's choice. */
static uint32_t victim(struct cache *c, uint64_t set, const uint64_t *tags)
{
	for (uint32_t w = 0; w < c->ways; w++)
		if (tags[w] == 0)
			return w;
	switch (c->repl) {
	case REPL_PLRU: {
		uint32_t node = 1, w = 0;
		for (uint32_t d = 0; d < c->tree_depth; d++) {
			uint32_t right = (c->plru[set] >> (node - 1)) & 1;
			w = 2 * w + right;
			node = 2 * node + right;
		}
		return w;
	}
	case REPL_RANDOM:
		c->rng ^= c->rng << 13;
		c->rng ^= c->rng >> 7;
		c->rng ^= c->rng << 17;
		return (uint32_t)(c->rng % c->ways);
	default: { /* round-robin */
		uint32_t w = c->rr[set];
		c->rr[set] = (uint8_t)((w + 1) % c->ways);
		return w;
	}
	}
}

/*
 * LRU in one pass over the set, cg_sim.c's move-to-front: each way takes the tag of the one
 * before it until the tag is found (a hit: it is now first) or the set ends (a miss: the last,
 * least recent tag fell out). true on a miss.
 */
static inline bool lru_ref(uint64_t *tags, uint32_t ways, uint64_t tag)
{
	uint64_t moving = tags[0];
	if (moving == tag)
		return false;
	tags[0] = tag;
	for (uint32_t w = 1; w < ways; w++) {
		uint64_t here = tags[w];
		tags[w] = moving;
		if (here == tag)
			return false;
		moving = here;
	}
	return true;
}

/* Whether the set holds tag, changing nothing (a write miss that does not allocate). */
static inline bool holds(const uint64_t *tags, uint32_t ways, uint64_t tag)
{
	for (uint32_t w = 0; w < ways; w++)
		if (tags[w] == tag)
			return true;
	return false;
}

/*
 * References one line that is not c->mru; true on a miss. A write miss without
 * write-allocate fills nothing, so the last line referenced (mru) stays in the cache.
 * Inlined, as hier_missed_l1 is, into the plugin's two slow paths: a call per level cost a
 * tenth of a cache-simulated run.
 */
static inline __attribute__((always_inline)) bool line_ref_slow(struct cache *c, uint64_t tag, bool write)
{
	uint64_t set = (tag - 1) & c->set_mask;
	uint64_t *tags = c->tags + set * c->ways;
	if (c->repl == REPL_LRU) {
		if (write && !c->wa && !holds(tags, c->ways, tag))
			return true;
		c->mru = tag;
		return lru_ref(tags, c->ways, tag);
	}
	for (uint32_t w = 0; w < c->ways; w++) {
		if (tags[w] == tag) {
			if (c->repl == REPL_PLRU)
				plru_touch(c, set, w);
			c->mru = tag;
			return false;
		}
	}
	if (write && !c->wa)
		return true;
	uint32_t w = victim(c, set, tags);
	tags[w] = tag;
	if (c->repl == REPL_PLRU)
		plru_touch(c, set, w);
	c->mru = tag;
	return true;
}

/*
 * References one line; true on a miss. The line referenced last is the most recent of its
 * set, and referencing it again changes nothing under any policy (LRU: already first; PLRU:
 * its path already points away; random and round-robin: hits change nothing): the fast path.
 */
static inline __attribute__((always_inline)) bool line_ref(struct cache *c, uint64_t line, bool write)
{
	return line + 1 == c->mru ? false : line_ref_slow(c, line + 1, write);
}

/* References the size bytes at addr: every line they span; one miss if any line missed. */
static inline __attribute__((always_inline)) bool cache_ref(struct cache *c, uint64_t addr, uint32_t size,
								bool write)
{
	uint64_t first = addr >> c->line_bits, last = (addr + (size ? size : 1) - 1) >> c->line_bits;
	bool miss = line_ref(c, first, write);
	for (uint64_t l = first + 1; l <= last; l++)
		miss |= line_ref(c, l, write);
	return miss;
}

/*
 * A thread's hierarchy: two L1s (instructions, data), then the unified levels below them,
 * which both L1s' misses reference.
 */
struct hierarchy {
	struct cache l1i, l1d, below[2];
	uint32_t n_below; /* 1 (l2) or 2 (l2, l3) */
};

/* specs: l1i, l1d, l2[, l3] (n = 3 or 4). Each level's random seed is fixed, so runs agree. */
static void hier_init(struct hierarchy *h, const struct cachespec *specs, uint32_t n)
{
	cache_init(&h->l1i, &specs[0], 1);
	cache_init(&h->l1d, &specs[1], 2);
	h->n_below = n - 2;
	for (uint32_t k = 0; k < h->n_below; k++)
		cache_init(&h->below[k], &specs[2 + k], 3 + k);
}

static void hier_free(struct hierarchy *h)
{
	cache_free(&h->l1i);
	cache_free(&h->l1d);
	for (uint32_t k = 0; k < h->n_below; k++)
		cache_free(&h->below[k]);
}

/*
 * An access missed its L1: counts that miss in miss[0] and references the levels below in
 * turn, each only when the one above missed, counting their misses in miss[1], miss[2].
 */
static inline __attribute__((always_inline)) void hier_missed_l1(struct hierarchy *h, uint64_t addr, uint32_t size,
								   bool write, uint64_t *miss)
{
	miss[0]++;
	for (uint32_t k = 0; k < h->n_below; k++) {
		if (!cache_ref(&h->below[k], addr, size, write))
			return;
		miss[k + 1]++;
	}
}

#endif
