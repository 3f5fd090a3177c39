// SPDX-License-Identifier: GPL-2.0
/*
 * cpt_percpt_test: the guest test of what a partitioned service builds on
 * (tests/live/guest-percpt.sh): the lookups that cpt.h inlines.
 *
 * Reading /sys/module/cpt_percpt_test/parameters/lookup runs, on every
 * online CPU in turn (an IPI, so the answer is that CPU's), cpt_current(),
 * cptab_current() and cptab_of_cpu() of the table in force, held for the
 * read, and answers a line "n=PARTITIONS gen=GENERATION", then one line
 * "CPU CPT_CURRENT CPTAB_CURRENT CPTAB_OF_CPU" per online CPU (CPTAB_OF_CPU
 * "CPT_ANY" for a CPU in no partition).  The guest
 * script compares them with /proc/sys/lnet/cpu_partition_table.
 *
 * Reading .../mem allocates cpt_percpt_alloc() arrays of objects of 64 B,
 * 16 KiB and 8 MiB (vmalloc'ed) for the table in force, checks that they
 * are zeroed, fills them, frees them and answers a line
 * "SIZE CPT FIRST_PAGE_NODE LAST_PAGE_NODE vmalloc|kmalloc" per object,
 * then "for_each=N beyond=NULL|BAD" (objects the loop visited, and what
 * cpt_percpt_obj() gives past the last partition).
 *
 * Reading .../lock runs the exclusion test of cpt_lock() for lock_ms=
 * milliseconds: two threads per partition take its lock (one of them
 * names it as cpt + count, which must take the same lock), and two
 * threads take the exclusive mode (CPT_ANY).  Each holder checks that no
 * one it should exclude is inside, and bumps a plain (racy unless
 * excluded) counter of its partition.  Answers "nodes NODE..." (each
 * partition lock's node), "aligned=A/N" (the locks alone in their cache
 * line), then "loops=N excl=N violations=N lost=N" (lost: counter updates
 * that did not add up).
 *
 * Reading .../lock_current moves a thread holding cpt_lock_current()'s
 * lock from each partition with an online CPU to one whose lock is another
 * (cptab_bind_current()), unlocks with the index cpt_lock_current()
 * returned, and checks that this index was cpt_current() modulo the
 * lock's count, that its mutex alone was locked before and after the move,
 * and none after the unlock; answers "PASS moves=N locks=N parts=N" or
 * "FAIL: ...".  Writing 1 makes a lock of the table in force that later
 * reads use (for a table of another count: the index is normalized), 0
 * drops it.
 *
 * Reading .../lock_pair makes two locks in one helper (one call site),
 * holds both in the exclusive mode, frees the first, makes another in its
 * place and holds the pair in the other order; answers "PASS parts=N".
 * Under lockdep (the debug kernels), a report fails the guest.
 *
 * Writing N to .../pool starts a cpt_threads_start() pool of N threads per
 * partition (0 stops it); a notifier starts a new pool when a table with
 * another count comes.  Reading .../pool waits until the pool is bound to
 * the table in force, watches where its threads run for 200 ms and
 * answers "PASS parts=N threads=N unbound=N" when every thread of a
 * partition with an online CPU ran on its partition's CPUs and each such
 * partition's threads ran, or "FAIL: ..." with the first that did not.
 *
 * Writing 1 to .../pool_watch starts a thread that samples the pool's
 * cpt_threads_generation() every millisecond (0 stops it); reading it
 * answers "PASS samples=N last=GEN", or "FAIL: ..." when the generation
 * ever went back.  pool_keep=1 makes the notifier leave the pool on its
 * table when another count comes.
 *
 * Reading .../worker starts cpt_workers_start() workers for the table in
 * force, queues 16 works per partition (half of them under the name cpt +
 * count, half after a cpt_workers_flush() and just before
 * cpt_workers_stop()) and answers "PASS parts=N works=N" when every work
 * ran, in order, one at a time per partition, on its partition's CPUs (or
 * anywhere, for a partition with no online CPU), or "FAIL: ...".
 * Reading .../pool_since checks where the pool's threads ran since the
 * last read of .../pool, without waiting or clearing (the same answers).
 * Writing N to .../pool_cpus starts a cpt_threads_start_cpus() pool of N
 * threads per CPU of each partition instead, checked by the same read.
 *
 * Reading .../bind_fixed calls cptab_bind_current(tab, 0) from a work of
 * system_wq and from a kthread bound with kthread_bind(), whose affinity
 * is fixed, and answers "PASS wq=ERRNO kthread=ERRNO" when both were
 * refused with -EINVAL and left the mask as it was, or "FAIL: ...".
 *
 * Writing N to .../binders starts N kthreads (0 stops them) that bind
 * themselves with cptab_bind_current() to each partition in turn and, after
 * each bind that returned 0, check that they run on a CPU of their own
 * mask; then each takes a spinlock_t (on PREEMPT_RT its unlock ends in
 * migrate_enable(), which WARNs for a task outside its mask).  Reading
 * answers "binds=N ok=N refused=N outside=N first=CPU/CPT" (first: where
 * the first task found outside its mask ran, and the partition it bound
 * to; -1/-1 for none), since they were started.  tests/live/guest-bind.sh
 * runs them under CPU
 * hotplug.
 *
 * Writing N to .../keep_mb allocates an array of N MiB objects and keeps
 * it until the next write (0 frees it) or rmmod: the guest script checks
 * that MemFree comes back after rmmod.
 *
 * Writing 1 to .../keep_last makes the lock and worker tests keep their
 * last struct cpt_lock and cpt_workers (the works flushed, not stopped)
 * until the next test, a write of 0 or rmmod, so that the guest script
 * can compare /proc/cpt/stats with what the test did.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/vmalloc.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/overflow.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "cpt.h"
/* White-box: the lock checks read its per-partition parts (cpt/linux). */
#include "../../cpt/linux/percpt.h"

/* Bind current to partition @cpt of the table in force. */
static int pt_bind(int cpt)
{
	struct cptab *tab = cpt_get();
	int ret = cptab_bind_current(tab, cpt);

	cpt_put(tab);
	return ret;
}

struct lookup_answer {
	const struct cptab *tab;
	int cpu;
	int current_cpt;
	int tab_current;
	int of_cpu;
};

/* On the CPU asked about, in IPI context: what each lookup says there. */
static void lookup_on_cpu(void *arg)
{
	struct lookup_answer *a = arg;

	a->cpu = smp_processor_id();
	a->current_cpt = cpt_current();
	a->tab_current = cptab_current(a->tab);
	a->of_cpu = cptab_of_cpu(a->tab, a->cpu);
}

static int lookup_get(char *buf, const struct kernel_param *kp)
{
	struct lookup_answer a;
	struct cptab *tab;
	int cpu, len;

	/* CPUs neither come nor go, so the table in force stays put too. */
	cpus_read_lock();
	tab = cpt_get();
	len = sysfs_emit(buf, "n=%d gen=%llu\n", cptab_number(tab),
			 cptab_generation(tab));
	for_each_online_cpu(cpu) {
		a.tab = tab;
		if (smp_call_function_single(cpu, lookup_on_cpu, &a, 1))
			continue;
		len += sysfs_emit_at(buf, len, "%d %d %d ", a.cpu,
				     a.current_cpt, a.tab_current);
		/* By name: its value is cpt.h's business. */
		if (a.of_cpu == CPT_ANY)
			len += sysfs_emit_at(buf, len, "CPT_ANY\n");
		else
			len += sysfs_emit_at(buf, len, "%d\n", a.of_cpu);
	}
	cpt_put(tab);
	cpus_read_unlock();
	return len;
}

