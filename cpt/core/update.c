// SPDX-License-Identifier: GPL-2.0
/*
 * Following CPU hotplug without moving anyone.
 *
 * Consumers bind threads and allocate memory per partition, so a CPU that
 * has a partition keeps it for the life of the table, offline or not.  Only
 * CPUs that were never placed get one, chosen the way the planner would
 * have placed them had they been there: with an online sibling first (never
 * split a core), then within their L3 domain, then their node, then the
 * nearest node, each time in the partition with the fewest online CPUs.
 * An isolated CPU never gets one.  A fresh layout is a new cplan_make(),
 * the administrator's call.
 */
#include "cplan_internal.h"

#define JOIN_BARRED	(-2)

struct update {
	const struct cplan_topo *topo;
	int *cpu_part;
	int *cpu_node;
	bool *barred;
	bool *core_barred;
	const bool *node_barred;
	int *load;		/* online CPUs per partition */
	int nr_parts;
};

static bool is_member(const struct update *u, int cpu)
{
	return u->topo->cpu[cpu].online && u->cpu_part[cpu] != CPLAN_NONE;
}

/*
 * The partition of an online sibling that is a member (the first by CPU
 * id), else JOIN_BARRED when a sibling's core was dropped by C[...], else
 * none: a sibling excluded by X[...] or left out of a list says nothing
 * about this CPU.
 */
static int sibling_partition(const struct update *u, int cpu)
{
	const struct cplan_cpu *me = &u->topo->cpu[cpu];
	int s, ret = CPLAN_NONE;

	for (s = 0; s < u->topo->nr_cpus; s++) {
		const struct cplan_cpu *sib = &u->topo->cpu[s];

		if (s == cpu || !sib->online || sib->core != me->core ||
		    sib->node != me->node)
			continue;
		if (u->cpu_part[s] != CPLAN_NONE)
			return u->cpu_part[s];
		if (u->core_barred[s])
			ret = JOIN_BARRED;
	}
	return ret;
}

/* The node of member @s (where it was last online), or -1. */
static int member_node(const struct update *u, int s)
{
	if (u->cpu_part[s] == CPLAN_NONE)
		return -1;
	return u->topo->cpu[s].online ? u->topo->cpu[s].node : u->cpu_node[s];
}

/* Is @p a better home than @best, @p being @dist away? */
static bool better(const struct update *u, int p, int dist, int best,
		   int best_dist)
{
	if (best == CPLAN_NONE || dist != best_dist)
		return best == CPLAN_NONE || dist < best_dist;
	return u->load[p] < u->load[best] ||
	       (u->load[p] == u->load[best] && p < best);
}

/*
 * The lightest partition with an online member in @cpu's L3 domain
 * (@by_llc), else on its node; with neither, the nearest node's.
 */
static int nearby_partition(const struct update *u, int cpu, bool by_llc,
			    bool any_node)
{
	const struct cplan_topo *topo = u->topo;
	const struct cplan_cpu *me = &topo->cpu[cpu];
	int s, best = CPLAN_NONE, best_dist = 0;

	for (s = 0; s < topo->nr_cpus; s++) {
		const struct cplan_cpu *other = &topo->cpu[s];
		int p = u->cpu_part[s], dist = 0, node = member_node(u, s);

		/* the L3 key of an offline member is unknown; its node is
		 * where it was last online */
		if (node < 0 || (by_llc && !other->online))
			continue;
		if (any_node) {
			dist = cplan_node_distance(topo->distance, topo->nr_nodes,
						   me->node, node);
		} else if (node != me->node ||
			   (by_llc && other->llc != me->llc)) {
			continue;
		}
		if (better(u, p, dist, best, best_dist)) {
			best = p;
			best_dist = dist;
		}
	}
	return best;
}

/*
 * The partition @cpu joins, and in @why the rule that chose it: the rules
 * are tried in the planner's order, so the first that finds a partition
 * is the one a fresh plan would have followed.
 */
static int join_partition(const struct update *u, int cpu,
			  enum cplan_why *why)
{
	int p = sibling_partition(u, cpu);

	*why = CPLAN_WHY_SIBLING;
	if (p == CPLAN_NONE) {
		p = nearby_partition(u, cpu, true, false);
		*why = CPLAN_WHY_L3;
	}
	if (p == CPLAN_NONE) {
		p = nearby_partition(u, cpu, false, false);
		*why = CPLAN_WHY_NODE;
	}
	if (p == CPLAN_NONE) {
		p = nearby_partition(u, cpu, false, true);
		*why = CPLAN_WHY_NEAREST;
	}
	/*
	 * Every partition had a CPU when planned, and keeps it: a CPU with
	 * no member anywhere to join cannot happen.  Should it, the first
	 * partition is as good as any.
	 */
	if (p == CPLAN_NONE) {
		p = 0;
		*why = CPLAN_WHY_FIRST;
	}
	return p;
}

