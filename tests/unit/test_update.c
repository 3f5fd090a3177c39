// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of cplan_table_update(), the core's answer to CPU hotplug, with
 * expectations derived by hand from cpt/core/cplan.h:
 *   - a CPU going offline keeps its partition, unlisted in /proc;
 *   - it comes back to the same partition;
 *   - a CPU never placed joins the partition of an online sibling, else the
 *     one with the fewest online CPUs in its L3 domain, else on its node,
 *     else on the nearest node (ties: fewest online CPUs, then lowest id);
 *   - placed CPUs never move;
 *   - a partition whose CPUs are all offline stays, as an empty line, and
 *     the distances do not change;
 *   - CPUs the pattern keeps out (X[...], unlisted in explicit lists,
 *     dropped by C[...]) stay out when they come online;
 *   - a topology that does not match the table is refused.
 * Every step also checks the table's own invariants (cpu_part against
 * part_cpu, online flags, counters) and that nothing placed moved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_helpers.h"
#include "topo_fixtures.h"

/* What /proc shows: the formatter under test. */
static char *proc_table(const struct cplan_table *tb)
{
	size_t len = cplan_format_table(tb, NULL, 0);
	char *s = malloc(len + 1);

	assert_non_null(s);
	cplan_format_table(tb, s, len + 1);
	return s;
}

static char *proc_distance(const struct cplan_table *tb)
{
	size_t len = cplan_format_distance(tb, NULL, 0);
	char *s = malloc(len + 1);

	assert_non_null(s);
	cplan_format_distance(tb, s, len + 1);
	return s;
}

static void expect_text(const char *what, char *got, const char *exp)
{
	char a[400], b[400];

	CHECK(!strcmp(got, exp), "%s:\n    got      \"%s\"\n    expected \"%s\"",
	      what, esc(got, a, sizeof(a)), esc(exp, b, sizeof(b)));
	free(got);
}

/* /proc lists @listed; the partitions hold @members, online or not. */
static void expect_table(const struct cplan_table *tb, const char *listed,
			 const char *members)
{
	expect_text("/proc table", proc_table(tb), listed);
	expect_text("members", render_table(tb), members);
}

static void set_online(struct cplan_topo *t, int lo, int hi, bool online)
{
	int c;

	for (c = lo; c <= hi; c++)
		t->cpu[c].online = online;
}

/* One hotplug step: update @old to @t, check, free @old. */
static struct cplan_table *step(struct cplan_table *old, const struct cplan_topo *t)
{
	struct cplan_err err = { .offset = -1 };
	struct cplan_table *tb = NULL;
	int ret;

	ret = cplan_table_update(old, t, &tb, &err);
	CHECK(ret == 0, "cplan_table_update() = %d (%s)", ret, err.msg);
	assert_non_null(tb);
	oracle_check_update(t, old, tb);
	cplan_table_free(old);
	return tb;
}

/* step(), and the rule that placed (or kept out) each CPU in @why. */
static struct cplan_table *step_why(struct cplan_table *old,
				    const struct cplan_topo *t,
				    unsigned char *why)
{
	struct cplan_err err = { .offset = -1 };
	struct cplan_table *tb = NULL;
	int ret;

	memset(why, 0xff, (size_t)t->nr_cpus);
	ret = cplan_table_update_why(old, t, &tb, why, &err);
	CHECK(ret == 0, "cplan_table_update_why() = %d (%s)", ret, err.msg);
	assert_non_null(tb);
	oracle_check_update(t, old, tb);
	cplan_table_free(old);
	return tb;
}

static struct cplan_table *plan(const struct cplan_topo *t, int np,
			      const char *pattern)
{
	struct cplan_err err = { .offset = -1 };
	struct cplan_table *tb = NULL;
	int ret = cplan_make(t, np, pattern, &tb, &err);

	CHECK(ret == 0, "cplan_make(np %d, '%s') = %d (%s)", np,
	      pattern ? pattern : "", ret, err.msg);
	assert_non_null(tb);
	return tb;
}

/* 8 CPUs, one node, 4 cores x 2 (siblings 2k, 2k+1), L3 0-3 and 4-7. */
static struct cplan_topo *two_l3(void)
{
	struct fx_spec s = { 1, 1, 4, 2, FX_CORE_MAJOR, 2, 10, 20 };
	struct cplan_topo *t = fx_build(&s);

