/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thread pools per partition (pool.c, include/cpt.h): they follow each
 * table that live.c notifies.
 */
#ifndef CPTK_POOL_H
#define CPTK_POOL_H

#include <linux/types.h>

struct cptab;
struct seq_file;

void cptk_pool_follow(struct cptab *tab);
void cptk_pool_follow_cpu(struct cptab *tab, unsigned int cpu, bool up);
void cptk_pool_stats(struct seq_file *m);
int cptk_pool_stats_lines(void);

#endif /* CPTK_POOL_H */
