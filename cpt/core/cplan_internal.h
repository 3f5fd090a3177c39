/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interfaces between the core's own files, bottom up: rank.c (sorting keys
 * into ranks), topo.c and table.c (the objects), pattern.c (the parser),
 * plan.c (the planner), update.c (hotplug), format.c (the /proc text).
 */
#ifndef CPLAN_INTERNAL_H
#define CPLAN_INTERNAL_H

#include "cplan.h"

#define CPLAN_INT_MAX	2147483647

/* A key that orders by node first: (node, core key) or (node, L3 key). */
static inline long long cplan_pair_key(int node, int key)
{
	return (long long)node << 32 | (unsigned int)key;
}

/*
 * Give items 0..n-1 ranks such that equal keys share a rank and ranks go in
 * order of first occurrence.  Returns the number of ranks, or -ENOMEM.
 */
int cplan_rank_keys(const long long *key, int n, int *rank);

/* Count the @n values of @of (negative: none) into buckets 0..nr-1 and
 * fill @first (nr + 1 entries) with where each bucket starts. */
void cplan_count_buckets(const int *of, int n, int nr, int *first);

/* The topology must be self-consistent before anything indexes with it:
 * 0, or a negative errno with @err filled. */
int cplan_topo_check(const struct cplan_topo *topo, struct cplan_err *err);

/*
 * A parsed cpu_pattern, checked against the topology for everything that
 * does not depend on the placement (see cplan_make() for the rest).
 */
struct cplan_pattern {
	bool by_node;		/* "N" */
	int nr_parts;		/* ID[LIST] items */
	int *part_offset;	/* offset of each ID token */
	int *cpu_part;		/* [nr_cpus] from CPU lists, or CPLAN_NONE */
	int *node_part;		/* [nr_nodes] from node lists, or CPLAN_NONE */
	bool *excluded;		/* [nr_cpus] from X[LIST] */
	int *core_drop;		/* [nr_cpus] offset of the C[LIST] naming the
				 * k-th core of every node, or -1 */
	int core_drop_offset;	/* offset of the first C[LIST], or -1 */
};

int cplan_pattern_parse(const struct cplan_topo *topo, const char *text,
		      struct cplan_pattern *pat, struct cplan_err *err);
void cplan_pattern_release(struct cplan_pattern *pat);

/*
 * Make a table of @nparts partitions from per-CPU assignments (CPLAN_NONE for
 * none).  Offline members stay in their partition, unlisted; @cpu_node is
 * the node each member was last seen online on; @barred marks CPUs that must
 * stay out when they come online.  NULL when out of memory.
 */
struct cplan_table *cplan_assemble_table(const struct cplan_topo *topo, int nparts,
				     const int *cpu_part, const int *cpu_node,
				     const bool *barred,
				     const bool *core_barred,
				     const bool *node_barred);

/* Fill @err (may be NULL) and return @error.  With @offset >= 0 the message
 * names the pattern token there. */
int cplan_fail(struct cplan_err *err, int error, const char *text, int offset,
	     const char *what);

#endif /* CPLAN_INTERNAL_H */
