// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_HK_TYPE: housekeeping_test_cpu() takes an enum hk_type (HK_TYPE_DOMAIN, 5.19), not enum hk_flags */
#include <linux/sched/isolation.h>

bool probe(void);
bool probe(void)
{
#ifdef CPTK_PROBE_CONTROL
	return true;
#else
	return housekeeping_test_cpu(0, HK_TYPE_DOMAIN);
#endif
}
