/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table in force and its lifetime: planned at load, replaced by sysctl
 * writes and CPU hotplug, freed when its last holder lets go (live.c).
 */
#ifndef CPTK_LIVE_H
#define CPTK_LIVE_H

#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

struct cptab;

/* The table in force; NULL before cptk_live_start() and after stop. */
extern struct cptab __rcu *cptk_cur;

/* The table in force, for a caller inside rcu_read_lock(). */
static inline struct cptab *cptk_live_in_force(void)
{
	return rcu_dereference(cptk_cur);
}

struct cptab *cptk_live_get(void);
void cptk_live_put(struct cptab *tab);
int cptk_live_register(struct notifier_block *nb);
int cptk_live_unregister(struct notifier_block *nb);
bool cptk_in_notifier(void);

int cptk_live_start(int npartitions, const char *pattern, bool include_isolated);
void cptk_live_stop(void);
int cptk_live_replan(const int *npartitions, const char *pattern,
		     const bool *include_isolated);

#endif /* CPTK_LIVE_H */
