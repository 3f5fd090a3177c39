// SPDX-License-Identifier: GPL-2.0
/*
 * A planned partition table as kernel structures (struct cptab), and the
 * lookups other modules call on it (include/cpt.h).
 *
 * A table is built completely before it is installed and never changes
 * afterwards, so lookups are plain array reads.  The cptab_*() functions
 * answer for a table the caller holds; the cpt_*() ones for the table in
 * force, read under rcu_read_lock(): live.c frees a replaced table only
 * after a grace period.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/topology.h>

#include "cpt.h"
#include "compat.h"
#include "cptk.h"

/* Tables created and not yet destroyed, to catch a leaked reference. */
atomic_t cptk_nr_tables = ATOMIC_INIT(0);

/*
 * Copy the CPUs and nodes of core partition @p into @part, and add them to
 * @any, the union.  @part->nodes points into the table's node list, which is
 * in ascending order, as cpt_spread_node() wants it.
 */
static void cptk_fill_part(struct cptk_part *part, struct cptk_part *any,
			  const struct cplan_table *table, int p)
{
	int i, cpu;

	for (i = table->part_first[p]; i < table->part_first[p + 1]; i++) {
		cpu = table->part_cpu[i];
		cpumask_set_cpu(cpu, part->cpus);
		cpumask_set_cpu(cpu, any->cpus);
		/* A table made by hand has no online flags: all count. */
		if (!table->cpu_online || table->cpu_online[cpu]) {
			part->weight++;
			any->weight++;
		}
	}
	part->nodes = &table->part_node[table->part_node_first[p]];
	part->nr_nodes = table->part_node_first[p + 1] -
			 table->part_node_first[p];
	for (i = 0; i < part->nr_nodes; i++) {
		node_set(part->nodes[i], part->node_mask);
		node_set(part->nodes[i], any->node_mask);
	}
}

/*
 * The union has no list in the table: make one from its mask, so that
 * cpt_spread_node() picks a node with one division instead of walking a
 * nodemask.
 */
static int cptk_list_any_nodes(struct cptk_part *any)
{
	int node;

	any->nodes = kvcalloc(nodes_weight(any->node_mask),
			      sizeof(*any->nodes), GFP_KERNEL);
	if (!any->nodes)
		return -ENOMEM;
	for_each_node_mask(node, any->node_mask)
		any->nodes[any->nr_nodes++] = node;
	return 0;
}

static int cptk_alloc_parts(struct cptab *tab)
{
	int p;

	/* Zeroed, so that cptk_tab_destroy() can undo a partial build. */
	tab->part = kvcalloc(tab->nr_parts + 1, sizeof(*tab->part),
			     GFP_KERNEL);
	if (!tab->part)
		return -ENOMEM;
	for (p = 0; p <= tab->nr_parts; p++) {
		if (!zalloc_cpumask_var(&tab->part[p].cpus, GFP_KERNEL))
			return -ENOMEM;
		nodes_clear(tab->part[p].node_mask);
		atomic_set(&tab->part[p].rotor, 0);
	}
	return 0;
}

/*
 * Largest node distance between the nodes of @p1 and @p2, both ways round,
 * as cplan_table_distance() measures it (an asymmetric SLIT stays symmetric).
 */
static int cptk_span(const struct cplan_table *table, const struct cptk_part *p1,
		    const struct cptk_part *p2)
{
	const int *dist = table->node_distance;
	int nn = table->nr_nodes;
	int i, j, x, y, d = 0;

	for (i = 0; i < p1->nr_nodes; i++) {
		for (j = 0; j < p2->nr_nodes; j++) {
			x = p1->nodes[i];
			y = p2->nodes[j];
			d = max3(d, dist[x * nn + y], dist[y * nn + x]);
		}
	}
	return d;
}

/*
 * The distance of every partition, and of CPT_ANY itself, to CPT_ANY:
 * O(nodes^2) each time, so once per table rather than per lookup.
 */
static int cptk_fill_any_distance(struct cptab *tab)
{
	const struct cptk_part *any = &tab->part[tab->nr_parts];
	int p;

	tab->any_distance = kvcalloc(tab->nr_parts + 1,
				     sizeof(*tab->any_distance), GFP_KERNEL);
	if (!tab->any_distance)
		return -ENOMEM;
	for (p = 0; p <= tab->nr_parts; p++) {
		tab->any_distance[p] = cptk_span(tab->table, &tab->part[p], any);
		cond_resched();
	}
	return 0;
}

/**
 * cptk_tab_create() - build the kernel view of a planned table
 * @table: the plan; the new table takes it over, also on failure
 * @npartitions: the count it was planned with, to show in /proc
 * @pattern: the cpu_pattern it was planned with ("" for none), copied
 *
 * Return: a table with one reference, for live.c to install, or NULL
 * when out of memory (@table is freed then).
 */
struct cptab *cptk_tab_create(struct cplan_table *table, int npartitions,
			   const char *pattern)
{
	struct cptab *tab;
	struct cptk_part *any;
	int p;

	tab = kzalloc(sizeof(*tab), GFP_KERNEL);
	if (!tab) {
		cplan_table_free(table);
		return NULL;
	}
	atomic_inc(&cptk_nr_tables);
	tab->table = table;
	tab->nr_parts = table->nr_parts;
	tab->npartitions = npartitions;
	refcount_set(&tab->ref, 1);
	mutex_init(&tab->render_lock);

	tab->pattern = kstrdup(pattern, GFP_KERNEL);
	if (!tab->pattern || cptk_alloc_parts(tab))
		goto err;
	any = &tab->part[tab->nr_parts];
	for (p = 0; p < tab->nr_parts; p++)
		cptk_fill_part(&tab->part[p], any, table, p);
	if (cptk_list_any_nodes(any) || cptk_fill_any_distance(tab))
		goto err;
	return tab;

err:
	cptk_tab_destroy(tab);
	return NULL;
}

