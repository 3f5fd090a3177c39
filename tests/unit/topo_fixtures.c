// SPDX-License-Identifier: GPL-2.0
/*
 * Topology builders for the unit tests; see topo_fixtures.h.
 */
#include "topo_fixtures.h"

/* Opaque keys that decrease as the index grows (see the header). */
static int core_key(int total, int c)
{
	return 7 * (total - 1 - c) + 3;
}

static int llc_key(int total, int l)
{
	return 1000 + 5 * (total - 1 - l);
}

static void set_cpu(struct cplan_topo *t, int cpu, int core, int pkg, int node,
		    int llc)
{
	t->cpu[cpu].online = true;
	t->cpu[cpu].core = core;
	t->cpu[cpu].package = pkg;
	t->cpu[cpu].node = node;
	t->cpu[cpu].llc = llc;
	t->node_online[node] = true;
}

static void set_garbage(struct cplan_topo *t, int cpu)
{
	t->cpu[cpu].online = false;
	t->cpu[cpu].core = -7;
	t->cpu[cpu].package = 12345;
	t->cpu[cpu].node = 12345;
	t->cpu[cpu].llc = -99;
}

static void set_dist(struct cplan_topo *t, int a, int b, int d)
{
	t->distance[a * t->nr_nodes + b] = d;
	t->distance[b * t->nr_nodes + a] = d;
}

struct cplan_topo *fx_build(const struct fx_spec *s)
{
	int nodes = s->sockets * s->nodes_per_socket;
	int cores = nodes * s->cores_per_node;
	int nr = cores * s->threads;
	int llcs = s->cores_per_llc > 0 ? cores / s->cores_per_llc : nodes;
	struct cplan_topo *t = cplan_topo_alloc(nr, nodes);
	int c, th, a, b;

	if (!t)
		return NULL;
	for (c = 0; c < cores; c++) {
		int node = c / s->cores_per_node;
		int sock = node / s->nodes_per_socket;
		int llc;

		if (s->cores_per_llc < 0)
			llc = CPLAN_NONE;
		else if (s->cores_per_llc == 0)
			llc = llc_key(llcs, node);
		else
			llc = llc_key(llcs, c / s->cores_per_llc);
		for (th = 0; th < s->threads; th++) {
			int cpu = s->numbering == FX_THREAD_MAJOR ?
				  th * cores + c : c * s->threads + th;

			set_cpu(t, cpu, core_key(cores, c), sock, node, llc);
		}
	}
	for (a = 0; a < nodes; a++)
		for (b = 0; b < nodes; b++)
			if (a != b)
				t->distance[a * nodes + b] =
					a / s->nodes_per_socket ==
					b / s->nodes_per_socket ?
					s->dist_socket : s->dist_remote;
	return t;
}

struct cplan_topo *fx_xeon8160(void)
{
	struct fx_spec s = { 1, 1, 24, 2, FX_THREAD_MAJOR, 0, 10, 20 };

	return fx_build(&s);
}

struct cplan_topo *fx_xeon8160_qemu(void)
{
	struct fx_spec s = { 1, 1, 24, 2, FX_CORE_MAJOR, 0, 10, 20 };

	return fx_build(&s);
}

struct cplan_topo *fx_dual20(void)
{
	struct fx_spec s = { 2, 1, 20, 2, FX_THREAD_MAJOR, 0, 21, 21 };

	return fx_build(&s);
}

struct cplan_topo *fx_epyc_nps4(void)
{
	struct fx_spec s = { 2, 4, 16, 2, FX_THREAD_MAJOR, 4, 12, 32 };

	return fx_build(&s);
}

struct cplan_topo *fx_power9(void)
{
	struct fx_spec s = { 2, 1, 20, 4, FX_CORE_MAJOR, 2, 40, 40 };

	return fx_build(&s);
}

struct cplan_topo *fx_smt4_small(void)
{
	struct fx_spec s = { 1, 1, 4, 4, FX_CORE_MAJOR, 0, 10, 20 };

	return fx_build(&s);
}

struct cplan_topo *fx_arm80(void)
{
	struct fx_spec s = { 1, 1, 80, 1, FX_CORE_MAJOR, -1, 10, 20 };

	return fx_build(&s);
}

struct cplan_topo *fx_huge_qemu(void)
{
	struct fx_spec s = { 4, 4, 256, 2, FX_CORE_MAJOR, 32, 16, 32 };

	return fx_build(&s);
}

struct cplan_topo *fx_huge_intel(void)
{
	struct fx_spec s = { 4, 4, 256, 2, FX_THREAD_MAJOR, 32, 16, 32 };

	return fx_build(&s);
}

int fx_huge_distance(int a, int b)
{
	if (a == b)
		return 10;
	return a / 4 == b / 4 ? 16 : 32;
}

struct cplan_topo *fx_flat(int cores, int threads, enum fx_numbering numbering)
{
	struct fx_spec s = { 1, 1, cores, threads, numbering, 0, 10, 20 };

	return fx_build(&s);
}

struct cplan_topo *fx_hybrid(void)
{
	struct cplan_topo *t = cplan_topo_alloc(24, 1);
	int cpu;

	if (!t)
		return NULL;
	/* P-cores: core k = CPUs 2k, 2k+1; E-cores: one CPU each. */
	for (cpu = 0; cpu < 16; cpu++)
		set_cpu(t, cpu, core_key(16, cpu / 2), 0, 0, 77);
	for (cpu = 16; cpu < 24; cpu++)
		set_cpu(t, cpu, core_key(16, cpu - 8), 0, 0, 77);
	return t;
}

struct cplan_topo *fx_holes(void)
{
	struct cplan_topo *t = cplan_topo_alloc(20, 1);
	int cpu;

