// SPDX-License-Identifier: GPL-2.0
/*
 * cpt-plan --lustre VERSION (lustre.h): Lustre's own default table, by
 * version, from libcfs's libcfs_cpu.c (cfs_cpu_init() with its default
 * cpu_pattern "N"):
 *
 * - 2.10.4 to 2.16.50, after LU-9998: "N" gives one partition per NUMA
 *   node with CPUs, except on a machine with one such node, where
 *   cfs_cpt_table_create_pattern() falls back to
 *   cfs_cpt_table_create(cpu_npartitions = 0): cfs_cpt_num_estimate()
 *   partitions (2, raised while CPUs > 2 x threads per core x count, then
 *   lowered until it divides the CPU count; 1 up to 4 CPUs), filled in
 *   node order by cfs_cpt_choose_ncpus(), whole cores of a package first.
 * - 2.16.51 and later, after LU-17501 (commit 111f5836ec): "N" gives one
 *   partition per node with CPUs, one node included (LU-9998 again).
 *   C[...] and X[...] in cpu_pattern came with that change; earlier
 *   versions refuse them.
 *
 * Lustre knows nothing of isolated CPUs: every online CPU is placed.
 * cfs_cpt_set_node() takes cpumask_of_node() whole; offline CPUs are
 * taken to be out of it, as x86 removes them (numa_remove_cpu()).
 * The threads per core of the estimate are those of the CPU that loads
 * the module; here, those of the first online CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lustre.h"
#include "out.h"
#include "topo_util.h"

#define V(a, b, c)	((a) * 10000 + (b) * 100 + (c))
#define LUSTRE_FIRST	V(2, 10, 4)	/* LU-9998's fallback */
#define LUSTRE_N_NODES	V(2, 16, 51)	/* LU-17501: one per node again */
#define LUSTRE_LAST	V(2, 17, 99)	/* the last rules known here */

int lustre_version(const char *s, int *v, char *err, size_t errlen)
{
	long part[3] = { 0, 0, 0 };
	int n = 0;
	const char *p = s;

	while (n < 3) {
		const char *end = p + strspn(p, "0123456789");

		if (end == p || end - p > 3 || !parse_dec(p, end, 999, &part[n]))
			break;
		n++;
		if (*end != '.' || n == 3) {
			p = end;
			break;
		}
		p = end + 1;
	}
	if (n < 2 || *p) {
		set_err(err, errlen, "--lustre takes a version such as 2.15 or 2.16.51, not '%s'", s);
		return EXIT_USAGE;
	}
	*v = V((int)part[0], (int)part[1], (int)part[2]);
	if (*v < LUSTRE_FIRST || *v > LUSTRE_LAST) {
		set_err(err, errlen, "--lustre %s: unknown Lustre version: cpt-plan knows the defaults of 2.10.4 to 2.17",
			s);
		return EXIT_USAGE;
	}
	return 0;
}

const char *lustre_refuses(int v, const char *pattern)
{
	if (!pattern || v >= LUSTRE_N_NODES)
		return NULL;
	for (const char *p = pattern; *p; p++) {
		const char *q = p + 1;

		if (*p != 'C' && *p != 'c' && *p != 'X' && *p != 'x')
			continue;
		q += strspn(q, " \t\n");
		if (*q == '[')
			return "C[...] and X[...] need Lustre 2.16.51 (2.17) or later (LU-17501, commit 111f5836ec); this version refuses the pattern";
	}
	return NULL;
}

/* Is CPU @c online and on node @node? */
static bool on_node(const struct cplan_topo *t, int c, int node)
{
	return t->cpu[c].online && t->cpu[c].node == node;
}

static int nodes_with_cpus(const struct cplan_topo *t)
{
	int n = 0;

	for (int node = 0; node < t->nr_nodes; node++)
		for (int c = 0; c < t->nr_cpus; c++)
			if (on_node(t, c, node)) {
				n++;
				break;
			}
	return n;
}

