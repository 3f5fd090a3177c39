// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for what tests/fuzz/fuzz_plan.c found: each is the
 * smallest input, translated by hand into a topology, a pattern and CPU
 * hotplug events, with the behaviour the contract asks for (include/cpt.h,
 * cptab_of_cpu(); cpt/core/cplan.h, cplan_table_update(); doc/planner.md).
 * The fuzz check id (S1...) and the saved input are named in each test.
 *
 * All of them are fixed in the core; a test that meets the wrong answer
 * its finding describes fails with a "FUZZ FINDING REGRESSED" line naming
 * it, and any other wrong answer fails too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_helpers.h"

/*
 * Allocation failures.  This file defines calloc(), which the core's
 * cplan_calloc() calls: the executable's definition comes before the one of
 * libc and the sanitizer's (weak) interceptor, so it sees every calloc()
 * of the process.  It allocates with malloc() (still ASan's), zeroes with a
 * memset the compiler cannot fold back into calloc(), and fails the
 * allocation that fail_in counts down to.
 */
static long fail_in = -1;	/* allocations before the one that fails */
static bool failed;		/* one did */
static void *(*volatile zero_fill)(void *, int, size_t) = memset;

void *calloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (fail_in >= 0 && fail_in-- == 0) {
		failed = true;
		return NULL;
	}
	if (size && n > SIZE_MAX / size)
		return NULL;
	bytes = n * size;
	p = malloc(bytes ? bytes : 1);
	if (p)
		zero_fill(p, 0, bytes);
	return p;
}

/* Fail allocation @k (0: the first) from now on; stop; did it happen. */
static void fail_arm(long k)
{
	fail_in = k;
	failed = false;
}

static bool fail_disarm(void)
{
	bool f = failed;

	fail_in = -1;
	failed = false;
	return f;
}

/* A topology of @nr_cpus CPUs on @nr_nodes online nodes, all offline. */
static struct cplan_topo *topo_new(int nr_cpus, int nr_nodes)
{
	struct cplan_topo *t = cplan_topo_alloc(nr_cpus, nr_nodes);
	int n;

	assert_non_null(t);
	for (n = 0; n < nr_nodes; n++)
		t->node_online[n] = true;
	return t;
}

static void cpu_set(struct cplan_topo *t, int cpu, bool online, int node,
		    int core)
{
	t->cpu[cpu].online = online;
	t->cpu[cpu].node = node;
	t->cpu[cpu].core = core;
	t->cpu[cpu].package = node;
	t->cpu[cpu].llc = CPLAN_NONE;
}

/* Free @tb and @t and fail, naming the finding that came back. */
static void known(struct cplan_table *tb, struct cplan_topo *t, const char *what)
{
	cplan_table_free(tb);
	cplan_topo_free(t);
	fail_msg("FUZZ FINDING REGRESSED (fuzz %s)", what);
}

/* cplan_table_update() that must succeed; frees @old, returns the new table
 * after checking that no member moved and no barred CPU came in. */
static struct cplan_table *update_ok(struct cplan_table *old,
				   const struct cplan_topo *t)
{
	struct cplan_table *nt = NULL;
	struct cplan_err err;
	int rc, cpu;

	memset(&err, 0, sizeof(err));
	rc = cplan_table_update(old, t, &nt, &err);
	CHECK(rc == 0, "cplan_table_update() = %d (%s)", rc, err.msg);
	CHECK(nt != NULL, "cplan_table_update() returned 0 but no table");
	CHECK(nt->nr_parts == old->nr_parts, "%d partitions, was %d",
	      nt->nr_parts, old->nr_parts);
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		if (old->cpu_part[cpu] != CPLAN_NONE)
			CHECK(nt->cpu_part[cpu] == old->cpu_part[cpu],
			      "CPU %d moved from %d to %d", cpu,
			      old->cpu_part[cpu], nt->cpu_part[cpu]);
		if (old->cpu_barred[cpu])
			CHECK(nt->cpu_barred[cpu] &&
			      nt->cpu_part[cpu] == CPLAN_NONE,
			      "barred CPU %d came in", cpu);
	}
	cplan_table_free(old);
	return nt;
}

