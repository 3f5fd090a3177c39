// SPDX-License-Identifier: GPL-2.0
/*
 * cpt_consumer: a module that uses every function of include/cpt.h at load
 * time and checks the answers against each other and against the kernel's
 * own view (online mask, cpu_to_node(), node_distance()).  It then starts
 * one kthread per partition (and one for CPT_ANY) that binds itself with
 * cpt_bind_current() and reports where it runs.
 *
 * Load succeeds with "cpt_consumer: N checks passed", or fails with -EINVAL
 * after a "check failed: ..." line naming the first check that did not
 * hold.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/topology.h>

#include "cpt.h"

static unsigned int nr_checks;
static bool failed;

/* Count a check; report the first one that fails.  Returns @ok. */
static __printf(2, 3) bool check(bool ok, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	nr_checks++;
	if (ok)
		return true;
	if (!failed) {
		va_start(args, fmt);
		vaf.fmt = fmt;
		vaf.va = &args;
		pr_err("check failed: %pV\n", &vaf);
		va_end(args);
	}
	failed = true;
	return false;
}

/* Masks, weights and per-CPU partitions agree with each other. */
static void check_partitions(int n)
{
	const struct cpumask *all = cpt_cpumask(CPT_ANY);
	const nodemask_t *all_nodes = cpt_nodemask(CPT_ANY);
	unsigned int cpu;
	int p, sum = 0, placed = 0;

	if (!check(n >= 1, "cpt_number() = %d >= 1", n) ||
	    !check(all && all_nodes, "CPT_ANY has masks"))
		return;

	for (p = 0; p < n; p++) {
		const struct cpumask *mask = cpt_cpumask(p);
		const nodemask_t *nodes = cpt_nodemask(p);
		int w = cpt_weight(p);

		if (!check(mask && nodes, "partition %d has masks", p))
			return;
		check(w == cpumask_weight_and(mask, cpu_online_mask),
		      "cpt_weight(%d) = %d counts its online CPUs", p, w);
		check(cpt_online(p) == (w > 0),
		      "cpt_online(%d) agrees with cpt_weight", p);
		check(!cpumask_empty(mask), "partition %d has CPUs", p);
		check(!nodes_empty(*nodes), "partition %d has nodes", p);
		check(cpumask_subset(mask, all),
		      "partition %d within CPT_ANY's cpumask", p);
		check(nodes_subset(*nodes, *all_nodes),
		      "partition %d within CPT_ANY's nodemask", p);
		for_each_cpu(cpu, mask) {
			check(cpt_of_cpu(cpu) == p,
			      "cpt_of_cpu(%u) = %d, in cpumask of %d",
			      cpu, cpt_of_cpu(cpu), p);
			check(node_isset(cpu_to_node(cpu), *nodes),
			      "node %d of CPU %u in nodemask of %d",
			      cpu_to_node(cpu), cpu, p);
		}
		sum += w;
	}

	for_each_online_cpu(cpu)
		if (cpt_of_cpu(cpu) >= 0)
			placed++;
	check(sum == placed, "weights add up to %d, placed online CPUs %d",
	      sum, placed);
	check(cpt_weight(CPT_ANY) == sum, "cpt_weight(CPT_ANY) = %d, sum %d",
	      cpt_weight(CPT_ANY), sum);
	check(cpt_online(CPT_ANY), "cpt_online(CPT_ANY)");
}

/* Every possible CPU maps to a partition holding it, or to CPT_ANY. */
static void check_cpus(int n)
{
	const struct cpumask *all = cpt_cpumask(CPT_ANY);
	unsigned int cpu;
	int p;

	for_each_possible_cpu(cpu) {
		p = cpt_of_cpu(cpu);
		if (p == CPT_ANY) {
			check(!cpumask_test_cpu(cpu, all),
			      "unplaced CPU %u not in CPT_ANY's cpumask", cpu);
			continue;
		}
		if (!check(p >= 0 && p < n, "cpt_of_cpu(%u) = %d in range",
			   cpu, p))
			continue;
		check(cpumask_test_cpu(cpu, cpt_cpumask(p)),
		      "CPU %u in cpumask of its partition %d", cpu, p);
	}
}

