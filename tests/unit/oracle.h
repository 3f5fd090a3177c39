/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test oracle of the planner's rules (doc/planner.md, cpt/core/cplan.h),
 * shared by the cmocka unit tests and the libFuzzer target: a model of the
 * topology computed without the core, the invariants of every table, the
 * rules of the default layout and the default count, the invariants of a
 * hotplug update, and renderings of the /proc files made without the
 * formatter.  Nothing here calls the core except cplan_table_distance(),
 * which is what it checks.
 *
 * A failed check calls oracle_report (set by the test harness: the unit
 * tests fail the running cmocka test, the fuzzer aborts); it must not
 * return, and if it does the oracle aborts.
 */
#ifndef ORACLE_H
#define ORACLE_H

#include "cplan.h"

typedef void oracle_report_fn(const char *file, int line, const char *cond,
			      const char *msg);
extern oracle_report_fn *oracle_report;

/* cplan_table_distance() is compared with the reference on every pair of
 * partitions up to this many partitions, on a sample above. */
extern int oracle_all_pairs_max;

/* What the oracle knows about a topology, from doc/planner.md, "Input". */
struct oracle_topo {
	int nr_cpus, nr_nodes;
	int nr_online;
	int nr_cores;		/* distinct (node, core key) of online CPUs */
	int nr_cpu_nodes;	/* nodes with an online CPU */
	int nr_doms;		/* distinct (node, L3 key) of online CPUs */
	int *ord;		/* per CPU: core ordinal (by lowest CPU), or -1 */
	int *node_ord;		/* per CPU: its core's rank among the cores of
				 * its node (by lowest CPU): what C[k] names */
	int *dom;		/* per CPU: L3 domain of its core, or -1 */
	int *core_threads;	/* per ordinal: online CPUs */
	int *core_dom;		/* per ordinal: the domain of its lowest CPU */
	int *dom_node;		/* per domain: its node */
	int *dom_cores;		/* per domain: cores whose lowest CPU is in it */
};
void oracle_topo_init(struct oracle_topo *m, const struct cplan_topo *t);
void oracle_topo_free(struct oracle_topo *m);

/* The default count of doc/planner.md, over all online CPUs. */
int oracle_default_count(const struct cplan_topo *t);

/*
 * Invariants of every table of @t: sizes, cpu_part against part_cpu,
 * ascending CPUs, no empty partition, barred CPUs out and online CPUs left
 * out barred, counters, node lists and node_part, node_distance, and
 * cplan_table_distance() against the largest node distance.  @fresh: made
 * by cplan_make(), so every member is online.
 */
void oracle_check_table(const struct cplan_topo *t,
			const struct cplan_table *tb, bool fresh);

/*
 * The default placement (blank pattern) of @P partitions over all online
 * CPUs: everything placed, warnings, siblings together when P <= cores, no
 * partition spanning nodes when P >= CPU-bearing nodes, numbering by node,
 * L3 domain and core order, balanced runs, whole nodes grouped when P <
 * nodes.  oracle_check_default() takes P from @np, or the default count.
 */
void oracle_check_layout(const struct cplan_topo *t,
			 const struct cplan_table *tb, int P);
void oracle_check_default(const struct cplan_topo *t,
			  const struct cplan_table *tb, int np);

/*
 * cplan_table_update() of @old into @nt for @t: @nt is a table of @t, with
 * the same partitions and warnings; members never move, barred CPUs stay
 * barred, every online CPU that is not barred is placed, and an offline
 * CPU that was no member is none.
 */
void oracle_check_update(const struct cplan_topo *t,
			 const struct cplan_table *old,
			 const struct cplan_table *nt);

/* Renderings made from the table's arrays, not by the formatter. */
enum oracle_text {
	ORACLE_MEMBERS,		/* "%d\t:" " %d"... per partition, every member */
	ORACLE_LISTED,		/* the same, online members only: /proc */
	ORACLE_DISTANCE,	/* "%d\t:" " %d:%d"... from node_distance */
};
/* NUL-terminated, to free(); *len (may be NULL) is its strlen. */
char *oracle_render(const struct cplan_table *tb, enum oracle_text what,
		    size_t *len);

/* The largest node distance, either direction, between the nodes of
 * partitions @p and @q, from tb->node_distance. */
int oracle_distance(const struct cplan_table *tb, int p, int q);

#endif /* ORACLE_H */
