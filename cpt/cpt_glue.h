/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface of the cpt module: what glues the portable core
 * (cpt_core.h) to the kernel.
 *
 *   cpt_topo.c    reads the machine into a struct cpt_topo
 *   cpt_api.c     turns a planned struct cpt_table into kernel masks and
 *                 serves the exported lookups (include/cpt.h)
 *   cpt_sysctl.c  /proc/sys/lnet/cpu_partition_{table,distance}
 *   cpt_main.c    module parameters, init and exit
 */
#ifndef CPT_GLUE_H
#define CPT_GLUE_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/nodemask.h>

#include "cpt_core.h"

/*
 * One partition as the exported API sees it.  @nodes lists the node ids of
 * @node_mask in ascending order, for cpt_spread_node(); @rotor is its
 * round-robin position.  @nodes points into the core table, except for the
 * CPT_ANY union, which owns its list.
 */
struct cpt_part {
	cpumask_var_t cpus;
	nodemask_t node_mask;
	int *nodes;
	int nr_nodes;
	atomic_t rotor;
};

/*
 * Everything a loaded table consists of.  @part has nr_parts + 1 entries:
 * the last one, the union of all partitions, answers for CPT_ANY.  @table
 * (the core's plan) stays for the per-CPU and per-node lookups and for
 * rendering /proc.
 *
 * A state never changes once installed.  It is reached through one pointer
 * (cpt_state_get()), so that replacing the table at run time only needs
 * that pointer to become RCU-managed.
 */
struct cpt_state {
	struct cpt_table *table;
	int nr_parts;
	struct cpt_part *part;
};

extern struct cpt_state *cpt_state_ptr;

static inline struct cpt_state *cpt_state_get(void)
{
	return READ_ONCE(cpt_state_ptr);
}

/* cpt_topo.c */
struct cpt_topo *cpt_topo_snapshot(void);

/* cpt_api.c */
struct cpt_state *cpt_state_create(struct cpt_table *table);
void cpt_state_destroy(struct cpt_state *state);
struct cpt_state *cpt_state_install(struct cpt_state *state);

/* cpt_sysctl.c */
int cpt_sysctl_register(void);
void cpt_sysctl_unregister(void);

#endif /* CPT_GLUE_H */
