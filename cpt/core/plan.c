// SPDX-License-Identifier: GPL-2.0
/*
 * The partition planner: topology + npartitions + cpu_pattern -> table.
 *
 * The default layout is hierarchical (doc/planner.md): partitions are shared
 * out to NUMA nodes by core count, inside a node to its L3 domains, inside a
 * domain to contiguous runs of cores.  The invariant that makes the table
 * worth having is that a partition is made of whole cores - hyperthread
 * siblings share L1/L2 and must never serve two partitions - and, while
 * there are at least as many partitions as nodes, of a single node.  Only
 * when asked for more partitions than there are cores are siblings split.
 */
#include "cplan_internal.h"

/* The machine as the planner sees it: online CPUs grouped into cores and
 * L3 domains, each numbered by its lowest CPU id. */
struct plan {
	const struct cplan_topo *topo;
	const struct cplan_pattern *pat;
	const char *text;
	struct cplan_err *err;

	int nr_cores;
	int *cpu_core;		/* [nr_cpus] core ordinal, or -1 if offline */
	int *cpu_node_core;	/* [nr_cpus] its core's rank in its node, or -1 */
	int max_node_cores;	/* cores of the node that has the most */
	int *cpu_dom;		/* [nr_cpus] L3 domain, or -1 if offline */
	int *core_first;	/* [nr_cores + 1] into core_cpu */
	int *core_cpu;		/* online CPUs by core, ascending */
	int *core_dom;		/* [nr_cores] L3 domain */
	int *core_active;	/* [nr_cores] online, not excluded CPUs */

	int nr_doms;
	int *dom_node;		/* [nr_doms] */
	int *dom_first;		/* [nr_doms + 1] into dom_core */
	int *dom_core;		/* active cores by domain, in core order */
	int *node_first;	/* [nr_nodes + 1] into node_dom */
	int *node_dom;		/* domains with active cores, by node */

	int *node_cores;	/* [nr_nodes] active cores */
	int *node_cpus;		/* [nr_nodes] active CPUs */
	int nr_active_cpus, nr_active_cores, nr_active_nodes;

	int *node_share, *dom_share, *core_share;
	int *weight, *cap;	/* scratch for share() */

	int *cpu_part;		/* [nr_cpus] the result */
	int nr_parts;
	unsigned int warnings;
	int nr_online_cpus;
	int nr_isolated;	/* online CPUs the topology isolates */
	char what[120];
};

#define plan_error(pl, error, offset, ...)				\
	(cplan_snprintf((pl)->what, sizeof((pl)->what), __VA_ARGS__),	\
	 cplan_fail((pl)->err, (error), (pl)->text, (offset), (pl)->what))

/*
 * A CPU the plan may place: online, not excluded by X[...] and not
 * isolated.  An isolated CPU still counts in its core and L3 domain (core
 * ordinals of C[...] do not move with isolation), but is in no partition.
 */
static bool plan_cpu_active(const struct plan *pl, int cpu)
{
	const struct cplan_cpu *c = &pl->topo->cpu[cpu];

	return c->online && !c->isolated && !pl->pat->excluded[cpu];
}

/* What an error about the CPUs left says they were left after. */
static const char *plan_left_after(const struct plan *pl)
{
	int cpu, excluded = 0;

	for (cpu = 0; cpu < pl->topo->nr_cpus; cpu++)
		excluded += pl->topo->cpu[cpu].online && pl->pat->excluded[cpu];
	if (excluded && pl->nr_isolated)
		return " left after X[...] and isolated CPUs";
	if (pl->nr_isolated)
		return " left after isolated CPUs";
	return excluded ? " left after X[...]" : "";
}

/* ---- building the planner's view --------------------------------------- */

/* Rank the @n online CPUs by (node, core key) or (node, L3 key) into
 * @out; @key and @rank are scratch.  The number of ranks, or -ENOMEM. */
static int rank_by(const struct cplan_topo *topo, const int *online, int n,
		   bool by_llc, long long *key, int *rank, int *out)
{
	int i, nr;

	for (i = 0; i < n; i++) {
		const struct cplan_cpu *c = &topo->cpu[online[i]];

		key[i] = cplan_pair_key(c->node, by_llc ? c->llc : c->core);
	}
	nr = cplan_rank_keys(key, n, rank);
	for (i = 0; nr >= 0 && i < n; i++)
		out[online[i]] = rank[i];
	return nr;
}

