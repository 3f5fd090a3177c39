/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Topologies of real (and a few deliberately awkward) machines for the unit
 * tests.  Every builder returns a topology from cplan_topo_alloc() (free it
 * with cplan_topo_free()) or NULL when out of memory.
 *
 * Core and L3 keys are opaque on purpose: they decrease as CPU ids grow, so a
 * planner that orders cores or L3 domains by key instead of by lowest CPU id
 * gets the numbering wrong.  Fields of offline CPUs hold garbage (the header
 * says they are ignored).
 */
#ifndef TOPO_FIXTURES_H
#define TOPO_FIXTURES_H

#include "cplan.h"

enum fx_numbering {
	FX_THREAD_MAJOR,	/* Intel/AMD Linux: CPU = thread * cores + core */
	FX_CORE_MAJOR,		/* QEMU, POWER: CPU = core * threads + thread */
};

struct fx_spec {
	int sockets;
	int nodes_per_socket;
	int cores_per_node;
	int threads;
	enum fx_numbering numbering;
	int cores_per_llc;	/* 0: one L3 per node; -1: L3 unknown */
	int dist_socket;	/* between two nodes of one socket */
	int dist_remote;	/* between nodes of two sockets */
};

struct cplan_topo *fx_build(const struct fx_spec *spec);

/* Seed: Xeon Platinum 8160, 1 socket, 24 cores x 2, CPU i and i+24 siblings. */
struct cplan_topo *fx_xeon8160(void);
/* The same machine as QEMU numbers it: siblings 2k, 2k+1. */
struct cplan_topo *fx_xeon8160_qemu(void);
/* 2 sockets x 20 cores x 2 (CPU i and i+40 siblings), node and L3 per socket,
 * distance 21. */
struct cplan_topo *fx_dual20(void);
/* AMD EPYC 2 x 64 cores x 2, NPS4 (8 nodes of 16 cores), L3 per 4-core CCX;
 * CPUs 0-127 first threads, 128-255 second; distance 12 in a socket, 32
 * across. */
struct cplan_topo *fx_epyc_nps4(void);
/* POWER9-like 2 sockets x 20 cores x SMT4 (siblings 4k..4k+3), L3 per core
 * pair, node per socket, distance 40. */
struct cplan_topo *fx_power9(void);
/* One node, 4 cores x SMT4, siblings 4k..4k+3, one L3. */
struct cplan_topo *fx_smt4_small(void);
/* i9-12900K: CPUs 0-15 = 8 P-cores (siblings 2k, 2k+1), 16-23 = 8 E-cores. */
struct cplan_topo *fx_hybrid(void);
/* ARM server, 80 single-thread cores, one node, L3 unknown. */
struct cplan_topo *fx_arm80(void);
/* nr_cpus 20; CPUs 0-15 QEMU-numbered 8 cores x 2; CPUs 4, 5, 9 and 16-19
 * offline.  Online cores by lowest CPU: {0,1} {2,3} {6,7} {8} {10,11}
 * {12,13} {14,15}. */
struct cplan_topo *fx_holes(void);
/* 4 nodes: 0 = CPUs 0-7 (4 cores x 2, QEMU), 1 = memory only (online, no
 * CPU), 2 = CPUs 8-15, 3 = offline.  d(0,1)=17 d(0,2)=21 d(1,2)=28,
 * 30 to node 3. */
struct cplan_topo *fx_memonly(void);
/* 3 nodes of 10, 3 and 7 single-thread cores: CPUs 0-9, 10-12, 13-19;
 * L3 unknown. */
struct cplan_topo *fx_uneven(void);
/* 4 nodes of 1, 1, 9 and 9 single-thread cores: CPU 0, CPU 1, 2-10, 11-19. */
struct cplan_topo *fx_uneven2(void);
/* 4 nodes of 4, 4, 2, 2 single-thread cores (CPUs 0-3, 4-7, 8-9, 10-11);
 * d(0,1) = d(2,3) = 12, 20 otherwise. */
struct cplan_topo *fx_quad(void);
/* 4 nodes of 2 single-thread cores (node n = CPUs 2n, 2n+1), distances
 *      0  1  2  3
 *  0  10 11 30 40
 *  1  11 10 12 14
 *  2  30 12 10 13
 *  3  40 14 13 10   (complete linkage differs from single linkage here) */
struct cplan_topo *fx_chain(void);
/* 4 nodes of 2 single-thread cores (node n = CPUs 2n, 2n+1);
 * d(0,2) = d(1,3) = 12, 20 otherwise. */
struct cplan_topo *fx_cross(void);
/* 2 nodes: node 0 = CPU 0 (one single-thread core), node 1 = CPUs 1-4 (one
 * SMT4 core). */
struct cplan_topo *fx_lopsided(void);
/* 8192 CPUs: 4 sockets x 4 nodes x 256 cores x 2, QEMU numbering (node n =
 * CPUs 512n..512n+511), L3 per 32 cores, distance 16 in a socket, 32
 * across. */
struct cplan_topo *fx_huge_qemu(void);
/* The same with Intel numbering: CPU c and c+4096 siblings, node = c/256. */
struct cplan_topo *fx_huge_intel(void);
/* One node, one L3: @cores cores x @threads, numbered as @numbering. */
struct cplan_topo *fx_flat(int cores, int threads, enum fx_numbering numbering);

/* Distances used by fx_huge_*(): node a, node b. */
int fx_huge_distance(int a, int b);

/* Every fixture above, for the generic invariant tests. */
struct fx_entry {
	const char *name;
	struct cplan_topo *(*build)(void);
	bool huge;
};
extern const struct fx_entry fx_all[];
extern const int fx_all_count;

#endif /* TOPO_FIXTURES_H */
