/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpt-plan --emit lnet, irq and irqbalance: a planned table applied to
 * the machine's network interfaces (nic.h).
 */
#ifndef CPT_SITE_H
#define CPT_SITE_H

#include <stdbool.h>
#include <stdio.h>

#include "cplan.h"

/* --net and --nic options taken, each. */
#define SITE_ARGS_MAX	32

struct site_opts {
	const char *sysdir;	/* the sysfs directory; NULL for --lscpu */
	const char *net[SITE_ARGS_MAX];	/* --net NET:IF[,IF...] */
	int nr_net;
	const char *nic[SITE_ARGS_MAX];	/* --nic IF or IF=NODE */
	int nr_nic;
	bool json;
};

/* Is @arg a well-formed --net (@nic false) or --nic (true) value? */
bool site_arg_ok(const char *arg, bool nic);

/*
 * Print --emit @what ("lnet", "irq", "irqbalance") for @table.  Returns
 * 0 or an exit status of cpt-plan, with its one-line message printed.
 */
int site_emit(FILE *out, const char *what, const struct site_opts *so,
	      const struct cplan_topo *topo, const struct cplan_table *table);

#endif /* CPT_SITE_H */
