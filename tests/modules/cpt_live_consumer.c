// SPDX-License-Identifier: GPL-2.0
/*
 * cpt_live_consumer: a consumer of cpt that lives through table
 * replacements, as a Lustre service would.
 *
 * At load it registers a notifier and holds the table in force twice: as
 * @first, kept until unload, whose answers it fingerprints, and as @cur,
 * the table its per-partition structures are built from: one worker
 * kthread per partition, bound to it.  On each notification it holds the
 * new table as @cur and puts the previous one; when the number of
 * partitions changed it stops the workers and starts new ones, otherwise
 * the same workers rebind to their partition in the new table.  Workers
 * whose partition has no online CPU run wherever the scheduler put them
 * and rebind when it comes back.
 *
 * Reading /sys/module/cpt_live_consumer/parameters/verify checks, and
 * answers "PASS ..." or "FAIL: <first check that failed> ..." (also in the
 * kernel log):
 *   - @first still answers exactly as at load (it was replaced, not freed);
 *   - @cur is the table in force (after waiting up to 5 s for the
 *     notification of a CPU event, which is asynchronous);
 *   - there is one worker per partition of @cur, every worker makes
 *     progress, and each worker of a partition with an online CPU is bound
 *     to it for this table and runs on one of its CPUs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sysfs.h>

#include "cpt.h"

/*
 * @p over CPT_ANY, then each partition 0 .. @n - 1.  CPT_ANY is no
 * neighbour of 0 (it is below -MAX_ERRNO, cpt.h), so it is taken on its
 * own rather than by counting up from it.
 */
#define for_any_and_each_part(p, n)					\
	for ((p) = CPT_ANY; (p) < (n); (p) = (p) == CPT_ANY ? 0 : (p) + 1)

struct worker {
	int cpt;
	struct task_struct *task;
	atomic_t rebind;	/* set: bind again to @cpt of @cur */
	atomic_t loops;
	int cpu;		/* where the last loop ran */
	int bind_ret;
	u64 bound_gen;		/* generation of the table bound to */
};

/* Serializes rebuilds and checks; never taken by the workers. */
static DEFINE_MUTEX(lc_rebuild_lock);
/* Protects @cur against the workers binding to it; inside the above. */
static DEFINE_MUTEX(lc_lock);

static struct cptab *first;
static u32 first_print;
static struct cptab *cur;
static struct worker *workers;
static int nr_workers;
static atomic_t nr_notified = ATOMIC_INIT(0);
static atomic_t nr_rebuilds = ATOMIC_INIT(0);

/* FNV-1a over everything a table answers, but the spread rotors. */
static u32 mix(u32 h, int v)
{
	return (h ^ (u32)v) * 16777619u;
}

static u32 fingerprint(const struct cptab *tab)
{
	int n = cptab_number(tab);
	u32 h = 2166136261u;
	unsigned int cpu;
	int p, q, node;

	h = mix(h, n);
	h = mix(h, (int)cptab_generation(tab));
	for_any_and_each_part(p, n) {
		h = mix(h, cptab_weight(tab, p));
		h = mix(h, cptab_weight(tab, p) > 0);
		for_each_cpu(cpu, cptab_cpumask(tab, p))
			h = mix(h, cpu);
		for_each_node_mask(node, *cptab_nodemask(tab, p))
			h = mix(h, node);
		for_any_and_each_part(q, n)
			h = mix(h, cptab_distance(tab, p, q));
	}
	for_each_possible_cpu(cpu)
		h = mix(h, cptab_of_cpu(tab, cpu));
	for (node = 0; node < nr_node_ids; node++)
		h = mix(h, cptab_of_node(tab, node));
	return h;
}

static int worker_fn(void *data)
{
	struct worker *w = data;

	while (!kthread_should_stop()) {
		if (atomic_xchg(&w->rebind, 0)) {
			mutex_lock(&lc_lock);
			/* No online CPU: stay wherever the scheduler put us. */
			w->bind_ret = cptab_weight(cur, w->cpt) > 0 ?
				      cptab_bind_current(cur, w->cpt) : 0;
			w->bound_gen = cptab_generation(cur);
			mutex_unlock(&lc_lock);
		}
		WRITE_ONCE(w->cpu, raw_smp_processor_id());
		atomic_inc(&w->loops);
		schedule_timeout_interruptible(msecs_to_jiffies(10));
	}
	return 0;
}