/**
 * cptk_tab_destroy() - free a table
 * @tab: a table nobody can reach any more, or NULL
 */
void cptk_tab_destroy(struct cptab *tab)
{
	int p;

	if (!tab)
		return;
	if (tab->part) {
		for (p = 0; p <= tab->nr_parts; p++)
			free_cpumask_var(tab->part[p].cpus);
		/* Only the union's list is ours; the others are the table's. */
		kvfree(tab->part[tab->nr_parts].nodes);
		kvfree(tab->part);
	}
	for (p = 0; p < CPTK_NR_TEXTS; p++)
		kvfree(tab->text[p]);
	kvfree(tab->any_distance);
	mutex_destroy(&tab->render_lock);
	kfree(tab->pattern);
	cplan_table_free(tab->table);
	kfree(tab);
	atomic_dec(&cptk_nr_tables);
}

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

/* The table in force, for a caller inside rcu_read_lock(). */
static struct cptab *cptk_in_force(void)
{
	return rcu_dereference(cptk_cur);
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
	int ret;

	rcu_read_lock();
	ret = cptab_number(cptk_in_force());
	rcu_read_unlock();
	return ret;
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
	int ret;

	rcu_read_lock();
	ret = cptab_weight(cptk_in_force(), cpt);
	rcu_read_unlock();
	return ret;
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
	bool ret;

	rcu_read_lock();
	ret = cptab_online(cptk_in_force(), cpt);
	rcu_read_unlock();
	return ret;
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
	return cptab_cpumask(cptk_in_force(), cpt);
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
	return cptab_nodemask(cptk_in_force(), cpt);
}
CPTK_EXPORT(cpt_nodemask);

int cptab_current(const struct cptab *tab)
{
	/* Any CPU will do if we migrate: the answer is advisory anyway. */
	unsigned int cpu = raw_smp_processor_id();
	const struct cplan_table *table;
	int cpt, node;

	if (!tab)
		return 0;
	table = tab->table;
	cpt = table->cpu_part[cpu];
	if (cpt >= 0)
		return cpt;

	/* Not placed: borrow the partition of its node, see cpt.h. */
	node = cpu_to_node(cpu);
	if (node >= 0 && node < table->nr_nodes && table->node_part[node] >= 0)
		return table->node_part[node];
	return cpu % tab->nr_parts;
}
CPTK_EXPORT(cptab_current);

int cpt_current(void)
{
	int ret;

	rcu_read_lock();
	ret = cptab_current(cptk_in_force());
	rcu_read_unlock();
	return ret;
}
CPTK_EXPORT(cpt_current);

int cptab_of_cpu(const struct cptab *tab, int cpu)
{
	if (!tab || cpu < 0 || cpu >= tab->table->nr_cpus)
		return -EINVAL;
	return tab->table->cpu_part[cpu] >= 0 ?
	       tab->table->cpu_part[cpu] : CPT_ANY;
}
CPTK_EXPORT(cptab_of_cpu);

int cpt_of_cpu(int cpu)
{
	int ret;

	rcu_read_lock();
	ret = cptab_of_cpu(cptk_in_force(), cpu);
	rcu_read_unlock();
	return ret;
}
CPTK_EXPORT(cpt_of_cpu);

int cptab_of_node(const struct cptab *tab, int node)
{
	/* nr_node_ids is a count: node nr_node_ids does not exist. */
	if (!tab || node < 0 || node >= tab->table->nr_nodes)
		return -EINVAL;
	return tab->table->node_part[node] >= 0 ?
	       tab->table->node_part[node] : CPT_ANY;
}
CPTK_EXPORT(cptab_of_node);

int cpt_of_node(int node)
{
	int ret;

	rcu_read_lock();
	ret = cptab_of_node(cptk_in_force(), node);
	rcu_read_unlock();
	return ret;
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
	int ret;

	rcu_read_lock();
	ret = cptab_distance(cptk_in_force(), cpt1, cpt2);
	rcu_read_unlock();
	return ret;
}
CPTK_EXPORT(cpt_distance);

int cptab_bind_current(const struct cptab *tab, int cpt)
{
	const struct cptk_part *part = cptk_find_part(tab, cpt);

	if (!part)
		return -EINVAL;
	/* It would bind cpt's worker, not a thread of the consumer. */
	if (cptk_in_notifier()) {
		pr_warn_ratelimited("cpt_bind_current() called from a notifier callback: refused\n");
		return -EPERM;
	}
	/*
	 * Only the CPUs: no exported function sets a task's memory policy
	 * (mpol_new() and do_set_mempolicy() are internal to mm/), and the
	 * default local policy already allocates on the node of the CPU we
	 * run on, which is one of the partition's nodes.
	 */
	return set_cpus_allowed_ptr(current, part->cpus);
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
	int ret;

	rcu_read_lock();
	ret = cptab_spread_node(cptk_in_force(), cpt);
	rcu_read_unlock();
	return ret;
}
CPTK_EXPORT(cpt_spread_node);
