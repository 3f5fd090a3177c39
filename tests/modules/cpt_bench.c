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
 *               cpt_current(), cptab_current() on a held table,
 *               cpt_of_cpu(raw_smp_processor_id()) and cptab_of_cpu() of
 *               the held table and a CPU number already in a register;
 *               one "op=" line each,
 *               in picoseconds per call.
 * bench=svc     a metadata-server model: one request queue, spinlock and
 *               wait queue per partition, threads= service kthreads per
 *               online CPU of each partition, bound to it with
 *               cptab_bind_current(), and one submitter kthread bound to
 *               each online CPU that keeps window= requests in flight to
 *               its own partition's queue.  A request is one cache line
 *               that the submitter writes and the server hashes (work=
 *               jhash2 passes over 64 bytes).  Runs duration_ms= and
 *               reports the requests served per second, and the number
 *               of requests waiting in the queues (sampled every 10 ms).  lock=mutex puts a
 *               mutex in place of each queue's spinlock (a diagnostic: in
 *               QEMU TCG, spinning on a lock whose holder's vCPU the host
 *               has descheduled is a cost that real hardware lacks).
 * bench=mem     what the table in force occupies: ksize() of every
 *               allocation of the core table and of the glue (struct
 *               cptab, its partitions and their cpumasks), so that
 *               plan-bench's model (tests/bench/plan_bench.c) can be
 *               checked against a real kernel.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/compiler.h>
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
MODULE_PARM_DESC(lock, "svc: the queue lock, spin or mutex");

static const char *bench_tag(void)
{
	return tag ?: "";
}

/* ---- lookup --------------------------------------------------------------- */

enum { LK_EMPTY, LK_SMP_ID, LK_THIS_CPU, LK_CPT_CURRENT, LK_CPTAB_CURRENT,
       LK_CPT_OF_CPU, LK_CPTAB_OF_CPU, LK_NR };

