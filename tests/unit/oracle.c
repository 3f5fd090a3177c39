// SPDX-License-Identifier: GPL-2.0
/*
 * The one test oracle of the planner's rules; see oracle.h.  Everything
 * expected is derived from the topology and doc/planner.md, by means of its
 * own (sorting, counting), never by calling or copying the core's code.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

oracle_report_fn *oracle_report;
int oracle_all_pairs_max = 2048;

static void __attribute__((format(printf, 4, 5)))
oracle_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (oracle_report)
		oracle_report(file, line, cond, msg);
	else
		fprintf(stderr, "%s:%d: %s (check '%s' failed)\n", file, line,
			msg, cond);
	abort();
}

#define OCHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			oracle_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
	} while (0)

/* calloc() of n + 1 elements (never a zero-size request), or abort. */
static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n + 1, size);

	if (!p)
		abort();
	return p;
}

/* ---- the model of a topology ------------------------------------------ */

struct okey {
	int node, key, cpu;
};

static int cmp_int(int a, int b)
{
	return a < b ? -1 : a > b;
}

/* By node, key, CPU: a total order, so qsort() has one answer. */
static int okey_cmp(const void *a, const void *b)
{
	const struct okey *x = a, *y = b;

	return cmp_int(x->node, y->node) ?: cmp_int(x->key, y->key) ?:
	       cmp_int(x->cpu, y->cpu);
}

/*
 * Group the online CPUs by (node, core key) or (node, L3 key) and number the
 * groups by their lowest CPU.  Stores the group of each CPU in @out (-1 when
 * offline) and returns the number of groups.
 */
static int group_by(const struct cplan_topo *t, bool by_llc, int *out)
{
	struct okey *v = xcalloc(t->nr_cpus, sizeof(*v));
	int *grp = xcalloc(t->nr_cpus, sizeof(int));
	int *num = xcalloc(t->nr_cpus, sizeof(int));
	int n = 0, ng = 0, i, c;

	for (c = 0; c < t->nr_cpus; c++) {
		if (!t->cpu[c].online)
			continue;
		v[n].node = t->cpu[c].node;
		v[n].key = by_llc ? t->cpu[c].llc : t->cpu[c].core;
		v[n++].cpu = c;
	}
	qsort(v, n, sizeof(*v), okey_cmp);
	for (i = 0; i < n; i++) {
		if (i && okey_cmp(&(struct okey){ v[i].node, v[i].key, 0 },
				  &(struct okey){ v[i - 1].node, v[i - 1].key, 0 }))
			ng++;
		grp[v[i].cpu] = ng;
	}
	for (i = 0; i <= ng; i++)
		num[i] = -1;
	for (c = 0, ng = 0; c < t->nr_cpus; c++) {
		out[c] = -1;
		if (!t->cpu[c].online)
			continue;
		if (num[grp[c]] < 0)
			num[grp[c]] = ng++;	/* @c is the group's lowest CPU */
		out[c] = num[grp[c]];
	}
	free(v);
	free(grp);
	free(num);
	return ng;
}

/* A core belongs to the L3 domain of its lowest CPU (doc/planner.md). */
static void model_domains(struct oracle_topo *m, const struct cplan_topo *t,
			  const int *raw)
{
	int c, o;

	m->core_dom = xcalloc(m->nr_cores, sizeof(int));
	m->dom_node = xcalloc(m->nr_doms, sizeof(int));
	m->dom_cores = xcalloc(m->nr_doms, sizeof(int));
	for (o = 0; o < m->nr_cores; o++)
		m->core_dom[o] = -1;
	for (c = 0; c < t->nr_cpus; c++) {
		if (!t->cpu[c].online)
			continue;
		o = m->ord[c];
		m->dom_node[raw[c]] = t->cpu[c].node;
		if (m->core_dom[o] < 0) {
			m->core_dom[o] = raw[c];
			m->dom_cores[raw[c]]++;
		}
		m->dom[c] = m->core_dom[o];
	}
}

