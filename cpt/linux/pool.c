// SPDX-License-Identifier: GPL-2.0
/*
 * Thread pools per partition (include/cpt.h, cpt_threads_start()): N
 * kthreads per partition, each bound to its partition's CPUs, rebound when
 * a new table with the same count comes.  Every pool is on cptk_pools,
 * under cptk_pools_lock, which also serializes the binding of its threads.
 *
 * Binding follows the scheduler's rule for an affinity change that must
 * not race CPU hotplug (force_compatible_cpus_allowed_ptr(), and
 * workqueue.c for its workers): it is made with the hotplug lock held.
 * While a CPU goes down it stays in cpu_online_mask until late, and
 * set_cpus_allowed_ptr() may move a kthread onto it after it was emptied
 * (sched_cpu_dying(): "Dying CPU not properly vacated!", a BUG on 5.10).
 * So threads are bound before their first wake-up under cpus_read_lock(),
 * rebound from the notification under cpus_read_lock(), and moved off a
 * CPU going down from live.c's own hotplug callback, which runs under the
 * hotplug lock with that CPU already out of the new table
 * (cptk_pool_follow_cpu()), whatever table each pool holds.  No pool
 * ever moves to a table older than its own.  Lock order: the hotplug
 * lock, then live.c's cptk_live_lock (its callbacks call
 * cptk_pool_follow_cpu() under it), then cptk_pools_lock.  This is the one
 * rule every thread cpt binds follows, worker.c's workers included: they
 * are pools.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cpt.h"
#include "compat.h"
#include "cpt_trace.h"
#include "live.h"
#include "pool.h"
#include "tab.h"

/* @bound: on its partition's CPUs at the last binding (cptk_pools_lock). */
struct cptk_thread {
	struct cpt_threads *ts;
	struct task_struct *task;	/* with a reference of ours */
	int cpt;
	bool bound;
};

/*
 * @tab: the table the threads are bound to, held; @unbound: threads whose
 * partition had no online CPU at the last binding; @name: the consumer's,
 * as in the threads' names, for the tracepoint.
 */
struct cpt_threads {
	struct list_head node;
	struct cptab *tab;
	int (*fn)(void *data, int cpt);
	void *data;
	u64 generation;
	int count;
	int unbound;
	char name[TASK_COMM_LEN];
	int nr;
	struct cptk_thread th[];
};

static LIST_HEAD(cptk_pools);
static DEFINE_MUTEX(cptk_pools_lock);

/* Scratch for cptk_thread_bind() (cptk_pools_lock): no cpumask on the stack. */
static struct cpumask cptk_bind_mask;

/*
 * Bind @t's thread to the CPUs of its partition in @tab that are online,
 * less @dying (a CPU going down, or -1), under the hotplug lock and
 * cptk_pools_lock; false when none is left.  Under the hotplug lock the
 * online mask does not move, except for the CPU a hotplug callback is
 * taking down: it is still in cpu_online_mask, and must not be chosen.
 * The CPUs offline now are left out too: the callback that brings one
 * back rebinds.  A thread whose partition has none runs on the table's
 * other CPUs (CPT_ANY), so that it stays off the CPUs the table leaves
 * out (isolated ones, X[...]); else it stays where it is, and the
 * scheduler moves it if its CPU goes.
 */
static bool cptk_thread_bind(const struct cptk_thread *t,
			     const struct cptab *tab, int dying)
{
	struct cpumask *mask = &cptk_bind_mask;
	int cpt = t->cpt, i;

	lockdep_assert_held(&cptk_pools_lock);
	for (i = 0; i < 2; i++, cpt = CPT_ANY) {
		cpumask_and(mask, cptab_cpumask(tab, cpt), cpu_online_mask);
		if (dying >= 0)
			cpumask_clear_cpu(dying, mask);
		if (cpumask_empty(mask))
			continue;
		return !set_cpus_allowed_ptr(t->task, mask) && cpt == t->cpt;
	}
	return false;
}