static const struct kernel_param_ops lookup_ops = {
	.get = lookup_get,
};
module_param_cb(lookup, &lookup_ops, NULL, 0400);
MODULE_PARM_DESC(lookup, "read: the lookups on every online CPU");

/* The node of the page that holds byte @off of @obj. */
static int mem_node(const void *obj, size_t off)
{
	const void *p = (const char *)obj + off;

	return page_to_nid(is_vmalloc_addr(p) ? vmalloc_to_page(p) :
						virt_to_page(p));
}

/* One object of @size bytes: zeroed, then filled; its line. */
static int mem_check_obj(char *buf, int len, void *obj, size_t size, int cpt)
{
	const char *c = obj;

	if (c[0] || c[size / 2] || c[size - 1])
		return len + sysfs_emit_at(buf, len, "%zu %d not zeroed\n",
					   size, cpt);
	memset(obj, 0x5a, size);
	return len + sysfs_emit_at(buf, len, "%zu %d %d %d %s\n", size, cpt,
				   mem_node(obj, 0), mem_node(obj, size - 1),
				   is_vmalloc_addr(obj) ? "vmalloc" : "kmalloc");
}

static int mem_get(char *buf, const struct kernel_param *kp)
{
	static const size_t sizes[] = { 64, 16384, 8 << 20 };
	struct cpt_percpt *pc;
	struct cptab *tab;
	int i, cpt, n, len = 0;
	void *obj;

	tab = cpt_get();
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		pc = cpt_percpt_alloc(tab, sizes[i]);
		if (IS_ERR(pc)) {
			len += sysfs_emit_at(buf, len, "%zu alloc error %ld\n",
					     sizes[i], PTR_ERR(pc));
			continue;
		}
		n = 0;
		cpt_percpt_for_each(obj, cpt, pc) {
			len = mem_check_obj(buf, len, obj, sizes[i], cpt);
			n++;
		}
		if (i == 0)
			len += sysfs_emit_at(buf, len, "for_each=%d beyond=%s\n",
					     n, cpt_percpt_obj(pc, n) ||
					     cpt_percpt_obj(pc, -1) ? "BAD" :
					     "NULL");
		cpt_percpt_free(pc);
	}
	cpt_put(tab);
	return len;
}

static const struct kernel_param_ops mem_ops = {
	.get = mem_get,
};
module_param_cb(mem, &mem_ops, NULL, 0400);
MODULE_PARM_DESC(mem, "read: place, check and free per-partition objects");

static uint lock_ms = 1000;
module_param(lock_ms, uint, 0644);
MODULE_PARM_DESC(lock_ms, "lock: duration of the exclusion test");

/* keep_last: the last lock and worker set of the tests (last_lock). */
static DEFINE_MUTEX(last_lock);
static bool keep_last;
static struct cpt_lock *last_lk;
static struct cpt_workers *last_wk;

/* Free what the tests kept, and keep @lk and @w when keep_last says so. */
static void last_replace(struct cpt_lock *lk, struct cpt_workers *w)
{
	mutex_lock(&last_lock);
	if (keep_last) {
		/* Each new one takes the place of the one kept before it. */
		if (lk)
			swap(lk, last_lk);
		if (w)
			swap(w, last_wk);
	} else {
		cpt_lock_free(last_lk);
		cpt_workers_stop(last_wk);
		last_lk = NULL;
		last_wk = NULL;
	}
	mutex_unlock(&last_lock);
	/* What is no longer kept: the previous ones, or these. */
	cpt_lock_free(lk);
	cpt_workers_stop(w);
}

static int keep_last_set(const char *val, const struct kernel_param *kp)
{
	bool v;

	if (kstrtobool(val, &v))
		return -EINVAL;
	mutex_lock(&last_lock);
	keep_last = v;
	mutex_unlock(&last_lock);
	if (!v)
		last_replace(NULL, NULL);
	return 0;
}

static const struct kernel_param_ops keep_last_ops = {
	.set = keep_last_set,
	.get = param_get_bool,
};
module_param_cb(keep_last, &keep_last_ops, &keep_last, 0644);
MODULE_PARM_DESC(keep_last, "1: keep the last lock and workers of the tests, for /proc/cpt/stats");

/* The partitions a table may have (cpt accepts 256, as Lustre does). */
#define LK_MAX_PARTS	256

/* What the lock test's threads share. */
struct lock_test {
	struct cpt_lock *lk;
	int n;
	atomic_t inside[LK_MAX_PARTS];
	unsigned long counter[LK_MAX_PARTS];	/* plain: under the lock */
	atomic_t excl_inside;
	int excl_name;		/* what the exclusive threads pass */
	atomic_long_t loops;
	atomic_long_t excl;
	atomic_long_t violations;
};

struct lock_thread {
	struct lock_test *t;
	int cpt;		/* CPT_ANY: the exclusive mode */
	int name;		/* what it passes to cpt_lock() for @cpt */
	struct task_struct *task;
};

/* A holder of partition @cpt's lock: alone in it, no exclusive holder. */
static void lock_one(struct lock_test *t, int cpt, int name)
{
	unsigned long v;

	cpt_lock(t->lk, name);
	if (atomic_inc_return(&t->inside[cpt]) != 1 ||
	    atomic_read(&t->excl_inside))
		atomic_long_inc(&t->violations);
	v = READ_ONCE(t->counter[cpt]);
	udelay(2);
	WRITE_ONCE(t->counter[cpt], v + 1);
	atomic_dec(&t->inside[cpt]);
	cpt_unlock(t->lk, name);
	atomic_long_inc(&t->loops);
}

/* Whether any partition holder is inside. */
static bool lock_any_inside(struct lock_test *t)
{
	int cpt;

	for (cpt = 0; cpt < t->n; cpt++)
		if (atomic_read(&t->inside[cpt]))
			return true;
	return false;
}

/* The exclusive holder: alone, and no partition holder anywhere. */
static void lock_all(struct lock_test *t, int name)
{
	cpt_lock(t->lk, name);
	if (atomic_inc_return(&t->excl_inside) != 1 || lock_any_inside(t))
		atomic_long_inc(&t->violations);
	udelay(50);
	if (lock_any_inside(t))
		atomic_long_inc(&t->violations);
	atomic_dec(&t->excl_inside);
	cpt_unlock(t->lk, name);
	atomic_long_inc(&t->excl);
	usleep_range(100, 200);
}

static int lock_thread_fn(void *arg)
{
	struct lock_thread *lt = arg;

	while (!kthread_should_stop()) {
		if (lt->cpt == CPT_ANY) {
			lock_all(lt->t, lt->name);
		} else {
			lock_one(lt->t, lt->cpt, lt->name);
			/*
			 * A pause between sections, as a service has: in
			 * single-threaded TCG (5.10, 6.12, 7.x guests) a vCPU
			 * runs 100 ms slices in turn, and threads that never
			 * sleep starved the exclusive mode for minutes.
			 */
			usleep_range(5, 10);
		}
	}
	return 0;
}

/* Run the threads for lock_ms; the counts are left in @t. */
static int lock_run(struct lock_test *t, struct lock_thread *th, int nth)
{
	int i, ret = 0;

	for (i = 0; i < nth; i++) {
		th[i].t = t;
		th[i].cpt = i < 2 * t->n ? i / 2 : CPT_ANY;
		/* Odd threads name their partition cpt + count: same lock. */
		th[i].name = th[i].cpt + (i & 1) * t->n;
		if (th[i].cpt == CPT_ANY)
			th[i].name = t->excl_name;
		th[i].task = kthread_run(lock_thread_fn, &th[i],
					 "cpt_lock_test/%d", i);
		if (IS_ERR(th[i].task)) {
			ret = PTR_ERR(th[i].task);
			break;
		}
	}
	if (!ret)
		msleep(lock_ms);
	while (--i >= 0)
		kthread_stop(th[i].task);
	return ret;
}