/* cpt_of_node() is the lowest partition whose nodemask has the node. */
static void check_nodes(int n)
{
	int node, p, q;

	for (node = 0; node < nr_node_ids; node++) {
		p = cpt_of_node(node);
		if (p == CPT_ANY) {
			check(!node_isset(node, *cpt_nodemask(CPT_ANY)),
			      "node %d of no partition not in CPT_ANY", node);
			continue;
		}
		if (!check(p >= 0 && p < n, "cpt_of_node(%d) = %d in range",
			   node, p))
			continue;
		check(node_isset(node, *cpt_nodemask(p)),
		      "node %d in nodemask of cpt_of_node = %d", node, p);
		for (q = 0; q < p; q++)
			check(!node_isset(node, *cpt_nodemask(q)),
			      "cpt_of_node(%d) = %d is the lowest (not %d)",
			      node, p, q);
	}
}

/* Largest node_distance() between the nodes of two partitions, both ways. */
static int expected_distance(int a, int b)
{
	int x, y, d = 0;

	for_each_node_mask(x, *cpt_nodemask(a))
		for_each_node_mask(y, *cpt_nodemask(b))
			d = max3(d, node_distance(x, y), node_distance(y, x));
	return d;
}

static void check_distance(int n)
{
	int a, b, d, any = cpt_distance(CPT_ANY, CPT_ANY);

	for (a = 0; a < n; a++) {
		for (b = 0; b < n; b++) {
			d = cpt_distance(a, b);
			check(d == cpt_distance(b, a),
			      "cpt_distance(%d, %d) = %d symmetric", a, b, d);
			check(d >= LOCAL_DISTANCE,
			      "cpt_distance(%d, %d) = %d >= %d", a, b, d,
			      LOCAL_DISTANCE);
			check(d == expected_distance(a, b),
			      "cpt_distance(%d, %d) = %d is the node maximum %d",
			      a, b, d, expected_distance(a, b));
			check(d <= cpt_distance(a, CPT_ANY) && d <= any,
			      "cpt_distance(%d, %d) = %d within CPT_ANY's",
			      a, b, d);
		}
	}
}

/* Out-of-range arguments are refused, never dereferenced. */
static void check_invalid(int n)
{
	const int bad[] = { n, n + 1, -2, INT_MIN, INT_MAX };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int b = bad[i];

		check(cpt_weight(b) == -EINVAL, "cpt_weight(%d) -EINVAL", b);
		check(!cpt_online(b), "cpt_online(%d) false", b);
		check(!cpt_cpumask(b), "cpt_cpumask(%d) NULL", b);
		check(!cpt_nodemask(b), "cpt_nodemask(%d) NULL", b);
		check(cpt_distance(b, 0) == -EINVAL &&
		      cpt_distance(0, b) == -EINVAL,
		      "cpt_distance with %d -EINVAL", b);
		check(cpt_spread_node(b) == -EINVAL,
		      "cpt_spread_node(%d) -EINVAL", b);
		/* Fails before binding, so insmod keeps its affinity. */
		check(cpt_bind_current(b) == -EINVAL,
		      "cpt_bind_current(%d) -EINVAL", b);
	}

	check(cpt_of_cpu(-1) == -EINVAL, "cpt_of_cpu(-1) -EINVAL");
	check(cpt_of_cpu(INT_MIN) == -EINVAL, "cpt_of_cpu(INT_MIN) -EINVAL");
	check(cpt_of_cpu(nr_cpu_ids) == -EINVAL,
	      "cpt_of_cpu(nr_cpu_ids = %u) -EINVAL", nr_cpu_ids);
	check(cpt_of_cpu(INT_MAX) == -EINVAL, "cpt_of_cpu(INT_MAX) -EINVAL");
	check(cpt_of_node(-1) == -EINVAL, "cpt_of_node(-1) -EINVAL");
	check(cpt_of_node(nr_node_ids) == -EINVAL,
	      "cpt_of_node(nr_node_ids = %u) -EINVAL", nr_node_ids);
	check(cpt_of_node(INT_MAX) == -EINVAL, "cpt_of_node(INT_MAX) -EINVAL");
}

