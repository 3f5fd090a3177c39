// SPDX-License-Identifier: GPL-2.0
/*
 * numa_check: read this host's topology with cpt-plan's sysfs reader
 * (scripts/topo_sysfs.c) and check it, and the default plan built from it,
 * against libnuma:
 *   - nodes with CPUs and each node's CPU set (numa_node_to_cpus),
 *   - the node of every online CPU (numa_node_of_cpu),
 *   - the distance between every pair of online nodes (numa_distance),
 *   - the default table: every online CPU in exactly one partition, the
 *     nodes of each partition, no partition spanning nodes when there are
 *     at least as many partitions as nodes with CPUs, and each partition
 *     distance = the largest libnuma distance between their nodes.
 * Prints PASS/FAIL lines and exits non-zero on any failure.
 *
 *   numa_check [SYSFS_ROOT]      (default /; libnuma always reads /sys)
 */
#define _GNU_SOURCE
#include <numa.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "topo_read.h"

static int passed, failed;

static void result(bool ok, const char *what)
{
	printf("%s: numa_check: %s\n", ok ? "PASS" : "FAIL", what);
	if (ok)
		passed++;
	else
		failed++;
}

/* libnuma's CPUs of node n as a bool array of nr entries; -1 on error. */
static int node_cpus(int n, bool *set, int nr, int *outside)
{
	struct bitmask *bm = numa_allocate_cpumask();
	unsigned int size;

	*outside = 0;
	if (!bm)
		return -1;
	if (numa_node_to_cpus(n, bm)) {
		numa_free_cpumask(bm);
		return -1;
	}
	size = numa_bitmask_nbytes(bm) * 8;
	for (unsigned int c = 0; c < size; c++) {
		if (!numa_bitmask_isbitset(bm, c))
			continue;
		if ((int)c < nr)
			set[c] = true;
		else
			(*outside)++;
	}
	numa_free_cpumask(bm);
	return 0;
}

