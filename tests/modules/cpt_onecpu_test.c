// SPDX-License-Identifier: GPL-2.0
/*
 * cpt_onecpu_test: per-CPU work queued on a CPU while it goes offline,
 * with no cpt code at all (it uses no cpt symbol, and
 * tests/live/guest-onecpu.sh runs it with cpt.ko never loaded).  It tells
 * the scheduler's and the workqueue's own behaviour from cpt's.
 *
 * Write the CPU to .../cpu, then N to .../works: a kthread, bound to
 * another online CPU, queues N works on that CPU's system_wq pool, one
 * every 0.5-1 ms, each blocking until the next write, so that each one
 * the pool's idle workers cannot take makes it create a worker; a write
 * releases them and waits for them (0 stops).  Read .../works:
 * "works=N cpu=C queued=Q ran=R".
 *
 * A worker the pool creates after the CPU's teardown unbound it is bound
 * to that one CPU (kthread_bind_mask() to the pool's mask).  Upstream
 * Linux from 5.11 (commit 5ba2ffba13a1, "sched: Fix CPU hotplug / tighten
 * is_per_cpu_kthread()") refuses to wake such a thread on a CPU going
 * down.  A kernel without that fix takes any kthread whose mask is one
 * CPU for a per-CPU kthread, wakes it there after the CPU was emptied,
 * and sched_cpu_dying() finds the CPU not vacated: Debian 11's 5.10-rt
 * BUGs.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sysfs.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#define ONECPU_MAX 256

static DEFINE_MUTEX(onecpu_lock);
static struct task_struct *onecpu_queuer;
static struct work_struct onecpu_works[ONECPU_MAX];
static int nr_onecpu;
static atomic_long_t onecpu_queued, onecpu_ran;
static DECLARE_WAIT_QUEUE_HEAD(onecpu_wait);
static bool onecpu_release;

static int onecpu_cpu = 1;
module_param_named(cpu, onecpu_cpu, int, 0644);
MODULE_PARM_DESC(cpu, "the CPU whose pool the next works go to");

static void onecpu_work_fn(struct work_struct *work)
{
	wait_event(onecpu_wait, READ_ONCE(onecpu_release));
	atomic_long_inc(&onecpu_ran);
}

/* Queue the works on @arg's CPU one by one, then wait to be stopped. */
static int onecpu_queuer_fn(void *arg)
{
	int cpu = (long)arg, i;

	for (i = 0; i < nr_onecpu && !kthread_should_stop(); i++) {
		if (queue_work_on(cpu, system_wq, &onecpu_works[i]))
			atomic_long_inc(&onecpu_queued);
		usleep_range(500, 1000);
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

static void onecpu_stop(void)
{
	int i;

	if (onecpu_queuer)
		kthread_stop(onecpu_queuer);
	onecpu_queuer = NULL;
	WRITE_ONCE(onecpu_release, true);
	wake_up_all(&onecpu_wait);
	for (i = 0; i < nr_onecpu; i++)
		flush_work(&onecpu_works[i]);
	WRITE_ONCE(onecpu_release, false);
	nr_onecpu = 0;
}

/* The queuer, bound to an online CPU other than @cpu; 0 or an errno. */
static int onecpu_start(int cpu, int n)
{
	struct task_struct *t;
	int i, home, ret = 0;

	for (i = 0; i < n; i++)
		INIT_WORK(&onecpu_works[i], onecpu_work_fn);
	nr_onecpu = n;
	t = kthread_create(onecpu_queuer_fn, (void *)(long)cpu, "onecpu/%d", cpu);
	if (IS_ERR(t)) {
		nr_onecpu = 0;
		return PTR_ERR(t);
	}
	cpus_read_lock();
	home = cpumask_any_but(cpu_online_mask, cpu);
	if (!cpu_online(cpu) || home >= nr_cpu_ids)
		ret = -ENODEV;
	else
		ret = set_cpus_allowed_ptr(t, cpumask_of(home));
	cpus_read_unlock();
	if (ret) {
		/* Never woken: kthread_stop() ends it before it runs. */
		kthread_stop(t);
		nr_onecpu = 0;
		return ret;
	}
	onecpu_queuer = t;
	wake_up_process(t);
	return 0;
}

static int onecpu_works_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int cpu, ret = 0;

	if (kstrtouint(val, 0, &n) || n > ONECPU_MAX)
		return -EINVAL;
	cpu = READ_ONCE(onecpu_cpu);
	if (n && (cpu < 0 || cpu >= nr_cpu_ids))
		return -EINVAL;
	mutex_lock(&onecpu_lock);
	onecpu_stop();
	if (n)
		ret = onecpu_start(cpu, n);
	mutex_unlock(&onecpu_lock);
	return ret;
}

static int onecpu_works_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "works=%d cpu=%d queued=%ld ran=%ld\n",
			  READ_ONCE(nr_onecpu), READ_ONCE(onecpu_cpu),
			  atomic_long_read(&onecpu_queued),
			  atomic_long_read(&onecpu_ran));
}

static const struct kernel_param_ops onecpu_works_ops = {
	.set = onecpu_works_set,
	.get = onecpu_works_get,
};
module_param_cb(works, &onecpu_works_ops, NULL, 0644);
MODULE_PARM_DESC(works, "write N: N blocking works queued on .../cpu's pool one by one; 0 releases them; read: counts");

static void __exit onecpu_exit(void)
{
	mutex_lock(&onecpu_lock);
	onecpu_stop();
	mutex_unlock(&onecpu_lock);
}
module_exit(onecpu_exit);

MODULE_DESCRIPTION("per-CPU works queued across their CPU's offline, without cpt");
MODULE_LICENSE("GPL");