static int copy_old(struct update *u, const struct cplan_table *old)
{
	const struct cplan_topo *topo = u->topo;
	size_t n = (size_t)topo->nr_cpus;	/* > 0: checked by topo_fits() */
	int cpu;

	u->nr_parts = old->nr_parts;
	u->cpu_part = cplan_calloc(n, sizeof(int));
	u->cpu_node = cplan_calloc(n, sizeof(int));
	u->barred = cplan_calloc(n, sizeof(bool));
	u->core_barred = cplan_calloc(n, sizeof(bool));
	u->node_barred = old->node_barred;
	u->load = cplan_calloc((size_t)old->nr_parts, sizeof(int));
	if (!u->cpu_part || !u->cpu_node || !u->barred || !u->core_barred ||
	    !u->load)
		return -ENOMEM;
	for (cpu = 0; cpu < topo->nr_cpus; cpu++) {
		u->cpu_part[cpu] = old->cpu_part[cpu];
		u->cpu_node[cpu] = old->cpu_node[cpu];
		u->barred[cpu] = old->cpu_barred[cpu];
		u->core_barred[cpu] = old->cpu_core_barred[cpu];
		if (!is_member(u, cpu))
			continue;
		u->cpu_node[cpu] = topo->cpu[cpu].node;
		u->load[u->cpu_part[cpu]]++;
	}
	return 0;
}

static bool topo_fits(const struct cplan_table *old, const struct cplan_topo *topo)
{
	int cpu;

	if (topo->nr_cpus != old->nr_cpus || topo->nr_nodes != old->nr_nodes ||
	    old->nr_cpus <= 0 || old->nr_parts <= 0)
		return false;
	for (cpu = 0; cpu < topo->nr_cpus; cpu++)
		if (topo->cpu[cpu].online &&
		    (topo->cpu[cpu].node < 0 ||
		     topo->cpu[cpu].node >= topo->nr_nodes))
			return false;
	return true;
}

/*
 * Give online @cpu, never placed, its partition, or keep it out; return
 * why it has the partition it has after the update, or none.
 */
static enum cplan_why place_cpu(struct update *u, int cpu)
{
	const struct cplan_cpu *me = &u->topo->cpu[cpu];
	enum cplan_why why;
	int p;

	if (!me->online)
		return CPLAN_WHY_NONE;
	if (u->cpu_part[cpu] != CPLAN_NONE)
		return CPLAN_WHY_KEPT;
	if (u->barred[cpu])
		return CPLAN_WHY_BARRED;
	/* isolated (offline when planned, or since): it stays out */
	if (me->isolated || (u->node_barred && u->node_barred[me->node])) {
		u->barred[cpu] = true;
		return CPLAN_WHY_BARRED;
	}
	p = join_partition(u, cpu, &why);
	if (p == JOIN_BARRED) {
		u->barred[cpu] = true;
		u->core_barred[cpu] = true;
		return CPLAN_WHY_BARRED;
	}
	u->cpu_part[cpu] = p;
	u->cpu_node[cpu] = me->node;
	u->load[p]++;
	return why;
}

int cplan_table_update_why(const struct cplan_table *old,
			   const struct cplan_topo *topo,
			   struct cplan_table **tablep, unsigned char *why,
			   struct cplan_err *err)
{
	struct update u = { .topo = topo };
	int cpu, ret;

	*tablep = NULL;
	if (!topo_fits(old, topo))
		return cplan_fail(err, -EINVAL, NULL, -1,
				"topology does not match the table");
	ret = copy_old(&u, old);
	if (ret)
		goto out;
	for (cpu = 0; cpu < topo->nr_cpus; cpu++) {
		enum cplan_why w = place_cpu(&u, cpu);

		if (why)
			why[cpu] = (unsigned char)w;
	}
	*tablep = cplan_assemble_table(topo, u.nr_parts, u.cpu_part, u.cpu_node,
				     u.barred, u.core_barred, u.node_barred);
	if (*tablep)
		(*tablep)->warnings = old->warnings;
	else
		ret = -ENOMEM;
out:
	if (ret)
		cplan_fail(err, ret, NULL, -1, "out of memory");
	cplan_free(u.cpu_part);
	cplan_free(u.cpu_node);
	cplan_free(u.barred);
	cplan_free(u.core_barred);
	cplan_free(u.load);
	return ret;
}

int cplan_table_update(const struct cplan_table *old, const struct cplan_topo *topo,
		     struct cplan_table **tablep, struct cplan_err *err)
{
	return cplan_table_update_why(old, topo, tablep, NULL, err);
}
