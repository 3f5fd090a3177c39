// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the /proc text formatter: exact bytes, the snprintf-like
 * contract (size 0, truncation, return value), and 8192 CPUs / 256
 * partitions against a reference built here with plain sprintf loops.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_helpers.h"
#include "topo_fixtures.h"

typedef size_t (*fmt_fn)(const struct cplan_table *, char *, size_t);

/* Output of @f for @size, into a buffer of exactly @size bytes (so that
 * ASan catches a write past it) and into a guarded one. */
static void check_size(fmt_fn f, const char *name, const struct cplan_table *tb,
		       const char *exp, size_t len, size_t size)
{
	char *exact = size ? malloc(size) : NULL;
	char *guard = malloc(size + 64);
	size_t r, n, i;

	if (size)
		assert_non_null(exact);
	assert_non_null(guard);
	memset(guard, 0x7e, size + 64);
	r = f(tb, guard, size);
	CHECK(r == len, "%s(size %zu) returned %zu, full length is %zu", name,
	      size, r, len);
	if (size == 0) {
		for (i = 0; i < 64; i++)
			CHECK(guard[i] == 0x7e, "%s(size 0) wrote byte %zu",
			      name, i);
	} else {
		n = size - 1 < len ? size - 1 : len;
		CHECK(!memcmp(guard, exp, n), "%s(size %zu): wrong bytes "
		      "\"%.*s\"", name, size, (int)(n < 200 ? n : 200), guard);
		CHECK(guard[n] == '\0', "%s(size %zu): no NUL at %zu", name,
		      size, n);
		for (i = n + 1; i < size + 64; i++)
			CHECK(guard[i] == 0x7e, "%s(size %zu) wrote byte %zu "
			      "past the NUL", name, size, i);
		r = f(tb, exact, size);
		CHECK(r == len, "%s(size %zu) returned %zu", name, size, r);
		CHECK(!memcmp(exact, exp, n) && exact[n] == '\0',
		      "%s(size %zu): exact buffer differs", name, size);
	}
	free(exact);
	free(guard);
}

/* Every size from 0 to len + 3 (small outputs). */
static void check_all_sizes(fmt_fn f, const char *name,
			    const struct cplan_table *tb, const char *exp)
{
	size_t len = strlen(exp), size;

	CHECK(f(tb, NULL, 0) == len, "%s(NULL, 0) returned %zu, expected %zu",
	      name, f(tb, NULL, 0), len);
	for (size = 0; size <= len + 3; size++)
		check_size(f, name, tb, exp, len, size);
}

/* A table made by hand, not by the planner. */
static void test_handmade(void **state)
{
	int cpu_part[11] = { 0, 1, 2, 2, CPLAN_NONE, 0, CPLAN_NONE, CPLAN_NONE,
			     CPLAN_NONE, CPLAN_NONE, 2 };
	int part_first[4] = { 0, 2, 3, 6 };
	int part_cpu[6] = { 0, 5, 1, 2, 3, 10 };
	int part_node_first[4] = { 0, 1, 2, 3 };
	int part_node[3] = { 0, 0, 1 };	/* nodes of partitions 0, 1, 2 */
	int node_part[2] = { 0, 2 };
	int node_distance[4] = { 10, 20, 20, 10 };
	struct cplan_table tb = {
		.nr_parts = 3, .nr_cpus = 11, .nr_nodes = 2,
		.nr_placed_cpus = 6, .nr_placed_cores = 6,
		.nr_placed_nodes = 2, .warnings = 0,
		.cpu_part = cpu_part, .part_first = part_first,
		.part_cpu = part_cpu, .part_node_first = part_node_first,
		.part_node = part_node, .node_part = node_part,
		.node_distance = node_distance,
	};
	static const char table[] = "0\t: 0 5\n1\t: 1\n2\t: 2 3 10\n";
	static const char dist[] = "0\t: 0:10 1:10 2:20\n"
				   "1\t: 0:10 1:10 2:20\n"
				   "2\t: 0:20 1:20 2:10\n";

	(void)state;
	ctx("hand-made table");
	check_all_sizes(cplan_format_table, "cplan_format_table", &tb, table);
	check_all_sizes(cplan_format_distance, "cplan_format_distance", &tb, dist);
}