/* Rank the online CPUs into cores (by node and core key) and L3 domains
 * (by node and L3 key; an unknown key gives one domain per node). */
static int rank_cpus(struct plan *pl, const int *online, int n)
{
	long long *key = cplan_calloc(n, sizeof(long long));
	int *rank = cplan_calloc(n, sizeof(int));
	int ret = -ENOMEM;

	if (key && rank) {
		pl->nr_cores = rank_by(pl->topo, online, n, false, key, rank,
				       pl->cpu_core);
		pl->nr_doms = rank_by(pl->topo, online, n, true, key, rank,
				      pl->cpu_dom);
		if (pl->nr_cores >= 0 && pl->nr_doms >= 0)
			ret = 0;
	}
	cplan_free(key);
	cplan_free(rank);
	return ret;
}

/*
 * The view's arrays with their lengths: the one list that build_view()
 * allocates from (the per-CPU ones first, the others once the cores and
 * domains are counted) and free_view() frees.
 */
struct view_slot {
	int **array;
	int len;
};

#define VIEW_CPU_SLOTS	4
#define VIEW_SLOTS	20

static void view_slots(struct plan *pl, struct view_slot *slot)
{
	int nc = pl->nr_cores, nd = pl->nr_doms, nn = pl->topo->nr_nodes;
	int ncpu = pl->topo->nr_cpus;
	/* Siblings with different L3 keys make more domains than cores. */
	int scratch = (nc > nn ? nc : nn) + (nd > nc ? nd : 0) + 1;
	const struct view_slot list[VIEW_SLOTS] = {
		{ &pl->cpu_core, ncpu }, { &pl->cpu_dom, ncpu },
		{ &pl->cpu_part, ncpu }, { &pl->cpu_node_core, ncpu },
		{ &pl->core_first, nc + 1 }, { &pl->core_cpu, ncpu },
		{ &pl->core_dom, nc }, { &pl->core_active, nc },
		{ &pl->dom_node, nd }, { &pl->dom_first, nd + 1 },
		{ &pl->dom_core, nc }, { &pl->node_first, nn + 1 },
		{ &pl->node_dom, nd }, { &pl->node_cores, nn },
		{ &pl->node_cpus, nn }, { &pl->node_share, nn },
		{ &pl->dom_share, nd }, { &pl->core_share, nc },
		{ &pl->weight, scratch }, { &pl->cap, scratch },
	};
	int i;

	for (i = 0; i < VIEW_SLOTS; i++)
		slot[i] = list[i];
}

static int alloc_view(struct plan *pl, int from, int to)
{
	struct view_slot slot[VIEW_SLOTS];
	int i, ret = 0;

	view_slots(pl, slot);
	for (i = from; i < to; i++) {
		*slot[i].array = cplan_calloc(slot[i].len, sizeof(int));
		if (!*slot[i].array)
			ret = -ENOMEM;
	}
	return ret;
}

static void free_view(struct plan *pl)
{
	struct view_slot slot[VIEW_SLOTS];
	int i;

	view_slots(pl, slot);
	for (i = 0; i < VIEW_SLOTS; i++)
		cplan_free(*slot[i].array);
}

/* List items 0..n-1 by bucket @of[i] (0..nr-1; negative: none), in item
 * order, into @list, with @first (nr + 1) where each bucket starts. */
static void list_buckets(const int *of, int n, int nr, int *first, int *list,
			 int *fill)
{
	int i;

	cplan_count_buckets(of, n, nr, first);
	for (i = 0; i < nr; i++)
		fill[i] = first[i];
	for (i = 0; i < n; i++)
		if (of[i] >= 0)
			list[fill[of[i]]++] = i;
}

/* Lists of CPUs by core, cores by domain and domains by node, active ones
 * only.  A core's L3 domain is that of its lowest CPU. */
