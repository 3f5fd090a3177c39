// SPDX-License-Identifier: GPL-2.0
/*
 * What every partitioned service writes by hand, once (include/cpt.h):
 * an object per partition on its partition's memory.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/slab.h>

#include "cpt.h"
#include "compat.h"

/*
 * The node for the memory of partition @cpt: its first node with memory,
 * else its first node (the allocator then falls back to the nearest).
 */
static int cptk_percpt_node(const struct cptab *tab, int cpt)
{
	const nodemask_t *nodes = cptab_nodemask(tab, cpt);
	int node;

	if (!nodes || nodes_empty(*nodes))
		return NUMA_NO_NODE;
	for_each_node_mask(node, *nodes)
		if (node_state(node, N_MEMORY))
			return node;
	return first_node(*nodes);
}

struct cpt_percpt *cpt_percpt_alloc(const struct cptab *tab, size_t size)
{
	struct cpt_percpt *pc;
	int n, cpt;

	if (!tab || !size) {
		pr_warn_ratelimited("cpt_percpt_alloc(): %s\n",
				    tab ? "size 0" : "no table");
		return ERR_PTR(-EINVAL);
	}
	n = cptab_number(tab);
	pc = kvzalloc(struct_size(pc, obj, n), GFP_KERNEL);
	if (!pc)
		return ERR_PTR(-ENOMEM);
	pc->count = n;
	pc->generation = cptab_generation(tab);
	for (cpt = 0; cpt < n; cpt++) {
		pc->obj[cpt] = kvzalloc_node(size, GFP_KERNEL,
					     cptk_percpt_node(tab, cpt));
		if (!pc->obj[cpt]) {
			cpt_percpt_free(pc);
			return ERR_PTR(-ENOMEM);
		}
	}
	return pc;
}
CPTK_EXPORT(cpt_percpt_alloc);

void cpt_percpt_free(struct cpt_percpt *pc)
{
	int cpt;

	if (IS_ERR_OR_NULL(pc))
		return;
	/* A partial array (cpt_percpt_alloc() failing) ends in NULLs. */
	for (cpt = 0; cpt < pc->count; cpt++)
		kvfree(pc->obj[cpt]);
	kvfree(pc);
}
CPTK_EXPORT(cpt_percpt_free);
