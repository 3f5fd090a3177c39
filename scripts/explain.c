// SPDX-License-Identifier: GPL-2.0
/*
 * cpt-plan --explain: the topology, the automatic count and each
 * partition described, as text for people or as a JSON document.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "out.h"

/* ------------------------------------------------------------------ */
/* --explain                                                           */
/* ------------------------------------------------------------------ */

/* What --explain counts about one online CPU. */
struct cpu_facts {
	int cpu;
	int core;
	int package;
	int node;
	int llc;		/* CPLAN_NONE: unknown, one L3 per node */
	int part;		/* CPLAN_NONE: in no partition */
};

/* A field of struct cpu_facts, to sort and group by. */
enum fact { BY_CPU, BY_CORE, BY_PACKAGE, BY_NODE, BY_LLC, BY_PART };

/* Fields to sort by, most significant first; a group shares them all. */
struct fact_order {
	int nr;
	enum fact by[3];
};

static int fact_value(const struct cpu_facts *f, enum fact by)
{
	switch (by) {
	case BY_CORE:
		return f->core;
	case BY_PACKAGE:
		return f->package;
	case BY_NODE:
		return f->node;
	case BY_LLC:
		return f->llc;
	case BY_PART:
		return f->part;
	case BY_CPU:
		break;
	}
	return f->cpu;
}

static int cmp_facts(const void *x, const void *y, void *order_arg)
{
	const struct fact_order *order = order_arg;

	for (int k = 0; k < order->nr; k++) {
		int a = fact_value(x, order->by[k]);
		int b = fact_value(y, order->by[k]);

		if (a != b)
			return a < b ? -1 : 1;
	}
	return 0;
}

static void sort_facts(struct cpu_facts *f, size_t n, struct fact_order *order)
{
	if (n)
		qsort_r(f, n, sizeof(*f), cmp_facts, order);
}

/* Does f[i] of an array sorted by @order start a new group? */
static bool starts_group(const struct cpu_facts *f, size_t i,
			 struct fact_order *order)
{
	return i == 0 || cmp_facts(&f[i], &f[i - 1], order) != 0;
}

/* The number of groups of @order among the @n facts (sorts them). */
static int count_groups(struct cpu_facts *f, size_t n, struct fact_order *order)
{
	int groups = 0;

	sort_facts(f, n, order);
	for (size_t i = 0; i < n; i++)
		if (starts_group(f, i, order))
			groups++;
	return groups;
}

/* The facts of the online CPUs, malloc'd, ascending; NULL when no memory. */
static struct cpu_facts *collect_facts(const struct cplan_topo *topo,
				       const struct cplan_table *table,
				       size_t *n)
{
	struct cpu_facts *f = calloc((size_t)topo->nr_cpus + 1, sizeof(*f));

	*n = 0;
	for (int c = 0; f && c < topo->nr_cpus; c++) {
		const struct cplan_cpu *cpu = &topo->cpu[c];

		if (cpu->online)
			f[(*n)++] = (struct cpu_facts){
				.cpu = c, .core = cpu->core,
				.package = cpu->package, .node = cpu->node,
				.llc = cpu->llc, .part = table->cpu_part[c] };
	}
	return f;
}

/* Machine-wide counts. */
struct summary {
	int online;
	int cores;
	int tmin, tmax;		/* threads per core */
	int packages;
	int cpu_nodes;		/* online nodes with CPUs */
	int mem_nodes;		/* online nodes without CPUs */
	int l3;			/* (node, L3) domains */
	bool l3_known;
};

/* Cores and the fewest and most threads a core has. */
static void count_cores(struct cpu_facts *f, size_t n, struct summary *s)
{
	struct fact_order by_core = { 1, { BY_CORE } };
	int run = 0;

	sort_facts(f, n, &by_core);
	s->tmin = INT_MAX;
	for (size_t i = 0; i < n; i++) {
		run++;
		if (i + 1 == n || starts_group(f, i + 1, &by_core)) {
			s->cores++;
			if (run < s->tmin)
				s->tmin = run;
			if (run > s->tmax)
				s->tmax = run;
			run = 0;
		}
	}
}