/* Round robin: n calls visit each of n nodes; never outside the mask. */
static void check_spread(int n)
{
	nodemask_t seen;
	int p, i, node, w;

	for (p = CPT_ANY; p < n; p++) {
		const nodemask_t *nodes = cpt_nodemask(p);

		w = nodes_weight(*nodes);
		nodes_clear(seen);
		for (i = 0; i < w; i++) {
			node = cpt_spread_node(p);
			if (!check(node >= 0 && node < MAX_NUMNODES &&
				   node_isset(node, *nodes),
				   "cpt_spread_node(%d) = %d in its nodemask",
				   p, node))
				return;
			node_set(node, seen);
		}
		check(nodes_equal(seen, *nodes),
		      "cpt_spread_node(%d) visits all %d nodes in %d calls",
		      p, w, w);

		for (i = 0; i < 10000; i++) {
			node = cpt_spread_node(p);
			if (node < 0 || node >= MAX_NUMNODES ||
			    !node_isset(node, *nodes))
				break;
		}
		check(i == 10000, "cpt_spread_node(%d) = %d in its nodemask",
		      p, node);
	}
}

static void check_current(int n)
{
	unsigned int cpu;
	int p, q;

	p = cpt_current();
	check(p >= 0 && p < n, "cpt_current() = %d in range", p);

	cpu = get_cpu();
	p = cpt_current();
	q = cpt_of_cpu(cpu);
	put_cpu();
	check(q == CPT_ANY || p == q,
	      "cpt_current() = %d, cpt_of_cpu(%u) = %d", p, cpu, q);
}

struct consumer_thread {
	int cpt;
	struct task_struct *task;
	struct completion done;
	int bind_ret;
	unsigned int cpu;
	int current_cpt;
};

static int consumer_thread_fn(void *data)
{
	struct consumer_thread *t = data;

	t->bind_ret = cpt_bind_current(t->cpt);
	/* Bound: we may still move, but only inside the partition. */
	t->cpu = raw_smp_processor_id();
	t->current_cpt = cpt_current();
	complete(&t->done);

	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void check_thread(const struct consumer_thread *t)
{
	if (!check(t->bind_ret == 0, "cpt_bind_current(%d) = %d", t->cpt,
		   t->bind_ret))
		return;
	check(cpumask_test_cpu(t->cpu, cpt_cpumask(t->cpt)),
	      "thread bound to %d runs on CPU %u of it", t->cpt, t->cpu);
	if (t->cpt == CPT_ANY)
		check(t->current_cpt >= 0 && t->current_cpt < cpt_number(),
		      "cpt_current() = %d in range on CPU %u",
		      t->current_cpt, t->cpu);
	else
		check(t->current_cpt == t->cpt,
		      "cpt_current() = %d in a thread bound to %d",
		      t->current_cpt, t->cpt);
}

/* One thread per partition with an online CPU, and one for CPT_ANY. */
static void check_threads(int n)
{
	struct consumer_thread *threads;
	int i, nr = 0;

	threads = kcalloc(n + 1, sizeof(*threads), GFP_KERNEL);
	if (!check(threads, "allocate %d thread records", n + 1))
		return;

	for (i = CPT_ANY; i < n; i++) {
		struct consumer_thread *t = &threads[nr];

		if (!cpt_online(i))
			continue;
		t->cpt = i;
		init_completion(&t->done);
		t->task = kthread_create_on_node(consumer_thread_fn, t,
						 cpt_spread_node(i),
						 "cpt_consumer/%d", i);
		if (!check(!IS_ERR(t->task), "start a thread for %d: %d", i,
			   PTR_ERR_OR_ZERO(t->task)))
			break;
		wake_up_process(t->task);
		nr++;
	}

	for (i = 0; i < nr; i++) {
		wait_for_completion(&threads[i].done);
		kthread_stop(threads[i].task);
		check_thread(&threads[i]);
	}
	kfree(threads);
}

static int __init cpt_consumer_init(void)
{
	int n = cpt_number();

	check_partitions(n);
	if (!failed) {
		check_cpus(n);
		check_nodes(n);
		check_distance(n);
		check_invalid(n);
		check_spread(n);
		check_current(n);
		check_threads(n);
	}
	if (failed)
		return -EINVAL;
	pr_info("%u checks passed\n", nr_checks);
	return 0;
}

static void __exit cpt_consumer_exit(void)
{
}

module_init(cpt_consumer_init);
module_exit(cpt_consumer_exit);

MODULE_DESCRIPTION("cpt test: checks every function cpt exports");
MODULE_LICENSE("GPL");