/* The thread function of every pool thread: bound before it first ran. */
static int cptk_pool_thread(void *arg)
{
	struct cptk_thread *t = arg;

	return t->ts->fn(t->ts->data, t->cpt);
}

/*
 * Bind every thread of @ts to its partition in @tab (cptk_pools_lock).  A
 * partition with no online CPU in @tab cannot hold its threads: they run
 * on the table's other CPUs (cptk_thread_bind()), counted in @unbound and
 * said once in the log.
 */
static void cptk_pool_bind(struct cpt_threads *ts, const struct cptab *tab,
			   int dying)
{
	int i, unbound = 0;

	for (i = 0; i < ts->nr; i++) {
		ts->th[i].bound = cptk_thread_bind(&ts->th[i], tab, dying);
		unbound += !ts->th[i].bound;
		cond_resched();
	}
	if (unbound && !ts->unbound)
		pr_info("%d pool threads have no online CPU in their partition: they run unbound until one comes back\n",
			unbound);
	ts->unbound = unbound;
	ts->generation = cptab_generation(tab);
	trace_cpt_pool_rebind(ts->name, ts->nr, unbound, tab->serial, dying);
}

static void cptk_pool_put_threads(struct cpt_threads *ts, int n, bool stop)
{
	int i;

	for (i = 0; i < n; i++) {
		if (stop)
			kthread_stop(ts->th[i].task);
		put_task_struct(ts->th[i].task);
	}
}

/*
 * Threads of partition @cpt of @tab: @per_cpt, or @per_cpu for each member
 * CPU (online or not: the count must not depend on the moment of start).
 */
static int cptk_pool_part_threads(const struct cptab *tab, int cpt,
				  int per_cpt, int per_cpu)
{
	return per_cpt ?: per_cpu * cpumask_weight(cptab_cpumask(tab, cpt));
}

/*
 * Mark a new, never woken thread as one whose affinity is ours
 * (PF_NO_SETAFFINITY, through kthread_bind(), the exported way): newer
 * kernels (7.3, not 6.12) have kthread() set a thread's affinity before
 * its function runs, to its node or the housekeeping CPUs, unless the
 * flag is set, which would undo the binding made before the wake-up.  The
 * CPU is only a start: cptk_pool_bind() gives the partition's mask.
 */
static void cptk_pool_pin(struct task_struct *task, const struct cptab *tab,
			  int cpt)
{
	unsigned int cpu = cpumask_any_and(cptab_cpumask(tab, cpt),
					   cpu_online_mask);

	kthread_bind(task, cpu < nr_cpu_ids ? cpu :
			   cpumask_first(cpu_online_mask));
}

/*
 * Create the threads of @ts, never woken, for @tab; 0 or a negative
 * errno.  No lock is held: the pool is not listed yet, and creating
 * thousands of threads must not stall table frees and sysctl writes.
 */
static int cptk_pool_create(struct cpt_threads *ts, const struct cptab *tab,
			    int per_cpt, int per_cpu, const char *name)
{
	struct task_struct *task;
	int i = 0, cpt, j;

	for (cpt = 0; cpt < ts->count; cpt++) {
		for (j = 0; j < cptk_pool_part_threads(tab, cpt, per_cpt,
						       per_cpu); j++, i++) {
			ts->th[i].ts = ts;
			ts->th[i].cpt = cpt;
			/*
			 * No node: on those kernels a kthread made on a node
			 * is bound to its node again at every CPU online,
			 * which would undo our binding until the next table.
			 */
			task = kthread_create(cptk_pool_thread, &ts->th[i],
					      "%s/%d.%d", name, cpt, j);
			if (IS_ERR(task)) {
				/* Never woken: kthread_stop() ends them unrun. */
				cptk_pool_put_threads(ts, i, true);
				return PTR_ERR(task);
			}
			get_task_struct(task);
			ts->th[i].task = task;
			cptk_pool_pin(task, tab, cpt);
		}
	}
	return 0;
}

