// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of cpu_pattern (doc/planner.md, "cpu_pattern"): explicit lists,
 * N, X[...], C[...], whitespace, limits, and every error with its errno,
 * message, offset and token.  Expected values are worked out by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_helpers.h"
#include "topo_fixtures.h"

/* Plan @pattern on a fresh @build() and compare the partitions. */
static void pat_is(struct cplan_topo *(*build)(void), int np,
		   const char *pattern, const char *expected,
		   unsigned int warnings)
{
	struct cplan_topo *t = build();
	struct cplan_table *tb;

	assert_non_null(t);
	ctx("pattern \"%s\" npartitions=%d", pattern, np);
	tb = plan_ok(t, np, pattern);
	assert_parts(tb, expected);
	CHECK(tb->warnings == warnings, "warnings %#x, expected %#x",
	      tb->warnings, warnings);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* ---- explicit lists ------------------------------------------------------- */

static void test_explicit(void **state)
{
	struct cplan_topo *t = fx_xeon8160();
	struct cplan_table *tb;
	int c;

	(void)state;
	ctx("explicit 0[0-3] 1[4-7]");
	tb = plan_ok(t, 0, "0[0-3] 1[4-7]");
	assert_parts(tb, "0\t: 0 1 2 3\n1\t: 4 5 6 7\n");
	assert_int_equal(tb->warnings, 0);
	assert_int_equal(tb->nr_placed_cpus, 8);
	assert_int_equal(tb->nr_placed_cores, 8);
	assert_int_equal(tb->nr_placed_nodes, 1);
	for (c = 8; c < 48; c++)
		CHECK(tb->cpu_part[c] == CPLAN_NONE, "unlisted CPU %d in %d", c,
		      tb->cpu_part[c]);
	cplan_table_free(tb);
	cplan_topo_free(t);

	/* npartitions is ignored, with a warning */
	pat_is(fx_xeon8160, 5, "0[0-3] 1[4-7]", "0\t: 0 1 2 3\n1\t: 4 5 6 7\n",
	       CPLAN_WARN_NPART_IGNORED);
	/* strides */
	pat_is(fx_xeon8160, 0, "0[0-10/2] 1[1-13/4]",
	       "0\t: 0 2 4 6 8 10\n1\t: 1 5 9 13\n", 0);
	pat_is(fx_xeon8160, 0, "0[0-47/8]", "0\t: 0 8 16 24 32 40\n", 0);
	pat_is(fx_xeon8160, 0, "0[3-3] 1[5-5/7]", "0\t: 3\n1\t: 5\n", 0);
	pat_is(fx_xeon8160, 0, "0[0-2/1]", "0\t: 0 1 2\n", 0);
	/* any order inside a list, CPUs come out ascending */
	pat_is(fx_xeon8160, 0, "0[5,1,3-4]", "0\t: 1 3 4 5\n", 0);
	pat_is(fx_xeon8160, 0, "0[47,0,24]", "0\t: 0 24 47\n", 0);
	/* partition ids in any order */
	pat_is(fx_xeon8160, 0, "2[4] 0[0] 1[2]", "0\t: 0\n1\t: 2\n2\t: 4\n", 0);
	pat_is(fx_xeon8160, 0, "1[4-7] 0[0-3]", "0\t: 0 1 2 3\n1\t: 4 5 6 7\n",
	       0);
	/* no whitespace needed */
	pat_is(fx_xeon8160, 0, "0[0]1[1]", "0\t: 0\n1\t: 1\n", 0);
	/* whitespace (space, tab, newline) between every token */
	pat_is(fx_xeon8160, 0, " \t0 [ 0 - 3 , 5 ]\n1\t[\n4 ]\n",
	       "0\t: 0 1 2 3 5\n1\t: 4\n", 0);
	pat_is(fx_xeon8160, 0, "0[ 0 - 10 / 5 ]\n\n", "0\t: 0 5 10\n", 0);
	pat_is(fx_xeon8160, 0, "\n0\t[\t1\t,\t2\t]\t", "0\t: 1 2\n", 0);
	/* '*': every online CPU */
	{
		struct sbuf sb = { 0 };

		sb_printf(&sb, "0\t:");
		sb_cores(&sb, 0, 47, 0);
		sb_printf(&sb, "\n");
		pat_is(fx_xeon8160, 0, "0[*]", sb.s, 0);
		pat_is(fx_xeon8160, 0, "0[ * ]", sb.s, 0);
		sb_free(&sb);
	}
	pat_is(fx_holes, 0, "0[*]", "0\t: 0 1 2 3 6 7 8 10 11 12 13 14 15\n",
	       0);
	pat_is(fx_holes, 0, "0[0-3] 1[6-8,10-15]",
	       "0\t: 0 1 2 3\n1\t: 6 7 8 10 11 12 13 14 15\n", 0);
	/* siblings in different partitions are fine */
	pat_is(fx_xeon8160, 0, "0[0,25] 1[1,24]", "0\t: 0 25\n1\t: 1 24\n", 0);

	/* a partition across two nodes */
	t = fx_dual20();
	ctx("explicit 0[0,20] on dual20");
	tb = plan_ok(t, 0, "0[0,20] 1[1]");
	assert_parts(tb, "0\t: 0 20\n1\t: 1\n");
	CHECK(part_has_node(tb, 0, 0) && part_has_node(tb, 0, 1),
	      "part_node of 0");
	CHECK(part_has_node(tb, 1, 0) && !part_has_node(tb, 1, 1),
	      "part_node of 1");
	assert_int_equal(tb->nr_placed_nodes, 2);
	assert_int_equal(cplan_table_distance(tb, 0, 0), 21); /* nodes 0, 1 */
	assert_int_equal(cplan_table_distance(tb, 0, 1), 21);
	assert_int_equal(cplan_table_distance(tb, 1, 1), 10);
	assert_int_equal(tb->node_part[0], 0);
	assert_int_equal(tb->node_part[1], 0);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* ---- N ------------------------------------------------------------------- */

static const char xeon_default[] =
	"0\t: 0 1 24 25\n1\t: 2 3 26 27\n2\t: 4 5 28 29\n3\t: 6 7 30 31\n"
	"4\t: 8 9 32 33\n5\t: 10 11 34 35\n6\t: 12 13 36 37\n"
	"7\t: 14 15 38 39\n8\t: 16 17 40 41\n9\t: 18 19 42 43\n"
	"10\t: 20 21 44 45\n11\t: 22 23 46 47\n";

static void test_N(void **state)
{
	struct sbuf n0 = { 0 }, n1 = { 0 }, sb = { 0 };
	int n;

	(void)state;
	/* dual20: node 0 = cores 0-19 (CPUs 0-19, 40-59), node 1 = 20-39 */
	sb_cores(&n0, 0, 19, 40);
	sb_cores(&n1, 20, 39, 40);

	sb_printf(&sb, "0\t:%s\n1\t:%s\n", n0.s, n1.s);
	pat_is(fx_dual20, 0, "N", sb.s, 0);
	pat_is(fx_dual20, 0, " N \n", sb.s, 0);
	pat_is(fx_dual20, 4, "N", sb.s, CPLAN_WARN_NPART_IGNORED);
	pat_is(fx_dual20, 0, "N 0[0] 1[1]", sb.s, 0);
	pat_is(fx_dual20, 0, "N 1[1] 0[0]", sb.s, 0);
	pat_is(fx_dual20, 0, "N\t0 [ 0 ]\n1[ 1 ]", sb.s, 0);
	sb_free(&sb);
	sb_printf(&sb, "0\t:%s\n1\t:%s\n", n1.s, n0.s);
	pat_is(fx_dual20, 0, "N 0[1] 1[0]", sb.s, 0);
	sb_free(&sb);
	sb_printf(&sb, "0\t:");
	sb_cores(&sb, 0, 79, 0);
	sb_printf(&sb, "\n");
	pat_is(fx_dual20, 0, "N 0[0,1]", sb.s, 0);
	pat_is(fx_dual20, 0, "N 0[0-1]", sb.s, 0);
	pat_is(fx_dual20, 0, "N 0[*]", sb.s, 0);
	pat_is(fx_dual20, 3, "N 0[*]", sb.s, CPLAN_WARN_NPART_IGNORED);
	sb_free(&sb);
	/* N with X: CPUs 0-9 excluded */
	sb_printf(&sb, "0\t:");
	sb_cores(&sb, 10, 19, 0);
	sb_cores(&sb, 40, 59, 0);
	sb_printf(&sb, "\n1\t:%s\n", n1.s);
	pat_is(fx_dual20, 0, "N X[0-9]", sb.s, 0);
	sb_free(&sb);
	sb_free(&n0);
	sb_free(&n1);

	/* EPYC: node n = cores 16n..16n+15 (CPUs c, c+128) */
	for (n = 0; n < 8; n++) {
		sb_printf(&sb, "%d\t:", n);
		sb_cores(&sb, 16 * n, 16 * n + 15, 128);
		sb_printf(&sb, "\n");
	}
	pat_is(fx_epyc_nps4, 0, "N", sb.s, 0);
	sb_free(&sb);
	sb_printf(&sb, "0\t:");
	sb_cores(&sb, 0, 15, 128);
	sb_printf(&sb, "\n1\t:");
	sb_cores(&sb, 16, 47, 128);
	sb_printf(&sb, "\n");
	pat_is(fx_epyc_nps4, 0, "N 0[0] 1[1,2]", sb.s, 0);
	sb_free(&sb);
	/* N 0[0-7/2] 1[1-7/2]: even and odd nodes */
	sb_printf(&sb, "0\t:");
	for (n = 0; n < 8; n += 2)
		sb_cores(&sb, 16 * n, 16 * n + 15, 0);
	for (n = 0; n < 8; n += 2)
		sb_cores(&sb, 128 + 16 * n, 128 + 16 * n + 15, 0);
	sb_printf(&sb, "\n1\t:");
	for (n = 1; n < 8; n += 2)
		sb_cores(&sb, 16 * n, 16 * n + 15, 0);
	for (n = 1; n < 8; n += 2)
		sb_cores(&sb, 128 + 16 * n, 128 + 16 * n + 15, 0);
	sb_printf(&sb, "\n");
	pat_is(fx_epyc_nps4, 0, "N 0[0-7/2] 1[1-7/2]", sb.s, 0);
	sb_free(&sb);

	/* memory-only node 1 and offline node 3 are not CPU-bearing */
	pat_is(fx_memonly, 0, "N", "0\t: 0 1 2 3 4 5 6 7\n"
	       "1\t: 8 9 10 11 12 13 14 15\n", 0);
	pat_is(fx_memonly, 0, "N 0[*]",
	       "0\t: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", 0);
	pat_is(fx_memonly, 0, "N 0[2] 1[0]", "0\t: 8 9 10 11 12 13 14 15\n"
	       "1\t: 0 1 2 3 4 5 6 7\n", 0);

	/* single CPU-bearing node: the default layout, with npartitions */
	pat_is(fx_xeon8160, 0, "N", xeon_default, 0);
	pat_is(fx_xeon8160, 6, "N",
	       "0\t: 0 1 2 3 24 25 26 27\n1\t: 4 5 6 7 28 29 30 31\n"
	       "2\t: 8 9 10 11 32 33 34 35\n3\t: 12 13 14 15 36 37 38 39\n"
	       "4\t: 16 17 18 19 40 41 42 43\n5\t: 20 21 22 23 44 45 46 47\n",
	       0);
	pat_is(fx_xeon8160_qemu, 0, "N",
	       "0\t: 0 1 2 3\n1\t: 4 5 6 7\n2\t: 8 9 10 11\n"
	       "3\t: 12 13 14 15\n4\t: 16 17 18 19\n5\t: 20 21 22 23\n"
	       "6\t: 24 25 26 27\n7\t: 28 29 30 31\n8\t: 32 33 34 35\n"
	       "9\t: 36 37 38 39\n10\t: 40 41 42 43\n11\t: 44 45 46 47\n", 0);
	pat_is(fx_hybrid, 0, "N",
	       "0\t: 0 1 2 3\n1\t: 4 5 6 7\n2\t: 8 9 10 11\n"
	       "3\t: 12 13 14 15\n4\t: 16 17\n5\t: 18 19\n6\t: 20 21\n"
	       "7\t: 22 23\n", 0);
}

/* ---- X[...] --------------------------------------------------------------- */

static void test_X(void **state)
{
	struct sbuf sb = { 0 };
	struct cplan_topo *t;
	struct cplan_table *tb;
	int i;

	(void)state;
	/*
	 * Cores 0-3 (CPUs 0-3, 24-27) excluded: 20 cores left, default
	 * ceil(20/2) = 10 partitions of 2 cores: cores 4+2i, 5+2i.
	 */
	for (i = 0; i < 10; i++)
		sb_printf(&sb, "%d\t: %d %d %d %d\n", i, 4 + 2 * i, 5 + 2 * i,
			  28 + 2 * i, 29 + 2 * i);
	pat_is(fx_xeon8160, 0, "X[0-3,24-27]", sb.s, 0);
	pat_is(fx_xeon8160, 0, " X [ 24 - 27 , 0 - 3 ] ", sb.s, 0);
	sb_free(&sb);
	/* with npartitions 5: runs of 4 cores, npartitions not ignored */
	for (i = 0; i < 5; i++)
		sb_printf(&sb, "%d\t: %d %d %d %d %d %d %d %d\n", i,
			  4 + 4 * i, 5 + 4 * i, 6 + 4 * i, 7 + 4 * i,
			  28 + 4 * i, 29 + 4 * i, 30 + 4 * i, 31 + 4 * i);
	pat_is(fx_xeon8160, 5, "X[0-3,24-27]", sb.s, 0);
	sb_free(&sb);

	/* 4 CPUs left: 1 partition by default, up to 4 with npartitions */
	pat_is(fx_xeon8160, 0, "X[0-43]", "0\t: 44 45 46 47\n", 0);
	pat_is(fx_xeon8160, 4, "X[0-43]", "0\t: 44\n1\t: 45\n2\t: 46\n3\t: 47\n",
	       0);
	{
		struct perr e = { "X[0-43]", 5, -ERANGE, OFF_ANY, 0, NULL,
				  NULL };

		t = fx_xeon8160();
		ctx("X[0-43] npartitions=5");
		expect_error(t, &e);
		cplan_topo_free(t);
	}

	/* offline CPUs may be excluded */
	pat_is(fx_holes, 0, "X[4,5,9,16-19]",
	       "0\t: 0 1 2 3\n1\t: 6 7 8\n2\t: 10 11 12 13\n3\t: 14 15\n", 0);

	/* X with an explicit list, before or after it */
	pat_is(fx_xeon8160, 0, "X[1] 0[0-3]", "0\t: 0 2 3\n", 0);
	pat_is(fx_xeon8160, 0, "0[0-3] X[1]", "0\t: 0 2 3\n", 0);
	pat_is(fx_xeon8160, 0, "X[0-3] 0[*]", "0\t:"
	       " 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26"
	       " 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47\n",
	       0);
	pat_is(fx_xeon8160, 0, "X[0-3] 0[0-7] 1[8-9]",
	       "0\t: 4 5 6 7\n1\t: 8 9\n", 0);

	/* lopsided minus CPU 4: 4 CPUs on 2 nodes -> 1 partition */
	pat_is(fx_lopsided, 0, "X[4]", "0\t: 0 1 2 3\n", 0);

	/*
	 * dual20 with node 0 excluded: one CPU-bearing node, 20 cores:
	 * 10 partitions of cores 20+2i, 21+2i.
	 */
	for (i = 0; i < 10; i++)
		sb_printf(&sb, "%d\t: %d %d %d %d\n", i, 20 + 2 * i,
			  21 + 2 * i, 60 + 2 * i, 61 + 2 * i);
	pat_is(fx_dual20, 0, "X[0-19,40-59]", sb.s, 0);
	sb_free(&sb);

	t = fx_xeon8160();
	ctx("X[0-3,24-27] counters");
	tb = plan_ok(t, 0, "X[0-3,24-27]");
	assert_int_equal(tb->nr_placed_cpus, 40);
	assert_int_equal(tb->nr_placed_cores, 20);
	for (i = 0; i < 4; i++) {
		assert_int_equal(tb->cpu_part[i], CPLAN_NONE);
		assert_int_equal(tb->cpu_part[24 + i], CPLAN_NONE);
	}
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* ---- C[...] --------------------------------------------------------------- */

static void test_C(void **state)
{
	struct sbuf sb = { 0 };
	int i;

	(void)state;
	/* default 12 partitions, then core ordinal 0 (CPUs 0, 24) removed */
	pat_is(fx_xeon8160, 0, "C[0]", "0\t: 1 25\n1\t: 2 3 26 27\n"
	       "2\t: 4 5 28 29\n3\t: 6 7 30 31\n4\t: 8 9 32 33\n"
	       "5\t: 10 11 34 35\n6\t: 12 13 36 37\n7\t: 14 15 38 39\n"
	       "8\t: 16 17 40 41\n9\t: 18 19 42 43\n10\t: 20 21 44 45\n"
	       "11\t: 22 23 46 47\n", 0);
	/* even ordinals removed: partition i keeps core 2i+1 */
	for (i = 0; i < 12; i++)
		sb_printf(&sb, "%d\t: %d %d\n", i, 2 * i + 1, 2 * i + 25);
	pat_is(fx_xeon8160, 0, "C[0-23/2]", sb.s, 0);
	pat_is(fx_xeon8160, 0, " C [ 0 - 23 / 2 ] ", sb.s, 0);
	sb_free(&sb);
	/* QEMU numbering: ordinal 5 = CPUs 10, 11 (partition 2: 8-11) */
	pat_is(fx_xeon8160_qemu, 0, "C[5]", "0\t: 0 1 2 3\n1\t: 4 5 6 7\n"
	       "2\t: 8 9\n3\t: 12 13 14 15\n4\t: 16 17 18 19\n"
	       "5\t: 20 21 22 23\n6\t: 24 25 26 27\n7\t: 28 29 30 31\n"
	       "8\t: 32 33 34 35\n9\t: 36 37 38 39\n10\t: 40 41 42 43\n"
	       "11\t: 44 45 46 47\n", 0);
	/* with an explicit list */
	pat_is(fx_xeon8160, 0, "0[0-7] C[1]", "0\t: 0 2 3 4 5 6 7\n", 0);
	pat_is(fx_xeon8160, 0, "C[1] 0[0-7] 1[24-26]",
	       "0\t: 0 2 3 4 5 6 7\n1\t: 24 26\n", 0);
	/* holes: ordinal 3 is the core of CPU 8 alone */
	pat_is(fx_holes, 0, "C[3]",
	       "0\t: 0 1 2 3\n1\t: 6 7\n2\t: 10 11 12 13\n3\t: 14 15\n", 0);
	/* ordinal 5 = CPUs 12, 13 */
	pat_is(fx_holes, 0, "C[5]",
	       "0\t: 0 1 2 3\n1\t: 6 7 8\n2\t: 10 11\n3\t: 14 15\n", 0);
	/*
	 * ordinals count over the whole machine, X included: X removes cores
	 * 0-3, the default puts cores 4, 5 in partition 0, C[4] removes
	 * core 4 (CPUs 4, 28).
	 */
	for (i = 0; i < 10; i++) {
		if (i == 0)
			sb_printf(&sb, "0\t: 5 29\n");
		else
			sb_printf(&sb, "%d\t: %d %d %d %d\n", i, 4 + 2 * i,
				  5 + 2 * i, 28 + 2 * i, 29 + 2 * i);
	}
	pat_is(fx_xeon8160, 0, "X[0-3,24-27] C[4]", sb.s, 0);
	sb_free(&sb);
}

/*
 * C[k] is the k-th core of every node (doc/planner.md), not the k-th of the
 * machine: each case below has a core that the machine-wide ordinal would
 * have kept or removed the other way.
 */
static void test_C_per_node(void **state)
{
	(void)state;
	/* dual20: cores 0, 1 of node 0 are CPUs 0/40, 1/41, of node 1
	 * 20/60, 21/61; C[0] empties neither partition 0 nor 10 */
	pat_is(fx_dual20, 0, "C[0]",
	       "0\t: 1 41\n1\t: 2 3 42 43\n2\t: 4 5 44 45\n"
	       "3\t: 6 7 46 47\n4\t: 8 9 48 49\n5\t: 10 11 50 51\n"
	       "6\t: 12 13 52 53\n7\t: 14 15 54 55\n8\t: 16 17 56 57\n"
	       "9\t: 18 19 58 59\n10\t: 21 61\n11\t: 22 23 62 63\n"
	       "12\t: 24 25 64 65\n13\t: 26 27 66 67\n"
	       "14\t: 28 29 68 69\n15\t: 30 31 70 71\n"
	       "16\t: 32 33 72 73\n17\t: 34 35 74 75\n"
	       "18\t: 36 37 76 77\n19\t: 38 39 78 79\n", 0);
	/* a range, and the same as a list: cores 1 and 2 of each node */
	pat_is(fx_dual20, 0, "C[1-2] 0[0-3,40-43] 1[20-23,60-63]",
	       "0\t: 0 3 40 43\n1\t: 20 23 60 63\n", 0);
	pat_is(fx_dual20, 0, "0[0-3,40-43] 1[20-23,60-63] C[1,2]",
	       "0\t: 0 3 40 43\n1\t: 20 23 60 63\n", 0);
	/* X[...] does not shift the ranks: core 0 of node 1 is still that
	 * of CPU 20, so CPU 21 stays */
	pat_is(fx_dual20, 0, "X[20,60] 0[0-3] 1[21-24] C[0]",
	       "0\t: 1 2 3\n1\t: 21 22 23 24\n", 0);
	/* uneven nodes of 10, 3, 7 cores (CPUs 0-9, 10-12, 13-19): core 5
	 * is CPU 5 on node 0, CPU 18 on node 2; node 1 has none */
	pat_is(fx_uneven, 0, "C[5]",
	       "0\t: 0 1\n1\t: 2 3\n2\t: 4\n3\t: 6 7\n4\t: 8 9\n"
	       "5\t: 10 11\n6\t: 12\n7\t: 13 14 15\n8\t: 16 17\n"
	       "9\t: 19\n", 0);
	/* core 9: only node 0 has one */
	pat_is(fx_uneven, 0, "C[9]",
	       "0\t: 0 1\n1\t: 2 3\n2\t: 4 5\n3\t: 6 7\n4\t: 8\n"
	       "5\t: 10 11\n6\t: 12\n7\t: 13 14 15\n8\t: 16 17\n"
	       "9\t: 18 19\n", 0);
	/* core 1 of every node: CPUs 1, 11 and 14 */
	pat_is(fx_uneven, 0, "C[1]",
	       "0\t: 0\n1\t: 2 3\n2\t: 4 5\n3\t: 6 7\n4\t: 8 9\n"
	       "5\t: 10\n6\t: 12\n7\t: 13 15\n8\t: 16 17\n"
	       "9\t: 18 19\n", 0);
	/* memory-only and offline nodes have no cores: core 3 of nodes 0
	 * and 2 (CPUs 6, 7 and 14, 15) */
	pat_is(fx_memonly, 0, "C[3]",
	       "0\t: 0 1 2 3\n1\t: 4 5\n2\t: 8 9 10 11\n3\t: 12 13\n", 0);
	/* with N: one partition per node, each without its first core */
	pat_is(fx_memonly, 0, "N C[0]",
	       "0\t: 2 3 4 5 6 7\n1\t: 10 11 12 13 14 15\n", 0);
}

/* EPYC NPS4: 8 nodes of 16 cores (CPUs 16n..16n+15, siblings +128). */
static void test_C_epyc(void **state)
{
	struct cplan_topo *t = fx_epyc_nps4();
	struct cplan_table *tb;
	int n;

	(void)state;
	ctx("epyc C[0]");
	tb = plan_ok(t, 0, "C[0]");
	assert_int_equal(tb->nr_parts, 64);
	/* 8 partitions of 2 cores per node; the first loses core 0 */
	for (n = 0; n < 8; n++) {
		CHECK(tb->cpu_part[16 * n] == CPLAN_NONE &&
		      tb->cpu_part[16 * n + 128] == CPLAN_NONE,
		      "node %d: CPUs %d, %d in %d, %d", n, 16 * n, 16 * n + 128,
		      tb->cpu_part[16 * n], tb->cpu_part[16 * n + 128]);
		CHECK(tb->cpu_part[16 * n + 1] == 8 * n &&
		      tb->cpu_part[16 * n + 129] == 8 * n &&
		      tb->cpu_part[16 * n + 2] == 8 * n + 1,
		      "node %d: CPU %d in %d", n, 16 * n + 1,
		      tb->cpu_part[16 * n + 1]);
	}
	assert_int_equal(tb->nr_placed_cpus, 240);
	assert_int_equal(tb->nr_placed_cores, 120);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* ---- errors --------------------------------------------------------------- */

#define ANY	OFF_ANY, OFF_ANY
#define TWICE	"in partitions|two|twice|already|both|more than one|again|duplicate"
#define NOEXIST	"exist|no such|not|unknown|invalid|range"
#define OVER	"overflow|large|range|big"
#define NOCPU	"no cpu|no online cpu|empty|without"

static const struct perr xeon_errors[] = {
	/* duplicate / missing partition ids */
	{ "0[0-3] 0[4-7]", 0, -EINVAL, 7, 7, "0", "duplicate" },
	{ "0[0] 1[1] 1[2]", 0, -EINVAL, 10, 10, "1", "duplicate" },
	{ "0[0-3] 2[4-7]", 0, -EINVAL, ANY, NULL, "missing" },
	{ "1[0-3]", 0, -EINVAL, ANY, NULL, "missing" },
	/* brackets */
	{ "0[0-3", 0, -EINVAL, 2, 5, NULL, "]|unterminated|missing|expected" },
	{ "0 0-3]", 0, -EINVAL, 1, 2, NULL, "[|missing|expected" },
	{ "0[0-3 1[4]", 0, -EINVAL, 6, 7, NULL, NULL },
	{ "0[0-3] 1", 0, -EINVAL, 7, 8, NULL, NULL },
	{ "[0]", 0, -EINVAL, 0, 0, NULL, NULL },
	{ "0[0-3]]", 0, -EINVAL, 6, 6, "]", NULL },
	{ "0[0] X", 0, -EINVAL, 5, 6, NULL, NULL },
	/* lists */
	{ "0[]", 0, -EINVAL, 1, 2, NULL, "empty" },
	{ "0[ ]", 0, -EINVAL, 1, 3, NULL, "empty" },
	{ "X[]", 0, -EINVAL, 1, 2, NULL, "empty" },
	{ "C[]", 0, -EINVAL, 1, 2, NULL, "empty" },
	{ "0[1,]", 0, -EINVAL, 2, 4, NULL, NULL },
	{ "0[,1]", 0, -EINVAL, 2, 2, ",", NULL },
	{ "0[0-]", 0, -EINVAL, 3, 4, NULL, NULL },
	{ "0[0-3/]", 0, -EINVAL, 5, 6, NULL, NULL },
	{ "0[5-3]", 0, -EINVAL, 2, 4, "5-3|3|5",
	  "revers|range|order|backward|descend|greater|less" },
	{ "0[0-4/0]", 0, -EINVAL, 2, 6, "0|0-4/0|/0", "stride" },
	/* numbers */
	{ "0[2147483648]", 0, -ERANGE, 2, 2, "2147483648", OVER },
	{ "2147483648[0]", 0, -ERANGE, 0, 0, "2147483648", OVER },
	/* (the whole token: test_error_messages) */
	{ "0[0-99999999999999999999]", 0, -ERANGE, 2, 4, NULL, OVER },
	{ "0[0-3/4294967297]", 0, -ERANGE, 2, 6,
	  "4294967297|0-3/4294967297", OVER },
	{ "0[0x1]", 0, -EINVAL, 2, 3, "0x1|x|0x", "hex|unexpected|invalid|x" },
	{ "0[01]", 0, -EINVAL, 2, 2, "01", "octal|zero|leading" },
	{ "01[0]", 0, -EINVAL, 0, 0, "01", "octal|zero|leading" },
	{ "0[0-010]", 0, -EINVAL, 4, 4, "010", "octal|zero|leading" },
	{ "0[0-6/02]", 0, -EINVAL, 6, 6, "02", "octal|zero|leading" },
	{ "0[-1]", 0, -EINVAL, 2, 2, "-|-1", NULL },
	{ "0[+1]", 0, -EINVAL, 2, 2, "+|+1", NULL },
	/* characters */
	{ "0[0-3] foo", 0, -EINVAL, 7, 7, "f|foo", NULL },
	{ "0[0;1]", 0, -EINVAL, 3, 3, ";", NULL },
	{ "0[0] ;", 0, -EINVAL, 5, 5, ";", NULL },
	{ "n", 0, -EINVAL, 0, 0, "n", NULL },
	{ "x[0]", 0, -EINVAL, 0, 0, "x|x[0]", NULL },
	{ "0[0]\xff", 0, -EINVAL, 4, 4, NULL, NULL },
	{ "0[0\xc2\xa0" "1]", 0, -EINVAL, 3, 3, NULL, NULL },
	{ "\xe2\x80\x83" "0[0]", 0, -EINVAL, 0, 0, NULL, NULL },
	{ "0[1\xd9\xa1]", 0, -EINVAL, 3, 3, NULL, NULL }, /* Arabic-Indic 1 */
	/* N */
	{ "N N", 0, -EINVAL, 2, 2, "N", NULL },
	/* CPUs and cores that do not exist */
	{ "0[48]", 0, -ENODEV, 2, 2, "48", NOEXIST },
	{ "0[2147483647]", 0, -ENODEV, 2, 2, "2147483647", NULL },
	{ "0[40-50]", 0, -ENODEV, 2, 5, "40-50|50|48", NULL },
	{ "0[0-47] 1[48-50/2]", 0, -ENODEV, 10, 13, NULL, NULL },
	{ "X[100]", 0, -ENODEV, 2, 2, "100", NULL },
	{ "C[24]", 0, -ENODEV, 2, 2, "24", NULL },
	{ "0[*] C[0-30]", 0, -ENODEV, 7, 10, NULL, NULL },
	/* a CPU in two partitions */
	{ "0[0-3] 1[3]", 0, -EINVAL, 9, 9, "3", TWICE },
	{ "0[0-3] 1[2-5]", 0, -EINVAL, 9, 9, "2-5|2", TWICE },
	{ "0[*] 1[47]", 0, -EINVAL, 7, 7, "47", TWICE },
	/* a partition left with no CPU */
	{ "0[0-3] X[0-3]", 0, -EINVAL, ANY, NULL, NOCPU },
	{ "X[0-3] 0[0-3]", 0, -EINVAL, ANY, NULL, NOCPU },
	{ "0[0-3] 1[4] C[0-3]", 0, -EINVAL, ANY, NULL, NOCPU },
	{ "C[0,1]", 0, -EINVAL, ANY, NULL, NOCPU },
	{ "0[0,24] C[0]", 0, -EINVAL, ANY, NULL, NOCPU },
};

static const struct perr dual_errors[] = {
	{ "N 0[2]", 0, -ENODEV, 4, 4, "2", NOEXIST },
	{ "N 0[0] 1[0]", 0, -EINVAL, 9, 9, "0", TWICE },
	{ "N 0[0-1] 1[1]", 0, -EINVAL, 11, 11, "1", TWICE },
	{ "0[0] N", 0, -EINVAL, 5, 5, "N", NULL },
	{ "N 0[0] N", 0, -EINVAL, 7, 7, "N", NULL },
	{ "N N", 0, -EINVAL, 2, 2, "N", NULL },
	{ "N 1[0]", 0, -EINVAL, ANY, NULL, "missing" },
	{ "N 0[0] 0[1]", 0, -EINVAL, 7, 7, "0", "duplicate" },
	{ "N 0[0-1/0]", 0, -EINVAL, 4, 8, NULL, "stride" },
	{ "N 0[]", 0, -EINVAL, 3, 4, NULL, "empty" },
	{ "N 0[1-0]", 0, -EINVAL, 4, 6, NULL, NULL },
	{ "N 0[99999999999]", 0, -ERANGE, 4, 4, "99999999999", OVER },
	{ "N 0[00]", 0, -EINVAL, 4, 4, "00", NULL },
	{ "N 0[0", 0, -EINVAL, 4, 5, NULL, NULL },
	{ "N 0[0] X[0-19,40-59]", 0, -EINVAL, ANY, NULL, NOCPU },
	/* C[k] per node: 20 cores on each, core 0 of node 1 is CPU 20 */
	{ "C[20]", 0, -ENODEV, 2, 2, "20", NOEXIST },
	{ "C[0,19-21]", 0, -ENODEV, 4, 4, "19-21", NOEXIST },
	{ "0[0-3] 1[20] C[0]", 0, -EINVAL, ANY, NULL, NOCPU },
};

static const struct perr memonly_errors[] = {
	{ "N 0[1]", 0, -ENODEV, 4, 4, "1", NULL },	/* no CPU */
	{ "N 0[3]", 0, -ENODEV, 4, 4, "3", NULL }, /* test_error_messages */
	{ "N 0[4]", 0, -ENODEV, 4, 4, "4", NOEXIST },
	{ "N 0[0-2]", 0, -ENODEV, 4, 6, NULL, NULL },
	{ "N 0[0] 1[2] 2[1]", 0, -ENODEV, 14, 14, "1", NULL },
	/* 4 cores on each CPU-bearing node */
	{ "C[4]", 0, -ENODEV, 2, 2, "4", NOEXIST },
	{ "0[0-7] 1[8-9] C[2-3,0]", 0, -EINVAL, ANY, NULL, NOCPU },
};

/* Nodes of 10, 3 and 7 cores: CPUs 0-9, 10-12, 13-19. */
static const struct perr uneven_errors[] = {
	{ "C[10]", 0, -ENODEV, 2, 2, "10", NOEXIST },
	{ "C[9-10]", 0, -ENODEV, 2, 2, "9-10", NOEXIST },
	/* core 2 of node 1 is partition 6 (CPU 12) alone */
	{ "C[2]", 0, -EINVAL, ANY, NULL, NOCPU },
};

static const struct perr holes_errors[] = {
	{ "0[4]", 0, -ENODEV, 2, 2, "4", "offline" },
	{ "0[9]", 0, -ENODEV, 2, 2, "9", "offline" },
	{ "0[16]", 0, -ENODEV, 2, 2, "16", "offline" },
	{ "0[20]", 0, -ENODEV, 2, 2, "20", NOEXIST },
	{ "0[0-5]", 0, -ENODEV, 2, 4, "0-5|4", NULL },
	{ "X[20]", 0, -ENODEV, 2, 2, "20", NULL },
	{ "C[7]", 0, -ENODEV, 2, 2, "7", NULL },
};

/* Whitespace is space, tab and newline only (doc/planner.md). */
static const struct perr space_errors[] = {
	{ "0[0]\r", 0, -EINVAL, 4, 4, NULL, NULL },
	{ "0[0]\r\n", 0, -EINVAL, 4, 4, NULL, NULL },
	{ "0[0]\v1[1]", 0, -EINVAL, 4, 4, NULL, NULL },
	{ "0[0]\f", 0, -EINVAL, 4, 4, NULL, NULL },
	{ "0[\r0]", 0, -EINVAL, 2, 2, NULL, NULL },
};

static void run_errors(struct cplan_topo *(*build)(void), const char *name,
		       const struct perr *e, int n)
{
	struct cplan_topo *t = build();
	int i;

	assert_non_null(t);
	for (i = 0; i < n; i++) {
		char shown[100];

		ctx("%s: error case %d \"%s\"", name, i,
		    esc(e[i].pattern, shown, sizeof(shown)));
		expect_error(t, &e[i]);
	}
	cplan_topo_free(t);
}

#define RUN_ERRORS(build, arr) run_errors(build, #build, arr, \
					  (int)(sizeof(arr) / sizeof(arr[0])))

static void test_errors_xeon(void **state)
{
	(void)state;
	RUN_ERRORS(fx_xeon8160, xeon_errors);
}

static void test_errors_nodes(void **state)
{
	(void)state;
	RUN_ERRORS(fx_dual20, dual_errors);
	RUN_ERRORS(fx_memonly, memonly_errors);
	RUN_ERRORS(fx_uneven, uneven_errors);
}

static void test_errors_whitespace(void **state)
{
	(void)state;
	RUN_ERRORS(fx_xeon8160, space_errors);
}

/*
 * The message names the offending token itself, whole (doc/planner.md:
 * "the offending token"), and the problem: an offline node is offline.
 */
static void expect_token(struct cplan_topo *(*build)(void), const char *pattern,
			 const char *token, const char *problem)
{
	struct cplan_topo *t = build();
	struct cplan_table *tb = NULL;
	struct cplan_err err;
	const char *q;
	size_t len;
	int rc;

	assert_non_null(t);
	ctx("message of \"%s\"", pattern);
	memset(&err, 0, sizeof(err));
	rc = cplan_make(t, 0, pattern, &tb, &err);
	CHECK(rc < 0 && !tb, "\"%s\" returned %d", pattern, rc);
	q = err_token(&err, &len);
	CHECK(q != NULL, "no quoted token in \"%s\"", err.msg);
	CHECK(len == strlen(token) && !memcmp(q, token, len),
	      "\"%s\": quoted \"%.*s\", the offending token is \"%s\"",
	      err.msg, (int)len, q, token);
	if (problem)
		CHECK(strstr(err.msg, problem) != NULL,
		      "\"%s\" does not say \"%s\"", err.msg, problem);
	cplan_topo_free(t);
}

static void test_error_messages(void **state)
{
	(void)state;
	expect_token(fx_xeon8160, "0[0-3] 0[4-7]", "0", "duplicate");
	expect_token(fx_xeon8160, "0[48]", "48", NULL);
	expect_token(fx_xeon8160, "0[0-3] 1[3]", "3", NULL);
	expect_token(fx_xeon8160, "0[0;1]", ";", NULL);
	expect_token(fx_xeon8160, "0[01]", "01", NULL);
	expect_token(fx_xeon8160, "0[2147483648]", "2147483648", NULL);
	expect_token(fx_xeon8160, "0[0-99999999999999999999]",
		     "99999999999999999999", NULL);
	expect_token(fx_holes, "0[4]", "4", "offline");
	expect_token(fx_dual20, "N 0[2]", "2", NULL);
	expect_token(fx_memonly, "N 0[3]", "3", "offline");
	expect_token(fx_uneven, "C[10]", "10", "any node");
}

static void test_errors_offline(void **state)
{
	(void)state;
	RUN_ERRORS(fx_holes, holes_errors);
}

/* ---- length --------------------------------------------------------------- */

static void test_length(void **state)
{
	struct cplan_topo *t = fx_xeon8160();
	struct cplan_topo *h = fx_huge_qemu();
	struct cplan_table *tb;
	char *pat = malloc(CPLAN_PATTERN_MAX + 2);
	struct perr e = { NULL, 0, -E2BIG, ANY, NULL, NULL };
	int len, k, i;

	(void)state;
	assert_non_null(pat);
	/* "0[0-3]" padded with spaces to exactly 4096 bytes: valid */
	memset(pat, ' ', CPLAN_PATTERN_MAX + 1);
	memcpy(pat, "0[0-3]", 6);
	pat[CPLAN_PATTERN_MAX] = '\0';
	ctx("4096-byte pattern");
	tb = plan_ok(t, 0, pat);
	assert_parts(tb, "0\t: 0 1 2 3\n");
	cplan_table_free(tb);
	/* padded in front */
	memset(pat, ' ', CPLAN_PATTERN_MAX);
	memcpy(pat + CPLAN_PATTERN_MAX - 6, "0[0-3]", 6);
	tb = plan_ok(t, 0, pat);
	assert_parts(tb, "0\t: 0 1 2 3\n");
	cplan_table_free(tb);

	/* 4097 bytes: -E2BIG */
	memset(pat, ' ', CPLAN_PATTERN_MAX + 1);
	memcpy(pat, "0[0-3]", 6);
	pat[CPLAN_PATTERN_MAX + 1] = '\0';
	e.pattern = pat;
	ctx("4097-byte pattern");
	expect_error(t, &e);
	/* 4097 blanks are too long as well */
	memset(pat, ' ', CPLAN_PATTERN_MAX + 1);
	expect_error(t, &e);

	/* 256 one-CPU partitions, the most, padded to 4096 bytes */
	len = 0;
	for (k = 0; k < CPLAN_PARTS_MAX; k++)
		len += sprintf(pat + len, "%d[%d]\n", k, k);
	/* 10 * 5 + 90 * 7 + 156 * 9 = 2084 bytes */
	assert_int_equal(len, 2084);
	while (len < CPLAN_PATTERN_MAX)
		pat[len++] = '\t';
	pat[len] = '\0';
	ctx("256 partitions in 4096 bytes");
	tb = plan_ok(h, 0, pat);
	assert_int_equal(tb->nr_parts, k);
	for (i = 0; i < k; i++) {
		assert_int_equal(tb->part_first[i], i);
		assert_int_equal(tb->part_cpu[i], i);
	}
	assert_int_equal(tb->cpu_part[k], CPLAN_NONE);
	cplan_table_free(tb);
	/* a 257th: -ERANGE at its id */
	sprintf(pat + 2084, "256[256]");
	ctx("257 partitions");
	e = (struct perr){ pat, 0, -ERANGE, 2084, 2084, "256", "supports 256" };
	expect_error(h, &e);
	free(pat);
	cplan_topo_free(t);
	cplan_topo_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explicit),
		cmocka_unit_test(test_N),
		cmocka_unit_test(test_X),
		cmocka_unit_test(test_C),
		cmocka_unit_test(test_C_per_node),
		cmocka_unit_test(test_C_epyc),
		cmocka_unit_test(test_errors_xeon),
		cmocka_unit_test(test_errors_nodes),
		cmocka_unit_test(test_errors_offline),
		cmocka_unit_test(test_errors_whitespace),
		cmocka_unit_test(test_error_messages),
		cmocka_unit_test(test_length),
	};

	unit_filter();
	return unit_exit(cmocka_run_group_tests_name("cpt cpu_pattern", tests, NULL,
					   NULL));
}
