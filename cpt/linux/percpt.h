/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-partition memory and locks (percpt.c, include/cpt.h): the rule by
 * which any int names a partition of a per-partition array, and the
 * locks' lines of /proc/cpt/stats.
 */
#ifndef CPTK_PERCPT_H
#define CPTK_PERCPT_H

#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "cpt.h"

struct seq_file;

/*
 * An object per partition (cpt_percpt_alloc()): @count objects, the
 * cptab_number() of the table it was made for, whose generation is
 * @generation; @obj[cpt] on a node of partition @cpt.
 */
struct cpt_percpt {
	int count;
	u64 generation;
	void *obj[];
};

/*
 * A lock per partition and an exclusive mode (cpt_lock_alloc()): @part
 * holds one struct cpt_lock_part per partition, on its node; @excl is
 * the outer mutex of the exclusive mode.  Each lock has lockdep classes
 * of its own, @part_key and @excl_key (cpt_lock_alloc() says why).  @node
 * is on percpt.c's list for /proc/cpt/stats, which names the lock by
 * @site, where cpt_lock_alloc() was called; @excl_holds, @excl_ns and
 * @excl_since count the exclusive holds, under @excl.
 */
struct cpt_lock {
	struct cpt_percpt *part;
	struct mutex excl;
	struct lock_class_key part_key;
	struct lock_class_key excl_key;
	struct list_head node;
	unsigned long site;
	u64 excl_holds;
	u64 excl_ns;
	u64 excl_since;
};

/*
 * The lock of one partition, and how often it was taken for this
 * partition alone (@holds, under @mutex, in the cache line its holder has
 * just written).  Each is its own allocation of a power of two of at
 * least a cache line, which kmalloc aligns to its size: nothing else
 * shares its cache line.
 */
struct cpt_lock_part {
	struct mutex mutex;
	u64 holds;
};

/*
 * The partition of @pc that @cpt names: modulo the count, so that a
 * cpt_current() of a newer table with more partitions still names one
 * (cpt.h: cpt_lock(), cpt_worker_of()).
 */
static inline int cptk_percpt_index(const struct cpt_percpt *pc, int cpt)
{
	return (unsigned int)cpt % (unsigned int)pc->count;
}

void cptk_lock_stats(struct seq_file *m);
size_t cptk_lock_stats_size(void);

#endif /* CPTK_PERCPT_H */
