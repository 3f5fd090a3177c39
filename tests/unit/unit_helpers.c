// SPDX-License-Identifier: GPL-2.0
/*
 * Test-side model and invariant checkers; see unit_helpers.h.  Nothing here
 * calls the core except cplan_make()/cplan_table_free() in plan_ok() and
 * expect_error(): everything expected is derived from the topology and
 * doc/planner.md.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit_helpers.h"

static char ctx_buf[256];

/* Counted by cplan_yield() (cpt/core/cplan_shim.h, CPLAN_COUNT_YIELDS). */
unsigned long cplan_yields;

void unit_filter(void)
{
	const char *f = getenv("CMOCKA_TEST_FILTER");

	if (f && *f)
		cmocka_set_test_filter(f);
}

int unit_exit(int failed)
{
	if (failed) {
		fflush(stdout);
		fflush(stderr);
		_exit(1);
	}
	return 0;
}

void ctx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx_buf, sizeof(ctx_buf), fmt, ap);
	va_end(ap);
}

void check_fail(const char *file, int line, const char *cond,
		const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	print_error("[%s] %s\n    (check '%s' failed)\n", ctx_buf, msg, cond);
	_fail(file, line);
}

void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = sb->cap - sb->len;

		va_start(ap, fmt);
		n = vsnprintf(sb->s ? sb->s + sb->len : NULL, room, fmt, ap);
		va_end(ap);
		assert_true(n >= 0);
		if ((size_t)n < room) {
			sb->len += n;
			return;
		}
		sb->cap = (sb->cap + n + 1) * 2;
		sb->s = realloc(sb->s, sb->cap);
		assert_non_null(sb->s);
	}
}

/* " a ... b" then, with Intel numbering of @T cores, " a+T ... b+T". */
void sb_cores(struct sbuf *sb, int a, int b, int T)
{
	int i;

	for (i = a; i <= b; i++)
		sb_printf(sb, " %d", i);
	if (T)
		for (i = a; i <= b; i++)
			sb_printf(sb, " %d", i + T);
}

void sb_free(struct sbuf *sb)
{
	free(sb->s);
	sb->s = NULL;
	sb->len = sb->cap = 0;
}

/* ---- topology model ---------------------------------------------------- */

struct kc {
	int key1, key2, cpu;
};

