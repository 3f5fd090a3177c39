/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/cpt/stats (stats.c): a line per partition of each thread pool,
 * worker set and lock that modules made with cpt's helpers.  Each helper
 * writes its own lines, under its own list's lock: cptk_pool_stats()
 * (pool.h), cptk_worker_stats() (worker.h), cptk_lock_stats() (percpt.h).
 */
#ifndef CPTK_STATS_H
#define CPTK_STATS_H

int cptk_stats_init(void);
void cptk_stats_exit(void);

#endif /* CPTK_STATS_H */