static void link_view(struct plan *pl)
{
	const struct cplan_topo *topo = pl->topo;
	int nn = topo->nr_nodes, nc = pl->nr_cores, nd = pl->nr_doms;
	/* scratch, any count + 1: what to list, and where */
	int *of = pl->cap, *fill = pl->weight, cpu, c, d, i;

	list_buckets(pl->cpu_core, topo->nr_cpus, nc, pl->core_first,
		     pl->core_cpu, fill);
	for (cpu = topo->nr_cpus - 1; cpu >= 0; cpu--) {
		c = pl->cpu_core[cpu];
		if (c < 0)
			continue;
		pl->core_dom[c] = pl->cpu_dom[cpu];	/* the lowest is last */
		pl->dom_node[pl->cpu_dom[cpu]] = topo->cpu[cpu].node;
		if (!plan_cpu_active(pl, cpu))
			continue;
		if (!pl->core_active[c]++)
			pl->node_cores[topo->cpu[cpu].node]++;
		pl->node_cpus[topo->cpu[cpu].node]++;
		pl->nr_active_cpus++;
	}

	/* Active cores by domain: core order is already lowest-CPU order. */
	for (c = 0; c < nc; c++)
		of[c] = pl->core_active[c] ? pl->core_dom[c] : -1;
	list_buckets(of, nc, nd, pl->dom_first, pl->dom_core, fill);

	/* Domains with active cores by node, in domain order. */
	for (d = 0; d < nd; d++)
		of[d] = pl->dom_first[d + 1] > pl->dom_first[d] ?
			pl->dom_node[d] : -1;
	list_buckets(of, nd, nn, pl->node_first, pl->node_dom, fill);

	for (c = 0; c < nc; c++)
		pl->nr_active_cores += !!pl->core_active[c];
	for (i = 0; i < nn; i++)
		pl->nr_active_nodes += !!pl->node_cpus[i];
}

/*
 * The rank of every core among the cores of its node, in core order (by
 * lowest CPU), X[...] CPUs included as in the ordinals: what C[k] names.
 * A core is one (node, core key) pair, so it lies in one node.
 */
static void rank_node_cores(struct plan *pl)
{
	const struct cplan_topo *topo = pl->topo;
	int *seen = pl->weight;		/* scratch, nr_nodes + 1 at least */
	int c, i, node;

	for (i = 0; i < topo->nr_nodes; i++)
		seen[i] = 0;
	for (c = 0; c < pl->nr_cores; c++) {
		node = topo->cpu[pl->core_cpu[pl->core_first[c]]].node;
		for (i = pl->core_first[c]; i < pl->core_first[c + 1]; i++)
			pl->cpu_node_core[pl->core_cpu[i]] = seen[node];
		if (++seen[node] > pl->max_node_cores)
			pl->max_node_cores = seen[node];
	}
}

static int build_view(struct plan *pl)
{
	const struct cplan_topo *topo = pl->topo;
	int *online, n = 0, cpu, ret;

	ret = alloc_view(pl, 0, VIEW_CPU_SLOTS);
	online = cplan_calloc(topo->nr_cpus, sizeof(int));
	if (ret || !online) {
		ret = -ENOMEM;
		goto out;
	}
	for (cpu = 0; cpu < topo->nr_cpus; cpu++) {
		pl->cpu_core[cpu] = -1;
		pl->cpu_dom[cpu] = -1;
		pl->cpu_part[cpu] = CPLAN_NONE;
		pl->cpu_node_core[cpu] = -1;
		if (topo->cpu[cpu].online) {
			online[n++] = cpu;
			pl->nr_isolated += topo->cpu[cpu].isolated;
		}
	}
	pl->nr_online_cpus = n;
	ret = rank_cpus(pl, online, n);
	if (!ret)
		ret = alloc_view(pl, VIEW_CPU_SLOTS, VIEW_SLOTS);
	if (!ret) {
		link_view(pl);
		rank_node_cores(pl);
	}
out:
	cplan_free(online);
	return ret;
}

/* ---- placement ---------------------------------------------------------- */

/* P * w_i - a_i * W: how far group i is below its exact share. */
static long long shortfall(int total, long long wsum, int w, int a)
{
	return (long long)total * w - (long long)a * wsum;
}

/*
 * Share @total out to @n groups in proportion to @w (largest remainder), at
 * least 1 and at most @cap each.  Needs n <= total <= sum(cap).
 */
