/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpt: CPU partition table, the interface for other modules (API 1.0).
 *
 * Partitions of CPUs (by NUMA node, L3 domain and core), numbered
 * 0 .. cptab_number() - 1, each with a CPU mask and a node mask.  One table
 * is in force at a time; a sysctl write or a CPU event replaces it whole.
 * Every call takes a table the caller holds, which never changes while
 * held: size and index per-partition arrays with one table, and move to a
 * new one when the notifier says so.  doc/api.md works the pattern through.
 * A caller says CPT_IMPORT_NS once, and keeps cpt loaded until it has put
 * every table and unregistered its notifier.
 */
#ifndef CPT_H
#define CPT_H

#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/types.h>

/* (major << 8) | minor: 1.0, one family of table calls.  Minors add calls. */
#define CPT_API_VERSION		0x100

/* All partitions as an argument, none as an answer; below every -errno. */
#define CPT_ANY			(-MAX_ERRNO - 1)

/* The symbol namespace of every export: MODULE_IMPORT_NS on any kernel. */
#define CPT_IMPORT_NS		MODULE_INFO(import_ns, "CPT")

struct cptab;	/* opaque; its head, read by two inlines only, is ABI: */
struct cptab_lookup {
	const int *of_cpu;
	const int *current_of_cpu;
	unsigned int nr_cpus;
};

/**
 * cpt_get() - hold the table in force
 * Context: any context (RCU and an atomic increment).
 * Return: the table, to release with cpt_put(); never NULL.
 */
struct cptab *cpt_get(void);

/**
 * cpt_hold() - take another reference to a table
 * @tab: a table the caller holds, or the one a notifier callback is given
 * Context: any context.
 * Return: @tab, to release with cpt_put().
 */
struct cptab *cpt_hold(struct cptab *tab);

/**
 * cpt_put() - release a table
 * @tab: from cpt_get() or cpt_hold(), or NULL; unusable afterwards, as are
 *	 the masks it returned
 * Context: any context (the memory is freed from a work item).
 */
void cpt_put(struct cptab *tab);

#define CPT_TABLE_REPLACED	1	/* notifier action; data: the table */

/**
 * cpt_register_notifier() - hear of table replacements
 * @nb: called as @nb->notifier_call(@nb, CPT_TABLE_REPLACED, tab)
 *
 * Register, then cpt_get() the table to build from.  After replacements
 * the callback runs at least once, with a table as new as the last; @tab
 * is valid during it.  A sysctl write returns after the callbacks.
 * Context: process context.  Callbacks run from a workqueue with no cpt or
 * hotplug lock held: they may sleep and call anything here but
 * cpt_(un)register_notifier() (-EDEADLK) and cptab_bind_current() (-EPERM).
 * Return: 0, -EDEADLK from a callback, or what the notifier chain returns.
 */
int cpt_register_notifier(struct notifier_block *nb);

/**
 * cpt_unregister_notifier() - stop hearing of replacements
 * @nb: a registered notifier block
 * Context: process context; returns after a running callback of @nb.
 * Return: 0, -ENOENT when @nb was not registered, -EDEADLK from a callback.
 */
int cpt_unregister_notifier(struct notifier_block *nb);

/*
 * The calls on a held table, in any context but cptab_bind_current().  A
 * NULL @tab answers as for no partition.  O(1) but cptab_distance().
 */

/**
 * cptab_generation() - which partitions a table has
 * @tab: a held table
 * Return: 1 at load, +1 for each table with other partitions; 0 for NULL.
 */
u64 cptab_generation(const struct cptab *tab);

/**
 * cptab_number() - number of partitions
 * @tab: a held table
 * Return: at least 1; 0 for NULL.
 */
int cptab_number(const struct cptab *tab);

/**
 * cptab_weight() - online CPUs of a partition
 * @tab: a held table
 * @cpt: partition or CPT_ANY
 * Return: the count (0: all offline, as libcfs's cfs_cpt_online() false),
 * -EINVAL for no partition.
 */
int cptab_weight(const struct cptab *tab, int cpt);

/**
 * cptab_cpumask() - CPUs of a partition
 * @tab: a held table
 * @cpt: partition or CPT_ANY
 * Return: its members, online or not, while @tab is held; NULL for none.
 */