/* C[k] is the k-th core of every node, X[...] included (doc/planner.md). */
static void model_node_ranks(struct oracle_topo *m, const struct cplan_topo *t)
{
	int *rank = xcalloc(m->nr_cores, sizeof(int));
	int *seen = xcalloc(t->nr_nodes, sizeof(int));
	int c, o;

	m->node_ord = xcalloc(t->nr_cpus, sizeof(int));
	for (o = 0; o < m->nr_cores; o++)
		rank[o] = -1;
	for (c = 0; c < t->nr_cpus; c++) {
		m->node_ord[c] = -1;
		if (!t->cpu[c].online)
			continue;
		o = m->ord[c];
		if (rank[o] < 0)	/* @c is the core's lowest CPU */
			rank[o] = seen[t->cpu[c].node]++;
		m->node_ord[c] = rank[o];
	}
	free(rank);
	free(seen);
}

void oracle_topo_init(struct oracle_topo *m, const struct cplan_topo *t)
{
	bool *has = xcalloc(t->nr_nodes, sizeof(bool));
	int *raw = xcalloc(t->nr_cpus, sizeof(int));
	int c, n;

	memset(m, 0, sizeof(*m));
	m->nr_cpus = t->nr_cpus;
	m->nr_nodes = t->nr_nodes;
	m->ord = xcalloc(t->nr_cpus, sizeof(int));
	m->dom = xcalloc(t->nr_cpus, sizeof(int));
	m->nr_cores = group_by(t, false, m->ord);
	m->nr_doms = group_by(t, true, raw);
	m->core_threads = xcalloc(m->nr_cores, sizeof(int));
	for (c = 0; c < t->nr_cpus; c++) {
		m->dom[c] = -1;
		if (!t->cpu[c].online)
			continue;
		m->nr_online++;
		m->core_threads[m->ord[c]]++;
		has[t->cpu[c].node] = true;
	}
	model_domains(m, t, raw);
	model_node_ranks(m, t);
	for (n = 0; n < t->nr_nodes; n++)
		m->nr_cpu_nodes += has[n];
	free(has);
	free(raw);
}

void oracle_topo_free(struct oracle_topo *m)
{
	int **arrays[] = { &m->ord, &m->node_ord, &m->dom, &m->core_threads,
			   &m->core_dom, &m->dom_node, &m->dom_cores };
	size_t i;

	for (i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++)
		free(*arrays[i]);
	memset(m, 0, sizeof(*m));
}

/* ---- the default count ---------------------------------------------------- */

/* doc/planner.md says 256, the number it documents, not a core macro. */
#define DOC_COUNT_CAP	256

static int max_of(int a, int b)
{
	return a > b ? a : b;
}

static int min_of(int a, int b)
{
	return a < b ? a : b;
}

/*
 * doc/planner.md, "Default layout", as written there: "1 if there are at
 * most 4 such CPUs; otherwise max(2, ceil(cores / 2), CPU-bearing nodes),
 * capped at the number of cores and at 256."
 */
int oracle_default_count(const struct cplan_topo *t)
{
	struct oracle_topo m;
	int p;

	oracle_topo_init(&m, t);
	if (m.nr_online <= 4)
		p = 1;
	else
		p = min_of(min_of(max_of(max_of(2, (m.nr_cores + 1) / 2),
					 m.nr_cpu_nodes),
				  m.nr_cores), DOC_COUNT_CAP);
	/* what the rule must mean whatever its wording: a count the planner
	 * can keep without splitting cores, one per node at least */
	OCHECK(p >= 1 && p <= m.nr_cores && p <= CPLAN_PARTS_MAX,
	       "default count %d with %d cores", p, m.nr_cores);
	OCHECK(p == 1 || p >= m.nr_cpu_nodes || p == DOC_COUNT_CAP,
	       "default count %d below %d CPU-bearing nodes", p,
	       m.nr_cpu_nodes);
	oracle_topo_free(&m);
	return p;
}

/* ---- invariants of every table -------------------------------------------- */