/*
 * Each partition's lock: "nodes N..." (the node of each, in partition
 * order) and "aligned=A/N" (how many are alone in their cache line).  Two
 * lines, not one per lock: 256 of those would not fit in a page.
 */
static int lock_parts(char *buf, int len, struct cpt_lock *lk)
{
	struct cpt_lock_part *part;
	int cpt, aligned = 0;

	len += sysfs_emit_at(buf, len, "nodes");
	cpt_percpt_for_each(part, cpt, lk->part) {
		len += sysfs_emit_at(buf, len, " %d", mem_node(part, 0));
		aligned += IS_ALIGNED((unsigned long)part, L1_CACHE_BYTES) &&
			   ksize(part) >= L1_CACHE_BYTES;
	}
	return len + sysfs_emit_at(buf, len, "\naligned=%d/%d\n", aligned,
				   cpt_percpt_number(lk->part));
}

/* The exclusion test, its exclusive threads passing @excl_name. */
static int lock_test_run(char *buf, int excl_name)
{
	struct lock_thread *th = NULL;
	struct lock_test *t;
	struct cptab *tab;
	unsigned long sum = 0;
	int cpt, nth, len = 0, ret = -ENOMEM;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->excl_name = excl_name;
	tab = cpt_get();
	t->n = cptab_number(tab);
	t->lk = t->n <= LK_MAX_PARTS ? cpt_lock_alloc(tab) : ERR_PTR(-E2BIG);
	cpt_put(tab);
	if (IS_ERR(t->lk)) {
		ret = PTR_ERR(t->lk);
		goto out;
	}
	nth = 2 * t->n + 2;
	th = kcalloc(nth, sizeof(*th), GFP_KERNEL);
	if (!th)
		goto out;
	len = lock_parts(buf, 0, t->lk);
	ret = lock_run(t, th, nth);
	if (ret)
		goto out;
	for (cpt = 0; cpt < t->n; cpt++)
		sum += t->counter[cpt];
	len += sysfs_emit_at(buf, len,
			     "loops=%ld excl=%ld violations=%ld lost=%ld\n",
			     atomic_long_read(&t->loops),
			     atomic_long_read(&t->excl),
			     atomic_long_read(&t->violations),
			     atomic_long_read(&t->loops) - (long)sum);
	ret = len;
out:
	kfree(th);
	if (IS_ERR(t->lk))
		t->lk = NULL;
	last_replace(t->lk, NULL);
	kfree(t);
	return ret;
}

static int lock_get(char *buf, const struct kernel_param *kp)
{
	return lock_test_run(buf, CPT_ANY);
}

static const struct kernel_param_ops lock_ops = {
	.get = lock_get,
};
module_param_cb(lock, &lock_ops, NULL, 0400);
MODULE_PARM_DESC(lock, "read: the exclusion test of cpt_lock()");

/*
 * The same with libcfs's CFS_CPT_ANY, -1, for the exclusive mode: cpt
 * must exclude every partition's holder for it too (with a log line).
 */
static int lock_neg_get(char *buf, const struct kernel_param *kp)
{
	return lock_test_run(buf, -1);
}

static const struct kernel_param_ops lock_neg_ops = {
	.get = lock_neg_get,
};
module_param_cb(lock_neg, &lock_neg_ops, NULL, 0400);
MODULE_PARM_DESC(lock_neg, "read: the exclusion test, exclusive holders passing -1");

/*
 * The cpt_lock_current() test (.../lock_current): a thread binds itself
 * to partition @from, takes cpt_lock_current(), binds itself to partition
 * @to while it holds the lock (cptab_bind_current(): set_cpus_allowed_ptr()
 * under cpus_read_lock()), then unlocks with the index it got.  Which of
 * the lock's mutexes are locked is read after the lock, after the move and
 * after the unlock: exactly the one of the index returned, the same one,
 * none.  The test lock is private: nobody else takes its mutexes.
 */
struct lc_test {
	struct cpt_lock *lk;
	int from, to;
	int got, cur_before, cur_after;
	int err;
	int nlocked[3], first[3];	/* at each step: how many, the first */
	struct completion done;
};

/* Which mutexes of the test lock are locked now, as step @step. */
static void lc_snap(struct lc_test *t, int step)
{
	struct cpt_lock_part *part;
	int cpt;

	t->nlocked[step] = 0;
	t->first[step] = -1;
	cpt_percpt_for_each(part, cpt, t->lk->part) {
		if (mutex_is_locked(&part->mutex) && !t->nlocked[step]++)
			t->first[step] = cpt;
	}
}

/* The holder: lock where it runs, move, unlock with what it got. */
static void lc_move(struct lc_test *t)
{
	int cpt;

	t->cur_before = cpt_current();
	cpt = cpt_lock_current(t->lk);
	t->got = cpt;
	lc_snap(t, 0);
	t->err = pt_bind(t->to);
	t->cur_after = cpt_current();
	lc_snap(t, 1);
	cpt_unlock(t->lk, cpt);
	lc_snap(t, 2);
}