static void share(int total, int n, const int *w, const int *cap, int *out)
{
	long long wsum = 0;
	int i, best, sum = 0;

	for (i = 0; i < n; i++)
		wsum += w[i];
	for (i = 0; i < n; i++) {
		long long a = (long long)total * w[i] / wsum;

		out[i] = a < 1 ? 1 : a > cap[i] ? cap[i] : (int)a;
		sum += out[i];
	}
	while (sum < total) {
		for (best = -1, i = 0; i < n; i++)
			if (out[i] < cap[i] && (best < 0 ||
			    shortfall(total, wsum, w[i], out[i]) >
			    shortfall(total, wsum, w[best], out[best])))
				best = i;
		out[best]++;
		sum++;
	}
	while (sum > total) {
		for (best = -1, i = 0; i < n; i++)
			if (out[i] > 1 && (best < 0 ||
			    shortfall(total, wsum, w[i], out[i]) <=
			    shortfall(total, wsum, w[best], out[best])))
				best = i;
		out[best]--;
		sum--;
	}
}

static void assign_core(struct plan *pl, int core, int part)
{
	int i;

	for (i = pl->core_first[core]; i < pl->core_first[core + 1]; i++)
		if (plan_cpu_active(pl, pl->core_cpu[i]))
			pl->cpu_part[pl->core_cpu[i]] = part;
}

/* Deal the active threads of @core out to @r new partitions. */
static void split_core(struct plan *pl, int core, int r)
{
	int m = pl->core_active[core], run = 0, left, i;

	left = m / r + (m % r > 0);
	for (i = pl->core_first[core]; i < pl->core_first[core + 1]; i++) {
		if (!plan_cpu_active(pl, pl->core_cpu[i]))
			continue;
		pl->cpu_part[pl->core_cpu[i]] = pl->nr_parts;
		if (--left)
			continue;
		pl->nr_parts++;
		run++;
		left = m / r + (run < m % r);
	}
}

/* Deal the active cores of domain @d out to @r partitions. */
static void place_domain(struct plan *pl, int d, int r)
{
	const int *cores = pl->dom_core + pl->dom_first[d];
	int m = pl->dom_first[d + 1] - pl->dom_first[d], run, i, j = 0;

	if (r > m) {
		/* More partitions than cores: split siblings, as few as can be. */
		for (i = 0; i < m; i++)
			pl->weight[i] = pl->cap[i] = pl->core_active[cores[i]];
		share(r, m, pl->weight, pl->cap, pl->core_share);
		for (i = 0; i < m; i++)
			split_core(pl, cores[i], pl->core_share[i]);
		return;
	}
	for (run = 0; run < r; run++) {
		int size = m / r + (run < m % r);

		for (i = 0; i < size; i++)
			assign_core(pl, cores[j++], pl->nr_parts);
		pl->nr_parts++;
	}
}

static int domain_cores(const struct plan *pl, int d)
{
	return pl->dom_first[d + 1] - pl->dom_first[d];
}

static int domain_cpus(const struct plan *pl, int d)
{
	int i, n = 0;

	for (i = pl->dom_first[d]; i < pl->dom_first[d + 1]; i++)
		n += pl->core_active[pl->dom_core[i]];
	return n;
}

/* Place @q partitions on node @node: by L3 domain, or whole domains. */
static void place_node(struct plan *pl, int node, int q)
{
	const int *doms = pl->node_dom + pl->node_first[node];
	int nd = pl->node_first[node + 1] - pl->node_first[node];
	bool split = q > pl->node_cores[node];
	int i, run, j = 0;

	if (q >= nd) {
		for (i = 0; i < nd; i++) {
			pl->weight[i] = domain_cores(pl, doms[i]);
			pl->cap[i] = split ? domain_cpus(pl, doms[i]) :
					     pl->weight[i];
		}
		share(q, nd, pl->weight, pl->cap, pl->dom_share);
		for (i = 0; i < nd; i++)
			place_domain(pl, doms[i], pl->dom_share[i]);
		return;
	}
	/* Fewer partitions than L3 domains: runs of whole neighbours. */
	for (run = 0; run < q; run++) {
		int size = nd / q + (run < nd % q), k, c;

		for (k = 0; k < size; k++, j++)
			for (c = pl->dom_first[doms[j]];
			     c < pl->dom_first[doms[j] + 1]; c++)
				assign_core(pl, pl->dom_core[c], pl->nr_parts);
		pl->nr_parts++;
	}
}

