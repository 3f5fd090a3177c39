/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpt's tracepoints, system "cpt" (cpt(4), TRACEPOINTS): what an
 * administrator asks when a partitioned service is slow.  Which table is
 * in force, and since when (cpt_table)?  Why did CPU 37 join partition 5
 * (cpt_cpu_place)?  Did the pools follow the last hotplug (cpt_pool_rebind)?
 * Did a thread's bind succeed (cpt_bind)?
 *
 * Each is a static key: a disabled one costs a patched-out jump.  Fields
 * are fixed-size (no __string(): its __assign_str() changed form in 6.10),
 * so that the one header builds on every kernel cpt supports.
 * trace.c instantiates them; live.c, pool.c and api.c call them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM cpt

#if !defined(CPTK_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define CPTK_TRACE_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

#include "cplan.h"
#include "cpt.h"

/* Why a table was put in force (cpt_table's "why"). */
#define CPTK_TABLE_LOAD		0
#define CPTK_TABLE_SYSCTL	1
#define CPTK_TABLE_ONLINE	2
#define CPTK_TABLE_OFFLINE	3

#define cptk_show_table_why(why)					\
	__print_symbolic(why,						\
			 { CPTK_TABLE_LOAD, "load" },			\
			 { CPTK_TABLE_SYSCTL, "sysctl" },		\
			 { CPTK_TABLE_ONLINE, "online" },		\
			 { CPTK_TABLE_OFFLINE, "offline" })

/*
 * enum cplan_why (cpt/core/cplan.h), cpt_cpu_place's "rule".  Enum names
 * in a format string mean nothing to trace-cmd or perf, which read the
 * format file: TRACE_DEFINE_ENUM() has the kernel put the values there.
 */
TRACE_DEFINE_ENUM(CPLAN_WHY_NONE);
TRACE_DEFINE_ENUM(CPLAN_WHY_KEPT);
TRACE_DEFINE_ENUM(CPLAN_WHY_SIBLING);
TRACE_DEFINE_ENUM(CPLAN_WHY_L3);
TRACE_DEFINE_ENUM(CPLAN_WHY_NODE);
TRACE_DEFINE_ENUM(CPLAN_WHY_NEAREST);
TRACE_DEFINE_ENUM(CPLAN_WHY_FIRST);
TRACE_DEFINE_ENUM(CPLAN_WHY_BARRED);

#define cptk_show_place_rule(rule)					\
	__print_symbolic(rule,						\
			 { CPLAN_WHY_NONE, "none" },			\
			 { CPLAN_WHY_KEPT, "kept" },			\
			 { CPLAN_WHY_SIBLING, "sibling" },		\
			 { CPLAN_WHY_L3, "l3" },			\
			 { CPLAN_WHY_NODE, "node" },			\
			 { CPLAN_WHY_NEAREST, "nearest" },		\
			 { CPLAN_WHY_FIRST, "first" },			\
			 { CPLAN_WHY_BARRED, "barred" })

/*
 * cpt_table: a table put in force.  @old_gen is 0 at load.  The generation
 * changes only when the partitions do (cpt.h, cpt_generation()); @serial
 * changes with every table.  @cpu: the CPU of an online or offline event,
 * -1 otherwise.
 */
TRACE_EVENT(cpt_table,
	TP_PROTO(u64 old_gen, u64 new_gen, u64 serial, int parts, int cpus,
		 int why, int cpu),
	TP_ARGS(old_gen, new_gen, serial, parts, cpus, why, cpu),
	TP_STRUCT__entry(
		__field(u64, old_gen)
		__field(u64, new_gen)
		__field(u64, serial)
		__field(int, parts)
		__field(int, cpus)
		__field(int, why)
		__field(int, cpu)
	),
	TP_fast_assign(
		__entry->old_gen = old_gen;
		__entry->new_gen = new_gen;
		__entry->serial = serial;
		__entry->parts = parts;
		__entry->cpus = cpus;
		__entry->why = why;
		__entry->cpu = cpu;
	),
	TP_printk("old_gen=%llu new_gen=%llu serial=%llu parts=%d cpus=%d why=%s cpu=%d",
		  __entry->old_gen, __entry->new_gen, __entry->serial,
		  __entry->parts, __entry->cpus,
		  cptk_show_table_why(__entry->why), __entry->cpu)
);

/*
 * cpt_cpu_place: the partition of a CPU that came online in the table
 * the hotplug update made (CPT_ANY, as the API says it: none), and the
 * rule that gave it.
 */
TRACE_EVENT(cpt_cpu_place,
	TP_PROTO(int cpu, int cpt, int rule, u64 serial),
	TP_ARGS(cpu, cpt, rule, serial),
	TP_STRUCT__entry(
		__field(int, cpu)
		__field(int, cpt)
		__field(int, rule)
		__field(u64, serial)
	),
	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->cpt = cpt < 0 ? CPT_ANY : cpt;
		__entry->rule = rule;
		__entry->serial = serial;
	),
	TP_printk("cpu=%d cpt=%d rule=%s serial=%llu", __entry->cpu,
		  __entry->cpt, cptk_show_place_rule(__entry->rule),
		  __entry->serial)
);

/*
 * cpt_pool_rebind: a pool bound to a table (at start, after a
 * replacement, off a CPU going down: @dying, else -1).
 */
TRACE_EVENT(cpt_pool_rebind,
	TP_PROTO(const char *name, int threads, int unbound, u64 serial,
		 int dying),
	TP_ARGS(name, threads, unbound, serial, dying),
	TP_STRUCT__entry(
		__array(char, name, TASK_COMM_LEN)
		__field(int, threads)
		__field(int, unbound)
		__field(u64, serial)
		__field(int, dying)
	),
	TP_fast_assign(
		strscpy(__entry->name, name, TASK_COMM_LEN);
		__entry->threads = threads;
		__entry->unbound = unbound;
		__entry->serial = serial;
		__entry->dying = dying;
	),
	TP_printk("name=%s threads=%d unbound=%d serial=%llu dying=%d",
		  __entry->name, __entry->threads, __entry->unbound,
		  __entry->serial, __entry->dying)
);

/* cpt_bind: cptab_bind_current() and its result. */
TRACE_EVENT(cpt_bind,
	TP_PROTO(int cpt, u64 serial, int ret),
	TP_ARGS(cpt, serial, ret),
	TP_STRUCT__entry(
		__field(int, cpt)
		__field(u64, serial)
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->cpt = cpt;
		__entry->serial = serial;
		__entry->ret = ret;
	),
	TP_printk("cpt=%d serial=%llu ret=%d", __entry->cpt, __entry->serial,
		  __entry->ret)
);

#endif /* CPTK_TRACE_H */

/* Where define_trace.h finds this header again: ccflags -I cpt/linux. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE cpt_trace
#include <trace/define_trace.h>