/* cfs_cpt_num_estimate(), the CPU that loads Lustre being the first. */
static int num_estimate(const struct cplan_topo *t, int ncpu)
{
	int first = 0, nthr = 0, ncpt = 1;

	while (first < t->nr_cpus && !t->cpu[first].online)
		first++;
	for (int c = 0; c < t->nr_cpus; c++)
		if (t->cpu[c].online && t->cpu[c].core == t->cpu[first].core &&
		    t->cpu[c].package == t->cpu[first].package)
			nthr++;
	if (ncpu > 4)
		for (ncpt = 2; ncpu > 2 * nthr * ncpt; ncpt++)
			;
	while (ncpu % ncpt)
		ncpt--;
	return ncpt;
}

/* Building state: the CPUs left on the node, and each CPU's partition. */
struct lbuild {
	const struct cplan_topo *t;
	bool *left;		/* [nr_cpus]: in node_mask */
	int *part;		/* [nr_cpus]: partition or -1 */
	int *weight;		/* [nr_parts] */
};

static void take(struct lbuild *b, int c, int cpt)
{
	b->left[c] = false;
	b->part[c] = cpt;
	b->weight[cpt]++;
}

static int first_left(const struct lbuild *b, int pkg)
{
	for (int c = 0; c < b->t->nr_cpus; c++)
		if (b->left[c] && (pkg < 0 || b->t->cpu[c].package == pkg))
			return c;
	return -1;
}

/* cfs_cpt_choose_ncpus(): @number CPUs of the node into @cpt. */
static void choose_ncpus(struct lbuild *b, int cpt, int number)
{
	const struct cplan_topo *t = b->t;
	int cpu, nleft = 0;

	for (int c = 0; c < t->nr_cpus; c++)
		nleft += b->left[c];
	if (number >= nleft) {
		for (int c = 0; c < t->nr_cpus; c++)
			if (b->left[c])
				take(b, c, cpt);
		return;
	}
	while ((cpu = first_left(b, -1)) >= 0) {
		int pkg = t->cpu[cpu].package;

		/* a package's cores in turn, each core's threads together */
		for (; cpu >= 0; cpu = first_left(b, pkg)) {
			int core = t->cpu[cpu].core;

			for (int i = 0; i < t->nr_cpus; i++) {
				if (!b->left[i] || t->cpu[i].package != pkg ||
				    t->cpu[i].core != core)
					continue;
				take(b, i, cpt);
				if (!--number)
					return;
			}
		}
	}
}

/* cfs_cpt_table_create(0) into b->part. */
static void table_create(struct lbuild *b, int ncpu, int ncpt)
{
	const struct cplan_topo *t = b->t;
	int num = ncpu / ncpt, rem = ncpu % ncpt, cpt = 0;

	for (int node = 0; node < t->nr_nodes; node++) {
		if (!t->node_online[node])
			continue;
		for (int c = 0; c < t->nr_cpus; c++)
			b->left[c] = on_node(t, c, node);
		while (cpt < ncpt && first_left(b, -1) >= 0) {
			choose_ncpus(b, cpt, (rem > 0) + num - b->weight[cpt]);
			if (b->weight[cpt] == num + (rem > 0)) {
				cpt++;
				rem--;
			}
		}
	}
}

/* The partitions of b->part as lt's CPU lists. */
static void collect(struct lbuild *b, struct lustre_table *lt)
{
	int k = 0;

	for (int p = 0; p < lt->nr_parts; p++) {
		lt->first[p] = k;
		for (int c = 0; c < b->t->nr_cpus; c++)
			if (b->part[c] == p)
				lt->cpu[k++] = c;
	}
	lt->first[lt->nr_parts] = k;
}

