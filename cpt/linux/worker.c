// SPDX-License-Identifier: GPL-2.0
/*
 * A work queue per partition (include/cpt.h, cpt_workers_start()): one
 * kthread_worker per partition, on its partition's node, run by a pool of
 * pool.c (one thread per partition), so that its thread follows the table
 * as every pool does.  Modules cannot give a workqueue its own CPUs on 6.1
 * or 6.12 (apply_workqueue_attrs() is not exported there); a kthread_worker
 * is the queue whose thread is ours to bind.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/printk.h>
#include <linux/slab.h>

#include "cpt.h"
#include "compat.h"

struct cpt_workers {
	struct cpt_percpt *worker;	/* a struct kthread_worker each */
	struct cpt_threads *threads;
};

static int cptk_worker_thread(void *data, int cpt)
{
	struct cpt_workers *w = data;

	/* Runs the works until kthread_stop(), from cpt_workers_stop(). */
	return kthread_worker_fn(cpt_percpt_obj(w->worker, cpt));
}

struct cpt_workers *cpt_workers_start(struct cptab *tab, const char *name)
{
	struct kthread_worker *kw;
	struct cpt_workers *w;
	int cpt, ret;

	if (!tab || !name) {
		pr_warn_ratelimited("cpt_workers_start(): bad argument\n");
		return ERR_PTR(-EINVAL);
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return ERR_PTR(-ENOMEM);
	w->worker = cpt_percpt_alloc(tab, sizeof(*kw));
	if (IS_ERR(w->worker)) {
		ret = PTR_ERR(w->worker);
		goto free_w;
	}
	cpt_percpt_for_each(kw, cpt, w->worker)
		kthread_init_worker(kw);
	w->threads = cpt_threads_start(tab, 1, cptk_worker_thread, w, name);
	if (IS_ERR(w->threads)) {
		ret = PTR_ERR(w->threads);
		goto free_workers;
	}
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
	unsigned int n = cpt_percpt_number(w->worker);

	/* As cpt_lock(): any int names a worker, modulo the count. */
	return cpt_percpt_obj(w->worker, (unsigned int)cpt % n);
}
CPTK_EXPORT(cpt_worker_of);

bool cpt_queue_work(struct cpt_workers *w, int cpt, struct kthread_work *work)
{
	return kthread_queue_work(cpt_worker_of(w, cpt), work);
}
CPTK_EXPORT(cpt_queue_work);

void cpt_workers_flush(struct cpt_workers *w)
{
	struct kthread_worker *kw;
	int cpt;

	cpt_percpt_for_each(kw, cpt, w->worker)
		kthread_flush_worker(kw);
}
CPTK_EXPORT(cpt_workers_flush);

void cpt_workers_stop(struct cpt_workers *w)
{
	if (IS_ERR_OR_NULL(w))
		return;
	/* The works queued so far run; then each thread returns. */
	cpt_workers_flush(w);
	cpt_threads_stop(w->threads);
	cpt_percpt_free(w->worker);
	kfree(w);
}
CPTK_EXPORT(cpt_workers_stop);
