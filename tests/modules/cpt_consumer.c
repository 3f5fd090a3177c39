// SPDX-License-Identifier: GPL-2.0
/*
 * cpt_consumer: a module that uses every function of include/cpt.h at load
 * time and checks the answers against each other and against the kernel's
 * own view (online mask, cpu_to_node(), node_distance()).  It holds the
 * table in force (cpt_get()) under cpus_read_lock(), so that no CPU event
 * changes the online mask under the checks, and checks that table's
 * lookups (cptab_*()).  It then starts one kthread per partition with an online
 * CPU (and one for CPT_ANY) that binds itself with cptab_bind_current() and
 * reports where it runs.  Load it after any CPU events: offline members
 * and partitions without an online CPU are part of what it checks.
 *
 * Load succeeds with "cpt_consumer: N checks passed", or fails with -EINVAL
 * after a "check failed: ..." line naming the first check that did not
 * hold.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpu.h>
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

/*
 * @p over CPT_ANY, then each partition 0 .. @n - 1.  CPT_ANY is no
 * neighbour of 0 (it is below -MAX_ERRNO, cpt.h), so it is taken on its
 * own rather than by counting up from it.
 */
#define for_any_and_each_part(p, n)					\
	for ((p) = CPT_ANY; (p) < (n); (p) = (p) == CPT_ANY ? 0 : (p) + 1)

static unsigned int nr_checks;
static bool failed;
static struct cptab *tab;

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
/* cpumask_weight_and() came with 6.0; this runs on 5.10 too. */
static int count_online(const struct cpumask *mask)
{
	unsigned int cpu;
	int n = 0;

	for_each_cpu_and(cpu, mask, cpu_online_mask)
		n++;
	return n;
}

static void check_partitions(int n)
{
	const struct cpumask *all = cptab_cpumask(tab, CPT_ANY);
	const nodemask_t *all_nodes = cptab_nodemask(tab, CPT_ANY);
	unsigned int cpu;
	int p, sum = 0, placed = 0;

	if (!check(n >= 1, "cptab_number() = %d >= 1", n) ||
	    !check(all && all_nodes, "CPT_ANY has masks"))
		return;

	for (p = 0; p < n; p++) {
		const struct cpumask *mask = cptab_cpumask(tab, p);
		const nodemask_t *nodes = cptab_nodemask(tab, p);
		int w = cptab_weight(tab, p);

		if (!check(mask && nodes, "partition %d has masks", p))
			return;
		check(w == count_online(mask),
		      "cptab_weight(%d) = %d counts its online CPUs", p, w);
		check(!cpumask_empty(mask), "partition %d has CPUs", p);
		check(!nodes_empty(*nodes), "partition %d has nodes", p);
		check(cpumask_subset(mask, all),
		      "partition %d within CPT_ANY's cpumask", p);
		check(nodes_subset(*nodes, *all_nodes),
		      "partition %d within CPT_ANY's nodemask", p);
		for_each_cpu(cpu, mask) {
			check(cptab_of_cpu(tab, cpu) == p,
			      "cptab_of_cpu(%u) = %d, in cpumask of %d",
			      cpu, cptab_of_cpu(tab, cpu), p);
			/* An offline member counts with its last node. */
			if (cpu_online(cpu))
				check(node_isset(cpu_to_node(cpu), *nodes),
				      "node %d of CPU %u in nodemask of %d",
				      cpu_to_node(cpu), cpu, p);
		}
		sum += w;
	}

	for_each_online_cpu(cpu)
		if (cptab_of_cpu(tab, cpu) >= 0)
			placed++;
	check(sum == placed, "weights add up to %d, placed online CPUs %d",
	      sum, placed);
	check(cptab_weight(tab, CPT_ANY) == sum, "cptab_weight(CPT_ANY) = %d, sum %d",
	      cptab_weight(tab, CPT_ANY), sum);
	check(cptab_weight(tab, CPT_ANY) > 0, "cptab_weight(CPT_ANY) > 0");
}

