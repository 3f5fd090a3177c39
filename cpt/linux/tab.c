// SPDX-License-Identifier: GPL-2.0
/*
 * A planned partition table as kernel structures: a cpumask and a nodemask
 * per partition, and the union for CPT_ANY, filled once from the core's
 * plan so that the lookups (api.c) are plain array reads.
 */
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/stddef.h>
#include <linux/topology.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tab.h"

atomic_t cptk_nr_tables = ATOMIC_INIT(0);

/*
 * Copy the CPUs and nodes of core partition @p into @part, and add them to
 * @any, the union.  @part->nodes points into the table's node list, which is
 * in ascending order, as cptab_spread_node() wants it.
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
 * cptab_spread_node() picks a node with one division instead of walking a
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
 * Largest node distance between the nodes of @p1 and @p2, as
 * cplan_table_distance() measures it (cplan_node_distance()).
 */
static int cptk_span(const struct cplan_table *table, const struct cptk_part *p1,
		     const struct cptk_part *p2)
{
	int i, j, d = 0;

	for (i = 0; i < p1->nr_nodes; i++)
		for (j = 0; j < p2->nr_nodes; j++)
			d = max(d, cplan_node_distance(table->node_distance,
						       table->nr_nodes,
						       p1->nodes[i],
						       p2->nodes[j]));
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

/*
 * What cptab_current() answers on @cpu (cpt.h): its partition, else the
 * partition of its node, else cpu % number of partitions, so that a CPU in
 * no partition still gets an index of the table.
 */
static int cptk_current_of(const struct cptab *tab, unsigned int cpu)
{
	const struct cplan_table *table = tab->table;
	int node;

	if (cpu < (unsigned int)table->nr_cpus && table->cpu_part[cpu] >= 0)
		return table->cpu_part[cpu];
	node = cpu_to_node(cpu);
	if (node >= 0 && node < table->nr_nodes && table->node_part[node] >= 0)
		return table->node_part[node];
	return cpu % tab->nr_parts;
}

/*
 * cptab_of_cpu()'s answers, inline in cpt.h, so read as they are: the
 * core's cpu_part[] with its "none" (CPLAN_NONE, -1 in the core, which
 * cpt-plan and the tests share) as cpt.h's CPT_ANY, which no errno
 * equals.  The core stays free of the kernel's errno space.
 */
static int cptk_fill_of_cpu(struct cptab *tab)
{
	const struct cplan_table *table = tab->table;
	int cpu;

	/* Negative, as "cpt < 0" tests want, and not an -errno. */
	BUILD_BUG_ON(CPT_ANY >= -MAX_ERRNO);
	BUILD_BUG_ON(IS_ERR_VALUE((unsigned long)(long)CPT_ANY));
	tab->of_cpu = kvcalloc(table->nr_cpus, sizeof(*tab->of_cpu),
			       GFP_KERNEL);
	if (!tab->of_cpu)
		return -ENOMEM;
	for (cpu = 0; cpu < table->nr_cpus; cpu++)
		tab->of_cpu[cpu] = table->cpu_part[cpu] >= 0 ?
				   table->cpu_part[cpu] : CPT_ANY;
	return 0;
}

/* The head that cpt.h's inline lookups read (struct cptab_lookup). */
static int cptk_fill_lookup(struct cptab *tab)
{
	unsigned int cpu;

	BUILD_BUG_ON(offsetof(struct cptab, lookup) != 0);
	tab->current_of_cpu = kvcalloc(nr_cpu_ids,
				       sizeof(*tab->current_of_cpu),
				       GFP_KERNEL);
	if (!tab->current_of_cpu || cptk_fill_of_cpu(tab))
		return -ENOMEM;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		tab->current_of_cpu[cpu] = cptk_current_of(tab, cpu);
	tab->lookup.of_cpu = tab->of_cpu;
	tab->lookup.current_of_cpu = tab->current_of_cpu;
	tab->lookup.nr_cpus = tab->table->nr_cpus;
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
	cptk_texts_init(&tab->texts);

	tab->pattern = kstrdup(pattern, GFP_KERNEL);
	if (!tab->pattern || cptk_alloc_parts(tab))
		goto err;
	any = &tab->part[tab->nr_parts];
	for (p = 0; p < tab->nr_parts; p++)
		cptk_fill_part(&tab->part[p], any, table, p);
	if (cptk_list_any_nodes(any) || cptk_fill_any_distance(tab) ||
	    cptk_fill_lookup(tab))
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
	cptk_texts_free(&tab->texts);
	kvfree(tab->any_distance);
	kvfree(tab->current_of_cpu);
	kvfree(tab->of_cpu);
	kfree(tab->pattern);
	cplan_table_free(tab->table);
	kfree(tab);
	atomic_dec(&cptk_nr_tables);
}
