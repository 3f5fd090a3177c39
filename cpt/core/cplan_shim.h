/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only place where the portable core meets its environment.  The
 * planner, pattern parser and formatter (the .c files of cpt/core) call
 * nothing but what is defined here, and include no other header of the
 * kernel or of the C library, so the same files build into the kernel
 * module and into the userspace tool and tests.
 */
#ifndef CPLAN_SHIM_H
#define CPLAN_SHIM_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/types.h>

#define cplan_calloc(n, size)	kvcalloc(n, size, GFP_KERNEL)
#define cplan_free(p)		kvfree(p)
#define cplan_snprintf		snprintf
/* Neither this nor qsort() is stable: comparators must be a total order. */
#define cplan_sort(base, num, size, cmp)	sort(base, num, size, cmp, NULL)
/* Between the steps of a long loop: the module plans and renders in
 * process context, some of it under the CPU hotplug lock. */
#define cplan_yield()		cond_resched()
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define cplan_calloc(n, size)	calloc(n, size)
#define cplan_free(p)		free(p)
#define cplan_snprintf		snprintf
#define cplan_sort(base, num, size, cmp)	qsort(base, num, size, cmp)
#ifdef CPLAN_COUNT_YIELDS
/* The unit tests count the yields, to check that long loops have them. */
extern unsigned long cplan_yields;
#define cplan_yield()		((void)cplan_yields++)
#else
#define cplan_yield()		((void)0)
#endif
#endif

#endif /* CPLAN_SHIM_H */
