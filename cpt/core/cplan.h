/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpt core: topology model, partition planner, cpu_pattern parser and the
 * /proc text formatter.  Portable C shared by the kernel module and the
 * userspace tool (cpt-plan) and tests; see cpt/core/cplan_shim.h.
 */
#ifndef CPLAN_H
#define CPLAN_H

#include "cplan_shim.h"

#define CPLAN_PATTERN_MAX		4096	/* bytes, without the terminating NUL */
/*
 * Partitions of a table, at most: Lustre's LNET_CPT_MAX.  The distance
 * file grows as the square of the count (0.5 MB at 256 partitions), and
 * the automatic count stops here too.
 */
#define CPLAN_PARTS_MAX		256
#define CPLAN_DEFAULT_MAX		CPLAN_PARTS_MAX	/* cap of the automatic count */
#define CPLAN_NONE		(-1)	/* "no partition", "unknown L3" */
#define CPLAN_LOCAL_DISTANCE	10
#define CPLAN_REMOTE_DISTANCE	20

/*
 * One possible CPU.  @core, @package and @llc are opaque keys: CPUs with the
 * same @core are SMT siblings; CPUs with the same @llc (and node) share an L3.
 * Keys are arbitrary non-negative ints (an APIC-derived id, a CPU id...);
 * @llc may be CPLAN_NONE when unknown, which means one L3 domain per node.
 * @isolated keeps an online CPU out of every partition, whatever the
 * pattern says, as if X[...] named it, and out of the table when hotplug
 * brings it back: the callers set it for the CPUs the kernel isolates
 * (isolcpus=, nohz_full=) unless told to include them.  Its siblings
 * still form a core with it; only the isolated thread is left out.
 * Fields of offline CPUs are ignored.
 */
struct cplan_cpu {
	int core;
	int package;
	int node;
	int llc;
	bool online;
	bool isolated;
};

/*
 * A machine: CPU ids are 0..nr_cpus-1 (the kernel's nr_cpu_ids), node ids
 * 0..nr_nodes-1 (nr_node_ids).  @distance is nr_nodes x nr_nodes, row-major,
 * as node_distance(a, b).  A node is usable when @node_online says so; it may
 * have no CPU (memory-only node).
 */
struct cplan_topo {
	int nr_cpus;
	int nr_nodes;
	struct cplan_cpu *cpu;
	bool *node_online;
	int *distance;
};

/* Flags in struct cplan_table.warnings, for the caller to report. */
#define CPLAN_WARN_SPLIT_CORES	0x1	/* more partitions than cores */
#define CPLAN_WARN_NPART_IGNORED	0x2	/* the pattern fixed the count */

/*
 * The partition table.  Partition p holds the CPUs
 * part_cpu[part_first[p] .. part_first[p + 1] - 1] (online or not: a CPU
 * keeps its partition while it is offline, and only cpu_online[c] CPUs are
 * listed in /proc or counted in nr_placed_cpus) and the nodes
 * part_node[part_node_first[p] .. part_node_first[p + 1] - 1], both in
 * ascending order.  cpu_part[c] is the partition of CPU c or CPLAN_NONE;
 * node_part[n] is the lowest partition that holds node n or CPLAN_NONE.
 * cpu_barred[c] marks CPUs that the pattern keeps out of every partition,
 * also when they come online; cpu_node[c] is the node a member was last
 * seen online on.  A table made by hand may leave cpu_online NULL: every
 * member is then listed.
 * node_distance is a copy of the topology's nr_nodes x nr_nodes matrix; the
 * distance of two partitions (cplan_table_distance()) is computed from it on
 * demand, because a matrix per partition pair would not scale to thousands
 * of partitions.
 */
struct cplan_table {
	int nr_parts;
	int nr_cpus;
	int nr_nodes;
	int nr_placed_cpus;	/* CPUs in some partition */
	int nr_placed_cores;	/* cores with a CPU in some partition */
	int nr_placed_nodes;	/* nodes with a CPU in some partition */
	unsigned int warnings;
	int *cpu_part;
	bool *cpu_online;
	bool *cpu_barred;
	bool *cpu_core_barred;	/* barred with its whole core (C[...]): an
				 * SMT sibling coming online stays out too */
	bool *node_barred;	/* [nr_nodes] N with node lists: a node no list
				 * names; its CPUs stay out when they come
				 * online */
	int *cpu_node;
	int *part_first;
	int *part_cpu;
	int *part_node_first;
	int *part_node;
	int *node_part;
	int *node_distance;
};

/* Why a plan failed: a one-line message and the pattern offset, or -1. */
struct cplan_err {
	int offset;
	char msg[200];
};

