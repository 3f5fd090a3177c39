/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpt-plan --check: the table in force and the module options loaded,
 * against the plan and /etc/modprobe.d, under a root directory.
 */
#ifndef CPT_CHECK_H
#define CPT_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "cplan.h"
#include "lustre.h"

struct check_opts {
	const char *root;	/* "/" or a copy of a machine's files */
	bool json;
	const char *lustre;	/* --lustre VERSION, or NULL */
	const struct lustre_table *lt;	/* its default table, or NULL */
};

/*
 * Compare ROOT's cpu_partition_table with @table and ROOT's
 * etc/modprobe.d options of libcfs and cpt with the loaded modules'
 * parameters.  Returns 0 (all equal), EXIT_DIFFER, or an exit status
 * with its one-line message printed.
 */
int check_run(FILE *out, const struct check_opts *co,
	      const struct cplan_table *table);

#endif /* CPT_CHECK_H */