/* Sizes, warnings and the lists of CPUs of the partitions. */
static void check_parts(const struct cplan_topo *t, const struct cplan_table *tb,
			bool fresh)
{
	int nc = t->nr_cpus, P = tb->nr_parts, p, i, c;

	OCHECK(tb->nr_cpus == nc && tb->nr_nodes == t->nr_nodes,
	       "table of %d CPUs, %d nodes; topology %d, %d", tb->nr_cpus,
	       tb->nr_nodes, nc, t->nr_nodes);
	OCHECK(P >= 1 && P <= nc && P <= CPLAN_PARTS_MAX,
	       "nr_parts %d with %d CPUs", P, nc);
	OCHECK(!(tb->warnings & ~(unsigned int)(CPLAN_WARN_SPLIT_CORES |
						 CPLAN_WARN_NPART_IGNORED)),
	       "unknown warnings %#x", tb->warnings);
	OCHECK(tb->part_first[0] == 0, "part_first[0] = %d", tb->part_first[0]);
	for (p = 0; p < P; p++) {
		int lo = tb->part_first[p], hi = tb->part_first[p + 1], on = 0;

		OCHECK(hi > lo && hi <= nc, "partition %d is empty or too big "
		       "(part_first %d..%d)", p, lo, hi);
		for (i = lo; i < hi; i++) {
			c = tb->part_cpu[i];
			OCHECK(c >= 0 && c < nc, "partition %d holds CPU %d", p, c);
			OCHECK(i == lo || tb->part_cpu[i - 1] < c,
			       "partition %d not ascending: %d then %d", p,
			       tb->part_cpu[i - 1], c);
			OCHECK(tb->cpu_part[c] == p, "CPU %d listed in partition "
			       "%d, cpu_part says %d", c, p, tb->cpu_part[c]);
			OCHECK(!fresh || t->cpu[c].online,
			       "partition %d holds offline CPU %d", p, c);
			on += t->cpu[c].online;
		}
		OCHECK(!fresh || on > 0, "partition %d has no online CPU", p);
	}
}

/* One CPU: its partition against the topology and the pattern's bars. */
static void check_cpu(const struct cplan_topo *t, const struct cplan_table *tb,
		      int c, bool fresh)
{
	const struct cplan_cpu *cpu = &t->cpu[c];
	int p = tb->cpu_part[c];

	OCHECK(p == CPLAN_NONE || (p >= 0 && p < tb->nr_parts),
	       "cpu_part[%d] = %d", c, p);
	OCHECK(tb->cpu_online[c] == cpu->online, "cpu_online[%d] = %d, "
	       "topology says %d", c, tb->cpu_online[c], cpu->online);
	OCHECK(!tb->cpu_barred[c] || p == CPLAN_NONE,
	       "barred CPU %d in partition %d", c, p);
	/* a CPU left out while online stays out */
	OCHECK(p != CPLAN_NONE || !cpu->online || tb->cpu_barred[c],
	       "online CPU %d in no partition, not barred", c);
	OCHECK(p == CPLAN_NONE || !fresh || cpu->online,
	       "offline CPU %d in partition %d", c, p);
	if (p == CPLAN_NONE)
		return;
	OCHECK(tb->cpu_node[c] >= 0 && tb->cpu_node[c] < t->nr_nodes,
	       "member %d: cpu_node %d", c, tb->cpu_node[c]);
	OCHECK(!cpu->online || tb->cpu_node[c] == cpu->node,
	       "cpu_node[%d] = %d, online on node %d", c, tb->cpu_node[c],
	       cpu->node);
}

/* Every CPU, and the counters of placed CPUs and cores. */
static void check_cpus(const struct cplan_topo *t, const struct cplan_table *tb,
		       bool fresh)
{
	struct oracle_topo m;
	bool *seen_core;
	int c, members = 0, placed = 0, cores = 0;

	oracle_topo_init(&m, t);
	seen_core = xcalloc(m.nr_cores, sizeof(bool));
	for (c = 0; c < t->nr_cpus; c++) {
		check_cpu(t, tb, c, fresh);
		if (tb->cpu_part[c] == CPLAN_NONE)
			continue;
		members++;
		if (!t->cpu[c].online)
			continue;
		placed++;
		if (!seen_core[m.ord[c]]) {
			seen_core[m.ord[c]] = true;
			cores++;
		}
	}
	OCHECK(members == tb->part_first[tb->nr_parts],
	       "%d CPUs have a partition, part_first[%d] = %d", members,
	       tb->nr_parts, tb->part_first[tb->nr_parts]);
	OCHECK(placed == tb->nr_placed_cpus, "nr_placed_cpus %d, expected %d",
	       tb->nr_placed_cpus, placed);
	OCHECK(cores == tb->nr_placed_cores, "nr_placed_cores %d, expected %d",
	       tb->nr_placed_cores, cores);
	free(seen_core);
	oracle_topo_free(&m);
}

