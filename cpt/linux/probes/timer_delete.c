// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_TIMER_DELETE: timer_delete() (6.2, 6.1.y), del_timer() gone in 6.16 */
#include <linux/timer.h>

int probe(struct timer_list *t);

#ifdef CPTK_PROBE_CONTROL
int probe(struct timer_list *t)
{
	return t != NULL;
}
#else
int probe(struct timer_list *t)
{
	return timer_delete(t);
}
#endif