const struct cpumask *cptab_cpumask(const struct cptab *tab, int cpt);

/**
 * cptab_nodemask() - NUMA nodes of a partition
 * @tab: a held table
 * @cpt: partition or CPT_ANY
 * Return: its members' nodes, while @tab is held; NULL for no partition.
 */
const nodemask_t *cptab_nodemask(const struct cptab *tab, int cpt);

/**
 * cptab_of_node() - partition of a NUMA node
 * @tab: a held table
 * @node: node id
 * Return: the lowest partition with @node, CPT_ANY for none, -EINVAL for
 * a @node not in 0 .. nr_node_ids - 1.
 */
int cptab_of_node(const struct cptab *tab, int node);

/**
 * cptab_distance() - NUMA distance between two partitions
 * @tab: a held table
 * @cpt1: partition or CPT_ANY
 * @cpt2: partition or CPT_ANY
 * Return: the largest node_distance() between their nodes, as in /proc
 * (symmetric, >= LOCAL_DISTANCE); -EINVAL for no partition.
 */
int cptab_distance(const struct cptab *tab, int cpt1, int cpt2);

/**
 * cptab_bind_current() - run the current task on a partition's CPUs
 * @tab: a held table
 * @cpt: partition or CPT_ANY
 *
 * Sets current's affinity to the members of @cpt; it runs on an online one
 * when this returns.  The memory policy stays local (the node it runs on).
 * Context: process context, may sleep; not from a notifier callback.  Takes
 * cpus_read_lock(): hold no lock a CPU hotplug callback takes.
 * Return: 0; -EINVAL for no partition or a task whose affinity is fixed
 * (PF_NO_SETAFFINITY: a workqueue worker, a pool's thread; with a log line);
 * -EPERM from a notifier callback; else set_cpus_allowed_ptr()'s.
 */
int cptab_bind_current(const struct cptab *tab, int cpt);

/**
 * cptab_spread_node() - the next node of a partition, to spread allocations
 * @tab: a held table
 * @cpt: partition or CPT_ANY
 * Return: a node of cptab_nodemask(@tab, @cpt), round robin (callers at
 * once may get the same), -EINVAL for no partition.
 */
int cptab_spread_node(struct cptab *tab, int cpt);

/**
 * cptab_of_cpu() - partition of a CPU
 * @tab: a held table, not NULL (inline: not checked)
 * @cpu: CPU id
 * Context: any context; a bound check and two loads.
 * Return: the partition (an offline CPU keeps its own), CPT_ANY for none,
 * -EINVAL for @cpu >= nr_cpu_ids.
 */
static inline int cptab_of_cpu(const struct cptab *tab, int cpu)
{
	const struct cptab_lookup *lk = (const struct cptab_lookup *)tab;

	if (unlikely((unsigned int)cpu >= lk->nr_cpus))
		return -EINVAL;
	return lk->of_cpu[cpu];
}

/**
 * cptab_current() - partition of the CPU the caller runs on
 * @tab: a held table, not NULL (inline: not checked)
 *
 * A CPU in no partition borrows its node's, else cpu % number: the answer
 * always indexes an array of @tab.  Stale at once if the caller migrates.
 * Context: any context; a CPU number and two loads.
 * Return: 0 .. cptab_number(@tab) - 1, never CPT_ANY.
 */
static inline int cptab_current(const struct cptab *tab)
{
	const struct cptab_lookup *lk = (const struct cptab_lookup *)tab;

	/* Any CPU will do if we migrate: the answer is advisory anyway. */
	return lk->current_of_cpu[(unsigned int)raw_smp_processor_id()];
}

/*
 * cptab_current() of the table in force, per CPU: ABI, one int.  A write to
 * the const @cpt does not compile; cpt writes @cptk_cpt, the same int.
 */
struct cpt_percpu_id {
	union {
		const int cpt;
		int cptk_cpt;
	};
};

DECLARE_PER_CPU(struct cpt_percpu_id, cpt_cpu_partition);

/**
 * cpt_current() - partition of the CPU the caller runs on, table in force
 *
 * One per-CPU read.  Each CPU switches to a new table's answer before the
 * callbacks run: index an array with cptab_current() of its own table.
 * Context: any context; stale at once unless the caller cannot migrate.
 * Return: a partition of the table in force (or the one it replaces).
 */