/* part_node: exactly the nodes of the members, ascending; node_part: the
 * lowest partition holding the node. */
static void check_nodes(const struct cplan_topo *t, const struct cplan_table *tb)
{
	int P = tb->nr_parts, N = t->nr_nodes, p, n, i, nodes = 0;
	bool *pn = xcalloc((size_t)P * N, sizeof(bool));

	for (p = 0; p < P; p++)
		for (i = tb->part_first[p]; i < tb->part_first[p + 1]; i++)
			pn[(size_t)p * N + tb->cpu_node[tb->part_cpu[i]]] = true;
	OCHECK(tb->part_node_first[0] == 0, "part_node_first[0] = %d",
	       tb->part_node_first[0]);
	for (p = 0; p < P; p++) {
		int j = tb->part_node_first[p], hi = tb->part_node_first[p + 1];

		OCHECK(hi > j && hi <= t->nr_cpus, "part_node_first[%d..] %d %d",
		       p, j, hi);
		for (n = 0; n < N; n++) {
			if (!pn[(size_t)p * N + n])
				continue;
			OCHECK(j < hi && tb->part_node[j] == n,
			       "partition %d: node %d missing from part_node "
			       "(or nodes out of order)", p, n);
			j++;
		}
		OCHECK(j == hi, "partition %d: part_node lists %d nodes, its "
		       "CPUs are on %d", p, hi - tb->part_node_first[p],
		       j - tb->part_node_first[p]);
	}
	for (n = 0; n < N; n++) {
		int lowest = CPLAN_NONE;

		for (p = 0; p < P && lowest == CPLAN_NONE; p++)
			if (pn[(size_t)p * N + n])
				lowest = p;
		OCHECK(tb->node_part[n] == lowest, "node_part[%d] = %d, "
		       "expected %d", n, tb->node_part[n], lowest);
		nodes += lowest != CPLAN_NONE;
	}
	OCHECK(nodes == tb->nr_placed_nodes, "nr_placed_nodes %d, expected %d",
	       tb->nr_placed_nodes, nodes);
	free(pn);
}

int oracle_distance(const struct cplan_table *tb, int p, int q)
{
	const int *nd = tb->node_distance;
	int N = tb->nr_nodes, d = 0, i, j;

	for (i = tb->part_node_first[p]; i < tb->part_node_first[p + 1]; i++) {
		for (j = tb->part_node_first[q]; j < tb->part_node_first[q + 1];
		     j++) {
			int a = tb->part_node[i], b = tb->part_node[j];

			d = max_of(d, max_of(nd[a * N + b], nd[b * N + a]));
		}
	}
	return d;
}

/* node_distance is the topology's; cplan_table_distance() is the largest
 * node distance, the same both ways: on every pair of a small table, on
 * the first, last, diagonal and mirrored partners of each one above. */
static void check_distances(const struct cplan_topo *t,
			    const struct cplan_table *tb)
{
	int P = tb->nr_parts, N = t->nr_nodes, p, q, i;

	for (i = 0; i < N * N; i++)
		OCHECK(tb->node_distance[i] == t->distance[i],
		       "node_distance[%d][%d] = %d, topology says %d", i / N,
		       i % N, tb->node_distance[i], t->distance[i]);
	for (p = 0; p < P; p++) {
		for (q = 0; q < P; q++) {
			int d, want;

			if (P > oracle_all_pairs_max && q != 0 && q != p &&
			    q != P - 1 && q != P - 1 - p)
				continue;
			d = cplan_table_distance(tb, p, q);
			want = oracle_distance(tb, p, q);
			OCHECK(d == want, "cplan_table_distance(%d, %d) = %d, "
			       "largest node distance is %d", p, q, d, want);
			OCHECK(d == cplan_table_distance(tb, q, p),
			       "distance %d-%d not symmetric", p, q);
		}
	}
}

