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

/*
 * What follows every table live.c installs, beside the consumers'
 * notifier: the thread pools (pool.c, and worker.c's workers, which are
 * pools).  A pool must move to a new table before the consumers hear of
 * it, and leave a CPU going down before the scheduler empties it, so
 * live.c calls these itself:
 *   @follow: from the notification work, before the notifier chain, with
 *	no lock of live.c's held;
 *   @follow_cpu: from the hotplug callbacks, under the hotplug lock and
 *	cptk_live_lock, with the table just installed or NULL (none could
 *	be planned, or it was current already).
 * The lock order is the hotplug lock, then cptk_live_lock, then the pools'
 * own lock (pool.c says how a pool binds its threads under it).  Set once,
 * before cptk_live_start() (main.c): so live.c calls up into no helper by
 * name, and the glue has no call circle.
 */
struct cptk_follower {
	void (*follow)(struct cptab *tab);
	void (*follow_cpu)(struct cptab *tab, unsigned int cpu, bool up);
};

void cptk_live_set_follower(const struct cptk_follower *follower);
bool cptk_in_notifier(void);

int cptk_live_start(int npartitions, const char *pattern, bool include_isolated);
void cptk_live_stop(void);
int cptk_live_replan(const int *npartitions, const char *pattern,
		     const bool *include_isolated);

#endif /* CPTK_LIVE_H */