static int kc_cmp(const void *a, const void *b)
{
	const struct kc *x = a, *y = b;

	if (x->key1 != y->key1)
		return x->key1 < y->key1 ? -1 : 1;
	if (x->key2 != y->key2)
		return x->key2 < y->key2 ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/*
 * Group the online CPUs by (key1, key2), then number the groups by
 * (order1 of the group, lowest CPU).  Stores the group of each CPU in
 * @out (-1 for offline CPUs) and returns the number of groups.
 */
static int group_cpus(const struct cplan_topo *t, int *out, bool by_core)
{
	struct kc *v = calloc(t->nr_cpus + 1, sizeof(*v));
	struct kc *g = calloc(t->nr_cpus + 1, sizeof(*g));
	int *grp = calloc(t->nr_cpus + 1, sizeof(*grp));
	int *rank = calloc(t->nr_cpus + 1, sizeof(*rank));
	int n = 0, ng = 0, i, c;

	assert_non_null(v);
	assert_non_null(g);
	assert_non_null(grp);
	assert_non_null(rank);
	for (c = 0; c < t->nr_cpus; c++) {
		const struct cplan_cpu *cpu = &t->cpu[c];

		out[c] = -1;
		if (!cpu->online)
			continue;
		if (by_core) {
			v[n].key1 = cpu->core;
			v[n].key2 = 0;
		} else {
			v[n].key1 = cpu->node;
			v[n].key2 = cpu->llc;	/* CPLAN_NONE: one per node */
		}
		v[n].cpu = c;
		n++;
	}
	qsort(v, n, sizeof(*v), kc_cmp);
	for (i = 0; i < n; i++) {
		if (i == 0 || v[i].key1 != v[i - 1].key1 ||
		    v[i].key2 != v[i - 1].key2) {
			/* a new group; v[i].cpu is its lowest CPU */
			g[ng].key1 = by_core ? 0 : v[i].key1;
			g[ng].key2 = v[i].cpu;
			g[ng].cpu = ng;
			ng++;
		}
		grp[i] = ng - 1;
	}
	/* order the groups by (node for domains, lowest CPU) */
	qsort(g, ng, sizeof(*g), kc_cmp);
	for (i = 0; i < ng; i++)
		rank[g[i].cpu] = i;
	for (i = 0; i < n; i++)
		out[v[i].cpu] = rank[grp[i]];
	free(v);
	free(g);
	free(grp);
	free(rank);
	return ng;
}

void tinfo_init(struct tinfo *ti, const struct cplan_topo *t)
{
	bool *has = calloc(t->nr_nodes + 1, sizeof(*has));
	int c, n;

	memset(ti, 0, sizeof(*ti));
	ti->nr_cpus = t->nr_cpus;
	ti->nr_nodes = t->nr_nodes;
	ti->ord = calloc(t->nr_cpus + 1, sizeof(int));
	ti->dom = calloc(t->nr_cpus + 1, sizeof(int));
	assert_non_null(has);
	assert_non_null(ti->ord);
	assert_non_null(ti->dom);
	ti->nr_cores = group_cpus(t, ti->ord, true);
	ti->nr_doms = group_cpus(t, ti->dom, false);
	ti->core_threads = calloc(ti->nr_cores + 1, sizeof(int));
	ti->dom_node = calloc(ti->nr_doms + 1, sizeof(int));
	assert_non_null(ti->core_threads);
	assert_non_null(ti->dom_node);
	for (c = 0; c < t->nr_cpus; c++) {
		if (!t->cpu[c].online)
			continue;
		ti->nr_online++;
		ti->core_threads[ti->ord[c]]++;
		ti->dom_node[ti->dom[c]] = t->cpu[c].node;
		has[t->cpu[c].node] = true;
	}
	for (n = 0; n < t->nr_nodes; n++)
		ti->nr_cpu_nodes += has[n];
	free(has);
}

void tinfo_free(struct tinfo *ti)
{
	free(ti->ord);
	free(ti->dom);
	free(ti->core_threads);
	free(ti->dom_node);
	memset(ti, 0, sizeof(*ti));
}

int expected_default_count(const struct cplan_topo *t)
{
	struct tinfo ti;
	int p;

	tinfo_init(&ti, t);
	if (ti.nr_online <= 4) {
		p = 1;
	} else {
		p = (ti.nr_cores + 1) / 2;
		if (p < 2)
			p = 2;
		if (p < ti.nr_cpu_nodes)
			p = ti.nr_cpu_nodes;
		if (p > ti.nr_cores)
			p = ti.nr_cores;
		if (p > CPLAN_DEFAULT_MAX)
			p = CPLAN_DEFAULT_MAX;
	}
	tinfo_free(&ti);
	return p;
}

/* ---- rendering ---------------------------------------------------------- */

char *render_table(const struct cplan_table *tb)
{
	struct sbuf sb = { 0 };
	int p, i;

	sb_printf(&sb, "%s", "");
	for (p = 0; p < tb->nr_parts; p++) {
		sb_printf(&sb, "%d\t:", p);
		for (i = tb->part_first[p]; i < tb->part_first[p + 1]; i++)
			sb_printf(&sb, " %d", tb->part_cpu[i]);
		sb_printf(&sb, "\n");
	}
	return sb.s;
}

char *render_distance(const struct cplan_table *tb)
{
	struct sbuf sb = { 0 };
	int p, q;

	sb_printf(&sb, "%s", "");
	for (p = 0; p < tb->nr_parts; p++) {
		sb_printf(&sb, "%d\t:", p);
		for (q = 0; q < tb->nr_parts; q++)
			sb_printf(&sb, " %d:%d", q,
				  cplan_table_distance(tb, p, q));
		sb_printf(&sb, "\n");
	}
	return sb.s;
}

/* ---- invariants --------------------------------------------------------- */

bool part_has_node(const struct cplan_table *tb, int p, int n)
{
	int i;

	for (i = tb->part_node_first[p]; i < tb->part_node_first[p + 1]; i++)
		if (tb->part_node[i] == n)
			return true;
	return false;
}

void check_structure(const struct cplan_topo *t, const struct cplan_table *tb)
{
	int P = tb->nr_parts, N = t->nr_nodes;
	bool *seen_core, *seen_node, *pn;
	struct tinfo ti;
	int placed = 0, cores = 0, nodes = 0;
	int c, p, q, i, n, m;

	tinfo_init(&ti, t);
	CHECK(P >= 1, "nr_parts %d", P);
	CHECK(tb->nr_cpus == t->nr_cpus, "nr_cpus %d, topology has %d",
	      tb->nr_cpus, t->nr_cpus);
	CHECK(tb->nr_nodes == t->nr_nodes, "nr_nodes %d, topology has %d",
	      tb->nr_nodes, t->nr_nodes);
	CHECK(tb->part_first[0] == 0, "part_first[0] = %d", tb->part_first[0]);
	for (p = 0; p < P; p++) {
		CHECK(tb->part_first[p + 1] > tb->part_first[p],
		      "partition %d is empty (part_first %d..%d)", p,
		      tb->part_first[p], tb->part_first[p + 1]);
		for (i = tb->part_first[p]; i < tb->part_first[p + 1]; i++) {
			c = tb->part_cpu[i];
			CHECK(c >= 0 && c < t->nr_cpus,
			      "partition %d holds CPU %d", p, c);
			CHECK(t->cpu[c].online,
			      "partition %d holds offline CPU %d", p, c);
			CHECK(tb->cpu_part[c] == p,
			      "CPU %d listed in partition %d, cpu_part says %d",
			      c, p, tb->cpu_part[c]);
			if (i > tb->part_first[p])
				CHECK(tb->part_cpu[i - 1] < c,
				      "partition %d not ascending: %d then %d",
				      p, tb->part_cpu[i - 1], c);
		}
	}
	CHECK(tb->part_first[P] == tb->nr_placed_cpus,
	      "part_first[%d] = %d, nr_placed_cpus = %d", P, tb->part_first[P],
	      tb->nr_placed_cpus);

	seen_core = calloc(ti.nr_cores + 1, sizeof(bool));
	seen_node = calloc(N + 1, sizeof(bool));
	pn = calloc((size_t)P * N + 1, sizeof(bool));
	assert_non_null(seen_core);
	assert_non_null(seen_node);
	assert_non_null(pn);
	for (c = 0; c < t->nr_cpus; c++) {
		p = tb->cpu_part[c];
		if (!t->cpu[c].online) {
			CHECK(p == CPLAN_NONE, "offline CPU %d in partition %d",
			      c, p);
			continue;
		}
		if (p == CPLAN_NONE)
			continue;
		CHECK(p >= 0 && p < P, "cpu_part[%d] = %d", c, p);
		placed++;
		n = t->cpu[c].node;
		if (!seen_core[ti.ord[c]]) {
			seen_core[ti.ord[c]] = true;
			cores++;
		}
		if (!seen_node[n]) {
			seen_node[n] = true;
			nodes++;
		}
		pn[(size_t)p * N + n] = true;
	}
	CHECK(placed == tb->nr_placed_cpus,
	      "%d CPUs have a partition, nr_placed_cpus = %d", placed,
	      tb->nr_placed_cpus);
	CHECK(cores == tb->nr_placed_cores, "nr_placed_cores %d, expected %d",
	      tb->nr_placed_cores, cores);
	CHECK(nodes == tb->nr_placed_nodes, "nr_placed_nodes %d, expected %d",
	      tb->nr_placed_nodes, nodes);

	/* part_node: the nodes of the partition's CPUs, ascending */
	CHECK(tb->part_node_first[0] == 0, "part_node_first[0] = %d",
	      tb->part_node_first[0]);
	for (p = 0; p < P; p++) {
		int j = tb->part_node_first[p];

		for (n = 0; n < N; n++) {
			if (!pn[(size_t)p * N + n])
				continue;
			CHECK(j < tb->part_node_first[p + 1] &&
			      tb->part_node[j] == n,
			      "partition %d: node %d missing from part_node "
			      "(or nodes out of order)", p, n);
			j++;
		}
		CHECK(j == tb->part_node_first[p + 1],
		      "partition %d: part_node lists %d nodes, its CPUs are "
		      "on %d", p, tb->part_node_first[p + 1] -
		      tb->part_node_first[p], j - tb->part_node_first[p]);
	}
	for (n = 0; n < N; n++) {
		int lowest = CPLAN_NONE;

		for (p = 0; p < P && lowest == CPLAN_NONE; p++)
			if (pn[(size_t)p * N + n])
				lowest = p;
		CHECK(tb->node_part[n] == lowest, "node_part[%d] = %d, expected %d",
		      n, tb->node_part[n], lowest);
		for (m = 0; m < N; m++)
			CHECK(tb->node_distance[n * N + m] ==
			      t->distance[n * N + m],
			      "node_distance[%d][%d] = %d, topology says %d",
			      n, m, tb->node_distance[n * N + m],
			      t->distance[n * N + m]);
	}

	/* distance: the largest node distance over the two node sets */
	{
		int *ls = calloc((size_t)P + 1, sizeof(int));
		int *ln = calloc((size_t)P * N + 1, sizeof(int));
		int a, b;

		assert_non_null(ls);
		assert_non_null(ln);
		for (p = 0; p < P; p++)
			for (n = 0; n < N; n++)
				if (pn[(size_t)p * N + n])
					ln[(size_t)p * N + ls[p]++] = n;
		for (p = 0; p < P; p++) {
			for (q = 0; q < P; q++) {
				int d = -1;

				/* thousands of partitions: a sample */
				if (P > 2048 && q != 0 && q != p &&
				    q != P - 1 && q != P - 1 - p)
					continue;

				for (a = 0; a < ls[p]; a++)
					for (b = 0; b < ls[q]; b++) {
						n = ln[(size_t)p * N + a];
						m = ln[(size_t)q * N + b];
						if (t->distance[n * N + m] > d)
							d = t->distance[n * N + m];
					}
				i = cplan_table_distance(tb, p, q);
				CHECK(i == d, "cplan_table_distance(%d, %d) = %d, "
				      "largest node distance is %d", p, q, i, d);
			}
		}
		free(ls);
		free(ln);
	}
	free(seen_core);
	free(seen_node);
	free(pn);
	tinfo_free(&ti);
}

/*
 * @items (count @k, in order) were dealt out to partitions @part[]: check
 * that they form contiguous runs in ascending partition order whose sizes
 * differ by at most one, larger runs first.
 */
static void check_runs(const int *part, int k, const char *what, int unit)
{
	int i = 0, prev = -1, min = 1 << 30, max = 0;

	while (i < k) {
		int j = i, size;

		while (j < k && part[j] == part[i])
			j++;
		size = j - i;
		if (i > 0)
			CHECK(part[i] == part[i - 1] + 1,
			      "%s %d: runs not contiguous or not in order "
			      "(partition %d then %d)", what, unit,
			      part[i - 1], part[i]);
		CHECK(prev < 0 || size <= prev,
		      "%s %d: run of %d after a run of %d (larger runs first)",
		      what, unit, size, prev);
		if (size < min)
			min = size;
		if (size > max)
			max = size;
		prev = size;
		i = j;
	}
	CHECK(k == 0 || max - min <= 1,
	      "%s %d: run sizes %d..%d differ by more than one", what, unit,
	      min, max);
}

/* Index of the test model: CPUs per core, cores per domain. */
struct tindex {
	int *core_start, *core_cpu;	/* CPUs of core o, ascending */
	int *core_dom;
	int *dom_start, *dom_core;	/* cores of domain d, in core order */
};

static void tindex_init(struct tindex *x, const struct cplan_topo *t,
			const struct tinfo *ti)
{
	int *fill = calloc(ti->nr_cores + ti->nr_doms + 2, sizeof(int));
	int c, o, d;

	x->core_start = calloc(ti->nr_cores + 2, sizeof(int));
	x->core_cpu = calloc(ti->nr_online + 1, sizeof(int));
	x->core_dom = calloc(ti->nr_cores + 1, sizeof(int));
	x->dom_start = calloc(ti->nr_doms + 2, sizeof(int));
	x->dom_core = calloc(ti->nr_cores + 1, sizeof(int));
	assert_non_null(fill);
	assert_non_null(x->core_start);
	assert_non_null(x->core_cpu);
	assert_non_null(x->core_dom);
	assert_non_null(x->dom_start);
	assert_non_null(x->dom_core);
	for (c = 0; c < t->nr_cpus; c++)
		if (t->cpu[c].online) {
			x->core_start[ti->ord[c] + 1]++;
			x->core_dom[ti->ord[c]] = ti->dom[c];
		}
	for (o = 0; o < ti->nr_cores; o++) {
		x->core_start[o + 1] += x->core_start[o];
		x->dom_start[x->core_dom[o] + 1]++;
	}
	for (d = 0; d < ti->nr_doms; d++)
		x->dom_start[d + 1] += x->dom_start[d];
	for (c = 0; c < t->nr_cpus; c++)
		if (t->cpu[c].online) {
			o = ti->ord[c];
			x->core_cpu[x->core_start[o] + fill[o]++] = c;
		}
	for (o = 0; o < ti->nr_cores; o++) {
		d = x->core_dom[o];
		x->dom_core[x->dom_start[d] + fill[ti->nr_cores + d]++] = o;
	}
	free(fill);
}

static void tindex_free(struct tindex *x)
{
	free(x->core_start);
	free(x->core_cpu);
	free(x->core_dom);
	free(x->dom_start);
	free(x->dom_core);
}

/* Partition of core @o when all its threads are together, else -2. */
static int core_part(const struct cplan_table *tb, const struct tindex *x,
		     int o)
{
	int i, p = tb->cpu_part[x->core_cpu[x->core_start[o]]];

	for (i = x->core_start[o]; i < x->core_start[o + 1]; i++)
		if (tb->cpu_part[x->core_cpu[i]] != p)
			return -2;
	return p;
}

void check_default_layout(const struct cplan_topo *t,
			  const struct cplan_table *tb, int P)
{
	struct tinfo ti;
	struct tindex x;
	int *pnode, *plow, *pdom, *items, *dp0, *dp1;
	int c, p, n, d, o, i, k;

	check_structure(t, tb);
	tinfo_init(&ti, t);
	tindex_init(&x, t, &ti);
	CHECK(tb->nr_parts == P, "%d partitions, expected %d", tb->nr_parts,
	      P);
	for (c = 0; c < t->nr_cpus; c++)
		if (t->cpu[c].online)
			CHECK(tb->cpu_part[c] != CPLAN_NONE,
			      "online CPU %d in no partition", c);
	CHECK(tb->nr_placed_cpus == ti.nr_online,
	      "%d CPUs placed, %d online", tb->nr_placed_cpus, ti.nr_online);
	CHECK(!(tb->warnings & CPLAN_WARN_NPART_IGNORED),
	      "NPART_IGNORED set without a pattern (warnings %#x)",
	      tb->warnings);
	if (P > ti.nr_cores)
		CHECK(tb->warnings & CPLAN_WARN_SPLIT_CORES,
		      "P %d > %d cores but no SPLIT_CORES", P, ti.nr_cores);
	else
		CHECK(!(tb->warnings & CPLAN_WARN_SPLIT_CORES),
		      "P %d <= %d cores but SPLIT_CORES set", P, ti.nr_cores);

	/* siblings together when P <= cores */
	if (P <= ti.nr_cores)
		for (o = 0; o < ti.nr_cores; o++)
			CHECK(core_part(tb, &x, o) >= 0,
			      "P %d <= %d cores: threads of core ordinal %d "
			      "(CPU %d) split", P, ti.nr_cores, o,
			      x.core_cpu[x.core_start[o]]);

	pnode = malloc(sizeof(int) * (P + 1));
	plow = malloc(sizeof(int) * (P + 1));
	pdom = malloc(sizeof(int) * (P + 1));
	items = malloc(sizeof(int) * (t->nr_cpus + 1));
	dp0 = malloc(sizeof(int) * (ti.nr_doms + 1));
	dp1 = malloc(sizeof(int) * (ti.nr_doms + 1));
	assert_non_null(pnode);
	assert_non_null(plow);
	assert_non_null(pdom);
	assert_non_null(items);
	assert_non_null(dp0);
	assert_non_null(dp1);
	for (p = 0; p < P; p++) {
		pnode[p] = -1;
		pdom[p] = -1;
		plow[p] = 1 << 30;
	}
	for (d = 0; d < ti.nr_doms; d++) {
		dp0[d] = 1 << 30;
		dp1[d] = -1;
	}
	for (c = 0; c < t->nr_cpus; c++) {
		if (!t->cpu[c].online)
			continue;
		p = tb->cpu_part[c];
		n = t->cpu[c].node;
		d = ti.dom[c];
		pnode[p] = pnode[p] == -1 || pnode[p] == n ? n : -2;
		pdom[p] = pdom[p] == -1 || pdom[p] == d ? d : -2;
		if (n < plow[p])
			plow[p] = n;
		if (p < dp0[d])
			dp0[d] = p;
		if (p > dp1[d])
			dp1[d] = p;
	}

	if (P < ti.nr_cpu_nodes) {
		/* whole nodes grouped, groups numbered by lowest node */
		int *np = malloc(sizeof(int) * (t->nr_nodes + 1));

		assert_non_null(np);
		for (n = 0; n < t->nr_nodes; n++)
			np[n] = -1;
		for (c = 0; c < t->nr_cpus; c++) {
			if (!t->cpu[c].online)
				continue;
			n = t->cpu[c].node;
			CHECK(np[n] == -1 || np[n] == tb->cpu_part[c],
			      "P %d < nodes: node %d split over partitions "
			      "%d and %d", P, n, np[n], tb->cpu_part[c]);
			np[n] = tb->cpu_part[c];
		}
		for (p = 1; p < P; p++)
			CHECK(plow[p] > plow[p - 1],
			      "node groups not numbered by lowest node: "
			      "partition %d starts at node %d, %d at %d",
			      p - 1, plow[p - 1], p, plow[p]);
		free(np);
		goto out;
	}

	/* P >= CPU-bearing nodes: no spanning, numbered by node */
	for (p = 0; p < P; p++) {
		CHECK(pnode[p] >= 0, "partition %d spans nodes (P %d >= %d "
		      "nodes)", p, P, ti.nr_cpu_nodes);
		if (p > 0)
			CHECK(pnode[p] >= pnode[p - 1],
			      "partition %d on node %d after partition %d on "
			      "node %d", p, pnode[p], p - 1, pnode[p - 1]);
	}

	for (n = 0; n < t->nr_nodes; n++) {
		int q = 0, nd = 0, lastp = -1;

		for (p = 0; p < P; p++)
			q += pnode[p] == n;
		for (d = 0; d < ti.nr_doms; d++)
			nd += ti.dom_node[d] == n;
		if (!nd) {
			CHECK(q == 0, "node %d without CPUs has %d partitions",
			      n, q);
			continue;
		}
		CHECK(q >= 1, "node %d got no partition", n);
		if (q < nd) {
			/* runs of whole L3 domains */
			k = 0;
			for (d = 0; d < ti.nr_doms; d++) {
				if (ti.dom_node[d] != n)
					continue;
				CHECK(dp0[d] == dp1[d], "node %d: %d partitions "
				      "< %d L3 domains, yet domain %d split "
				      "over partitions %d..%d", n, q, nd, d,
				      dp0[d], dp1[d]);
				items[k++] = dp0[d];
			}
			check_runs(items, k, "L3 domains of node", n);
			continue;
		}
		/* q >= domains: partitions inside one domain each */
		for (d = 0; d < ti.nr_doms; d++) {
			int r, m = x.dom_start[d + 1] - x.dom_start[d];

			if (ti.dom_node[d] != n)
				continue;
			for (p = dp0[d]; p <= dp1[d]; p++)
				CHECK(pdom[p] == d, "partition %d: L3 domain "
				      "%d, expected domain %d alone", p,
				      pdom[p], d);
			CHECK(dp0[d] == lastp + 1 || lastp < 0,
			      "node %d: L3 domain %d starts at partition %d "
			      "after partition %d", n, d, dp0[d], lastp);
			lastp = dp1[d];
			r = dp1[d] - dp0[d] + 1;
			if (r <= m) {
				/* runs of whole cores */
				k = 0;
				for (i = x.dom_start[d]; i < x.dom_start[d + 1];
				     i++) {
					o = x.dom_core[i];
					CHECK(core_part(tb, &x, o) >= 0,
					      "L3 domain %d: %d partitions <= "
					      "%d cores, yet core ordinal %d "
					      "split", d, r, m, o);
					items[k++] = core_part(tb, &x, o);
				}
				check_runs(items, k, "cores of L3 domain", d);
				continue;
			}
			/* r > m: each core split into runs of threads */
			{
				int prevp = dp0[d] - 1;

				for (i = x.dom_start[d]; i < x.dom_start[d + 1];
				     i++) {
					int j, kk = 0;

					o = x.dom_core[i];
					for (j = x.core_start[o];
					     j < x.core_start[o + 1]; j++)
						items[kk++] =
						    tb->cpu_part[x.core_cpu[j]];
					CHECK(items[0] == prevp + 1,
					      "core ordinal %d starts at "
					      "partition %d after %d", o,
					      items[0], prevp);
					check_runs(items, kk, "threads of core",
						   o);
					prevp = items[kk - 1];
				}
				CHECK(prevp == dp1[d], "L3 domain %d ends at "
				      "partition %d, expected %d", d, prevp,
				      dp1[d]);
			}
		}
	}
out:
	free(pnode);
	free(plow);
	free(pdom);
	free(items);
	free(dp0);
	free(dp1);
	tindex_free(&x);
	tinfo_free(&ti);
}

struct cplan_table *plan_ok(const struct cplan_topo *t, int np,
			  const char *pattern)
{
	struct cplan_table *tb = NULL;
	struct cplan_err err;
	int rc;

	memset(&err, 0, sizeof(err));
	rc = cplan_make(t, np, pattern, &tb, &err);
	CHECK(rc == 0, "cplan_make(np %d, \"%s\") = %d (%s)", np,
	      pattern ? pattern : "(null)", rc, err.msg);
	CHECK(tb != NULL, "cplan_make returned 0 but no table");
	check_structure(t, tb);
	return tb;
}

/* Show where two texts differ: a few lines around the first difference. */
static void diff_fail(const char *what, const char *got, const char *exp)
{
	size_t i = 0, ls = 0;
	char a[240], b[240];

	while (got[i] && got[i] == exp[i]) {
		if (got[i] == '\n')
			ls = i + 1;
		i++;
	}
	snprintf(a, sizeof(a), "%.200s", got + ls);
	snprintf(b, sizeof(b), "%.200s", exp + ls);
	CHECK(0, "%s differs at byte %zu:\n  got:      \"%s\"\n  expected: "
	      "\"%s\"", what, i, a, b);
}

void assert_parts(const struct cplan_table *tb, const char *expected)
{
	char *got = render_table(tb);

	if (strcmp(got, expected)) {
		char *g = strdup(got);

		free(got);
		diff_fail("partitions", g, expected);
		free(g);
		return;
	}
	free(got);
}

enum match { M_EXACT, M_PREFIX, M_SUBSTR };

/*
 * Whether @s (@len bytes) matches one of the '|'-separated @alts: exactly,
 * as a prefix followed by a character that cannot continue a token (so "4"
 * matches "4]" but not "48]"), or as a case-insensitive substring.
 */
static bool token_in(const char *alts, const char *s, size_t len,
		     enum match how)
{
	const char *a = alts;

	while (*a) {
		const char *e = strchr(a, '|');
		size_t al = e ? (size_t)(e - a) : strlen(a);
		size_t i, j;

		switch (how) {
		case M_EXACT:
			if (al == len && !memcmp(a, s, len))
				return true;
			break;
		case M_PREFIX:
			if (al <= len && !memcmp(a, s, al) &&
			    (al == len || !al ||
			     !isalnum((unsigned char)a[al - 1]) ||
			     !isalnum((unsigned char)s[al])))
				return true;
			break;
		case M_SUBSTR:
			for (i = 0; i + al <= len; i++) {
				for (j = 0; j < al; j++)
					if (tolower((unsigned char)s[i + j]) !=
					    tolower((unsigned char)a[j]))
						break;
				if (j == al)
					return true;
			}
			break;
		}
		if (!e)
			break;
		a = e + 1;
	}
	return false;
}

/* The quoted token of a cpu_pattern message, or NULL. */
const char *err_token(const struct cplan_err *err, size_t *len)
{
	char at[64];
	const char *p;
	size_t mlen = strnlen(err->msg, sizeof(err->msg));

	snprintf(at, sizeof(at), " at offset %d ('", err->offset);
	p = strstr(err->msg, at);
	if (!p || mlen < 2 || strcmp(err->msg + mlen - 2, "')"))
		return NULL;
	p += strlen(at);
	*len = (size_t)(err->msg + mlen - 2 - p);
	return p;
}

const char *esc(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	if (!s)
		s = "(null)";
	for (; *s && n + 5 < size; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '\n')
			n += snprintf(buf + n, size - n, "\\n");
		else if (ch == '\t')
			n += snprintf(buf + n, size - n, "\\t");
		else if (ch < 0x20 || ch >= 0x7f)
			n += snprintf(buf + n, size - n, "\\x%02x", ch);
		else
			buf[n++] = ch;
	}
	buf[n] = '\0';
	return buf;
}

