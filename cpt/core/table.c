// SPDX-License-Identifier: GPL-2.0
/*
 * The partition table object (struct cplan_table, cpt/core/cplan.h): made
 * from per-CPU assignments by the planner and by the hotplug update,
 * compared, and asked for the distance of two partitions.  It knows nothing
 * of how the assignments were chosen.
 */
#include "cplan_internal.h"

/*
 * The table's arrays with their lengths: the one list that alloc_table()
 * and cplan_table_free() go through.  A slot is an int array or a flag
 * array.
 */
struct table_slot {
	int **ints;
	bool **flags;
	size_t len;
};

#define TABLE_SLOTS	12

static void table_slots(struct cplan_table *t, struct table_slot *slot)
{
	size_t nc = t->nr_cpus, nn = t->nr_nodes, np = t->nr_parts + 1;
	const struct table_slot list[TABLE_SLOTS] = {
		{ &t->cpu_part, NULL, nc }, { NULL, &t->cpu_online, nc },
		{ NULL, &t->cpu_barred, nc }, { NULL, &t->cpu_core_barred, nc },
		{ NULL, &t->node_barred, nn }, { &t->cpu_node, NULL, nc },
		{ &t->part_first, NULL, np }, { &t->part_cpu, NULL, nc },
		{ &t->part_node_first, NULL, np }, { &t->part_node, NULL, nc },
		{ &t->node_part, NULL, nn }, { &t->node_distance, NULL, nn * nn },
	};
	int i;

	for (i = 0; i < TABLE_SLOTS; i++)
		slot[i] = list[i];
}

void cplan_table_free(struct cplan_table *table)
{
	struct table_slot slot[TABLE_SLOTS];
	int i;

	if (!table)
		return;
	table_slots(table, slot);
	for (i = 0; i < TABLE_SLOTS; i++) {
		if (slot[i].ints)
			cplan_free(*slot[i].ints);
		else
			cplan_free(*slot[i].flags);
	}
	cplan_free(table);
}

static struct cplan_table *alloc_table(const struct cplan_topo *topo, int nparts)
{
	struct cplan_table *t = cplan_calloc(1, sizeof(*t));
	struct table_slot slot[TABLE_SLOTS];
	bool failed = false;
	int i;

	if (!t)
		return NULL;
	t->nr_parts = nparts;
	t->nr_cpus = topo->nr_cpus;
	t->nr_nodes = topo->nr_nodes;
	table_slots(t, slot);
	for (i = 0; i < TABLE_SLOTS; i++) {
		if (slot[i].ints) {
			*slot[i].ints = cplan_calloc(slot[i].len, sizeof(int));
			failed |= !*slot[i].ints;
		} else {
			*slot[i].flags = cplan_calloc(slot[i].len, sizeof(bool));
			failed |= !*slot[i].flags;
		}
	}
	if (failed) {
		cplan_table_free(t);
		return NULL;
	}
	return t;
}

/* Nodes of each partition, ascending; node_part is the lowest partition. */
static void fill_nodes(struct cplan_table *t)
{
	int p, i, j, n = 0;

	for (i = 0; i < t->nr_nodes; i++)
		t->node_part[i] = CPLAN_NONE;
	for (p = 0; p < t->nr_parts; p++) {
		int start = n;

		t->part_node_first[p] = start;
		for (i = t->part_first[p]; i < t->part_first[p + 1]; i++) {
			int node = t->cpu_node[t->part_cpu[i]], pos;

			if (t->node_part[node] == CPLAN_NONE)
				t->node_part[node] = p;
			for (pos = start; pos < n && t->part_node[pos] < node;)
				pos++;
			if (pos < n && t->part_node[pos] == node)
				continue;
			for (j = n++; j > pos; j--)
				t->part_node[j] = t->part_node[j - 1];
			t->part_node[pos] = node;
		}
	}
	t->part_node_first[t->nr_parts] = n;
	for (i = 0; i < t->nr_nodes; i++)
		t->nr_placed_nodes += t->node_part[i] != CPLAN_NONE;
}

