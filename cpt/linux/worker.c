// SPDX-License-Identifier: GPL-2.0
/*
 * A work queue per partition (include/cpt.h, cpt_workers_start()): one
 * kthread_worker per partition, on its partition's node, run by a pool of
 * pool.c (one thread per partition), so that its thread follows the table
 * as every pool does.  Modules cannot give a workqueue its own CPUs on 6.1
 * or 6.12 (apply_workqueue_attrs() is not exported there); a kthread_worker
 * is the queue whose thread is ours to bind.
 *
 * The thread runs the worker's loop itself (cptk_worker_loop()), so that
 * it counts the works it runs, whatever queued them (cpt_queue_work(), a
 * delayed work's timer, kthread_queue_work() on cpt_worker_of()), in the
 * worker's own cache line.  For /proc/cpt/stats each partition also
 * counts the works cpt_queue_work() queued; a read takes no lock of the
 * workers and walks no queue.
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

/*
 * A partition's worker, what cpt_queue_work() gave it, and the works its
 * thread ran (written by that thread alone).
 */
struct cptk_worker {
	struct kthread_worker kw;
	atomic_long_t queued;
	unsigned long run;
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

/*
 * The worker @cpt names, or NULL: as cpt_lock(), a partition modulo the
 * count, so that a cpt_current() of a newer table with more partitions
 * still names one; CPT_ANY the caller's partition; any other negative
 * index is a misuse (libcfs's CFS_CPT_ANY is -1): refused, with a log line
 * (rate-limited) naming the caller.
 */
static struct cptk_worker *cptk_worker(struct cpt_workers *w, int cpt,
				       const char *fn, unsigned long caller)
{
	if (cpt == CPT_ANY)
		cpt = cpt_current();
	if (cpt < 0) {
		pr_warn_ratelimited("%s() from %ps: partition %d is not one (CPT_ANY is %d): refused\n",
				    fn, (void *)caller, cpt, CPT_ANY);
		return NULL;
	}
	return cpt_percpt_obj(w->worker, cptk_percpt_index(w->worker, cpt));
}

/*
 * The function of kthread.c's flush items (kthread_flush_worker(),
 * kthread_flush_work()), which the loop below runs but does not count as
 * works.  It is static there, so it is learnt: a flush of a worker that
 * has no thread yet, run here by hand.
 */
static kthread_work_func_t cptk_flush_fn;

static int cptk_flush_learner(void *kw)
{
	kthread_flush_worker(kw);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

/* Under cptk_workers_lock, once. */
static int cptk_learn_flush_fn(void)
{
	struct kthread_worker kw;
	struct kthread_work *work = NULL;
	struct task_struct *task;

	if (cptk_flush_fn)
		return 0;
	kthread_init_worker(&kw);
	task = kthread_run(cptk_flush_learner, &kw, "cpt_flush_learn");
	if (IS_ERR(task))
		return PTR_ERR(task);
	while (!work) {
		raw_spin_lock_irq(&kw.lock);
		work = list_first_entry_or_null(&kw.work_list,
						struct kthread_work, node);
		if (work)
			list_del_init(&work->node);
		kw.current_work = work;
		raw_spin_unlock_irq(&kw.lock);
		if (!work)
			schedule_timeout_uninterruptible(1);
	}
	cptk_flush_fn = work->func;
	work->func(work);	/* completes the flush: the learner returns */
	kthread_stop(task);
	return 0;
}

/*
 * What kthread_worker_fn() does, with a count: take the first work under
 * the worker's lock and name it current_work there (which
 * kthread_flush_work() and kthread_cancel_work_sync() rely on), run it
 * outside the lock, and sleep when the list is empty, until kthread_stop()
 * from cpt_workers_stop().  Set TASK_INTERRUPTIBLE before looking: a work
 * queued between the look and schedule() finds the thread not running,
 * and its wake-up makes schedule() return.
 */
static int cptk_worker_loop(struct cptk_worker *wk)
{
	struct kthread_worker *kw = &wk->kw;
	struct kthread_work *work;

	raw_spin_lock_irq(&kw->lock);
	kw->task = current;
	raw_spin_unlock_irq(&kw->lock);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		raw_spin_lock_irq(&kw->lock);
		work = list_first_entry_or_null(&kw->work_list,
						struct kthread_work, node);
		if (work)
			list_del_init(&work->node);
		kw->current_work = work;
		raw_spin_unlock_irq(&kw->lock);
		if (work) {
			kthread_work_func_t fn = work->func;

			__set_current_state(TASK_RUNNING);
			fn(work);	/* which may free @work */
			if (fn != cptk_flush_fn)
				WRITE_ONCE(wk->run, wk->run + 1);
		} else {
			schedule();
		}
		cond_resched();
	}
	__set_current_state(TASK_RUNNING);
	raw_spin_lock_irq(&kw->lock);
	kw->task = NULL;
	kw->current_work = NULL;
	raw_spin_unlock_irq(&kw->lock);
	return 0;
}

static int cptk_worker_thread(void *data, int cpt)
{
	struct cpt_workers *w = data;

	return cptk_worker_loop(cpt_percpt_obj(w->worker, cpt));
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
	mutex_lock(&cptk_workers_lock);
	ret = cptk_learn_flush_fn();
	mutex_unlock(&cptk_workers_lock);
	if (ret)
		return ERR_PTR(ret);
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
		wk->run = 0;
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

struct kthread_worker *cpt_worker_of(struct cpt_workers *w, int cpt)
{
	struct cptk_worker *wk = cptk_worker(w, cpt, __func__, _RET_IP_);

	return wk ? &wk->kw : NULL;
}
CPTK_EXPORT(cpt_worker_of);

bool cpt_queue_work(struct cpt_workers *w, int cpt, struct kthread_work *work)
{
	struct cptk_worker *wk = cptk_worker(w, cpt, __func__, _RET_IP_);

	if (!wk || !kthread_queue_work(&wk->kw, work))
		return false;
	atomic_long_inc(&wk->queued);
	return true;
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

/*
 * Disarm the delayed works of @kw whose timer has not fired: a timer that
 * fires after cpt_workers_stop() would queue on a freed worker.  The work
 * leaves the worker's delayed list, and no longer names the worker, as a
 * cancelled work does.  A timer that is running now waits for the lock
 * held here, then moves its work to the work list, which the caller then
 * flushes; so the caller repeats until no delayed work is left.
 *
 * Return: whether a delayed work was left.
 */
static bool cptk_worker_disarm(struct kthread_worker *kw)
{
	struct kthread_delayed_work *dwork, *next;
	bool left;

	raw_spin_lock_irq(&kw->lock);
	list_for_each_entry_safe(dwork, next, &kw->delayed_work_list,
				 work.node) {
		if (!cptk_timer_delete(&dwork->timer))
			continue;	/* firing now: see above */
		list_del_init(&dwork->work.node);
		dwork->work.worker = NULL;
	}
	left = !list_empty(&kw->delayed_work_list);
	raw_spin_unlock_irq(&kw->lock);
	return left;
}

void cpt_workers_stop(struct cpt_workers *w)
{
	struct cptk_worker *wk;
	bool left;
	int cpt;

	if (IS_ERR_OR_NULL(w))
		return;
	mutex_lock(&cptk_workers_lock);
	list_del(&w->node);
	mutex_unlock(&cptk_workers_lock);
	/*
	 * The delayed works not due yet are cancelled; the works queued so
	 * far, and those whose timer fired, run; then each thread returns.
	 */
	do {
		left = false;
		cpt_percpt_for_each(wk, cpt, w->worker)
			left |= cptk_worker_disarm(&wk->kw);
		cpt_workers_flush(w);
	} while (left);
	cpt_threads_stop(w->threads);
	cpt_percpt_free(w->worker);
	kfree(w);
}
CPTK_EXPORT(cpt_workers_stop);

/*
 * The "workers" lines of /proc/cpt/stats: works queued by cpt_queue_work()
 * and works run.  Two counters each, read without a lock.
 */
void cptk_worker_stats(struct seq_file *m)
{
	struct cptk_worker *wk;
	struct cpt_workers *w;
	int cpt;

	mutex_lock(&cptk_workers_lock);
	list_for_each_entry(w, &cptk_workers, node)
		cpt_percpt_for_each(wk, cpt, w->worker)
			seq_printf(m, "workers %d %ld %lu %s\n", cpt,
				   atomic_long_read(&wk->queued),
				   READ_ONCE(wk->run), w->name);
	mutex_unlock(&cptk_workers_lock);
}

/* The lines cptk_worker_stats() writes now, for the buffer's size. */
int cptk_worker_stats_lines(void)
{
	struct cpt_workers *w;
	int n = 0;

	mutex_lock(&cptk_workers_lock);
	list_for_each_entry(w, &cptk_workers, node)
		n += cpt_percpt_number(w->worker);
	mutex_unlock(&cptk_workers_lock);
	return n;
}
