// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_CPU_DATA_APICID: cpu_data(cpu).apicid, from the exported cpu_info (x86, up to 6.6) */
/* export: cpu_info */
#include <asm/processor.h>

u32 probe(void);
u32 probe(void)
{
#ifdef CPTK_PROBE_CONTROL
	return 0;
#else
	return cpu_data(0).apicid;
#endif
}
