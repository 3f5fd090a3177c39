// SPDX-License-Identifier: GPL-2.0
/*
 * cpt_bench: benchmarks of cpt in a running kernel, for `make bench`
 * (tests/bench/guest-bench.sh boots it in QEMU).  The module runs one
 * benchmark at load time, chosen by the parameter bench=, prints its
 * results as "cpt_bench: RESULT tag=TAG bench=NAME key=value ..." lines
 * and stays loaded, doing nothing, until rmmod.
 *
 * bench=lookup  cost of the current-CPU-to-partition lookup: calls= calls
 *               (in rounds= rounds, the best round kept) of an empty loop,
 *               raw_smp_processor_id(), this_cpu_read() of a per-CPU int,
 *               cpt_current(), cptab_current() on a held table and
 *               cptab_of_cpu() of the held table and a CPU number
 *               already in a register;
 *               one "op=" line each,
 *               in picoseconds per call.
 * bench=svc     a metadata-server model: one request queue, lock and
 *               wait queue per partition, threads= service kthreads per
 *               CPU of each partition, bound to the partition, and one
 *               submitter kthread bound to each online CPU that keeps
 *               window= requests in flight to its own partition's queue.
 *               A request is one cache line that the submitter writes and
 *               the server hashes (work= jhash2 passes over 64 bytes).
 *               Runs duration_ms= and reports the requests served per
 *               second, and the number of requests waiting in the queues
 *               (sampled every 10 ms).  impl=toolkit (the default) builds
 *               the service on cpt.h's helpers: cpt_percpt_alloc() queues,
 *               a cpt_lock, a cpt_threads_start_cpus() pool, and
 *               cpt_lock_current() to pick a queue; it is the example
 *               consumer for kernel developers.  impl=hand is the same
 *               service without them (its own array, a spinlock per queue
 *               or with lock=mutex a mutex, kthreads bound with
 *               cptab_bind_current()), as it was written before the
 *               helpers.  (lock=mutex is also a diagnostic: in QEMU TCG,
 *               spinning on a lock whose holder's vCPU the host has
 *               descheduled is a cost that real hardware lacks.)
 * bench=mem     what the table in force occupies: ksize() of every
 *               allocation of the core table and of the glue (struct
 *               cptab, its partitions and their cpumasks), so that
 *               plan-bench's model (tests/bench/plan_bench.c) can be
 *               checked against a real kernel.
 * bench=work    what /proc/cpt/stats' counter adds to a work: calls=
 *               (at most 100000) works queued by cpt_queue_work() and by
 *               kthread_queue_work() on the same worker, while it is held,
 *               then run; best of rounds=, ps per work for each (under
 *               icount, 1000 ps is one instruction).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jhash.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/wait.h>

#include "cpt.h"
/* bench=mem walks the table's allocations: it needs the glue's layout. */
#include "../../cpt/linux/tab.h"

static char *bench = "lookup";
module_param(bench, charp, 0444);
MODULE_PARM_DESC(bench, "lookup, svc or mem");

static char *tag = "";
module_param(tag, charp, 0444);
MODULE_PARM_DESC(tag, "label copied into the RESULT lines");

static ulong calls = 10000000;
module_param(calls, ulong, 0444);
MODULE_PARM_DESC(calls, "lookup: calls per operation, over all rounds");

static uint rounds = 5;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "lookup: rounds (the fastest is reported)");

static uint duration_ms = 3000;
module_param(duration_ms, uint, 0444);
MODULE_PARM_DESC(duration_ms, "svc: measured run time");

#define SVC_MAX_WINDOW	32
static uint window = 8;
module_param(window, uint, 0444);
MODULE_PARM_DESC(window, "svc: requests in flight per submitter (1-32)");

static uint work = 4;
module_param(work, uint, 0444);
MODULE_PARM_DESC(work, "svc: jhash2 passes over a request's 64 bytes");

static uint threads = 1;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "svc: service threads per online CPU of a partition");

static char *lock = "spin";
module_param(lock, charp, 0444);
MODULE_PARM_DESC(lock, "svc, impl=hand: the queue lock, spin or mutex");

static char *impl = "toolkit";
module_param(impl, charp, 0444);
MODULE_PARM_DESC(impl, "svc: toolkit (on cpt.h's helpers) or hand (without)");

