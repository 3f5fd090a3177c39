// SPDX-License-Identifier: GPL-2.0
/*
 * The loaded partition table as kernel structures, and the functions other
 * modules call on it (include/cpt.h).
 *
 * Lookups are array accesses through one pointer, without locks: the state
 * is built completely before it is installed and never changes while it is
 * installed.
 */
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/topology.h>

#include "cpt.h"
#include "cpt_glue.h"

struct cpt_state *cpt_state_ptr;

/*
 * Copy the CPUs and nodes of core partition @p into @part, and add them to
 * @any, the union.  @part->nodes points into the table's node list, which is
 * in ascending order, as cpt_spread_node() wants it.
 */
static void cpt_fill_part(struct cpt_part *part, struct cpt_part *any,
			  const struct cpt_table *table, int p)
{
	int i;

	for (i = table->part_first[p]; i < table->part_first[p + 1]; i++) {
		cpumask_set_cpu(table->part_cpu[i], part->cpus);
		cpumask_set_cpu(table->part_cpu[i], any->cpus);
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
static int cpt_list_any_nodes(struct cpt_part *any)
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

/**
 * cpt_state_create() - build the kernel view of a planned table
 * @table: the plan; the state takes it over, also on failure
 *
 * Return: a state to install with cpt_state_install(), or NULL when out of
 * memory (@table is freed then).
 */
struct cpt_state *cpt_state_create(struct cpt_table *table)
{
	struct cpt_state *state;
	struct cpt_part *any;
	int p;

	state = kzalloc(sizeof(*state), GFP_KERNEL);
	if (!state) {
		cpt_table_free(table);
		return NULL;
	}
	state->table = table;
	state->nr_parts = table->nr_parts;

	/* Zeroed, so that cpt_state_destroy() can undo a partial build. */
	state->part = kvcalloc(state->nr_parts + 1, sizeof(*state->part),
			       GFP_KERNEL);
	if (!state->part)
		goto err;
	for (p = 0; p <= state->nr_parts; p++) {
		if (!zalloc_cpumask_var(&state->part[p].cpus, GFP_KERNEL))
			goto err;
		nodes_clear(state->part[p].node_mask);
		atomic_set(&state->part[p].rotor, 0);
	}

	any = &state->part[state->nr_parts];
	for (p = 0; p < state->nr_parts; p++)
		cpt_fill_part(&state->part[p], any, table, p);
	if (cpt_list_any_nodes(any))
		goto err;
	return state;

err:
	cpt_state_destroy(state);
	return NULL;
}

/**
 * cpt_state_destroy() - free a state and its table
 * @state: a state that is not installed, or NULL
 */
void cpt_state_destroy(struct cpt_state *state)
{
	int p;

	if (!state)
		return;
	if (state->part) {
		for (p = 0; p <= state->nr_parts; p++)
			free_cpumask_var(state->part[p].cpus);
		/* Only the union's list is ours; the others are the table's. */
		kvfree(state->part[state->nr_parts].nodes);
		kvfree(state->part);
	}
	cpt_table_free(state->table);
	kfree(state);
}

/**
 * cpt_state_install() - make a state the one the API and /proc serve
 * @state: a complete state, or NULL to uninstall
 *
 * Only called from module init and exit, when nothing else can install.
 * Users of the API keep this module loaded, so none of them can still be
 * looking at the state that exit uninstalls.
 *
 * Return: the state installed before.
 */
struct cpt_state *cpt_state_install(struct cpt_state *state)
{
	struct cpt_state *old = cpt_state_ptr;

	/* Pairs with READ_ONCE() in cpt_state_get(): publish a built state. */
	smp_store_release(&cpt_state_ptr, state);
	return old;
}

/*
 * The part that answers for @cpt (CPT_ANY: the union), or NULL when @cpt
 * is no partition or nothing is installed.
 */
static struct cpt_part *cpt_find_part(const struct cpt_state *state, int cpt)
{
	if (!state)
		return NULL;
	if (cpt == CPT_ANY)
		return &state->part[state->nr_parts];
	if (cpt < 0 || cpt >= state->nr_parts)
		return NULL;
	return &state->part[cpt];
}

int cpt_number(void)
{
	const struct cpt_state *state = cpt_state_get();

	return state ? state->nr_parts : 0;
}
EXPORT_SYMBOL_GPL(cpt_number);

int cpt_weight(int cpt)
{
	const struct cpt_part *part = cpt_find_part(cpt_state_get(), cpt);

	if (!part)
		return -EINVAL;
	return cpumask_weight_and(part->cpus, cpu_online_mask);
}
EXPORT_SYMBOL_GPL(cpt_weight);

bool cpt_online(int cpt)
{
	const struct cpt_part *part = cpt_find_part(cpt_state_get(), cpt);

	return part && cpumask_intersects(part->cpus, cpu_online_mask);
}
EXPORT_SYMBOL_GPL(cpt_online);

const struct cpumask *cpt_cpumask(int cpt)
{
	const struct cpt_part *part = cpt_find_part(cpt_state_get(), cpt);

	return part ? part->cpus : NULL;
}
EXPORT_SYMBOL_GPL(cpt_cpumask);

const nodemask_t *cpt_nodemask(int cpt)
{
	const struct cpt_part *part = cpt_find_part(cpt_state_get(), cpt);

	return part ? &part->node_mask : NULL;
}
EXPORT_SYMBOL_GPL(cpt_nodemask);

int cpt_current(void)
{
	const struct cpt_state *state = cpt_state_get();
	/* Any CPU will do if we migrate: the answer is advisory anyway. */
	unsigned int cpu = raw_smp_processor_id();
	const struct cpt_table *table;
	int cpt, node;

	if (!state)
		return 0;
	table = state->table;
	cpt = table->cpu_part[cpu];
	if (cpt >= 0)
		return cpt;

	/* Not placed: borrow the partition of its node, see cpt.h. */
	node = cpu_to_node(cpu);
	if (node >= 0 && node < table->nr_nodes && table->node_part[node] >= 0)
		return table->node_part[node];
	return cpu % state->nr_parts;
}
EXPORT_SYMBOL_GPL(cpt_current);

int cpt_of_cpu(int cpu)
{
	const struct cpt_state *state = cpt_state_get();

	if (!state || cpu < 0 || cpu >= state->table->nr_cpus)
		return -EINVAL;
	return state->table->cpu_part[cpu] >= 0 ?
	       state->table->cpu_part[cpu] : CPT_ANY;
}
EXPORT_SYMBOL_GPL(cpt_of_cpu);

int cpt_of_node(int node)
{
	const struct cpt_state *state = cpt_state_get();

	/* nr_node_ids is a count: node nr_node_ids does not exist. */
	if (!state || node < 0 || node >= state->table->nr_nodes)
		return -EINVAL;
	return state->table->node_part[node] >= 0 ?
	       state->table->node_part[node] : CPT_ANY;
}
EXPORT_SYMBOL_GPL(cpt_of_node);

/*
 * Largest node distance between the nodes of @p1 and @p2, both ways round,
 * as cpt_table_distance() measures it (an asymmetric SLIT stays symmetric).
 */
static int cpt_span(const struct cpt_table *table, const struct cpt_part *p1,
		    const struct cpt_part *p2)
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

int cpt_distance(int cpt1, int cpt2)
{
	const struct cpt_state *state = cpt_state_get();
	const struct cpt_part *p1 = cpt_find_part(state, cpt1);
	const struct cpt_part *p2 = cpt_find_part(state, cpt2);

	if (!p1 || !p2)
		return -EINVAL;
	/* The core's definition, as in /proc, for two real partitions. */
	if (cpt1 != CPT_ANY && cpt2 != CPT_ANY)
		return cpt_table_distance(state->table, cpt1, cpt2);
	/*
	 * CPT_ANY is the union of the partitions, so the largest distance to
	 * its nodes is the largest distance to any partition.
	 */
	return cpt_span(state->table, p1, p2);
}
EXPORT_SYMBOL_GPL(cpt_distance);

int cpt_bind_current(int cpt)
{
	const struct cpt_part *part = cpt_find_part(cpt_state_get(), cpt);

	if (!part)
		return -EINVAL;
	/*
	 * Only the CPUs: no exported function sets a task's memory policy
	 * (mpol_new() and do_set_mempolicy() are internal to mm/), and the
	 * default local policy already allocates on the node of the CPU we
	 * run on, which is one of the partition's nodes.
	 */
	return set_cpus_allowed_ptr(current, part->cpus);
}
EXPORT_SYMBOL_GPL(cpt_bind_current);

int cpt_spread_node(int cpt)
{
	struct cpt_part *part = cpt_find_part(cpt_state_get(), cpt);
	unsigned int r;

	if (!part)
		return -EINVAL;
	/* Every partition has a CPU, hence a node: defensive only. */
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
EXPORT_SYMBOL_GPL(cpt_spread_node);
