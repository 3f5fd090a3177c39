// SPDX-License-Identifier: GPL-2.0
/*
 * cpt-plan --emit: a table as a cpu_pattern of CPU lists.  Each
 * partition's list is the shortest text found for its CPUs as items "a",
 * "a-b" and "a-b/stride" (arithmetic runs) that name each CPU once:
 *
 * - the ascending CPUs cut into runs of equal steps, the shortest cut by
 *   dynamic programming (plan_cuts());
 * - interleaved runs: for a stride s (from the partition's first CPU to
 *   one of its next ones), the CPUs fall into chains x, x+s, x+2s, ...;
 *   the chains of some length or more are written "x-y/s", the CPUs of
 *   the others are cut into runs as above.  On a Xeon Phi (SMT4, the
 *   siblings of CPU i are i + 68k) two cores are "0-204/68,1-205/68"
 *   where runs need "0-1,68-69,136-137,204-205".
 *
 * Runs alone win ties, so the machines that gain nothing keep the lines
 * they had.  Items are written in the order of their first CPUs.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

/* Strides tried per partition: from its first CPU to its next 15. */
#define STRIDES_MAX	15
/* Chain lengths tried per stride as the shortest written as an item. */
#define KEEPS_MAX	8

/* One item of a list: first, first + step, ..., last. */
struct item {
	int first, last, step;
};

/* A partition's work space, sized for the largest. */
struct scratch {
	int nr_cpus;
	int *pos;	/* per CPU of the table: 1 + its index in ids, or 0 */
	int *ids;	/* the partition's online CPUs, ascending */
	int *clen;	/* per index in ids: the length of its chain */
	int *rest;	/* the CPUs left to runs */
	int *best, *cut;	/* plan_cuts() */
	struct item *items;
};

/* How a partition is written: runs only (stride 0), or chains and runs. */
struct choice {
	int stride, keep;	/* chains of @stride, @keep CPUs or more */
	int len;
};

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

static bool has(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/*
 * The chains of stride @s: clen[i] for each CPU.  Returns in @keeps the
 * distinct chain lengths of three or more (a chain of two is never
 * shorter as an item than as two numbers), and their number.
 */
static int chains(struct scratch *sc, int n, int s, int *keeps)
{
	int nk = 0;

	for (int i = 0; i < n; i++) {
		int x = sc->ids[i], len = 1, k;

		if (x >= s && sc->pos[x - s])
			continue;	/* not the first of its chain */
		while (x + len * s < sc->nr_cpus && sc->pos[x + len * s])
			len++;
		for (k = 0; k < len; k++)
			sc->clen[sc->pos[x + k * s] - 1] = len;
		if (len >= 3 && nk < KEEPS_MAX && !has(keeps, nk, len))
			keeps[nk++] = len;
	}
	return nk;
}

/* Is ids[i] the first CPU of its chain of stride @s? */
static bool chain_head(const struct scratch *sc, int i, int s)
{
	return sc->ids[i] < s || !sc->pos[sc->ids[i] - s];
}

/*
 * Split the CPUs between chains of @keep or more, as items in sc->items
 * (their number returned), and the others in sc->rest (*nr_rest).
 */
static int split_chains(struct scratch *sc, int n, int s, int keep,
			int *nr_rest)
{
	int nr = 0, m = 0;

	for (int i = 0; i < n; i++) {
		int x = sc->ids[i];

		if (sc->clen[i] < keep)
			sc->rest[m++] = x;
		else if (chain_head(sc, i, s))
			sc->items[nr++] = (struct item){
				x, x + (sc->clen[i] - 1) * s, s };
	}
	*nr_rest = m;
	return nr;
}

/* Length of the list of chains of stride @s, @keep or more, and runs. */
static int chains_len(struct scratch *sc, int n, int s, int keep)
{
	int m, nr = split_chains(sc, n, s, keep, &m), len = 0;

	for (int k = 0; k < nr; k++)
		len += run_len(sc->items[k].first, sc->items[k].last, s);
	if (!m)
		return len + nr - 1;
	plan_cuts(sc->rest, m, sc->best, sc->cut);
	return len + nr + sc->best[0];
}

/* The shortest way found to write the partition in sc->ids. */
static struct choice search(struct scratch *sc, int n)
{
	struct choice c = { 0, 0, 0 };

	plan_cuts(sc->ids, n, sc->best, sc->cut);
	c.len = sc->best[0];
	for (int j = 1; j < n && j <= STRIDES_MAX; j++) {
		int s = sc->ids[j] - sc->ids[0], keeps[KEEPS_MAX];
		int nk = chains(sc, n, s, keeps);

		for (int k = 0; k < nk; k++) {
			int len = chains_len(sc, n, s, keeps[k]);

			if (len < c.len)
				c = (struct choice){ s, keeps[k], len };
		}
	}
	return c;
}

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

/* The items of choice @c, in sc->items by first CPU; returns their number. */
static int collect_items(struct scratch *sc, int n, struct choice c)
{
	const int *runs = sc->ids;
	int m = n, nr = 0;

	if (c.stride) {
		int keeps[KEEPS_MAX];

		(void)chains(sc, n, c.stride, keeps);
		nr = split_chains(sc, n, c.stride, c.keep, &m);
		runs = sc->rest;
	}
	plan_cuts(runs, m, sc->best, sc->cut);
	for (int i = 0; i < m; i = sc->cut[i] + 1) {
		int j = sc->cut[i];

		sc->items[nr++] = (struct item){ runs[i], runs[j],
				j > i ? runs[i + 1] - runs[i] : 1 };
	}
	qsort(sc->items, (size_t)nr, sizeof(*sc->items), cmp_item);
	return nr;
}

/* Append at most what fits of @s to @buf; *len counts all of it. */
static void put(char *buf, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len < size)
		memcpy(buf + *len, s, *len + n < size ? n : size - *len - 1);
	*len += n;
}