static inline int cpt_current(void)
{
	/* The writable member: this_cpu_read() copies into a typeof() it. */
	return this_cpu_read(cpt_cpu_partition.cptk_cpt);
}

/* Zeroed objects per partition of a table, each on its node; opaque. */
struct cpt_percpt;

/**
 * cpt_percpt_alloc() - allocate an object per partition of a table
 * @tab: a held table (the array does not hold it)
 * @size: bytes of each object (kvmalloc(): a large one may be vmalloc'ed)
 * Context: process context, may sleep.
 * Return: the array; ERR_PTR(-EINVAL) (no @tab, no @size) or -ENOMEM.
 */
struct cpt_percpt *cpt_percpt_alloc(const struct cptab *tab, size_t size);

/**
 * cpt_percpt_free() - free an array and its objects
 * @pc: from cpt_percpt_alloc(), or NULL or an ERR_PTR (nothing done)
 * Context: process context.
 */
void cpt_percpt_free(struct cpt_percpt *pc);

/**
 * cpt_percpt_number() - number of objects
 * @pc: an array
 * Context: any context.
 * Return: cptab_number() of the table @pc was made for.
 */
int cpt_percpt_number(const struct cpt_percpt *pc);

/**
 * cpt_percpt_obj() - the object of a partition
 * @pc: an array
 * @cpt: a partition of the table @pc was made for
 * Context: any context.
 * Return: the object, NULL when @cpt is not below cpt_percpt_number(@pc).
 */
void *cpt_percpt_obj(const struct cpt_percpt *pc, int cpt);

/* Each object of @pc in turn in @ptr, its partition in the int @cpt. */
#define cpt_percpt_for_each(ptr, cpt, pc)				\
	for ((cpt) = 0; (cpt) < cpt_percpt_number(pc) &&		\
	     (((ptr) = cpt_percpt_obj((pc), (cpt))), 1); (cpt)++)

/*
 * A mutex per partition, each in its own cache line on its node, and an
 * exclusive mode (CPT_ANY) taking all; opaque.  Any @cpt >= 0 is taken
 * modulo the count.  Hold one partition, or the exclusive mode, at a time.
 */
struct cpt_lock;

/**
 * cpt_lock_alloc() - make a lock per partition of a table
 * @tab: a held table (the lock does not hold it)
 * Context: process context, may sleep.
 * Return: the lock; ERR_PTR(-EINVAL) for a NULL @tab, ERR_PTR(-ENOMEM).
 */
struct cpt_lock *cpt_lock_alloc(const struct cptab *tab);

/**
 * cpt_lock_free() - free a lock nobody holds
 * @lk: from cpt_lock_alloc(), or NULL or an ERR_PTR (nothing done)
 * Context: process context, may sleep (lockdep waits for RCU).
 */
void cpt_lock_free(struct cpt_lock *lk);

/**
 * cpt_lock() - take a partition's lock, or all of them
 * @lk: the lock
 * @cpt: a partition (modulo the count), or CPT_ANY for the exclusive mode
 *
 * Another negative @cpt (libcfs's -1) takes the exclusive mode too, never
 * less exclusion than meant, with a log line naming the caller.
 * Context: process context, may sleep.
 */
void cpt_lock(struct cpt_lock *lk, int cpt) __acquires(lk);

/**
 * cpt_lock_current() - take the lock of the caller's partition
 * @lk: the lock
 * Context: process context, may sleep.
 * Return: the index locked, cpt_current() read once modulo the count: pass
 * it to cpt_unlock(), never a second cpt_current() (the task may migrate).
 */
int cpt_lock_current(struct cpt_lock *lk) __acquires(lk);

/**
 * cpt_unlock() - release what cpt_lock() or cpt_lock_current() took
 * @lk: the lock
 * @cpt: the @cpt given to cpt_lock(), or what cpt_lock_current() returned
 * Context: the task that took it.
 */
void cpt_unlock(struct cpt_lock *lk, int cpt) __releases(lk);

/*
 * kthreads per partition, opaque, running @fn(@data, cpt) until
 * kthread_should_stop(), bound by cpt (PF_NO_SETAFFINITY) under the hotplug
 * lock.  A pool follows each newer table of its count, never an older one.
 */
