// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_HK_UPDATE: housekeeping_update(): cpusets change HK_TYPE_DOMAIN at run time (7.x) */
#include <linux/sched/isolation.h>

/*
 * The function cpusets call to change the domain set came with that
 * change.  Only its name is probed: its arguments changed while the
 * series was reviewed.
 */
#ifdef CPTK_PROBE_CONTROL
_Static_assert(sizeof(&housekeeping_test_cpu) != 0, "isolation.h read");
#else
_Static_assert(sizeof(&housekeeping_update) != 0, "housekeeping_update()");
#endif
