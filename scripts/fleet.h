/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpt-plan --fleet DIR: the hosts of DIR/HOST.lscpu grouped by plan.
 */
#ifndef CPT_FLEET_H
#define CPT_FLEET_H

#include <stdbool.h>
#include <stdio.h>

struct fleet_opts {
	const char *dir;
	int npartitions;
	const char *pattern;
	const char *isolated;	/* --isolated, or NULL */
	bool include_isolated;
	bool json;
};

/*
 * Plan every host of fo->dir and print its classes.  Returns 0,
 * EXIT_INPUT when a host could not be read or planned (the others are
 * classed), or another exit status with its message printed.
 */
int fleet_run(FILE *out, const struct fleet_opts *fo);

/*
 * The hostlist of @names (sorted or not), as clush and pdsh write it:
 * "mds[01-04],oss07".  malloc'd; NULL when out of memory.
 */
char *fleet_hostlist(const char **names, int n);

#endif /* CPT_FLEET_H */