/* cpt_threads_start() with @per_cpt, cpt_threads_start_cpus() with @per_cpu. */
static struct cpt_threads *cptk_pool_start(struct cptab *tab, int per_cpt,
					   int per_cpu,
					   int (*fn)(void *data, int cpt),
					   void *data, const char *name)
{
	struct cpt_threads *ts;
	struct cptab *now;
	int i, ret, n, nr = 0;

	n = cptab_number(tab);
	for (i = 0; i < n; i++)
		nr += cptk_pool_part_threads(tab, i, per_cpt, per_cpu);
	ts = kvzalloc(struct_size(ts, th, nr), GFP_KERNEL);
	if (!ts)
		return ERR_PTR(-ENOMEM);
	ts->fn = fn;
	ts->data = data;
	ts->count = n;
	ts->nr = nr;
	strscpy(ts->name, name, sizeof(ts->name));
	ret = cptk_pool_create(ts, tab, per_cpt, per_cpu, name);
	if (ret) {
		kvfree(ts);
		return ERR_PTR(ret);
	}
	cpus_read_lock();
	mutex_lock(&cptk_pools_lock);
	/* A replacement notified before we were listed is not missed. */
	now = cpt_get();
	ts->tab = cpt_hold(cptab_number(now) == n ? now : tab);
	cpt_put(now);
	cptk_pool_bind(ts, ts->tab, -1);
	list_add(&ts->node, &cptk_pools);
	mutex_unlock(&cptk_pools_lock);
	cpus_read_unlock();
	for (i = 0; i < ts->nr; i++)
		wake_up_process(ts->th[i].task);
	return ts;
}

struct cpt_threads *cpt_threads_start(struct cptab *tab, int per_cpt,
				      int (*fn)(void *data, int cpt),
				      void *data, const char *name)
{
	if (!tab || !fn || !name || per_cpt < 1 || per_cpt > 1024) {
		pr_warn_ratelimited("cpt_threads_start(): bad argument\n");
		return ERR_PTR(-EINVAL);
	}
	return cptk_pool_start(tab, per_cpt, 0, fn, data, name);
}
CPTK_EXPORT(cpt_threads_start);

struct cpt_threads *cpt_threads_start_cpus(struct cptab *tab, int per_cpu,
					   int (*fn)(void *data, int cpt),
					   void *data, const char *name)
{
	if (!tab || !fn || !name || per_cpu < 1 || per_cpu > 64) {
		pr_warn_ratelimited("cpt_threads_start_cpus(): bad argument\n");
		return ERR_PTR(-EINVAL);
	}
	return cptk_pool_start(tab, 0, per_cpu, fn, data, name);
}
CPTK_EXPORT(cpt_threads_start_cpus);

void cpt_threads_stop(struct cpt_threads *ts)
{
	if (IS_ERR_OR_NULL(ts))
		return;
	mutex_lock(&cptk_pools_lock);
	list_del(&ts->node);
	mutex_unlock(&cptk_pools_lock);
	cptk_pool_put_threads(ts, ts->nr, true);
	cpt_put(ts->tab);
	kvfree(ts);
}
CPTK_EXPORT(cpt_threads_stop);

u64 cpt_threads_generation(struct cpt_threads *ts)
{
	u64 gen;

	mutex_lock(&cptk_pools_lock);
	gen = ts->generation;
	mutex_unlock(&cptk_pools_lock);
	return gen;
}
CPTK_EXPORT(cpt_threads_generation);

int cpt_threads_unbound(struct cpt_threads *ts)
{
	int unbound;

	mutex_lock(&cptk_pools_lock);
	unbound = ts->unbound;
	mutex_unlock(&cptk_pools_lock);
	return unbound;
}
CPTK_EXPORT(cpt_threads_unbound);

/*
 * Whether @ts moves to @tab: a pool made for @tab's count, on an older
 * table.  Serials grow with each table installed (live.c), and a pool is
 * rebound from two places, the notification and the hotplug callbacks:
 * a notification that took its table before a CPU event installed the
 * next one must find the pool on the newer table, and leave it there.
 */
static bool cptk_pool_moves_to(const struct cpt_threads *ts,
			       const struct cptab *tab)
{
	return tab && ts->count == cptab_number(tab) &&
	       ts->tab->serial < tab->serial;
}