static int lc_thread_fn(void *arg)
{
	struct lc_test *t = arg;

	t->err = pt_bind(t->from);
	if (!t->err)
		lc_move(t);
	complete(&t->done);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/* The lock that @cpt names in a lock of @n partitions (cpt.h). */
static int lc_index(int cpt, int n)
{
	return (unsigned int)cpt % (unsigned int)n;
}

/* What went wrong in one move, or 0. */
static int lc_check(char *buf, const struct lc_test *t)
{
	int n = cpt_percpt_number(t->lk->part);

	if (t->err)
		return sysfs_emit(buf, "FAIL: %d -> %d: cptab_bind_current(): %d\n",
				  t->from, t->to, t->err);
	if (t->got != lc_index(t->cur_before, n))
		return sysfs_emit(buf, "FAIL: cpt_lock_current() returned %d on partition %d, %d locks\n",
				  t->got, t->cur_before, n);
	if (t->cur_after != t->to || lc_index(t->cur_after, n) == t->got)
		return sysfs_emit(buf, "FAIL: %d -> %d: moved to partition %d, lock %d\n",
				  t->from, t->to, t->cur_after, t->got);
	if (t->nlocked[0] != 1 || t->first[0] != t->got ||
	    t->nlocked[1] != 1 || t->first[1] != t->got || t->nlocked[2])
		return sysfs_emit(buf, "FAIL: %d -> %d, lock %d: locked %d (first %d), after the move %d (first %d), after the unlock %d\n",
				  t->from, t->to, t->got, t->nlocked[0],
				  t->first[0], t->nlocked[1], t->first[1],
				  t->nlocked[2]);
	return 0;
}

/* One move of a thread from @t->from to @t->to; 0 or the FAIL line. */
static int lc_run_one(char *buf, struct lc_test *t)
{
	struct task_struct *task;

	init_completion(&t->done);
	task = kthread_run(lc_thread_fn, t, "cpt_lc_test");
	if (IS_ERR(task))
		return sysfs_emit(buf, "FAIL: kthread_run(): %ld\n",
				  PTR_ERR(task));
	wait_for_completion(&t->done);
	kthread_stop(task);
	return lc_check(buf, t);
}

/* A partition with an online CPU whose lock is not @from's, or -1. */
static int lc_other(const struct cptab *tab, int n, int from)
{
	int to;

	for (to = 0; to < cptab_number(tab); to++)
		if (cptab_weight(tab, to) > 0 &&
		    lc_index(to, n) != lc_index(from, n))
			return to;
	return -1;
}

/* Every partition with an online CPU to another: "PASS ..." or "FAIL: ...". */
static int lc_run(char *buf, struct lc_test *t, const struct cptab *tab)
{
	int moves = 0, n = cpt_percpt_number(t->lk->part), len;

	for (t->from = 0; t->from < cptab_number(tab); t->from++) {
		t->to = lc_other(tab, n, t->from);
		if (!cptab_weight(tab, t->from) || t->to < 0)
			continue;
		len = lc_run_one(buf, t);
		if (len)
			return len;
		moves++;
	}
	if (!moves)
		return sysfs_emit(buf, "FAIL: no two partitions to move between\n");
	return sysfs_emit(buf, "PASS moves=%d locks=%d parts=%d\n", moves, n,
			  cptab_number(tab));
}

/* A lock kept by a write of 1 to .../lock_current, for a later table. */
static DEFINE_MUTEX(lc_lock);
static struct cpt_lock *lc_kept;

static int lock_current_get(char *buf, const struct kernel_param *kp)
{
	struct cpt_lock *fresh = NULL;
	struct lc_test *t;
	struct cptab *tab;
	int len;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	tab = cpt_get();
	mutex_lock(&lc_lock);
	t->lk = lc_kept;
	if (!t->lk)
		t->lk = fresh = cpt_lock_alloc(tab);
	if (IS_ERR(t->lk))
		len = sysfs_emit(buf, "FAIL: cpt_lock_alloc(): %ld\n",
				 PTR_ERR(t->lk));
	else
		len = lc_run(buf, t, tab);
	mutex_unlock(&lc_lock);
	cpt_lock_free(fresh);
	cpt_put(tab);
	kfree(t);
	return len;
}

static int lock_current_set(const char *val, const struct kernel_param *kp)
{
	struct cpt_lock *lk = NULL;
	struct cptab *tab;
	bool keep;

	if (kstrtobool(val, &keep))
		return -EINVAL;
	if (keep) {
		tab = cpt_get();
		lk = cpt_lock_alloc(tab);
		cpt_put(tab);
		if (IS_ERR(lk))
			return PTR_ERR(lk);
	}
	mutex_lock(&lc_lock);
	swap(lk, lc_kept);
	mutex_unlock(&lc_lock);
	cpt_lock_free(lk);
	return 0;
}

static const struct kernel_param_ops lock_current_ops = {
	.set = lock_current_set,
	.get = lock_current_get,
};
module_param_cb(lock_current, &lock_current_ops, NULL, 0600);
MODULE_PARM_DESC(lock_current, "read: cpt_lock_current() across a migration; write 1: keep a lock of the table in force for the reads, 0: drop it");

/*
 * The lock pair test (reading .../lock_pair): a consumer that moves its
 * data from one struct cpt_lock to its successor holds both in the
 * exclusive mode.  Both come from one helper, so one call site: lockdep
 * must see two locks, not one taken twice.  Then the other order, after
 * the first is freed and another made in its place.
 */
static struct cpt_lock *pair_alloc(struct cptab *tab)
{
	return cpt_lock_alloc(tab);
}

/* @cpt of @a, then of @b, then both released (CPT_ANY: the exclusive mode). */
static void pair_hold(struct cpt_lock *a, struct cpt_lock *b, int cpt)
{
	cpt_lock(a, cpt);
	cpt_lock(b, cpt);
	cpt_unlock(b, cpt);
	cpt_unlock(a, cpt);
}

static int lock_pair_get(char *buf, const struct kernel_param *kp)
{
	struct cpt_lock *old, *new;
	struct cptab *tab;
	int n, ret;

	tab = cpt_get();
	n = cptab_number(tab);
	old = pair_alloc(tab);
	new = pair_alloc(tab);
	ret = IS_ERR(old) ? PTR_ERR(old) : IS_ERR(new) ? PTR_ERR(new) : 0;
	if (!ret) {
		pair_hold(old, new, CPT_ANY);
		cpt_lock_free(old);
		old = pair_alloc(tab);
		ret = PTR_ERR_OR_ZERO(old);
	}
	if (!ret)
		pair_hold(new, old, CPT_ANY);
	cpt_lock_free(old);
	cpt_lock_free(new);
	cpt_put(tab);
	if (ret)
		return sysfs_emit(buf, "FAIL: cpt_lock_alloc(): error %d\n", ret);
	return sysfs_emit(buf, "PASS parts=%d\n", n);
}

static const struct kernel_param_ops lock_pair_ops = {
	.get = lock_pair_get,
};
module_param_cb(lock_pair, &lock_pair_ops, NULL, 0400);
MODULE_PARM_DESC(lock_pair, "read: two locks of one call site held exclusively together");

/*
 * A planted lock-order inversion, for the debug kernels' harness test
 * (tests/live/harness-lockdep.sh): partition 0 of lock A then of lock B,
 * then B before A.  Nothing deadlocks (one thread), but lockdep, which
 * gives each lock its own classes, must report a circular dependency, and
 * the guest must fail on it.  Never written by the suites that must pass.
 */
static int lock_invert_set(const char *val, const struct kernel_param *kp)
{
	struct cpt_lock *a, *b;
	struct cptab *tab;
	int ret;

	if (!sysfs_streq(val, "1"))
		return -EINVAL;
	tab = cpt_get();
	a = pair_alloc(tab);
	b = pair_alloc(tab);
	ret = IS_ERR(a) ? PTR_ERR(a) : PTR_ERR_OR_ZERO(b);
	if (!ret) {
		pair_hold(a, b, 0);
		pair_hold(b, a, 0);
	}
	cpt_lock_free(b);
	cpt_lock_free(a);
	cpt_put(tab);
	return ret;
}

static const struct kernel_param_ops lock_invert_ops = {
	.set = lock_invert_set,
};
module_param_cb(lock_invert, &lock_invert_ops, NULL, 0200);
MODULE_PARM_DESC(lock_invert, "write 1: take two locks in both orders (a planted lockdep report)");

/*
 * A planted leak, for the same harness test: 200 bytes that nothing points
 * at once the write returns, filled with a text no allocator writes (not
 * 0x5a: that is SLUB's own poison for fresh objects).  The debug guests
 * scan with kmemleak after their command, and must fail on "unreferenced
 * object" with this text in the dump.  Never written by the suites that
 * must pass.
 */
#define LEAK_PLANT_SIZE 200
static const char leak_plant_text[] = "cpt-leak-planted";

static int leak_plant_set(const char *val, const struct kernel_param *kp)
{
	char *p;
	size_t i;

	if (!sysfs_streq(val, "1"))
		return -EINVAL;
	p = kmalloc(LEAK_PLANT_SIZE, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < LEAK_PLANT_SIZE; i++)
		p[i] = leak_plant_text[i % (sizeof(leak_plant_text) - 1)];
	/*
	 * Nothing reads p again, so without this the compiler drops the
	 * stores as dead and kmemleak dumps whatever the slab held before.
	 */
	barrier_data(p);
	pr_info("cpt_percpt_test: leaked %d bytes on purpose\n", LEAK_PLANT_SIZE);
	return 0;
}

static const struct kernel_param_ops leak_plant_ops = {
	.set = leak_plant_set,
};
module_param_cb(leak_plant, &leak_plant_ops, NULL, 0200);
MODULE_PARM_DESC(leak_plant, "write 1: leak 200 bytes (a planted kmemleak report)");

static DEFINE_MUTEX(keep_lock);
static struct cpt_percpt *keep_pc;
static unsigned int keep_mb_val;

static int keep_mb_set(const char *val, const struct kernel_param *kp)
{
	struct cpt_percpt *pc = NULL;
	struct cptab *tab;
	unsigned int mb;
	int ret;

	ret = kstrtouint(val, 0, &mb);
	if (ret)
		return ret;
	if (mb) {
		tab = cpt_get();
		pc = cpt_percpt_alloc(tab, (size_t)mb << 20);
		cpt_put(tab);
		if (IS_ERR(pc))
			return PTR_ERR(pc);
	}
	mutex_lock(&keep_lock);
	cpt_percpt_free(keep_pc);
	keep_pc = pc;
	keep_mb_val = mb;
	mutex_unlock(&keep_lock);
	return 0;
}

static int keep_mb_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", keep_mb_val);
}

