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
#include <linux/workqueue.h>

#include "cpt.h"
#include "cpt_glue.h"

struct cptab __rcu *cpt_cur;

/* Serializes replacements; nests inside the CPU hotplug lock. */
static DEFINE_MUTEX(cpt_live_lock);
/* Generation of the last table installed (cpt_live_lock). */
static u64 cpt_generation;
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
EXPORT_SYMBOL_GPL(cpt_get);

struct cptab *cpt_hold(struct cptab *tab)
{
	refcount_inc(&tab->ref);
	return tab;
}
EXPORT_SYMBOL_GPL(cpt_hold);

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
EXPORT_SYMBOL_GPL(cpt_put);

int cpt_register_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&cpt_chain, nb);
}
EXPORT_SYMBOL_GPL(cpt_register_notifier);

int cpt_unregister_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&cpt_chain, nb);
}
EXPORT_SYMBOL_GPL(cpt_unregister_notifier);

/*
 * Tell consumers about the table in force, once per generation: several
 * replacements queued before the work ran make one notification.
 */
static void cpt_notify_fn(struct work_struct *work)
{
	struct cptab *tab = cpt_get();

	if (!tab)
		return;
	if (tab->generation != cpt_notified) {
		cpt_notified = tab->generation;
		blocking_notifier_call_chain(&cpt_chain, CPT_TABLE_REPLACED,
					     tab);
	}
	cpt_put(tab);
}

/* Make @tab the table in force; the caller holds cpt_live_lock. */
static void cpt_install(struct cptab *tab)
{
	struct cptab *old;

	tab->generation = ++cpt_generation;
	old = rcu_replace_pointer(cpt_cur, tab,
				  lockdep_is_held(&cpt_live_lock));
	if (!old)
		return;
	cpt_put(old);
	queue_work(cpt_wq, &cpt_notify_work);
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
	cpt_install(tab);
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
	cpt_install(tab);
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
	rcu_barrier();
	destroy_workqueue(cpt_wq);
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
	/* Frees wait for a grace period, then run on cpt_wq: drain both. */
	rcu_barrier();
	destroy_workqueue(cpt_wq);

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
 * Context: process context; takes cpus_read_lock().
 * Return: 0 once the consumers have been told of the new table, or the
 * planner's negative errno.
 */
int cpt_live_replan(const int *npartitions, const char *pattern)
{
	struct cptab *old, *tab;
	int ret = 0;

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
	cpt_install(tab);
	cpt_report(tab);
unlock:
	mutex_unlock(&cpt_live_lock);
	cpus_read_unlock();
	if (!ret)
		flush_work(&cpt_notify_work);
	return ret;
}
