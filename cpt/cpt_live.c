// SPDX-License-Identifier: GPL-2.0
/*
 * The table in force, and how it is replaced while cpt is loaded.
 *
 * One table is in force at a time, published through the RCU pointer
 * cpt_cur.  It is replaced whole, never changed in place:
 *   - at load, planned from the module parameters;
 *   - by a sysctl write (cpu_npartitions, cpu_pattern): planned from
 *     scratch, from the CPUs online now;
 *   - when a CPU goes offline or comes online: cpt_table_update() of the
 *     table in force, which never moves a placed CPU;
 *   - at unload, by nothing.
 * Replacements are serialized by cpt_live_lock, taken inside the CPU hotplug
 * lock: sysctl writes take cpus_read_lock() first, hotplug callbacks already
 * run under the write side.  So the topology a table is planned from is the
 * one in force when it is installed, and no CPU event is missed.
 *
 * A replaced table lives on while anyone uses it.  Lookups are RCU readers;
 * holders (cpt_get()) count in its refcount, the pointer to the table in
 * force being one of them.  The last cpt_put() frees it after a grace
 * period, from a work item (kvfree() of big arrays wants process context).
 *
 * Consumers hear of a new table through a blocking notifier chain, called
 * from a work item: outside cpt_live_lock and the hotplug lock, so that
 * they may sleep, start threads or take cpus_read_lock() while they
 * rebuild.  A sysctl write waits for that work before it returns; a CPU
 * event cannot (a consumer may need the hotplug lock the event holds).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "cpt.h"
#include "cpt_compat.h"
#include "cpt_fault.h"
#include "cpt_glue.h"

struct cptab __rcu *cpt_cur;

/* Serializes replacements; nests inside the CPU hotplug lock. */
static DEFINE_MUTEX(cpt_live_lock);
/*
 * The last generation and serial number given (cpt_live_lock): every table
 * installed gets a new serial, and a new generation unless it has the
 * partitions of the one it replaces (struct cptab).
 */
static u64 cpt_generation;
static u64 cpt_serial;
/* The dynamic hotplug state, removed by this id at exit. */
static int cpt_hp_state;
/* Frees replaced tables and notifies consumers, in order; drained at exit. */
static struct workqueue_struct *cpt_wq;

static BLOCKING_NOTIFIER_HEAD(cpt_chain);
/* Generation the chain last heard of; only cpt_notify_fn() uses it. */
static u64 cpt_notified;
static void cpt_notify_fn(struct work_struct *work);
static DECLARE_WORK(cpt_notify_work, cpt_notify_fn);

struct cptab *cpt_get(void)
{
	struct cptab *tab;

	rcu_read_lock();
	/*
	 * The table in force has a reference from cpt_cur, so a count of
	 * zero means it has just been replaced: the next read of cpt_cur
	 * finds its successor, installed before the reference was dropped.
	 */
	do {
		tab = rcu_dereference(cpt_cur);
	} while (tab && !refcount_inc_not_zero(&tab->ref));
	rcu_read_unlock();
	return tab;
}
CPT_EXPORT(cpt_get);

struct cptab *cpt_hold(struct cptab *tab)
{
	refcount_inc(&tab->ref);
	return tab;
}
CPT_EXPORT(cpt_hold);

static void cpt_free_fn(struct work_struct *work)
{
	cptab_destroy(container_of(to_rcu_work(work), struct cptab,
				   free_work));
}

void cpt_put(struct cptab *tab)
{
	if (!tab || !refcount_dec_and_test(&tab->ref))
		return;
	/* Lookups that found it before it was replaced may still read it. */
	INIT_RCU_WORK(&tab->free_work, cpt_free_fn);
	queue_rcu_work(cpt_wq, &tab->free_work);
}
CPT_EXPORT(cpt_put);

/*
 * The task running the consumers' callbacks, while it does.  The chain's
 * rwsem is read-held then, so a callback that registered or unregistered
 * a notifier would wait for itself, and a sysctl write from one would wait
 * for its own notification: those calls fail instead (cpt.h).
 */
static struct task_struct *cpt_notify_task;

bool cpt_in_notifier(void)
{
	return READ_ONCE(cpt_notify_task) == current;
}

/* One line for a call that a notifier callback must not make. */
static int cpt_refuse_in_notifier(const char *what)
{
	pr_warn_ratelimited("%s called from a notifier callback: refused\n",
			    what);
	return -EDEADLK;
}