static const char *bench_tag(void)
{
	return tag ?: "";
}

/* ---- lookup --------------------------------------------------------------- */

enum { LK_EMPTY, LK_SMP_ID, LK_THIS_CPU, LK_CPT_CURRENT, LK_CPTAB_CURRENT,
       LK_CPTAB_OF_CPU, LK_NR };

static const char * const lk_name[LK_NR] = {
	[LK_EMPTY] = "empty_loop",
	[LK_SMP_ID] = "raw_smp_processor_id",
	[LK_THIS_CPU] = "this_cpu_read",
	[LK_CPT_CURRENT] = "cpt_current",
	[LK_CPTAB_CURRENT] = "cptab_current",
	[LK_CPTAB_OF_CPU] = "cptab_of_cpu",
};

static DEFINE_PER_CPU(int, bench_pcpu);
static long lk_sink;

/*
 * @v, which the compiler must take as new on each pass (no instruction):
 * so that a lookup of a fixed argument is not hoisted out of the loop.
 */
#define lk_opaque(v) ({ typeof(v) __v = (v); OPTIMIZER_HIDE_VAR(__v); __v; })

/* A loop of its own per operation: no branch on @op inside the loop. */
#define LK_CASE(op, expr)				\
	case op:					\
		for (i = 0; i < n; i++) {		\
			sum += (expr);			\
			OPTIMIZER_HIDE_VAR(sum);	\
		}					\
		break

/*
 * @n calls of operation @op; returns the nanoseconds they took.  Each
 * result goes into a sum that the compiler must keep in a register
 * (OPTIMIZER_HIDE_VAR), so that no call is hoisted or merged.
 */
static noinline u64 lk_loop(int op, unsigned long n, const struct cptab *tab)
{
	int cpu = raw_smp_processor_id();
	unsigned long i;
	long sum = 0;
	u64 t0;

	t0 = ktime_get_ns();
	switch (op) {
	LK_CASE(LK_EMPTY, i);
	LK_CASE(LK_SMP_ID, raw_smp_processor_id());
	LK_CASE(LK_THIS_CPU, this_cpu_read(bench_pcpu));
	LK_CASE(LK_CPT_CURRENT, cpt_current());
	LK_CASE(LK_CPTAB_CURRENT, cptab_current(tab));
	LK_CASE(LK_CPTAB_OF_CPU, cptab_of_cpu(tab, lk_opaque(cpu)));
	}
	t0 = ktime_get_ns() - t0;
	WRITE_ONCE(lk_sink, lk_sink + sum);
	return t0;
}

/* Calls between two cond_resched(): a fraction of a second even in TCG. */
#define LK_CHUNK	100000UL

static int bench_lookup(void)
{
	u64 best[LK_NR];
	unsigned long per_round, done;
	struct cptab *tab;
	unsigned int r;
	int op, cpu;

	if (!rounds || calls < rounds)
		return -EINVAL;
	per_round = calls / rounds;
	for_each_possible_cpu(cpu)
		per_cpu(bench_pcpu, cpu) = cpu;
	tab = cpt_get();
	for (op = 0; op < LK_NR; op++)
		best[op] = U64_MAX;
	/* Rounds interleave the operations, so that a slow spell of the host
	 * hits all of them alike; the fastest round of each counts. */
	for (r = 0; r < rounds; r++) {
		for (op = 0; op < LK_NR; op++) {
			u64 ns = 0;

			for (done = 0; done < per_round; done += LK_CHUNK) {
				ns += lk_loop(op, min(LK_CHUNK, per_round - done),
					      tab);
				cond_resched();
			}
			best[op] = min(best[op], ns);
		}
	}
	cpt_put(tab);
	for (op = 0; op < LK_NR; op++)
		pr_info("RESULT tag=%s bench=lookup op=%s calls=%lu rounds=%u best_round_ns=%llu ps_per_call=%llu\n",
			bench_tag(), lk_name[op], per_round, rounds, best[op],
			div64_u64(best[op] * 1000, per_round));
	return 0;
}

/* ---- work ----------------------------------------------------------------- */

