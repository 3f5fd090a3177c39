// SPDX-License-Identifier: GPL-2.0
/*
 * The table in force, and how it is replaced while cpt is loaded.
 *
 * One table is in force at a time, published through the RCU pointer
 * cptk_cur.  It is replaced whole, never changed in place:
 *   - at load, planned from the module parameters;
 *   - by a sysctl write (cpu_npartitions, cpu_pattern): planned from
 *     scratch, from the CPUs online now;
 *   - when a CPU goes offline or comes online: cplan_table_update() of the
 *     table in force, which never moves a placed CPU;
 *   - at unload, by nothing.
 * Replacements are serialized by cptk_live_lock, taken inside the CPU hotplug
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
 * from a work item: outside cptk_live_lock and the hotplug lock, so that
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
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "cpt.h"
#include "compat.h"
#include "cpt_trace.h"
#include "fault.h"
#include "live.h"
#include "tab.h"
#include "topo.h"

static struct cptab __rcu *cptk_cur;

/* Serializes replacements; nests inside the CPU hotplug lock. */
static DEFINE_MUTEX(cptk_live_lock);
/*
 * The last generation and serial number given (cptk_live_lock): every table
 * installed gets a new serial, and a new generation unless it has the
 * partitions of the one it replaces (struct cptab).
 */
static u64 cptk_generation;
static u64 cptk_serial;
/* The dynamic hotplug state, removed by this id at exit. */
static int cptk_hp_state;
/* Frees replaced tables and notifies consumers, in order; drained at exit. */
static struct workqueue_struct *cptk_wq;

static BLOCKING_NOTIFIER_HEAD(cptk_chain);
/* Generation the chain last heard of; only cptk_notify_fn() uses it. */
static u64 cptk_notified;

/* The thread pools (pool.c), set before the first table: live.h. */
static const struct cptk_follower *cptk_follower;

void cptk_live_set_follower(const struct cptk_follower *follower)
{
	cptk_follower = follower;
}

static void cptk_notify_fn(struct work_struct *work);
static DECLARE_WORK(cptk_notify_work, cptk_notify_fn);

/* A reference to the table in force (cpt.h), taken without a lock. */
struct cptab *cpt_get(void)
{
	struct cptab *tab;

	rcu_read_lock();
	/*
	 * The table in force has a reference from cptk_cur, so a count of
	 * zero means it has just been replaced: the next read of cptk_cur
	 * finds its successor, installed before the reference was dropped.
	 */
	do {
		tab = rcu_dereference(cptk_cur);
	} while (tab && !refcount_inc_not_zero(&tab->ref));
	rcu_read_unlock();
	return tab;
}
CPTK_EXPORT(cpt_get);

struct cptab *cpt_hold(struct cptab *tab)
{
	refcount_inc(&tab->ref);
	return tab;
}
CPTK_EXPORT(cpt_hold);

static void cptk_free_fn(struct work_struct *work)
{
	cptk_tab_destroy(container_of(to_rcu_work(work), struct cptab,
				   free_work));
}

/* The last reference frees the table. */
void cpt_put(struct cptab *tab)
{
	if (!tab || !refcount_dec_and_test(&tab->ref))
		return;
	/* Lookups that found it before it was replaced may still read it. */
	INIT_RCU_WORK(&tab->free_work, cptk_free_fn);
	queue_rcu_work(cptk_wq, &tab->free_work);
}
CPTK_EXPORT(cpt_put);

/*
 * The task running the consumers' callbacks, while it does.  The chain's
 * rwsem is read-held then, so a callback that registered or unregistered
 * a notifier would wait for itself, and a sysctl write from one would wait
 * for its own notification: those calls fail instead (cpt.h).
 */
static struct task_struct *cptk_notify_task;

bool cptk_in_notifier(void)
{
	return READ_ONCE(cptk_notify_task) == current;
}

/* One line for a call that a notifier callback must not make. */
static int cptk_refuse_in_notifier(const char *what)
{
	pr_warn_ratelimited("%s called from a notifier callback: refused\n",
			    what);
	return -EDEADLK;
}