void oracle_check_table(const struct cplan_topo *t,
			const struct cplan_table *tb, bool fresh)
{
	OCHECK(tb->cpu_online && tb->cpu_barred && tb->cpu_node,
	       "a table of cplan_make() or cplan_table_update() without "
	       "cpu_online, cpu_barred or cpu_node");
	check_parts(t, tb, fresh);
	check_cpus(t, tb, fresh);
	check_nodes(t, tb);
	check_distances(t, tb);
}

/* ---- the default layout ----------------------------------------------- */

/* Index of the model: CPUs per core, cores per domain. */
struct oindex {
	int *core_start, *core_cpu;	/* CPUs of core o, ascending */
	int *dom_start, *dom_core;	/* cores of domain d, in core order */
};

static void oindex_init(struct oindex *x, const struct cplan_topo *t,
			const struct oracle_topo *m)
{
	int *fill = xcalloc(m->nr_cores + m->nr_doms, sizeof(int));
	int c, o, d;

	x->core_start = xcalloc(m->nr_cores + 1, sizeof(int));
	x->core_cpu = xcalloc(m->nr_online, sizeof(int));
	x->dom_start = xcalloc(m->nr_doms + 1, sizeof(int));
	x->dom_core = xcalloc(m->nr_cores, sizeof(int));
	for (c = 0; c < t->nr_cpus; c++)
		if (t->cpu[c].online)
			x->core_start[m->ord[c] + 1]++;
	for (o = 0; o < m->nr_cores; o++) {
		x->core_start[o + 1] += x->core_start[o];
		x->dom_start[m->core_dom[o] + 1]++;
	}
	for (d = 0; d < m->nr_doms; d++)
		x->dom_start[d + 1] += x->dom_start[d];
	for (c = 0; c < t->nr_cpus; c++)
		if (t->cpu[c].online) {
			o = m->ord[c];
			x->core_cpu[x->core_start[o] + fill[o]++] = c;
		}
	for (o = 0; o < m->nr_cores; o++) {
		d = m->core_dom[o];
		x->dom_core[x->dom_start[d] + fill[m->nr_cores + d]++] = o;
	}
	free(fill);
}

static void oindex_free(struct oindex *x)
{
	free(x->core_start);
	free(x->core_cpu);
	free(x->dom_start);
	free(x->dom_core);
}

/* Partition of core @o when all its threads are together, else -2. */
static int core_part(const struct cplan_table *tb, const struct oindex *x,
		     int o)
{
	int i, p = tb->cpu_part[x->core_cpu[x->core_start[o]]];

	for (i = x->core_start[o]; i < x->core_start[o + 1]; i++)
		if (tb->cpu_part[x->core_cpu[i]] != p)
			return -2;
	return p;
}

/*
 * @part (count @k, in order) is where items were dealt out: check that they
 * form contiguous runs in ascending partition order whose sizes differ by
 * at most one, larger runs first.
 */
static void check_runs(const int *part, int k, const char *what, int unit)
{
	int i = 0, prev = -1, min = 1 << 30, max = 0;

	while (i < k) {
		int j = i, size;

		while (j < k && part[j] == part[i])
			j++;
		size = j - i;
		OCHECK(i == 0 || part[i] == part[i - 1] + 1,
		       "%s %d: runs not contiguous or not in order "
		       "(partition %d then %d)", what, unit, part[i - 1],
		       part[i]);
		OCHECK(prev < 0 || size <= prev, "%s %d: run of %d after a run "
		       "of %d (larger runs first)", what, unit, size, prev);
		min = min_of(min, size);
		max = max_of(max, size);
		prev = size;
		i = j;
	}
	OCHECK(k == 0 || max - min <= 1, "%s %d: run sizes %d..%d differ by "
	       "more than one", what, unit, min, max);
}

/* Where the partitions are: per partition its node and domain (-2 when
 * more than one) and lowest node, per domain its partitions' range. */
