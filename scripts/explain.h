/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpt-plan --explain (explain.c).
 */
#ifndef CPT_EXPLAIN_H
#define CPT_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "cplan.h"

/* What --explain is asked to describe. */
struct explain_req {
	const char *source;	/* where the topology was read */
	int npartitions;
	const char *pattern;	/* NULL: none */
	bool json;		/* --format json */
	bool distance;		/* with the distances (JSON: per partition) */
};

/* Describe @topo and @table as @req says.  Returns 0 or -ENOMEM. */
int explain(FILE *out, const struct cplan_topo *topo,
	    const struct cplan_table *table, const struct explain_req *req);

#endif /* CPT_EXPLAIN_H */
