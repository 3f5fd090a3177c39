// SPDX-License-Identifier: GPL-2.0
/*
 * What every partitioned service writes by hand, once (include/cpt.h):
 * an object per partition on its partition's memory, and a lock per
 * partition with an exclusive mode (mutexes: right on PREEMPT_RT, and
 * lockdep sees the exclusive mode as one lock, see cpt.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cache.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "cpt.h"
#include "compat.h"
#include "percpt.h"

/* Every struct cpt_lock alive, for /proc/cpt/stats. */
static LIST_HEAD(cptk_locks);
static DEFINE_MUTEX(cptk_locks_lock);

/*
 * The node for the memory of partition @cpt: its first node with memory,
 * else its first node (the allocator then falls back to the nearest).
 */
static int cptk_percpt_node(const struct cptab *tab, int cpt)
{
	const nodemask_t *nodes = cptab_nodemask(tab, cpt);
	int node;

	if (!nodes || nodes_empty(*nodes))
		return NUMA_NO_NODE;
	for_each_node_mask(node, *nodes)
		if (node_state(node, N_MEMORY))
			return node;
	return first_node(*nodes);
}

struct cpt_percpt *cpt_percpt_alloc(const struct cptab *tab, size_t size)
{
	struct cpt_percpt *pc;
	int n, cpt;

	if (!tab || !size) {
		pr_warn_ratelimited("cpt_percpt_alloc(): %s\n",
				    tab ? "size 0" : "no table");
		return ERR_PTR(-EINVAL);
	}
	n = cptab_number(tab);
	pc = kvzalloc(struct_size(pc, obj, n), GFP_KERNEL);
	if (!pc)
		return ERR_PTR(-ENOMEM);
	pc->count = n;
	pc->generation = cptab_generation(tab);
	for (cpt = 0; cpt < n; cpt++) {
		pc->obj[cpt] = kvzalloc_node(size, GFP_KERNEL,
					     cptk_percpt_node(tab, cpt));
		if (!pc->obj[cpt]) {
			cpt_percpt_free(pc);
			return ERR_PTR(-ENOMEM);
		}
	}
	return pc;
}
CPTK_EXPORT(cpt_percpt_alloc);

void cpt_percpt_free(struct cpt_percpt *pc)
{
	int cpt;

	if (IS_ERR_OR_NULL(pc))
		return;
	/* A partial array (cpt_percpt_alloc() failing) ends in NULLs. */
	for (cpt = 0; cpt < pc->count; cpt++)
		kvfree(pc->obj[cpt]);
	kvfree(pc);
}
CPTK_EXPORT(cpt_percpt_free);

int cpt_percpt_number(const struct cpt_percpt *pc)
{
	return pc->count;
}
CPTK_EXPORT(cpt_percpt_number);

void *cpt_percpt_obj(const struct cpt_percpt *pc, int cpt)
{
	return (unsigned int)cpt < (unsigned int)pc->count ? pc->obj[cpt] :
							      NULL;
}
CPTK_EXPORT(cpt_percpt_obj);

/* The partition of @lk that @cpt takes (cpt.h: modulo the count). */
static struct cpt_lock_part *cptk_lock_part(struct cpt_lock *lk, int cpt)
{
	return lk->part->obj[cptk_percpt_index(lk->part, cpt)];
}

static struct mutex *cptk_lock_of(struct cpt_lock *lk, int cpt)
{
	return &cptk_lock_part(lk, cpt)->mutex;
}

/*
 * Each lock has lockdep classes of its own, keyed by keys inside it: a
 * consumer that moves data from a lock to its successor holds both in
 * the exclusive mode, and locks made at one call site (a helper, or one
 * site across table changes) would otherwise share a class, which lockdep
 * reports as recursive locking.  A key must live in dynamic memory and be
 * registered before the mutexes that use it are initialised.
 */
struct cpt_lock *cpt_lock_alloc(const struct cptab *tab)
{
	size_t size = roundup_pow_of_two(max_t(size_t, L1_CACHE_BYTES,
					       sizeof(struct cpt_lock_part)));
	struct cpt_lock_part *part;
	struct cpt_lock *lk;
	int cpt;

	if (!tab) {
		pr_warn_ratelimited("cpt_lock_alloc(): no table\n");
		return ERR_PTR(-EINVAL);
	}
	lk = kzalloc(sizeof(*lk), GFP_KERNEL);
	if (!lk)
		return ERR_PTR(-ENOMEM);
	/* A power of two: kmalloc aligns it to its size, a cache line. */
	lk->part = cpt_percpt_alloc(tab, size);
	if (IS_ERR(lk->part)) {
		kfree(lk);
		return ERR_PTR(-ENOMEM);
	}
	lockdep_register_key(&lk->excl_key);
	lockdep_register_key(&lk->part_key);
	__mutex_init(&lk->excl, "cpt_lock_exclusive", &lk->excl_key);
	cpt_percpt_for_each(part, cpt, lk->part)
		__mutex_init(&part->mutex, "cpt_lock_partition", &lk->part_key);
	lk->site = _RET_IP_;
	mutex_lock(&cptk_locks_lock);
	list_add_tail(&lk->node, &cptk_locks);
	mutex_unlock(&cptk_locks_lock);
	return lk;
}
CPTK_EXPORT(cpt_lock_alloc);