struct where {
	int *pnode, *plow, *pdom;	/* [P] */
	int *dp0, *dp1;			/* [nr_doms] */
	int *items;			/* scratch, [nr_cpus] */
};

static void where_init(struct where *w, const struct cplan_topo *t,
		       const struct oracle_topo *m, const struct cplan_table *tb)
{
	int P = tb->nr_parts, c, p, n, d;

	w->pnode = xcalloc(P, sizeof(int));
	w->plow = xcalloc(P, sizeof(int));
	w->pdom = xcalloc(P, sizeof(int));
	w->dp0 = xcalloc(m->nr_doms, sizeof(int));
	w->dp1 = xcalloc(m->nr_doms, sizeof(int));
	w->items = xcalloc(t->nr_cpus, sizeof(int));
	for (p = 0; p < P; p++) {
		w->pnode[p] = w->pdom[p] = -1;
		w->plow[p] = 1 << 30;
	}
	for (d = 0; d < m->nr_doms; d++) {
		w->dp0[d] = 1 << 30;
		w->dp1[d] = -1;
	}
	for (c = 0; c < t->nr_cpus; c++) {
		if (!t->cpu[c].online)
			continue;
		p = tb->cpu_part[c];
		n = t->cpu[c].node;
		d = m->dom[c];
		w->pnode[p] = w->pnode[p] == -1 || w->pnode[p] == n ? n : -2;
		w->pdom[p] = w->pdom[p] == -1 || w->pdom[p] == d ? d : -2;
		w->plow[p] = min_of(w->plow[p], n);
		w->dp0[d] = min_of(w->dp0[d], p);
		w->dp1[d] = max_of(w->dp1[d], p);
	}
}

static void where_free(struct where *w)
{
	int **arrays[] = { &w->pnode, &w->plow, &w->pdom, &w->dp0, &w->dp1,
			   &w->items };
	size_t i;

	for (i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++)
		free(*arrays[i]);
}

/* P < CPU-bearing nodes: whole nodes grouped, groups numbered by their
 * lowest node. */
static void check_grouped(const struct cplan_topo *t,
			  const struct cplan_table *tb, const struct where *w)
{
	int *np = xcalloc(t->nr_nodes, sizeof(int));
	int c, n, p;

	for (n = 0; n < t->nr_nodes; n++)
		np[n] = -1;
	for (c = 0; c < t->nr_cpus; c++) {
		if (!t->cpu[c].online)
			continue;
		n = t->cpu[c].node;
		OCHECK(np[n] == -1 || np[n] == tb->cpu_part[c],
		       "P %d < nodes: node %d split over partitions %d and %d",
		       tb->nr_parts, n, np[n], tb->cpu_part[c]);
		np[n] = tb->cpu_part[c];
	}
	for (p = 1; p < tb->nr_parts; p++)
		OCHECK(w->plow[p] > w->plow[p - 1], "node groups not numbered "
		       "by lowest node: partition %d starts at node %d, %d at "
		       "%d", p - 1, w->plow[p - 1], p, w->plow[p]);
	free(np);
}

/* r > m partitions in a domain: each core's threads dealt out as runs,
 * the cores' runs one after the other; returns the last partition. */
static int check_split_cores(const struct cplan_table *tb,
			     const struct oindex *x, struct where *w, int d)
{
	int prevp = w->dp0[d] - 1, i, j, k;

	for (i = x->dom_start[d]; i < x->dom_start[d + 1]; i++) {
		int o = x->dom_core[i];

		for (k = 0, j = x->core_start[o]; j < x->core_start[o + 1]; j++)
			w->items[k++] = tb->cpu_part[x->core_cpu[j]];
		OCHECK(w->items[0] == prevp + 1, "core ordinal %d starts at "
		       "partition %d after %d", o, w->items[0], prevp);
		check_runs(w->items, k, "threads of core", o);
		prevp = w->items[k - 1];
	}
	return prevp;
}

/* Domain @d holds partitions dp0..dp1 alone: runs of whole cores, or of
 * threads when it has more partitions than cores. */
