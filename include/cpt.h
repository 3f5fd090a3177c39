/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpt: CPU partition table, the interface for other modules.
 *
 * The cpt module splits the CPUs that were online when it was loaded into
 * partitions (by NUMA node, L3 domain and core; see doc/planner.md) and
 * shows them in /proc/sys/lnet/cpu_partition_table.  Partitions are numbered
 * 0 .. cpt_number() - 1.  Each has a CPU mask and the mask of the NUMA nodes
 * of its CPUs.
 *
 * The table does not change while cpt is loaded, and a module using these
 * functions keeps cpt loaded, so the masks returned stay valid until the
 * caller is unloaded.  Lookups take no lock and may be called from any
 * context, except cpt_bind_current(), which may sleep.
 *
 * CPT_ANY stands for the union of all partitions where a function takes a
 * partition; where a function returns a partition, CPT_ANY means "no
 * partition in particular".
 */
#ifndef CPT_H
#define CPT_H

#include <linux/cpumask.h>
#include <linux/nodemask.h>
#include <linux/types.h>

#define CPT_ANY		(-1)

/**
 * cpt_number() - number of partitions
 *
 * Return: the number of partitions, at least 1.
 */
int cpt_number(void);

/**
 * cpt_weight() - number of online CPUs in a partition
 * @cpt: partition, or CPT_ANY for all partitions together
 *
 * CPUs that went offline after cpt was loaded are not counted.
 *
 * Return: the count (0 when every CPU of @cpt is offline), or -EINVAL when
 * @cpt is not a partition.
 */
int cpt_weight(int cpt);

/**
 * cpt_online() - whether a partition has an online CPU
 * @cpt: partition, or CPT_ANY for all partitions together
 *
 * Return: true when at least one CPU of @cpt is online; false when none is
 * or @cpt is not a partition.
 */
bool cpt_online(int cpt);

/**
 * cpt_cpumask() - CPUs of a partition
 * @cpt: partition, or CPT_ANY for all partitions together
 *
 * The mask holds the CPUs given to @cpt at load time, online or not now.
 *
 * Return: the mask, or NULL when @cpt is not a partition.
 */
const struct cpumask *cpt_cpumask(int cpt);

/**
 * cpt_nodemask() - NUMA nodes of a partition
 * @cpt: partition, or CPT_ANY for all partitions together
 *
 * Return: the mask, or NULL when @cpt is not a partition.
 */
const nodemask_t *cpt_nodemask(int cpt);

/**
 * cpt_current() - partition of the CPU the caller runs on
 *
 * The answer may be stale as soon as it is returned, unless the caller
 * cannot migrate (preemption disabled, or bound with cpt_bind_current()).
 *
 * A CPU that belongs to no partition (excluded by cpu_pattern, or offline
 * when cpt was loaded) is mapped to the partition that holds its NUMA node,
 * or, when there is none, to partition (cpu % cpt_number()), so that the
 * result can always index a per-partition array.
 *
 * Return: a partition, 0 .. cpt_number() - 1; never CPT_ANY.
 */
int cpt_current(void);

/**
 * cpt_of_cpu() - partition of a CPU
 * @cpu: CPU id
 *
 * Return: the partition of @cpu, CPT_ANY when @cpu belongs to none, or
 * -EINVAL when @cpu is not below nr_cpu_ids.
 */
int cpt_of_cpu(int cpu);

/**
 * cpt_of_node() - partition of a NUMA node
 * @node: node id
 *
 * Return: the lowest partition whose node mask holds @node, CPT_ANY when
 * none does (a node without CPUs, or with none placed), or -EINVAL when
 * @node is negative or not below nr_node_ids.
 */
int cpt_of_node(int node);

/**
 * cpt_distance() - NUMA distance between two partitions
 * @cpt1: partition, or CPT_ANY
 * @cpt2: partition, or CPT_ANY
 *
 * The distance of two partitions is the largest node_distance() between
 * their nodes, as in /proc/sys/lnet/cpu_partition_distance; CPT_ANY takes
 * the largest over all partitions.  It is symmetric, and at least
 * LOCAL_DISTANCE (10).
 *
 * Return: the distance, or -EINVAL when an argument is not a partition.
 */
int cpt_distance(int cpt1, int cpt2);

/**
 * cpt_bind_current() - run the current task on the CPUs of a partition
 * @cpt: partition, or CPT_ANY for all partitions together
 *
 * Sets the CPU affinity of current to cpt_cpumask(@cpt); the task migrates
 * before this returns.  The memory policy is left alone: the kernel exports
 * no interface to change it, and the default (local) policy already
 * allocates from the node of the CPU the task runs on, which is one of
 * cpt_nodemask(@cpt) (or its nearest node with memory).
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL when @cpt is not a partition or has no online CPU, or
 * what set_cpus_allowed_ptr() returns (e.g. -EINVAL for a task whose
 * affinity is fixed).
 */
int cpt_bind_current(int cpt);

/**
 * cpt_spread_node() - next node of a partition, round robin
 * @cpt: partition, or CPT_ANY for all partitions together
 *
 * Successive calls cycle through the nodes of cpt_nodemask(@cpt), for
 * spreading allocations (kmalloc_node() and friends) over them.  Each
 * partition has its own rotor; concurrent callers may get the same node.
 *
 * Return: a node id of cpt_nodemask(@cpt) (never MAX_NUMNODES), or -EINVAL
 * when @cpt is not a partition.
 */
int cpt_spread_node(int cpt);

#endif /* CPT_H */