static int summarize(const struct cplan_topo *topo, struct cpu_facts *f,
		     size_t n, struct summary *s)
{
	struct fact_order by_package = { 1, { BY_PACKAGE } };
	struct fact_order by_l3 = { 2, { BY_NODE, BY_LLC } };
	bool *has_cpu = calloc((size_t)topo->nr_nodes, sizeof(bool));

	memset(s, 0, sizeof(*s));
	if (!has_cpu)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		s->online++;
		has_cpu[f[i].node] = true;
		if (f[i].llc != CPLAN_NONE)
			s->l3_known = true;
	}
	for (int i = 0; i < topo->nr_nodes; i++) {
		if (has_cpu[i])
			s->cpu_nodes++;
		else if (topo->node_online[i])
			s->mem_nodes++;
	}
	free(has_cpu);
	count_cores(f, n, s);
	s->packages = count_groups(f, n, &by_package);
	/* an unknown L3 key is one domain per node */
	s->l3 = count_groups(f, n, &by_l3);
	return 0;
}

/* Per-partition facts derived from the table and the topology. */
struct part_info {
	int cores;
	int l3;
	int nodes;
	bool split_core;	/* a core shared with another partition */
	bool partial_core;	/* a core with threads in no partition */
};

/* Cores shared by partitions, or with threads in none of them. */
static void mark_split_cores(struct cpu_facts *f, size_t n,
			     struct part_info *pi)
{
	struct fact_order by_core_part = { 2, { BY_CORE, BY_PART } };

	sort_facts(f, n, &by_core_part);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		int parts = 0;
		bool unplaced = false;

		while (j < n && f[j].core == f[i].core) {
			if (f[j].part == CPLAN_NONE)
				unplaced = true;
			else if (j == i || f[j].part != f[j - 1].part)
				parts++;
			j++;
		}
		for (size_t k = i; k < j; k++) {
			if (f[k].part == CPLAN_NONE)
				continue;
			if (parts > 1)
				pi[f[k].part].split_core = true;
			if (unplaced)
				pi[f[k].part].partial_core = true;
		}
		i = j;
	}
}

static void part_facts(const struct cplan_table *table, struct cpu_facts *f,
		       size_t n, struct part_info *pi)
{
	struct fact_order by_part_core = { 2, { BY_PART, BY_CORE } };
	struct fact_order by_part_l3 = { 3, { BY_PART, BY_NODE, BY_LLC } };

	for (int p = 0; p < table->nr_parts; p++)
		pi[p].nodes = table->part_node_first[p + 1] -
			      table->part_node_first[p];
	sort_facts(f, n, &by_part_core);
	for (size_t i = 0; i < n; i++)
		if (f[i].part != CPLAN_NONE && starts_group(f, i, &by_part_core))
			pi[f[i].part].cores++;
	sort_facts(f, n, &by_part_l3);
	for (size_t i = 0; i < n; i++)
		if (f[i].part != CPLAN_NONE && starts_group(f, i, &by_part_l3))
			pi[f[i].part].l3++;
	mark_split_cores(f, n, pi);
}

/* "  NUMA nodes:  ..." : the nodes with CPUs, and the memory-only ones. */
static int print_nodes(FILE *out, const struct cplan_topo *topo,
		       const struct summary *s)
{
	int *ids = calloc((size_t)topo->nr_nodes + 1, sizeof(*ids));
	struct sbuf nl = { 0 };
	int k = 0;

	if (!ids)
		return -ENOMEM;
	/* flag the nodes with CPUs, then compact them in place */
	for (int c = 0; c < topo->nr_cpus; c++)
		if (topo->cpu[c].online)
			ids[topo->cpu[c].node] = 1;
	for (int i = 0; i < topo->nr_nodes; i++)
		if (ids[i])
			ids[k++] = i;
	sb_ranges(&nl, ids, k);
	fprintf(out, "  NUMA nodes:  %d with CPUs (%s)", s->cpu_nodes,
		nl.oom ? "?" : sb_str(&nl));
	free(nl.s);
	free(ids);
	if (s->mem_nodes)
		fprintf(out, ", %d without CPUs", s->mem_nodes);
	fputc('\n', out);
	return 0;
}