/* Find the two live groups to merge next; see group_nodes(). */
static void nearest_pair(const int *dist, const int *root, const int *cores,
			 int k, int *pa, int *pb)
{
	int a = -1, b = -1, i, j;

	for (i = 0; i < k; i++) {
		if (root[i] != i)
			continue;
		for (j = i + 1; j < k; j++) {
			int d = dist[i * k + j];

			if (root[j] != j)
				continue;
			if (a < 0 || d < dist[a * k + b] ||
			    (d == dist[a * k + b] &&
			     cores[i] + cores[j] < cores[a] + cores[b])) {
				a = i;
				b = j;
			}
		}
	}
	*pa = a;
	*pb = b;
}

/*
 * Fewer partitions than nodes: merge the two groups of nodes whose farthest
 * pair is nearest (complete linkage; ties to the fewest cores, then the
 * lowest node ids) until @nparts groups are left.  A group is one partition,
 * numbered by its lowest node.
 */
static int group_nodes(struct plan *pl, int nparts)
{
	const struct cplan_topo *topo = pl->topo;
	int nn = topo->nr_nodes, k = 0, alive, i, a, b, cpu;
	int *node = cplan_calloc(nn, sizeof(int));
	int *root = cplan_calloc(nn, sizeof(int));
	int *cores = cplan_calloc(nn, sizeof(int));
	int *part = cplan_calloc(nn, sizeof(int));
	int *dist = NULL;
	int ret = -ENOMEM;

	if (!node || !root || !cores || !part)
		goto out;
	for (i = 0; i < nn; i++)
		if (pl->node_cpus[i])
			node[k++] = i;
	dist = cplan_calloc((size_t)k * k, sizeof(int));
	if (!dist)
		goto out;
	for (a = 0; a < k; a++) {
		root[a] = a;
		cores[a] = pl->node_cores[node[a]];
		for (b = 0; b < k; b++)
			dist[a * k + b] = cplan_node_distance(topo->distance,
							     nn, node[a], node[b]);
	}
	/* k merges of O(k^2) each: 0.2 s for 1024 nodes, so yield. */
	for (alive = k; alive > nparts; alive--) {
		cplan_yield();
		nearest_pair(dist, root, cores, k, &a, &b);
		root[b] = a;
		cores[a] += cores[b];
		for (i = 0; i < k; i++) {
			if (dist[b * k + i] > dist[a * k + i]) {
				dist[a * k + i] = dist[b * k + i];
				dist[i * k + a] = dist[b * k + i];
			}
		}
	}
	/* Roots are the lowest members: numbering them in order numbers the
	 * groups by lowest node. */
	for (i = 0, a = 0; i < k; i++)
		if (root[i] == i)
			cores[i] = a++;
	for (i = 0; i < k; i++) {
		for (a = i; root[a] != a; a = root[a])
			;
		part[node[i]] = cores[a];
	}
	for (cpu = 0; cpu < topo->nr_cpus; cpu++)
		if (plan_cpu_active(pl, cpu))
			pl->cpu_part[cpu] = part[topo->cpu[cpu].node];
	pl->nr_parts = nparts;
	ret = 0;
out:
	cplan_free(node);
	cplan_free(root);
	cplan_free(cores);
	cplan_free(part);
	cplan_free(dist);
	return ret;
}

/*
 * The automatic count: two cores per partition, as Lustre's estimate
 * intends, but never forced to divide the CPU count, and at least one
 * partition per node.  Counting cores rather than dividing by the threads of
 * the running CPU keeps hybrid parts (SMT P-cores, single-thread E-cores)
 * right.
 */
static int default_count(const struct plan *pl)
{
	int n = (pl->nr_active_cores + 1) / 2;

	if (pl->nr_active_cpus <= 4)
		return 1;
	if (n < 2)
		n = 2;
	if (n < pl->nr_active_nodes)
		n = pl->nr_active_nodes;
	if (n > pl->nr_active_cores)
		n = pl->nr_active_cores;
	return n > CPLAN_DEFAULT_MAX ? CPLAN_DEFAULT_MAX : n;
}