/* Every possible CPU maps to a partition holding it, or to CPT_ANY. */
static void check_cpus(int n)
{
	const struct cpumask *all = cptab_cpumask(tab, CPT_ANY);
	unsigned int cpu;
	int p;

	for_each_possible_cpu(cpu) {
		p = cptab_of_cpu(tab, cpu);
		if (p == CPT_ANY) {
			check(!cpumask_test_cpu(cpu, all),
			      "unplaced CPU %u not in CPT_ANY's cpumask", cpu);
			continue;
		}
		if (!check(p >= 0 && p < n, "cptab_of_cpu(%u) = %d in range",
			   cpu, p))
			continue;
		check(cpumask_test_cpu(cpu, cptab_cpumask(tab, p)),
		      "CPU %u in cpumask of its partition %d", cpu, p);
	}
}

/* cptab_of_node() is the lowest partition whose nodemask has the node. */
static void check_nodes(int n)
{
	int node, p, q;

	for (node = 0; node < nr_node_ids; node++) {
		p = cptab_of_node(tab, node);
		if (p == CPT_ANY) {
			check(!node_isset(node, *cptab_nodemask(tab, CPT_ANY)),
			      "node %d of no partition not in CPT_ANY", node);
			continue;
		}
		if (!check(p >= 0 && p < n, "cptab_of_node(%d) = %d in range",
			   node, p))
			continue;
		check(node_isset(node, *cptab_nodemask(tab, p)),
		      "node %d in nodemask of cptab_of_node = %d", node, p);
		for (q = 0; q < p; q++)
			check(!node_isset(node, *cptab_nodemask(tab, q)),
			      "cptab_of_node(%d) = %d is the lowest (not %d)",
			      node, p, q);
	}
}

/* Largest node_distance() between the nodes of two partitions, both ways. */
static int expected_distance(int a, int b)
{
	int x, y, d = 0;

	for_each_node_mask(x, *cptab_nodemask(tab, a))
		for_each_node_mask(y, *cptab_nodemask(tab, b))
			d = max3(d, node_distance(x, y), node_distance(y, x));
	return d;
}

static void check_distance(int n)
{
	int a, b, d, any = cptab_distance(tab, CPT_ANY, CPT_ANY);

	/* CPT_ANY's distances are precomputed: the same node maximum. */
	check(any == expected_distance(CPT_ANY, CPT_ANY),
	      "cptab_distance(CPT_ANY, CPT_ANY) = %d is the node maximum %d",
	      any, expected_distance(CPT_ANY, CPT_ANY));
	for (a = 0; a < n; a++) {
		d = cptab_distance(tab, a, CPT_ANY);
		check(d == expected_distance(a, CPT_ANY) &&
		      d == cptab_distance(tab, CPT_ANY, a),
		      "cptab_distance(%d, CPT_ANY) = %d, (CPT_ANY, %d) = %d, node maximum %d",
		      a, d, a, cptab_distance(tab, CPT_ANY, a),
		      expected_distance(a, CPT_ANY));
	}
	for (a = 0; a < n; a++) {
		for (b = 0; b < n; b++) {
			d = cptab_distance(tab, a, b);
			check(d == cptab_distance(tab, b, a),
			      "cptab_distance(%d, %d) = %d symmetric", a, b, d);
			check(d >= LOCAL_DISTANCE,
			      "cptab_distance(%d, %d) = %d >= %d", a, b, d,
			      LOCAL_DISTANCE);
			check(d == expected_distance(a, b),
			      "cptab_distance(%d, %d) = %d is the node maximum %d",
			      a, b, d, expected_distance(a, b));
			check(d <= cptab_distance(tab, a, CPT_ANY) && d <= any,
			      "cptab_distance(%d, %d) = %d within CPT_ANY's",
			      a, b, d);
		}
	}
}

