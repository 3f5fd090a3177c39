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
 * consistent cut.  A read walks no queue and turns no IRQ off; it takes
 * the list mutexes of pools, workers and locks in turn.  The buffer is
 * sized before the walk, so that single_open() does not walk again each
 * time its buffer turns out too small (only a set that grew meanwhile
 * does).  Root only: the lines name call sites, and a reader holds the
 * pools' mutex, which a CPU event's callback also takes.
 */
#include <linux/fs.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
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

/* Column lines, and at most this much per pool or worker line. */
#define CPTK_STATS_HEAD		128
#define CPTK_STATS_LINE		(8 + 12 + 2 * 21 + TASK_COMM_LEN + 1)

static int cptk_stats_open(struct inode *inode, struct file *file)
{
	size_t size = CPTK_STATS_HEAD + cptk_lock_stats_size() +
		      (size_t)(cptk_pool_stats_lines() +
			       cptk_worker_stats_lines()) * CPTK_STATS_LINE;

	return single_open_size(file, cptk_stats_show, NULL, size);
}

static const struct proc_ops cptk_stats_ops = {
	.proc_open	= cptk_stats_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= single_release,
};

int cptk_stats_init(void)
{
	cptk_proc_dir = proc_mkdir("cpt", NULL);
	if (!cptk_proc_dir)
		return -ENOMEM;
	if (!proc_create("stats", 0400, cptk_proc_dir, &cptk_stats_ops)) {
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
