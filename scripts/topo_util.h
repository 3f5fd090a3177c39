/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two topology readers (topo_sysfs.c, topo_lscpu.c) share and
 * nobody else needs: error messages, the parsing of small text fields,
 * and the normalisation of core and L3 keys (see topo_read.h).
 */
#ifndef CPT_TOPO_UTIL_H
#define CPT_TOPO_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "cplan.h"

/* Longest piece of offending input quoted in a message. */
#define QUOTE_MAX	40

void set_err(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Parse a decimal number in [0, max] from [s, end): digits only, no sign,
 * no leading/trailing blanks.  Returns false when malformed or too big.
 */
bool parse_dec(const char *s, const char *end, long max, long *out);

const char *skip_blanks(const char *s);

/* Strip trailing blanks and newlines in place. */
void rstrip(char *s);

/* Trim blanks at both ends in place; returns the new start. */
char *trim(char *s);

/*
 * Where the raw key of a CPU's group comes from.  Keys of different
 * sources never match: the CPU with core_id 3 is not in the core whose
 * first sibling is CPU 3.
 */
enum group_source {
	GROUP_BY_FIRST_CPU,	/* lowest CPU of a siblings / shared_cpu list */
	GROUP_BY_ID,		/* an id read from the input (core_id, Core, L3) */
	GROUP_ALONE,		/* nothing known: the CPU is a group of its own */
};

/*
 * The raw key of one CPU's core or L3: CPUs with the same source, scope
 * and id are in one group.
 */
struct cpu_group_key {
	enum group_source source;
	long scope;		/* what @id is unique within (a package), or 0 */
	long id;		/* first CPU, the id read, or the CPU itself */
	int cpu;
};

/* Which key of struct cplan_cpu a grouping sets. */
enum key_field { KEY_CORE, KEY_LLC };

/*
 * Give every CPU of each group in @keys the lowest CPU id of its group as
 * its normalised core or L3 key.  Returns 0 or -ENOMEM.
 */
int assign_groups(struct cplan_topo *topo, const struct cpu_group_key *keys,
		  size_t n, enum key_field which);

#endif /* CPT_TOPO_UTIL_H */