static void cptk_pool_move(struct cpt_threads *ts, struct cptab *tab)
{
	cpt_put(ts->tab);
	ts->tab = cpt_hold(tab);
}

/**
 * cptk_pool_follow_cpu() - rebind every pool for a CPU event
 * @tab: the table installed for the event, valid during the call, or NULL
 *       where none was (the table in force had the CPU's state already, or
 *       it could not follow: ENOMEM)
 * @cpu: the CPU coming up or going down
 * @up: which
 *
 * Pools made for @tab's count move to it.  Every other pool stays on the
 * table it holds, for its consumer to replace (cpt.h), but it still
 * leaves a CPU going down, and gets back a CPU of its table coming up:
 * rebinding it to its own table, less the dying CPU, keeps its threads
 * off that CPU before the scheduler empties it, where select_fallback_rq()
 * would put them on any CPU, isolated ones included, and keeps the count
 * of threads unbound true.  A pool with threads unbound is rebound at
 * every CPU event: those threads may sit anywhere.
 *
 * Context: live.c's hotplug callbacks, with the hotplug lock held and the
 * CPU going down still in cpu_online_mask.
 */
static void cptk_pool_follow_cpu(struct cptab *tab, unsigned int cpu,
				 bool up)
{
	struct cpt_threads *ts;

	mutex_lock(&cptk_pools_lock);
	list_for_each_entry(ts, &cptk_pools, node) {
		if (cptk_pool_moves_to(ts, tab))
			cptk_pool_move(ts, tab);
		else if (!ts->unbound &&
			 !cpumask_test_cpu(cpu, cptab_cpumask(ts->tab, CPT_ANY)))
			continue;
		cptk_pool_bind(ts, ts->tab, up ? -1 : (int)cpu);
	}
	mutex_unlock(&cptk_pools_lock);
}

/* At least the lines cptk_pool_stats() writes now: a thread's each. */
int cptk_pool_stats_lines(void)
{
	struct cpt_threads *ts;
	int n = 0;

	mutex_lock(&cptk_pools_lock);
	list_for_each_entry(ts, &cptk_pools, node)
		n += ts->nr;
	mutex_unlock(&cptk_pools_lock);
	return n;
}

/*
 * Move the pools made for @tab's count to @tab, from the notification:
 * under cpus_read_lock(), as every binding.  A CPU event may have
 * installed a newer table since the notification took @tab, and moved
 * the pools to it: they stay there (cptk_pool_moves_to()).
 */
static void cptk_pool_follow(struct cptab *tab)
{
	struct cpt_threads *ts;

	cpus_read_lock();
	mutex_lock(&cptk_pools_lock);
	list_for_each_entry(ts, &cptk_pools, node) {
		if (!cptk_pool_moves_to(ts, tab))
			continue;
		cptk_pool_move(ts, tab);
		cptk_pool_bind(ts, tab, -1);
	}
	mutex_unlock(&cptk_pools_lock);
	cpus_read_unlock();
}

/* live.c calls these for every table and CPU event (live.h). */
const struct cptk_follower cptk_pool_follower = {
	.follow = cptk_pool_follow,
	.follow_cpu = cptk_pool_follow_cpu,
};

/*
 * The "pool" lines of /proc/cpt/stats: threads and threads unbound per
 * partition.  A pool's threads are made in partition order
 * (cptk_pool_create()), so each partition's are one run of @th.
 */
void cptk_pool_stats(struct seq_file *m)
{
	struct cpt_threads *ts;
	int i, j;

	mutex_lock(&cptk_pools_lock);
	list_for_each_entry(ts, &cptk_pools, node) {
		for (i = 0; i < ts->nr; i = j) {
			int unbound = 0;

			for (j = i; j < ts->nr && ts->th[j].cpt == ts->th[i].cpt;
			     j++)
				unbound += !ts->th[j].bound;
			seq_printf(m, "pool %d %d %d %s\n", ts->th[i].cpt, j - i,
				   unbound, ts->name);
		}
	}
	mutex_unlock(&cptk_pools_lock);
}