static void test_single(void **state)
{
	int cpu_part[1] = { 0 };
	int part_first[2] = { 0, 1 };
	int part_cpu[1] = { 0 };
	int part_node_first[2] = { 0, 1 };
	int part_node[1] = { 0 };
	int node_part[1] = { 0 };
	int node_distance[1] = { 10 };
	struct cplan_table tb = {
		.nr_parts = 1, .nr_cpus = 1, .nr_nodes = 1,
		.nr_placed_cpus = 1, .nr_placed_cores = 1,
		.nr_placed_nodes = 1,
		.cpu_part = cpu_part, .part_first = part_first,
		.part_cpu = part_cpu, .part_node_first = part_node_first,
		.part_node = part_node, .node_part = node_part,
		.node_distance = node_distance,
	};

	(void)state;
	ctx("single CPU");
	check_all_sizes(cplan_format_table, "cplan_format_table", &tb, "0\t: 0\n");
	check_all_sizes(cplan_format_distance, "cplan_format_distance", &tb,
			"0\t: 0:10\n");
}

/* Planned tables, exact bytes. */
static void test_planned_small(void **state)
{
	struct cplan_topo *t = fx_chain();
	struct cplan_table *tb;

	(void)state;
	ctx("chain npartitions=3");
	tb = plan_ok(t, 3, NULL);
	check_all_sizes(cplan_format_table, "cplan_format_table", tb,
			"0\t: 0 1 2 3\n1\t: 4 5\n2\t: 6 7\n");
	check_all_sizes(cplan_format_distance, "cplan_format_distance", tb,
			"0\t: 0:11 1:30 2:40\n1\t: 0:30 1:10 2:13\n"
			"2\t: 0:40 1:13 2:10\n");
	cplan_table_free(tb);
	cplan_topo_free(t);

	/* two-digit partition numbers, the seed */
	t = fx_xeon8160();
	ctx("xeon8160 default");
	tb = plan_ok(t, 0, NULL);
	check_all_sizes(cplan_format_table, "cplan_format_table", tb,
			"0\t: 0 1 24 25\n1\t: 2 3 26 27\n2\t: 4 5 28 29\n"
			"3\t: 6 7 30 31\n4\t: 8 9 32 33\n5\t: 10 11 34 35\n"
			"6\t: 12 13 36 37\n7\t: 14 15 38 39\n"
			"8\t: 16 17 40 41\n9\t: 18 19 42 43\n"
			"10\t: 20 21 44 45\n11\t: 22 23 46 47\n");
	cplan_table_free(tb);
	/* explicit pattern, unplaced CPUs simply absent */
	tb = plan_ok(t, 0, "1[47] 0[0,24]");
	check_all_sizes(cplan_format_table, "cplan_format_table", tb,
			"0\t: 0 24\n1\t: 47\n");
	check_all_sizes(cplan_format_distance, "cplan_format_distance", tb,
			"0\t: 0:10 1:10\n1\t: 0:10 1:10\n");
	cplan_table_free(tb);
	cplan_topo_free(t);
}

/* 8192 CPUs, 256 partitions: partition p = CPUs 32p..32p+31 (QEMU
 * numbering, 16 nodes x 256 cores x 2, 16 partitions per node). */