int main(int argc, char **argv)
{
	const char *root = argc > 1 ? argv[1] : "/";
	struct cplan_topo *topo = NULL;
	struct cplan_table *table = NULL;
	struct cplan_err err = { -1, "" };
	char errbuf[512] = "";
	bool *set = NULL, *ours = NULL;
	int maxnode, nr, nodes_with_cpus = 0, online = 0, ret;
	bool ok;

	ret = topo_read_sysfs(root, &topo, errbuf, sizeof(errbuf));
	result(!ret, "sysfs reader reads the host topology");
	if (ret) {
		printf("    %s\n", errbuf);
		goto out;
	}
	for (int c = 0; c < topo->nr_cpus; c++)
		online += topo->cpu[c].online;

	if (numa_available() < 0) {
		/* No NUMA in the kernel: the reader must see one node. */
		ok = topo->nr_nodes == 1 && topo->node_online[0];
		for (int c = 0; c < topo->nr_cpus; c++)
			if (topo->cpu[c].online && topo->cpu[c].node != 0)
				ok = false;
		result(ok, "libnuma unavailable: one node 0 holding every online CPU");
		goto plan;
	}

	maxnode = numa_max_node();
	nr = topo->nr_cpus;
	set = calloc((size_t)nr, sizeof(bool));
	ours = calloc((size_t)nr, sizeof(bool));
	if (!set || !ours) {
		result(false, "out of memory");
		goto out;
	}
	printf("numa_check: %s: %d possible CPUs, %d online, %d node ids; libnuma: max node %d, %d configured CPUs\n",
	       root, topo->nr_cpus, online, topo->nr_nodes, maxnode,
	       numa_num_configured_cpus());

	/* Node CPU sets, over every node id either side knows. */
	ok = true;
	for (int n = 0; n <= maxnode || n < topo->nr_nodes; n++) {
		int outside = 0, count = 0;
		bool lib_ok;

		memset(set, 0, (size_t)nr);
		memset(ours, 0, (size_t)nr);
		lib_ok = n <= maxnode && !node_cpus(n, set, nr, &outside);
		for (int c = 0; c < nr; c++) {
			ours[c] = n < topo->nr_nodes && topo->cpu[c].online &&
				  topo->cpu[c].node == n;
			count += ours[c];
		}
		if (count)
			nodes_with_cpus++;
		if (!lib_ok && count) {
			printf("    node %d: libnuma knows no CPUs, the reader %d\n",
			       n, count);
			ok = false;
			continue;
		}
		if (outside) {
			printf("    node %d: libnuma has %d CPUs beyond the reader's nr_cpus %d\n",
			       n, outside, nr);
			ok = false;
		}
		for (int c = 0; c < nr; c++) {
			/* libnuma's mask may hold offline CPUs on some arches */
			if (set[c] && !topo->cpu[c].online)
				continue;
			if (set[c] != ours[c]) {
				printf("    node %d CPU %d: libnuma %s, reader %s\n",
				       n, c, set[c] ? "yes" : "no",
				       ours[c] ? "yes" : "no");
				ok = false;
			}
		}
		if (n < topo->nr_nodes && topo->node_online[n] && n > maxnode) {
			printf("    node %d online for the reader, above libnuma's max node %d\n",
			       n, maxnode);
			ok = false;
		}
	}
	result(ok, "node CPU sets agree with numa_node_to_cpus");

	ok = true;
	for (int c = 0; c < nr; c++) {
		int ln;

		if (!topo->cpu[c].online)
			continue;
		ln = numa_node_of_cpu(c);
		if (ln != topo->cpu[c].node) {
			printf("    CPU %d: numa_node_of_cpu %d, reader %d\n", c,
			       ln, topo->cpu[c].node);
			ok = false;
		}
	}
	result(ok, "node of every online CPU agrees with numa_node_of_cpu");

	ok = true;
	for (int a = 0; a < topo->nr_nodes; a++) {
		for (int b = 0; b < topo->nr_nodes; b++) {
			int ld, td;

			if (!topo->node_online[a] || !topo->node_online[b])
				continue;
			ld = numa_distance(a, b);
			td = topo->distance[a * topo->nr_nodes + b];
			if (ld != td) {
				printf("    distance %d-%d: numa_distance %d, reader %d\n",
				       a, b, ld, td);
				ok = false;
			}
		}
	}
	result(ok, "distance matrix agrees with numa_distance");

plan:
	ret = cplan_make(topo, 0, NULL, &table, &err);
	result(!ret, "default plan of the host topology succeeds");
	if (ret) {
		printf("    %d: %s\n", ret, err.msg);
		goto out;
	}
	ok = table->nr_parts >= 1 && table->nr_placed_cpus == online;
	for (int c = 0; c < topo->nr_cpus; c++) {
		int p = table->cpu_part[c], hits = 0;

		if (!topo->cpu[c].online)
			continue;	/* may stay a member while offline */
		if (p < 0 || p >= table->nr_parts) {
			ok = false;
			continue;
		}
		for (int i = table->part_first[p]; i < table->part_first[p + 1]; i++)
			hits += table->part_cpu[i] == c;
		if (hits != 1)
			ok = false;
	}
	result(ok, "every online CPU is in exactly one partition");

	if (numa_available() < 0)
		goto out;

	/* Partition nodes by libnuma, spans, and distances. */
	{
		int np = table->nr_parts, nn = numa_max_node() + 1;
		bool *pn = calloc((size_t)np * (size_t)nn, sizeof(bool));
		bool nodes_ok = true, span_ok = true, dist_ok = true;

		if (!pn) {
			result(false, "out of memory");
			goto out;
		}
		for (int c = 0; c < topo->nr_cpus; c++) {
			int n, p = table->cpu_part[c];

			if (p < 0 || p >= np || !topo->cpu[c].online)
				continue;
			n = numa_node_of_cpu(c);
			if (n < 0 || n >= nn)
				continue;
			pn[(size_t)p * nn + n] = true;
		}
		for (int p = 0; p < np; p++) {
			int k = 0;

			for (int n = 0; n < nn; n++) {
				bool t = false;

				for (int i = table->part_node_first[p];
				     i < table->part_node_first[p + 1]; i++)
					if (table->part_node[i] == n)
						t = true;

				k += pn[(size_t)p * nn + n];
				if (t != pn[(size_t)p * nn + n]) {
					printf("    partition %d node %d: table %d, libnuma %d\n",
					       p, n, t, pn[(size_t)p * nn + n]);
					nodes_ok = false;
				}
			}
			if (np >= nodes_with_cpus && k > 1) {
				printf("    partition %d spans %d nodes\n", p, k);
				span_ok = false;
			}
			for (int q = 0; q < np; q++) {
				int want = 0;

				for (int a = 0; a < nn; a++)
					for (int b = 0; b < nn; b++)
						if (pn[(size_t)p * nn + a] &&
						    pn[(size_t)q * nn + b] &&
						    numa_distance(a, b) > want)
							want = numa_distance(a, b);
				if (cplan_table_distance(table, p, q) != want) {
					printf("    partition distance %d-%d: table %d, libnuma %d\n",
					       p, q, cplan_table_distance(table, p, q),
					       want);
					dist_ok = false;
				}
			}
		}
		free(pn);
		result(nodes_ok, "partition nodes agree with libnuma's node of each CPU");
		result(span_ok, "no partition spans nodes (partitions >= nodes with CPUs)");
		result(dist_ok, "partition distances = largest numa_distance between their nodes");
		printf("numa_check: %d partitions over %d nodes with CPUs\n", np,
		       nodes_with_cpus);
	}
out:
	cplan_table_free(table);
	cplan_topo_free(topo);
	free(set);
	free(ours);
	printf("numa_check: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