/* The isolated CPUs, when there are any: they are in no partition. */
static int print_isolated(FILE *out, const struct cplan_topo *topo)
{
	struct sbuf sb = { 0 };
	int *ids = calloc((size_t)topo->nr_cpus, sizeof(int)), k = 0;

	if (!ids)
		return -ENOMEM;
	for (int c = 0; c < topo->nr_cpus; c++)
		if (topo->cpu[c].online && topo->cpu[c].isolated)
			ids[k++] = c;
	sb_ranges(&sb, ids, k);
	if (k)
		fprintf(out, "  isolated:    %s (isolcpus=, nohz_full=: in no partition)\n",
			sb.oom ? "?" : sb_str(&sb));
	free(sb.s);
	free(ids);
	return 0;
}

static int print_topology(FILE *out, const struct cplan_topo *topo,
			  const struct summary *s, const char *source)
{
	int ret;

	fprintf(out, "Topology (%s):\n", source);
	fprintf(out, "  CPUs:        %d online of %d possible\n", s->online,
		topo->nr_cpus);
	ret = print_isolated(out, topo);
	if (ret)
		return ret;
	if (s->tmin == s->tmax)
		fprintf(out, "  cores:       %d, %d thread%s per core\n", s->cores,
			s->tmax, s->tmax == 1 ? "" : "s");
	else
		fprintf(out, "  cores:       %d, %d to %d threads per core (mixed)\n",
			s->cores, s->tmin, s->tmax);
	fprintf(out, "  packages:    %d\n", s->packages);
	ret = print_nodes(out, topo, s);
	if (ret)
		return ret;
	fprintf(out, "  L3 domains:  %d%s\n", s->l3,
		s->l3_known ? "" : " (L3 unknown: one per node)");
	return 0;
}

/*
 * The partition count the module would choose, and its rule, over the
 * CPUs the default layout places: all the online ones but the isolated.
 */
static void print_auto_count(FILE *out, const struct cplan_topo *topo)
{
	struct cplan_table *t = NULL;

	if (cplan_make(topo, 0, NULL, &t, NULL))
		return;
	fprintf(out, "Automatic partition count: %d\n", t->nr_parts);
	if (t->nr_placed_cpus <= 4)
		fprintf(out, "  (1 when there are at most 4 CPUs)\n");
	else
		fprintf(out, "  (max(2, ceil(%d cores / 2), %d nodes with CPUs), at most %d cores and %d)\n",
			t->nr_placed_cores, t->nr_placed_nodes,
			t->nr_placed_cores, CPLAN_DEFAULT_MAX);
	cplan_table_free(t);
}

/* The node and notes columns of each partition, and the totals. */
struct plan_text {
	struct sbuf *nodes, *notes;	/* one per partition */
	int nodes_width, notes_width;
	int nr_split, nr_span_node, nr_span_l3;
	int cpus_min, cpus_max;
};

/* The notes column of partition @p: what in it crosses a boundary. */
static void describe_part(const struct part_info *pi, struct sbuf *notes,
			  struct plan_text *pt)
{
	if (pi->split_core) {
		sb_printf(notes, "splits a core");
		pt->nr_split++;
	}
	if (pi->partial_core)
		sb_printf(notes, "%spart of a core", notes->len ? ", " : "");
	if (pi->nodes > 1) {
		sb_printf(notes, "%sspans nodes", notes->len ? ", " : "");
		pt->nr_span_node++;
	}
	if (pi->l3 > 1) {
		sb_printf(notes, "%sspans L3", notes->len ? ", " : "");
		pt->nr_span_l3++;
	}
	if (!notes->len)
		sb_printf(notes, "-");
}

static int describe_parts(const struct cplan_topo *topo,
			  const struct cplan_table *table,
			  const struct part_info *pi, struct plan_text *pt,
			  int *ids)
{
	for (int p = 0; p < table->nr_parts; p++) {
		struct sbuf *nodes = &pt->nodes[p], *notes = &pt->notes[p];
		int nc = listed_cpus(topo, table, p, ids);

		sb_ranges(nodes, table->part_node + table->part_node_first[p],
			  pi[p].nodes);
		describe_part(&pi[p], notes, pt);
		if (nodes->oom || notes->oom)
			return -ENOMEM;
		if ((int)nodes->len > pt->nodes_width)
			pt->nodes_width = (int)nodes->len;
		if ((int)notes->len > pt->notes_width)
			pt->notes_width = (int)notes->len;
		if (nc < pt->cpus_min)
			pt->cpus_min = nc;
		if (nc > pt->cpus_max)
			pt->cpus_max = nc;
	}
	return 0;
}

