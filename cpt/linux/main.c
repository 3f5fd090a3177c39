// SPDX-License-Identifier: GPL-2.0
/*
 * cpt: CPU partition table.
 *
 * At load time, reads the topology, plans the partitions (cpt/core,
 * doc/planner.md) for the npartitions and cpu_pattern parameters, and
 * serves the result to other modules (include/cpt.h) and in
 * /proc/sys/lnet.  The table then follows CPU hotplug and sysctl writes
 * (live.c).
 *
 * The parameters are the values at load: /sys/module/cpt/parameters keeps
 * showing them after a sysctl write has planned a table with others, and
 * /proc/sys/lnet/cpu_npartitions and cpu_pattern show the values in force.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "count.h"
#include "live.h"
#include "pool.h"
#include "stats.h"
#include "sysctl.h"

/*
 * A partition count parameter.  Lustre's modprobe lines say
 * cpu_npartitions, ours npartitions; both are accepted.  The text is kept
 * as given and parsed by cptk_init() with cptk_parse_count(), the parser of
 * sysctl writes too: a set op that failed would make the kernel log the raw
 * value (tabs, newlines and all) in its own words, and a second line.
 * @text is NULL when the count was not given.
 */
struct cptk_count_param {
	char *text;
	int val;
};

static int cptk_count_set(const char *val, const struct kernel_param *kp)
{
	struct cptk_count_param *param = kp->arg;
	char *copy;

	copy = kstrdup(val, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	kfree(param->text);
	param->text = copy;
	return 0;
}

static int cptk_count_get(char *buffer, const struct kernel_param *kp)
{
	const struct cptk_count_param *param = kp->arg;

	return sysfs_emit(buffer, "%d\n", param->val);
}

static void cptk_count_free(void *arg)
{
	struct cptk_count_param *param = arg;

	kfree(param->text);
	param->text = NULL;
}

static const struct kernel_param_ops cptk_count_ops = {
	.set = cptk_count_set,
	.get = cptk_count_get,
	.free = cptk_count_free,
};

static struct cptk_count_param npartitions;
module_param_cb(npartitions, &cptk_count_ops, &npartitions, 0444);
__MODULE_PARM_TYPE(npartitions, "int");
MODULE_PARM_DESC(npartitions,
		 "number of CPU partitions (0: automatic; ignored with an explicit cpu_pattern)");

static struct cptk_count_param cpu_npartitions;
module_param_cb(cpu_npartitions, &cptk_count_ops, &cpu_npartitions, 0444);
__MODULE_PARM_TYPE(cpu_npartitions, "int");
MODULE_PARM_DESC(cpu_npartitions,
		 "alias of npartitions, as Lustre's libcfs names it");

/*
 * cpu_pattern may be up to CPLAN_PATTERN_MAX (4096) bytes, and the planner
 * answers -E2BIG beyond; charp parameters stop at 1024 bytes (-ENOSPC), so
 * the string gets its own copy.  The module loader frees it (.free) on
 * unload and when the load fails.
 */
static int cptk_pattern_set(const char *val, const struct kernel_param *kp)
{
	char **pattern = kp->arg;
	char *copy;

	copy = kstrdup(val, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	kfree(*pattern);
	*pattern = copy;
	return 0;
}

/*
 * sysfs gives a page, with room for 4094 bytes, the newline and a NUL:
 * a longer pattern fails the read (-EOVERFLOW) rather than show a part
 * of it.  /proc/sys/lnet/cpu_pattern shows any length.
 */
static int cptk_pattern_get(char *buffer, const struct kernel_param *kp)
{
	const char *pattern = *(char **)kp->arg ?: "";

	if (strlen(pattern) + 2 > PAGE_SIZE)
		return -EOVERFLOW;
	return sysfs_emit(buffer, "%s\n", pattern);
}

static void cptk_pattern_free(void *arg)
{
	char **pattern = arg;

	kfree(*pattern);
	*pattern = NULL;
}

static const struct kernel_param_ops cptk_pattern_ops = {
	.set = cptk_pattern_set,
	.get = cptk_pattern_get,
	.free = cptk_pattern_free,
};

static char *cpu_pattern;
module_param_cb(cpu_pattern, &cptk_pattern_ops, &cpu_pattern, 0444);
__MODULE_PARM_TYPE(cpu_pattern, "charp");
MODULE_PARM_DESC(cpu_pattern,
		 "CPU partition pattern, e.g. \"0[0-3] 1[4-7]\", \"N 0[0] 1[1]\", \"X[0]\", \"C[0]\" (empty: automatic)");

/*
 * include_isolated=1 places the CPUs that isolcpus= and nohz_full= take
 * from the kernel's housekeeping (cpt(4)); by default they are in no
 * partition.  Kept as text and parsed at init, like the counts.
 */
static struct cptk_count_param include_isolated;
module_param_cb(include_isolated, &cptk_count_ops, &include_isolated, 0444);
__MODULE_PARM_TYPE(include_isolated, "int");
MODULE_PARM_DESC(include_isolated,
		 "1: place the CPUs isolated by isolcpus= and nohz_full= too (default 0: in no partition)");

static int cptk_parse_param(struct cptk_count_param *param, const char *name)
{
	if (!param->text)
		return 0;
	return cptk_parse_count(param->text, strlen(param->text), name,
			       &param->val);
}

/* The partition count asked for, from either parameter. */
static int cptk_read_count(int *count)
{
	int ret;

	ret = cptk_parse_param(&npartitions, "npartitions");
	if (!ret)
		ret = cptk_parse_param(&cpu_npartitions, "cpu_npartitions");
	if (ret)
		return ret;
	if (npartitions.text && cpu_npartitions.text &&
	    npartitions.val != cpu_npartitions.val) {
		pr_err("npartitions=%d and cpu_npartitions=%d disagree\n",
		       npartitions.val, cpu_npartitions.val);
		return -EINVAL;
	}
	*count = cpu_npartitions.text ? cpu_npartitions.val : npartitions.val;
	return 0;
}

/* include_isolated, 0 when not given. */
static int cptk_read_include_isolated(bool *flag)
{
	struct cptk_count_param *param = &include_isolated;
	int ret;

	*flag = false;
	if (!param->text)
		return 0;
	ret = cptk_parse_flag(param->text, strlen(param->text),
			      "include_isolated", flag);
	if (!ret)
		param->val = *flag;
	return ret;
}

static int __init cptk_init(void)
{
	bool isolated;
	int count, ret;

	ret = cptk_read_count(&count);
	if (!ret)
		ret = cptk_read_include_isolated(&isolated);
	if (ret)
		return ret;
	/* Before the first table: pools follow every table from it on. */
	cptk_live_set_follower(&cptk_pool_follower);
	ret = cptk_live_start(count, cpu_pattern ?: "", isolated);
	if (ret)
		return ret;

	/* The table is in force: the /proc files are readable at once. */
	ret = cptk_sysctl_register();
	if (ret)
		goto stop;	/* it said why */
	ret = cptk_stats_init();
	if (ret) {
		pr_err("cannot create /proc/cpt/stats: error %d\n", ret);
		goto unregister;
	}
	return 0;

unregister:
	cptk_sysctl_unregister();
stop:
	cptk_live_stop();
	return ret;
}

static void __exit cptk_exit(void)
{
	/* Readers and writers are gone once each removal returns. */
	cptk_stats_exit();
	cptk_sysctl_unregister();
	cptk_live_stop();
}

module_init(cptk_init);
module_exit(cptk_exit);

MODULE_DESCRIPTION("CPU partition table: NUMA, L3 and core aware CPU partitions for other modules");
MODULE_LICENSE("GPL");
MODULE_VERSION(CPT_VERSION);