static void stop_workers(void)
{
	int i;

	for (i = 0; i < nr_workers; i++)
		if (!IS_ERR_OR_NULL(workers[i].task))
			kthread_stop(workers[i].task);
	kfree(workers);
	workers = NULL;
	nr_workers = 0;
}

/* One worker per partition of @cur; the caller holds lc_rebuild_lock. */
static int start_workers(void)
{
	int n = cptab_number(cur), i;

	workers = kcalloc(n, sizeof(*workers), GFP_KERNEL);
	if (!workers)
		return -ENOMEM;
	nr_workers = n;
	for (i = 0; i < n; i++) {
		struct worker *w = &workers[i];

		w->cpt = i;
		atomic_set(&w->rebind, 1);
		w->task = kthread_create_on_node(worker_fn, w,
						 cptab_spread_node(cur, i),
						 "cpt_live/%d", i);
		if (IS_ERR(w->task)) {
			pr_err("cannot start a worker for partition %d: %ld\n",
			       i, PTR_ERR(w->task));
			return PTR_ERR(w->task);
		}
		wake_up_process(w->task);
	}
	return 0;
}

static void rebind_workers(void)
{
	int i;

	for (i = 0; i < nr_workers; i++) {
		atomic_set(&workers[i].rebind, 1);
		wake_up_process(workers[i].task);
	}
}

static int lc_never(struct notifier_block *nb, unsigned long action,
		    void *data)
{
	return NOTIFY_DONE;
}

static struct notifier_block lc_probe_nb = {
	.notifier_call = lc_never,
};

/*
 * What the calls that cpt.h forbids in a callback returned, tried in the
 * first notification (1: not tried yet).  Read from the "contract"
 * parameter.
 */
static int contract_register = 1, contract_unregister = 1, contract_bind = 1;

static void lc_try_forbidden(struct notifier_block *nb, struct cptab *tab)
{
	if (contract_register != 1)
		return;
	contract_register = cpt_register_notifier(&lc_probe_nb);
	contract_unregister = cpt_unregister_notifier(nb);
	contract_bind = cptab_bind_current(tab, 0);
}

static int contract_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "register=%d unregister=%d bind=%d\n",
			  contract_register, contract_unregister,
			  contract_bind);
}

static const struct kernel_param_ops contract_ops = {
	.get = contract_get,
};
module_param_cb(contract, &contract_ops, NULL, 0444);
MODULE_PARM_DESC(contract,
		 "read: what the calls a callback must not make returned there");

/* A new table is in force: rebuild what depends on the partitions. */
static int lc_notify(struct notifier_block *nb, unsigned long action,
		     void *data)
{
	struct cptab *new = data, *old;
	bool resize;

	atomic_inc(&nr_notified);
	if (action != CPT_TABLE_REPLACED)
		return NOTIFY_DONE;
	lc_try_forbidden(nb, new);

	mutex_lock(&lc_rebuild_lock);
	if (cptab_generation(new) <= cptab_generation(cur))
		goto unlock;	/* already built from it, or from a newer one */
	resize = cptab_number(new) != nr_workers;
	if (resize)
		stop_workers();
	mutex_lock(&lc_lock);
	old = cur;
	cur = cpt_hold(new);
	mutex_unlock(&lc_lock);
	/* The workers only use @cur under lc_lock: @old is ours alone. */
	cpt_put(old);
	if (resize) {
		if (start_workers())
			stop_workers();
	} else {
		rebind_workers();
	}
	atomic_inc(&nr_rebuilds);
unlock:
	mutex_unlock(&lc_rebuild_lock);
	return NOTIFY_OK;
}

static struct notifier_block lc_nb = {
	.notifier_call = lc_notify,
};

/* The first failure, for the verify answer. */
static char fail_msg[200];
static unsigned int nr_checks;

static __printf(2, 3) bool check(bool ok, const char *fmt, ...)
{
	va_list args;

	nr_checks++;
	if (ok || fail_msg[0])
		return ok;
	va_start(args, fmt);
	vscnprintf(fail_msg, sizeof(fail_msg), fmt, args);
	va_end(args);
	return false;
}