void expect_error(const struct cplan_topo *t, const struct perr *e)
{
	struct cplan_table *tb = NULL;
	struct cplan_err err;
	char shown[80];
	size_t mlen;
	int rc;

	esc(e->pattern, shown, sizeof(shown));
	memset(&err, 0x5a, sizeof(err));
	rc = cplan_make(t, e->np, e->pattern, &tb, &err);
	CHECK(rc == e->err, "pattern \"%s\" np %d: returned %d, expected %d "
	      "(msg \"%.200s\")", shown, e->np, rc, e->err,
	      rc ? err.msg : "");
	CHECK(tb == NULL, "pattern \"%s\": failed but stored a table", shown);
	mlen = strnlen(err.msg, sizeof(err.msg));
	CHECK(mlen < sizeof(err.msg), "pattern \"%s\": msg not terminated",
	      shown);
	CHECK(mlen > 0, "pattern \"%s\": empty msg", shown);

	if (e->off_lo != OFF_ANY) {
		CHECK(err.offset >= e->off_lo && err.offset <= e->off_hi,
		      "pattern \"%s\": offset %d, expected %d..%d (msg "
		      "\"%s\")", shown, err.offset, e->off_lo, e->off_hi,
		      err.msg);
	}
	if (e->off_lo != OFF_ANY && e->off_lo >= 0) {
		/*
		 * cpu_pattern: <problem> at offset <o> ('<token>'), or, at
		 * the very end of the pattern where no token is left,
		 * cpu_pattern: <problem> at offset <len> (end of pattern)
		 */
		char at[64], atend[64];
		const char *p, *q;
		bool at_end = e->pattern &&
			      err.offset == (int)strlen(e->pattern);

		snprintf(at, sizeof(at), " at offset %d ('", err.offset);
		snprintf(atend, sizeof(atend), " at offset %d (end of pattern)",
			 err.offset);
		CHECK(!strncmp(err.msg, "cpu_pattern: ", 13),
		      "pattern \"%s\": msg \"%s\" lacks the cpu_pattern: "
		      "prefix", shown, err.msg);
		p = strstr(err.msg, at);
		if (!p && at_end) {
			p = strstr(err.msg, atend);
			CHECK(p != NULL && !strcmp(p, atend),
			      "pattern \"%s\": msg \"%s\" lacks \"%s\" or "
			      "\"%s\"", shown, err.msg, at, atend);
			q = NULL;
		} else {
			CHECK(p != NULL, "pattern \"%s\": msg \"%s\" lacks "
			      "\"%s\"", shown, err.msg, at);
			CHECK(mlen >= 2 && !strcmp(err.msg + mlen - 2, "')"),
			      "pattern \"%s\": msg \"%s\" does not end with "
			      "\"')\"", shown, err.msg);
			q = p + strlen(at);
		}
		/* the quoted text starts with the offending token (whether
		 * it holds only the token is test_error_token_exact's) */
		if (e->tokens && q)
			CHECK(token_in(e->tokens, q,
				       (size_t)(err.msg + mlen - 2 - q),
				       M_PREFIX),
			      "pattern \"%s\": token in \"%s\", expected one "
			      "of \"%s\"", shown, err.msg, e->tokens);
		if (e->problems)
			CHECK(token_in(e->problems, err.msg,
				       (size_t)(p - err.msg), M_SUBSTR),
			      "pattern \"%s\": msg \"%s\" does not name the "
			      "problem (one of \"%s\")", shown, err.msg,
			      e->problems);
	} else if (e->problems) {
		CHECK(token_in(e->problems, err.msg, mlen, M_SUBSTR),
		      "pattern \"%s\": msg \"%s\" does not name the problem "
		      "(one of \"%s\")", shown, err.msg, e->problems);
	}

	/* the same with a NULL err pointer */
	tb = NULL;
	rc = cplan_make(t, e->np, e->pattern, &tb, NULL);
	CHECK(rc == e->err, "pattern \"%s\" with NULL err: returned %d",
	      shown, rc);
	CHECK(tb == NULL, "pattern \"%s\" with NULL err: stored a table",
	      shown);
}