	if (!t)
		return NULL;
	for (cpu = 0; cpu < 16; cpu++)
		set_cpu(t, cpu, core_key(8, cpu / 2), 0, 0, 5);
	for (cpu = 16; cpu < 20; cpu++)
		set_garbage(t, cpu);
	set_garbage(t, 4);
	set_garbage(t, 5);
	set_garbage(t, 9);
	return t;
}

struct cplan_topo *fx_memonly(void)
{
	struct cplan_topo *t = cplan_topo_alloc(16, 4);
	int cpu;

	if (!t)
		return NULL;
	for (cpu = 0; cpu < 16; cpu++)
		set_cpu(t, cpu, core_key(8, cpu / 2), cpu / 8, cpu < 8 ? 0 : 2,
			CPLAN_NONE);
	t->node_online[1] = true;	/* memory only */
	t->node_online[3] = false;
	set_dist(t, 0, 1, 17);
	set_dist(t, 0, 2, 21);
	set_dist(t, 1, 2, 28);
	set_dist(t, 0, 3, 30);
	set_dist(t, 1, 3, 30);
	set_dist(t, 2, 3, 30);
	return t;
}

/* Single-thread cores, @sizes[n] of them on node n, CPUs in node order. */
static struct cplan_topo *nodes_of(int nr_nodes, const int *sizes, int llc)
{
	struct cplan_topo *t;
	int n, i, cpu = 0, total = 0;

	for (n = 0; n < nr_nodes; n++)
		total += sizes[n];
	t = cplan_topo_alloc(total, nr_nodes);
	if (!t)
		return NULL;
	for (n = 0; n < nr_nodes; n++)
		for (i = 0; i < sizes[n]; i++, cpu++)
			set_cpu(t, cpu, core_key(total, cpu), n, n,
				llc == CPLAN_NONE ? CPLAN_NONE : llc_key(nr_nodes, n));
	return t;
}

struct cplan_topo *fx_uneven(void)
{
	static const int sizes[] = { 10, 3, 7 };

	return nodes_of(3, sizes, CPLAN_NONE);
}

struct cplan_topo *fx_uneven2(void)
{
	static const int sizes[] = { 1, 1, 9, 9 };

	return nodes_of(4, sizes, 0);
}

struct cplan_topo *fx_quad(void)
{
	static const int sizes[] = { 4, 4, 2, 2 };
	struct cplan_topo *t = nodes_of(4, sizes, 0);

	if (!t)
		return NULL;
	set_dist(t, 0, 1, 12);
	set_dist(t, 2, 3, 12);
	return t;
}

struct cplan_topo *fx_chain(void)
{
	static const int sizes[] = { 2, 2, 2, 2 };
	struct cplan_topo *t = nodes_of(4, sizes, 0);

	if (!t)
		return NULL;
	set_dist(t, 0, 1, 11);
	set_dist(t, 0, 2, 30);
	set_dist(t, 0, 3, 40);
	set_dist(t, 1, 2, 12);
	set_dist(t, 1, 3, 14);
	set_dist(t, 2, 3, 13);
	return t;
}

struct cplan_topo *fx_cross(void)
{
	static const int sizes[] = { 2, 2, 2, 2 };
	struct cplan_topo *t = nodes_of(4, sizes, 0);

	if (!t)
		return NULL;
	set_dist(t, 0, 2, 12);
	set_dist(t, 1, 3, 12);
	return t;
}

struct cplan_topo *fx_lopsided(void)
{
	struct cplan_topo *t = cplan_topo_alloc(5, 2);
	int cpu;

	if (!t)
		return NULL;
	set_cpu(t, 0, 40, 0, 0, 3);
	for (cpu = 1; cpu < 5; cpu++)
		set_cpu(t, cpu, 20, 1, 1, 2);
	return t;
}

static struct cplan_topo *fx_flat_11x2(void)
{
	return fx_flat(11, 2, FX_THREAD_MAJOR);
}

static struct cplan_topo *fx_flat_13x1(void)
{
	return fx_flat(13, 1, FX_CORE_MAJOR);
}

static struct cplan_topo *fx_flat_1x8(void)
{
	return fx_flat(1, 8, FX_CORE_MAJOR);
}

static struct cplan_topo *fx_flat_2x2(void)
{
	return fx_flat(2, 2, FX_CORE_MAJOR);
}

const struct fx_entry fx_all[] = {
	{ "xeon8160", fx_xeon8160, false },
	{ "xeon8160_qemu", fx_xeon8160_qemu, false },
	{ "dual20", fx_dual20, false },
	{ "epyc_nps4", fx_epyc_nps4, false },
	{ "power9", fx_power9, false },
	{ "smt4_small", fx_smt4_small, false },
	{ "hybrid", fx_hybrid, false },
	{ "arm80", fx_arm80, false },
	{ "holes", fx_holes, false },
	{ "memonly", fx_memonly, false },
	{ "uneven", fx_uneven, false },
	{ "uneven2", fx_uneven2, false },
	{ "quad", fx_quad, false },
	{ "chain", fx_chain, false },
	{ "cross", fx_cross, false },
	{ "lopsided", fx_lopsided, false },
	{ "flat_11x2", fx_flat_11x2, false },
	{ "flat_13x1", fx_flat_13x1, false },
	{ "flat_1x8", fx_flat_1x8, false },
	{ "flat_2x2", fx_flat_2x2, false },
	{ "huge_qemu", fx_huge_qemu, true },
	{ "huge_intel", fx_huge_intel, true },
};
const int fx_all_count = sizeof(fx_all) / sizeof(fx_all[0]);