/*
 * What the statistics' counter costs a work: @calls works queued to
 * partition 0's worker of a cpt_workers_start() set, through
 * cpt_queue_work() (which counts it) and through kthread_queue_work() on
 * cpt_worker_of() (which does not), while a first work holds the worker
 * so that the queueing alone is timed; then the time the worker takes to
 * run them.  Under icount a nanosecond is an instruction: the difference
 * of the two queue figures is what the counter adds.
 */
struct wb_gate {
	struct kthread_work work;
	struct completion go;
};

static void wb_gate_fn(struct kthread_work *work)
{
	wait_for_completion(&container_of(work, struct wb_gate, work)->go);
}

static void wb_nop(struct kthread_work *work)
{
}

/* Queue @n of @items one way or the other; ns to queue, ns to run. */
static void wb_round(struct cpt_workers *w, struct kthread_work *items,
		     unsigned long n, bool counted, u64 *queue_ns, u64 *run_ns)
{
	struct kthread_worker *kw = cpt_worker_of(w, 0);
	struct wb_gate gate;
	unsigned long i;
	u64 t0;

	kthread_init_work(&gate.work, wb_gate_fn);
	init_completion(&gate.go);
	cpt_queue_work(w, 0, &gate.work);
	for (i = 0; i < n; i++)
		kthread_init_work(&items[i], wb_nop);
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		if (counted)
			cpt_queue_work(w, 0, &items[i]);
		else
			kthread_queue_work(kw, &items[i]);
	}
	*queue_ns = ktime_get_ns() - t0;
	t0 = ktime_get_ns();
	complete(&gate.go);
	kthread_flush_worker(kw);
	*run_ns = ktime_get_ns() - t0;
}

static int bench_work(void)
{
	u64 best_q[2] = { U64_MAX, U64_MAX }, best_r[2] = { U64_MAX, U64_MAX };
	unsigned long n = min(calls, 100000UL);
	struct kthread_work *items;
	struct cpt_workers *w;
	struct cptab *tab;
	unsigned int r;
	int k;

	items = kvcalloc(n, sizeof(*items), GFP_KERNEL);
	if (!items)
		return -ENOMEM;
	tab = cpt_get();
	w = cpt_workers_start(tab, "cpt_bw");
	cpt_put(tab);
	if (IS_ERR(w)) {
		kvfree(items);
		return PTR_ERR(w);
	}
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < 2; k++) {
			u64 q, run;

			wb_round(w, items, n, k, &q, &run);
			best_q[k] = min(best_q[k], q);
			best_r[k] = min(best_r[k], run);
		}
	}
	cpt_workers_stop(w);
	kvfree(items);
	for (k = 0; k < 2; k++)
		pr_info("RESULT tag=%s bench=work op=%s works=%lu rounds=%u queue_ps_per_work=%llu run_ps_per_work=%llu\n",
			bench_tag(), k ? "cpt_queue_work" : "kthread_queue_work",
			n, rounds, div64_u64(best_q[k] * 1000, n),
			div64_u64(best_r[k] * 1000, n));
	return 0;
}

/* ---- svc ------------------------------------------------------------------ */

/*
 * Two builds of one service.  impl=toolkit is the example consumer of
 * cpt.h's service helpers: its queues are a cpt_percpt_alloc() array, its
 * locks a cpt_lock, its servers a cpt_threads_start_cpus() pool, and a
 * submitter locks and finds its queue with cpt_lock_current(); it has no
 * code of its own for placement, locking or binding.  impl=hand is the same service
 * written without them (a kcalloc'ed array, a spinlock or mutex per queue,
 * kthreads bound with cptab_bind_current()), for comparing the two in one
 * run.  Both share the queue itself, the submitters (the load, one kthread
 * bound to each online CPU) and the measurement.
 */
struct svc_sub;

/* A request: one cache line, written by the submitter, hashed by a server. */
struct svc_req {
	struct list_head link;
	struct svc_sub *sub;
	int busy;
	u32 key;
	u32 result;
	u32 payload[16];
} ____cacheline_aligned;

/*
 * One partition's queue and idle servers.  @lock and @mutex: impl=hand
 * only (impl=toolkit locks with svc_lk).
 */