int cpt_register_notifier(struct notifier_block *nb)
{
	if (cptk_in_notifier())
		return cptk_refuse_in_notifier("cpt_register_notifier()");
	return blocking_notifier_chain_register(&cptk_chain, nb);
}
CPTK_EXPORT(cpt_register_notifier);

int cpt_unregister_notifier(struct notifier_block *nb)
{
	if (cptk_in_notifier())
		return cptk_refuse_in_notifier("cpt_unregister_notifier()");
	return blocking_notifier_chain_unregister(&cptk_chain, nb);
}
CPTK_EXPORT(cpt_unregister_notifier);

/*
 * Tell consumers about the table in force, once per generation: several
 * replacements queued before the work ran make one notification.
 */
static void cptk_notify_fn(struct work_struct *work)
{
	struct cptab *tab = cpt_get();

	if (!tab)
		return;
	cptk_fault_delay(CPTK_FAULT_NOTIFY);
	/* Every new table, partitions changed or not: a CPU came or went. */
	if (cptk_follower)
		cptk_follower->follow(tab);
	if (tab->generation != cptk_notified) {
		cptk_notified = tab->generation;
		WRITE_ONCE(cptk_notify_task, current);
		blocking_notifier_call_chain(&cptk_chain, CPT_TABLE_REPLACED,
					     tab);
		WRITE_ONCE(cptk_notify_task, NULL);
	}
	cpt_put(tab);
}

/*
 * cpt_current() in cpt.h reads it: the answer of cptab_current() of the
 * table in force, per CPU.  Zero before the first table, which is
 * partition 0 of any.  Defined here, beside its one writer, with the
 * type cpt.h declares; a per-CPU export has no namespace form.
 */
DEFINE_PER_CPU(struct cpt_percpu_id, cpt_cpu_partition);
EXPORT_PER_CPU_SYMBOL_GPL(cpt_cpu_partition);

/*
 * Point every CPU's cpt_cpu_partition (cpt_current()) at @tab, now in
 * force: after the pointer is published, before consumers are told, as
 * cpt.h says.  Offline CPUs too, so that they answer from @tab when they
 * come back, before their own hotplug event has replaced it.
 */
static void cptk_set_current(const struct cptab *tab)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu(cpt_cpu_partition, cpu).cptk_cpt,
			   tab->current_of_cpu[cpu]);
}

/*
 * Make @tab the table in force; the caller holds cptk_live_lock.  @same:
 * @tab has the partitions of the table in force (cplan_table_equal()), and
 * only the values shown in /proc change; it then keeps the generation, and
 * consumers are not told, since they would rebuild what they have.  @why
 * (CPTK_TABLE_*) and @cpu (of a hotplug event, else -1) are for the
 * tracepoint.  Return whether consumers will be told.
 */
static bool cptk_install(struct cptab *tab, bool same, int why, int cpu)
{
	struct cptab *old;

	old = rcu_dereference_protected(cptk_cur,
					lockdep_is_held(&cptk_live_lock));
	same = same && old;
	tab->generation = same ? old->generation : ++cptk_generation;
	tab->serial = ++cptk_serial;
	rcu_assign_pointer(cptk_cur, tab);
	cptk_set_current(tab);
	trace_cpt_table(old ? old->generation : 0, tab->generation, tab->serial,
			tab->table->nr_parts, tab->table->nr_placed_cpus, why,
			cpu);
	if (!old)
		return false;
	cpt_put(old);
	if (!same)
		queue_work(cptk_wq, &cptk_notify_work);
	return !same;
}

static struct cptab *cptk_uninstall(void)
{
	struct cptab *old;

	mutex_lock(&cptk_live_lock);
	old = rcu_replace_pointer(cptk_cur, NULL,
				  lockdep_is_held(&cptk_live_lock));
	mutex_unlock(&cptk_live_lock);
	return old;
}

/* The summary line of a planned table, at load and after each write. */
static void cptk_report(const struct cptab *tab)
{
	const struct cplan_table *table = tab->table;

	pr_info("%d partitions over %d nodes, %d cores, %d CPUs\n",
		table->nr_parts, table->nr_placed_nodes,
		table->nr_placed_cores, table->nr_placed_cpus);
	if (table->warnings & CPLAN_WARN_SPLIT_CORES)
		pr_warn("more partitions than cores (%d): SMT siblings are split between partitions\n",
			table->nr_placed_cores);
	if (table->warnings & CPLAN_WARN_NPART_IGNORED)
		pr_warn("npartitions=%d ignored: cpu_pattern sets the partitions\n",
			tab->npartitions);
}

