// SPDX-License-Identifier: GPL-2.0
/*
 * cpt_lnet210: a stand-in for the /proc/sys/lnet files of Lustre 2.10's
 * libcfs, for the VM tests of cpt beside a loaded Lustre (guest-lustre.sh).
 *
 * Lustre 2.10's libcfs registers one sysctl table under "lnet" at load:
 * its debug masks (debug, subsystem_debug, printk, ...), then
 * cpu_partition_table and cpu_partition_distance (0444), then more.  Its
 * insert_proc() keeps whatever register_sysctl_table() returned and
 * returns 0 even when that is NULL, so a libcfs whose table is refused (a
 * file of it exists already) loads anyway, with none of its /proc/sys/lnet
 * files; its exit unregisters the table only when it has one.  Lustre 2.11
 * and later put these files in debugfs (/sys/kernel/debug/lnet) instead.
 *
 * This module does the same with three of those files: "debug" (to show
 * that the files that do not collide are lost with the others) and the
 * two partition files, whose text says whose they are.  Unlike libcfs it
 * says in one line whether it got them, for the test to read.
 *
 * The handlers are the kernel's own proc_dostring() over static strings:
 * no handler of ours, so no prototype that differs between kernels.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/sysctl.h>

static char lnet210_debug[] = "ioctl neterror warning error emerg ha config console lfsck";
static char lnet210_table[] = "cpt_lnet210: libcfs 2.10 stand-in table\n";
static char lnet210_distance[] = "cpt_lnet210: libcfs 2.10 stand-in distance\n";

/*
 * Where register_sysctl() is a macro, it is register_sysctl_sz() over
 * ARRAY_SIZE(table), which counts the entries and (from 6.11) refuses an
 * empty one; where it is a function, an empty entry ends the table.  The
 * test modules do not see cpt's probes (cptk_probes.h), so they tell the
 * two apart this way: by the interface, not by a version number.
 */
#ifdef register_sysctl
#define LNET210_SENTINEL
#else
#define LNET210_SENTINEL	{ }
#endif

static struct ctl_table lnet210_sysctl[] = {
	{
		.procname = "debug",
		.data = lnet210_debug,
		.maxlen = sizeof(lnet210_debug),
		.mode = 0444,
		.proc_handler = proc_dostring,
	},
	{
		.procname = "cpu_partition_table",
		.data = lnet210_table,
		.maxlen = sizeof(lnet210_table),
		.mode = 0444,
		.proc_handler = proc_dostring,
	},
	{
		.procname = "cpu_partition_distance",
		.data = lnet210_distance,
		.maxlen = sizeof(lnet210_distance),
		.mode = 0444,
		.proc_handler = proc_dostring,
	},
	LNET210_SENTINEL
};

static struct ctl_table_header *lnet210_header;

static int __init lnet210_init(void)
{
	/* Like libcfs 2.10's insert_proc(): a refused table is no error. */
	lnet210_header = register_sysctl("lnet", lnet210_sysctl);
	if (lnet210_header)
		pr_info("/proc/sys/lnet/debug, cpu_partition_table and cpu_partition_distance registered\n");
	else
		pr_warn("/proc/sys/lnet refused; loaded without its files, as libcfs 2.10 does\n");
	return 0;
}

static void __exit lnet210_exit(void)
{
	/* unregister_sysctl_table(NULL) is a no-op, as libcfs relies on. */
	unregister_sysctl_table(lnet210_header);
}

module_init(lnet210_init);
module_exit(lnet210_exit);

MODULE_DESCRIPTION("cpt test: the /proc/sys/lnet files of Lustre 2.10's libcfs, and its handling of a refused table");
MODULE_LICENSE("GPL");