struct cpt_threads;

/**
 * cpt_threads_start() - start threads per partition
 * @tab: a held table (the pool holds the one it is bound to)
 * @per_cpt: threads per partition, 1 to 1024
 * @fn: the thread function, with @data and the thread's partition
 * @data: passed to @fn
 * @name: the threads' name, "@name/CPT.I"
 * Context: process context, may sleep; also from a notifier callback.
 * Takes cpus_read_lock(): hold no lock a CPU hotplug callback takes.
 * Return: the pool, ERR_PTR(-EINVAL) for a bad argument, or the errno of
 * an allocation or kthread creation that failed (nothing left running).
 */
struct cpt_threads *cpt_threads_start(struct cptab *tab, int per_cpt,
				      int (*fn)(void *data, int cpt),
				      void *data, const char *name);

/**
 * cpt_threads_start_cpus() - cpt_threads_start(), threads per member CPU
 * @tab: a held table
 * @per_cpu: threads per member CPU at the start, 1 to 64
 * @fn: the thread function
 * @data: passed to @fn
 * @name: the threads' name
 * Context: as cpt_threads_start().
 * Return: as cpt_threads_start().
 */
struct cpt_threads *cpt_threads_start_cpus(struct cptab *tab, int per_cpu,
					   int (*fn)(void *data, int cpt),
					   void *data, const char *name);

/**
 * cpt_threads_stop() - stop a pool's threads, wait for them, free it
 * @ts: a pool, or NULL or an ERR_PTR (nothing done)
 * Context: process context, may sleep; also from a notifier callback.
 */
void cpt_threads_stop(struct cpt_threads *ts);

/**
 * cpt_threads_generation() - the table a pool is bound to
 * @ts: a pool
 * Context: any context.
 * Return: cptab_generation() of that table; it never decreases.
 */
u64 cpt_threads_generation(struct cpt_threads *ts);

/**
 * cpt_threads_unbound() - threads whose partition has no online CPU
 * @ts: a pool
 * Context: any context.
 * Return: how many were left unbound at the last binding.
 */
int cpt_threads_unbound(struct cpt_threads *ts);

/*
 * A kthread_worker per partition on a pool's thread, opaque.  @cpt >= 0 is
 * taken modulo the count, CPT_ANY is the caller's; -1 is refused (logged).
 */
struct cpt_workers;
struct kthread_work;
struct kthread_worker;

/**
 * cpt_workers_start() - start a kthread_worker per partition
 * @tab: a held table: cptab_number(@tab) workers
 * @name: the threads' name
 * Context: process context, may sleep; also from a notifier callback.
 * Return: the workers, or as cpt_threads_start().
 */
struct cpt_workers *cpt_workers_start(struct cptab *tab, const char *name);

/**
 * cpt_worker_of() - the kthread_worker of a partition
 * @w: the workers
 * @cpt: a partition (modulo the count) or CPT_ANY
 * Context: any context.
 * Return: the worker, valid until cpt_workers_stop(@w); NULL if refused.
 */
struct kthread_worker *cpt_worker_of(struct cpt_workers *w, int cpt);

/**
 * cpt_queue_work() - queue a work on a partition's worker
 * @w: the workers
 * @cpt: a partition (modulo the count) or CPT_ANY
 * @work: initialized with kthread_init_work()
 * Context: any context.
 * Return: true when queued; false when @work was pending or @cpt refused.
 */
bool cpt_queue_work(struct cpt_workers *w, int cpt, struct kthread_work *work);

/**
 * cpt_workers_flush() - wait for the works queued so far
 * @w: the workers
 * Context: process context, may sleep.
 */
void cpt_workers_flush(struct cpt_workers *w);

/**
 * cpt_workers_stop() - run pending works, stop the workers, free them
 * @w: the workers, or NULL or an ERR_PTR (nothing done)
 *
 * Works queued before run; a delayed work not yet due is cancelled.  Queue
 * nothing once this is called; no work of @w runs once it returns.
 * Context: process context, may sleep; also from a notifier callback.
 */
void cpt_workers_stop(struct cpt_workers *w);

#endif /* CPT_H */