/*
 * Plan a table for @npartitions and @pattern from the CPUs online now,
 * leaving out the isolated ones unless @include_isolated.  The caller
 * holds the hotplug lock.  A refused plan logs one line, the
 * planner's own, whether the values come from the module parameters or a
 * sysctl write: the user's value is wrong, and the line says why.
 */
static struct cptab *cptk_build(int npartitions, const char *pattern,
			       bool include_isolated)
{
	struct cplan_err err = { .offset = -1 };
	struct cplan_table *table;
	struct cplan_topo *topo;
	struct cptab *tab;
	int ret;

	topo = cptk_topo_snapshot(-1, include_isolated);
	if (!topo)
		return ERR_PTR(-ENOMEM);
	ret = cplan_make(topo, npartitions, pattern, &table, &err);
	cplan_topo_free(topo);
	if (ret) {
		if (err.msg[0])
			pr_err("%s\n", err.msg);
		else
			pr_err("cannot plan the partition table: error %d\n",
			       ret);
		return ERR_PTR(ret);
	}
	tab = cptk_tab_create(table, npartitions, pattern);
	if (!tab)
		return ERR_PTR(-ENOMEM);
	tab->include_isolated = include_isolated;
	return tab;
}

/*
 * Whether @table already lists exactly the CPUs that are online once @cpu
 * has come up (@up) or gone: then the event changes nothing, as for the
 * CPUs that are online when cpt loads, or a teardown rolled back before it
 * reached us.
 */
static bool cptk_table_is_current(const struct cplan_table *table,
				 unsigned int cpu, bool up)
{
	unsigned int c;

	for (c = 0; c < table->nr_cpus; c++)
		if (table->cpu_online[c] != (cpu_online(c) && (up || c != cpu)))
			return false;
	return true;
}

/* A CPU that gets a partition for the first time is worth a line. */
static void cptk_report_joins(const struct cplan_table *old,
			     const struct cplan_table *new)
{
	int c;

	for (c = 0; c < new->nr_cpus; c++)
		if (old->cpu_part[c] == CPLAN_NONE && new->cpu_part[c] != CPLAN_NONE)
			pr_info("CPU %d joins partition %d\n", c,
				new->cpu_part[c]);
}

/*
 * cpt_cpu_place for @cpu, come online, and for any other CPU the update
 * placed, with the rule of @why (enum cplan_why, of cplan_table_update_why()).
 * Called once @tab is installed, for its serial, when the table it
 * replaced may be freed already: so the CPUs placed are told by @why, not
 * by a comparison with that table as in cptk_report_joins().
 */
static void cptk_trace_places(const struct cptab *tab, const unsigned char *why,
			      unsigned int cpu)
{
	const struct cplan_table *table = tab->table;
	int c;

	for (c = 0; c < table->nr_cpus; c++)
		if (c == (int)cpu || (why[c] != CPLAN_WHY_NONE &&
				      why[c] != CPLAN_WHY_KEPT &&
				      why[c] != CPLAN_WHY_BARRED))
			trace_cpt_cpu_place(c, table->cpu_part[c], why[c],
					    tab->serial);
}

/*
 * The table for @cpu come up or gone, from the table in force @old, or an
 * ERR_PTR; NULL where @old has the CPUs online already.  Under the
 * hotplug lock and cptk_live_lock.
 */