/* Out-of-range arguments are refused, never dereferenced. */
static void check_invalid(int n)
{
	const int bad[] = { n, n + 1, -2, INT_MIN, INT_MAX };
	const int bad_cpu[] = { -1, INT_MIN, nr_cpu_ids, INT_MAX };
	const int bad_node[] = { -1, nr_node_ids, INT_MAX };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int b = bad[i];

		check(cptab_weight(tab, b) == -EINVAL,
		      "weight(%d) -EINVAL", b);
		check(!cptab_cpumask(tab, b) && !cptab_nodemask(tab, b),
		      "cpumask(%d), nodemask(%d) NULL", b, b);
		check(cptab_distance(tab, b, 0) == -EINVAL &&
		      cptab_distance(tab, 0, b) == -EINVAL,
		      "distance with %d -EINVAL", b);
		check(cptab_spread_node(tab, b) == -EINVAL,
		      "spread_node(%d) -EINVAL", b);
		/* Fails before binding, so insmod keeps its affinity. */
		check(cptab_bind_current(tab, b) == -EINVAL,
		      "bind_current(%d) -EINVAL", b);
	}
	for (i = 0; i < ARRAY_SIZE(bad_cpu); i++)
		check(cptab_of_cpu(tab, bad_cpu[i]) == -EINVAL,
		      "of_cpu(%d) -EINVAL", bad_cpu[i]);
	for (i = 0; i < ARRAY_SIZE(bad_node); i++)
		check(cptab_of_node(tab, bad_node[i]) == -EINVAL,
		      "of_node(%d) -EINVAL", bad_node[i]);
	check(!cptab_number(NULL) && cptab_weight(NULL, 0) == -EINVAL &&
	      !cptab_cpumask(NULL, CPT_ANY) && cptab_of_node(NULL, 0) == -EINVAL,
	      "a NULL table answers as no partition");
}

/* Round robin: n calls visit each of n nodes; never outside the mask. */
static void check_spread(int n)
{
	nodemask_t seen;
	int p, i, node, w;

	for_any_and_each_part(p, n) {
		const nodemask_t *nodes = cptab_nodemask(tab, p);

		w = nodes_weight(*nodes);
		nodes_clear(seen);
		for (i = 0; i < w; i++) {
			node = cptab_spread_node(tab, p);
			if (!check(node >= 0 && node < MAX_NUMNODES &&
				   node_isset(node, *nodes),
				   "cptab_spread_node(%d) = %d in its nodemask",
				   p, node))
				return;
			node_set(node, seen);
		}
		check(nodes_equal(seen, *nodes),
		      "cptab_spread_node(%d) visits all %d nodes in %d calls",
		      p, w, w);

		for (i = 0; i < 10000; i++) {
			node = cptab_spread_node(tab, p);
			if (node < 0 || node >= MAX_NUMNODES ||
			    !node_isset(node, *nodes))
				break;
		}
		check(i == 10000, "cptab_spread_node(%d) = %d in its nodemask",
		      p, node);
	}
}

static void check_current(int n)
{
	unsigned int cpu;
	int p, q;

	p = cptab_current(tab);
	check(p >= 0 && p < n, "cptab_current() = %d in range", p);

	cpu = get_cpu();
	p = cptab_current(tab);
	q = cptab_of_cpu(tab, cpu);
	put_cpu();
	check(q == CPT_ANY || p == q,
	      "cptab_current() = %d, cptab_of_cpu(%u) = %d", p, cpu, q);
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

	t->bind_ret = cptab_bind_current(tab, t->cpt);
	/* Bound: we may still move, but only inside the partition. */
	t->cpu = raw_smp_processor_id();
	t->current_cpt = cptab_current(tab);
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
	if (!check(t->bind_ret == 0, "cptab_bind_current(%d) = %d", t->cpt,
		   t->bind_ret))
		return;
	check(cpumask_test_cpu(t->cpu, cptab_cpumask(tab, t->cpt)),
	      "thread bound to %d runs on CPU %u of it", t->cpt, t->cpu);
	if (t->cpt == CPT_ANY)
		check(t->current_cpt >= 0 && t->current_cpt < cptab_number(tab),
		      "cptab_current() = %d in range on CPU %u",
		      t->current_cpt, t->cpu);
	else
		check(t->current_cpt == t->cpt,
		      "cptab_current() = %d in a thread bound to %d",
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

	for_any_and_each_part(i, n) {
		struct consumer_thread *t = &threads[nr];

		if (cptab_weight(tab, i) <= 0)
			continue;
		t->cpt = i;
		init_completion(&t->done);
		t->task = kthread_create_on_node(consumer_thread_fn, t,
						 cptab_spread_node(tab, i),
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
	int n;

	/* CPU events wait, so the online mask is the one the table has. */
	cpus_read_lock();
	tab = cpt_get();
	n = cptab_number(tab);
	check_partitions(n);
	if (!failed) {
		check_cpus(n);
		check_nodes(n);
		check_distance(n);
		check_invalid(n);
		check_spread(n);
		check_current(n);
	}
	cpus_read_unlock();
	/* Threads bind outside the hotplug lock, as consumers would. */
	if (!failed)
		check_threads(n);
	cpt_put(tab);
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
CPT_IMPORT_NS;
