/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpt-plan --lustre VERSION: the table that Lustre's libcfs of that
 * version builds by default (cpu_pattern="N", cpu_npartitions=0) on a
 * topology, and the patterns that version cannot parse.
 */
#ifndef CPT_LUSTRE_H
#define CPT_LUSTRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cplan.h"

/* Lustre's default table: partition p = cpu[first[p] .. first[p+1]-1]. */
struct lustre_table {
	int nr_parts;
	int *first;		/* [nr_parts + 1] */
	int *cpu;		/* ascending within a partition */
	const char *rule;	/* which rule of which commit built it */
};

/*
 * "2.15", "2.15.3", "2.16.51" as major * 10000 + minor * 100 + patch into
 * @v.  Returns 0, or EXIT_USAGE with the reason in @err: not a version,
 * or one whose rules cpt-plan does not know (before 2.10.4, after 2.17).
 */
int lustre_version(const char *s, int *v, char *err, size_t errlen);

/* NULL when Lustre @v parses @pattern's kind, else why it does not. */
const char *lustre_refuses(int v, const char *pattern);

/* Lustre @v's default table on @topo; 0 or -ENOMEM. */
int lustre_default(const struct cplan_topo *topo, int v,
		   struct lustre_table *lt);

/* The table as /proc/sys/lnet/cpu_partition_table shows it; malloc'd. */
char *lustre_text(const struct lustre_table *lt);

/* Is @lt the table @table lists (online, placed CPUs)? */
bool lustre_same(const struct lustre_table *lt, const struct cplan_topo *topo,
		 const struct cplan_table *table);

/* "lustre": {...} members for a JSON document, and the text lines. */
void lustre_json(FILE *out, const char *version, const struct lustre_table *lt,
		 bool same);
void lustre_print(FILE *out, const char *version,
		  const struct lustre_table *lt, bool same);

void lustre_free(struct lustre_table *lt);

#endif /* CPT_LUSTRE_H */