struct svc_part {
	spinlock_t lock;
	struct mutex mutex;
	struct list_head queue;
	unsigned int queued;
	unsigned long enqueued;	/* statistics, under the lock */
	wait_queue_head_t waitq;
} ____cacheline_aligned_in_smp;

struct svc_sub {
	struct task_struct *task;
	struct svc_part *part;	/* impl=hand: its partition's queue */
	int cpu;
	u32 seq;
	atomic_t inflight;
	wait_queue_head_t waitq;
	struct svc_req req[SVC_MAX_WINDOW];
};

/* impl=hand: a server thread of its own. */
struct svc_srv {
	struct task_struct *task;
	struct svc_part *part;
	int cpt;
	int bind_err;
	unsigned long served;
} ____cacheline_aligned_in_smp;

enum svc_lock_kind { SVC_SPIN, SVC_MUTEX, SVC_CPT_LOCK };

static struct cptab *svc_tab;
static bool svc_go, svc_stop, svc_toolkit;
static enum svc_lock_kind svc_lock_kind;
static DECLARE_WAIT_QUEUE_HEAD(svc_startq);

/* impl=toolkit: the service, all of it made by cpt's helpers. */
static struct cpt_percpt *svc_queues;	/* a struct svc_part each */
static struct cpt_lock *svc_lk;
static struct cpt_threads *svc_pool;
static DEFINE_PER_CPU(unsigned long, svc_served);

/* impl=hand: the service written without them. */
static struct svc_part *svc_parts;
static struct svc_srv *svc_srvs;
static int svc_nsrv;

static int svc_nparts(void)
{
	return cptab_number(svc_tab);
}

static struct svc_part *svc_part_of(int cpt)
{
	return svc_toolkit ? cpt_percpt_obj(svc_queues, cpt) : &svc_parts[cpt];
}

