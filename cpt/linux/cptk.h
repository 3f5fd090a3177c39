/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface of the cpt module: what glues the portable core
 * (cpt/core/cplan.h) to the kernel.
 *
 *   cplan_topo.c    reads the machine into a struct cplan_topo
 *   api.c     turns a planned struct cplan_table into a struct cptab
 *                 (kernel masks) and serves the exported lookups
 *   live.c    the table in force: planning, replacement (RCU and
 *                 refcount), CPU hotplug, the consumers' notifier
 *   sysctl.c  the /proc/sys/lnet files
 *   fault.c   delays injected at race windows (test builds only)
 *   main.c    module parameters, init and exit
 */
#ifndef CPTK_H
#define CPTK_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "cplan.h"

/*
 * One partition as the exported API sees it.  @cpus holds every member,
 * online or not; @weight counts the online ones.  @nodes lists the node ids
 * of @node_mask in ascending order, for cpt_spread_node(); @rotor is its
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
 * What a /proc/sys/lnet file shows of a table: rendered once, on the
 * first read, and kept with the table until it is freed (sysctl.c).
 */
enum cptk_text_kind {
	CPTK_TEXT_TABLE,
	CPTK_TEXT_DISTANCE,
	CPTK_TEXT_NPARTITIONS,
	CPTK_TEXT_PATTERN,
	CPTK_NR_TEXTS
};

struct cptk_text {
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
 * (cptk_text_get()), so readers need no lock.  @any_distance[p] is
 * cptab_distance(p, CPT_ANY), for p up to nr_parts (CPT_ANY itself).
 * @ref counts the holders, the pointer to the table in force being one.
 * @serial is the table's own number, new for each table installed;
 * @generation, which consumers see, is new only when the partitions
 * changed: a table that differs from the one it replaces only in
 * @npartitions or @pattern (a count under an explicit pattern, "N" on one
 * node) keeps its generation, and its lookups answer the same.
 */
struct cptab {
	struct cplan_table *table;
	int nr_parts;
	struct cptk_part *part;
	int npartitions;
	char *pattern;
	u64 generation;
	u64 serial;
	refcount_t ref;
	struct rcu_work free_work;
	int *any_distance;
	struct mutex render_lock;
	struct cptk_text *text[CPTK_NR_TEXTS];
};

/* main.c */
int cptk_parse_count(const char *val, size_t len, const char *name, int *count);

/* live.c: the table in force; NULL before init and after exit. */
extern struct cptab __rcu *cptk_cur;

int cptk_live_start(int npartitions, const char *pattern);
void cptk_live_stop(void);
int cptk_live_replan(const int *npartitions, const char *pattern);
bool cptk_in_notifier(void);

/* cplan_topo.c */
struct cplan_topo *cptk_topo_snapshot(int dying);

/* api.c */
extern atomic_t cptk_nr_tables;
struct cptab *cptk_tab_create(struct cplan_table *table, int npartitions,
			   const char *pattern);
void cptk_tab_destroy(struct cptab *tab);

/* sysctl.c */
int cptk_sysctl_register(void);
void cptk_sysctl_unregister(void);

#endif /* CPTK_H */