static int print_parts(FILE *out, const struct cplan_topo *topo,
		       const struct cplan_table *table,
		       const struct part_info *pi, const struct plan_text *pt,
		       int *ids)
{
	struct sbuf cpus = { 0 };
	int ret = 0;

	fprintf(out, "\nPlan: %d partition%s\n", table->nr_parts,
		table->nr_parts == 1 ? "" : "s");
	fprintf(out, "  part  cpus  cores  L3  %-*s  %-*s  cpu list\n",
		pt->nodes_width, "nodes", pt->notes_width, "notes");
	for (int p = 0; p < table->nr_parts; p++) {
		int nc = listed_cpus(topo, table, p, ids);

		cpus.len = 0;
		sb_ranges(&cpus, ids, nc);
		if (cpus.oom) {
			ret = -ENOMEM;
			break;
		}
		fprintf(out, "  %4d  %4d  %5d  %2d  %-*s  %-*s  %s\n", p, nc,
			pi[p].cores, pi[p].l3, pt->nodes_width,
			sb_str(&pt->nodes[p]), pt->notes_width,
			sb_str(&pt->notes[p]), sb_str(&cpus));
	}
	free(cpus.s);
	return ret;
}

static void print_totals(FILE *out, const struct cplan_table *table,
			 const struct summary *s, const struct plan_text *pt)
{
	fprintf(out, "\nPlaced: %d of %d online CPUs, %d of %d cores, %d of %d nodes with CPUs\n",
		table->nr_placed_cpus, s->online, table->nr_placed_cores,
		s->cores, table->nr_placed_nodes, s->cpu_nodes);
	if (table->nr_parts)
		fprintf(out, "CPUs per partition: %d to %d\n", pt->cpus_min,
			pt->cpus_max);
	fprintf(out, "Partitions splitting a core: %d; spanning nodes: %d; spanning L3 domains: %d\n",
		pt->nr_split, pt->nr_span_node, pt->nr_span_l3);
}

/* The plan: one line per partition, then the totals. */
static int print_plan_explained(FILE *out, const struct cplan_topo *topo,
				const struct cplan_table *table,
				const struct part_info *pi,
				const struct summary *s)
{
	struct plan_text pt = { NULL, NULL, 5, 5, 0, 0, 0, INT_MAX, 0 };
	size_t nr = (size_t)table->nr_parts + 1;
	int *ids = calloc((size_t)topo->nr_cpus + 1, sizeof(*ids));
	int ret = -ENOMEM;

	pt.nodes = calloc(nr, sizeof(*pt.nodes));
	pt.notes = calloc(nr, sizeof(*pt.notes));
	if (ids && pt.nodes && pt.notes)
		ret = describe_parts(topo, table, pi, &pt, ids);
	if (!ret)
		ret = print_parts(out, topo, table, pi, &pt, ids);
	if (!ret)
		print_totals(out, table, s, &pt);
	for (size_t p = 0; pt.nodes && pt.notes && p < nr; p++) {
		free(pt.nodes[p].s);
		free(pt.notes[p].s);
	}
	free(pt.nodes);
	free(pt.notes);
	free(ids);
	return ret;
}

/* The ids where @flag is set, of @n, into @ids; their number. */
static int ids_where(const bool *flag, int n, int *ids)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (flag[i])
			ids[k++] = i;
	return k;
}

