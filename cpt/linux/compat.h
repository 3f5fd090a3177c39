/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels cpt builds against.  What a kernel has is
 * found by compile-time probes (cpt/linux/probes/, run by Kbuild into
 * cptk_probes.h), never by its version number: enterprise kernels backport
 * interfaces, and a probe sees what is there.  This is the only file that
 * reads the probes' answers; everything else uses the helpers below.
 * To support an interface that changed, add a probe and use its CPTK_HAVE_
 * name here (doc/kernels.md, "Porting to a new kernel").
 */
#ifndef CPTK_COMPAT_H
#define CPTK_COMPAT_H

#include <linux/export.h>
#include <linux/limits.h>
#include <linux/sysctl.h>
#include <linux/types.h>
#ifdef CONFIG_X86
#include <asm/apicdef.h>
#include <asm/processor.h>
#endif

#include "cptk_probes.h"

/* What cpt cannot do without: one line, at build time, naming it. */
#ifndef CPTK_HAVE_REGISTER_SYSCTL
#error "cpt needs register_sysctl(path, table), which this kernel lacks"
#endif
#ifndef CPTK_HAVE_CPUHP_CPUSLOCKED
#error "cpt needs cpuhp_setup_state_nocalls_cpuslocked(), which this kernel lacks"
#endif
#ifndef CPTK_HAVE_RCU_REPLACE_POINTER
#error "cpt needs rcu_replace_pointer(), which this kernel lacks"
#endif

/*
 * cptk_cpuid_llc_shift() - log2 of the APIC ids that share the last level
 * cache, from CPUID, or -1
 *
 * For x86 kernels that export no LLC id (5.10 has cpu_llc_id, per-cpu but
 * not exported).  The deterministic cache parameters leaf (4 on Intel,
 * 0x8000001D on AMD and Hygon with TOPOEXT) lists the caches of the CPU
 * that runs it; the last level is the one with the highest level, and its
 * EAX[25:14] + 1 logical CPUs share it.  Their APIC ids differ only in the
 * low bits that count them, rounded up to a power of two, so apicid >>
 * shift is equal exactly for the CPUs of one cache: the derivation the
 * kernel's own cacheinfo makes of cpu_llc_id.  The leaf is read on the
 * calling CPU and taken to hold for all CPUs, as is true of every CPU
 * whose cores all have the same L3 (not of hybrid parts, which have one
 * L3 anyway).
 */
#if defined(CONFIG_X86) && !defined(CPTK_HAVE_PER_CPU_LLC_ID) && \
	!defined(CPTK_HAVE_GET_LLC_ID)
#ifndef CPTK_HAVE_CPU_DATA_APICID
#error "cpt: this x86 kernel has no LLC id for modules: neither per_cpu_llc_id(), an exported get_llc_id(), nor cpu_data().apicid"
#endif
#define CPTK_LLC_FROM_CPUID	1
#include <linux/log2.h>

static inline int cptk_cpuid_llc_shift(void)
{
	unsigned int leaf, i, eax, ebx, ecx, edx, level, top = 0, share = 0;
	u8 vendor = boot_cpu_data.x86_vendor;

	if (vendor == X86_VENDOR_INTEL && boot_cpu_data.cpuid_level >= 4)
		leaf = 4;
	else if ((vendor == X86_VENDOR_AMD || vendor == X86_VENDOR_HYGON) &&
		 boot_cpu_has(X86_FEATURE_TOPOEXT))
		leaf = 0x8000001d;
	else
		return -1;
	/* Subleaves end at the first of cache type 0; 16 is beyond any CPU. */
	for (i = 0; i < 16; i++) {
		cpuid_count(leaf, i, &eax, &ebx, &ecx, &edx);
		if (!(eax & 0x1f))
			break;
		level = (eax >> 5) & 0x7;
		if (level >= top) {
			top = level;
			share = ((eax >> 14) & 0xfff) + 1;
		}
	}
	return share ? order_base_2(share) : -1;
}
#endif

/*
 * cptk_compat_llc_id() - opaque id of the last level cache of an online CPU
 * @cpu: an online CPU
 * @shift: what cptk_compat_llc_prepare() returned
 *
 * Returns a non-negative id, equal for CPUs that share their L3, or -1 when
 * the kernel does not tell (which the planner reads as one L3 per node).
 *
 * x86 kernels up to 6.6 export get_llc_id() (GPL), from 5.15 or so; 5.10
 * exports none, and the id comes from CPUID (cptk_cpuid_llc_shift()).  The
 * x86 topology rework of 6.7 moved the id into cpu_info.topo and replaced
 * the function by the inline per_cpu_llc_id(), which reads the exported
 * per-cpu cpu_info.  Both return BAD_APICID when CPUID gave no cache
 * information.  Other architectures export no LLC id to modules
 * (cacheinfo and cpu_coregroup_mask are not exported), so they get
 * "unknown".
 */
static inline int cptk_compat_llc_prepare(void)
{
#ifdef CPTK_LLC_FROM_CPUID
	return cptk_cpuid_llc_shift();
#else
	return 0;
#endif
}