void cpt_lock_free(struct cpt_lock *lk)
{
	struct cpt_lock_part *part;
	int cpt;

	if (IS_ERR_OR_NULL(lk))
		return;
	mutex_lock(&cptk_locks_lock);
	list_del(&lk->node);
	mutex_unlock(&cptk_locks_lock);
	cpt_percpt_for_each(part, cpt, lk->part)
		mutex_destroy(&part->mutex);
	mutex_destroy(&lk->excl);
	/* Each waits for an RCU grace period: lockdep's readers of the key. */
	lockdep_unregister_key(&lk->part_key);
	lockdep_unregister_key(&lk->excl_key);
	cpt_percpt_free(lk->part);
	kfree(lk);
}
CPTK_EXPORT(cpt_lock_free);

/* The lock of one partition, counted for /proc/cpt/stats. */
static void cptk_lock_one(struct cpt_lock *lk, int cpt)
{
	struct cpt_lock_part *part = cptk_lock_part(lk, cpt);

	mutex_lock(&part->mutex);
	part->holds++;
}

/*
 * Whether @cpt asks for the exclusive mode.  A negative index other than
 * CPT_ANY is a misuse (libcfs's CFS_CPT_ANY is -1): the exclusive mode is
 * the only answer that never gives the caller less exclusion than it may
 * have asked for, and cpt_unlock() with the same index releases it.
 */
static bool cptk_lock_exclusive(int cpt, unsigned long caller)
{
	if (cpt >= 0)
		return false;
	if (cpt != CPT_ANY)
		pr_warn_ratelimited("%ps: partition %d of a cpt_lock is not one (CPT_ANY is %d): taking the exclusive mode\n",
				    (void *)caller, cpt, CPT_ANY);
	return true;
}

void cpt_lock(struct cpt_lock *lk, int cpt) __acquires(lk)
{
	int i;

	if (!cptk_lock_exclusive(cpt, _RET_IP_)) {
		cptk_lock_one(lk, cpt);
	} else {
		/*
		 * Ascending order, under the outer mutex: two exclusive
		 * lockers cannot each hold a part the other waits for, and
		 * lockdep counts the parts as one lock nested in it.
		 */
		mutex_lock(&lk->excl);
		for (i = 0; i < lk->part->count; i++)
			mutex_lock_nest_lock(cptk_lock_of(lk, i), &lk->excl);
		lk->excl_since = local_clock();
	}
	__acquire(lk);
}
CPTK_EXPORT(cpt_lock);

/*
 * One read of the partition: the index locked is the index returned, so
 * the caller unlocks what it locked wherever it runs by then.  A second
 * cpt_current() at unlock time would name another partition's mutex after
 * a migration.
 */
int cpt_lock_current(struct cpt_lock *lk) __acquires(lk)
{
	int cpt = cptk_percpt_index(lk->part, cpt_current());

	cptk_lock_one(lk, cpt);
	__acquire(lk);
	return cpt;
}
CPTK_EXPORT(cpt_lock_current);

void cpt_unlock(struct cpt_lock *lk, int cpt) __releases(lk)
{
	u64 now;
	int i;

	__release(lk);
	/* cpt_lock() said so already: no second line for the same misuse. */
	if (cpt >= 0) {
		mutex_unlock(cptk_lock_of(lk, cpt));
		return;
	}
	/*
	 * Held all along: the time the others could not take their lock.
	 * local_clock() is read on the CPUs of the lock and of the unlock,
	 * which differ when the holder slept and migrated; where sched_clock
	 * is not stable across CPUs the second can be the smaller, and a
	 * negative difference would wrap the sum: it counts as 0.
	 */
	now = local_clock();
	if (now > lk->excl_since)
		lk->excl_ns += now - lk->excl_since;
	lk->excl_holds++;
	for (i = lk->part->count - 1; i >= 0; i--)
		mutex_unlock(cptk_lock_of(lk, i));
	mutex_unlock(&lk->excl);
}
CPTK_EXPORT(cpt_unlock);

/*
 * The "lock" lines of /proc/cpt/stats: per partition, its holds alone and
 * the exclusive holds (which held every partition's lock) with their time.
 */
void cptk_lock_stats(struct seq_file *m)
{
	struct cpt_lock_part *part;
	struct cpt_lock *lk;
	int cpt;

	mutex_lock(&cptk_locks_lock);
	list_for_each_entry(lk, &cptk_locks, node)
		cpt_percpt_for_each(part, cpt, lk->part)
			seq_printf(m, "lock %d %llu %llu %llu %ps\n", cpt,
				   READ_ONCE(part->holds),
				   READ_ONCE(lk->excl_holds),
				   READ_ONCE(lk->excl_ns), (void *)lk->site);
	mutex_unlock(&cptk_locks_lock);
}

/* The bytes cptk_lock_stats() writes now, at most. */
size_t cptk_lock_stats_size(void)
{
	/* "lock", the partition, three u64, spaces and the newline */
	const size_t fixed = 4 + 12 + 3 * 21 + 1;
	struct cpt_lock *lk;
	size_t size = 0;

	mutex_lock(&cptk_locks_lock);
	list_for_each_entry(lk, &cptk_locks, node)
		size += lk->part->count *
			(fixed + snprintf(NULL, 0, " %ps", (void *)lk->site));
	mutex_unlock(&cptk_locks_lock);
	return size;
}
