// SPDX-License-Identifier: GPL-2.0
/*
 * The topology object: what the caller (the module's glue, cpt-plan, the
 * tests) fills in and hands to the planner, and the planner's check that it
 * can be indexed with.
 */
#include "cplan_internal.h"

void cplan_topo_free(struct cplan_topo *topo)
{
	if (!topo)
		return;
	cplan_free(topo->cpu);
	cplan_free(topo->node_online);
	cplan_free(topo->distance);
	cplan_free(topo);
}

struct cplan_topo *cplan_topo_alloc(int nr_cpus, int nr_nodes)
{
	struct cplan_topo *topo;
	int i;

	if (nr_cpus <= 0 || nr_nodes <= 0)
		return NULL;
	topo = cplan_calloc(1, sizeof(*topo));
	if (!topo)
		return NULL;
	topo->nr_cpus = nr_cpus;
	topo->nr_nodes = nr_nodes;
	topo->cpu = cplan_calloc(nr_cpus, sizeof(*topo->cpu));
	topo->node_online = cplan_calloc(nr_nodes, sizeof(bool));
	topo->distance = cplan_calloc((size_t)nr_nodes * nr_nodes, sizeof(int));
	if (!topo->cpu || !topo->node_online || !topo->distance) {
		cplan_topo_free(topo);
		return NULL;
	}
	for (i = 0; i < nr_cpus; i++)
		topo->cpu[i].llc = CPLAN_NONE;
	/* Row-major: the diagonal (a, a) is at a * (nr_nodes + 1), and no
	 * other entry of the matrix is a multiple of nr_nodes + 1. */
	for (i = 0; i < nr_nodes * nr_nodes; i++)
		topo->distance[i] = i % (nr_nodes + 1) ? CPLAN_REMOTE_DISTANCE :
							 CPLAN_LOCAL_DISTANCE;
	return topo;
}

int cplan_topo_check(const struct cplan_topo *topo, struct cplan_err *err)
{
	int cpu, n = 0;

	if (!topo || topo->nr_cpus <= 0 || topo->nr_nodes <= 0)
		return cplan_fail(err, -EINVAL, NULL, -1, "empty topology");
	for (cpu = 0; cpu < topo->nr_cpus; cpu++) {
		const struct cplan_cpu *c = &topo->cpu[cpu];

		if (!c->online)
			continue;
		n++;
		if (c->node < 0 || c->node >= topo->nr_nodes || c->core < 0)
			return cplan_fail(err, -EINVAL, NULL, -1,
					"topology: CPU with an invalid node or core");
	}
	if (!n)
		return cplan_fail(err, -ENODEV, NULL, -1, "no online CPU");
	return 0;
}