/* After the run: wait for kthread_stop() without using the CPU. */
static void svc_park(void)
{
	for (;;) {
		set_current_state(TASK_IDLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

static u32 svc_work(const struct svc_req *req)
{
	u32 h = req->key;
	unsigned int i;

	for (i = 0; i < work; i++)
		h = jhash2(req->payload, ARRAY_SIZE(req->payload), h);
	return h;
}

/* The queue operations, under the partition's lock. */
static struct svc_req *svc_dequeue(struct svc_part *part)
{
	struct svc_req *req;

	req = list_first_entry_or_null(&part->queue, struct svc_req, link);
	if (req) {
		list_del(&req->link);
		part->queued--;
	}
	return req;
}

static void svc_enqueue(struct svc_part *part, struct svc_req *req)
{
	list_add_tail(&req->link, &part->queue);
	part->queued++;
	part->enqueued++;
}

/*
 * The queue operations under the lock of the build in use: partition
 * @cpt's cpt_lock (impl=toolkit), or the queue's spinlock or mutex.  Each
 * way locks and unlocks in one block, as sparse wants it.
 */
static struct svc_req *svc_take(struct svc_part *part, int cpt)
{
	struct svc_req *req;

	if (svc_lock_kind == SVC_CPT_LOCK) {
		cpt_lock(svc_lk, cpt);
		req = svc_dequeue(part);
		cpt_unlock(svc_lk, cpt);
	} else if (svc_lock_kind == SVC_MUTEX) {
		mutex_lock(&part->mutex);
		req = svc_dequeue(part);
		mutex_unlock(&part->mutex);
	} else {
		spin_lock(&part->lock);
		req = svc_dequeue(part);
		spin_unlock(&part->lock);
	}
	return req;
}

/*
 * impl=toolkit's request path: the submitter's own partition, locked with
 * cpt_lock_current(), whose answer also indexes the queues (one table
 * made both).  Returns the queue it used.
 */
static struct svc_part *svc_put_current(struct svc_req *req)
{
	struct svc_part *part;
	int cpt;

	cpt = cpt_lock_current(svc_lk);
	part = cpt_percpt_obj(svc_queues, cpt);
	svc_enqueue(part, req);
	cpt_unlock(svc_lk, cpt);
	return part;
}

/* impl=hand's: @part is the submitter's queue, under its own lock. */
static void svc_put(struct svc_part *part, struct svc_req *req)
{
	if (svc_lock_kind == SVC_MUTEX) {
		mutex_lock(&part->mutex);
		svc_enqueue(part, req);
		mutex_unlock(&part->mutex);
	} else {
		spin_lock(&part->lock);
		svc_enqueue(part, req);
		spin_unlock(&part->lock);
	}
}

/*
 * The server loop of partition @cpt, for both builds: returns after the
 * run, having counted each request served in *@served.
 */
static void svc_serve(int cpt, unsigned long *served, bool percpu)
{
	struct svc_part *part = svc_part_of(cpt);
	struct svc_req *req;
	struct svc_sub *sub;

	wait_event_idle(svc_startq, READ_ONCE(svc_go));
	while (!READ_ONCE(svc_stop)) {
		req = svc_take(part, cpt);
		if (!req) {
			wait_event_idle_exclusive(part->waitq,
						  READ_ONCE(part->queued) ||
						  READ_ONCE(svc_stop));
			continue;
		}
		req->result = svc_work(req);
		sub = req->sub;
		if (percpu)
			this_cpu_inc(svc_served);
		else
			WRITE_ONCE(*served, *served + 1);
		/*
		 * The slot is free again, then the window has room.  A full
		 * submitter sleeps until half its window has come back: one
		 * wake-up per window / 2 requests, as a client with several
		 * RPCs in flight.
		 */
		smp_store_release(&req->busy, 0);
		if (atomic_dec_return(&sub->inflight) <= (int)window / 2 &&
		    wq_has_sleeper(&sub->waitq))
			wake_up(&sub->waitq);
		cond_resched();
	}
}

/* impl=toolkit: the function of the pool's threads. */
static int svc_pool_server(void *data, int cpt)
{
	svc_serve(cpt, NULL, true);
	svc_park();
	return 0;
}

/* impl=hand: a server thread, bound by itself. */
static int svc_hand_server(void *arg)
{
	struct svc_srv *srv = arg;

	srv->bind_err = cptab_bind_current(svc_tab, srv->cpt);
	svc_serve(srv->cpt, &srv->served, false);
	svc_park();
	return 0;
}

static int svc_submitter(void *arg)
{
	struct svc_sub *sub = arg;
	struct svc_part *part = sub->part;
	struct svc_req *req;
	unsigned int slot, i;

	wait_event_idle(svc_startq, READ_ONCE(svc_go));
	while (!READ_ONCE(svc_stop)) {
		if (atomic_read(&sub->inflight) >= (int)window) {
			wait_event_idle(sub->waitq,
					atomic_read(&sub->inflight) <=
						(int)window / 2 ||
					READ_ONCE(svc_stop));
			continue;
		}
		for (slot = 0; slot < window; slot++)
			if (!smp_load_acquire(&sub->req[slot].busy))
				break;
		if (slot == window) {
			cond_resched();
			continue;
		}
		req = &sub->req[slot];
		req->busy = 1;
		req->key = ++sub->seq;
		for (i = 0; i < ARRAY_SIZE(req->payload); i++)
			req->payload[i] = req->key * (i + 1) ^ sub->cpu;
		atomic_inc(&sub->inflight);

		if (svc_toolkit)
			part = svc_put_current(req);
		else
			svc_put(part, req);
		if (wq_has_sleeper(&part->waitq))
			wake_up(&part->waitq);
		cond_resched();
	}
	svc_park();
	return 0;
}

static void svc_init_part(struct svc_part *part)
{
	spin_lock_init(&part->lock);
	mutex_init(&part->mutex);
	INIT_LIST_HEAD(&part->queue);
	init_waitqueue_head(&part->waitq);
}

/* impl=toolkit: queues, locks and servers, from cpt's helpers. */
static int svc_toolkit_start(void)
{
	struct cpt_percpt *queues;
	struct cpt_threads *pool;
	struct svc_part *part;
	struct cpt_lock *lk;
	int cpt;

	queues = cpt_percpt_alloc(svc_tab, sizeof(struct svc_part));
	if (IS_ERR(queues))
		return PTR_ERR(queues);
	svc_queues = queues;
	cpt_percpt_for_each(part, cpt, svc_queues)
		svc_init_part(part);
	lk = cpt_lock_alloc(svc_tab);
	if (IS_ERR(lk))
		return PTR_ERR(lk);
	svc_lk = lk;
	svc_nsrv = 0;
	for (cpt = 0; cpt < svc_nparts(); cpt++)
		svc_nsrv += threads *
			    cpumask_weight(cptab_cpumask(svc_tab, cpt));
	pool = cpt_threads_start_cpus(svc_tab, threads, svc_pool_server, NULL,
				      "cptb_tk");
	if (IS_ERR(pool))
		return PTR_ERR(pool);
	svc_pool = pool;
	if (cpt_threads_unbound(svc_pool)) {
		pr_err("%d servers unbound\n", cpt_threads_unbound(svc_pool));
		return -EIO;
	}
	return 0;
}

static void svc_toolkit_stop(void)
{
	cpt_threads_stop(svc_pool);
	svc_pool = NULL;
	cpt_lock_free(svc_lk);
	svc_lk = NULL;
	cpt_percpt_free(svc_queues);
	svc_queues = NULL;
}

/* impl=hand: threads= server kthreads per online CPU of each partition. */
static int svc_hand_start(void)
{
	struct task_struct *t;
	int p, i, s = 0;

	svc_nsrv = 0;
	for (p = 0; p < svc_nparts(); p++)
		svc_nsrv += cptab_weight(svc_tab, p) * threads;
	svc_parts = kcalloc(svc_nparts(), sizeof(*svc_parts), GFP_KERNEL);
	svc_srvs = kcalloc(svc_nsrv, sizeof(*svc_srvs), GFP_KERNEL);
	if (!svc_parts || !svc_srvs)
		return -ENOMEM;
	for (p = 0; p < svc_nparts(); p++)
		svc_init_part(&svc_parts[p]);
	for (p = 0; p < svc_nparts(); p++) {
		for (i = 0; i < cptab_weight(svc_tab, p) * (int)threads; i++, s++) {
			svc_srvs[s].part = &svc_parts[p];
			svc_srvs[s].cpt = p;
			t = kthread_create(svc_hand_server, &svc_srvs[s],
					   "cptb_srv/%d:%d", p, i);
			if (IS_ERR(t))
				return PTR_ERR(t);
			svc_srvs[s].task = t;
			wake_up_process(t);
		}
	}
	return 0;
}

/* Unstarted threads exit at kthread_stop() without running. */
static int svc_hand_stop(void)
{
	int s, bind_err = 0;

	for (s = 0; svc_srvs && s < svc_nsrv; s++) {
		if (!svc_srvs[s].task)
			continue;
		kthread_stop(svc_srvs[s].task);
		if (svc_srvs[s].bind_err)
			bind_err = svc_srvs[s].bind_err;
	}
	kfree(svc_srvs);
	svc_srvs = NULL;
	kfree(svc_parts);
	svc_parts = NULL;
	if (bind_err)
		pr_err("cptab_bind_current() failed: %d\n", bind_err);
	return bind_err;
}

/* Requests served by partition @cpt's servers so far. */
static unsigned long svc_served_by(int cpt)
{
	unsigned long n = 0;
	int cpu, s;

	if (svc_toolkit) {
		/* Each server runs on its partition's CPUs only. */
		for_each_online_cpu(cpu)
			if (cptab_of_cpu(svc_tab, cpu) == cpt)
				n += READ_ONCE(per_cpu(svc_served, cpu));
		return n;
	}
	for (s = 0; s < svc_nsrv; s++)
		if (svc_srvs[s].cpt == cpt)
			n += READ_ONCE(svc_srvs[s].served);
	return n;
}

static int svc_parse(void)
{
	if (!window || window > SVC_MAX_WINDOW || !threads || !duration_ms)
		return -EINVAL;
	if (!strcmp(impl, "toolkit"))
		svc_toolkit = true;
	else if (!strcmp(impl, "hand"))
		svc_toolkit = false;
	else
		return -EINVAL;
	if (svc_toolkit)
		svc_lock_kind = SVC_CPT_LOCK;
	else if (!strcmp(lock, "mutex"))
		svc_lock_kind = SVC_MUTEX;
	else if (!strcmp(lock, "spin"))
		svc_lock_kind = SVC_SPIN;
	else
		return -EINVAL;
	return 0;
}

static const char *svc_lock_name(void)
{
	return svc_lock_kind == SVC_CPT_LOCK ? "cpt_lock" :
	       svc_lock_kind == SVC_MUTEX ? "mutex" : "spin";
}

static int bench_svc(void)
{
	struct svc_sub **subs = NULL;
	unsigned long served, min_part = ULONG_MAX, max_part = 0, queued = 0;
	unsigned int samples = 0;
	bool queues;
	int nparts, nsub = 0, p, i, cpu, ret, err;
	u64 t0, t1;

	ret = svc_parse();
	if (ret) {
		pr_err("svc: bad impl=%s, lock=%s, window=, threads= or duration_ms=\n",
		       impl, lock);
		return ret;
	}
	svc_go = false;
	svc_stop = false;
	for_each_possible_cpu(cpu)
		per_cpu(svc_served, cpu) = 0;
	svc_tab = cpt_get();
	nparts = svc_nparts();
	subs = kcalloc(nr_cpu_ids, sizeof(*subs), GFP_KERNEL);
	if (!subs) {
		ret = -ENOMEM;
		goto stop;
	}
	ret = svc_toolkit ? svc_toolkit_start() : svc_hand_start();
	if (ret)
		goto stop;

	/* Submitters: the load, one per online CPU, bound to it. */
	for_each_online_cpu(cpu) {
		struct task_struct *t;
		struct svc_sub *sub;
		/* Excluded by cpu_pattern: as cptab_current() there. */
		int cpt = cptab_of_cpu(svc_tab, cpu) < 0 ? cpu % nparts :
			  cptab_of_cpu(svc_tab, cpu);

		sub = kzalloc_node(sizeof(*sub), GFP_KERNEL, cpu_to_node(cpu));
		if (!sub) {
			ret = -ENOMEM;
			goto stop;
		}
		subs[nsub++] = sub;
		sub->cpu = cpu;
		sub->part = svc_part_of(cpt);
		init_waitqueue_head(&sub->waitq);
		for (i = 0; i < SVC_MAX_WINDOW; i++)
			sub->req[i].sub = sub;
		t = kthread_create_on_node(svc_submitter, sub, cpu_to_node(cpu),
					   "cptb_sub/%d", cpu);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			goto stop;
		}
		/* Affinity changes hold the hotplug lock (cpt/linux/pool.c). */
		cpus_read_lock();
		kthread_bind(t, cpu);
		cpus_read_unlock();
		sub->task = t;
	}
	for (i = 0; i < nsub; i++)
		wake_up_process(subs[i]->task);
	/* Let the servers bind and migrate before the clock starts. */
	msleep(200);

	WRITE_ONCE(svc_go, true);
	t0 = ktime_get_ns();
	wake_up_all(&svc_startq);
	/* Sample the queues every 10 ms: are the servers kept busy? */
	do {
		msleep(10);
		for (p = 0; p < nparts; p++)
			queued += READ_ONCE(svc_part_of(p)->queued);
		samples++;
	} while (ktime_get_ns() - t0 < (u64)duration_ms * NSEC_PER_MSEC);
	t1 = ktime_get_ns();
	for (served = 0, p = 0; p < nparts; p++) {
		unsigned long part_served = svc_served_by(p);

		served += part_served;
		min_part = min(min_part, part_served);
		max_part = max(max_part, part_served);
	}
	pr_info("RESULT tag=%s bench=svc impl=%s parts=%d cpus=%d servers=%d lock=%s window=%u work=%u ns=%llu requests=%lu rps=%llu part_min=%lu part_max=%lu queued_avg=%lu\n",
		bench_tag(), impl, nparts, nsub,
		svc_nsrv, svc_lock_name(),
		window, work, t1 - t0, served,
		div64_u64((u64)served * NSEC_PER_SEC, t1 - t0), min_part,
		max_part, samples ? queued / samples : 0);

stop:
	WRITE_ONCE(svc_stop, true);
	WRITE_ONCE(svc_go, true);
	wake_up_all(&svc_startq);
	/* After a failed start the build may have no queues yet. */
	queues = svc_toolkit ? !!svc_queues : !!svc_parts;
	for (p = 0; queues && p < nparts; p++)
		wake_up_all(&svc_part_of(p)->waitq);
	for (i = 0; i < nsub; i++)
		wake_up_all(&subs[i]->waitq);
	if (svc_toolkit) {
		svc_toolkit_stop();
	} else {
		err = svc_hand_stop();
		ret = ret ?: err;
	}
	for (i = 0; i < nsub; i++)
		if (subs[i]->task)
			kthread_stop(subs[i]->task);
	if (subs)
		for (i = 0; i < nsub; i++)
			kfree(subs[i]);
	kfree(subs);
	cpt_put(svc_tab);
	svc_tab = NULL;
	return ret;
}

/* ---- mem ------------------------------------------------------------------ */

/* What an allocation of @req bytes at @p occupies. */
static size_t mem_bytes(const void *p, size_t req)
{
	if (ZERO_OR_NULL_PTR(p))
		return 0;
	if (is_vmalloc_addr(p))
		return PAGE_ALIGN(req);
	return ksize(p);
}

static int bench_mem(void)
{
	struct cptab *tab = cpt_get();
	const struct cplan_table *t = tab->table;
	size_t nc = t->nr_cpus, nn = t->nr_nodes, np = t->nr_parts;
	size_t core = 0, glue = 0, mask = 0, req = 0, p;

	/* The core table: cpt/core/table.c alloc_table(). */
#define CORE(ptr, n) do { \
		core += mem_bytes(ptr, (n) * sizeof(*(ptr))); \
		req += (n) * sizeof(*(ptr)); \
	} while (0)
	CORE(t, 1);
	CORE(t->cpu_part, nc);
	CORE(t->cpu_online, nc);
	CORE(t->cpu_barred, nc);
	CORE(t->cpu_core_barred, nc);
	CORE(t->node_barred, nn);
	CORE(t->cpu_node, nc);
	CORE(t->part_first, np + 1);
	CORE(t->part_cpu, nc);
	CORE(t->part_node_first, np + 1);
	CORE(t->part_node, nc);
	CORE(t->node_part, nn);
	CORE(t->node_distance, nn * nn);
#undef CORE
	/* The glue: cpt/linux/tab.c cptk_tab_create(). */
	glue += mem_bytes(tab, sizeof(*tab));
	glue += mem_bytes(tab->pattern, strlen(tab->pattern) + 1);
	glue += mem_bytes(tab->part, (np + 1) * sizeof(*tab->part));
	/* CPUMASK_OFFSTACK (Debian): each mask is an allocation of its own. */
	for (p = 0; IS_ENABLED(CONFIG_CPUMASK_OFFSTACK) && p <= np; p++)
		mask += mem_bytes(cpumask_bits(tab->part[p].cpus),
				  cpumask_size());
	glue += mask;
	glue += mem_bytes(tab->part[np].nodes,
			  tab->part[np].nr_nodes * sizeof(int));
	glue += mem_bytes(tab->current_of_cpu, nr_cpu_ids * sizeof(int));
	glue += mem_bytes(tab->of_cpu, nc * sizeof(int));
	pr_info("RESULT tag=%s bench=mem parts=%zu nr_cpu_ids=%zu nr_node_ids=%zu core_req_bytes=%zu core_bytes=%zu glue_bytes=%zu cpumask_bytes=%zu total_bytes=%zu sizeof_cptab=%zu sizeof_cpt_part=%zu cpumask_size=%u\n",
		bench_tag(), np, nc, nn, req, core, glue, mask / (np + 1),
		core + glue, sizeof(struct cptab), sizeof(struct cptk_part),
		cpumask_size());
	cpt_put(tab);
	return 0;
}

static int __init cpt_bench_init(void)
{
	if (!strcmp(bench, "lookup"))
		return bench_lookup();
	if (!strcmp(bench, "svc"))
		return bench_svc();
	if (!strcmp(bench, "mem"))
		return bench_mem();
	if (!strcmp(bench, "work"))
		return bench_work();
	pr_err("bench=%s: want lookup, svc, mem or work\n", bench);
	return -EINVAL;
}

static void __exit cpt_bench_exit(void)
{
}

module_init(cpt_bench_init);
module_exit(cpt_bench_exit);

MODULE_DESCRIPTION("cpt test: lookup cost, service model and memory benchmarks");
MODULE_LICENSE("GPL");
CPT_IMPORT_NS;
