/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timing helpers shared by the planner timers: cpt-bench (tests/tool,
 * test-tool's scaling check) and plan-bench (tests/bench, make bench).
 */
#ifndef CPT_BENCH_TIME_H
#define CPT_BENCH_TIME_H

#include <time.h>

static inline long long now_ns(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* qsort() comparator of long longs, ascending. */
static inline int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

#endif
