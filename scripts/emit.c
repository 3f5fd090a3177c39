// SPDX-License-Identifier: GPL-2.0
/*
 * cpt-plan --emit: a table as a cpu_pattern of CPU lists.  Each
 * partition's list is the shortest text that splits its ascending CPUs
 * into items "a", "a-b" and "a-b/stride" (runs of equal steps), found by
 * dynamic programming over the cut points.  Items follow the CPUs' order:
 * interleaved runs ("0-9/3,1-10/3") are not tried; on the machines of
 * tests/fixtures a partition's CPUs are runs of siblings anyway.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

static int dec_len(int v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Length of the item of the run first, first + step, ..., last. */
static int run_len(int first, int last, int step)
{
	if (first == last)
		return dec_len(first);
	return dec_len(first) + 1 + dec_len(last) +
	       (step > 1 ? 1 + dec_len(step) : 0);
}

/* Length of what follows a run that ends at index j: ",..." or nothing. */
static int rest_len(int n, const int *best, int j)
{
	return j + 1 < n ? 1 + best[j + 1] : 0;
}

/* Ends the first run of ids[i..] at j, if that is shorter. */
static void try_cut(const int *ids, int n, int *best, int *cut, int i, int j)
{
	int step = j > i ? ids[i + 1] - ids[i] : 1;
	int len = run_len(ids[i], ids[j], step) + rest_len(n, best, j);

	if (len < best[i]) {
		best[i] = len;
		cut[i] = j;
	}
}

/*
 * best[i]: the shortest text for ids[i..n-1] cut into runs of equal steps;
 * cut[i]: the last index of its first run, the lowest of the shortest.  A
 * run from i goes on while its steps equal ids[i + 1] - ids[i].  Past two
 * CPUs, the length of the run's item is a part that depends on i alone
 * plus dec_len() of its last CPU, so of the ends j >= i + 2 the best is
 * the one of least dec_len(ids[j]) + rest_len(j): min_j, kept as i goes
 * down a run.  Linear time: trying each end took 0.13 s for the one
 * partition of -n 1 on 8192 CPUs.
 */
static void plan_cuts(const int *ids, int n, int *best, int *cut)
{
	int min_j = -1;

	for (int i = n - 1; i >= 0; i--) {
		best[i] = INT_MAX;
		try_cut(ids, n, best, cut, i, i);
		if (i + 1 < n)
			try_cut(ids, n, best, cut, i, i + 1);
		if (i + 2 >= n || ids[i + 2] - ids[i + 1] != ids[i + 1] - ids[i]) {
			min_j = -1;	/* no run of three from i */
			continue;
		}
		if (min_j < 0 ||
		    dec_len(ids[i + 2]) + rest_len(n, best, i + 2) <=
		    dec_len(ids[min_j]) + rest_len(n, best, min_j))
			min_j = i + 2;
		try_cut(ids, n, best, cut, i, min_j);
	}
}

/* Append at most what fits of @s to @buf; *len counts all of it. */
static void put(char *buf, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len < size)
		memcpy(buf + *len, s, *len + n < size ? n : size - *len - 1);
	*len += n;
}

static void put_item(char *buf, size_t size, size_t *len, const int *ids,
		     int i, int j)
{
	char item[40];
	int step = j > i ? ids[i + 1] - ids[i] : 1;

	if (i == j)
		snprintf(item, sizeof(item), "%d", ids[i]);
	else if (step == 1)
		snprintf(item, sizeof(item), "%d-%d", ids[i], ids[j]);
	else
		snprintf(item, sizeof(item), "%d-%d/%d", ids[i], ids[j], step);
	put(buf, size, len, item);
}

/* The online members of partition @p, ascending, into @ids. */
static int online_members(const struct cplan_table *t, int p, int *ids)
{
	int n = 0;

	for (int k = t->part_first[p]; k < t->part_first[p + 1]; k++) {
		int cpu = t->part_cpu[k];

		if (!t->cpu_online || t->cpu_online[cpu])
			ids[n++] = cpu;
	}
	return n;
}

static void put_part(char *buf, size_t size, size_t *len, const int *ids,
		     int n, int *best, int *cut)
{
	plan_cuts(ids, n, best, cut);
	for (int i = 0; i < n; i = cut[i] + 1) {
		if (i)
			put(buf, size, len, ",");
		put_item(buf, size, len, ids, i, cut[i]);
	}
}

int emit_pattern(const struct cplan_table *t, char *buf, size_t size,
		 size_t *lenp)
{
	/* The members, then best[] and cut[] of plan_cuts(). */
	size_t n_ids = (size_t)t->nr_cpus + 1;
	int *ids = calloc(n_ids, 3 * sizeof(int));
	size_t len = 0;
	char head[24];
	int ret = 0;

	if (!ids)
		return -ENOMEM;
	for (int p = 0; p < t->nr_parts && !ret; p++) {
		int n = online_members(t, p, ids);

		if (!n) {
			ret = -EINVAL;
			break;
		}
		snprintf(head, sizeof(head), "%s%d[", p ? " " : "", p);
		put(buf, size, &len, head);
		put_part(buf, size, &len, ids, n, ids + n_ids, ids + 2 * n_ids);
		put(buf, size, &len, "]");
	}
	if (size)
		buf[len < size ? len : size - 1] = '\0';
	free(ids);
	*lenp = len;
	return ret;
}
