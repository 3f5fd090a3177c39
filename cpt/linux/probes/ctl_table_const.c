// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_CTL_TABLE_CONST: proc_handler takes a const struct ctl_table (6.11) */
#include <linux/sysctl.h>

int probe(const struct ctl_table *table, int write, void *buffer,
	  size_t *lenp, loff_t *ppos);

#ifdef CPTK_PROBE_CONTROL
/* The member whose type is probed is there on every kernel. */
_Static_assert(sizeof(((struct ctl_table *)0)->proc_handler) != 0,
	       "struct ctl_table has a proc_handler");
#else
_Static_assert(__builtin_types_compatible_p(typeof(&probe),
	       typeof(((struct ctl_table *)0)->proc_handler)),
	       "proc_handler takes a struct ctl_table that is not const");
#endif
