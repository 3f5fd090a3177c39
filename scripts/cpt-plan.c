// SPDX-License-Identifier: GPL-2.0
/*
 * cpt-plan: show the CPU partition table that the cpt module would build,
 * for this machine (sysfs) or for another one (a sysfs tree copy or the
 * output of `lscpu -p`), with the same planner code as the module.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "emit.h"
#include "topo_read.h"

#define PROG		"cpt-plan"

/* Exit statuses. */
#define EXIT_PLAN	1	/* invalid pattern or parameter, write error */
#define EXIT_USAGE	2	/* bad command line */
#define EXIT_INPUT	3	/* topology input unreadable or malformed */

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [--lscpu FILE|-] [--sysfs DIR] [--npartitions N] [--pattern STR]\n"
	      "                [--isolated LIST] [--include-isolated]\n"
	      "                [--distance | --explain | --emit pattern|lustre] [--help]\n"
	      "\n"
	      "Print the CPU partition table that the cpt module would build, exactly as\n"
	      "/proc/sys/lnet/cpu_partition_table shows it.\n"
	      "\n"
	      "  -l, --lscpu FILE      read the topology from `lscpu -p` output (- = stdin);\n"
	      "                        node distances are then 10 local, 20 remote\n"
	      "  -s, --sysfs DIR       read the topology from a sysfs tree rooted at DIR\n"
	      "                        (DIR/devices/system/{cpu,node}, or DIR/sys/...);\n"
	      "                        default: / (the live /sys)\n"
	      "  -n, --npartitions N   number of partitions (0: automatic), as the module's\n"
	      "                        cpu_npartitions parameter\n"
	      "  -p, --pattern STR     cpu_pattern, as the module parameter\n"
	      "  -i, --isolated LIST   plan as if the kernel isolated the CPUs of LIST\n"
	      "                        (\"2-3,8\", \"\" for none) instead of those of\n"
	      "                        DIR/devices/system/cpu/{isolated,nohz_full}\n"
	      "  -I, --include-isolated  place isolated CPUs too, as the module's\n"
	      "                        include_isolated=1\n"
	      "  -d, --distance        print cpu_partition_distance instead of the table\n"
	      "  -e, --explain         describe the topology and each partition (CPUs,\n"
	      "                        cores, L3 domains, nodes, split cores, spans)\n"
	      "  -E, --emit pattern    print the table as a cpu_pattern of CPU lists,\n"
	      "                        which gives this table back in cpt and in Lustre\n"
	      "  -E, --emit lustre     print it as a modprobe.d line for Lustre's libcfs:\n"
	      "                        options libcfs cpu_pattern=\"...\" (1024 bytes at most)\n"
	      "  -h, --help            show this help\n"
	      "\n"
	      "Warnings go to stderr.  Exit status: 0 success, 1 invalid pattern or\n"
	      "parameter, 2 usage error, 3 unreadable or malformed topology input.\n",
	      f);
}

/* ------------------------------------------------------------------ */
/* A growable string.                                                  */
/* ------------------------------------------------------------------ */

struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void sb_printf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->oom = true;
		return;
	}
	if (sb->len + (size_t)n + 1 > sb->cap) {
		size_t ncap = sb->cap ? sb->cap : 64;
		char *ns;

		while (ncap < sb->len + (size_t)n + 1)
			ncap *= 2;
		ns = realloc(sb->s, ncap);
		if (!ns) {
			sb->oom = true;
			return;
		}
		sb->s = ns;
		sb->cap = ncap;
	}
	va_start(ap, fmt);
	(void)vsnprintf(sb->s + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

static const char *sb_str(const struct sbuf *sb)
{
	return sb->s ? sb->s : "";
}

/* Append ascending ids as "0-3,8,10-11" ("-" when empty). */
static void sb_ranges(struct sbuf *sb, const int *ids, int n)
{
	if (!n) {
		sb_printf(sb, "-");
		return;
	}
	for (int i = 0; i < n;) {
		int j = i;

		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		sb_printf(sb, "%s%d", i ? "," : "", ids[i]);
		if (j > i)
			sb_printf(sb, "-%d", ids[j]);
		i = j + 1;
	}
}

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

/*
 * The CPUs of partition p that /proc lists (the online ones: a table keeps
 * offline members), ascending, into @ids; returns their number.
 */
static int listed_cpus(const struct cplan_topo *topo,
		       const struct cplan_table *table, int p, int *ids)
{
	int k = 0;

	for (int i = table->part_first[p]; i < table->part_first[p + 1]; i++) {
		int c = table->part_cpu[i];
		bool online = table->cpu_online ? table->cpu_online[c] :
			      topo->cpu[c].online;

		if (online)
			ids[k++] = c;
	}
	return k;
}

static void print_warnings(unsigned int w)
{
	if (w & CPLAN_WARN_SPLIT_CORES)
		fprintf(stderr, PROG ": warning: more partitions than cores: SMT siblings are split across partitions\n");
	if (w & CPLAN_WARN_NPART_IGNORED)
		fprintf(stderr, PROG ": warning: npartitions is ignored: the pattern sets the partition count\n");
	w &= ~(unsigned int)(CPLAN_WARN_SPLIT_CORES | CPLAN_WARN_NPART_IGNORED);
	if (w)
		fprintf(stderr, PROG ": warning: planner warning flags 0x%x\n", w);
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

static int explain(FILE *out, const struct cplan_topo *topo,
		   const struct cplan_table *table, const char *source,
		   int npartitions, const char *pattern)
{
	struct part_info *pi = calloc((size_t)table->nr_parts + 1, sizeof(*pi));
	struct summary s;
	struct cpu_facts *facts;
	size_t n;
	int ret = -ENOMEM;

	facts = collect_facts(topo, table, &n);
	if (facts && pi)
		ret = summarize(topo, facts, n, &s);
	if (!ret) {
		part_facts(table, facts, n, pi);
		ret = print_topology(out, topo, &s, source);
	}
	if (!ret) {
		print_auto_count(out, topo);
		fprintf(out, "Requested: npartitions %d, pattern %s%s%s\n",
			npartitions, pattern ? "\"" : "",
			pattern ? pattern : "none", pattern ? "\"" : "");
		ret = print_plan_explained(out, topo, table, pi, &s);
	}
	free(facts);
	free(pi);
	return ret;
}

/* ------------------------------------------------------------------ */

static int write_formatted(FILE *out, const struct cplan_table *table,
			   bool distance)
{
	char dummy[1];
	size_t len, len2;
	char *buf;

	len = distance ? cplan_format_distance(table, dummy, 0) :
			 cplan_format_table(table, dummy, 0);
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	len2 = distance ? cplan_format_distance(table, buf, len + 1) :
			  cplan_format_table(table, buf, len + 1);
	if (len2 != len || strlen(buf) != len) {
		free(buf);
		return -EPROTO;
	}
	if (len && fwrite(buf, 1, len, out) != len) {
		free(buf);
		return -EIO;
	}
	free(buf);
	return 0;
}

/* Strict decimal int, optionally negative; false when malformed. */
static bool parse_int_arg(const char *s, int *out, bool *overflow)
{
	char *end;
	long v;

	*overflow = false;
	if (!*s)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || end == s || (*s != '-' && (*s < '0' || *s > '9')))
		return false;
	if (errno == ERANGE || v > INT_MAX || v < INT_MIN) {
		*overflow = true;
		return false;
	}
	*out = (int)v;
	return true;
}

/* ------------------------------------------------------------------ */
/* The command line                                                    */
/* ------------------------------------------------------------------ */

struct options {
	const char *lscpu, *sysfs, *pattern;
	const char *npart_arg;	/* --npartitions as given */
	const char *emit;	/* --emit: "pattern" or "lustre" */
	const char *isolated;	/* --isolated LIST, or NULL */
	int npartitions;
	bool distance, explain, help, include_isolated;
};

/* Report a bad command line, show the usage; returns EXIT_USAGE. */
static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(stderr);
	return EXIT_USAGE;
}

/* The options that take an argument, and where each one stores it. */
#define ARG_OPTS	"lsnpEi"

static const char **option_arg(struct options *o, int opt)
{
	const char **args[] = { &o->lscpu, &o->sysfs, &o->npart_arg,
				&o->pattern, &o->emit, &o->isolated };
	const char *p = opt ? strchr(ARG_OPTS, opt) : NULL;

	return p ? args[p - ARG_OPTS] : NULL;
}

/* The options without an argument, and the flag each one sets. */
#define FLAG_OPTS	"dehI"

static bool *option_flag(struct options *o, int opt)
{
	bool *flags[] = { &o->distance, &o->explain, &o->help,
			  &o->include_isolated };
	const char *p = opt ? strchr(FLAG_OPTS, opt) : NULL;

	return p ? flags[p - FLAG_OPTS] : NULL;
}