int lustre_default(const struct cplan_topo *t, int v, struct lustre_table *lt)
{
	struct lbuild b = { t, NULL, NULL, NULL };
	int nodes = nodes_with_cpus(t), ncpu = 0, ret = 0;

	for (int c = 0; c < t->nr_cpus; c++)
		ncpu += t->cpu[c].online;
	memset(lt, 0, sizeof(*lt));
	if (nodes > 1 || v >= LUSTRE_N_NODES) {
		lt->nr_parts = nodes;
		lt->rule = v >= LUSTRE_N_NODES ?
			"cpu_pattern=\"N\": one partition per NUMA node with CPUs, one node too (LU-17501, commit 111f5836ec)" :
			"cpu_pattern=\"N\": one partition per NUMA node with CPUs";
	} else {
		lt->nr_parts = num_estimate(t, ncpu);
		lt->rule = "cpu_pattern=\"N\" on one NUMA node: cfs_cpt_table_create() with cfs_cpt_num_estimate()'s count (LU-9998)";
	}
	b.left = calloc((size_t)t->nr_cpus + 1, sizeof(bool));
	b.part = malloc(((size_t)t->nr_cpus + 1) * sizeof(int));
	b.weight = calloc((size_t)lt->nr_parts + 1, sizeof(int));
	lt->first = calloc((size_t)lt->nr_parts + 1, sizeof(int));
	lt->cpu = calloc((size_t)t->nr_cpus + 1, sizeof(int));
	if (!b.left || !b.part || !b.weight || !lt->first || !lt->cpu) {
		ret = -ENOMEM;
		goto out;
	}
	for (int c = 0; c < t->nr_cpus; c++)
		b.part[c] = -1;
	if (nodes > 1 || v >= LUSTRE_N_NODES) {
		for (int node = 0, p = 0; node < t->nr_nodes; node++) {
			bool any = false;

			for (int c = 0; c < t->nr_cpus; c++)
				if (on_node(t, c, node)) {
					b.part[c] = p;
					any = true;
				}
			p += any;
		}
	} else {
		table_create(&b, ncpu, lt->nr_parts);
	}
	collect(&b, lt);
out:
	free(b.left);
	free(b.part);
	free(b.weight);
	if (ret)
		lustre_free(lt);
	return ret;
}

char *lustre_text(const struct lustre_table *lt)
{
	struct sbuf sb = { 0 };

	for (int p = 0; p < lt->nr_parts; p++) {
		sb_printf(&sb, "%d\t:", p);
		for (int k = lt->first[p]; k < lt->first[p + 1]; k++)
			sb_printf(&sb, " %d", lt->cpu[k]);
		sb_printf(&sb, "\n");
	}
	if (sb.oom) {
		free(sb.s);
		return NULL;
	}
	return sb.s ? sb.s : strdup("");
}

bool lustre_same(const struct lustre_table *lt, const struct cplan_topo *topo,
		 const struct cplan_table *table)
{
	int *ids = calloc((size_t)topo->nr_cpus + 1, sizeof(int));
	bool same = ids && lt->nr_parts == table->nr_parts;

	for (int p = 0; same && p < lt->nr_parts; p++) {
		int n = listed_cpus(topo, table, p, ids);

		same = n == lt->first[p + 1] - lt->first[p] &&
		       !memcmp(ids, lt->cpu + lt->first[p], sizeof(int) * (size_t)n);
	}
	free(ids);
	return same;
}

void lustre_json(FILE *out, const char *version, const struct lustre_table *lt,
		 bool same)
{
	fputs("\"lustre\": {\"version\": ", out);
	json_str(out, version);
	fputs(", \"rule\": ", out);
	json_str(out, lt->rule);
	fputs(", \"partitions\": [", out);
	for (int p = 0; p < lt->nr_parts; p++) {
		fprintf(out, "%s{\"cpt\": %d, \"cpus\": ", p ? ", " : "", p);
		json_ints(out, lt->cpu + lt->first[p], lt->first[p + 1] - lt->first[p]);
		fputc('}', out);
	}
	fprintf(out, "], \"same_as_plan\": %s}", same ? "true" : "false");
}

void lustre_print(FILE *out, const char *version,
		  const struct lustre_table *lt, bool same)
{
	char *text = lustre_text(lt);

	fprintf(out, "\nLustre %s by default: %d partition%s\n  rule: %s\n",
		version, lt->nr_parts, lt->nr_parts == 1 ? "" : "s", lt->rule);
	fputs(text ? text : "", out);
	fprintf(out, "cpt's plan and Lustre %s's default: %s\n", version,
		same ? "the same table" : "different tables");
	free(text);
}

void lustre_free(struct lustre_table *lt)
{
	free(lt->first);
	free(lt->cpu);
	lt->first = lt->cpu = NULL;
	lt->nr_parts = 0;
}
