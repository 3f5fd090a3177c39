// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_GET_LLC_ID: get_llc_id(cpu), exported (x86, up to 6.6) */
/* export: get_llc_id */
#include <asm/processor.h>

unsigned int probe(void);
unsigned int probe(void)
{
#ifdef CPTK_PROBE_CONTROL
	return 0;
#else
	return get_llc_id(0);
#endif
}