static const struct kernel_param_ops keep_mb_ops = {
	.set = keep_mb_set,
	.get = keep_mb_get,
};
module_param_cb(keep_mb, &keep_mb_ops, NULL, 0644);
MODULE_PARM_DESC(keep_mb, "write N: keep an array of N MiB objects");

/*
 * The worker test: WK_WORKS works per partition on fresh cpt_workers of
 * the table in force, half of them queued under the name cpt + count.
 */
#define WK_WORKS	16

struct wk_test;

struct wk_item {
	struct kthread_work work;
	struct wk_test *t;
	int cpt;
	int seq;		/* order of queueing in its partition */
	int cpu;		/* where it ran, -1 before */
	bool out_of_order;
};

struct wk_test {
	int n;
	atomic_t running[LK_MAX_PARTS];
	int next[LK_MAX_PARTS];	/* the seq each partition runs next */
	atomic_t overlaps;
	struct wk_item item[];
};

static void wk_fn(struct kthread_work *work)
{
	struct wk_item *it = container_of(work, struct wk_item, work);
	struct wk_test *t = it->t;

	if (atomic_inc_return(&t->running[it->cpt]) != 1)
		atomic_inc(&t->overlaps);
	it->out_of_order = t->next[it->cpt]++ != it->seq;
	udelay(50);
	WRITE_ONCE(it->cpu, raw_smp_processor_id());
	atomic_dec(&t->running[it->cpt]);
}

/* The first work that did not run, or ran off its partition's CPUs. */
static int wk_check(char *buf, struct wk_test *t, const struct cptab *tab)
{
	struct wk_item *it;
	int i;

	if (atomic_read(&t->overlaps))
		return sysfs_emit(buf, "FAIL: %d works ran beside another of their partition\n",
				  atomic_read(&t->overlaps));
	for (i = 0; i < t->n * WK_WORKS; i++) {
		it = &t->item[i];
		if (it->cpu < 0)
			return sysfs_emit(buf, "FAIL: work %d of partition %d did not run\n",
					  it->seq, it->cpt);
		if (it->out_of_order)
			return sysfs_emit(buf, "FAIL: work %d of partition %d ran out of order\n",
					  it->seq, it->cpt);
		/* A partition with no online CPU: its worker runs unbound. */
		if (cptab_weight(tab, it->cpt) &&
		    !cpumask_test_cpu(it->cpu, cptab_cpumask(tab, it->cpt)))
			return sysfs_emit(buf, "FAIL: a work of partition %d ran on CPU %d\n",
					  it->cpt, it->cpu);
	}
	return 0;
}

/*
 * What /proc/cpt/stats must count besides cpt_queue_work()'s works, per
 * partition: a work cancelled while it waited behind a blocker (queued,
 * never run) and two delayed works of the kthread API (run, not queued
 * by cpt_queue_work()).
 */
struct wk_extra {
	struct kthread_work blocker, victim;
	struct kthread_delayed_work dw[2];
	struct completion go;
};

static void wk_blocker_fn(struct kthread_work *work)
{
	struct wk_extra *x = container_of(work, struct wk_extra, blocker);

	wait_for_completion_timeout(&x->go, 10 * HZ);
}

static void wk_victim_fn(struct kthread_work *work)
{
	pr_err("cpt_percpt_test: a cancelled work ran\n");
}

static atomic_t wk_delayed_ran;

static void wk_delayed_count(struct kthread_work *work)
{
	atomic_inc(&wk_delayed_ran);
}

/* Returns 0, or -EPROTO when a cancel or a delayed work went wrong. */
static int wk_extras(struct cpt_workers *w, int n)
{
	struct wk_extra *x;
	int i, k, ret = 0;
	unsigned long until;

	x = kcalloc(n, sizeof(*x), GFP_KERNEL);
	if (!x)
		return -ENOMEM;
	atomic_set(&wk_delayed_ran, 0);
	for (i = 0; i < n; i++) {
		init_completion(&x[i].go);
		kthread_init_work(&x[i].blocker, wk_blocker_fn);
		kthread_init_work(&x[i].victim, wk_victim_fn);
		cpt_queue_work(w, i, &x[i].blocker);
		cpt_queue_work(w, i, &x[i].victim);
		if (!kthread_cancel_work_sync(&x[i].victim))
			ret = -EPROTO;
		complete(&x[i].go);
		for (k = 0; k < 2; k++) {
			kthread_init_delayed_work(&x[i].dw[k], wk_delayed_count);
			kthread_queue_delayed_work(cpt_worker_of(w, i),
						   &x[i].dw[k], 1 + k);
		}
	}
	until = jiffies + 10 * HZ;
	while (atomic_read(&wk_delayed_ran) < 2 * n &&
	       time_before(jiffies, until))
		msleep(10);
	if (atomic_read(&wk_delayed_ran) < 2 * n)
		ret = -EPROTO;
	cpt_workers_flush(w);
	kfree(x);
	return ret;
}

/*
 * Queue the works of @t, half of them after cpt_workers_flush(), the other
 * half just before cpt_workers_stop(), which must run them.
 */
/* Whether @w has @n workers: n distinct ones, and worker n is worker 0. */
static bool wk_count_is(struct cpt_workers *w, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		if (!cpt_worker_of(w, i))
			return false;
		for (j = 0; j < i; j++)
			if (cpt_worker_of(w, i) == cpt_worker_of(w, j))
				return false;
	}
	return cpt_worker_of(w, n) == cpt_worker_of(w, 0);
}

static int wk_run(struct wk_test *t, struct cptab *tab)
{
	struct cpt_workers *w;
	struct wk_item *it;
	int i, k;

	w = cpt_workers_start(tab, "cpt_wk");
	if (IS_ERR(w))
		return PTR_ERR(w);
	if (!wk_count_is(w, t->n)) {
		cpt_workers_stop(w);
		return -EPROTO;
	}
	for (k = 0; k < WK_WORKS; k++) {
		if (k == WK_WORKS / 2)
			cpt_workers_flush(w);
		for (i = 0; i < t->n; i++) {
			it = &t->item[i * WK_WORKS + k];
			cpt_queue_work(w, i + (k & 1) * t->n, &it->work);
		}
	}
	/*
	 * Kept, the works run now, and the extras of the statistics' test
	 * follow; else cpt_workers_stop() runs them.
	 */
	if (keep_last) {
		int ret;

		cpt_workers_flush(w);
		ret = wk_extras(w, t->n);
		if (ret) {
			cpt_workers_stop(w);
			return ret;
		}
	}
	last_replace(NULL, w);
	return 0;
}

