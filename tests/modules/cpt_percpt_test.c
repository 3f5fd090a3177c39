// SPDX-License-Identifier: GPL-2.0
/*
 * cpt_percpt_test: the guest test of what a partitioned service builds on
 * (tests/live/guest-percpt.sh): the lookups that cpt.h inlines.
 *
 * Reading /sys/module/cpt_percpt_test/parameters/lookup runs, on every
 * online CPU in turn (an IPI, so the answer is that CPU's), cpt_current(),
 * cptab_current() and cptab_of_cpu() of the table in force, held for the
 * read, and answers a line "n=PARTITIONS gen=GENERATION", then one line
 * "CPU CPT_CURRENT CPTAB_CURRENT CPTAB_OF_CPU" per online CPU.  The guest
 * script compares them with /proc/sys/lnet/cpu_partition_table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>
#include <linux/sysfs.h>

#include "cpt.h"

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
		len += sysfs_emit_at(buf, len, "%d %d %d %d\n", a.cpu,
				     a.current_cpt, a.tab_current, a.of_cpu);
	}
	cpt_put(tab);
	cpus_read_unlock();
	return len;
}

static const struct kernel_param_ops lookup_ops = {
	.get = lookup_get,
};
module_param_cb(lookup, &lookup_ops, NULL, 0444);
MODULE_PARM_DESC(lookup, "read: the lookups on every online CPU");

static int __init percpt_test_init(void)
{
	return 0;
}

static void __exit percpt_test_exit(void)
{
}

module_init(percpt_test_init);
module_exit(percpt_test_exit);
MODULE_LICENSE("GPL");
CPT_IMPORT_NS;
MODULE_DESCRIPTION("cpt test: per-partition helpers and inline lookups");