static struct cptab *cptk_follow_table(struct cptab *old, unsigned int cpu,
				       bool up)
{
	struct cplan_err err = { .offset = -1 };
	unsigned char *why = NULL;
	struct cplan_table *table;
	struct cplan_topo *topo;
	struct cptab *tab;
	int ret;

	if (cptk_table_is_current(old->table, cpu, up))
		return NULL;
	/* An isolated CPU coming online stays out (cplan_table_update()). */
	topo = cptk_topo_snapshot(up ? -1 : (int)cpu, old->include_isolated);
	if (!topo)
		return ERR_PTR(-ENOMEM);
	/* The rules that placed CPUs, only for a tracer that wants them. */
	if (up && trace_cpt_cpu_place_enabled())
		why = kmalloc(topo->nr_cpus, GFP_KERNEL);
	ret = cplan_table_update_why(old->table, topo, &table, why, &err);
	cplan_topo_free(topo);
	if (ret) {
		tab = ERR_PTR(ret);
		goto out;
	}
	tab = cptk_tab_create(table, old->npartitions, old->pattern);
	if (!tab) {
		tab = ERR_PTR(-ENOMEM);
		goto out;
	}
	tab->include_isolated = old->include_isolated;
	cptk_report_joins(old->table, tab->table);
	/* The CPUs online differ (cptk_table_is_current()): so does @tab. */
	cptk_install(tab, false, up ? CPTK_TABLE_ONLINE : CPTK_TABLE_OFFLINE,
		     (int)cpu);
	if (why)
		cptk_trace_places(tab, why, cpu);
out:
	kfree(why);
	return tab;
}

/* Follow @cpu coming up or going down, under the hotplug lock. */
static void cptk_follow(unsigned int cpu, bool up)
{
	struct cptab *old, *tab = NULL;

	mutex_lock(&cptk_live_lock);
	old = rcu_dereference_protected(cptk_cur,
					lockdep_is_held(&cptk_live_lock));
	if (old)
		tab = cptk_follow_table(old, cpu, up);
	/*
	 * Failing the CPU event would be worse than a stale table: keep the
	 * old one.  The next event or sysctl write compares with the online
	 * mask again and catches up.
	 */
	if (IS_ERR(tab)) {
		pr_warn_once("cannot follow CPU %u going %s (error %ld): the partition table stays as it was\n",
			     cpu, up ? "online" : "offline", PTR_ERR(tab));
		tab = NULL;
	}
	/*
	 * Now, not from the notification, and whether or not a table was
	 * installed: a pool thread must be off a CPU going down before the
	 * scheduler empties it (pool.c).
	 */
	if (cptk_follower)
		cptk_follower->follow_cpu(tab, cpu, up);
	mutex_unlock(&cptk_live_lock);
}

/*
 * Hotplug callbacks of the CPUHP_AP_ONLINE_DYN state: they run on @cpu
 * with the hotplug lock held for writing, after @cpu is in cpu_online_mask
 * (up) and before it leaves it (down).  They never fail the event.
 */
static int cptk_cpu_online(unsigned int cpu)
{
	cptk_follow(cpu, true);
	return 0;
}

static int cptk_cpu_offline(unsigned int cpu)
{
	cptk_fault_delay(CPTK_FAULT_OFFLINE);
	cptk_follow(cpu, false);
	return 0;
}

/*
 * Wait until no table is left to free, then destroy cptk_wq.  Nothing can
 * queue a notification any more (the hotplug state and the sysctl files
 * are gone, or were never there), but one may still be running, and it
 * can drop the last reference of a table: its cpt_put() queues a free
 * after a grace period.  So, in this order:
 *   1. flush cptk_wq: the running notification has put its table;
 *   2. rcu_barrier(): every free queued so far is on cptk_wq;
 *   3. destroy_workqueue() runs them.
 * A free queues nothing, so nothing comes after 3.  The other way round
 * (the barrier first), a notification that put the last reference after
 * the barrier queued its free on a destroyed workqueue.
 */
static void cptk_drain(void)
{
	flush_workqueue(cptk_wq);
	rcu_barrier();
	destroy_workqueue(cptk_wq);
}

/**
 * cptk_live_start() - plan the first table, install it, follow hotplug
 * @npartitions: the partition count asked for (0: automatic)
 * @pattern: the cpu_pattern ("" for none)
 * @include_isolated: place the CPUs isolcpus= and nohz_full= isolate too
 *
 * Planning, installing and registering the hotplug state happen under one
 * cpus_read_lock(): no CPU comes or goes between the snapshot and the first
 * callback, so no event is missed and none needs catching up.
 *
 * Return: 0, or a negative errno (a refused plan has said why in the log).
 */