static int worker_get(char *buf, const struct kernel_param *kp)
{
	struct wk_test *t;
	struct wk_item *it;
	struct cptab *tab;
	int i, n, len;

	tab = cpt_get();
	n = cptab_number(tab);
	t = n <= LK_MAX_PARTS ? kzalloc(struct_size(t, item, n * WK_WORKS),
					GFP_KERNEL) : NULL;
	if (!t) {
		cpt_put(tab);
		return -ENOMEM;
	}
	t->n = n;
	for (i = 0; i < n * WK_WORKS; i++) {
		it = &t->item[i];
		kthread_init_work(&it->work, wk_fn);
		it->t = t;
		it->cpt = i / WK_WORKS;
		it->seq = i % WK_WORKS;
		it->cpu = -1;
	}
	len = wk_run(t, tab);
	if (len)
		len = sysfs_emit(buf, "FAIL: cpt_workers: error %d\n", len);
	else
		len = wk_check(buf, t, tab);
	if (!len)
		len = sysfs_emit(buf, "PASS parts=%d works=%d\n", n,
				 n * WK_WORKS);
	kfree(t);
	cpt_put(tab);
	return len;
}

static const struct kernel_param_ops worker_ops = {
	.get = worker_get,
};
module_param_cb(worker, &worker_ops, NULL, 0400);
MODULE_PARM_DESC(worker, "read: the test of cpt_workers_start()");

/*
 * The misuses of a worker set: libcfs's -1 is refused by cpt_queue_work()
 * and cpt_worker_of() (nothing queued, NULL), CPT_ANY names the caller's
 * partition; and a delayed work still armed when cpt_workers_stop() is
 * called is cancelled there, its timer no longer pending (else it would
 * fire onto the freed worker).  Static: a failure must not also free it.
 */
static atomic_t misuse_ran;
static struct kthread_work misuse_work;
static struct kthread_delayed_work misuse_dw;

static void misuse_fn(struct kthread_work *work)
{
	atomic_inc(&misuse_ran);
}

/* A delayed work armed on a fresh worker set, then cpt_workers_stop(). */
static int worker_delayed_stop(char *buf)
{
	struct cpt_workers *w;
	struct cptab *tab;

	tab = cpt_get();
	w = cpt_workers_start(tab, "cpt_wd");
	cpt_put(tab);
	if (IS_ERR(w))
		return sysfs_emit(buf, "FAIL: cpt_workers: error %ld\n", PTR_ERR(w));
	atomic_set(&misuse_ran, 0);
	kthread_init_delayed_work(&misuse_dw, misuse_fn);
	kthread_queue_delayed_work(cpt_worker_of(w, 0), &misuse_dw, 3 * HZ);
	cpt_workers_stop(w);
	if (timer_pending(&misuse_dw.timer) ||
	    !list_empty(&misuse_dw.work.node))
		return sysfs_emit(buf, "FAIL: a delayed work is still armed after cpt_workers_stop()\n");
	if (atomic_read(&misuse_ran))
		return sysfs_emit(buf, "FAIL: the delayed work ran\n");
	return sysfs_emit(buf, "PASS\n");
}

static int worker_misuse_get(char *buf, const struct kernel_param *kp)
{
	struct cpt_workers *w;
	struct cptab *tab;
	bool queued;
	int cpt, len;

	/* First: on the code before the fix, the checks below fail first. */
	len = worker_delayed_stop(buf);
	if (strncmp(buf, "PASS", 4))
		return len;
	tab = cpt_get();
	w = cpt_workers_start(tab, "cpt_wm");
	cpt_put(tab);
	if (IS_ERR(w))
		return sysfs_emit(buf, "FAIL: cpt_workers: error %ld\n", PTR_ERR(w));
	atomic_set(&misuse_ran, 0);
	kthread_init_work(&misuse_work, misuse_fn);
	queued = cpt_queue_work(w, -1, &misuse_work);
	cpt_workers_flush(w);
	if (queued || atomic_read(&misuse_ran)) {
		cpt_workers_stop(w);
		return sysfs_emit(buf, "FAIL: cpt_queue_work(-1) queued (%d, ran %d)\n",
				  queued, atomic_read(&misuse_ran));
	}
	if (cpt_worker_of(w, -1)) {
		cpt_workers_stop(w);
		return sysfs_emit(buf, "FAIL: cpt_worker_of(-1) gave a worker\n");
	}
	cpt = cpt_current();
	if (cpt_worker_of(w, CPT_ANY) != cpt_worker_of(w, cpt) &&
	    cpt_current() == cpt) {
		cpt_workers_stop(w);
		return sysfs_emit(buf, "FAIL: cpt_worker_of(CPT_ANY) is not the caller's\n");
	}
	cpt_workers_stop(w);
	return sysfs_emit(buf, "PASS\n");
}

static const struct kernel_param_ops worker_misuse_ops = {
	.get = worker_misuse_get,
};
module_param_cb(worker_misuse, &worker_misuse_ops, NULL, 0400);
MODULE_PARM_DESC(worker_misuse, "read: -1 and CPT_ANY on a worker set; a delayed work armed at cpt_workers_stop()");

/* The pool and what its threads saw (pool_lock). */
static DEFINE_MUTEX(pool_lock);
static struct cpt_threads *pool;
static int pool_per_cpt, pool_parts, pool_threads;
static bool pool_per_cpu;	/* cpt_threads_start_cpus(): per CPU */
static atomic_long_t pool_seen[LK_MAX_PARTS];	/* CPUs run on, bits */

static int pool_fn(void *data, int cpt)
{
	while (!kthread_should_stop()) {
		if (cpt < LK_MAX_PARTS && raw_smp_processor_id() < BITS_PER_LONG)
			atomic_long_or(BIT(raw_smp_processor_id()),
				       &pool_seen[cpt]);
		msleep(2);
	}
	return 0;
}

/* The threads a pool of @per (per CPU or not) has for @tab. */
static int pool_size(const struct cptab *tab, int per, bool per_cpu)
{
	int cpt, n = 0;

	for (cpt = 0; cpt < cptab_number(tab); cpt++)
		n += per_cpu ? per * cpumask_weight(cptab_cpumask(tab, cpt)) :
			       per;
	return n;
}

/*
 * Replace the pool with one of @per threads per partition, or per CPU of
 * each partition with @per_cpu, for @tab (pool_lock).
 */
static int pool_restart(struct cptab *tab, int per, bool per_cpu)
{
	struct cpt_threads *ts = NULL;

	if (per) {
		ts = per_cpu ? cpt_threads_start_cpus(tab, per, pool_fn, NULL,
						      "cpt_pt") :
			       cpt_threads_start(tab, per, pool_fn, NULL,
						 "cpt_pt");
		if (IS_ERR(ts))
			return PTR_ERR(ts);
	}
	cpt_threads_stop(pool);
	WRITE_ONCE(pool, ts);
	pool_per_cpt = per;
	pool_per_cpu = per_cpu;
	WRITE_ONCE(pool_parts, cptab_number(tab));
	pool_threads = per ? pool_size(tab, per, per_cpu) : 0;
	return 0;
}

static int pool_write(const char *val, bool per_cpu)
{
	struct cptab *tab;
	unsigned int n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret || n > 1024)
		return -EINVAL;
	tab = cpt_get();
	mutex_lock(&pool_lock);
	ret = pool_restart(tab, n, per_cpu);
	mutex_unlock(&pool_lock);
	cpt_put(tab);
	return ret;
}

static int pool_set(const char *val, const struct kernel_param *kp)
{
	return pool_write(val, false);
}

static int pool_cpus_set(const char *val, const struct kernel_param *kp)
{
	return pool_write(val, true);
}