	assert_non_null(t);
	return t;
}

/*
 * 3 nodes of one 2-thread core each: node n = CPUs 2n, 2n+1, L3 unknown;
 * d(0,1) = 15, d(0,2) = 30, d(1,2) = @d12.
 */
static struct cplan_topo *three_nodes(int d12)
{
	struct cplan_topo *t = cplan_topo_alloc(6, 3);
	int c, n;

	assert_non_null(t);
	for (c = 0; c < 6; c++) {
		t->cpu[c].online = true;
		t->cpu[c].core = 100 - c / 2;
		t->cpu[c].package = 0;
		t->cpu[c].node = c / 2;
		t->cpu[c].llc = CPLAN_NONE;
	}
	for (n = 0; n < 3; n++)
		t->node_online[n] = true;
	t->distance[0 * 3 + 1] = t->distance[1 * 3 + 0] = 15;
	t->distance[0 * 3 + 2] = t->distance[2 * 3 + 0] = 30;
	t->distance[1 * 3 + 2] = t->distance[2 * 3 + 1] = d12;
	return t;
}

static void test_offline_keeps_partition(void **state)
{
	struct cplan_topo *t = two_l3();
	struct cplan_table *fresh, *tb;
	const char *full = "0\t: 0 1 2 3\n1\t: 4 5 6 7\n";

	(void)state;
	ctx("two_l3 np=2, CPUs 5 and 0 offline and back");
	/* One L3 domain per partition. */
	tb = plan(t, 2, NULL);
	expect_table(tb, full, full);

	set_online(t, 5, 5, false);
	tb = step(tb, t);
	expect_table(tb, "0\t: 0 1 2 3\n1\t: 4 6 7\n", full);
	CHECK(tb->cpu_part[5] == 1 && !tb->cpu_online[5],
	      "offline CPU 5: partition %d, online %d", tb->cpu_part[5],
	      tb->cpu_online[5]);
	CHECK(tb->nr_placed_cpus == 7, "nr_placed_cpus %d", tb->nr_placed_cpus);

	/* The lowest CPU, whose id names core 0 in a real snapshot. */
	set_online(t, 0, 0, false);
	tb = step(tb, t);
	expect_table(tb, "0\t: 1 2 3\n1\t: 4 6 7\n", full);

	set_online(t, 5, 5, true);
	tb = step(tb, t);
	expect_table(tb, "0\t: 1 2 3\n1\t: 4 5 6 7\n", full);
	CHECK(tb->cpu_part[5] == 1, "CPU 5 back in %d", tb->cpu_part[5]);

	set_online(t, 0, 0, true);
	tb = step(tb, t);
	expect_table(tb, full, full);

	/* Everything back: the very text of a fresh plan. */
	fresh = plan(t, 2, NULL);
	expect_text("fresh plan", proc_table(fresh), full);
	expect_text("distance as fresh", proc_distance(tb),
		    "0\t: 0:10 1:10\n1\t: 0:10 1:10\n");
	cplan_table_free(fresh);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/*
 * Booted with maxcpus=2: only the first thread of cores 0 and 1 (CPUs 0
 * and 2, both in L3 0-3) were up when the table was planned with 2
 * partitions, so each got one.  Then the rest come online together.
 */
static void test_maxcpus_all_at_once(void **state)
{
	struct cplan_topo *t = two_l3();
	struct cplan_table *tb;

	(void)state;
	ctx("two_l3, planned with CPUs 0 and 2, np=2, rest at once");
	set_online(t, 0, 7, false);
	set_online(t, 0, 0, true);
	set_online(t, 2, 2, true);
	tb = plan(t, 2, NULL);
	expect_table(tb, "0\t: 0\n1\t: 2\n", "0\t: 0\n1\t: 2\n");
	CHECK(!tb->cpu_barred[4], "CPU 4 offline at plan time is not barred");

	set_online(t, 0, 7, true);
	tb = step(tb, t);
	/*
	 * In CPU order: 1 and 3 join their siblings (loads 2 and 2); 4 has
	 * no placed CPU in its L3, so the lightest on its node, a tie won by
	 * partition 0; 5 its sibling 4; 6 the only partition in its L3 (that
	 * of 4 and 5); 7 its sibling.
	 */
	expect_table(tb, "0\t: 0 1 4 5 6 7\n1\t: 2 3\n",
		     "0\t: 0 1 4 5 6 7\n1\t: 2 3\n");
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* The same boot, CPUs onlined one by one in the order 1, 4, 6, 3, 5, 7. */
static void test_maxcpus_one_by_one(void **state)
{
	static const struct {
		int cpu;
		const char *table;
		enum cplan_why why;
	} steps[] = {
		/* sibling of 0 */
		{ 1, "0\t: 0 1\n1\t: 2\n", CPLAN_WHY_SIBLING },
		/* nothing in L3 4-7: lightest on the node, partition 1 */
		{ 4, "0\t: 0 1\n1\t: 2 4\n", CPLAN_WHY_NODE },
		/* L3 4-7 now has partition 1 only */
		{ 6, "0\t: 0 1\n1\t: 2 4 6\n", CPLAN_WHY_L3 },
		/* siblings */
		{ 3, "0\t: 0 1\n1\t: 2 3 4 6\n", CPLAN_WHY_SIBLING },
		{ 5, "0\t: 0 1\n1\t: 2 3 4 5 6\n", CPLAN_WHY_SIBLING },
		{ 7, "0\t: 0 1\n1\t: 2 3 4 5 6 7\n", CPLAN_WHY_SIBLING },
	};
	struct cplan_topo *t = two_l3();
	struct cplan_table *tb;
	unsigned char why[8];
	unsigned int i;
	int c;

	(void)state;
	set_online(t, 0, 7, false);
	set_online(t, 0, 0, true);
	set_online(t, 2, 2, true);
	tb = plan(t, 2, NULL);
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		ctx("two_l3 maxcpus, CPU %d comes online", steps[i].cpu);
		set_online(t, steps[i].cpu, steps[i].cpu, true);
		tb = step_why(tb, t, why);
		expect_table(tb, steps[i].table, steps[i].table);
		/* the CPU that came: its rule; the others: kept or offline */
		for (c = 0; c < 8; c++) {
			int exp = c == steps[i].cpu ? (int)steps[i].why :
				  t->cpu[c].online ? CPLAN_WHY_KEPT :
						     CPLAN_WHY_NONE;

			CHECK(why[c] == exp, "why[%d] = %d, expected %d", c,
			      why[c], exp);
		}
	}
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/*
 * A node with no placed CPU: its CPUs join the nearest node's partition.
 * Planned with CPUs 0 (node 0) and 4 (node 2), 2 partitions.
 */
static void test_nearest_node(void **state)
{
	struct cplan_topo *t = three_nodes(20);
	struct cplan_table *tb;
	unsigned char why[6];

	(void)state;
	ctx("three_nodes d(0,1)=15 d(1,2)=20");
	set_online(t, 0, 5, false);
	set_online(t, 0, 0, true);
	set_online(t, 4, 4, true);
	tb = plan(t, 2, NULL);
	expect_table(tb, "0\t: 0\n1\t: 4\n", "0\t: 0\n1\t: 4\n");
	expect_text("distance", proc_distance(tb),
		    "0\t: 0:10 1:30\n1\t: 0:30 1:10\n");

	/* Node 1 is 15 from node 0, 20 from node 2. */
	set_online(t, 2, 2, true);
	tb = step_why(tb, t, why);
	CHECK(why[2] == CPLAN_WHY_NEAREST && why[0] == CPLAN_WHY_KEPT &&
	      why[1] == CPLAN_WHY_NONE, "why 0 1 2 = %d %d %d", why[0],
	      why[1], why[2]);
	expect_table(tb, "0\t: 0 2\n1\t: 4\n", "0\t: 0 2\n1\t: 4\n");
	CHECK(tb->node_part[1] == 0, "node 1 in partition %d",
	      tb->node_part[1]);
	/* Partition 0 now spans nodes 0 and 1. */
	expect_text("distance", proc_distance(tb),
		    "0\t: 0:15 1:30\n1\t: 0:30 1:10\n");

	set_online(t, 0, 5, true);
	tb = step(tb, t);
	expect_table(tb, "0\t: 0 1 2 3\n1\t: 4 5\n",
		     "0\t: 0 1 2 3\n1\t: 4 5\n");
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* Equally near: the partition with fewer online CPUs. */
static void test_nearest_node_tie(void **state)
{
	struct cplan_topo *t = three_nodes(15);
	struct cplan_table *tb;

	(void)state;
	ctx("three_nodes d(0,1)=d(1,2)=15");
	set_online(t, 0, 5, false);
	set_online(t, 0, 0, true);
	set_online(t, 4, 4, true);
	tb = plan(t, 2, NULL);
	set_online(t, 1, 1, true);	/* sibling of 0: partition 0 has 2 */
	tb = step(tb, t);
	set_online(t, 2, 2, true);
	tb = step(tb, t);
	expect_table(tb, "0\t: 0 1\n1\t: 2 4\n", "0\t: 0 1\n1\t: 2 4\n");
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* Every CPU of a partition offline: the line stays, empty. */
static void test_partition_all_offline(void **state)
{
	struct fx_spec s = { 2, 1, 2, 2, FX_CORE_MAJOR, 0, 21, 21 };
	struct cplan_topo *t = fx_build(&s), *flat;
	const char *dist = "0\t: 0:10 1:21\n1\t: 0:21 1:10\n";
	struct cplan_table *tb;

	(void)state;
	assert_non_null(t);
	ctx("2 nodes x 2 cores x 2, np=2, node 1 offline");
	tb = plan(t, 2, NULL);
	expect_table(tb, "0\t: 0 1 2 3\n1\t: 4 5 6 7\n",
		     "0\t: 0 1 2 3\n1\t: 4 5 6 7\n");
	expect_text("distance", proc_distance(tb), dist);

	set_online(t, 4, 7, false);
	tb = step(tb, t);
	expect_table(tb, "0\t: 0 1 2 3\n1\t:\n", "0\t: 0 1 2 3\n1\t: 4 5 6 7\n");
	expect_text("distance, node 1 offline", proc_distance(tb), dist);
	CHECK(tb->nr_parts == 2 && tb->node_part[1] == 1,
	      "%d partitions, node 1 in %d", tb->nr_parts, tb->node_part[1]);

	set_online(t, 6, 6, true);
	tb = step(tb, t);
	expect_table(tb, "0\t: 0 1 2 3\n1\t: 6\n",
		     "0\t: 0 1 2 3\n1\t: 4 5 6 7\n");
	expect_text("distance, CPU 6 back", proc_distance(tb), dist);
	cplan_table_free(tb);
	cplan_topo_free(t);

	/* The last of four partitions, as /proc shows it. */
	ctx("flat 4 cores x 2, np=4, CPUs 6-7 offline");
	flat = fx_flat(4, 2, FX_CORE_MAJOR);
	assert_non_null(flat);
	tb = plan(flat, 4, NULL);
	set_online(flat, 6, 7, false);
	tb = step(tb, flat);
	expect_table(tb, "0\t: 0 1\n1\t: 2 3\n2\t: 4 5\n3\t:\n",
		     "0\t: 0 1\n1\t: 2 3\n2\t: 4 5\n3\t: 6 7\n");
	cplan_table_free(tb);
	cplan_topo_free(flat);
}

/* Online at plan time and excluded: stays out through offline/online. */
static void test_barred_excluded(void **state)
{
	struct cplan_topo *t = fx_flat(4, 2, FX_CORE_MAJOR);
	const char *exp = "0\t: 0 1 2 3\n1\t: 4 5\n";
	struct cplan_table *tb;
	unsigned char why[8];

	(void)state;
	assert_non_null(t);
	ctx("flat 4x2, X[6,7]");
	/* 3 cores left: 2 partitions, runs of 2 and 1 cores. */
	tb = plan(t, 0, "X[6,7]");
	expect_table(tb, exp, exp);
	CHECK(tb->cpu_barred[6] && tb->cpu_barred[7], "6, 7 barred");
	set_online(t, 6, 7, false);
	tb = step(tb, t);
	set_online(t, 6, 7, true);
	tb = step_why(tb, t, why);
	expect_table(tb, exp, exp);
	CHECK(why[6] == CPLAN_WHY_BARRED && why[7] == CPLAN_WHY_BARRED &&
	      why[5] == CPLAN_WHY_KEPT, "why 5 6 7 = %d %d %d", why[5],
	      why[6], why[7]);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* Offline at plan time and excluded: stays out when it comes online. */
static void test_barred_excluded_offline(void **state)
{
	struct cplan_topo *t = fx_flat(4, 2, FX_CORE_MAJOR);
	const char *exp = "0\t: 0 1 2 3\n1\t: 4 5 6\n";
	struct cplan_table *tb;

	(void)state;
	assert_non_null(t);
	ctx("flat 4x2, CPU 7 offline, X[7]");
	set_online(t, 7, 7, false);
	tb = plan(t, 0, "X[7]");
	expect_table(tb, exp, exp);
	set_online(t, 7, 7, true);
	tb = step(tb, t);
	expect_table(tb, exp, exp);
	CHECK(tb->cpu_part[7] == CPLAN_NONE, "CPU 7 in %d", tb->cpu_part[7]);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/*
 * X[7] bars CPU 7 only: its sibling 6, offline at plan time, is no barred
 * CPU and must join a partition when it comes online after 7, as a fresh
 * plan would place it (the only L3: the lightest partition, 1).
 * (The core once read a barred online sibling as "bar me too".)
 */
static void test_barred_sibling(void **state)
{
	struct cplan_topo *t = fx_flat(4, 2, FX_CORE_MAJOR);
	const char *exp = "0\t: 0 1 2 3\n1\t: 4 5 6\n";
	struct cplan_table *tb, *fresh;
	char *got;

	(void)state;
	assert_non_null(t);
	ctx("flat 4x2, CPUs 6-7 offline, X[7], then 7 and 6 online");
	set_online(t, 6, 7, false);
	tb = plan(t, 0, "X[7]");
	set_online(t, 7, 7, true);
	tb = step(tb, t);
	set_online(t, 6, 6, true);
	tb = step(tb, t);
	fresh = plan(t, 0, "X[7]");
	expect_text("fresh plan", proc_table(fresh), exp);
	cplan_table_free(fresh);
	got = proc_table(tb);
	expect_text("CPU 6 joins", got, exp);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* Explicit lists: an unlisted CPU stays out, online at plan time or not. */
static void test_barred_unlisted(void **state)
{
	struct cplan_topo *t = fx_flat(4, 2, FX_CORE_MAJOR);
	const char *exp = "0\t: 0 1\n1\t: 2 3\n";
	struct cplan_table *tb;

	(void)state;
	assert_non_null(t);
	ctx("flat 4x2, CPUs 6-7 offline, 0[0-1] 1[2-3]");
	set_online(t, 6, 7, false);
	tb = plan(t, 0, "0[0-1] 1[2-3]");
	expect_table(tb, exp, exp);
	set_online(t, 6, 7, true);
	tb = step(tb, t);
	set_online(t, 4, 4, false);
	tb = step(tb, t);
	set_online(t, 4, 4, true);
	tb = step(tb, t);
	expect_table(tb, exp, exp);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* C[0]: the dropped core stays out when it comes back. */
static void test_barred_dropped_core(void **state)
{
	struct cplan_topo *t = fx_flat(4, 2, FX_CORE_MAJOR);
	const char *exp = "0\t: 2 3\n1\t: 4 5 6 7\n";
	struct cplan_table *tb;

	(void)state;
	assert_non_null(t);
	ctx("flat 4x2, C[0]");
	tb = plan(t, 0, "C[0]");
	expect_table(tb, exp, exp);
	set_online(t, 0, 1, false);
	tb = step(tb, t);
	set_online(t, 0, 1, true);
	tb = step(tb, t);
	expect_table(tb, exp, exp);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

static void expect_mismatch(const struct cplan_table *tb,
			    const struct cplan_topo *t, const char *what)
{
	struct cplan_err err = { .offset = -1 };
	struct cplan_table *out = (struct cplan_table *)&err;
	int ret;

	ctx("mismatch: %s", what);
	ret = cplan_table_update(tb, t, &out, &err);
	CHECK(ret == -EINVAL, "cplan_table_update() = %d, expected -EINVAL",
	      ret);
	CHECK(out == NULL, "a table was stored");
	CHECK(err.msg[0] != '\0', "no message");
}

static void test_mismatch(void **state)
{
	struct cplan_topo *t = fx_flat(4, 2, FX_CORE_MAJOR);
	struct cplan_topo *more = fx_flat(5, 2, FX_CORE_MAJOR);
	struct cplan_topo *nodes = cplan_topo_alloc(8, 2);
	struct cplan_table *tb;
	int c;

	(void)state;
	assert_non_null(t);
	assert_non_null(more);
	assert_non_null(nodes);
	tb = plan(t, 2, NULL);
	expect_mismatch(tb, more, "10 CPUs for a table of 8");
	for (c = 0; c < 8; c++) {
		nodes->cpu[c] = t->cpu[c];
		nodes->node_online[0] = true;
	}
	expect_mismatch(tb, nodes, "2 nodes for a table of 1");
	t->cpu[3].node = 1;
	expect_mismatch(tb, t, "online CPU 3 on node 1 of 1");
	t->cpu[3].node = -1;
	expect_mismatch(tb, t, "online CPU 3 on node -1");
	cplan_table_free(tb);
	cplan_topo_free(t);
	cplan_topo_free(more);
	cplan_topo_free(nodes);
}

/* Nothing changed: the same table, warnings included. */
static void test_no_change(void **state)
{
	struct cplan_topo *t = fx_flat(4, 2, FX_CORE_MAJOR);
	struct cplan_table *tb;
	char *before;

	(void)state;
	assert_non_null(t);
	ctx("flat 4x2, np=6 (split cores), no change");
	tb = plan(t, 6, NULL);
	CHECK(tb->warnings & CPLAN_WARN_SPLIT_CORES, "split warning");
	before = proc_table(tb);
	tb = step(tb, t);
	expect_text("unchanged", proc_table(tb), before);
	free(before);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/*
 * On every fixture: take every other core offline, then bring everything
 * back; the table returns byte for byte, and nothing moves on the way.
 */
static void test_fixtures_round_trip(void **state)
{
	int i, c;

	(void)state;
	for (i = 0; i < fx_all_count; i++) {
		struct cplan_topo *t;
		struct cplan_table *tb;
		bool *was;
		char *before, *dist;

		if (fx_all[i].huge)
			continue;
		ctx("fixture %s: every other core offline and back",
		    fx_all[i].name);
		t = fx_all[i].build();
		assert_non_null(t);
		was = calloc(t->nr_cpus, sizeof(bool));
		assert_non_null(was);
		tb = plan(t, 0, NULL);
		before = proc_table(tb);
		dist = proc_distance(tb);
		for (c = 0; c < t->nr_cpus; c++) {
			was[c] = t->cpu[c].online;
			/* Keys are opaque: parity of the key picks cores. */
			if (was[c] && t->cpu[c].core % 2 && c)
				t->cpu[c].online = false;
		}
		tb = step(tb, t);
		for (c = 0; c < t->nr_cpus; c++)
			t->cpu[c].online = was[c];
		tb = step(tb, t);
		expect_text("round trip", proc_table(tb), before);
		expect_text("distance round trip", proc_distance(tb), dist);
		free(before);
		free(dist);
		free(was);
		cplan_table_free(tb);
		cplan_topo_free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offline_keeps_partition),
		cmocka_unit_test(test_maxcpus_all_at_once),
		cmocka_unit_test(test_maxcpus_one_by_one),
		cmocka_unit_test(test_nearest_node),
		cmocka_unit_test(test_nearest_node_tie),
		cmocka_unit_test(test_partition_all_offline),
		cmocka_unit_test(test_barred_excluded),
		cmocka_unit_test(test_barred_excluded_offline),
		cmocka_unit_test(test_barred_sibling),
		cmocka_unit_test(test_barred_unlisted),
		cmocka_unit_test(test_barred_dropped_core),
		cmocka_unit_test(test_mismatch),
		cmocka_unit_test(test_no_change),
		cmocka_unit_test(test_fixtures_round_trip),
	};

	unit_filter();
	return unit_exit(cmocka_run_group_tests_name("cpt hotplug update",
						     tests, NULL, NULL));
}
