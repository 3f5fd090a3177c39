// SPDX-License-Identifier: GPL-2.0
/*
 * A work queue per partition (include/cpt.h, cpt_workers_start()): one
 * kthread_worker per partition, on its partition's node, run by a pool of
 * pool.c (one thread per partition), so that its thread follows the table
 * as every pool does.  Modules cannot give a workqueue its own CPUs on 6.1
 * or 6.12 (apply_workqueue_attrs() is not exported there); a kthread_worker
 * is the queue whose thread is ours to bind.
 *
 * For /proc/cpt/stats each partition counts the works cpt_queue_work()
 * queued, next to its worker (the cache line its queuers take the
 * worker's lock in anyway); the works run are those queued less those
 * still waiting or running, counted at the read under the worker's lock,
 * so that the worker's own path carries no counter at all.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cpt.h"
#include "compat.h"
#include "percpt.h"
#include "worker.h"

/* A partition's worker, and what cpt_queue_work() gave it. */
struct cptk_worker {
	struct kthread_worker kw;
	atomic_long_t queued;
};

/* @node: on cptk_workers, for /proc/cpt/stats. */
struct cpt_workers {
	struct cpt_percpt *worker;	/* a struct cptk_worker each */
	struct cpt_threads *threads;
	struct list_head node;
	char name[TASK_COMM_LEN];
};

static LIST_HEAD(cptk_workers);
static DEFINE_MUTEX(cptk_workers_lock);

/* As cpt_lock(): any int names a worker, modulo the count. */
static struct cptk_worker *cptk_worker(struct cpt_workers *w, int cpt)
{
	return cpt_percpt_obj(w->worker, cptk_percpt_index(w->worker, cpt));
}

static int cptk_worker_thread(void *data, int cpt)
{
	struct cpt_workers *w = data;

	/* Runs the works until kthread_stop(), from cpt_workers_stop(). */
	return kthread_worker_fn(&cptk_worker(w, cpt)->kw);
}

struct cpt_workers *cpt_workers_start(struct cptab *tab, const char *name)
{
	struct cptk_worker *wk;
	struct cpt_workers *w;
	int cpt, ret;

	if (!tab || !name) {
		pr_warn_ratelimited("cpt_workers_start(): bad argument\n");
		return ERR_PTR(-EINVAL);
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return ERR_PTR(-ENOMEM);
	w->worker = cpt_percpt_alloc(tab, sizeof(*wk));
	if (IS_ERR(w->worker)) {
		ret = PTR_ERR(w->worker);
		goto free_w;
	}
	cpt_percpt_for_each(wk, cpt, w->worker) {
		kthread_init_worker(&wk->kw);
		atomic_long_set(&wk->queued, 0);
	}
	strscpy(w->name, name, sizeof(w->name));
	w->threads = cpt_threads_start(tab, 1, cptk_worker_thread, w, name);
	if (IS_ERR(w->threads)) {
		ret = PTR_ERR(w->threads);
		goto free_workers;
	}
	mutex_lock(&cptk_workers_lock);
	list_add_tail(&w->node, &cptk_workers);
	mutex_unlock(&cptk_workers_lock);
	return w;

free_workers:
	cpt_percpt_free(w->worker);
free_w:
	kfree(w);
	return ERR_PTR(ret);
}
CPTK_EXPORT(cpt_workers_start);

int cpt_workers_number(const struct cpt_workers *w)
{
	return cpt_percpt_number(w->worker);
}
CPTK_EXPORT(cpt_workers_number);

struct kthread_worker *cpt_worker_of(struct cpt_workers *w, int cpt)
{
	return &cptk_worker(w, cpt)->kw;
}
CPTK_EXPORT(cpt_worker_of);

/*
 * Counted before it is queued, so that a work on the list is always
 * counted (the stats' "run" never goes below what has run), and taken
 * back when it was pending already.
 */
bool cpt_queue_work(struct cpt_workers *w, int cpt, struct kthread_work *work)
{
	struct cptk_worker *wk = cptk_worker(w, cpt);

	atomic_long_inc(&wk->queued);
	if (kthread_queue_work(&wk->kw, work))
		return true;
	atomic_long_dec(&wk->queued);
	return false;
}
CPTK_EXPORT(cpt_queue_work);

void cpt_workers_flush(struct cpt_workers *w)
{
	struct cptk_worker *wk;
	int cpt;

	cpt_percpt_for_each(wk, cpt, w->worker)
		kthread_flush_worker(&wk->kw);
}
CPTK_EXPORT(cpt_workers_flush);

void cpt_workers_stop(struct cpt_workers *w)
{
	if (IS_ERR_OR_NULL(w))
		return;
	mutex_lock(&cptk_workers_lock);
	list_del(&w->node);
	mutex_unlock(&cptk_workers_lock);
	/* The works queued so far run; then each thread returns. */
	cpt_workers_flush(w);
	cpt_threads_stop(w->threads);
	cpt_percpt_free(w->worker);
	kfree(w);
}
CPTK_EXPORT(cpt_workers_stop);

/* Works of @wk waiting or running now (its lock, as kthread.c takes it). */
static long cptk_worker_pending(struct kthread_worker *kw)
{
	struct kthread_work *work;
	long n = 0;

	raw_spin_lock_irq(&kw->lock);
	list_for_each_entry(work, &kw->work_list, node)
		n++;
	n += kw->current_work != NULL;
	raw_spin_unlock_irq(&kw->lock);
	return n;
}

/* The "workers" lines of /proc/cpt/stats: works queued and run. */
void cptk_worker_stats(struct seq_file *m)
{
	struct cptk_worker *wk;
	struct cpt_workers *w;
	long queued, run;
	int cpt;

	mutex_lock(&cptk_workers_lock);
	list_for_each_entry(w, &cptk_workers, node) {
		cpt_percpt_for_each(wk, cpt, w->worker) {
			queued = atomic_long_read(&wk->queued);
			/* works queued by kthread_queue_work() itself: not ours */
			run = max(queued - cptk_worker_pending(&wk->kw), 0L);
			seq_printf(m, "workers %d %ld %ld %s\n", cpt, queued, run,
				   w->name);
		}
	}
	mutex_unlock(&cptk_workers_lock);
}
