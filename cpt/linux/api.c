// SPDX-License-Identifier: GPL-2.0
/*
 * What other modules call (include/cpt.h) about a table they hold: the
 * lookups, masks, binding and node spreading.  Getting and releasing a
 * table and the notifier are live.c's (the table's lifetime); the service
 * helpers export their own symbols: percpt.c (objects and locks per
 * partition), pool.c (threads), worker.c (work queues).
 *
 * A table is built completely before it is installed and never changes
 * afterwards (tab.c), so lookups are plain array reads with no lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/percpu.h>
#include <linux/printk.h>
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

int cptab_weight(const struct cptab *tab, int cpt)
{
	const struct cptk_part *part = cptk_find_part(tab, cpt);

	return part ? part->weight : -EINVAL;
}
CPTK_EXPORT(cptab_weight);

const struct cpumask *cptab_cpumask(const struct cptab *tab, int cpt)
{
	const struct cptk_part *part = cptk_find_part(tab, cpt);

	return part ? part->cpus : NULL;
}
CPTK_EXPORT(cptab_cpumask);

const nodemask_t *cptab_nodemask(const struct cptab *tab, int cpt)
{
	const struct cptk_part *part = cptk_find_part(tab, cpt);

	return part ? &part->node_mask : NULL;
}
CPTK_EXPORT(cptab_nodemask);

/* @part_of[@i] of an array of @n: CPT_ANY for none, -EINVAL past it. */
static int cptk_part_of(const int *part_of, int n, int i)
{
	if (i < 0 || i >= n)
		return -EINVAL;
	return part_of[i] >= 0 ? part_of[i] : CPT_ANY;
}

int cptab_of_node(const struct cptab *tab, int node)
{
	const struct cplan_table *table = tab ? tab->table : NULL;

	/* nr_node_ids is a count: node nr_node_ids does not exist. */
	return table ? cptk_part_of(table->node_part, table->nr_nodes, node) :
		       -EINVAL;
}
CPTK_EXPORT(cptab_of_node);

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
		pr_warn_ratelimited("cptab_bind_current() called from a notifier callback: refused\n");
		return -EPERM;
	}
	if (cptk_affinity_fixed(current)) {
		pr_warn_ratelimited("cptab_bind_current(): the affinity of %s/%d is fixed: refused\n",
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