int cpt_register_notifier(struct notifier_block *nb)
{
	if (cpt_in_notifier())
		return cpt_refuse_in_notifier("cpt_register_notifier()");
	return blocking_notifier_chain_register(&cpt_chain, nb);
}
CPT_EXPORT(cpt_register_notifier);

int cpt_unregister_notifier(struct notifier_block *nb)
{
	if (cpt_in_notifier())
		return cpt_refuse_in_notifier("cpt_unregister_notifier()");
	return blocking_notifier_chain_unregister(&cpt_chain, nb);
}
CPT_EXPORT(cpt_unregister_notifier);

/*
 * Tell consumers about the table in force, once per generation: several
 * replacements queued before the work ran make one notification.
 */
static void cpt_notify_fn(struct work_struct *work)
{
	struct cptab *tab = cpt_get();

	if (!tab)
		return;
	cpt_fault_delay(CPT_FAULT_NOTIFY);
	if (tab->generation != cpt_notified) {
		cpt_notified = tab->generation;
		WRITE_ONCE(cpt_notify_task, current);
		blocking_notifier_call_chain(&cpt_chain, CPT_TABLE_REPLACED,
					     tab);
		WRITE_ONCE(cpt_notify_task, NULL);
	}
	cpt_put(tab);
}

/*
 * Make @tab the table in force; the caller holds cpt_live_lock.  @same:
 * @tab has the partitions of the table in force (cpt_table_equal()), and
 * only the values shown in /proc change; it then keeps the generation, and
 * consumers are not told, since they would rebuild what they have.  Return
 * whether they will be told.
 */
static bool cpt_install(struct cptab *tab, bool same)
{
	struct cptab *old;

	old = rcu_dereference_protected(cpt_cur,
					lockdep_is_held(&cpt_live_lock));
	same = same && old;
	tab->generation = same ? old->generation : ++cpt_generation;
	tab->serial = ++cpt_serial;
	rcu_assign_pointer(cpt_cur, tab);
	if (!old)
		return false;
	cpt_put(old);
	if (!same)
		queue_work(cpt_wq, &cpt_notify_work);
	return !same;
}

static struct cptab *cpt_uninstall(void)
{
	struct cptab *old;

	mutex_lock(&cpt_live_lock);
	old = rcu_replace_pointer(cpt_cur, NULL,
				  lockdep_is_held(&cpt_live_lock));
	mutex_unlock(&cpt_live_lock);
	return old;
}

/* The summary line of a planned table, at load and after each write. */
static void cpt_report(const struct cptab *tab)
{
	const struct cpt_table *table = tab->table;

	pr_info("%d partitions over %d nodes, %d cores, %d CPUs\n",
		table->nr_parts, table->nr_placed_nodes,
		table->nr_placed_cores, table->nr_placed_cpus);
	if (table->warnings & CPT_WARN_SPLIT_CORES)
		pr_warn("more partitions than cores (%d): SMT siblings are split between partitions\n",
			table->nr_placed_cores);
	if (table->warnings & CPT_WARN_NPART_IGNORED)
		pr_warn("npartitions=%d ignored: cpu_pattern sets the partitions\n",
			tab->npartitions);
}

/*
 * Plan a table for @npartitions and @pattern from the CPUs online now.  The
 * caller holds the hotplug lock.  A refused plan logs one line, the
 * planner's own, whether the values come from the module parameters or a
 * sysctl write: the user's value is wrong, and the line says why.
 */
static struct cptab *cpt_build(int npartitions, const char *pattern)
{
	struct cpt_err err = { .offset = -1 };
	struct cpt_table *table;
	struct cpt_topo *topo;
	struct cptab *tab;
	int ret;

	topo = cpt_topo_snapshot(-1);
	if (!topo)
		return ERR_PTR(-ENOMEM);
	ret = cpt_plan(topo, npartitions, pattern, &table, &err);
	cpt_topo_free(topo);
	if (ret) {
		if (err.msg[0])
			pr_err("%s\n", err.msg);
		else
			pr_err("cannot plan the partition table: error %d\n",
			       ret);
		return ERR_PTR(ret);
	}
	tab = cptab_create(table, npartitions, pattern);
	return tab ?: ERR_PTR(-ENOMEM);
}

