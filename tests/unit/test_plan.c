// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the planner (default layout, npartitions) against
 * doc/planner.md.  Every expected table below was worked out by hand from
 * the contract; the comments give the reasoning.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit_helpers.h"
#include "topo_fixtures.h"

/* Plan @np on @t, check the default-layout invariants with @P partitions and
 * the exact partitions @expected (NULL: skip); returns the table. */
static struct cplan_table *layout(const struct cplan_topo *t, int np, int P,
				const char *expected)
{
	struct cplan_table *tb = plan_ok(t, np, NULL);

	oracle_check_layout(t, tb, P);
	if (expected)
		assert_parts(tb, expected);
	return tb;
}

static void layout_free(struct cplan_topo *(*build)(void), int np, int P,
			const char *expected)
{
	struct cplan_topo *t = build();

	assert_non_null(t);
	cplan_table_free(layout(t, np, P, expected));
	cplan_topo_free(t);
}

static void sb_range(struct sbuf *sb, int a, int b)
{
	sb_cores(sb, a, b, 0);
}

/* ---- the default count --------------------------------------------------- */

static void count_is(struct cplan_topo *t, int expected, const char *what)
{
	struct cplan_table *tb;

	assert_non_null(t);
	ctx("count rule: %s", what);
	/* the test's own reading of the rule must agree with the literal */
	CHECK(oracle_default_count(t) == expected, "test formula %d vs %d",
	      oracle_default_count(t), expected);
	tb = plan_ok(t, 0, NULL);
	CHECK(tb->nr_parts == expected, "%s: %d partitions, expected %d",
	      what, tb->nr_parts, expected);
	oracle_check_layout(t, tb, expected);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

static void test_count_rule(void **state)
{
	struct fx_spec three = { 3, 1, 1, 2, FX_CORE_MAJOR, 0, 20, 20 };
	struct fx_spec eight = { 8, 1, 1, 1, FX_CORE_MAJOR, 0, 20, 20 };

	(void)state;
	/* <= 4 CPUs: 1 */
	count_is(fx_flat(2, 2, FX_CORE_MAJOR), 1, "4 CPUs");
	count_is(fx_flat(1, 1, FX_CORE_MAJOR), 1, "1 CPU");
	count_is(fx_flat(4, 1, FX_CORE_MAJOR), 1, "4 single-thread cores");
	/* 5 CPUs, 5 cores: max(2, 3, 1) = 3 */
	count_is(fx_flat(5, 1, FX_CORE_MAJOR), 3, "5 CPUs");
	/* 22 CPUs = 11 cores x 2: max(2, 6, 1) = 6 */
	count_is(fx_flat(11, 2, FX_THREAD_MAJOR), 6, "11 cores x 2");
	/* 13 single-thread cores: ceil(13/2) = 7 */
	count_is(fx_flat(13, 1, FX_CORE_MAJOR), 7, "13 cores");
	/* 8 CPUs in 1 SMT8 core: max(2, 1, 1) = 2, capped at 1 core */
	count_is(fx_flat(1, 8, FX_CORE_MAJOR), 1, "1 core x 8");
	/* 2 cores x 4 = 8 CPUs: max(2, 1, 1) = 2 */
	count_is(fx_flat(2, 4, FX_CORE_MAJOR), 2, "2 cores x 4");
	/* 600 cores: 300 capped at 256 */
	count_is(fx_flat(600, 1, FX_CORE_MAJOR), 256, "600 cores");
	/* 3 nodes x 1 core x 2: max(2, 2, 3) = 3 */
	count_is(fx_build(&three), 3, "3 nodes of 1 core x 2");
	/* 8 nodes x 1 core: max(2, 4, 8) = 8 */
	count_is(fx_build(&eight), 8, "8 nodes of 1 core");
	/* machines */
	count_is(fx_xeon8160(), 12, "xeon8160");
	count_is(fx_xeon8160_qemu(), 12, "xeon8160 qemu");
	count_is(fx_dual20(), 20, "dual20");		/* 40 cores */
	count_is(fx_epyc_nps4(), 64, "epyc");		/* 128 cores */
	count_is(fx_power9(), 20, "power9");		/* 40 cores */
	count_is(fx_smt4_small(), 2, "smt4 small");	/* 4 cores */
	count_is(fx_hybrid(), 8, "hybrid");		/* 16 cores */
	count_is(fx_arm80(), 40, "arm80");
	count_is(fx_holes(), 4, "holes");		/* 13 CPUs, 7 cores */
	count_is(fx_memonly(), 4, "memonly");		/* 8 cores */
	count_is(fx_uneven(), 10, "uneven");		/* 20 cores */
	count_is(fx_uneven2(), 10, "uneven2");		/* 20 cores */
	count_is(fx_quad(), 6, "quad");			/* 12 cores */
	count_is(fx_chain(), 4, "chain");		/* 8 cores, 4 nodes */
	count_is(fx_lopsided(), 2, "lopsided");		/* 5 CPUs, 2 cores */
	count_is(fx_huge_qemu(), 256, "huge qemu");	/* 4096 cores */
	count_is(fx_huge_intel(), 256, "huge intel");
}

/* ---- acceptance: the seed ------------------------------------------------ */

static const char xeon_default[] =
	"0\t: 0 1 24 25\n"
	"1\t: 2 3 26 27\n"
	"2\t: 4 5 28 29\n"
	"3\t: 6 7 30 31\n"
	"4\t: 8 9 32 33\n"
	"5\t: 10 11 34 35\n"
	"6\t: 12 13 36 37\n"
	"7\t: 14 15 38 39\n"
	"8\t: 16 17 40 41\n"
	"9\t: 18 19 42 43\n"
	"10\t: 20 21 44 45\n"
	"11\t: 22 23 46 47\n";

static const char xeon_np6[] =
	"0\t: 0 1 2 3 24 25 26 27\n"
	"1\t: 4 5 6 7 28 29 30 31\n"
	"2\t: 8 9 10 11 32 33 34 35\n"
	"3\t: 12 13 14 15 36 37 38 39\n"
	"4\t: 16 17 18 19 40 41 42 43\n"
	"5\t: 20 21 22 23 44 45 46 47\n";

static void expect_format(const struct cplan_table *tb, const char *expected)
{
	size_t n = strlen(expected), got;
	char *buf = malloc(n + 64);

	assert_non_null(buf);
	got = cplan_format_table(tb, buf, n + 64);
	CHECK(got == n, "cplan_format_table returned %zu, expected %zu", got, n);
	CHECK(!strcmp(buf, expected), "cplan_format_table wrote \"%.300s\"",
	      buf);
	free(buf);
}

static void test_xeon8160_default(void **state)
{
	struct cplan_topo *t = fx_xeon8160();
	struct cplan_table *tb;
	struct sbuf d = { 0 };
	char *dist;
	int p, q;

	(void)state;
	ctx("xeon8160 default");
	tb = layout(t, 0, 12, xeon_default);
	expect_format(tb, xeon_default);
	assert_int_equal(tb->warnings, 0);
	assert_int_equal(tb->nr_placed_cpus, 48);
	assert_int_equal(tb->nr_placed_cores, 24);
	assert_int_equal(tb->nr_placed_nodes, 1);
	assert_int_equal(tb->node_part[0], 0);
	/* one node: every distance is the local 10 */
	for (p = 0; p < 12; p++) {
		sb_printf(&d, "%d\t:", p);
		for (q = 0; q < 12; q++)
			sb_printf(&d, " %d:10", q);
		sb_printf(&d, "\n");
	}
	dist = render_distance(tb);
	assert_string_equal(dist, d.s);
	free(dist);
	sb_free(&d);
	cplan_table_free(tb);

	/* a NULL err pointer is fine on success too */
	tb = NULL;
	assert_int_equal(cplan_make(t, 0, NULL, &tb, NULL), 0);
	assert_non_null(tb);
	assert_parts(tb, xeon_default);
	cplan_table_free(tb);

	/* NULL, empty and blank patterns are the default layout */
	tb = plan_ok(t, 0, "");
	assert_parts(tb, xeon_default);
	cplan_table_free(tb);
	tb = plan_ok(t, 0, " \t\n ");
	assert_parts(tb, xeon_default);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

static void test_xeon8160_np6(void **state)
{
	struct cplan_topo *t = fx_xeon8160();
	struct cplan_table *tb;

	(void)state;
	ctx("xeon8160 npartitions=6");
	tb = layout(t, 6, 6, xeon_np6);
	expect_format(tb, xeon_np6);
	assert_int_equal(tb->warnings, 0);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

static void test_xeon8160_qemu(void **state)
{
	/* siblings 2k, 2k+1: partition i = cores 2i, 2i+1 = CPUs 4i..4i+3 */
	static const char expected[] =
		"0\t: 0 1 2 3\n1\t: 4 5 6 7\n2\t: 8 9 10 11\n"
		"3\t: 12 13 14 15\n4\t: 16 17 18 19\n5\t: 20 21 22 23\n"
		"6\t: 24 25 26 27\n7\t: 28 29 30 31\n8\t: 32 33 34 35\n"
		"9\t: 36 37 38 39\n10\t: 40 41 42 43\n11\t: 44 45 46 47\n";

	(void)state;
	ctx("xeon8160 qemu numbering");
	layout_free(fx_xeon8160_qemu, 0, 12, expected);
}

static void test_xeon8160_np1_np24(void **state)
{
	struct sbuf sb = { 0 };
	int i;

	(void)state;
	ctx("xeon8160 npartitions=1");
	sb_printf(&sb, "0\t:");
	sb_cores(&sb, 0, 23, 24);
	sb_printf(&sb, "\n");
	layout_free(fx_xeon8160, 1, 1, sb.s);
	sb_free(&sb);

	/* 24 = cores: one core each, no warning */
	ctx("xeon8160 npartitions=24");
	for (i = 0; i < 24; i++)
		sb_printf(&sb, "%d\t: %d %d\n", i, i, i + 24);
	layout_free(fx_xeon8160, 24, 24, sb.s);
	sb_free(&sb);
}

static void test_xeon8160_split(void **state)
{
	struct cplan_topo *t = fx_xeon8160();
	struct cplan_table *tb;
	struct sbuf sb = { 0 };
	int i;

	(void)state;
	/*
	 * 48 = online CPUs: r = 48 > 24 cores, shared by thread count
	 * (2 each): 2 per core; core k's threads k, k+24 dealt out ascending.
	 */
	ctx("xeon8160 npartitions=48");
	for (i = 0; i < 24; i++) {
		sb_printf(&sb, "%d\t: %d\n", 2 * i, i);
		sb_printf(&sb, "%d\t: %d\n", 2 * i + 1, i + 24);
	}
	tb = layout(t, 48, 48, sb.s);
	CHECK(tb->warnings & CPLAN_WARN_SPLIT_CORES, "warnings %#x",
	      tb->warnings);
	assert_int_equal(tb->cpu_part[0], 0);
	assert_int_equal(tb->cpu_part[24], 1);
	assert_int_equal(tb->cpu_part[47], 47);
	cplan_table_free(tb);
	sb_free(&sb);

	/*
	 * 30: floor(30 * 2 / 48) = 1 per core (sum 24), remainders all
	 * 60 - 48 = 12, ties to the lower index: cores 0-5 get 2.
	 */
	ctx("xeon8160 npartitions=30");
	for (i = 0; i < 6; i++) {
		sb_printf(&sb, "%d\t: %d\n", 2 * i, i);
		sb_printf(&sb, "%d\t: %d\n", 2 * i + 1, i + 24);
	}
	for (i = 6; i < 24; i++)
		sb_printf(&sb, "%d\t: %d %d\n", i + 6, i, i + 24);
	tb = layout(t, 30, 30, sb.s);
	CHECK(tb->warnings & CPLAN_WARN_SPLIT_CORES, "warnings %#x",
	      tb->warnings);
	cplan_table_free(tb);
	sb_free(&sb);
	cplan_topo_free(t);
}

static void test_npartitions_errors(void **state)
{
	static const int bad[] = { -1, -1000, INT_MIN, 49, 50, 1000, INT_MAX };
	struct cplan_topo *t = fx_xeon8160();
	struct cplan_topo *h = fx_holes();
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct perr e = { NULL, bad[i], -ERANGE, -1, -1, NULL, NULL };

		ctx("xeon8160 npartitions=%d", bad[i]);
		expect_error(t, &e);
		e.pattern = " ";
		expect_error(t, &e);
	}
	/* holes: 13 online CPUs of 20 possible */
	{
		struct perr e = { NULL, 14, -ERANGE, -1, -1, NULL, NULL };

		ctx("holes npartitions=14");
		expect_error(h, &e);
		e.np = 20;
		expect_error(h, &e);
	}
	cplan_topo_free(t);
	cplan_topo_free(h);
}

/* ---- multi-node machines ------------------------------------------------- */

static void test_dual20(void **state)
{
	struct cplan_topo *t = fx_dual20();
	struct cplan_table *tb;
	struct sbuf sb = { 0 }, d = { 0 };
	char *dist;
	int p, q, j;

	(void)state;
	/*
	 * 20 partitions, shared 10/10 by the nodes' 20 cores each; node 0
	 * holds cores 0-19 (CPUs 0-19, 40-59), node 1 cores 20-39.
	 */
	ctx("dual20 default");
	for (p = 0; p < 20; p++) {
		j = p < 10 ? 2 * p : 20 + 2 * (p - 10);
		sb_printf(&sb, "%d\t:", p);
		sb_cores(&sb, j, j + 1, 40);
		sb_printf(&sb, "\n");
		sb_printf(&d, "%d\t:", p);
		for (q = 0; q < 20; q++)
			sb_printf(&d, " %d:%d", q, p / 10 == q / 10 ? 10 : 21);
		sb_printf(&d, "\n");
	}
	tb = layout(t, 0, 20, sb.s);
	for (p = 0; p < 20; p++) {
		CHECK(part_has_node(tb, p, p / 10) &&
		      !part_has_node(tb, p, 1 - p / 10),
		      "partition %d nodes", p);
	}
	assert_int_equal(tb->node_part[0], 0);
	assert_int_equal(tb->node_part[1], 10);
	dist = render_distance(tb);
	assert_string_equal(dist, d.s);
	free(dist);
	cplan_table_free(tb);
	sb_free(&sb);
	sb_free(&d);

	/*
	 * 3: floor(3 * 20 / 40) = 1 each, remainders 20 each, the lower
	 * index gets the third: node 0 split in two runs of 10 cores.
	 */
	ctx("dual20 npartitions=3");
	sb_printf(&sb, "0\t:");
	sb_cores(&sb, 0, 9, 40);
	sb_printf(&sb, "\n1\t:");
	sb_cores(&sb, 10, 19, 40);
	sb_printf(&sb, "\n2\t:");
	sb_cores(&sb, 20, 39, 40);
	sb_printf(&sb, "\n");
	cplan_table_free(layout(t, 3, 3, sb.s));
	sb_free(&sb);

	/* 1 < 2 nodes: one group of both nodes */
	ctx("dual20 npartitions=1");
	sb_printf(&sb, "0\t:");
	sb_range(&sb, 0, 79);
	sb_printf(&sb, "\n");
	tb = layout(t, 1, 1, sb.s);
	assert_int_equal(cplan_table_distance(tb, 0, 0), 21);
	assert_int_equal(tb->node_part[1], 0);
	cplan_table_free(tb);
	sb_free(&sb);
	cplan_topo_free(t);
}

/* EPYC: core c = CPUs c, c+128; node = c/16; CCX = c/4. */
static void test_epyc(void **state)
{
	static const int np40[5][2] = {
		{ 0, 1 }, { 2, 3 }, { 4, 7 }, { 8, 11 }, { 12, 15 }
	};
	struct cplan_topo *t = fx_epyc_nps4();
	struct cplan_table *tb;
	struct sbuf sb = { 0 };
	char *dist;
	int p, n, j;

	(void)state;
	/* 64: 8 per node, 2 per CCX, CCX of 4 cores: 2 cores each */
	ctx("epyc default");
	for (p = 0; p < 64; p++) {
		sb_printf(&sb, "%d\t:", p);
		sb_cores(&sb, 2 * p, 2 * p + 1, 128);
		sb_printf(&sb, "\n");
	}
	cplan_table_free(layout(t, 0, 64, sb.s));
	sb_free(&sb);

	/*
	 * 24: 3 per node < 4 CCXs: runs of whole CCXs 2, 1, 1:
	 * cores 16n..16n+7, 16n+8..16n+11, 16n+12..16n+15.
	 */
	ctx("epyc npartitions=24");
	for (n = 0; n < 8; n++) {
		sb_printf(&sb, "%d\t:", 3 * n);
		sb_cores(&sb, 16 * n, 16 * n + 7, 128);
		sb_printf(&sb, "\n%d\t:", 3 * n + 1);
		sb_cores(&sb, 16 * n + 8, 16 * n + 11, 128);
		sb_printf(&sb, "\n%d\t:", 3 * n + 2);
		sb_cores(&sb, 16 * n + 12, 16 * n + 15, 128);
		sb_printf(&sb, "\n");
	}
	cplan_table_free(layout(t, 24, 24, sb.s));
	sb_free(&sb);

	/*
	 * 40: 5 per node >= 4 CCXs: floor(5 * 4 / 16) = 1 each, remainders
	 * 20 - 16 = 4 each, the first CCX gets 2 (runs of 2 cores).
	 */
	ctx("epyc npartitions=40");
	for (n = 0; n < 8; n++)
		for (j = 0; j < 5; j++) {
			sb_printf(&sb, "%d\t:", 5 * n + j);
			sb_cores(&sb, 16 * n + np40[j][0], 16 * n + np40[j][1],
				 128);
			sb_printf(&sb, "\n");
		}
	cplan_table_free(layout(t, 40, 40, sb.s));
	sb_free(&sb);

	/*
	 * 4 < 8 nodes: complete-linkage merging; all in-socket pairs are at
	 * 12: {0,1} (lowest ids), then {2,3} (combined 32 cores < 48), {4,5},
	 * {6,7}.  Partition p = cores 32p..32p+31.
	 */
	ctx("epyc npartitions=4");
	for (p = 0; p < 4; p++) {
		sb_printf(&sb, "%d\t:", p);
		sb_cores(&sb, 32 * p, 32 * p + 31, 128);
		sb_printf(&sb, "\n");
	}
	tb = layout(t, 4, 4, sb.s);
	dist = render_distance(tb);
	assert_string_equal(dist, "0\t: 0:12 1:12 2:32 3:32\n"
				  "1\t: 0:12 1:12 2:32 3:32\n"
				  "2\t: 0:32 1:32 2:12 3:12\n"
				  "3\t: 0:32 1:32 2:12 3:12\n");
	free(dist);
	assert_int_equal(tb->node_part[3], 1);
	assert_int_equal(tb->node_part[4], 2);
	cplan_table_free(tb);
	sb_free(&sb);

	/* 6: two merges, {0,1} then {2,3}; nodes 4-7 stay alone */
	ctx("epyc npartitions=6");
	sb_printf(&sb, "0\t:");
	sb_cores(&sb, 0, 31, 128);
	sb_printf(&sb, "\n1\t:");
	sb_cores(&sb, 32, 63, 128);
	sb_printf(&sb, "\n");
	for (j = 0; j < 4; j++) {
		sb_printf(&sb, "%d\t:", 2 + j);
		sb_cores(&sb, 64 + 16 * j, 64 + 16 * j + 15, 128);
		sb_printf(&sb, "\n");
	}
	cplan_table_free(layout(t, 6, 6, sb.s));
	sb_free(&sb);

	/* 2: one partition per socket */
	ctx("epyc npartitions=2");
	sb_printf(&sb, "0\t:");
	sb_cores(&sb, 0, 63, 128);
	sb_printf(&sb, "\n1\t:");
	sb_cores(&sb, 64, 127, 128);
	sb_printf(&sb, "\n");
	tb = layout(t, 2, 2, sb.s);
	dist = render_distance(tb);
	assert_string_equal(dist, "0\t: 0:12 1:32\n1\t: 0:32 1:12\n");
	free(dist);
	cplan_table_free(tb);
	sb_free(&sb);
	cplan_topo_free(t);
}

/* POWER9-like: CPU = 4 * core + thread; L3 per core pair; node per socket. */
static void test_power9(void **state)
{
	struct cplan_topo *t = fx_power9();
	struct cplan_table *tb;
	struct sbuf sb = { 0 };
	int p, n, j, b;

	(void)state;
	/* 20: 10 per node = 10 L3 pairs: one pair (8 CPUs) each */
	ctx("power9 default");
	for (p = 0; p < 20; p++) {
		sb_printf(&sb, "%d\t:", p);
		sb_range(&sb, 8 * p, 8 * p + 7);
		sb_printf(&sb, "\n");
	}
	cplan_table_free(layout(t, 0, 20, sb.s));
	sb_free(&sb);

	/*
	 * 50 > 40 cores: 25 per node.  Node: 10 L3 pairs, floor(25*2/20) = 2
	 * each, remainders 10 each: pairs 0-4 get 3.  Pair with 3 > 2 cores:
	 * by thread count floor(3*4/8) = 1 each, remainder 4 each: the first
	 * core gets 2 runs of threads {4k, 4k+1} {4k+2, 4k+3}, the second 1.
	 */
	ctx("power9 npartitions=50");
	p = 0;
	for (n = 0; n < 2; n++) {
		for (j = 0; j < 10; j++) {
			b = 80 * n + 8 * j;
			if (j < 5) {
				sb_printf(&sb, "%d\t: %d %d\n", p++, b, b + 1);
				sb_printf(&sb, "%d\t: %d %d\n", p++, b + 2,
					  b + 3);
			} else {
				sb_printf(&sb, "%d\t:", p++);
				sb_range(&sb, b, b + 3);
				sb_printf(&sb, "\n");
			}
			sb_printf(&sb, "%d\t:", p++);
			sb_range(&sb, b + 4, b + 7);
			sb_printf(&sb, "\n");
		}
	}
	assert_int_equal(p, 50);
	tb = layout(t, 50, 50, sb.s);
	CHECK(tb->warnings & CPLAN_WARN_SPLIT_CORES, "warnings %#x",
	      tb->warnings);
	cplan_table_free(tb);
	sb_free(&sb);
	cplan_topo_free(t);
}

static void test_smt4_split(void **state)
{
	(void)state;
	/* 4 cores x SMT4, CPUs 4k..4k+3 */
	ctx("smt4 default");
	layout_free(fx_smt4_small, 0, 2,
		    "0\t: 0 1 2 3 4 5 6 7\n1\t: 8 9 10 11 12 13 14 15\n");
	/* 6: floor(6*4/16) = 1 each, remainders 8: cores 0, 1 get 2 */
	ctx("smt4 npartitions=6");
	layout_free(fx_smt4_small, 6, 6,
		    "0\t: 0 1\n1\t: 2 3\n2\t: 4 5\n3\t: 6 7\n"
		    "4\t: 8 9 10 11\n5\t: 12 13 14 15\n");
	/* 7: remainders 12: cores 0-2 get 2 */
	ctx("smt4 npartitions=7");
	layout_free(fx_smt4_small, 7, 7,
		    "0\t: 0 1\n1\t: 2 3\n2\t: 4 5\n3\t: 6 7\n4\t: 8 9\n"
		    "5\t: 10 11\n6\t: 12 13 14 15\n");
	/* 9: floor(9*4/16) = 2 each, remainders 4: core 0 gets 3 (2, 1, 1) */
	ctx("smt4 npartitions=9");
	layout_free(fx_smt4_small, 9, 9,
		    "0\t: 0 1\n1\t: 2\n2\t: 3\n3\t: 4 5\n4\t: 6 7\n5\t: 8 9\n"
		    "6\t: 10 11\n7\t: 12 13\n8\t: 14 15\n");
	/* 16: every CPU alone */
	ctx("smt4 npartitions=16");
	layout_free(fx_smt4_small, 16, 16,
		    "0\t: 0\n1\t: 1\n2\t: 2\n3\t: 3\n4\t: 4\n5\t: 5\n6\t: 6\n"
		    "7\t: 7\n8\t: 8\n9\t: 9\n10\t: 10\n11\t: 11\n12\t: 12\n"
		    "13\t: 13\n14\t: 14\n15\t: 15\n");
}

static void test_hybrid(void **state)
{
	(void)state;
	/* 16 cores (8 P x 2, 8 E), 8 partitions of 2 cores */
	ctx("hybrid default");
	layout_free(fx_hybrid, 0, 8,
		    "0\t: 0 1 2 3\n1\t: 4 5 6 7\n2\t: 8 9 10 11\n"
		    "3\t: 12 13 14 15\n4\t: 16 17\n5\t: 18 19\n6\t: 20 21\n"
		    "7\t: 22 23\n");
	/* 12 of 16 cores: runs 2, 2, 2, 2, then 8 runs of 1 */
	ctx("hybrid npartitions=12");
	layout_free(fx_hybrid, 12, 12,
		    "0\t: 0 1 2 3\n1\t: 4 5 6 7\n2\t: 8 9 10 11\n"
		    "3\t: 12 13 14 15\n4\t: 16\n5\t: 17\n6\t: 18\n7\t: 19\n"
		    "8\t: 20\n9\t: 21\n10\t: 22\n11\t: 23\n");
	/*
	 * 20 > 16 cores: by thread count W = 24: P-cores floor(40/24) = 1,
	 * E-cores floor(20/24) = 0 -> 1; sum 16; remainders P 16, E at cap:
	 * P-cores 0-3 get 2 (one CPU each).
	 */
	ctx("hybrid npartitions=20");
	layout_free(fx_hybrid, 20, 20,
		    "0\t: 0\n1\t: 1\n2\t: 2\n3\t: 3\n4\t: 4\n5\t: 5\n6\t: 6\n"
		    "7\t: 7\n8\t: 8 9\n9\t: 10 11\n10\t: 12 13\n11\t: 14 15\n"
		    "12\t: 16\n13\t: 17\n14\t: 18\n15\t: 19\n16\t: 20\n"
		    "17\t: 21\n18\t: 22\n19\t: 23\n");
}

static void test_arm80(void **state)
{
	struct sbuf sb = { 0 };
	int p;

	(void)state;
	ctx("arm80 default");
	for (p = 0; p < 40; p++)
		sb_printf(&sb, "%d\t: %d %d\n", p, 2 * p, 2 * p + 1);
	layout_free(fx_arm80, 0, 40, sb.s);
	sb_free(&sb);
	/* 7 of 80: 80 = 7 * 11 + 3: runs 12, 12, 12, 11, 11, 11, 11 */
	ctx("arm80 npartitions=7");
	{
		static const int len[] = { 12, 12, 12, 11, 11, 11, 11 };
		int c = 0;

		for (p = 0; p < 7; p++) {
			sb_printf(&sb, "%d\t:", p);
			sb_range(&sb, c, c + len[p] - 1);
			c += len[p];
			sb_printf(&sb, "\n");
		}
		assert_int_equal(c, 80);
	}
	layout_free(fx_arm80, 7, 7, sb.s);
	sb_free(&sb);
}

static void test_holes(void **state)
{
	struct cplan_topo *t = fx_holes();
	struct cplan_table *tb;

	(void)state;
	/*
	 * Online cores {0,1} {2,3} {6,7} {8} {10,11} {12,13} {14,15}: 7 cores,
	 * 13 CPUs: ceil(7/2) = 4 partitions, runs 2, 2, 2, 1.
	 */
	ctx("holes default");
	tb = layout(t, 0, 4,
		    "0\t: 0 1 2 3\n1\t: 6 7 8\n2\t: 10 11 12 13\n3\t: 14 15\n");
	assert_int_equal(tb->cpu_part[4], CPLAN_NONE);
	assert_int_equal(tb->cpu_part[9], CPLAN_NONE);
	assert_int_equal(tb->cpu_part[19], CPLAN_NONE);
	assert_int_equal(tb->nr_placed_cpus, 13);
	assert_int_equal(tb->nr_placed_cores, 7);
	cplan_table_free(tb);

	/* 13 = online CPUs: shares equal thread counts, every CPU alone */
	ctx("holes npartitions=13");
	tb = layout(t, 13, 13,
		    "0\t: 0\n1\t: 1\n2\t: 2\n3\t: 3\n4\t: 6\n5\t: 7\n6\t: 8\n"
		    "7\t: 10\n8\t: 11\n9\t: 12\n10\t: 13\n11\t: 14\n12\t: 15\n");
	cplan_table_free(tb);

	/* 7 = cores: one core each */
	ctx("holes npartitions=7");
	cplan_table_free(layout(t, 7, 7,
			      "0\t: 0 1\n1\t: 2 3\n2\t: 6 7\n3\t: 8\n"
			      "4\t: 10 11\n5\t: 12 13\n6\t: 14 15\n"));
	cplan_topo_free(t);
}

static void test_memonly(void **state)
{
	struct cplan_topo *t = fx_memonly();
	struct cplan_table *tb;
	char *dist;

	(void)state;
	/* 2 CPU-bearing nodes (0, 2) of 4 cores: 2 partitions each */
	ctx("memonly default");
	tb = layout(t, 0, 4,
		    "0\t: 0 1 2 3\n1\t: 4 5 6 7\n2\t: 8 9 10 11\n"
		    "3\t: 12 13 14 15\n");
	assert_int_equal(tb->node_part[0], 0);
	assert_int_equal(tb->node_part[1], CPLAN_NONE);
	assert_int_equal(tb->node_part[2], 2);
	assert_int_equal(tb->node_part[3], CPLAN_NONE);
	assert_int_equal(tb->nr_placed_nodes, 2);
	dist = render_distance(tb);
	assert_string_equal(dist, "0\t: 0:10 1:10 2:21 3:21\n"
				  "1\t: 0:10 1:10 2:21 3:21\n"
				  "2\t: 0:21 1:21 2:10 3:10\n"
				  "3\t: 0:21 1:21 2:10 3:10\n");
	free(dist);
	cplan_table_free(tb);

	/* 1 < 2 CPU-bearing nodes: everything together */
	ctx("memonly npartitions=1");
	tb = layout(t, 1, 1, "0\t: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n");
	assert_int_equal(cplan_table_distance(tb, 0, 0), 21);
	cplan_table_free(tb);

	/* 3: floor(3*4/8) = 1 each, remainders 4: node 0 gets 2 */
	ctx("memonly npartitions=3");
	cplan_table_free(layout(t, 3, 3,
			      "0\t: 0 1 2 3\n1\t: 4 5 6 7\n"
			      "2\t: 8 9 10 11 12 13 14 15\n"));
	cplan_topo_free(t);
}

static void test_uneven(void **state)
{
	(void)state;
	/*
	 * Nodes of 10, 3, 7 cores, P = 10: floor 5, 1, 3 (remainders 0, 10,
	 * 10), the lower index (node 1) gets the tenth: 5, 2, 3.
	 */
	ctx("uneven default");
	layout_free(fx_uneven, 0, 10,
		    "0\t: 0 1\n1\t: 2 3\n2\t: 4 5\n3\t: 6 7\n4\t: 8 9\n"
		    "5\t: 10 11\n6\t: 12\n7\t: 13 14 15\n8\t: 16 17\n"
		    "9\t: 18 19\n");
	/*
	 * Nodes of 1, 1, 9, 9 cores, P = 5: 0 -> 1, 0 -> 1, 2, 2 = 6 > 5;
	 * nodes 2 and 3 tie at remainder 45 - 40 = 5, the higher index gives
	 * one back: 1, 1, 2, 1.
	 */
	ctx("uneven2 npartitions=5");
	layout_free(fx_uneven2, 5, 5,
		    "0\t: 0\n1\t: 1\n2\t: 2 3 4 5 6\n3\t: 7 8 9 10\n"
		    "4\t: 11 12 13 14 15 16 17 18 19\n");
	/* P = 10: 1, 1, 4, 4 (9 cores in runs 3, 2, 2, 2) */
	ctx("uneven2 default");
	layout_free(fx_uneven2, 0, 10,
		    "0\t: 0\n1\t: 1\n2\t: 2 3 4\n3\t: 5 6\n4\t: 7 8\n"
		    "5\t: 9 10\n6\t: 11 12 13\n7\t: 14 15\n8\t: 16 17\n"
		    "9\t: 18 19\n");
}

/* ---- fewer partitions than nodes ---------------------------------------- */

static void test_node_groups(void **state)
{
	struct cplan_topo *t;
	struct cplan_table *tb;
	char *dist;

	(void)state;
	/* quad: nodes of 4, 4, 2, 2 cores; d(0,1) = d(2,3) = 12 */
	t = fx_quad();
	ctx("quad npartitions=2");
	tb = layout(t, 2, 2, "0\t: 0 1 2 3 4 5 6 7\n1\t: 8 9 10 11\n");
	assert_int_equal(tb->node_part[1], 0);
	assert_int_equal(tb->node_part[3], 1);
	dist = render_distance(tb);
	assert_string_equal(dist, "0\t: 0:12 1:20\n1\t: 0:20 1:12\n");
	free(dist);
	cplan_table_free(tb);
	/* 3: {2,3} and {0,1} tie at 12, the smaller combined count wins */
	ctx("quad npartitions=3");
	cplan_table_free(layout(t, 3, 3,
			      "0\t: 0 1 2 3\n1\t: 4 5 6 7\n2\t: 8 9 10 11\n"));
	ctx("quad npartitions=1");
	tb = layout(t, 1, 1, "0\t: 0 1 2 3 4 5 6 7 8 9 10 11\n");
	assert_int_equal(cplan_table_distance(tb, 0, 0), 20);
	cplan_table_free(tb);
	ctx("quad default");
	cplan_table_free(layout(t, 0, 6,
			      "0\t: 0 1\n1\t: 2 3\n2\t: 4 5\n3\t: 6 7\n"
			      "4\t: 8 9\n5\t: 10 11\n"));
	cplan_topo_free(t);

	/*
	 * chain: {0,1} at 11 first; then complete linkage: {0,1}-{2} = 30,
	 * {2}-{3} = 13 ({0,1}-{2} would be 12 with single linkage).
	 */
	t = fx_chain();
	ctx("chain npartitions=2");
	tb = layout(t, 2, 2, "0\t: 0 1 2 3\n1\t: 4 5 6 7\n");
	dist = render_distance(tb);
	assert_string_equal(dist, "0\t: 0:11 1:40\n1\t: 0:40 1:13\n");
	free(dist);
	cplan_table_free(tb);
	ctx("chain npartitions=3");
	tb = layout(t, 3, 3, "0\t: 0 1 2 3\n1\t: 4 5\n2\t: 6 7\n");
	dist = render_distance(tb);
	assert_string_equal(dist, "0\t: 0:11 1:30 2:40\n"
				  "1\t: 0:30 1:10 2:13\n"
				  "2\t: 0:40 1:13 2:10\n");
	free(dist);
	cplan_table_free(tb);
	cplan_topo_free(t);

	/* cross: d(0,2) = d(1,3) = 12: groups {0,2} and {1,3} */
	t = fx_cross();
	ctx("cross npartitions=2");
	tb = layout(t, 2, 2, "0\t: 0 1 4 5\n1\t: 2 3 6 7\n");
	assert_int_equal(tb->node_part[0], 0);
	assert_int_equal(tb->node_part[1], 1);
	assert_int_equal(tb->node_part[2], 0);
	assert_int_equal(tb->node_part[3], 1);
	CHECK(part_has_node(tb, 0, 2) && !part_has_node(tb, 0, 1),
	      "part_node of partition 0");
	dist = render_distance(tb);
	assert_string_equal(dist, "0\t: 0:12 1:20\n1\t: 0:20 1:12\n");
	free(dist);
	cplan_table_free(tb);
	/* 3: {0,2} merged first (lowest ids among the ties) */
	ctx("cross npartitions=3");
	cplan_table_free(layout(t, 3, 3, "0\t: 0 1 4 5\n1\t: 2 3\n2\t: 6 7\n"));
	cplan_topo_free(t);
}

static void test_lopsided(void **state)
{
	(void)state;
	/* node 0: CPU 0 (1 core), node 1: CPUs 1-4 (one SMT4 core) */
	ctx("lopsided default");
	layout_free(fx_lopsided, 0, 2, "0\t: 0\n1\t: 1 2 3 4\n");
	/*
	 * 3 > 2 cores: caps are CPU counts; floor(3*1/2) = 1 each, node 0 at
	 * its cap, node 1 gets the third; its core's 4 threads in 2 runs.
	 */
	ctx("lopsided npartitions=3");
	layout_free(fx_lopsided, 3, 3, "0\t: 0\n1\t: 1 2\n2\t: 3 4\n");
	/* 5: node 0 floor(5/2) = 2 clamped to 1, node 1 gets 4 */
	ctx("lopsided npartitions=5");
	layout_free(fx_lopsided, 5, 5, "0\t: 0\n1\t: 1\n2\t: 2\n3\t: 3\n4\t: 4\n");
}

/* ---- 8192 CPUs ------------------------------------------------------------ */

static void test_huge(void **state)
{
	struct cplan_topo *t;
	struct cplan_table *tb;
	struct sbuf sb = { 0 };
	int p, q;

	(void)state;
	/*
	 * QEMU numbering, 16 nodes x 256 cores x 2, 256 partitions: 16 per
	 * node, 2 per 32-core L3, runs of 16 cores = 32 consecutive CPUs.
	 */
	t = fx_huge_qemu();
	ctx("huge qemu default");
	for (p = 0; p < 256; p++) {
		sb_printf(&sb, "%d\t:", p);
		sb_range(&sb, 32 * p, 32 * p + 31);
		sb_printf(&sb, "\n");
	}
	tb = layout(t, 0, 256, sb.s);
	for (p = 0; p < 256; p++)
		for (q = 0; q < 256; q++)
			CHECK(cplan_table_distance(tb, p, q) ==
			      fx_huge_distance(p / 16, q / 16),
			      "distance[%d][%d] = %d", p, q,
			      cplan_table_distance(tb, p, q));
	cplan_table_free(tb);
	sb_free(&sb);
	cplan_topo_free(t);

	/* Intel numbering: partition p = cores 16p..16p+15 (+4096) */
	t = fx_huge_intel();
	ctx("huge intel default");
	for (p = 0; p < 256; p++) {
		sb_printf(&sb, "%d\t:", p);
		sb_cores(&sb, 16 * p, 16 * p + 15, 4096);
		sb_printf(&sb, "\n");
	}
	cplan_table_free(layout(t, 0, 256, sb.s));
	sb_free(&sb);
	/* 16: one node each */
	ctx("huge intel npartitions=16");
	for (p = 0; p < 16; p++) {
		sb_printf(&sb, "%d\t:", p);
		sb_cores(&sb, 256 * p, 256 * p + 255, 4096);
		sb_printf(&sb, "\n");
	}
	cplan_table_free(layout(t, 16, 16, sb.s));
	sb_free(&sb);
	/* 4 < 16 nodes: one per socket (in-socket pairs at 16) */
	ctx("huge intel npartitions=4");
	for (p = 0; p < 4; p++) {
		sb_printf(&sb, "%d\t:", p);
		sb_cores(&sb, 1024 * p, 1024 * p + 1023, 4096);
		sb_printf(&sb, "\n");
	}
	cplan_table_free(layout(t, 4, 4, sb.s));
	sb_free(&sb);
	cplan_topo_free(t);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_perf_8192(void **state)
{
	struct cplan_topo *t = fx_huge_intel();
	struct cplan_table *tb = NULL;
	double t0, dt;
	int rc, c;

	(void)state;
	ctx("perf");
	assert_non_null(t);
	/* sanitizers included; a sane planner takes milliseconds */
	t0 = now();
	rc = cplan_make(t, 0, NULL, &tb, NULL);
	dt = now() - t0;
	assert_int_equal(rc, 0);
	CHECK(dt < 1.0, "planning 8192 CPUs took %.3f s", dt);
	cplan_table_free(tb);
	tb = NULL;
	t0 = now();
	rc = cplan_make(t, 0, "0[0-4095] 1[4096-8191]", &tb, NULL);
	dt = now() - t0;
	assert_int_equal(rc, 0);
	CHECK(dt < 1.0, "planning a 2-partition pattern took %.3f s", dt);
	cplan_table_free(tb);

	/* Above 256 partitions: -ERANGE, before any placement work. */
	tb = NULL;
	assert_int_equal(cplan_make(t, 8192, NULL, &tb, NULL), -ERANGE);
	assert_null(tb);
	assert_int_equal(cplan_make(t, 257, NULL, &tb, NULL), -ERANGE);
	assert_null(tb);

	/*
	 * npartitions = 256, the most: 16 nodes of 256 cores, 8 L3 domains
	 * of 32 cores each, so 16 partitions a node and 2 an L3 domain, of
	 * 16 whole cores: partition p = cores 16p .. 16p + 15, which are
	 * CPUs 16p .. 16p + 15 and their siblings 4096 + 16p ...
	 */
	t0 = now();
	rc = cplan_make(t, 256, NULL, &tb, NULL);
	dt = now() - t0;
	assert_int_equal(rc, 0);
	CHECK(dt < 1.0, "planning 8192 CPUs into 256 took %.3f s", dt);
	assert_int_equal(tb->nr_parts, 256);
	for (c = 0; c < 4096; c++)
		CHECK(tb->cpu_part[c] == c / 16 &&
		      tb->cpu_part[c + 4096] == c / 16,
		      "CPU %d in %d, CPU %d in %d", c, tb->cpu_part[c],
		      c + 4096, tb->cpu_part[c + 4096]);
	assert_int_equal(cplan_table_distance(tb, 0, 1), 10);
	assert_int_equal(cplan_table_distance(tb, 0, 255), 32);
	assert_int_equal(cplan_table_distance(tb, 0, 16), 16);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* ---- every fixture, several counts -------------------------------------- */

/*
 * Grouping 16 nodes into 2 partitions merges 14 times, each O(nodes^2):
 * the planner yields the CPU between merges (cpt/core/cplan_shim.h).
 */
static void test_group_yields(void **state)
{
	struct cplan_topo *t = fx_huge_intel();
	struct cplan_table *tb;
	unsigned long yields;

	(void)state;
	assert_non_null(t);
	ctx("huge intel npartitions=2");
	yields = cplan_yields;
	tb = plan_ok(t, 2, NULL);
	CHECK(cplan_yields - yields >= 14, "%lu yields for 14 merges",
	      cplan_yields - yields);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* cplan_table_equal(): what makes a sysctl write a no-op in the module. */
static void test_table_equal(void **state)
{
	struct cplan_topo *t = fx_xeon8160();
	struct cplan_table *a, *b;

	(void)state;
	assert_non_null(t);
	ctx("xeon8160 equal tables");
	a = plan_ok(t, 6, NULL);
	b = plan_ok(t, 6, NULL);
	CHECK(cplan_table_equal(a, b), "two plans for 6 differ");
	cplan_table_free(b);
	b = plan_ok(t, 12, NULL);
	CHECK(!cplan_table_equal(a, b), "6 and 12 partitions are equal");
	cplan_table_free(b);
	cplan_table_free(a);
	/* The count under an explicit pattern changes nothing but a warning. */
	a = plan_ok(t, 0, "0[0-3] 1[4-7]");
	b = plan_ok(t, 5, "0[0-3] 1[4-7]");
	CHECK(b->warnings == CPLAN_WARN_NPART_IGNORED, "warnings %#x",
	      b->warnings);
	CHECK(cplan_table_equal(a, b), "npartitions changed an explicit table");
	cplan_table_free(b);
	b = plan_ok(t, 0, "0[0-3] 1[4-6]");
	CHECK(!cplan_table_equal(a, b), "CPU 7 dropped, tables equal");
	cplan_table_free(b);
	cplan_table_free(a);
	cplan_topo_free(t);
}

static void test_invariants_all(void **state)
{
	int f;

	(void)state;
	for (f = 0; f < fx_all_count; f++) {
		struct cplan_topo *t = fx_all[f].build();
		struct oracle_topo ti;
		int cand[16], nc = 0, i, j;

		assert_non_null(t);
		oracle_topo_init(&ti, t);
		cand[nc++] = 0;
		cand[nc++] = 1;
		cand[nc++] = 2;
		cand[nc++] = 3;
		cand[nc++] = ti.nr_cpu_nodes - 1;
		cand[nc++] = ti.nr_cpu_nodes;
		cand[nc++] = ti.nr_cpu_nodes + 1;
		cand[nc++] = ti.nr_cores / 3;
		cand[nc++] = ti.nr_cores - 1;
		cand[nc++] = ti.nr_cores;
		if (!fx_all[f].huge) {
			cand[nc++] = ti.nr_cores + 1;
			cand[nc++] = (ti.nr_cores + ti.nr_online) / 2;
			cand[nc++] = ti.nr_online - 1;
			cand[nc++] = ti.nr_online;
		} else {
			cand[nc++] = 300;
			cand[nc++] = 1000;
		}
		for (i = 0; i < nc; i++) {
			int np = cand[i], P;
			struct cplan_table *tb;

			if (np < 0 || np > ti.nr_online)
				continue;
			if (fx_all[f].huge && np > 1000)
				continue;
			for (j = 0; j < i; j++)
				if (cand[j] == np)
					break;
			if (j < i)
				continue;
			ctx("fixture %s npartitions=%d", fx_all[f].name, np);
			if (np > CPLAN_PARTS_MAX) {
				/* doc/planner.md: at most 256 partitions */
				tb = NULL;
				CHECK(cplan_make(t, np, NULL, &tb, NULL) == -ERANGE &&
				      !tb, "npartitions=%d above %d planned", np,
				      CPLAN_PARTS_MAX);
				continue;
			}
			P = np ? np : oracle_default_count(t);
			tb = plan_ok(t, np, NULL);
			oracle_check_layout(t, tb, P);
			cplan_table_free(tb);
		}
		oracle_topo_free(&ti);
		cplan_topo_free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_rule),
		cmocka_unit_test(test_xeon8160_default),
		cmocka_unit_test(test_xeon8160_np6),
		cmocka_unit_test(test_xeon8160_qemu),
		cmocka_unit_test(test_xeon8160_np1_np24),
		cmocka_unit_test(test_xeon8160_split),
		cmocka_unit_test(test_npartitions_errors),
		cmocka_unit_test(test_dual20),
		cmocka_unit_test(test_epyc),
		cmocka_unit_test(test_power9),
		cmocka_unit_test(test_smt4_split),
		cmocka_unit_test(test_hybrid),
		cmocka_unit_test(test_arm80),
		cmocka_unit_test(test_holes),
		cmocka_unit_test(test_memonly),
		cmocka_unit_test(test_uneven),
		cmocka_unit_test(test_node_groups),
		cmocka_unit_test(test_lopsided),
		cmocka_unit_test(test_huge),
		cmocka_unit_test(test_perf_8192),
		cmocka_unit_test(test_group_yields),
		cmocka_unit_test(test_table_equal),
		cmocka_unit_test(test_invariants_all),
	};

	unit_filter();
	return unit_exit(cmocka_run_group_tests_name("cpt planner", tests, NULL, NULL));
}