static const char * const lk_name[LK_NR] = {
	[LK_EMPTY] = "empty_loop",
	[LK_SMP_ID] = "raw_smp_processor_id",
	[LK_THIS_CPU] = "this_cpu_read",
	[LK_CPT_CURRENT] = "cpt_current",
	[LK_CPTAB_CURRENT] = "cptab_current",
	[LK_CPT_OF_CPU] = "cpt_of_cpu",
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
	LK_CASE(LK_CPT_OF_CPU, cpt_of_cpu(raw_smp_processor_id()));
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

/* ---- svc ------------------------------------------------------------------ */

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

/* One partition's service: its queue, lock and idle servers. */
struct svc_part {
	spinlock_t lock;
	struct mutex mutex;	/* in place of @lock with lock=mutex */
	struct list_head queue;
	unsigned int queued;
	unsigned long enqueued;	/* statistics, under the lock */
	wait_queue_head_t waitq;
} ____cacheline_aligned_in_smp;

struct svc_sub {
	struct task_struct *task;
	struct svc_part *part;
	int cpu;
	u32 seq;
	atomic_t inflight;
	wait_queue_head_t waitq;
	struct svc_req req[SVC_MAX_WINDOW];
};

struct svc_srv {
	struct task_struct *task;
	struct svc_part *part;
	int cpt;
	int bind_err;
	unsigned long served;
} ____cacheline_aligned_in_smp;

static struct cptab *svc_tab;
static bool svc_go, svc_stop, svc_mutex;
static DECLARE_WAIT_QUEUE_HEAD(svc_startq);

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

static int svc_server(void *arg)
{
	struct svc_srv *srv = arg;
	struct svc_part *part = srv->part;
	struct svc_req *req;
	struct svc_sub *sub;

	srv->bind_err = cptab_bind_current(svc_tab, srv->cpt);
	wait_event_idle(svc_startq, READ_ONCE(svc_go));
	while (!READ_ONCE(svc_stop)) {
		if (svc_mutex) {
			mutex_lock(&part->mutex);
			req = svc_dequeue(part);
			mutex_unlock(&part->mutex);
		} else {
			spin_lock(&part->lock);
			req = svc_dequeue(part);
			spin_unlock(&part->lock);
		}
		if (!req) {
			wait_event_idle_exclusive(part->waitq,
						  READ_ONCE(part->queued) ||
						  READ_ONCE(svc_stop));
			continue;
		}
		req->result = svc_work(req);
		sub = req->sub;
		WRITE_ONCE(srv->served, srv->served + 1);
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

		if (svc_mutex) {
			mutex_lock(&part->mutex);
			svc_enqueue(part, req);
			mutex_unlock(&part->mutex);
		} else {
			spin_lock(&part->lock);
			svc_enqueue(part, req);
			spin_unlock(&part->lock);
		}
		if (wq_has_sleeper(&part->waitq))
			wake_up(&part->waitq);
		cond_resched();
	}
	svc_park();
	return 0;
}

static int bench_svc(void)
{
	struct svc_part *parts = NULL;
	struct svc_srv *srvs = NULL;
	struct svc_sub **subs = NULL;
	unsigned long served, min_part = ULONG_MAX, max_part = 0, queued = 0;
	unsigned int samples = 0;
	int nparts, nsrv = 0, nsub = 0, p, s, i, cpu, ret = 0, bind_err = 0;
	u64 t0, t1;

	if (!window || window > SVC_MAX_WINDOW || !threads || !duration_ms)
		return -EINVAL;
	if (!strcmp(lock, "mutex"))
		svc_mutex = true;
	else if (!strcmp(lock, "spin"))
		svc_mutex = false;
	else
		return -EINVAL;
	svc_go = false;
	svc_stop = false;
	svc_tab = cpt_get();
	nparts = cptab_number(svc_tab);
	for (p = 0; p < nparts; p++)
		nsrv += cptab_weight(svc_tab, p) * threads;
	parts = kcalloc(nparts, sizeof(*parts), GFP_KERNEL);
	srvs = kcalloc(nsrv, sizeof(*srvs), GFP_KERNEL);
	subs = kcalloc(nr_cpu_ids, sizeof(*subs), GFP_KERNEL);
	if (!parts || !srvs || !subs) {
		ret = -ENOMEM;
		goto out;
	}
	for (p = 0; p < nparts; p++) {
		spin_lock_init(&parts[p].lock);
		mutex_init(&parts[p].mutex);
		INIT_LIST_HEAD(&parts[p].queue);
		init_waitqueue_head(&parts[p].waitq);
	}

	/* Servers: threads= per online CPU of their partition. */
	for (s = 0, p = 0; p < nparts; p++) {
		for (i = 0; i < cptab_weight(svc_tab, p) * (int)threads; i++, s++) {
			struct task_struct *t;

			srvs[s].part = &parts[p];
			srvs[s].cpt = p;
			t = kthread_create(svc_server, &srvs[s], "cptb_srv/%d:%d",
					   p, i);
			if (IS_ERR(t)) {
				ret = PTR_ERR(t);
				goto stop;
			}
			srvs[s].task = t;
		}
	}
	/* Submitters: one per online CPU, on that CPU, to its partition. */
	for_each_online_cpu(cpu) {
		struct task_struct *t;
		struct svc_sub *sub;
		int cpt = cptab_of_cpu(svc_tab, cpu);

		if (cpt < 0)	/* excluded by cpu_pattern: as cpt_current() */
			cpt = cpu % nparts;
		sub = kzalloc_node(sizeof(*sub), GFP_KERNEL, cpu_to_node(cpu));
		if (!sub) {
			ret = -ENOMEM;
			goto stop;
		}
		subs[nsub++] = sub;
		sub->cpu = cpu;
		sub->part = &parts[cpt];
		init_waitqueue_head(&sub->waitq);
		for (i = 0; i < SVC_MAX_WINDOW; i++)
			sub->req[i].sub = sub;
		t = kthread_create_on_node(svc_submitter, sub, cpu_to_node(cpu),
					   "cptb_sub/%d", cpu);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			goto stop;
		}
		kthread_bind(t, cpu);
		sub->task = t;
	}
	for (s = 0; s < nsrv; s++)
		wake_up_process(srvs[s].task);
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
			queued += READ_ONCE(parts[p].queued);
		samples++;
	} while (ktime_get_ns() - t0 < (u64)duration_ms * NSEC_PER_MSEC);
	t1 = ktime_get_ns();
	for (served = 0, p = 0, s = 0; p < nparts; p++) {
		unsigned long part_served = 0;

		for (; s < nsrv && srvs[s].cpt == p; s++)
			part_served += READ_ONCE(srvs[s].served);
		served += part_served;
		min_part = min(min_part, part_served);
		max_part = max(max_part, part_served);
	}
	WRITE_ONCE(svc_stop, true);
	for (p = 0; p < nparts; p++)
		wake_up_all(&parts[p].waitq);
	for (i = 0; i < nsub; i++)
		wake_up_all(&subs[i]->waitq);

stop:
	/* Unstarted threads exit at kthread_stop() without running. */
	WRITE_ONCE(svc_stop, true);
	WRITE_ONCE(svc_go, true);
	wake_up_all(&svc_startq);
	for (s = 0; s < nsrv; s++) {
		if (!srvs[s].task)
			continue;
		kthread_stop(srvs[s].task);
		if (srvs[s].bind_err)
			bind_err = srvs[s].bind_err;
	}
	for (i = 0; i < nsub; i++)
		if (subs[i]->task)
			kthread_stop(subs[i]->task);
	if (!ret && bind_err) {
		pr_err("cptab_bind_current() failed: %d\n", bind_err);
		ret = bind_err;
	}
	if (!ret)
		pr_info("RESULT tag=%s bench=svc parts=%d cpus=%d servers=%d lock=%s window=%u work=%u ns=%llu requests=%lu rps=%llu part_min=%lu part_max=%lu queued_avg=%lu\n",
			bench_tag(), nparts, nsub, nsrv, lock, window, work, t1 - t0,
			served, div64_u64((u64)served * NSEC_PER_SEC, t1 - t0),
			min_part, max_part, samples ? queued / samples : 0);
out:
	if (subs)
		for (i = 0; i < nsub; i++)
			kfree(subs[i]);
	kfree(subs);
	kfree(srvs);
	kfree(parts);
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
	pr_err("bench=%s: want lookup, svc or mem\n", bench);
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
