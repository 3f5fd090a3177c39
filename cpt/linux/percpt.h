/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-partition memory and locks (percpt.c, include/cpt.h): the locks'
 * lines of /proc/cpt/stats.
 */
#ifndef CPTK_PERCPT_H
#define CPTK_PERCPT_H

struct seq_file;

void cptk_lock_stats(struct seq_file *m);

#endif /* CPTK_PERCPT_H */
