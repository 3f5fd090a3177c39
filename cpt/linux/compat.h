/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernel versions cpt builds against (Debian 6.1 and
 * 6.12, and what lies between).  This is the only file that looks at
 * LINUX_VERSION_CODE: everything else uses the helpers below, so that a new
 * kernel means a change here and nowhere else.
 */
#ifndef CPTK_COMPAT_H
#define CPTK_COMPAT_H

#include <linux/limits.h>
#include <linux/sysctl.h>
#include <linux/types.h>
#include <linux/version.h>
#ifdef CONFIG_X86
#include <asm/apicdef.h>
#include <asm/processor.h>
#endif

/*
 * cptk_compat_llc_id() - opaque id of the last level cache of an online CPU
 * @cpu: an online CPU
 *
 * Returns a non-negative id, equal for CPUs that share their L3, or -1 when
 * the kernel does not tell (which the planner reads as one L3 per node).
 *
 * x86 up to 6.6 exports get_llc_id() (GPL).  The x86 topology rework of 6.7
 * moved the id into cpu_info.topo and replaced the function by the inline
 * per_cpu_llc_id(), which reads the exported per-cpu cpu_info.  Both return
 * BAD_APICID when CPUID gave no cache information.  Other architectures
 * export no LLC id to modules (cacheinfo and cpu_coregroup_mask are not
 * exported), so they get "unknown".
 */
static inline int cptk_compat_llc_id(unsigned int cpu)
{
#ifdef CONFIG_X86
	u32 id;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	id = per_cpu_llc_id(cpu);
#else
	id = get_llc_id(cpu);
#endif
	if (id == BAD_APICID || id > INT_MAX)
		return -1;
	return id;
#else
	return -1;
#endif
}

/*
 * Sysctl tables.
 *
 * register_sysctl(path, table) exists on every supported kernel, but from
 * 6.6 it is a macro over register_sysctl_sz(path, table, ARRAY_SIZE(table)),
 * so @table must be a real array, never a pointer.
 *
 * Up to 6.10 a table ends with an empty sentinel entry; 6.11 rejects it.
 * Terminate tables with CPTK_CTL_SENTINEL (no comma after it).
 *
 * From 6.11 proc_handler takes a const struct ctl_table: declare handlers
 * as handler(CPTK_CTL_CONST struct ctl_table *table, ...).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define CPTK_CTL_SENTINEL
#define CPTK_CTL_CONST		const
#else
#define CPTK_CTL_SENTINEL	{ }
#define CPTK_CTL_CONST
#endif

/*
 * CPTK_EXPORT(sym): export @sym (GPL) in the symbol namespace "CPT", which
 * consumers import with CPT_IMPORT_NS (cpt.h).  Up to 6.12 the namespace
 * argument of EXPORT_SYMBOL_NS_GPL() is a bare word that the macro turns
 * into a string; 6.13 takes the string literal itself.
 */
#include <linux/export.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define CPTK_EXPORT(sym)		EXPORT_SYMBOL_NS_GPL(sym, "CPT")
#else
#define CPTK_EXPORT(sym)		EXPORT_SYMBOL_NS_GPL(sym, CPT)
#endif

#endif /* CPTK_COMPAT_H */