int cptk_live_start(int npartitions, const char *pattern, bool include_isolated)
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
	cptk_wq = alloc_ordered_workqueue("cpt", 0);
	if (!cptk_wq)
		return -ENOMEM;

	cpus_read_lock();
	mutex_lock(&cptk_live_lock);
	tab = cptk_build(npartitions, pattern, include_isolated);
	if (IS_ERR(tab)) {
		mutex_unlock(&cptk_live_lock);
		cpus_read_unlock();
		ret = PTR_ERR(tab);
		goto err_wq;
	}
	cptk_install(tab, false, CPTK_TABLE_LOAD, -1);
	cptk_notified = tab->generation;
	cptk_report(tab);
	mutex_unlock(&cptk_live_lock);

	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
						   "cpt:online",
						   cptk_cpu_online,
						   cptk_cpu_offline);
	cpus_read_unlock();
	if (ret < 0) {
		pr_err("cannot follow CPU hotplug: error %d\n", ret);
		goto err_uninstall;
	}
	cptk_hp_state = ret;
	return 0;

err_uninstall:
	cpt_put(cptk_uninstall());
err_wq:
	cptk_drain();
	return ret;
}

/**
 * cptk_live_stop() - stop following hotplug and free the table
 *
 * Called when no other module uses cpt (the module loader sees to that)
 * and the sysctl files are gone, so nothing can replace or look up the
 * table any more.
 */
void cptk_live_stop(void)
{
	int left;

	cpuhp_remove_state_nocalls(cptk_hp_state);
	cpt_put(cptk_uninstall());
	cptk_drain();

	/*
	 * A consumer that did not put a table or unregister its notifier is
	 * gone by now: say so rather than free memory it may still name.
	 */
	left = atomic_read(&cptk_nr_tables);
	if (left)
		pr_warn("%d partition tables still held at unload (a consumer did not cpt_put() them): leaked\n",
			left);
	if (rcu_access_pointer(cptk_chain.head))
		pr_warn("a consumer did not unregister its notifier\n");
}

/**
 * cptk_live_replan() - plan a new table from scratch and put it in force
 * @npartitions: the new partition count, or NULL to keep the one in force
 * @pattern: the new cpu_pattern, or NULL to keep the one in force
 * @include_isolated: the new include_isolated, or NULL to keep the one in
 *	force
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
int cptk_live_replan(const int *npartitions, const char *pattern,
		     const bool *include_isolated)
{
	struct cptab *old, *tab;
	bool notify = false, same;
	int ret = 0;

	/* It would wait for the notification that is calling it. */
	if (cptk_in_notifier())
		return cptk_refuse_in_notifier("a cpt sysctl write");
	cpus_read_lock();
	mutex_lock(&cptk_live_lock);
	old = rcu_dereference_protected(cptk_cur,
					lockdep_is_held(&cptk_live_lock));
	if (!old) {
		ret = -ENODEV;
		goto unlock;
	}
	tab = cptk_build(npartitions ? *npartitions : old->npartitions,
			 pattern ?: old->pattern,
			 include_isolated ? *include_isolated :
					    old->include_isolated);
	if (IS_ERR(tab)) {
		ret = PTR_ERR(tab);
		goto unlock;
	}
	cptk_report(tab);
	/*
	 * A value written again: a new table would only make readers start
	 * again.  (Other values that give the same partitions, such as a
	 * count under an explicit pattern, are shown: the table is replaced,
	 * but consumers are not told, see cptk_install().)
	 */
	same = cplan_table_equal(old->table, tab->table);
	if (same && tab->npartitions == old->npartitions &&
	    !strcmp(tab->pattern, old->pattern) &&
	    tab->include_isolated == old->include_isolated) {
		pr_info("the partition table is unchanged\n");
		cptk_tab_destroy(tab);
		goto unlock;
	}
	notify = cptk_install(tab, same, CPTK_TABLE_SYSCTL, -1);
	if (!notify)
		pr_info("the partitions are unchanged\n");
unlock:
	mutex_unlock(&cptk_live_lock);
	cpus_read_unlock();
	if (notify)
		flush_work(&cptk_notify_work);
	return ret;
}
