// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot of the machine's topology for the planner: which CPUs are online,
 * their SMT core, package, NUMA node and L3, and the node distances.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/nodemask.h>
#include <linux/topology.h>

#include "compat.h"
#include "topo.h"

/*
 * A CPU whose node the kernel does not know (NUMA_NO_NODE, which x86 never
 * leaves on an online CPU) is put on the first online node rather than
 * given to the planner as an id it would reject.
 */
static int cptk_read_node(unsigned int cpu)
{
	int node = cpu_to_node(cpu);

	if (node < 0 || node >= nr_node_ids)
		return first_online_node;
	return node;
}

/*
 * The caller holds the hotplug lock, so the sibling masks are stable.
 * @llc_shift is what cptk_compat_llc_prepare() returned; @isolation: flag
 * the CPU when isolcpus= or nohz_full= took it from the housekeeping sets
 * (cptk_compat_cpu_isolated()), for the planner to leave it out.
 */
static void cptk_read_cpu(struct cplan_cpu *c, unsigned int cpu, int llc_shift,
			  bool isolation)
{
	unsigned int first = cpumask_first(topology_sibling_cpumask(cpu));
	int package = topology_physical_package_id(cpu);

	/*
	 * The lowest online SMT sibling names the core: equal for siblings,
	 * unique across cores.  An empty sibling mask (an architecture that
	 * does not fill it) makes each CPU its own core.
	 */
	c->core = first < nr_cpu_ids ? first : cpu;
	c->package = package >= 0 ? package : 0;
	c->node = cptk_read_node(cpu);
	c->llc = cptk_compat_llc_id(cpu, llc_shift);
	if (c->llc < 0)
		c->llc = CPLAN_NONE;
	c->online = true;
	c->isolated = isolation && cptk_compat_cpu_isolated(cpu);
}

static void cptk_read_nodes(struct cplan_topo *topo)
{
	int a, b;

	for (a = 0; a < topo->nr_nodes; a++) {
		topo->node_online[a] = node_online(a);
		for (b = 0; b < topo->nr_nodes; b++)
			topo->distance[a * topo->nr_nodes + b] =
				node_distance(a, b);
	}
}

/**
 * cptk_topo_snapshot() - read the topology of the online CPUs
 * @dying: a CPU to read as offline, or -1
 * @include_isolated: read the CPUs the kernel isolates as any others;
 *	otherwise they are flagged isolated, and the planner and the hotplug
 *	update leave them out
 *
 * The caller holds the CPU hotplug lock: cpus_read_lock(), or the write
 * side that a hotplug callback runs under (taking the read side there would
 * deadlock).  The online mask, the sibling masks and the node of each CPU
 * then agree with each other and with the table about to be installed.
 *
 * A CPU being taken down is still in cpu_online_mask when the teardown
 * callbacks run: the callback names it as @dying.  Its siblings may still
 * name their core after it (the lowest sibling); that key stays equal among
 * them, which is all the planner asks of it.
 *
 * Return: a topology to free with cplan_topo_free(), or NULL when out of
 * memory.
 */
struct cplan_topo *cptk_topo_snapshot(int dying, bool include_isolated)
{
	struct cplan_topo *topo;
	unsigned int cpu;
	int llc_shift;

	topo = cplan_topo_alloc(nr_cpu_ids, nr_node_ids);
	if (!topo)
		return NULL;

	llc_shift = cptk_compat_llc_prepare();
	for_each_online_cpu(cpu)
		if ((int)cpu != dying)
			cptk_read_cpu(&topo->cpu[cpu], cpu, llc_shift,
				      !include_isolated);
	cptk_read_nodes(topo);
	return topo;
}
