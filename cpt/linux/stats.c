// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/cpt/stats: what the helpers of include/cpt.h are doing, one line
 * per partition of each pool, worker set and lock, in the manner of
 * nfsd's pool_stats.  A "#" line names each kind's columns:
 *
 *   # pool cpt threads unbound name
 *   # workers cpt queued run name
 *   # lock cpt holds excl excl_ns site
 *
 * The counters are kept where the hot path already writes (a partition's
 * own lock or worker), never in one line shared by all partitions, and
 * read here without stopping anyone: each is a snapshot, not a
 * consistent cut.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "percpt.h"
#include "pool.h"
#include "stats.h"
#include "worker.h"

static struct proc_dir_entry *cptk_proc_dir;

static int cptk_stats_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# pool cpt threads unbound name\n");
	cptk_pool_stats(m);
	seq_puts(m, "# workers cpt queued run name\n");
	cptk_worker_stats(m);
	seq_puts(m, "# lock cpt holds excl excl_ns site\n");
	cptk_lock_stats(m);
	return 0;
}

int cptk_stats_init(void)
{
	cptk_proc_dir = proc_mkdir("cpt", NULL);
	if (!cptk_proc_dir)
		return -ENOMEM;
	if (!proc_create_single("stats", 0444, cptk_proc_dir,
				cptk_stats_show)) {
		proc_remove(cptk_proc_dir);
		return -ENOMEM;
	}
	return 0;
}

/* Readers are gone once it returns (proc_remove() waits for them). */
void cptk_stats_exit(void)
{
	proc_remove(cptk_proc_dir);
}