/*
 * Whether @table already lists exactly the CPUs that are online once @cpu
 * has come up (@up) or gone: then the event changes nothing, as for the
 * CPUs that are online when cpt loads, or a teardown rolled back before it
 * reached us.
 */
static bool cpt_table_is_current(const struct cpt_table *table,
				 unsigned int cpu, bool up)
{
	unsigned int c;

	for (c = 0; c < table->nr_cpus; c++)
		if (table->cpu_online[c] != (cpu_online(c) && (up || c != cpu)))
			return false;
	return true;
}

/* A CPU that gets a partition for the first time is worth a line. */
static void cpt_report_joins(const struct cpt_table *old,
			     const struct cpt_table *new)
{
	int c;

	for (c = 0; c < new->nr_cpus; c++)
		if (old->cpu_part[c] == CPT_NONE && new->cpu_part[c] != CPT_NONE)
			pr_info("CPU %d joins partition %d\n", c,
				new->cpu_part[c]);
}

/* Follow @cpu coming up or going down, under the hotplug lock. */
static void cpt_follow(unsigned int cpu, bool up)
{
	struct cpt_err err = { .offset = -1 };
	struct cptab *old, *tab;
	struct cpt_table *table;
	struct cpt_topo *topo;
	int ret = -ENOMEM;

	mutex_lock(&cpt_live_lock);
	old = rcu_dereference_protected(cpt_cur,
					lockdep_is_held(&cpt_live_lock));
	if (!old || cpt_table_is_current(old->table, cpu, up))
		goto unlock;

	topo = cpt_topo_snapshot(up ? -1 : (int)cpu);
	if (!topo)
		goto warn;
	ret = cpt_table_update(old->table, topo, &table, &err);
	cpt_topo_free(topo);
	if (ret)
		goto warn;
	tab = cptab_create(table, old->npartitions, old->pattern);
	if (!tab) {
		ret = -ENOMEM;
		goto warn;
	}
	cpt_report_joins(old->table, tab->table);
	/* The CPUs online differ (cpt_table_is_current()): so does @tab. */
	cpt_install(tab, false);
	goto unlock;

warn:
	/*
	 * Failing the CPU event would be worse than a stale table: keep the
	 * old one.  The next event or sysctl write compares with the online
	 * mask again and catches up.
	 */
	pr_warn_once("cannot follow CPU %u going %s (error %d): the partition table stays as it was\n",
		     cpu, up ? "online" : "offline", ret);
unlock:
	mutex_unlock(&cpt_live_lock);
}

/*
 * Hotplug callbacks of the CPUHP_AP_ONLINE_DYN state: they run on @cpu
 * with the hotplug lock held for writing, after @cpu is in cpu_online_mask
 * (up) and before it leaves it (down).  They never fail the event.
 */
static int cpt_cpu_online(unsigned int cpu)
{
	cpt_follow(cpu, true);
	return 0;
}

static int cpt_cpu_offline(unsigned int cpu)
{
	cpt_follow(cpu, false);
	return 0;
}

/*
 * Wait until no table is left to free, then destroy cpt_wq.  Nothing can
 * queue a notification any more (the hotplug state and the sysctl files
 * are gone, or were never there), but one may still be running, and it
 * can drop the last reference of a table: its cpt_put() queues a free
 * after a grace period.  So, in this order:
 *   1. flush cpt_wq: the running notification has put its table;
 *   2. rcu_barrier(): every free queued so far is on cpt_wq;
 *   3. destroy_workqueue() runs them.
 * A free queues nothing, so nothing comes after 3.  The other way round
 * (the barrier first), a notification that put the last reference after
 * the barrier queued its free on a destroyed workqueue.
 */
static void cpt_drain(void)
{
	flush_workqueue(cpt_wq);
	rcu_barrier();
	destroy_workqueue(cpt_wq);
}

/**
 * cpt_live_start() - plan the first table, install it, follow hotplug
 * @npartitions: the partition count asked for (0: automatic)
 * @pattern: the cpu_pattern ("" for none)
 *
 * Planning, installing and registering the hotplug state happen under one
 * cpus_read_lock(): no CPU comes or goes between the snapshot and the first
 * callback, so no event is missed and none needs catching up.
 *
 * Return: 0, or a negative errno (a refused plan has said why in the log).
 */