/* Cores with an online CPU in some partition, for the summary line. */
static int count_placed_cores(const struct cplan_table *t,
			      const struct cplan_topo *topo)
{
	long long *key = cplan_calloc(t->nr_cpus, sizeof(long long));
	int *rank = cplan_calloc(t->nr_cpus, sizeof(int));
	int cpu, n = 0, ret = -ENOMEM;

	if (key && rank) {
		for (cpu = 0; cpu < t->nr_cpus; cpu++)
			if (t->cpu_online[cpu] && t->cpu_part[cpu] != CPLAN_NONE)
				key[n++] = cplan_pair_key(topo->cpu[cpu].node,
						    topo->cpu[cpu].core);
		ret = n ? cplan_rank_keys(key, n, rank) : 0;
	}
	cplan_free(key);
	cplan_free(rank);
	return ret;
}

/*
 * Make a table of @nparts partitions from per-CPU assignments.  Members that
 * are offline stay in their partition, unlisted; @cpu_node says where each
 * member was last seen online.
 */
struct cplan_table *cplan_assemble_table(const struct cplan_topo *topo, int nparts,
				     const int *cpu_part, const int *cpu_node,
				     const bool *barred,
				     const bool *core_barred,
				     const bool *node_barred)
{
	struct cplan_table *t = alloc_table(topo, nparts);
	int cpu, p, *fill;

	if (!t)
		return NULL;
	cplan_count_buckets(cpu_part, topo->nr_cpus, nparts, t->part_first);
	/* part_node_first is free until fill_nodes(): use it to fill. */
	fill = t->part_node_first;
	for (p = 0; p <= nparts; p++)
		fill[p] = t->part_first[p];
	for (cpu = 0; cpu < topo->nr_cpus; cpu++) {
		t->cpu_part[cpu] = cpu_part[cpu];
		t->cpu_node[cpu] = cpu_node[cpu];
		t->cpu_barred[cpu] = barred[cpu];
		t->cpu_core_barred[cpu] = core_barred && core_barred[cpu];
		t->cpu_online[cpu] = topo->cpu[cpu].online;
		if (cpu_part[cpu] == CPLAN_NONE)
			continue;
		t->part_cpu[fill[cpu_part[cpu]]++] = cpu;
		t->nr_placed_cpus += t->cpu_online[cpu];
	}
	fill_nodes(t);
	for (p = 0; node_barred && p < topo->nr_nodes; p++)
		t->node_barred[p] = node_barred[p];
	for (p = 0; p < topo->nr_nodes * topo->nr_nodes; p++)
		t->node_distance[p] = topo->distance[p];
	t->nr_placed_cores = count_placed_cores(t, topo);
	if (t->nr_placed_cores < 0) {
		cplan_table_free(t);
		return NULL;
	}
	return t;
}

static bool same_ints(const int *a, const int *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* Both NULL (a table made by hand), or the same @n flags. */
static bool same_flags(const bool *a, const bool *b, int n)
{
	int i;

	if (!a || !b)
		return a == b;
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

bool cplan_table_equal(const struct cplan_table *a, const struct cplan_table *b)
{
	int nc = a->nr_cpus, nn = a->nr_nodes;

	if (a->nr_parts != b->nr_parts || nc != b->nr_cpus ||
	    nn != b->nr_nodes)
		return false;
	/* part_first and part_node_first of equal sizes: the lists match. */
	return same_ints(a->part_first, b->part_first, a->nr_parts + 1) &&
	       same_ints(a->part_cpu, b->part_cpu, a->part_first[a->nr_parts]) &&
	       same_ints(a->part_node_first, b->part_node_first,
			 a->nr_parts + 1) &&
	       same_ints(a->part_node, b->part_node,
			 a->part_node_first[a->nr_parts]) &&
	       same_ints(a->cpu_part, b->cpu_part, nc) &&
	       same_ints(a->cpu_node, b->cpu_node, nc) &&
	       same_ints(a->node_part, b->node_part, nn) &&
	       same_ints(a->node_distance, b->node_distance, nn * nn) &&
	       same_flags(a->cpu_online, b->cpu_online, nc) &&
	       same_flags(a->cpu_barred, b->cpu_barred, nc) &&
	       same_flags(a->cpu_core_barred, b->cpu_core_barred, nc) &&
	       same_flags(a->node_barred, b->node_barred, nn);
}

int cplan_table_distance(const struct cplan_table *t, int a, int b)
{
	int i, j, d = 0;

	for (i = t->part_node_first[a]; i < t->part_node_first[a + 1]; i++) {
		for (j = t->part_node_first[b]; j < t->part_node_first[b + 1]; j++) {
			int dij = cplan_node_distance(t->node_distance,
						      t->nr_nodes,
						      t->part_node[i],
						      t->part_node[j]);

			if (dij > d)
				d = dij;
		}
	}
	return d;
}
