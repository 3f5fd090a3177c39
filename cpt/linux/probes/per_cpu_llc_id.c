// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_PER_CPU_LLC_ID: per_cpu_llc_id(cpu) reads the exported cpu_info (x86, 6.7) */
/* export: cpu_info */
#include <asm/processor.h>

unsigned int probe(void);
unsigned int probe(void)
{
#ifdef CPTK_PROBE_CONTROL
	return 0;
#else
	return per_cpu_llc_id(0);
#endif
}
