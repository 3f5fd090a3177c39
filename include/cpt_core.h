/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpt core: topology model, partition planner, cpu_pattern parser and the
 * /proc text formatter.  Portable C shared by the kernel module and the
 * userspace tool (cpt-plan) and tests; see include/cpt_shim.h.
 */
#ifndef CPT_CORE_H
#define CPT_CORE_H

#include "cpt_shim.h"

#define CPT_PATTERN_MAX		4096	/* bytes, without the terminating NUL */
/*
 * Partitions of a table, at most: Lustre's LNET_CPT_MAX.  The distance
 * file grows as the square of the count (0.5 MB at 256 partitions), and
 * the automatic count stops here too.
 */
#define CPT_PARTS_MAX		256
#define CPT_DEFAULT_MAX		CPT_PARTS_MAX	/* cap of the automatic count */
#define CPT_NONE		(-1)	/* "no partition", "unknown L3" */
#define CPT_LOCAL_DISTANCE	10
#define CPT_REMOTE_DISTANCE	20

/*
 * One possible CPU.  @core, @package and @llc are opaque keys: CPUs with the
 * same @core are SMT siblings; CPUs with the same @llc (and node) share an L3.
 * Keys are arbitrary non-negative ints (an APIC-derived id, a CPU id...);
 * @llc may be CPT_NONE when unknown, which means one L3 domain per node.
 * Fields of offline CPUs are ignored.
 */
struct cpt_cpu {
	int core;
	int package;
	int node;
	int llc;
	bool online;
};

/*
 * A machine: CPU ids are 0..nr_cpus-1 (the kernel's nr_cpu_ids), node ids
 * 0..nr_nodes-1 (nr_node_ids).  @distance is nr_nodes x nr_nodes, row-major,
 * as node_distance(a, b).  A node is usable when @node_online says so; it may
 * have no CPU (memory-only node).
 */
struct cpt_topo {
	int nr_cpus;
	int nr_nodes;
	struct cpt_cpu *cpu;
	bool *node_online;
	int *distance;
};

/* Flags in struct cpt_table.warnings, for the caller to report. */
#define CPT_WARN_SPLIT_CORES	0x1	/* more partitions than cores */
#define CPT_WARN_NPART_IGNORED	0x2	/* the pattern fixed the count */

/*
 * The partition table.  Partition p holds the CPUs
 * part_cpu[part_first[p] .. part_first[p + 1] - 1] (online or not: a CPU
 * keeps its partition while it is offline, and only cpu_online[c] CPUs are
 * listed in /proc or counted in nr_placed_cpus) and the nodes
 * part_node[part_node_first[p] .. part_node_first[p + 1] - 1], both in
 * ascending order.  cpu_part[c] is the partition of CPU c or CPT_NONE;
 * node_part[n] is the lowest partition that holds node n or CPT_NONE.
 * cpu_barred[c] marks CPUs that the pattern keeps out of every partition,
 * also when they come online; cpu_node[c] is the node a member was last
 * seen online on.  A table made by hand may leave cpu_online NULL: every
 * member is then listed.
 * node_distance is a copy of the topology's nr_nodes x nr_nodes matrix; the
 * distance of two partitions (cpt_table_distance()) is computed from it on
 * demand, because a matrix per partition pair would not scale to thousands
 * of partitions.
 */
struct cpt_table {
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
struct cpt_err {
	int offset;
	char msg[200];
};

/* Allocate a topology with every CPU offline, every node offline, distances
 * 10 on the diagonal and 20 elsewhere.  NULL when out of memory. */
struct cpt_topo *cpt_topo_alloc(int nr_cpus, int nr_nodes);
void cpt_topo_free(struct cpt_topo *topo);

/*
 * Plan the partition table of @topo for @npartitions (0: automatic) and
 * @pattern (NULL or blank: the default layout).  On success returns 0 and
 * stores a table to free with cpt_table_free().  On failure returns a
 * negative errno, stores no table and fills @err (which may be NULL):
 *   -EINVAL  malformed pattern, or a partition left without CPUs
 *   -ERANGE  npartitions negative or above the online CPU count, more
 *            than CPT_PARTS_MAX partitions, number overflow in the pattern
 *   -ENODEV  the pattern names a CPU, core or node that does not exist or
 *            is offline
 *   -E2BIG   pattern longer than CPT_PATTERN_MAX
 *   -ENOMEM
 */
int cpt_plan(const struct cpt_topo *topo, int npartitions,
	     const char *pattern, struct cpt_table **tablep,
	     struct cpt_err *err);
void cpt_table_free(struct cpt_table *table);

/*
 * Whether two tables of one machine are the same in everything but their
 * warnings: partitions, CPUs online, and what the pattern keeps out (which
 * decides where CPUs go when they come online).
 */
bool cpt_table_equal(const struct cpt_table *a, const struct cpt_table *b);

/* The largest node distance between partitions @a and @b (both valid). */
int cpt_table_distance(const struct cpt_table *table, int a, int b);

/*
 * Follow CPU hotplug: a new table for the CPUs online in @topo, with the
 * same partitions as @old.  CPUs placed before never move; an offline one
 * keeps its partition, unlisted.  A CPU never placed (booted with maxcpus=,
 * hot-added) joins the partition of an online sibling; else the partition
 * of its L3 domain, else of its node, with the fewest online CPUs; else that
 * of the nearest node.  CPUs barred by the pattern stay out.  Returns 0 or a
 * negative errno (-ENOMEM, -EINVAL when @topo does not match @old) and fills
 * @err like cpt_plan().
 */
int cpt_table_update(const struct cpt_table *old, const struct cpt_topo *topo,
		     struct cpt_table **tablep, struct cpt_err *err);

/*
 * Render /proc/sys/lnet/cpu_partition_table ("%d\t:" then " %d" per online
 * CPU, one line per partition, also for a partition whose CPUs are all
 * offline) or cpu_partition_distance ("%d\t:" then " %d:%d"
 * per partition).  Like snprintf: writes at most @size bytes including a
 * NUL (nothing when @size is 0) and returns the full length, without NUL.
 */
size_t cpt_format_table(const struct cpt_table *table, char *buf, size_t size);
size_t cpt_format_distance(const struct cpt_table *table, char *buf,
			   size_t size);

#endif /* CPT_CORE_H */