/*
 * Fuzz check S1: a CPU that comes online with an online sibling in a
 * partition joins that partition, even when another sibling with a lower
 * id is excluded by X[...].  sibling_partition() in core/update.c stops at
 * the first online sibling in id order and returns JOIN_BARRED for a
 * barred one, so the newcomer is barred although it is not excluded and
 * its core serves partition 0.
 *
 * Smallest input: one node, one SMT3 core (CPUs 0-2), CPU 2 offline,
 * "X[0]": partition 0 = { 1 }.  CPU 2 comes online: it must join
 * partition 0 with its sibling 1.  (Found on 20 CPUs, "X[4,5]", SMT4 core
 * 4-7 with 6 offline.)
 */
static void test_s1_sibling_of_excluded_joins_member_sibling(void **state)
{
	struct cplan_topo *t = topo_new(3, 1);
	struct cplan_table *tb;

	(void)state;
	ctx("S1: SMT3 core, X[0], CPU 2 comes online");
	cpu_set(t, 0, true, 0, 0);
	cpu_set(t, 1, true, 0, 0);
	cpu_set(t, 2, false, 0, 0);
	tb = plan_ok(t, 0, "X[0]");
	assert_parts(tb, "0\t: 1\n");
	CHECK(tb->cpu_barred[0] && !tb->cpu_barred[2],
	      "barred after planning: 0 %d, 2 %d", tb->cpu_barred[0],
	      tb->cpu_barred[2]);

	t->cpu[2].online = true;
	tb = update_ok(tb, t);
	if (tb->cpu_part[2] == CPLAN_NONE && tb->cpu_barred[2])
		known(tb, t, "S1: CPU 2 barred because its sibling 0 is excluded, although its sibling 1 is in partition 0");
	CHECK(tb->cpu_part[2] == 0,
	      "CPU 2 (sibling of member 1) in partition %d, barred %d; expected partition 0",
	      tb->cpu_part[2], tb->cpu_barred[2]);
	CHECK(tb->cpu_part[0] == CPLAN_NONE && tb->cpu_barred[0],
	      "excluded CPU 0 in partition %d", tb->cpu_part[0]);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/*
 * Fuzz check S2: without ID[LIST] or C[...] items the CPUs kept out are
 * exactly the X[...] ones, also after hotplug ("CPUs excluded by
 * cpu_pattern never do" get a partition; every other one does).  Same
 * cause as S1: a sibling of an excluded CPU is barred when it comes
 * online, while cplan_make() with that CPU online places it.
 *
 * Smallest input: one node, core 0 = CPUs 0 and 1, core 1 = CPU 2; CPU 1
 * offline; "X[0]": partition 0 = { 2 }.  CPU 1 comes online: it is not
 * excluded and must join partition 0 (its node's), as a fresh plan would
 * place it.
 */
static void test_s2_sibling_of_excluded_is_not_excluded(void **state)
{
	struct cplan_topo *t = topo_new(3, 1);
	struct cplan_table *tb, *fresh;

	(void)state;
	ctx("S2: X[0], its only sibling 1 comes online");
	cpu_set(t, 0, true, 0, 0);
	cpu_set(t, 1, false, 0, 0);
	cpu_set(t, 2, true, 0, 1);
	tb = plan_ok(t, 0, "X[0]");
	assert_parts(tb, "0\t: 2\n");

	t->cpu[1].online = true;
	/* what planning from scratch does with CPU 1 online */
	fresh = plan_ok(t, 0, "X[0]");
	assert_parts(fresh, "0\t: 1 2\n");
	cplan_table_free(fresh);

	tb = update_ok(tb, t);
	if (tb->cpu_part[1] == CPLAN_NONE && tb->cpu_barred[1])
		known(tb, t, "S2: CPU 1 barred because its sibling 0 is excluded by X[0]");
	CHECK(tb->cpu_part[1] == 0 && !tb->cpu_barred[1],
	      "CPU 1 (not excluded) in partition %d, barred %d; expected partition 0",
	      tb->cpu_part[1], tb->cpu_barred[1]);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/*
 * Fuzz check S4: with "N" and node lists, the CPUs of a node that no list
 * names belong to no partition, whether they were online when the table
 * was planned (barred by plan_barred()) or came online later.  Today an
 * offline CPU is not barred (plan_barred() bars offline CPUs only for
 * explicit CPU lists), and when it comes online on an unlisted node
 * cplan_table_update() finds no partition on its node and puts it in the
 * nearest node's partition.
 *
 * Smallest input: node 0 = CPU 0, node 1 = CPU 1 (online) and CPU 2
 * (offline, another core); "N 0[0]": partition 0 = { 0 }, CPU 1 barred.
 * CPU 2 comes online on node 1: it must stay out like CPU 1.  (Found as
 * the seed memonly-042-N-lists: "N 0[0] 1[2]" on 8 nodes, CPU 7 of the
 * offline node 3 comes online and joins partition 1 of node 2.)
 */
static void test_s4_unlisted_node_stays_out(void **state)
{
	struct cplan_topo *t = topo_new(3, 2);
	struct cplan_table *tb;

	(void)state;
	ctx("S4: N 0[0], CPU 2 of node 1 comes online");
	cpu_set(t, 0, true, 0, 0);
	cpu_set(t, 1, true, 1, 1);
	cpu_set(t, 2, false, 1, 2);
	tb = plan_ok(t, 0, "N 0[0]");
	assert_parts(tb, "0\t: 0\n");
	CHECK(tb->cpu_barred[1], "CPU 1 of unlisted node 1 not barred");

	t->cpu[2].online = true;
	tb = update_ok(tb, t);
	if (tb->cpu_part[2] == 0 && !tb->cpu_barred[2])
		known(tb, t, "S4: CPU 2 of node 1, which N 0[0] does not list, joined partition 0");
	CHECK(tb->cpu_part[2] == CPLAN_NONE,
	      "CPU 2 of unlisted node 1 joined partition %d (node 0 only)",
	      tb->cpu_part[2]);
	CHECK(!part_has_node(tb, 0, 1), "partition 0 now holds node 1");
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/*
 * Fuzz check S5: a CPU that comes online joins "the partition of its L3
 * domain, else of its node ... else that of the nearest node".  A
 * partition whose members on that node are all offline still holds the
 * node (they keep their partition), but nearby_partition() only looks at
 * online members, so the newcomer lands on the nearest other node, and the
 * partition spans two nodes for ever once the others come back.
 *
 * Smallest input: node 0 = CPUs 0 and 1, node 1 = CPUs 2 and 3 and CPU 4
 * (offline when planned), one core each; npartitions=2: partition 0 =
 * { 0 1 }, partition 1 = { 2 3 }.  CPUs 2 and 3 go offline, then CPU 4
 * comes online, one event at a time as the kernel does it: CPU 4 must join
 * partition 1, which holds node 1.  (Found on 226 CPUs, 8 nodes, default
 * layout, CPU 6 of node 5 joining partition 1.)
 */
static void test_s5_newcomer_joins_own_node(void **state)
{
	struct cplan_topo *t = topo_new(5, 2);
	struct cplan_table *tb;
	int cpu;

	(void)state;
	ctx("S5: np=2, node 1 offline, CPU 4 of node 1 comes online");
	for (cpu = 0; cpu < 5; cpu++)
		cpu_set(t, cpu, cpu < 4, cpu < 2 ? 0 : 1, cpu);
	tb = plan_ok(t, 2, NULL);
	assert_parts(tb, "0\t: 0 1\n1\t: 2 3\n");

	t->cpu[2].online = false;
	tb = update_ok(tb, t);
	t->cpu[3].online = false;
	tb = update_ok(tb, t);
	t->cpu[4].online = true;
	tb = update_ok(tb, t);
	if (tb->cpu_part[4] == 0)
		known(tb, t, "S5: CPU 4 of node 1 joined partition 0 of node 0, although partition 1 holds node 1 (members offline)");
	CHECK(tb->cpu_part[4] == 1,
	      "CPU 4 of node 1 joined partition %d; expected 1 (node 1)",
	      tb->cpu_part[4]);
	CHECK(!part_has_node(tb, 0, 1), "partition 0 now spans nodes 0 and 1");
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/*
 * Fuzz check S7: cplan_make() "fills @err" on every failure, -ENOMEM too.
 * When the allocation in group_nodes() fails (fewer partitions than
 * CPU-bearing nodes), place_default() and place() pass -ENOMEM up and
 * cplan_make() returns it with err.msg left empty: the module would log an
 * empty reason.  The other -ENOMEM paths say "out of memory".
 *
 * Smallest input: 4 CPUs on 3 nodes (one partition: at most 4 CPUs), every
 * allocation of cplan_make() failed in turn.  Each must give -ENOMEM, no
 * table, a message, and leak nothing (LeakSanitizer at exit).  (Found as
 * tests/fuzz/findings/S7-nomem-empty-message: 8 CPUs, 4 online on nodes
 * 0, 1 and 6.)
 */
static int plan_every_failure(const struct cplan_topo *t, int np,
			      const char *pattern)
{
	int empty = 0;
	long k;

	for (k = 0; k < 1000; k++) {
		struct cplan_table *tb = NULL;
		struct cplan_err err;
		bool hit;
		int rc;

		memset(&err, 0, sizeof(err));
		fail_arm(k);
		rc = cplan_make(t, np, pattern, &tb, &err);
		hit = fail_disarm();
		if (!hit) {
			/* past the last allocation: the plan must work */
			CHECK(rc == 0 && tb, "allocation %ld: rc %d", k, rc);
			cplan_table_free(tb);
			return empty;
		}
		CHECK(rc == -ENOMEM, "allocation %ld failed: rc %d", k, rc);
		CHECK(tb == NULL, "allocation %ld failed: a table", k);
		if (!err.msg[0]) {
			print_message("allocation %ld failed: -ENOMEM with an empty message\n",
				      k);
			empty++;
		}
	}
	CHECK(0, "more than 1000 allocations in one plan");
	return empty;
}

static void test_s7_nomem_has_a_message(void **state)
{
	struct cplan_topo *t = topo_new(4, 3);
	int empty;

	(void)state;
	ctx("S7: 4 CPUs on 3 nodes, one partition, each allocation fails");
	cpu_set(t, 0, true, 0, 0);
	cpu_set(t, 1, true, 1, 1);
	cpu_set(t, 2, true, 1, 2);
	cpu_set(t, 3, true, 2, 3);
	empty = plan_every_failure(t, 0, NULL);
	ctx("S7: the same with npartitions=2");
	empty += plan_every_failure(t, 2, NULL);
	ctx("S7: the same with N 0[0,1] 1[2] X[2] C[1]");
	empty += plan_every_failure(t, 0, "N 0[0,1] 1[2] X[2] C[1]");
	if (empty)
		known(NULL, t, "S7: -ENOMEM from group_nodes() leaves err.msg empty");
	cplan_topo_free(t);
}

/*
 * The same for cplan_table_update(): -ENOMEM, no table, a message, nothing
 * leaked, and the old table untouched (the caller keeps it in force).
 */
static void test_s7_update_nomem(void **state)
{
	struct cplan_topo *t = topo_new(6, 2);
	struct cplan_table *tb;
	char *before, *after;
	long k;
	int cpu;

	(void)state;
	ctx("S7: cplan_table_update() with each allocation failing");
	for (cpu = 0; cpu < 6; cpu++)
		cpu_set(t, cpu, cpu != 5, cpu / 3, cpu);
	tb = plan_ok(t, 2, NULL);
	before = render_table(tb);
	t->cpu[5].online = true;
	t->cpu[1].online = false;
	for (k = 0; k < 1000; k++) {
		struct cplan_table *nt = NULL;
		struct cplan_err err;
		bool hit;
		int rc;

		memset(&err, 0, sizeof(err));
		fail_arm(k);
		rc = cplan_table_update(tb, t, &nt, &err);
		hit = fail_disarm();
		if (!hit) {
			CHECK(rc == 0 && nt, "allocation %ld: rc %d", k, rc);
			CHECK(nt->cpu_part[5] == 1, "CPU 5 in %d", nt->cpu_part[5]);
			cplan_table_free(nt);
			break;
		}
		CHECK(rc == -ENOMEM && nt == NULL,
		      "allocation %ld failed: rc %d, table %p", k, rc,
		      (void *)nt);
		CHECK(err.msg[0] != '\0', "allocation %ld: empty message", k);
	}
	CHECK(k < 1000, "more than 1000 allocations in one update");
	after = render_table(tb);
	CHECK(!strcmp(before, after), "old table changed");
	free(before);
	free(after);
	cplan_table_free(tb);
	cplan_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_s1_sibling_of_excluded_joins_member_sibling),
		cmocka_unit_test(test_s2_sibling_of_excluded_is_not_excluded),
		cmocka_unit_test(test_s4_unlisted_node_stays_out),
		cmocka_unit_test(test_s5_newcomer_joins_own_node),
		cmocka_unit_test(test_s7_nomem_has_a_message),
		cmocka_unit_test(test_s7_update_nomem),
	};

	unit_filter();
	return unit_exit(cmocka_run_group_tests_name("cpt fuzz findings",
						     tests, NULL, NULL));
}
