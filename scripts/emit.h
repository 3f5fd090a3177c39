/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A planned table written back as a cpu_pattern of CPU lists only
 * ("0[0-1,24-25] 1[2-3,26-27] ...", "0[0-204/68,1-205/68] ..."), the
 * grammar that both cpt and Lustre's libcfs read, so that either builds
 * exactly this table.
 */
#ifndef CPT_EMIT_H
#define CPT_EMIT_H

#include <stddef.h>

#include "cplan.h"

/* Lustre's cpu_pattern is a charp module parameter: at most 1024 bytes. */
#define EMIT_LUSTRE_MAX	1024

/*
 * Write the pattern of @table's online CPUs into @buf (@size bytes with
 * the NUL) and its full length into *@len, like snprintf (more than
 * @size - 1: cut).  Returns 0, -EINVAL when a partition has no online CPU
 * (a pattern cannot say so), or -ENOMEM.
 */
int emit_pattern(const struct cplan_table *table, char *buf, size_t size,
		 size_t *len);

#endif /* CPT_EMIT_H */