static void put_item(char *buf, size_t size, size_t *len,
		     const struct item *it)
{
	char item[40];

	if (it->first == it->last)
		snprintf(item, sizeof(item), "%d", it->first);
	else if (it->step == 1)
		snprintf(item, sizeof(item), "%d-%d", it->first, it->last);
	else
		snprintf(item, sizeof(item), "%d-%d/%d", it->first, it->last,
			 it->step);
	put(buf, size, len, item);
}

/* The online members of partition @p, ascending, into sc->ids and sc->pos. */
static int online_members(const struct cplan_table *t, int p,
			  struct scratch *sc)
{
	int n = 0;

	for (int k = t->part_first[p]; k < t->part_first[p + 1]; k++) {
		int cpu = t->part_cpu[k];

		if (!t->cpu_online || t->cpu_online[cpu]) {
			sc->ids[n++] = cpu;
			sc->pos[cpu] = n;
		}
	}
	return n;
}

static void put_part(char *buf, size_t size, size_t *len,
		     struct scratch *sc, int n)
{
	int nr = collect_items(sc, n, search(sc, n));

	for (int i = 0; i < nr; i++) {
		if (i)
			put(buf, size, len, ",");
		put_item(buf, size, len, &sc->items[i]);
	}
	for (int i = 0; i < n; i++)
		sc->pos[sc->ids[i]] = 0;
}

static int scratch_alloc(struct scratch *sc, int nr_cpus)
{
	size_t n = (size_t)nr_cpus + 1;

	sc->nr_cpus = nr_cpus;
	sc->pos = calloc(6 * n, sizeof(int));
	sc->items = calloc(n, sizeof(*sc->items));
	if (!sc->pos || !sc->items) {
		free(sc->pos);
		free(sc->items);
		return -ENOMEM;
	}
	sc->ids = sc->pos + n;
	sc->clen = sc->ids + n;
	sc->rest = sc->clen + n;
	sc->best = sc->rest + n;
	sc->cut = sc->best + n;
	return 0;
}

int emit_pattern(const struct cplan_table *t, char *buf, size_t size,
		 size_t *lenp)
{
	struct scratch sc;
	size_t len = 0;
	char head[24];
	int ret = 0;

	if (scratch_alloc(&sc, t->nr_cpus))
		return -ENOMEM;
	for (int p = 0; p < t->nr_parts && !ret; p++) {
		int n = online_members(t, p, &sc);

		if (!n) {
			ret = -EINVAL;
			break;
		}
		snprintf(head, sizeof(head), "%s%d[", p ? " " : "", p);
		put(buf, size, &len, head);
		put_part(buf, size, &len, &sc, n);
		put(buf, size, &len, "]");
	}
	if (size)
		buf[len < size ? len : size - 1] = '\0';
	free(sc.pos);
	free(sc.items);
	*lenp = len;
	return ret;
}
