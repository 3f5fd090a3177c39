// SPDX-License-Identifier: GPL-2.0
/*
 * What other modules call (include/cpt.h) about tables: the lookups, masks,
 * binding, get/put and the notifier.  The service helpers export their own
 * symbols: percpt.c (objects and locks per partition), pool.c (threads).
 *
 * A table is built completely before it is installed and never changes
 * afterwards (tab.c), so lookups are plain array reads.  The cptab_*()
 * functions answer for a table the caller holds; the cpt_*() ones for the
 * table in force, read under rcu_read_lock(): live.c frees a replaced
 * table only after a grace period.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/topology.h>

#include "cpt.h"
#include "compat.h"
#include "cpt_trace.h"
#include "live.h"
#include "tab.h"

/*
 * cptab_fn(table in force, args...), under rcu_read_lock(): a table
 * replaced meanwhile is freed only after a grace period, so the one
 * cptab_fn() reads stays whole until the unlock.
 */
#define cptk_in_force(cptab_fn, ...) ({					\
	typeof(cptab_fn(NULL, ##__VA_ARGS__)) __ret;			\
									\
	rcu_read_lock();						\
	__ret = cptab_fn(cptk_live_in_force(), ##__VA_ARGS__);		\
	rcu_read_unlock();						\
	__ret;								\
})

struct cptab *cpt_get(void)
{
	return cptk_live_get();
}
CPTK_EXPORT(cpt_get);

struct cptab *cpt_hold(struct cptab *tab)
{
	refcount_inc(&tab->ref);
	return tab;
}
CPTK_EXPORT(cpt_hold);

void cpt_put(struct cptab *tab)
{
	cptk_live_put(tab);
}
CPTK_EXPORT(cpt_put);

int cpt_register_notifier(struct notifier_block *nb)
{
	return cptk_live_register(nb);
}
CPTK_EXPORT(cpt_register_notifier);

int cpt_unregister_notifier(struct notifier_block *nb)
{
	return cptk_live_unregister(nb);
}
CPTK_EXPORT(cpt_unregister_notifier);

/*
 * The part that answers for @cpt (CPT_ANY: the union), or NULL when @cpt
 * is no partition or there is no table.
 */
static struct cptk_part *cptk_find_part(const struct cptab *tab, int cpt)
{
	if (!tab)
		return NULL;
	if (cpt == CPT_ANY)
		return &tab->part[tab->nr_parts];
	if (cpt < 0 || cpt >= tab->nr_parts)
		return NULL;
	return &tab->part[cpt];
}

u64 cptab_generation(const struct cptab *tab)
{
	return tab ? tab->generation : 0;
}
CPTK_EXPORT(cptab_generation);

int cptab_number(const struct cptab *tab)
{
	return tab ? tab->nr_parts : 0;
}
CPTK_EXPORT(cptab_number);

int cpt_number(void)
{
	return cptk_in_force(cptab_number);
}
CPTK_EXPORT(cpt_number);

int cptab_weight(const struct cptab *tab, int cpt)
{
	const struct cptk_part *part = cptk_find_part(tab, cpt);

	return part ? part->weight : -EINVAL;
}
CPTK_EXPORT(cptab_weight);

int cpt_weight(int cpt)
{
	return cptk_in_force(cptab_weight, cpt);
}
CPTK_EXPORT(cpt_weight);

bool cptab_online(const struct cptab *tab, int cpt)
{
	const struct cptk_part *part = cptk_find_part(tab, cpt);

	return part && part->weight > 0;
}
CPTK_EXPORT(cptab_online);

bool cpt_online(int cpt)
{
	return cptk_in_force(cptab_online, cpt);
}
CPTK_EXPORT(cpt_online);

const struct cpumask *cptab_cpumask(const struct cptab *tab, int cpt)
{
	const struct cptk_part *part = cptk_find_part(tab, cpt);

	return part ? part->cpus : NULL;
}
CPTK_EXPORT(cptab_cpumask);

/* The caller holds rcu_read_lock() (see cpt.h); PROVE_RCU checks it. */
const struct cpumask *cpt_cpumask(int cpt)
{
	return cptab_cpumask(cptk_live_in_force(), cpt);
}
CPTK_EXPORT(cpt_cpumask);

const nodemask_t *cptab_nodemask(const struct cptab *tab, int cpt)
{
	const struct cptk_part *part = cptk_find_part(tab, cpt);

	return part ? &part->node_mask : NULL;
}
CPTK_EXPORT(cptab_nodemask);

const nodemask_t *cpt_nodemask(int cpt)
{
	return cptab_nodemask(cptk_live_in_force(), cpt);
}
CPTK_EXPORT(cpt_nodemask);

/* @part_of[@i] of an array of @n: CPT_ANY for none, -EINVAL past it. */
static int cptk_part_of(const int *part_of, int n, int i)
{
	if (i < 0 || i >= n)
		return -EINVAL;
	return part_of[i] >= 0 ? part_of[i] : CPT_ANY;
}

/* cptab_of_cpu() is inline in cpt.h. */
int cpt_of_cpu(int cpu)
{
	return cptk_in_force(cptab_of_cpu, cpu);
}
CPTK_EXPORT(cpt_of_cpu);

int cptab_of_node(const struct cptab *tab, int node)
{
	const struct cplan_table *table = tab ? tab->table : NULL;

	/* nr_node_ids is a count: node nr_node_ids does not exist. */
	return table ? cptk_part_of(table->node_part, table->nr_nodes, node) :
		       -EINVAL;
}
CPTK_EXPORT(cptab_of_node);

int cpt_of_node(int node)
{
	return cptk_in_force(cptab_of_node, node);
}
CPTK_EXPORT(cpt_of_node);

int cptab_distance(const struct cptab *tab, int cpt1, int cpt2)
{
	const struct cptk_part *p1 = cptk_find_part(tab, cpt1);
	const struct cptk_part *p2 = cptk_find_part(tab, cpt2);

	if (!p1 || !p2)
		return -EINVAL;
	/* The core's definition, as in /proc, for two real partitions. */
	if (cpt1 != CPT_ANY && cpt2 != CPT_ANY)
		return cplan_table_distance(tab->table, cpt1, cpt2);
	/*
	 * CPT_ANY is the union of the partitions, so the largest distance to
	 * its nodes is the largest distance to any partition; the distance
	 * is symmetric, so one of the two ways round will do.
	 */
	return tab->any_distance[cpt1 == CPT_ANY ? p2 - tab->part :
				 p1 - tab->part];
}
CPTK_EXPORT(cptab_distance);

int cpt_distance(int cpt1, int cpt2)
{
	return cptk_in_force(cptab_distance, cpt1, cpt2);
}
CPTK_EXPORT(cpt_distance);

/*
 * Whether the affinity of @p is fixed by its creator: kthreads bound to a
 * CPU (kthread_bind(), kthread_create_on_cpu(): cpuhp/N, ksoftirqd/N) and
 * every workqueue worker (a kworker of system_wq runs works of its CPU
 * only) carry PF_NO_SETAFFINITY.  set_cpus_allowed_ptr() does not check
 * it (only sched_setaffinity() does), so a bind would succeed and break
 * the code that relies on the CPU.
 */
static bool cptk_affinity_fixed(const struct task_struct *p)
{
	return p->flags & PF_NO_SETAFFINITY;
}

static int cptk_bind_current(const struct cptab *tab, int cpt)
{
	const struct cptk_part *part = cptk_find_part(tab, cpt);
	int ret;

	if (!part)
		return -EINVAL;
	/* It would bind cpt's worker, not a thread of the consumer. */
	if (cptk_in_notifier()) {
		pr_warn_ratelimited("cpt_bind_current() called from a notifier callback: refused\n");
		return -EPERM;
	}
	if (cptk_affinity_fixed(current)) {
		pr_warn_ratelimited("cpt_bind_current(): the affinity of %s/%d is fixed: refused\n",
				    current->comm, task_pid_nr(current));
		return -EINVAL;
	}
	/*
	 * Only the CPUs: no exported function sets a task's memory policy
	 * (mpol_new() and do_set_mempolicy() are internal to mm/), and the
	 * default local policy already allocates on the node of the CPU we
	 * run on, which is one of the partition's nodes.
	 *
	 * Under the hotplug lock, as the scheduler wants an affinity change
	 * that must not race an offline (force_compatible_cpus_allowed_ptr()):
	 * a CPU going down stays in cpu_online_mask until late, so without it
	 * set_cpus_allowed_ptr() may pick that CPU, whose stopper then refuses
	 * us, and return 0 with current running outside its new mask.  Under
	 * it no CPU is on its way, and a partition with no online CPU fails.
	 */
	cpus_read_lock();
	ret = set_cpus_allowed_ptr(current, part->cpus);
	cpus_read_unlock();
	return ret;
}

int cptab_bind_current(const struct cptab *tab, int cpt)
{
	int ret = cptk_bind_current(tab, cpt);

	trace_cpt_bind(cpt, tab ? tab->serial : 0, ret);
	return ret;
}
CPTK_EXPORT(cptab_bind_current);

int cpt_bind_current(int cpt)
{
	struct cptab *tab;
	int ret;

	/* set_cpus_allowed_ptr() may sleep: hold the table, not RCU. */
	tab = cpt_get();
	ret = cptab_bind_current(tab, cpt);
	cpt_put(tab);
	return ret;
}
CPTK_EXPORT(cpt_bind_current);

int cptab_spread_node(struct cptab *tab, int cpt)
{
	struct cptk_part *part = cptk_find_part(tab, cpt);
	unsigned int r;

	if (!part)
		return -EINVAL;
	/* Every partition has a member, hence a node: defensive only. */
	if (WARN_ON_ONCE(!part->nr_nodes))
		return NUMA_NO_NODE;
	/*
	 * The atomic counter wraps at 2^32 by design; read as unsigned the
	 * index stays in range through the wrap, where a signed rotor would
	 * go negative (LU-13294).
	 */
	r = (unsigned int)atomic_fetch_inc(&part->rotor);
	return part->nodes[r % part->nr_nodes];
}
CPTK_EXPORT(cptab_spread_node);

int cpt_spread_node(int cpt)
{
	return cptk_in_force(cptab_spread_node, cpt);
}
CPTK_EXPORT(cpt_spread_node);
