/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only place where the portable core meets its environment.  The
 * planner, pattern parser and formatter (cpt/core_*.c) call nothing but what
 * is defined here, so the same files build into the kernel module and into
 * the userspace tool and tests.
 */
#ifndef CPT_SHIM_H
#define CPT_SHIM_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/types.h>

#define cpt_calloc(n, size)	kvcalloc(n, size, GFP_KERNEL)
#define cpt_free(p)		kvfree(p)
#define cpt_snprintf		snprintf
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define cpt_calloc(n, size)	calloc(n, size)
#define cpt_free(p)		free(p)
#define cpt_snprintf		snprintf
#endif

#endif /* CPT_SHIM_H */