static void check_domain(const struct cplan_table *tb, const struct oindex *x,
			 struct where *w, int d)
{
	int m = x->dom_start[d + 1] - x->dom_start[d];
	int r = w->dp1[d] - w->dp0[d] + 1, p, i, k = 0;

	for (p = w->dp0[d]; p <= w->dp1[d]; p++)
		OCHECK(w->pdom[p] == d, "partition %d: L3 domain %d, expected "
		       "domain %d alone", p, w->pdom[p], d);
	if (r > m) {
		p = check_split_cores(tb, x, w, d);
		OCHECK(p == w->dp1[d], "L3 domain %d ends at partition %d, "
		       "expected %d", d, p, w->dp1[d]);
		return;
	}
	for (i = x->dom_start[d]; i < x->dom_start[d + 1]; i++) {
		int o = x->dom_core[i];

		OCHECK(core_part(tb, x, o) >= 0, "L3 domain %d: %d partitions "
		       "<= %d cores, yet core ordinal %d split", d, r, m, o);
		w->items[k++] = core_part(tb, x, o);
	}
	check_runs(w->items, k, "cores of L3 domain", d);
}

/* Node @n with its q partitions: runs of whole L3 domains when q is below
 * its domains, else each domain its own run of partitions. */
static void check_node(const struct oracle_topo *m, const struct cplan_table *tb,
		       const struct oindex *x, struct where *w, int n)
{
	int q = 0, nd = 0, lastp = -1, p, d, k = 0;

	for (p = 0; p < tb->nr_parts; p++)
		q += w->pnode[p] == n;
	for (d = 0; d < m->nr_doms; d++)
		nd += m->dom_node[d] == n && m->dom_cores[d];
	if (!nd) {
		OCHECK(q == 0, "node %d without CPUs has %d partitions", n, q);
		return;
	}
	OCHECK(q >= 1, "node %d got no partition", n);
	for (d = 0; d < m->nr_doms; d++) {
		if (m->dom_node[d] != n || !m->dom_cores[d])
			continue;
		if (q < nd) {
			OCHECK(w->dp0[d] == w->dp1[d], "node %d: %d partitions "
			       "< %d L3 domains, yet domain %d split over "
			       "partitions %d..%d", n, q, nd, d, w->dp0[d],
			       w->dp1[d]);
			w->items[k++] = w->dp0[d];
			continue;
		}
		OCHECK(lastp < 0 || w->dp0[d] == lastp + 1, "node %d: L3 "
		       "domain %d starts at partition %d after partition %d",
		       n, d, w->dp0[d], lastp);
		lastp = w->dp1[d];
		check_domain(tb, x, w, d);
	}
	if (q < nd)
		check_runs(w->items, k, "L3 domains of node", n);
}

/* Everything placed, the warnings, siblings together when P <= cores. */
static void check_placed(const struct cplan_topo *t, const struct oracle_topo *m,
			 const struct oindex *x, const struct cplan_table *tb,
			 int P)
{
	int c, o;

	OCHECK(tb->nr_parts == P, "%d partitions, expected %d", tb->nr_parts,
	       P);
	for (c = 0; c < t->nr_cpus; c++)
		OCHECK(!t->cpu[c].online || tb->cpu_part[c] != CPLAN_NONE,
		       "online CPU %d in no partition", c);
	OCHECK(tb->nr_placed_cpus == m->nr_online, "%d CPUs placed, %d online",
	       tb->nr_placed_cpus, m->nr_online);
	OCHECK(!(tb->warnings & CPLAN_WARN_NPART_IGNORED),
	       "NPART_IGNORED set without a pattern (warnings %#x)",
	       tb->warnings);
	OCHECK(!!(tb->warnings & CPLAN_WARN_SPLIT_CORES) == (P > m->nr_cores),
	       "P %d, %d cores, yet SPLIT_CORES is %s", P, m->nr_cores,
	       tb->warnings & CPLAN_WARN_SPLIT_CORES ? "set" : "clear");
	for (o = 0; P <= m->nr_cores && o < m->nr_cores; o++)
		OCHECK(core_part(tb, x, o) >= 0, "P %d <= %d cores: threads of "
		       "core ordinal %d (CPU %d) split", P, m->nr_cores, o,
		       x->core_cpu[x->core_start[o]]);
}

