/* SPDX-License-Identifier: GPL-2.0 */
/* Interfaces between the core's own files: parser, planner, formatter. */
#ifndef CPT_CORE_INTERNAL_H
#define CPT_CORE_INTERNAL_H

#include "cpt_core.h"

#define CPT_INT_MAX	2147483647

/*
 * A parsed cpu_pattern, checked against the topology for everything that
 * does not depend on the placement (see cpt_plan() for the rest).
 */
struct cpt_pattern {
	bool by_node;		/* "N" */
	int nr_parts;		/* ID[LIST] items */
	int *part_offset;	/* offset of each ID token */
	int *cpu_part;		/* [nr_cpus] from CPU lists, or CPT_NONE */
	int *node_part;		/* [nr_nodes] from node lists, or CPT_NONE */
	bool *excluded;		/* [nr_cpus] from X[LIST] */
	int *core_drop;		/* [nr_cpus] offset of the C[LIST] naming core
				 * ordinal k, or -1 */
	int core_drop_offset;	/* offset of the first C[LIST], or -1 */
};

int cpt_pattern_parse(const struct cpt_topo *topo, const char *text,
		      struct cpt_pattern *pat, struct cpt_err *err);
void cpt_pattern_release(struct cpt_pattern *pat);

/*
 * Make a table of @nparts partitions from per-CPU assignments (CPT_NONE for
 * none).  Offline members stay in their partition, unlisted; @cpu_node is
 * the node each member was last seen online on; @barred marks CPUs that must
 * stay out when they come online.  NULL when out of memory.
 */
struct cpt_table *cpt_assemble_table(const struct cpt_topo *topo, int nparts,
				     const int *cpu_part, const int *cpu_node,
				     const bool *barred,
				     const bool *core_barred,
				     const bool *node_barred);

/* Fill @err (may be NULL) and return @error.  With @offset >= 0 the message
 * names the pattern token there. */
int cpt_fail(struct cpt_err *err, int error, const char *text, int offset,
	     const char *what);

#endif /* CPT_CORE_INTERNAL_H */
