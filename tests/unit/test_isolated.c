// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of isolated CPUs (struct cplan_cpu.isolated: isolcpus=,
 * nohz_full=), with tables derived by hand from the rules of
 * doc/planner.md and cpt/core/cplan.h:
 *   - an isolated CPU is in no partition, in the default layout and under
 *     any pattern, and the layout is planned over the CPUs left;
 *   - a core with one isolated thread keeps its other threads and still
 *     counts as a core;
 *   - core ordinals of C[...] do not move with isolation;
 *   - an isolated CPU stays out when it goes offline and comes back, and
 *     when it comes online for the first time;
 *   - errors about the CPUs left say that isolation took some.
 *
 * The machine is the VM matrix's "isol" and "nohz" guests (tests/vm):
 * 16 CPUs, 2 nodes (0-7, 8-15, distance 21), L3 per 4 CPUs, cores of two
 * adjacent threads, as QEMU numbers them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_helpers.h"
#include "topo_fixtures.h"

static struct cplan_topo *numa2x2(void)
{
	struct fx_spec s = { 2, 1, 4, 2, FX_CORE_MAJOR, 2, 10, 21 };
	struct cplan_topo *t = fx_build(&s);

	assert_non_null(t);
	return t;
}

static void isolate(struct cplan_topo *t, int lo, int hi, bool isolated)
{
	int c;

	for (c = lo; c <= hi; c++)
		t->cpu[c].isolated = isolated;
}

static void set_online(struct cplan_topo *t, int lo, int hi, bool online)
{
	int c;

	for (c = lo; c <= hi; c++)
		t->cpu[c].online = online;
}

/* What /proc shows (the formatter): online members only. */
static void expect_listed(const struct cplan_table *tb, const char *exp)
{
	size_t len = cplan_format_table(tb, NULL, 0);
	char *s = malloc(len + 1), a[400], b[400];

	assert_non_null(s);
	cplan_format_table(tb, s, len + 1);
	CHECK(!strcmp(s, exp), "/proc table:\n    got      \"%s\"\n    expected \"%s\"",
	      esc(s, a, sizeof(a)), esc(exp, b, sizeof(b)));
	free(s);
}

static struct cplan_table *update(struct cplan_table *old,
				  const struct cplan_topo *t)
{
	struct cplan_err err = { .offset = -1 };
	struct cplan_table *tb = NULL;
	int ret = cplan_table_update(old, t, &tb, &err);

	CHECK(ret == 0, "cplan_table_update() = %d (%s)", ret, err.msg);
	assert_non_null(tb);
	oracle_check_update(t, old, tb);
	cplan_table_free(old);
	return tb;
}

#define FULL	"0\t: 0 1 2 3\n1\t: 4 5 6 7\n2\t: 8 9 10 11\n3\t: 12 13 14 15\n"