void oracle_check_layout(const struct cplan_topo *t,
			 const struct cplan_table *tb, int P)
{
	struct oracle_topo m;
	struct oindex x;
	struct where w;
	int p, n;

	oracle_check_table(t, tb, true);
	oracle_topo_init(&m, t);
	oindex_init(&x, t, &m);
	check_placed(t, &m, &x, tb, P);
	where_init(&w, t, &m, tb);
	if (P < m.nr_cpu_nodes) {
		check_grouped(t, tb, &w);
	} else {
		/* no spanning, numbered by node */
		for (p = 0; p < P; p++) {
			OCHECK(w.pnode[p] >= 0, "partition %d spans nodes (P %d "
			       ">= %d nodes)", p, P, m.nr_cpu_nodes);
			OCHECK(p == 0 || w.pnode[p] >= w.pnode[p - 1],
			       "partition %d on node %d after partition %d on "
			       "node %d", p, w.pnode[p], p - 1, w.pnode[p - 1]);
		}
		for (n = 0; n < t->nr_nodes; n++)
			check_node(&m, tb, &x, &w, n);
	}
	where_free(&w);
	oindex_free(&x);
	oracle_topo_free(&m);
}

void oracle_check_default(const struct cplan_topo *t,
			  const struct cplan_table *tb, int np)
{
	oracle_check_layout(t, tb, np ? np : oracle_default_count(t));
}

/* ---- hotplug ------------------------------------------------------------ */

void oracle_check_update(const struct cplan_topo *t,
			 const struct cplan_table *old,
			 const struct cplan_table *nt)
{
	int c;

	oracle_check_table(t, nt, false);
	OCHECK(nt->nr_parts == old->nr_parts, "update: %d partitions, were %d",
	       nt->nr_parts, old->nr_parts);
	OCHECK(nt->warnings == old->warnings, "update: warnings %#x, were %#x",
	       nt->warnings, old->warnings);
	for (c = 0; c < t->nr_cpus; c++) {
		OCHECK(old->cpu_part[c] == CPLAN_NONE ||
		       nt->cpu_part[c] == old->cpu_part[c],
		       "update: CPU %d moved from partition %d to %d", c,
		       old->cpu_part[c], nt->cpu_part[c]);
		OCHECK(!old->cpu_barred[c] || nt->cpu_barred[c],
		       "update: CPU %d no longer barred", c);
		OCHECK(!t->cpu[c].online || nt->cpu_barred[c] ||
		       nt->cpu_part[c] != CPLAN_NONE,
		       "update: online CPU %d not placed", c);
		OCHECK(t->cpu[c].online || old->cpu_part[c] != CPLAN_NONE ||
		       nt->cpu_part[c] == CPLAN_NONE,
		       "update: offline CPU %d placed", c);
	}
}

/* ---- renderings ----------------------------------------------------------- */

struct obuf {
	char *s;
	size_t len, cap;
};

static void __attribute__((format(printf, 2, 3)))
put(struct obuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < b->cap - b->len)
			break;
		b->cap = 2 * b->cap + (size_t)n + 1;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
	b->len += (size_t)n;
}

char *oracle_render(const struct cplan_table *tb, enum oracle_text what,
		    size_t *len)
{
	struct obuf b = { .s = xcalloc(64, 1), .cap = 64 };
	int p, i;

	for (p = 0; p < tb->nr_parts; p++) {
		put(&b, "%d\t:", p);
		for (i = 0; what == ORACLE_DISTANCE && i < tb->nr_parts; i++)
			put(&b, " %d:%d", i, oracle_distance(tb, p, i));
		for (i = tb->part_first[p];
		     what != ORACLE_DISTANCE && i < tb->part_first[p + 1]; i++)
			if (what == ORACLE_MEMBERS || !tb->cpu_online ||
			    tb->cpu_online[tb->part_cpu[i]])
				put(&b, " %d", tb->part_cpu[i]);
		put(&b, "\n");
	}
	if (len)
		*len = b.len;
	return b.s;
}