/* The first partition whose threads ran off its CPUs or not at all. */
static int pool_check(char *buf, const struct cptab *tab)
{
	unsigned long seen;
	int cpt, cpu;

	for (cpt = 0; cpt < pool_parts && cpt < LK_MAX_PARTS; cpt++) {
		if (!cptab_weight(tab, cpt))
			continue;
		seen = atomic_long_read(&pool_seen[cpt]);
		if (!seen)
			return sysfs_emit(buf, "FAIL: partition %d's threads did not run\n",
					  cpt);
		for_each_set_bit(cpu, &seen, BITS_PER_LONG)
			if (!cpumask_test_cpu(cpu, cptab_cpumask(tab, cpt)))
				return sysfs_emit(buf, "FAIL: a thread of partition %d ran on CPU %d\n",
						  cpt, cpu);
	}
	return 0;
}

static int pool_get(char *buf, const struct kernel_param *kp)
{
	struct cptab *tab = NULL;
	int cpt, tries, len;

	mutex_lock(&pool_lock);
	len = sysfs_emit(buf, "FAIL: no pool\n");
	if (!pool)
		goto out;
	/* CPU events notify asynchronously: wait for the rebinding. */
	for (tries = 0; tries < 500; tries++) {
		cpt_put(tab);
		tab = cpt_get();
		if (cpt_threads_generation(pool) == cptab_generation(tab))
			break;
		msleep(10);
	}
	len = sysfs_emit(buf, "FAIL: pool on generation %llu, table %llu\n",
			 cpt_threads_generation(pool), cptab_generation(tab));
	if (cpt_threads_generation(pool) != cptab_generation(tab))
		goto out;
	for (cpt = 0; cpt < LK_MAX_PARTS; cpt++)
		atomic_long_set(&pool_seen[cpt], 0);
	msleep(200);
	len = pool_check(buf, tab);
	if (!len)
		len = sysfs_emit(buf, "PASS parts=%d threads=%d unbound=%d\n",
				 pool_parts, pool_threads,
				 cpt_threads_unbound(pool));
out:
	mutex_unlock(&pool_lock);
	cpt_put(tab);
	return len;
}

static const struct kernel_param_ops pool_ops = {
	.set = pool_set,
	.get = pool_get,
};
module_param_cb(pool, &pool_ops, NULL, 0644);
MODULE_PARM_DESC(pool, "write N: a pool of N threads per partition; read: check it");

/*
 * Where the pool's threads ran since the last read of .../pool, without
 * waiting or clearing: across CPU events, they must never have left their
 * partition's CPUs.
 */
static int pool_since_get(char *buf, const struct kernel_param *kp)
{
	struct cptab *tab = cpt_get();
	int len;

	mutex_lock(&pool_lock);
	len = pool ? pool_check(buf, tab) : sysfs_emit(buf, "FAIL: no pool\n");
	if (!len)
		len = sysfs_emit(buf, "PASS parts=%d\n", pool_parts);
	mutex_unlock(&pool_lock);
	cpt_put(tab);
	return len;
}

static const struct kernel_param_ops pool_since_ops = {
	.get = pool_since_get,
};
module_param_cb(pool_since, &pool_since_ops, NULL, 0400);
MODULE_PARM_DESC(pool_since, "read: check where the pool ran since the last read of pool");

static const struct kernel_param_ops pool_cpus_ops = {
	.set = pool_cpus_set,
	.get = pool_get,
};
module_param_cb(pool_cpus, &pool_cpus_ops, NULL, 0644);
MODULE_PARM_DESC(pool_cpus, "write N: a pool of N threads per CPU of each partition; read: check it");

/*
 * A pool kept on its own table: with pool_keep=1 the notifier does not
 * replace the pool when a table with another count comes, as a consumer
 * slow to rebuild would not (tests/live/guest-bind.sh).
 */
static bool pool_keep;
module_param(pool_keep, bool, 0644);
MODULE_PARM_DESC(pool_keep, "1: the notifier leaves the pool on its table");

/*
 * The pool's generation, sampled every millisecond by a thread while
 * pool_watch is on: it must never decrease (a pool never steps back to
 * an older table).  Counts and the first step back, under pool_lock.
 */
static struct task_struct *watch_task;
static unsigned long watch_samples, watch_backs;
static u64 watch_from, watch_to, watch_last;

static int watch_fn(void *arg)
{
	u64 gen;

	while (!kthread_should_stop()) {
		mutex_lock(&pool_lock);
		if (pool) {
			gen = cpt_threads_generation(pool);
			if (watch_samples && gen < watch_last && !watch_backs++) {
				watch_from = watch_last;
				watch_to = gen;
			}
			watch_last = gen;
			watch_samples++;
		}
		mutex_unlock(&pool_lock);
		usleep_range(500, 1000);
	}
	return 0;
}

static int pool_watch_set(const char *val, const struct kernel_param *kp)
{
	struct task_struct *t;
	bool on;

	if (kstrtobool(val, &on))
		return -EINVAL;
	if (on == !!watch_task)
		return 0;
	if (!on) {
		kthread_stop(watch_task);
		watch_task = NULL;
		return 0;
	}
	mutex_lock(&pool_lock);
	watch_samples = 0;
	watch_backs = 0;
	mutex_unlock(&pool_lock);
	t = kthread_run(watch_fn, NULL, "cpt_pt_watch");
	if (IS_ERR(t))
		return PTR_ERR(t);
	watch_task = t;
	return 0;
}

static int pool_watch_get(char *buf, const struct kernel_param *kp)
{
	int len;

	mutex_lock(&pool_lock);
	if (!watch_samples)
		len = sysfs_emit(buf, "FAIL: no sample of the pool's generation\n");
	else if (watch_backs)
		len = sysfs_emit(buf, "FAIL: the pool's generation went back from %llu to %llu (%lu times in %lu samples)\n",
				 watch_from, watch_to, watch_backs,
				 watch_samples);
	else
		len = sysfs_emit(buf, "PASS samples=%lu last=%llu\n",
				 watch_samples, watch_last);
	mutex_unlock(&pool_lock);
	return len;
}

static const struct kernel_param_ops pool_watch_ops = {
	.set = pool_watch_set,
	.get = pool_watch_get,
};
module_param_cb(pool_watch, &pool_watch_ops, NULL, 0644);
MODULE_PARM_DESC(pool_watch, "1: sample the pool's generation every ms, 0: stop; read: PASS if it never decreased");

/* cptab_bind_current() from a task whose affinity is fixed (bind_fixed). */
struct fixed_bind {
	struct work_struct work;
	struct completion done;
	cpumask_var_t before;
	int ret;
	bool same;
};

static void fixed_bind_now(struct fixed_bind *fb)
{
	cpumask_copy(fb->before, current->cpus_ptr);
	fb->ret = pt_bind(0);
	fb->same = cpumask_equal(fb->before, current->cpus_ptr);
}

static void fixed_work_fn(struct work_struct *work)
{
	fixed_bind_now(container_of(work, struct fixed_bind, work));
}

