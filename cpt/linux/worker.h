/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work queues per partition (worker.c, include/cpt.h): their lines of
 * /proc/cpt/stats.
 */
#ifndef CPTK_WORKER_H
#define CPTK_WORKER_H

struct seq_file;

void cptk_worker_stats(struct seq_file *m);
int cptk_worker_stats_lines(void);

#endif /* CPTK_WORKER_H */
