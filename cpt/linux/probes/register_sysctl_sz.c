// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_REGISTER_SYSCTL_SZ: register_sysctl() counts the entries (6.6): no sentinel */
#include <linux/sysctl.h>

void *probe(void);
void *probe(void)
{
#ifdef CPTK_PROBE_CONTROL
	return NULL;
#else
	return register_sysctl_sz;
#endif
}