/* Without isolation: 8 cores, 4 partitions, one per L3. */
static void test_none(void **state)
{
	struct cplan_topo *t = numa2x2();
	struct cplan_table *tb;

	(void)state;
	ctx("numa2x2, nothing isolated");
	tb = plan_ok(t, 0, NULL);
	assert_parts(tb, FULL);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/*
 * isolcpus=2,3: 7 cores left, (7 + 1) / 2 = 4 partitions; nodes get 3 and
 * 4 cores, shares 4 * 3/7 = 1.7 and 4 * 4/7 = 2.3, largest remainder 2 + 2.
 * Node 0: L3 0-3 has one core left, L3 4-7 two: one partition each.
 */
static void test_isolcpus_core(void **state)
{
	struct cplan_topo *t = numa2x2();
	struct cplan_table *tb;

	(void)state;
	ctx("numa2x2, CPUs 2-3 isolated");
	isolate(t, 2, 3, true);
	tb = plan_ok(t, 0, NULL);
	assert_parts(tb, "0\t: 0 1\n1\t: 4 5 6 7\n2\t: 8 9 10 11\n3\t: 12 13 14 15\n");
	CHECK(tb->cpu_barred[2] && tb->cpu_barred[3], "isolated CPUs not barred");
	CHECK(tb->nr_placed_cpus == 14, "%d CPUs placed", tb->nr_placed_cpus);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/*
 * nohz_full=4-7: L3 4-7 empty; 6 cores, 3 partitions; shares 3 * 2/6 = 1
 * and 3 * 4/6 = 2.
 */
static void test_nohz_die(void **state)
{
	struct cplan_topo *t = numa2x2();
	struct cplan_table *tb;

	(void)state;
	ctx("numa2x2, CPUs 4-7 isolated");
	isolate(t, 4, 7, true);
	tb = plan_ok(t, 0, NULL);
	assert_parts(tb, "0\t: 0 1 2 3\n1\t: 8 9 10 11\n2\t: 12 13 14 15\n");
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* One isolated thread: its core stays a core (8 cores, 4 partitions). */
static void test_one_thread(void **state)
{
	struct cplan_topo *t = numa2x2();
	struct cplan_table *tb;

	(void)state;
	ctx("numa2x2, CPU 3 isolated");
	isolate(t, 3, 3, true);
	tb = plan_ok(t, 0, NULL);
	assert_parts(tb, "0\t: 0 1 2\n1\t: 4 5 6 7\n2\t: 8 9 10 11\n3\t: 12 13 14 15\n");
	cplan_table_free(tb);
	/* 16 partitions were one per CPU: one fewer CPU, 15 at most. */
	tb = plan_ok(t, 15, NULL);
	CHECK(tb->cpu_part[3] == CPLAN_NONE, "CPU 3 placed");
	CHECK(tb->cpu_part[2] != tb->cpu_part[1], "CPU 2 shares a partition");
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* Explicit lists and "*" lose their isolated CPUs, as with X[...]. */
static void test_patterns(void **state)
{
	struct cplan_topo *t = numa2x2();
	struct cplan_table *tb;

	(void)state;
	isolate(t, 2, 2, true);
	isolate(t, 9, 9, true);
	ctx("numa2x2, CPUs 2 and 9 isolated, lists");
	tb = plan_ok(t, 0, "0[0-3] 1[4-15]");
	assert_parts(tb, "0\t: 0 1 3\n1\t: 4 5 6 7 8 10 11 12 13 14 15\n");
	cplan_table_free(tb);
	ctx("numa2x2, CPUs 2 and 9 isolated, 0[*]");
	tb = plan_ok(t, 0, "0[*]");
	assert_parts(tb, "0\t: 0 1 3 4 5 6 7 8 10 11 12 13 14 15\n");
	cplan_table_free(tb);
	ctx("numa2x2, CPUs 2 and 9 isolated, N");
	tb = plan_ok(t, 0, "N");
	assert_parts(tb, "0\t: 0 1 3 4 5 6 7\n1\t: 8 10 11 12 13 14 15\n");
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/*
 * C[k] numbers each node's cores as without isolation: core 1 of node 0 is
 * {2,3} (isolated), core 2 is {4,5} on node 0 and {12,13} on node 1.
 */
static void test_core_ordinals(void **state)
{
	struct cplan_topo *t = numa2x2();
	struct cplan_table *tb;

	(void)state;
	ctx("numa2x2, CPUs 2-3 isolated, C[2]");
	isolate(t, 2, 3, true);
	tb = plan_ok(t, 0, "C[2]");
	assert_parts(tb, "0\t: 0 1\n1\t: 6 7\n2\t: 8 9 10 11\n3\t: 14 15\n");
	cplan_table_free(tb);
	cplan_topo_free(t);
}

static void test_errors(void **state)
{
	static const struct perr errs[] = {
		/* 14 CPUs are left */
		{ "", 15, -ERANGE, OFF_ANY, 0, NULL, "left after isolated CPUs" },
		{ "X[0]", 14, -ERANGE, OFF_ANY, 0, NULL,
		  "left after X[...] and isolated CPUs" },
		/* partition 0 has only isolated CPUs */
		{ "0[2-3] 1[4-7]", 0, -EINVAL, 0, 0, NULL, "not isolated" },
	};
	struct cplan_topo *t = numa2x2();
	unsigned int i;

	(void)state;
	isolate(t, 2, 3, true);
	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		ctx("numa2x2, CPUs 2-3 isolated, \"%s\" np %d", errs[i].pattern,
		    errs[i].np);
		expect_error(t, &errs[i]);
	}
	ctx("numa2x2, every CPU isolated");
	isolate(t, 0, 15, true);
	{
		const struct perr all = { "", 0, -EINVAL, OFF_ANY, 0, NULL,
					  "no online CPU left after isolated" };

		expect_error(t, &all);
	}
	cplan_topo_free(t);
}

/* Hotplug: isolated CPUs stay out, offline and back, or new. */
static void test_hotplug(void **state)
{
	struct cplan_topo *t = numa2x2();
	struct cplan_table *tb;

	(void)state;
	ctx("numa2x2, CPUs 2-3 isolated, 3 and 5 offline at plan");
	isolate(t, 2, 3, true);
	set_online(t, 3, 3, false);
	set_online(t, 5, 5, false);
	tb = plan_ok(t, 0, NULL);
	assert_parts(tb, "0\t: 0 1\n1\t: 4 6 7\n2\t: 8 9 10 11\n3\t: 12 13 14 15\n");
	/* 3 (isolated) and 5 come up: 5 joins its sibling, 3 stays out */
	set_online(t, 3, 3, true);
	set_online(t, 5, 5, true);
	tb = update(tb, t);
	expect_listed(tb, "0\t: 0 1\n1\t: 4 5 6 7\n2\t: 8 9 10 11\n3\t: 12 13 14 15\n");
	CHECK(tb->cpu_barred[3], "isolated CPU 3 not barred once online");
	/* 2 goes down and comes back: still out */
	set_online(t, 2, 2, false);
	tb = update(tb, t);
	set_online(t, 2, 2, true);
	tb = update(tb, t);
	expect_listed(tb, "0\t: 0 1\n1\t: 4 5 6 7\n2\t: 8 9 10 11\n3\t: 12 13 14 15\n");
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* The flag of an offline CPU is ignored, like its other fields. */
static void test_offline_flag_ignored(void **state)
{
	struct cplan_topo *t = numa2x2();
	struct cplan_table *a, *b;

	(void)state;
	ctx("numa2x2, CPU 5 offline, flagged isolated or not");
	set_online(t, 5, 5, false);
	a = plan_ok(t, 0, NULL);
	isolate(t, 5, 5, true);
	b = plan_ok(t, 0, NULL);
	CHECK(cplan_table_equal(a, b), "an offline CPU's flag changed the table");
	cplan_table_free(a);
	cplan_table_free(b);
	cplan_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_isolcpus_core),
		cmocka_unit_test(test_nohz_die),
		cmocka_unit_test(test_one_thread),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_core_ordinals),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_hotplug),
		cmocka_unit_test(test_offline_flag_ignored),
	};

	unit_filter();
	return unit_exit(cmocka_run_group_tests_name("cpt isolated CPUs",
						     tests, NULL, NULL));
}
