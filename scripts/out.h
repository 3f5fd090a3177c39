/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What cpt-plan's outputs share: a growable string, kernel-style CPU
 * lists ("0-3,8"), the CPUs a table lists for a partition, and the few
 * pieces of JSON the --format json documents are made of.
 */
#ifndef CPT_OUT_H
#define CPT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cplan.h"

#define PROG		"cpt-plan"

/* Exit statuses (cpt-plan(8), EXIT STATUS). */
#define EXIT_PLAN	1	/* invalid pattern or parameter, write error */
#define EXIT_USAGE	2	/* bad command line */
#define EXIT_INPUT	3	/* topology input unreadable or malformed */
#define EXIT_DIFFER	4	/* --check: what is in force is not the plan */

struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

void sb_printf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *sb_str(const struct sbuf *sb);

/* Append ascending ids as "0-3,8,10-11" ("-" when empty). */
void sb_ranges(struct sbuf *sb, const int *ids, int n);

/* The same, without the "-" for none: what /proc/irq and lists take. */
void sb_list(struct sbuf *sb, const int *ids, int n);

/*
 * The CPUs of partition @p that /proc lists (the online ones: a table
 * keeps offline members), ascending, into @ids (nr_cpus of room);
 * returns their number.
 */
int listed_cpus(const struct cplan_topo *topo, const struct cplan_table *table,
		int p, int *ids);

/* A JSON string, quoted and escaped. */
void json_str(FILE *out, const char *s);

/* A JSON array of ints: [1, 2, 3]. */
void json_ints(FILE *out, const int *v, int n);

/*
 * One partition of @table as {"cpt": P, "cpus": [...], "nodes": [...]
 * and, when @distance, "distance": [...] (its distance to each
 * partition), without the closing brace: the caller may add keys.  @ids
 * as for listed_cpus().
 */
void json_partition(FILE *out, const struct cplan_topo *topo,
		    const struct cplan_table *table, int p, int *ids,
		    bool distance);

#endif /* CPT_OUT_H */
