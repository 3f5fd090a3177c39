/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-partition memory and locks (percpt.c, include/cpt.h): the rule by
 * which any int names a partition of a per-partition array, and the
 * locks' lines of /proc/cpt/stats.
 */
#ifndef CPTK_PERCPT_H
#define CPTK_PERCPT_H

#include "cpt.h"

struct seq_file;

/*
 * The partition of @pc that @cpt names: modulo the count, so that a
 * cpt_current() of a newer table with more partitions still names one
 * (cpt.h: cpt_lock(), cpt_worker_of()).
 */
static inline int cptk_percpt_index(const struct cpt_percpt *pc, int cpt)
{
	return (unsigned int)cpt % (unsigned int)pc->count;
}

void cptk_lock_stats(struct seq_file *m);
size_t cptk_lock_stats_size(void);

#endif /* CPTK_PERCPT_H */