/* Allocate a topology with every CPU offline, every node offline, distances
 * 10 on the diagonal and 20 elsewhere.  NULL when out of memory. */
struct cplan_topo *cplan_topo_alloc(int nr_cpus, int nr_nodes);
void cplan_topo_free(struct cplan_topo *topo);

/*
 * Plan the partition table of @topo for @npartitions (0: automatic) and
 * @pattern (NULL or blank: the default layout).  On success returns 0 and
 * stores a table to free with cplan_table_free().  On failure returns a
 * negative errno, stores no table and fills @err (which may be NULL):
 *   -EINVAL  malformed pattern, or a partition left without CPUs
 *   -ERANGE  npartitions negative or above the online CPU count, more
 *            than CPLAN_PARTS_MAX partitions, number overflow in the pattern
 *   -ENODEV  the pattern names a CPU, core or node that does not exist or
 *            is offline
 *   -E2BIG   pattern longer than CPLAN_PATTERN_MAX
 *   -ENOMEM
 */
int cplan_make(const struct cplan_topo *topo, int npartitions,
	     const char *pattern, struct cplan_table **tablep,
	     struct cplan_err *err);
void cplan_table_free(struct cplan_table *table);

/*
 * Whether two tables of one machine are the same in everything but their
 * warnings: partitions, CPUs online, and what the pattern keeps out (which
 * decides where CPUs go when they come online).
 */
bool cplan_table_equal(const struct cplan_table *a, const struct cplan_table *b);

/*
 * The distance of nodes @a and @b in the row-major @nr_nodes x @nr_nodes
 * matrix @distance (struct cplan_topo, struct cplan_table): the larger of
 * the two directions, since firmware tables need not be symmetric and a
 * partition pair must read the same both ways.
 */
static inline int cplan_node_distance(const int *distance, int nr_nodes,
				      int a, int b)
{
	int d1 = distance[a * nr_nodes + b];
	int d2 = distance[b * nr_nodes + a];

	return d1 > d2 ? d1 : d2;
}

/* The largest node distance between partitions @a and @b (both valid). */
int cplan_table_distance(const struct cplan_table *table, int a, int b);

/*
 * Follow CPU hotplug: a new table for the CPUs online in @topo, with the
 * same partitions as @old.  CPUs placed before never move; an offline one
 * keeps its partition, unlisted.  A CPU never placed (booted with maxcpus=,
 * hot-added) joins the partition of an online sibling; else the partition
 * of its L3 domain, else of its node, with the fewest online CPUs; else that
 * of the nearest node.  CPUs barred by the pattern, and isolated ones,
 * stay out.  Returns 0 or a negative errno (-ENOMEM, -EINVAL when @topo
 * does not match @old) and fills @err like cplan_make().
 */
int cplan_table_update(const struct cplan_table *old, const struct cplan_topo *topo,
		     struct cplan_table **tablep, struct cplan_err *err);

/*
 * Why a CPU has the partition it has after cplan_table_update_why(), the
 * rule of the comment above that placed it (the tracepoint cpt_cpu_place
 * shows these), or why it has none.
 */
enum cplan_why {
	CPLAN_WHY_NONE,		/* offline: nothing to say */
	CPLAN_WHY_KEPT,		/* placed before: never moves */
	CPLAN_WHY_SIBLING,	/* joins an online sibling */
	CPLAN_WHY_L3,		/* the lightest partition of its L3 domain */
	CPLAN_WHY_NODE,		/* the lightest partition of its node */
	CPLAN_WHY_NEAREST,	/* the lightest of the nearest node */
	CPLAN_WHY_FIRST,	/* no member anywhere (cannot happen): 0 */
	CPLAN_WHY_BARRED,	/* online, kept out: pattern or isolation */
};

/*
 * cplan_table_update(), and when @why is not NULL, @why[c] (of
 * @topo->nr_cpus) is the enum cplan_why of each CPU c; what it holds after
 * a failed update means nothing.
 */
int cplan_table_update_why(const struct cplan_table *old,
			   const struct cplan_topo *topo,
			   struct cplan_table **tablep, unsigned char *why,
			   struct cplan_err *err);

/*
 * Render /proc/sys/lnet/cpu_partition_table ("%d\t:" then " %d" per online
 * CPU, one line per partition, also for a partition whose CPUs are all
 * offline) or cpu_partition_distance ("%d\t:" then " %d:%d"
 * per partition).  Like snprintf: writes at most @size bytes including a
 * NUL (nothing when @size is 0) and returns the full length, without NUL.
 */
size_t cplan_format_table(const struct cplan_table *table, char *buf, size_t size);
size_t cplan_format_distance(const struct cplan_table *table, char *buf,
			   size_t size);

#endif /* CPLAN_H */