static void test_huge(void **state)
{
	struct cplan_topo *t = fx_huge_qemu();
	struct cplan_table *tb;
	char *ref_t, *ref_d, *p;
	size_t len_t, len_d, sizes[8];
	int i, j, k;

	(void)state;
	assert_non_null(t);
	ref_t = malloc(256 * (8 + 32 * 6) + 1);
	ref_d = malloc(256 * (8 + 256 * 8) + 1);
	assert_non_null(ref_t);
	assert_non_null(ref_d);
	p = ref_t;
	for (i = 0; i < 256; i++) {
		p += sprintf(p, "%d\t:", i);
		for (j = 0; j < 32; j++)
			p += sprintf(p, " %d", 32 * i + j);
		p += sprintf(p, "\n");
	}
	len_t = p - ref_t;
	p = ref_d;
	for (i = 0; i < 256; i++) {
		p += sprintf(p, "%d\t:", i);
		for (j = 0; j < 256; j++)
			p += sprintf(p, " %d:%d", j,
				     fx_huge_distance(i / 16, j / 16));
		p += sprintf(p, "\n");
	}
	len_d = p - ref_d;

	ctx("huge qemu default");
	tb = plan_ok(t, 0, NULL);
	assert_int_equal(tb->nr_parts, 256);
	sizes[0] = 0;
	sizes[1] = 1;
	sizes[2] = 4096;
	sizes[3] = len_t / 2;
	sizes[4] = len_t - 1;
	sizes[5] = len_t;
	sizes[6] = len_t + 1;
	sizes[7] = len_t + 100;
	for (k = 0; k < 8; k++)
		check_size(cplan_format_table, "cplan_format_table", tb, ref_t,
			   len_t, sizes[k]);
	sizes[2] = 65536;
	sizes[3] = len_d / 2;
	sizes[4] = len_d - 1;
	sizes[5] = len_d;
	sizes[6] = len_d + 1;
	sizes[7] = len_d + 100;
	for (k = 0; k < 8; k++)
		check_size(cplan_format_distance, "cplan_format_distance", tb,
			   ref_d, len_d, sizes[k]);
	cplan_table_free(tb);
	free(ref_t);
	free(ref_d);
	cplan_topo_free(t);
}

/*
 * The most partitions, 256, of 8192 CPUs (Intel numbering, core c = CPUs
 * c and c + 4096): partition p = cores 16p .. 16p + 15 (see test_plan.c).
 * Rendering yields the CPU once a line at least.
 */
static void test_huge_256_parts(void **state)
{
	struct cplan_topo *t = fx_huge_intel();
	struct cplan_table *tb = NULL;
	unsigned long yields;
	char *ref, *p;
	size_t len, dlen;
	int part, c;

	(void)state;
	assert_non_null(t);
	ctx("huge intel npartitions=256");
	ref = malloc(256 * 32 * 6 + 1);
	assert_non_null(ref);
	p = ref;
	for (part = 0; part < 256; part++) {
		p += sprintf(p, "%d\t:", part);
		for (c = 16 * part; c < 16 * part + 16; c++)
			p += sprintf(p, " %d", c);
		for (c = 16 * part; c < 16 * part + 16; c++)
			p += sprintf(p, " %d", c + 4096);
		p += sprintf(p, "\n");
	}
	len = p - ref;
	assert_int_equal(cplan_make(t, 256, NULL, &tb, NULL), 0);
	yields = cplan_yields;
	check_size(cplan_format_table, "cplan_format_table", tb, ref, len, 0);
	CHECK(cplan_yields - yields >= 256, "%lu yields for 256 lines",
	      cplan_yields - yields);
	check_size(cplan_format_table, "cplan_format_table", tb, ref, len, 100);
	check_size(cplan_format_table, "cplan_format_table", tb, ref, len, len);
	check_size(cplan_format_table, "cplan_format_table", tb, ref, len,
		   len + 1);
	/* 256 lines of 256 "b:d" entries: the largest distance text. */
	yields = cplan_yields;
	dlen = cplan_format_distance(tb, NULL, 0);
	CHECK(cplan_yields - yields >= 256, "%lu yields for 256 lines",
	      cplan_yields - yields);
	CHECK(dlen > 400000 && dlen < 600000, "distance text of %zu bytes",
	      dlen);
	cplan_table_free(tb);
	free(ref);
	cplan_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handmade),
		cmocka_unit_test(test_single),
		cmocka_unit_test(test_planned_small),
		cmocka_unit_test(test_huge),
		cmocka_unit_test(test_huge_256_parts),
	};

	unit_filter();
	return unit_exit(cmocka_run_group_tests_name("cpt formatter", tests, NULL, NULL));
}
