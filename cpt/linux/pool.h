/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thread pools per partition (pool.c, include/cpt.h): they follow each
 * table live.c installs, through cptk_pool_follower (live.h), which
 * main.c hands to live.c before the first table.
 */
#ifndef CPTK_POOL_H
#define CPTK_POOL_H

#include <linux/types.h>

struct cptk_follower;
struct seq_file;

extern const struct cptk_follower cptk_pool_follower;
void cptk_pool_stats(struct seq_file *m);
int cptk_pool_stats_lines(void);

#endif /* CPTK_POOL_H */
