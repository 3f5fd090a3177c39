/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface of the cpt module: what glues the portable core
 * (cpt_core.h) to the kernel.
 *
 *   cpt_topo.c    reads the machine into a struct cpt_topo
 *   cpt_api.c     turns a planned struct cpt_table into a struct cptab
 *                 (kernel masks) and serves the exported lookups
 *   cpt_live.c    the table in force: planning, replacement (RCU and
 *                 refcount), CPU hotplug, the consumers' notifier
 *   cpt_sysctl.c  the /proc/sys/lnet files
 *   cpt_fault.c   delays injected at race windows (test builds only)
 *   cpt_main.c    module parameters, init and exit
 */
#ifndef CPT_GLUE_H
#define CPT_GLUE_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "cpt_core.h"

/*
 * One partition as the exported API sees it.  @cpus holds every member,
 * online or not; @weight counts the online ones.  @nodes lists the node ids
 * of @node_mask in ascending order, for cpt_spread_node(); @rotor is its
 * round-robin position.  @nodes points into the core table, except for the
 * CPT_ANY union, which owns its list.
 */
struct cpt_part {
	cpumask_var_t cpus;
	nodemask_t node_mask;
	int *nodes;
	int nr_nodes;
	int weight;
	atomic_t rotor;
};

/*
 * What a /proc/sys/lnet file shows of a table: rendered once, on the
 * first read, and kept with the table until it is freed (cpt_sysctl.c).
 */
enum cpt_text_kind {
	CPT_TEXT_TABLE,
	CPT_TEXT_DISTANCE,
	CPT_TEXT_NPARTITIONS,
	CPT_TEXT_PATTERN,
	CPT_NR_TEXTS
};

struct cpt_text {
	size_t len;
	char buf[];
};

/*
 * Everything a table consists of (struct cptab is opaque in cpt.h).  @part
 * has nr_parts + 1 entries: the last one, the union of all partitions,
 * answers for CPT_ANY.  @table (the core's plan) stays for the per-CPU and
 * per-node lookups and for rendering /proc.  @npartitions and @pattern are
 * the values it was planned with, the ones /proc/sys/lnet shows and that
 * hotplug carries over to the next table.
 *
 * Nothing but @text changes once a table is installed; each @text only
 * goes from NULL to a complete rendering, once, under @render_lock
 * (cpt_text_get()), so readers need no lock.  @any_distance[p] is
 * cptab_distance(p, CPT_ANY), for p up to nr_parts (CPT_ANY itself).
 * @ref counts the holders, the pointer to the table in force being one.
 * @serial is the table's own number, new for each table installed;
 * @generation, which consumers see, is new only when the partitions
 * changed: a table that differs from the one it replaces only in
 * @npartitions or @pattern (a count under an explicit pattern, "N" on one
 * node) keeps its generation, and its lookups answer the same.
 */
struct cptab {
	struct cpt_table *table;
	int nr_parts;
	struct cpt_part *part;
	int npartitions;
	char *pattern;
	u64 generation;
	u64 serial;
	refcount_t ref;
	struct rcu_work free_work;
	int *any_distance;
	struct mutex render_lock;
	struct cpt_text *text[CPT_NR_TEXTS];
};

/* cpt_main.c */
int cpt_parse_count(const char *val, size_t len, const char *name, int *count);

/* cpt_live.c: the table in force; NULL before init and after exit. */
extern struct cptab __rcu *cpt_cur;

int cpt_live_start(int npartitions, const char *pattern);
void cpt_live_stop(void);
int cpt_live_replan(const int *npartitions, const char *pattern);
bool cpt_in_notifier(void);

/* cpt_topo.c */
struct cpt_topo *cpt_topo_snapshot(int dying);

/* cpt_api.c */
extern atomic_t cpt_nr_tables;
struct cptab *cptab_create(struct cpt_table *table, int npartitions,
			   const char *pattern);
void cptab_destroy(struct cptab *tab);

/* cpt_sysctl.c */
int cpt_sysctl_register(void);
void cpt_sysctl_unregister(void);

#endif /* CPT_GLUE_H */