static inline int cptk_compat_llc_id(unsigned int cpu, int shift)
{
#ifdef CONFIG_X86
	u32 id;

#if defined(CPTK_HAVE_PER_CPU_LLC_ID)
	id = per_cpu_llc_id(cpu);
#elif defined(CPTK_HAVE_GET_LLC_ID)
	id = get_llc_id(cpu);
#else
	id = cpu_data(cpu).apicid;
	/* An unknown APIC id is BAD_APICID before the shift, not after. */
	if (shift < 0 || id == BAD_APICID)
		return -1;
	id >>= shift;
#endif
	/* The kernel's own llc ids are BAD_APICID while unknown. */
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
 * register_sysctl(path, table): where it counts the entries itself (a
 * macro over register_sysctl_sz(path, table, ARRAY_SIZE(table))), @table
 * must be a real array, never a pointer, and needs no empty sentinel
 * entry, which kernels from 6.11 reject.  Elsewhere the sentinel ends the
 * table.  The probe checks that count, not that register_sysctl_sz() is
 * declared.  Terminate tables with CPTK_CTL_SENTINEL (no comma after it).
 *
 * Where proc_handler takes a const struct ctl_table, declare handlers as
 * handler(CPTK_CTL_CONST struct ctl_table *table, ...).
 */
#ifdef CPTK_HAVE_REGISTER_SYSCTL_COUNTS
#define CPTK_CTL_SENTINEL
#else
#define CPTK_CTL_SENTINEL	{ }
#endif

#ifdef CPTK_HAVE_CTL_TABLE_CONST
#define CPTK_CTL_CONST		const
#else
#define CPTK_CTL_CONST
#endif

/*
 * CPTK_EXPORT(sym): export @sym (GPL) in the symbol namespace "CPT", which
 * consumers import with CPT_IMPORT_NS (cpt.h).  Where namespaces are bare
 * words, EXPORT_SYMBOL_NS_GPL() turns its argument into a string itself;
 * newer kernels (6.13) take the string literal.
 */
#ifdef CPTK_HAVE_NS_IDENTIFIER
#define CPTK_EXPORT(sym)	EXPORT_SYMBOL_NS_GPL(sym, CPT)
#else
#define CPTK_EXPORT(sym)	EXPORT_SYMBOL_NS_GPL(sym, "CPT")
#endif

/*
 * cptk_compat_cpu_isolated() - whether the kernel isolates @cpu
 * @cpu: a CPU id below nr_cpu_ids
 *
 * True for a CPU outside the housekeeping set of scheduler domains
 * (isolcpus=, isolcpus=domain,) or of the tick (nohz_full=, isolcpus=nohz,):
 * the CPUs that /sys/devices/system/cpu/isolated and .../nohz_full list,
 * which is what cpt-plan reads.  The tick's set rather than the kernel
 * threads': nohz_full= clears both (TICK, WQ, TIMER, RCU, MISC, KTHREAD on
 * 5.10 to 6.12; KERNEL_NOISE, which TICK names, on 7.x), but isolcpus=nohz,
 * clears only the tick's on 6.1 and 6.12, and fills nohz_full all the
 * same; and on 7.x HK_TYPE_KTHREAD names the domain set.  Without
 * CONFIG_NO_HZ_FULL (Debian's 5.10) nohz_full= is ignored, and so the
 * tick's set is every CPU.
 *
 * 5.10 has one housekeeping mask and enum hk_flags bits: a CPU is outside
 * it for either flag.  5.19 made a mask per enum hk_type.  7.x split the
 * domain set into HK_TYPE_DOMAIN_BOOT (isolcpus=) and HK_TYPE_DOMAIN, which
 * also follows cpuset isolated partitions at run time; cpt keeps to the
 * boot-time set, since nothing would tell it of a cpuset change.
 *
 * A kernel whose cpusets change HK_TYPE_DOMAIN (housekeeping_update(),
 * which came with that change) but which has no HK_TYPE_DOMAIN_BOOT
 * fails the build rather than fall back to HK_TYPE_DOMAIN: that set
 * also follows cpuset isolated partitions there, which change at run
 * time without telling cpt.
 */
#include <linux/sched/isolation.h>

#if defined(CPTK_HAVE_HK_UPDATE) && !defined(CPTK_HAVE_HK_TYPE_DOMAIN_BOOT)
#error "cpt: cpusets change HK_TYPE_DOMAIN on this kernel (it has housekeeping_update()), and HK_TYPE_DOMAIN_BOOT, the isolcpus= set alone, is missing"
#endif

static inline bool cptk_compat_cpu_isolated(unsigned int cpu)
{
#if defined(CPTK_HAVE_HK_TYPE_DOMAIN_BOOT)
	return !housekeeping_test_cpu(cpu, HK_TYPE_DOMAIN_BOOT) ||
	       !housekeeping_test_cpu(cpu, HK_TYPE_TICK);
#elif defined(CPTK_HAVE_HK_TYPE)
	return !housekeeping_test_cpu(cpu, HK_TYPE_DOMAIN) ||
	       !housekeeping_test_cpu(cpu, HK_TYPE_TICK);
#else
	return !housekeeping_cpu(cpu, HK_FLAG_DOMAIN | HK_FLAG_TICK);
#endif
}

/*
 * cptk_timer_delete() - deactivate a timer without waiting for its
 * function (worker.c disarms delayed works under the worker's raw lock):
 * timer_delete() where the kernel has it, del_timer() before (5.10).
 */
#include <linux/timer.h>

static inline int cptk_timer_delete(struct timer_list *timer)
{
#ifdef CPTK_HAVE_TIMER_DELETE
	return timer_delete(timer);
#else
	return del_timer(timer);
#endif
}

#endif /* CPTK_COMPAT_H */
