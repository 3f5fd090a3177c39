// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_REGISTER_SYSCTL_COUNTS: register_sysctl(path, table) counts the entries itself (6.6): no sentinel */
#include <linux/sysctl.h>

static struct ctl_table probe_table[3];

/*
 * What cpt relies on is a property of the macro, not a symbol: that
 * register_sysctl(path, table) passes register_sysctl_sz() the count of a
 * real array, ARRAY_SIZE(table).  Through this stand-in for the function,
 * register_sysctl() is that count: a constant equal to the table's length
 * only where the macro counts; elsewhere a function call, which a static
 * assertion refuses.
 */
#define register_sysctl_sz(path, table, count)	(count)

#ifdef CPTK_PROBE_CONTROL
_Static_assert(ARRAY_SIZE(probe_table) == 3, "ARRAY_SIZE() counts");
#else
_Static_assert(register_sysctl("probe", probe_table) == ARRAY_SIZE(probe_table),
	       "register_sysctl() does not count its table");
#endif