static int fixed_thread_fn(void *arg)
{
	struct fixed_bind *fb = arg;

	fixed_bind_now(fb);
	complete(&fb->done);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/* The kthread case: bound to one CPU before it runs, as cpuhp/N is. */
static int fixed_bind_kthread(struct fixed_bind *fb)
{
	struct task_struct *t;

	init_completion(&fb->done);
	t = kthread_create(fixed_thread_fn, fb, "cpt_fixed");
	if (IS_ERR(t))
		return PTR_ERR(t);
	cpus_read_lock();
	kthread_bind(t, cpumask_first(cpu_online_mask));
	cpus_read_unlock();
	wake_up_process(t);
	wait_for_completion(&fb->done);
	kthread_stop(t);
	return 0;
}

static int bind_fixed_get(char *buf, const struct kernel_param *kp)
{
	struct fixed_bind *fb;
	int wq_ret, len;
	bool wq_same;

	fb = kzalloc(sizeof(*fb), GFP_KERNEL);
	if (!fb || !alloc_cpumask_var(&fb->before, GFP_KERNEL)) {
		kfree(fb);
		return sysfs_emit(buf, "FAIL: no memory\n");
	}
	INIT_WORK(&fb->work, fixed_work_fn);
	cpus_read_lock();
	queue_work_on(cpumask_first(cpu_online_mask), system_wq, &fb->work);
	cpus_read_unlock();
	flush_work(&fb->work);
	wq_ret = fb->ret;
	wq_same = fb->same;
	len = fixed_bind_kthread(fb);
	if (len)
		len = sysfs_emit(buf, "FAIL: kthread_create(): %d\n", len);
	else if (wq_ret != -EINVAL || !wq_same || fb->ret != -EINVAL || !fb->same)
		len = sysfs_emit(buf, "FAIL: wq=%d (mask %s) kthread=%d (mask %s)\n",
				 wq_ret, wq_same ? "kept" : "changed", fb->ret,
				 fb->same ? "kept" : "changed");
	else
		len = sysfs_emit(buf, "PASS wq=%d kthread=%d\n", wq_ret, fb->ret);
	free_cpumask_var(fb->before);
	kfree(fb);
	return len;
}

static const struct kernel_param_ops bind_fixed_ops = {
	.get = bind_fixed_get,
};
module_param_cb(bind_fixed, &bind_fixed_ops, NULL, 0400);
MODULE_PARM_DESC(bind_fixed, "read: cptab_bind_current() from a system_wq work and a bound kthread");

/* Self-binding threads under hotplug (binders). */
#define BINDERS_MAX	16
static DEFINE_MUTEX(binders_lock);
static struct task_struct *binders[BINDERS_MAX];
static int nr_binders;
static atomic_long_t bind_calls, bind_ok, bind_refused, bind_outside;
static int bind_first_cpu = -1, bind_first_cpt = -1;
/*
 * One spinlock_t per binder, never contended: its unlock still ends in
 * migrate_enable() on PREEMPT_RT, but no binder sleeps on the lock with
 * migration disabled.  With one lock shared by all, 5.10-rt BUGed in
 * sched_cpu_dying() under a loaded host with the binds under the hotplug
 * lock too: a migrate-disabled task woken onto the dying CPU, which that
 * kernel allows (is_cpu_allowed()), whoever set its affinity.
 */
static spinlock_t bind_spin[BINDERS_MAX];

/* After a bind that returned 0: is current on a CPU of its own mask? */
static void binder_check(int cpt)
{
	int cpu = get_cpu();
	bool inside = cpumask_test_cpu(cpu, current->cpus_ptr);

	put_cpu();
	atomic_long_inc(&bind_ok);
	if (!inside && atomic_long_inc_return(&bind_outside) == 1) {
		WRITE_ONCE(bind_first_cpu, cpu);
		WRITE_ONCE(bind_first_cpt, cpt);
	}
}

static int binder_fn(void *arg)
{
	int id = (long)arg, cpt = id, n;
	struct cptab *tab;

	while (!kthread_should_stop()) {
		tab = cpt_get();
		n = cptab_number(tab);
		cpt = n > 0 ? (cpt + 1) % n : 0;
		atomic_long_inc(&bind_calls);
		if (n > 0 && !cptab_bind_current(tab, cpt))
			binder_check(cpt);
		else
			atomic_long_inc(&bind_refused);
		cpt_put(tab);
		spin_lock(&bind_spin[id]);
		spin_unlock(&bind_spin[id]);
		usleep_range(200, 400);
	}
	return 0;
}

static void binders_stop(void)
{
	while (nr_binders > 0)
		kthread_stop(binders[--nr_binders]);
}

static int binders_set(const char *val, const struct kernel_param *kp)
{
	struct task_struct *t;
	unsigned int n;
	int ret = 0;

	if (kstrtouint(val, 0, &n) || n > BINDERS_MAX)
		return -EINVAL;
	mutex_lock(&binders_lock);
	binders_stop();
	/*
	 * Each start counts afresh; a stop (0) keeps the counts, for a
	 * reader that needs them final (guest-trace.sh).
	 */
	if (n) {
		atomic_long_set(&bind_calls, 0);
		atomic_long_set(&bind_ok, 0);
		atomic_long_set(&bind_refused, 0);
		atomic_long_set(&bind_outside, 0);
		WRITE_ONCE(bind_first_cpu, -1);
		WRITE_ONCE(bind_first_cpt, -1);
	}
	while (nr_binders < n) {
		spin_lock_init(&bind_spin[nr_binders]);
		t = kthread_run(binder_fn, (void *)(long)nr_binders,
				"cpt_binder/%d", nr_binders);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			break;
		}
		binders[nr_binders++] = t;
	}
	mutex_unlock(&binders_lock);
	return ret;
}

static int binders_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "binds=%ld ok=%ld refused=%ld outside=%ld first=%d/%d\n",
			  atomic_long_read(&bind_calls),
			  atomic_long_read(&bind_ok),
			  atomic_long_read(&bind_refused),
			  atomic_long_read(&bind_outside),
			  READ_ONCE(bind_first_cpu), READ_ONCE(bind_first_cpt));
}

static const struct kernel_param_ops binders_ops = {
	.set = binders_set,
	.get = binders_get,
};
module_param_cb(binders, &binders_ops, NULL, 0644);
MODULE_PARM_DESC(binders, "write N: N threads binding themselves to each partition in turn; read: counts");

/* A table with another count: a new pool for it, as a consumer does. */
static int pool_notify(struct notifier_block *nb, unsigned long action,
		       void *data)
{
	struct cptab *tab = data;

	/*
	 * Nothing to do for the same count, or before the first pool: do not
	 * wait for a pool being started (tests/live/guest-rebind.sh times
	 * sysctl writes then).
	 */
	if (!READ_ONCE(pool) || READ_ONCE(pool_parts) == cptab_number(tab) ||
	    READ_ONCE(pool_keep))
		return NOTIFY_OK;
	mutex_lock(&pool_lock);
	if (pool && cptab_number(tab) != pool_parts &&
	    pool_restart(tab, pool_per_cpt, pool_per_cpu))
		pr_err("cannot restart the pool for %d partitions\n",
		       cptab_number(tab));
	mutex_unlock(&pool_lock);
	return NOTIFY_OK;
}

static struct notifier_block pool_nb = {
	.notifier_call = pool_notify,
};

static int __init percpt_test_init(void)
{
	return cpt_register_notifier(&pool_nb);
}

static void __exit percpt_test_exit(void)
{
	cpt_unregister_notifier(&pool_nb);
	if (watch_task)
		kthread_stop(watch_task);
	mutex_lock(&binders_lock);
	binders_stop();
	mutex_unlock(&binders_lock);
	cpt_threads_stop(pool);
	cpt_percpt_free(keep_pc);
	keep_last = false;
	last_replace(NULL, NULL);
	cpt_lock_free(lc_kept);
}

module_init(percpt_test_init);
module_exit(percpt_test_exit);
MODULE_LICENSE("GPL");
CPT_IMPORT_NS;
MODULE_DESCRIPTION("cpt test: per-partition helpers and inline lookups");
