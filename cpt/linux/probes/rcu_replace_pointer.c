// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_RCU_REPLACE_POINTER: rcu_replace_pointer() (5.5), needed */
#include <linux/rcupdate.h>

int *probe(int *p);

#ifdef CPTK_PROBE_CONTROL
int *probe(int *p)
{
	return p;
}
#else
static int __rcu *probe_ptr;

int *probe(int *p)
{
	return rcu_replace_pointer(probe_ptr, p, true);
}
#endif
