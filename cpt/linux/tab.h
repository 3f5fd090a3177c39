/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's partition table (struct cptab, opaque in cpt.h): the core's
 * plan (struct cplan_table) with kernel masks per partition, built whole
 * before it is installed (live.c) and never changed afterwards.
 */
#ifndef CPTK_TAB_H
#define CPTK_TAB_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/nodemask.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "cplan.h"
#include "cpt.h"
#include "text.h"

/*
 * One partition as the exported API sees it.  @cpus holds every member,
 * online or not; @weight counts the online ones.  @nodes lists the node ids
 * of @node_mask in ascending order, for cptab_spread_node(); @rotor is its
 * round-robin position.  @nodes points into the core table, except for the
 * CPT_ANY union, which owns its list.
 */
struct cptk_part {
	cpumask_var_t cpus;
	nodemask_t node_mask;
	int *nodes;
	int nr_nodes;
	int weight;
	atomic_t rotor;
};

/*
 * Everything a table consists of (struct cptab is opaque in cpt.h).  @part
 * has nr_parts + 1 entries: the last one, the union of all partitions,
 * answers for CPT_ANY.  @table (the core's plan) stays for the per-CPU and
 * per-node lookups and for rendering /proc.  @npartitions, @pattern and
 * @include_isolated are the values it was planned with, the ones
 * /proc/sys/lnet shows and that hotplug carries over to the next table
 * (live.c sets @include_isolated after cptk_tab_create()).
 *
 * @lookup is what cpt.h's inline lookups read (struct cptab_lookup): its
 * of_cpu is @of_cpu, @table's cpu_part with the core's "none" (CPLAN_NONE)
 * as CPT_ANY, its current_of_cpu is @current_of_cpu, the
 * answer of cptab_current() for each of nr_cpu_ids CPUs, fallbacks for CPUs
 * in no partition included.
 *
 * Nothing but @texts changes once a table is installed, and each of
 * them only once (text.h), so readers need no lock.  @any_distance[p] is
 * cptab_distance(p, CPT_ANY), for p up to nr_parts (CPT_ANY itself).
 * @ref counts the holders, the pointer to the table in force being one.
 * @serial is the table's own number, new for each table installed;
 * @generation, which consumers see, is new only when the partitions
 * changed: a table that differs from the one it replaces only in
 * @npartitions or @pattern (a count under an explicit pattern, "N" on one
 * node) keeps its generation, and its lookups answer the same.
 */
struct cptab {
	struct cptab_lookup lookup;	/* first: cpt.h's inlines read it */
	int *of_cpu;
	int *current_of_cpu;
	struct cplan_table *table;
	int nr_parts;
	struct cptk_part *part;
	int npartitions;
	char *pattern;
	bool include_isolated;
	u64 generation;
	u64 serial;
	refcount_t ref;
	struct rcu_work free_work;
	int *any_distance;
	struct cptk_texts texts;
};

/* Tables created and not yet destroyed, to catch a leaked reference. */
extern atomic_t cptk_nr_tables;

struct cptab *cptk_tab_create(struct cplan_table *table, int npartitions,
			      const char *pattern);
void cptk_tab_destroy(struct cptab *tab);

#endif /* CPTK_TAB_H */
