// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_HK_TYPE_DOMAIN_BOOT: HK_TYPE_DOMAIN_BOOT, isolcpus= alone, apart from cpuset partitions in HK_TYPE_DOMAIN (7.x) */
#include <linux/sched/isolation.h>

bool probe(void);
bool probe(void)
{
#ifdef CPTK_PROBE_CONTROL
	return true;
#else
	return housekeeping_test_cpu(0, HK_TYPE_DOMAIN_BOOT);
#endif
}