int cpt_live_start(int npartitions, const char *pattern)
{
	struct cptab *tab;
	int ret;

	/*
	 * Ordered, hence unbound: the hotplug callbacks queue work from the
	 * CPU that is going down, where a per-CPU pool would have to be
	 * evacuated with it; and one item at a time, so that a burst of
	 * replacements (a consumer rebuilding slowly, frees queuing behind
	 * it) does not make the pool spawn a crowd of workers.
	 */
	cpt_wq = alloc_ordered_workqueue("cpt", 0);
	if (!cpt_wq)
		return -ENOMEM;

	cpus_read_lock();
	mutex_lock(&cpt_live_lock);
	tab = cpt_build(npartitions, pattern);
	if (IS_ERR(tab)) {
		mutex_unlock(&cpt_live_lock);
		cpus_read_unlock();
		ret = PTR_ERR(tab);
		goto err_wq;
	}
	cpt_install(tab, false);
	cpt_notified = tab->generation;
	cpt_report(tab);
	mutex_unlock(&cpt_live_lock);

	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
						   "cpt:online",
						   cpt_cpu_online,
						   cpt_cpu_offline);
	cpus_read_unlock();
	if (ret < 0) {
		pr_err("cannot follow CPU hotplug: error %d\n", ret);
		goto err_uninstall;
	}
	cpt_hp_state = ret;
	return 0;

err_uninstall:
	cpt_put(cpt_uninstall());
err_wq:
	cpt_drain();
	return ret;
}

/**
 * cpt_live_stop() - stop following hotplug and free the table
 *
 * Called when no other module uses cpt (the module loader sees to that)
 * and the sysctl files are gone, so nothing can replace or look up the
 * table any more.
 */
void cpt_live_stop(void)
{
	int left;

	cpuhp_remove_state_nocalls(cpt_hp_state);
	cpt_put(cpt_uninstall());
	cpt_drain();

	/*
	 * A consumer that did not put a table or unregister its notifier is
	 * gone by now: say so rather than free memory it may still name.
	 */
	left = atomic_read(&cpt_nr_tables);
	if (left)
		pr_warn("%d partition tables still held at unload (a consumer did not cpt_put() them): leaked\n",
			left);
	if (rcu_access_pointer(cpt_chain.head))
		pr_warn("a consumer did not unregister its notifier\n");
}

/**
 * cpt_live_replan() - plan a new table from scratch and put it in force
 * @npartitions: the new partition count, or NULL to keep the one in force
 * @pattern: the new cpu_pattern, or NULL to keep the one in force
 *
 * The sysctl write path.  The new table is planned from the CPUs online
 * now, exactly as at load; a refused plan leaves the table in force, and
 * the values shown in /proc, untouched.
 *
 * Context: process context; takes cpus_read_lock().  Not from a notifier
 * callback (-EDEADLK).
 * Return: 0 once the consumers have been told of the new table (or at
 * once when the plan is the table in force: nothing is replaced), or the
 * planner's negative errno.
 */
int cpt_live_replan(const int *npartitions, const char *pattern)
{
	struct cptab *old, *tab;
	bool notify = false, same;
	int ret = 0;

	/* It would wait for the notification that is calling it. */
	if (cpt_in_notifier())
		return cpt_refuse_in_notifier("a cpt sysctl write");
	cpus_read_lock();
	mutex_lock(&cpt_live_lock);
	old = rcu_dereference_protected(cpt_cur,
					lockdep_is_held(&cpt_live_lock));
	if (!old) {
		ret = -ENODEV;
		goto unlock;
	}
	tab = cpt_build(npartitions ? *npartitions : old->npartitions,
			pattern ?: old->pattern);
	if (IS_ERR(tab)) {
		ret = PTR_ERR(tab);
		goto unlock;
	}
	cpt_report(tab);
	/*
	 * A value written again: a new table would only make readers start
	 * again.  (Other values that give the same partitions, such as a
	 * count under an explicit pattern, are shown: the table is replaced,
	 * but consumers are not told, see cpt_install().)
	 */
	same = cpt_table_equal(old->table, tab->table);
	if (same && tab->npartitions == old->npartitions &&
	    !strcmp(tab->pattern, old->pattern)) {
		pr_info("the partition table is unchanged\n");
		cptab_destroy(tab);
		goto unlock;
	}
	notify = cpt_install(tab, same);
	if (!notify)
		pr_info("the partitions are unchanged\n");
unlock:
	mutex_unlock(&cpt_live_lock);
	cpus_read_unlock();
	if (notify)
		flush_work(&cpt_notify_work);
	return ret;
}
