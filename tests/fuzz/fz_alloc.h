/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forced into the core's objects of the fuzz build (-include): every
 * cplan_calloc() of the core goes through fz_calloc() of fuzz_plan.c, which
 * fails the allocation the input chose, so that each -ENOMEM path of the
 * planner, parser and update runs under ASan and LeakSanitizer.
 */
#ifndef FZ_ALLOC_H
#define FZ_ALLOC_H

#include <stdlib.h>

void *fz_calloc(size_t n, size_t size);
#define calloc(n, size)	fz_calloc(n, size)

#endif /* FZ_ALLOC_H */
