// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_CPUHP_CPUSLOCKED: cpuhp_setup_state_nocalls_cpuslocked() (4.13), needed */
#include <linux/cpuhotplug.h>

int probe(void);
int probe(void)
{
#ifdef CPTK_PROBE_CONTROL
	return CPUHP_AP_ONLINE_DYN;
#else
	return cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
						    "probe", NULL, NULL);
#endif
}