static int place_default(struct plan *pl, int nparts)
{
	int nn = pl->topo->nr_nodes, i, k = 0;
	bool split;

	if (!pl->nr_active_cpus && pl->nr_isolated)
		return plan_error(pl, -EINVAL, -1, "no online CPU%s",
				  plan_left_after(pl));
	if (!pl->nr_active_cpus)
		return plan_error(pl, -EINVAL, -1,
				  "cpu_pattern: X[...] leaves no online CPU");
	if (!nparts)
		nparts = default_count(pl);
	if (nparts > pl->nr_active_cpus)
		return plan_error(pl, -ERANGE, -1,
				  "npartitions=%d is more than the %d online CPUs%s",
				  nparts, pl->nr_active_cpus, plan_left_after(pl));
	if (nparts > CPLAN_PARTS_MAX)
		return plan_error(pl, -ERANGE, -1,
				  "%d partitions are more than the %d cpt supports",
				  nparts, CPLAN_PARTS_MAX);
	if (nparts < pl->nr_active_nodes) {
		int ret = group_nodes(pl, nparts);

		return ret ? plan_error(pl, ret, -1, "out of memory") : 0;
	}
	split = nparts > pl->nr_active_cores;
	if (split)
		pl->warnings |= CPLAN_WARN_SPLIT_CORES;
	for (i = 0; i < nn; i++) {
		if (!pl->node_cpus[i])
			continue;
		pl->weight[k] = pl->node_cores[i];
		pl->cap[k] = split ? pl->node_cpus[i] : pl->node_cores[i];
		k++;
	}
	share(nparts, k, pl->weight, pl->cap, pl->node_share);
	for (i = 0, k = 0; i < nn; i++)
		if (pl->node_cpus[i])
			place_node(pl, i, pl->node_share[k++]);
	return 0;
}

/* ---- patterns ------------------------------------------------------------ */

static void place_lists(struct plan *pl)
{
	const struct cplan_pattern *pat = pl->pat;
	int cpu;

	for (cpu = 0; cpu < pl->topo->nr_cpus; cpu++) {
		if (!plan_cpu_active(pl, cpu))
			continue;
		if (pat->by_node)
			pl->cpu_part[cpu] = pat->node_part[pl->topo->cpu[cpu].node];
		else
			pl->cpu_part[cpu] = pat->cpu_part[cpu];
	}
	pl->nr_parts = pat->nr_parts;
}

/*
 * C[LIST]: take whole cores out of every partition, after placement.  C[k]
 * is the k-th core of every node; a node with fewer cores has nothing to
 * give, and only a k that no node has is an error.
 */
static bool core_dropped(const struct plan *pl, int cpu)
{
	int k = pl->cpu_node_core[cpu];

	return k >= 0 && pl->pat->core_drop[k] >= 0;
}

static int drop_cores(struct plan *pl)
{
	const struct cplan_pattern *pat = pl->pat;
	int k, cpu;

	for (k = pl->max_node_cores; k < pl->topo->nr_cpus; k++)
		if (pat->core_drop[k] >= 0)
			return plan_error(pl, -ENODEV, pat->core_drop[k],
					  "core %d does not exist on any node (the largest has %d cores online)",
					  k, pl->max_node_cores);
	for (cpu = 0; cpu < pl->topo->nr_cpus; cpu++)
		if (core_dropped(pl, cpu))
			pl->cpu_part[cpu] = CPLAN_NONE;
	return 0;
}

static int check_nonempty(struct plan *pl)
{
	const struct cplan_pattern *pat = pl->pat;
	int *count = cplan_calloc(pl->nr_parts, sizeof(int));
	int cpu, p, ret = 0;

	if (!count)
		return plan_error(pl, -ENOMEM, -1, "out of memory");
	for (cpu = 0; cpu < pl->topo->nr_cpus; cpu++)
		if (pl->cpu_part[cpu] >= 0)
			count[pl->cpu_part[cpu]]++;
	for (p = 0; p < pl->nr_parts && !ret; p++) {
		if (count[p])
			continue;
		if (pat->nr_parts)
			ret = plan_error(pl, -EINVAL, pat->part_offset[p],
					 "partition %d has no online CPU%s", p,
					 pl->nr_isolated ?
					 " that is not isolated" : "");
		else
			ret = plan_error(pl, -EINVAL, pat->core_drop_offset,
					 "partition %d has no CPU left after C[...]",
					 p);
	}
	cplan_free(count);
	return ret;
}