/* The options into @o; stops at --help.  Returns 0 or EXIT_USAGE. */
static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option opts[] = {
		{ "lscpu", required_argument, NULL, 'l' },
		{ "sysfs", required_argument, NULL, 's' },
		{ "npartitions", required_argument, NULL, 'n' },
		{ "pattern", required_argument, NULL, 'p' },
		{ "distance", no_argument, NULL, 'd' },
		{ "explain", no_argument, NULL, 'e' },
		{ "emit", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ "isolated", required_argument, NULL, 'i' },
		{ "include-isolated", no_argument, NULL, 'I' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	opterr = 0;
	while (!o->help &&
	       (opt = getopt_long(argc, argv, ":l:s:n:p:E:i:dehI", opts, NULL)) != -1) {
		const char **arg = option_arg(o, opt);
		bool *flag = option_flag(o, opt);

		if (arg)
			*arg = optarg;
		else if (flag)
			*flag = true;
		else if (opt == ':')
			return usage_error("option '%s' needs an argument",
					   argv[optind - 1]);
		else if (optopt)
			return usage_error("unknown option '-%c'", optopt);
		else
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
	}
	return 0;
}

/* Check what the options say together.  Returns 0 or an exit status. */
static int check_options(int argc, char **argv, struct options *o)
{
	bool overflow;

	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (o->lscpu && o->sysfs)
		return usage_error("--lscpu and --sysfs are exclusive");
	if (o->emit && strcmp(o->emit, "pattern") != 0 &&
	    strcmp(o->emit, "lustre") != 0)
		return usage_error("--emit takes 'pattern' or 'lustre', not '%s'",
				   o->emit);
	if (o->emit && (o->explain || o->distance))
		return usage_error("--emit goes alone, without --explain or --distance");
	if (!o->npart_arg ||
	    parse_int_arg(o->npart_arg, &o->npartitions, &overflow))
		return 0;
	if (overflow) {
		fprintf(stderr, PROG ": npartitions %s is out of range\n",
			o->npart_arg);
		return EXIT_PLAN;
	}
	return usage_error("--npartitions needs a decimal number, not '%s'",
			   o->npart_arg);
}

/* ------------------------------------------------------------------ */
/* Reading, planning, printing                                         */
/* ------------------------------------------------------------------ */

/*
 * The topology the options name, and *source describing it for
 * --explain.  Returns 0 or an exit status, with the message printed.
 */
static int read_topology(const struct options *o, struct cplan_topo **topo,
			 char **source)
{
	const char *sysfs = o->sysfs ? o->sysfs : "/";
	char errbuf[512] = "";
	int ret, n;

	if (o->lscpu) {
		bool is_stdin = !strcmp(o->lscpu, "-");
		const char *name = is_stdin ? "<stdin>" : o->lscpu;
		FILE *f = is_stdin ? stdin : fopen(o->lscpu, "r");

		if (!f) {
			fprintf(stderr, PROG ": %s: cannot open: %s\n", o->lscpu,
				strerror(errno));
			return EXIT_INPUT;
		}
		ret = topo_read_lscpu(f, name, topo, errbuf, sizeof(errbuf));
		if (!is_stdin)
			(void)fclose(f);
		n = asprintf(source, "lscpu %s; distances 10 local, 20 remote",
			     name);
	} else {
		ret = topo_read_sysfs(sysfs, topo, errbuf, sizeof(errbuf));
		n = asprintf(source, "sysfs %s", sysfs);
	}
	if (n < 0)
		*source = NULL;
	if (ret) {
		fprintf(stderr, PROG ": %s\n",
			ret == -ENOMEM && !*errbuf ? "out of memory" : errbuf);
		free(*source);
		return ret == -ENOMEM ? EXIT_PLAN : EXIT_INPUT;
	}
	if (!*source) {
		fprintf(stderr, PROG ": out of memory\n");
		cplan_topo_free(*topo);
		*topo = NULL;
		return EXIT_PLAN;
	}
	return 0;
}

/*
 * --isolated and --include-isolated over what the topology reader found.
 * Returns 0 or EXIT_USAGE (a bad list), with the message printed.
 */
static int apply_isolation(struct cplan_topo *topo, const struct options *o)
{
	char errbuf[200] = "";

	if (o->isolated &&
	    topo_set_isolated(topo, o->isolated, errbuf, sizeof(errbuf))) {
		fprintf(stderr, PROG ": %s\n", errbuf);
		return EXIT_USAGE;
	}
	for (int c = 0; o->include_isolated && c < topo->nr_cpus; c++)
		topo->cpu[c].isolated = false;
	return 0;
}

/* The table for @topo and the options.  Returns 0 or EXIT_PLAN. */
static int make_plan(const struct cplan_topo *topo, const struct options *o,
		     struct cplan_table **table)
{
	struct cplan_err err = { -1, "" };
	int ret = cplan_make(topo, o->npartitions, o->pattern, table, &err);

	if (!ret)
		return 0;
	if (err.msg[0])
		fprintf(stderr, PROG ": %.*s\n", (int)sizeof(err.msg), err.msg);
	else
		fprintf(stderr, PROG ": planning failed: %s\n", strerror(-ret));
	return EXIT_PLAN;
}

/*
 * --emit: the table as a pattern, or as Lustre's modprobe.d line.  A line
 * Lustre would refuse (over 1024 bytes) is not printed: the message says
 * what would fit instead.  Returns 0 or EXIT_PLAN.
 */
static int print_emitted(FILE *out, const struct cplan_table *table,
			 bool lustre)
{
	char *buf = malloc(CPLAN_PATTERN_MAX + 1);
	size_t len;
	int ret = buf ? emit_pattern(table, buf, CPLAN_PATTERN_MAX + 1, &len) :
			-ENOMEM;

	if (ret == -EINVAL)
		fprintf(stderr, PROG ": a partition has no online CPU: no pattern can say so\n");
	else if (ret)
		fprintf(stderr, PROG ": out of memory\n");
	else if (len > CPLAN_PATTERN_MAX)
		fprintf(stderr, PROG ": the pattern would be %zu bytes, over the %d that cpu_pattern takes\n",
			len, CPLAN_PATTERN_MAX);
	else if (lustre && len > EMIT_LUSTRE_MAX)
		fprintf(stderr, PROG ": the pattern is %zu bytes, over the %d of Lustre's cpu_pattern; "
			"nearest choice: options libcfs cpu_npartitions=%d (Lustre then places the CPUs itself, "
			"without L3 alignment)\n", len, EMIT_LUSTRE_MAX, table->nr_parts);
	else if (lustre)
		fprintf(out, "options libcfs cpu_pattern=\"%s\"\n", buf);
	else
		fprintf(out, "%s\n", buf);
	free(buf);
	return ret || len > (lustre ? EMIT_LUSTRE_MAX : CPLAN_PATTERN_MAX) ?
	       EXIT_PLAN : 0;
}

/* The table, its distances or its explanation, then the warnings. */
static int print_output(FILE *out, const struct cplan_topo *topo,
			const struct cplan_table *table, const char *source,
			const struct options *o)
{
	int ret;

	if (o->emit)
		return print_emitted(out, table, !strcmp(o->emit, "lustre"));
	if (o->explain) {
		ret = explain(out, topo, table, source, o->npartitions,
			      o->pattern);
		if (!ret && o->distance) {
			fputs("\nDistances (cpu_partition_distance):\n", out);
			ret = write_formatted(out, table, true);
		}
	} else {
		ret = write_formatted(out, table, o->distance);
	}
	if (ret) {
		fprintf(stderr, PROG ": %s\n",
			ret == -EPROTO ? "formatter returned inconsistent lengths" :
					 strerror(-ret));
		return EXIT_PLAN;
	}
	print_warnings(table->warnings);
	return 0;
}

int main(int argc, char **argv)
{
	struct options opt = { 0 };
	struct cplan_topo *topo = NULL;
	struct cplan_table *table = NULL;
	char *source = NULL;
	int status;

	status = parse_options(argc, argv, &opt);
	if (!status && opt.help) {
		usage(stdout);
		return fclose(stdout) ? EXIT_PLAN : 0;
	}
	if (!status)
		status = check_options(argc, argv, &opt);
	if (!status)
		status = read_topology(&opt, &topo, &source);
	if (status)
		return status;
	status = apply_isolation(topo, &opt);
	if (!status)
		status = make_plan(topo, &opt, &table);
	if (!status)
		status = print_output(stdout, topo, table, source, &opt);
	cplan_table_free(table);
	cplan_topo_free(topo);
	free(source);
	if (fclose(stdout) && !status) {
		fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
		status = EXIT_PLAN;
	}
	return status;
}