/* "topology": {...}, from the summary of --explain. */
static int json_topology(FILE *out, const struct cplan_topo *topo,
			 const struct summary *s)
{
	int n = topo->nr_cpus > topo->nr_nodes ? topo->nr_cpus : topo->nr_nodes;
	int *ids = calloc((size_t)n + 1, sizeof(int));
	bool *flag = calloc((size_t)n + 1, sizeof(bool));

	if (!ids || !flag) {
		free(ids);
		free(flag);
		return -ENOMEM;
	}
	fprintf(out, "\"topology\": {\"cpus_online\": %d, \"cpus_possible\": %d, \"isolated\": ",
		s->online, topo->nr_cpus);
	for (int c = 0; c < topo->nr_cpus; c++)
		flag[c] = topo->cpu[c].online && topo->cpu[c].isolated;
	json_ints(out, ids, ids_where(flag, topo->nr_cpus, ids));
	fprintf(out, ", \"cores\": %d, \"threads_per_core\": [%d, %d], \"packages\": %d, \"nodes\": ",
		s->cores, s->tmin, s->tmax, s->packages);
	memset(flag, 0, sizeof(bool) * (size_t)n);
	for (int c = 0; c < topo->nr_cpus; c++)
		if (topo->cpu[c].online)
			flag[topo->cpu[c].node] = true;
	json_ints(out, ids, ids_where(flag, topo->nr_nodes, ids));
	fprintf(out, ", \"memory_only_nodes\": %d, \"l3_domains\": %d, \"l3_known\": %s}",
		s->mem_nodes, s->l3, s->l3_known ? "true" : "false");
	free(ids);
	free(flag);
	return 0;
}

/* "partitions": [...] with what --explain says of each. */
static int json_parts(FILE *out, const struct cplan_topo *topo,
		      const struct cplan_table *table,
		      const struct part_info *pi, bool distance)
{
	int *ids = calloc((size_t)topo->nr_cpus + 1, sizeof(int));

	if (!ids)
		return -ENOMEM;
	fputs("\"partitions\": [", out);
	for (int p = 0; p < table->nr_parts; p++) {
		fputs(p ? ",\n  " : "\n  ", out);
		json_partition(out, topo, table, p, ids, distance);
		fprintf(out, ", \"cores\": %d, \"l3\": %d, \"splits_core\": %s, \"partial_core\": %s, \"spans_nodes\": %s, \"spans_l3\": %s}",
			pi[p].cores, pi[p].l3,
			pi[p].split_core ? "true" : "false",
			pi[p].partial_core ? "true" : "false",
			pi[p].nodes > 1 ? "true" : "false",
			pi[p].l3 > 1 ? "true" : "false");
	}
	fputs("\n]", out);
	free(ids);
	return 0;
}

/* The whole --explain document as JSON. */
static int explain_json(FILE *out, const struct cplan_topo *topo,
			const struct cplan_table *table,
			const struct explain_req *req,
			const struct part_info *pi, const struct summary *s)
{
	struct cplan_table *t = NULL;
	int ret;

	fputs("{\"source\": ", out);
	json_str(out, req->source);
	fputs(", ", out);
	ret = json_topology(out, topo, s);
	if (ret)
		return ret;
	if (!cplan_make(topo, 0, NULL, &t, NULL))
		fprintf(out, ", \"automatic_partitions\": %d", t->nr_parts);
	cplan_table_free(t);
	fprintf(out, ", \"requested\": {\"npartitions\": %d, \"pattern\": ",
		req->npartitions);
	if (req->pattern)
		json_str(out, req->pattern);
	else
		fputs("null", out);
	fprintf(out, "}, \"placed\": {\"cpus\": %d, \"cores\": %d, \"nodes\": %d},\n",
		table->nr_placed_cpus, table->nr_placed_cores,
		table->nr_placed_nodes);
	ret = json_parts(out, topo, table, pi, req->distance);
	fputs("}\n", out);
	return ret;
}

int explain(FILE *out, const struct cplan_topo *topo,
	    const struct cplan_table *table, const struct explain_req *req)
{
	struct part_info *pi = calloc((size_t)table->nr_parts + 1, sizeof(*pi));
	struct summary s;
	struct cpu_facts *facts;
	size_t n;
	int ret = -ENOMEM;

	facts = collect_facts(topo, table, &n);
	if (facts && pi)
		ret = summarize(topo, facts, n, &s);
	if (!ret)
		part_facts(table, facts, n, pi);
	if (!ret && req->json)
		ret = explain_json(out, topo, table, req, pi, &s);
	else if (!ret)
		ret = print_topology(out, topo, &s, req->source);
	if (!ret && !req->json) {
		print_auto_count(out, topo);
		fprintf(out, "Requested: npartitions %d, pattern %s%s%s\n",
			req->npartitions, req->pattern ? "\"" : "",
			req->pattern ? req->pattern : "none",
			req->pattern ? "\"" : "");
		ret = print_plan_explained(out, topo, table, pi, &s);
	}
	free(facts);
	free(pi);
	return ret;
}
