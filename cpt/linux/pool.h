/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thread pools per partition (pool.c, include/cpt.h): they follow each
 * table that live.c notifies.
 */
#ifndef CPTK_POOL_H
#define CPTK_POOL_H

struct cptab;
struct seq_file;

void cptk_pool_follow(struct cptab *tab);
void cptk_pool_follow_locked(struct cptab *tab, int dying);
void cptk_pool_stats(struct seq_file *m);
int cptk_pool_stats_lines(void);

#endif /* CPTK_POOL_H */
