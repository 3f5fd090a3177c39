// SPDX-License-Identifier: GPL-2.0
/*
 * Ranking keys: the one sorting step of the core, shared by the planner
 * (cores and L3 domains of the online CPUs) and the table (its count of
 * placed cores).  Sorting keeps this O(n log n) for 8192 CPUs with keys of
 * any size (APIC-derived ids, package * 1000 + core...).
 */
#include "cplan_internal.h"

struct keyed {
	long long key;
	int idx;
};

/*
 * By key, then by index.  The indexes of two items always differ, so no
 * two items compare equal and this is a total order: there is exactly one
 * sorted sequence, and every sorting algorithm, stable or not, produces
 * it.  cplan_sort() is the kernel's sort() (a heapsort) in the module and
 * qsort() in userspace, neither of them stable; with this comparator they
 * still give the same ranks, so the module and cpt-plan print the same
 * table.
 */
static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Items are online CPUs in ascending order, so a rank orders cores or
 * domains by their lowest CPU id.
 */
int cplan_rank_keys(const long long *key, int n, int *rank)
{
	struct keyed *v = cplan_calloc(n, sizeof(*v));
	int *first = cplan_calloc(n, sizeof(int));
	int i, groups = 0, ranks = 0;

	if (!v || !first) {
		ranks = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		v[i].key = key[i];
		v[i].idx = i;
		first[i] = -1;
	}
	cplan_sort(v, n, sizeof(*v), cmp_keyed);
	for (i = 0; i < n; i++) {
		if (i && v[i].key != v[i - 1].key)
			groups++;
		rank[v[i].idx] = groups;	/* provisional: by key order */
	}
	for (i = 0; i < n; i++) {
		if (first[rank[i]] < 0)
			first[rank[i]] = ranks++;
		rank[i] = first[rank[i]];
	}
out:
	cplan_free(v);
	cplan_free(first);
	return ranks;
}

void cplan_count_buckets(const int *of, int n, int nr, int *first)
{
	int i;

	for (i = 0; i <= nr; i++)
		first[i] = 0;
	for (i = 0; i < n; i++)
		if (of[i] >= 0)
			first[of[i] + 1]++;
	for (i = 0; i < nr; i++)
		first[i + 1] += first[i];
}