/* ---- the plan ------------------------------------------------------------ */

static int place(struct plan *pl, int npartitions)
{
	const struct cplan_pattern *pat = pl->pat;
	int ret = 0;

	if (pat->nr_parts) {
		place_lists(pl);
	} else if (pat->by_node && pl->nr_active_nodes > 1) {
		/* "N": one partition per node; on a single node it is the
		 * default layout, which is the LU-9998 fix. */
		ret = place_default(pl, pl->nr_active_nodes);
	} else {
		ret = place_default(pl, npartitions);
		npartitions = 0;
	}
	if (npartitions)
		pl->warnings |= CPLAN_WARN_NPART_IGNORED;
	if (!ret)
		ret = drop_cores(pl);
	if (!ret)
		ret = check_nonempty(pl);
	return ret;
}

/*
 * A CPU the plan left out stays out when it comes back online if the
 * pattern said so: excluded by X[...], not listed in explicit CPU lists, or
 * online and dropped by C[...] or isolated.
 */
static bool plan_barred(const struct plan *pl, int cpu)
{
	const struct cplan_pattern *pat = pl->pat;

	if (pl->cpu_part[cpu] != CPLAN_NONE)
		return false;
	if (pat->excluded[cpu] || pl->topo->cpu[cpu].online)
		return true;
	return pat->nr_parts && !pat->by_node;
}

static struct cplan_table *build_table(struct plan *pl)
{
	const struct cplan_topo *topo = pl->topo;
	const struct cplan_pattern *pat = pl->pat;
	struct cplan_table *t = NULL;
	bool *barred = cplan_calloc(topo->nr_cpus, sizeof(bool));
	bool *core_barred = cplan_calloc(topo->nr_cpus, sizeof(bool));
	bool *node_barred = cplan_calloc(topo->nr_nodes, sizeof(bool));
	int *node = cplan_calloc(topo->nr_cpus, sizeof(int));
	int cpu, n;

	if (barred && core_barred && node_barred && node) {
		for (cpu = 0; cpu < topo->nr_cpus; cpu++) {
			barred[cpu] = plan_barred(pl, cpu);
			/* a thread of a core that C[...] dropped */
			core_barred[cpu] = barred[cpu] &&
					   core_dropped(pl, cpu);
			node[cpu] = topo->cpu[cpu].online ? topo->cpu[cpu].node :
							    CPLAN_NONE;
		}
		for (n = 0; n < topo->nr_nodes; n++)
			node_barred[n] = pat->by_node && pat->nr_parts &&
					 pat->node_part[n] == CPLAN_NONE;
		t = cplan_assemble_table(topo, pl->nr_parts, pl->cpu_part, node,
				       barred, core_barred, node_barred);
	}
	if (t)
		t->warnings = pl->warnings;
	cplan_free(barred);
	cplan_free(core_barred);
	cplan_free(node_barred);
	cplan_free(node);
	return t;
}

int cplan_make(const struct cplan_topo *topo, int npartitions,
	     const char *pattern, struct cplan_table **tablep,
	     struct cplan_err *err)
{
	struct cplan_pattern pat;
	struct plan pl = { .topo = topo, .pat = &pat, .text = pattern,
			   .err = err };
	int ret;

	*tablep = NULL;
	if (err) {
		err->offset = -1;
		err->msg[0] = '\0';
	}
	ret = cplan_topo_check(topo, err);
	if (ret)
		return ret;
	if (npartitions < 0)
		return plan_error(&pl, -ERANGE, -1,
				  "npartitions=%d is negative", npartitions);
	ret = cplan_pattern_parse(topo, pattern ? pattern : "", &pat, err);
	if (ret)
		return ret;
	ret = build_view(&pl);
	if (ret) {
		cplan_fail(err, ret, NULL, -1, "out of memory");
		goto out;
	}
	ret = place(&pl, npartitions);
	if (ret)
		goto out;
	*tablep = build_table(&pl);
	if (!*tablep)
		ret = cplan_fail(err, -ENOMEM, NULL, -1, "out of memory");
out:
	free_view(&pl);
	cplan_pattern_release(&pat);
	return ret;
}