/* Wait for the notification of the table in force to be handled. */
static bool wait_current(struct cptab **in_force)
{
	unsigned long deadline = jiffies + 5 * HZ;

	for (;;) {
		*in_force = cpt_get();
		mutex_lock(&lc_rebuild_lock);
		if (cptab_generation(cur) == cptab_generation(*in_force))
			return true;	/* with lc_rebuild_lock held */
		mutex_unlock(&lc_rebuild_lock);
		cpt_put(*in_force);
		if (time_after(jiffies, deadline)) {
			mutex_lock(&lc_rebuild_lock);
			*in_force = NULL;
			return false;
		}
		msleep(20);
	}
}

static void check_workers(void)
{
	int *loops, i;

	if (!check(nr_workers == cptab_number(cur),
		   "%d workers for %d partitions", nr_workers,
		   cptab_number(cur)))
		return;
	loops = kcalloc(nr_workers, sizeof(*loops), GFP_KERNEL);
	if (!check(loops != NULL, "out of memory"))
		return;
	for (i = 0; i < nr_workers; i++)
		loops[i] = atomic_read(&workers[i].loops);
	/* Each worker loops every 10 ms; give a slow TCG guest plenty. */
	msleep(300);
	for (i = 0; i < nr_workers; i++) {
		struct worker *w = &workers[i];
		int cpu = READ_ONCE(w->cpu);

		check(atomic_read(&w->loops) > loops[i],
		      "worker %d made no progress (%d loops)", i, loops[i]);
		if (cptab_weight(cur, i) <= 0)
			continue;
		check(w->bound_gen == cptab_generation(cur) && !w->bind_ret,
		      "worker %d bound to generation %llu (error %d), table %llu",
		      i, w->bound_gen, w->bind_ret, cptab_generation(cur));
		check(cpumask_test_cpu(cpu, cptab_cpumask(cur, i)),
		      "worker %d runs on CPU %d, outside its partition", i,
		      cpu);
	}
	kfree(loops);
}

static int verify_get(char *buffer, const struct kernel_param *kp)
{
	struct cptab *in_force;
	bool caught_up;
	int len;

	fail_msg[0] = '\0';
	nr_checks = 0;
	caught_up = wait_current(&in_force);
	check(caught_up, "no notification for the table in force within 5 s");
	check(fingerprint(first) == first_print,
	      "the first table (generation %llu) answers differently now",
	      cptab_generation(first));
	check_workers();
	len = sysfs_emit(buffer,
			 "%s%s first=%llu cur=%llu in_force=%llu notified=%d rebuilds=%d workers=%d checks=%u\n",
			 fail_msg[0] ? "FAIL: " : "PASS",
			 fail_msg, cptab_generation(first),
			 cptab_generation(cur), cptab_generation(in_force),
			 atomic_read(&nr_notified), atomic_read(&nr_rebuilds),
			 nr_workers, nr_checks);
	mutex_unlock(&lc_rebuild_lock);
	cpt_put(in_force);
	pr_info("verify: %s", buffer);
	return len;
}

static const struct kernel_param_ops verify_ops = {
	.get = verify_get,
};
module_param_cb(verify, &verify_ops, NULL, 0400);
MODULE_PARM_DESC(verify, "read: check the consumer, answer PASS or FAIL");

static int __init lc_init(void)
{
	int ret;

	/* Register first, then take the table: no replacement is missed. */
	ret = cpt_register_notifier(&lc_nb);
	if (ret)
		return ret;
	mutex_lock(&lc_rebuild_lock);
	first = cpt_get();
	first_print = fingerprint(first);
	cur = cpt_hold(first);
	ret = start_workers();
	if (ret)
		stop_workers();
	mutex_unlock(&lc_rebuild_lock);
	if (ret) {
		cpt_unregister_notifier(&lc_nb);
		cpt_put(cur);
		cpt_put(first);
		return ret;
	}
	pr_info("holding generation %llu, %d workers\n",
		cptab_generation(first), nr_workers);
	return 0;
}

static void __exit lc_exit(void)
{
	/* Returns after a running notification: none can start afterwards. */
	cpt_unregister_notifier(&lc_nb);
	mutex_lock(&lc_rebuild_lock);
	stop_workers();
	mutex_unlock(&lc_rebuild_lock);
	cpt_put(cur);
	cpt_put(first);
}

module_init(lc_init);
module_exit(lc_exit);

MODULE_DESCRIPTION("cpt test: a consumer that follows table replacements");
MODULE_LICENSE("GPL");
CPT_IMPORT_NS;
