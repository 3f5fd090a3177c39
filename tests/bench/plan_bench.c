// SPDX-License-Identifier: GPL-2.0
/*
 * plan-bench: benchmarks of the portable core for `make bench`
 * (tests/bench/bench.mk, tests/bench/run.sh).
 *
 *   plan-bench scale [-t MS] NCPUS...
 *	time cplan_make() (default layout) on generated topologies; CSV on
 *	stdout: cpus,cores,nodes,l3,parts,reps,best_ns,median_ns
 *   plan-bench once NCPUS [NPARTITIONS]
 *	plan once (for `valgrind --tool=callgrind --toggle-collect=cplan_make`);
 *	prints "cpus parts"
 *   plan-bench mem [-s CPTAB,PART] NCPUS[:NPARTITIONS]...
 *	what one table allocates, from the core's own calloc() calls (counted
 *	through ld --wrap) plus the kernel glue's allocations (api.c:
 *	struct cptab, the part array, a cpumask per partition and one for
 *	CPT_ANY, the union's node list, the pattern copy) with CPTAB and PART
 *	the kernel's sizeof(struct cptab) and sizeof(struct cpt_part) (from
 *	pahole on cpt.ko); every size rounded as kvmalloc() would (slab size
 *	classes up to 8 KiB, whole page orders above).  CSV on stdout.
 *   plan-bench layout FILE...
 *	layout quality of `lscpu -p` fixtures: the default layout and one
 *	partition per NUMA node ("N 0[n0] 1[n1] ...").  CSV on stdout.
 *
 * Generated topology of NCPUS CPUs (an even number): 2 threads per core,
 * Intel numbering (CPU i and i + NCPUS/2 are siblings), 64 cores per NUMA
 * node and package, 16 cores per L3 domain, distances 10 local / 20 remote.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cplan.h"
#include "topo_read.h"
#include "../tool/bench_time.h"

#define GEN_THREADS		2
#define GEN_CORES_PER_NODE	64
#define GEN_CORES_PER_L3	16

/* ---- allocation accounting (ld --wrap=calloc --wrap=free) --------------- */

void *__real_calloc(size_t n, size_t size);
void __real_free(void *p);
void *__wrap_calloc(size_t n, size_t size);
void __wrap_free(void *p);

struct live {
	void *p;
	size_t size;
};

static struct live *lives;
static size_t nr_lives, cap_lives;
static int tracking;
static size_t live_bytes, peak_bytes;

void *__wrap_calloc(size_t n, size_t size)
{
	void *p = __real_calloc(n, size);

	if (p && tracking) {
		if (nr_lives == cap_lives) {
			size_t cap = cap_lives ? cap_lives * 2 : 256;
			struct live *l = realloc(lives, cap * sizeof(*l));

			if (!l) {
				fprintf(stderr, "plan-bench: out of memory\n");
				exit(1);
			}
			lives = l;
			cap_lives = cap;
		}
		lives[nr_lives].p = p;
		lives[nr_lives].size = n * size;
		nr_lives++;
		live_bytes += n * size;
		if (live_bytes > peak_bytes)
			peak_bytes = live_bytes;
	}
	return p;
}

void __wrap_free(void *p)
{
	size_t i;

	for (i = 0; p && i < nr_lives; i++) {
		if (lives[i].p == p) {
			live_bytes -= lives[i].size;
			lives[i] = lives[--nr_lives];
			break;
		}
	}
	__real_free(p);
}

/*
 * Bytes the kernel hands out for kvmalloc(@size) on x86-64 (SLUB, 4 KiB
 * pages): kmalloc size classes up to KMALLOC_MAX_CACHE_SIZE (8 KiB), above
 * that kmalloc_large(), a power-of-two number of pages (a vmalloc fallback,
 * taken only when that fails, would use whole pages too).  0 for 0 bytes
 * (ZERO_SIZE_PTR).
 */
static size_t kbytes(size_t size)
{
	static const size_t cls[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512,
				      1024, 2048, 4096, 8192 };
	size_t i, pages = 4096;

	if (!size)
		return 0;
	for (i = 0; i < sizeof(cls) / sizeof(cls[0]); i++)
		if (size <= cls[i])
			return cls[i];
	while (pages < size)
		pages *= 2;
	return pages;
}

/* ---- topologies ---------------------------------------------------------- */

static struct cplan_topo *gen_topo(int ncpus)
{
	int cores = ncpus / GEN_THREADS;
	int nodes = (cores + GEN_CORES_PER_NODE - 1) / GEN_CORES_PER_NODE;
	struct cplan_topo *topo;
	int c, n;

	topo = cplan_topo_alloc(ncpus, nodes);
	if (!topo)
		return NULL;
	for (c = 0; c < ncpus; c++) {
		int k = c % cores;

		topo->cpu[c].core = k;
		topo->cpu[c].node = k / GEN_CORES_PER_NODE;
		topo->cpu[c].package = k / GEN_CORES_PER_NODE;
		topo->cpu[c].llc = k / GEN_CORES_PER_L3;
		topo->cpu[c].online = true;
	}
	for (n = 0; n < nodes; n++)
		topo->node_online[n] = true;
	return topo;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

static int plan_or_die(const struct cplan_topo *topo, int npart,
		       const char *pattern, struct cplan_table **table)
{
	struct cplan_err err = { -1, "" };
	int ret = cplan_make(topo, npart, pattern, table, &err);

	if (ret)
		fprintf(stderr, "plan-bench: cplan_make: error %d: %s\n", ret,
			err.msg);
	return ret;
}

/* Distinct (node, L3) domains and their count, for the CSV columns. */
static int count_l3(const struct cplan_topo *topo)
{
	int c, d, n = 0;

	for (c = 0; c < topo->nr_cpus; c++) {
		if (!topo->cpu[c].online)
			continue;
		for (d = 0; d < c; d++)
			if (topo->cpu[d].online &&
			    topo->cpu[d].node == topo->cpu[c].node &&
			    topo->cpu[d].llc == topo->cpu[c].llc)
				break;
		n += d == c;
	}
	return n;
}

/* ---- scale ---------------------------------------------------------------- */

static int do_scale(int argc, char **argv)
{
	int budget_ms = 300, a = 0;

	if (argc > 1 && !strcmp(argv[0], "-t")) {
		if (parse_int(argv[1], 1, 600000, &budget_ms))
			return 2;
		a = 2;
	}
	printf("cpus,cores,nodes,l3,parts,reps,best_ns,median_ns\n");
	for (; a < argc; a++) {
		long long t[1000], start;
		struct cplan_topo *topo;
		int ncpus, reps = 0, parts = 0;

		if (parse_int(argv[a], 2, 1 << 20, &ncpus) || ncpus % 2) {
			fprintf(stderr, "plan-bench: bad NCPUS '%s'\n", argv[a]);
			return 2;
		}
		topo = gen_topo(ncpus);
		if (!topo)
			return 1;
		start = now_ns();
		/* At least 5 runs, then until the budget is spent. */
		while (reps < 1000 &&
		       (reps < 5 || now_ns() - start < budget_ms * 1000000LL)) {
			struct cplan_table *table = NULL;
			long long t0 = now_ns();

			if (plan_or_die(topo, 0, NULL, &table)) {
				cplan_topo_free(topo);
				return 1;
			}
			t[reps++] = now_ns() - t0;
			parts = table->nr_parts;
			cplan_table_free(table);
		}
		qsort(t, (size_t)reps, sizeof(t[0]), cmp_ll);
		printf("%d,%d,%d,%d,%d,%d,%lld,%lld\n", ncpus,
		       ncpus / GEN_THREADS, topo->nr_nodes, count_l3(topo),
		       parts, reps, t[0], t[reps / 2]);
		(void)fflush(stdout);
		cplan_topo_free(topo);
	}
	return 0;
}

static int do_once(int argc, char **argv)
{
	struct cplan_table *table = NULL;
	struct cplan_topo *topo;
	int ncpus, npart = 0, ret;

	if (argc < 1 || parse_int(argv[0], 2, 1 << 20, &ncpus) || ncpus % 2 ||
	    (argc > 1 && parse_int(argv[1], 0, 1 << 20, &npart)))
		return 2;
	topo = gen_topo(ncpus);
	if (!topo)
		return 1;
	ret = plan_or_die(topo, npart, NULL, &table);
	if (!ret)
		printf("%d %d\n", ncpus, table->nr_parts);
	cplan_table_free(table);
	cplan_topo_free(topo);
	return ret ? 1 : 0;
}

/* ---- mem ------------------------------------------------------------------ */

static int do_mem(int argc, char **argv)
{
	int cptab_size = 224, part_size = 160, a = 0;

	if (argc > 1 && !strcmp(argv[0], "-s")) {
		char *comma = strchr(argv[1], ',');

		if (!comma)
			return 2;
		*comma = '\0';
		if (parse_int(argv[1], 1, 1 << 20, &cptab_size) ||
		    parse_int(comma + 1, 1, 1 << 20, &part_size))
			return 2;
		a = 2;
	}
	printf("cpus,parts,nodes,core_allocs,core_req_bytes,core_bytes,plan_peak_bytes,glue_allocs,glue_bytes,total_bytes,bytes_per_cpu,glue_bytes_per_part,cpumask_bytes\n");
	for (; a < argc; a++) {
		struct cplan_table *table = NULL;
		struct cplan_topo *topo;
		size_t i, core_req = 0, core = 0, glue = 0, mask, glue_allocs;
		size_t nr_core;
		int ncpus, npart = 0, p, nodes_any;
		char *colon = strchr(argv[a], ':');

		if (colon)
			*colon = '\0';
		if (parse_int(argv[a], 2, 1 << 20, &ncpus) || ncpus % 2 ||
		    (colon && parse_int(colon + 1, 0, 1 << 20, &npart))) {
			fprintf(stderr, "plan-bench: bad NCPUS[:NPARTITIONS] '%s'\n",
				argv[a]);
			return 2;
		}
		topo = gen_topo(ncpus);
		if (!topo)
			return 1;
		nr_lives = 0;
		live_bytes = peak_bytes = 0;
		tracking = 1;
		if (plan_or_die(topo, npart, NULL, &table)) {
			tracking = 0;
			cplan_topo_free(topo);
			return 1;
		}
		tracking = 0;
		/* What is still allocated is the table. */
		nr_core = nr_lives;
		for (i = 0; i < nr_lives; i++) {
			core_req += lives[i].size;
			core += kbytes(lives[i].size);
		}
		/*
		 * tab.c cptk_tab_create(): kzalloc(struct cptab), kstrdup("")
		 * of the pattern, kvcalloc(nr_parts + 1, struct cpt_part), one
		 * zalloc_cpumask_var() per partition and for CPT_ANY
		 * (CPUMASK_OFFSTACK: BITS_TO_LONGS(nr_cpu_ids) longs), and
		 * kvcalloc() of the union's node list, and kvcalloc(nr_cpu_ids,
		 * int) twice: cptab_current()'s and cptab_of_cpu()'s answers.
		 */
		mask = (size_t)(ncpus + 63) / 64 * 8;
		for (nodes_any = 0, p = 0; p < table->nr_nodes; p++)
			nodes_any += table->node_part[p] != CPLAN_NONE;
		glue = kbytes((size_t)cptab_size) + kbytes(1) +
		       kbytes((size_t)(table->nr_parts + 1) * (size_t)part_size) +
		       (size_t)(table->nr_parts + 1) * kbytes(mask) +
		       kbytes((size_t)nodes_any * sizeof(int)) +
		       2 * kbytes((size_t)ncpus * sizeof(int));
		glue_allocs = 6 + (size_t)table->nr_parts + 1;
		printf("%d,%d,%d,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%.1f,%.1f,%zu\n",
		       ncpus, table->nr_parts, table->nr_nodes, nr_core, core_req,
		       core, peak_bytes, glue_allocs, glue, core + glue,
		       (double)(core + glue) / ncpus,
		       (double)(kbytes((size_t)(table->nr_parts + 1) *
				       (size_t)part_size) +
				(size_t)(table->nr_parts + 1) * kbytes(mask)) /
			       table->nr_parts,
		       kbytes(mask));
		cplan_table_free(table);
		cplan_topo_free(topo);
	}
	return 0;
}

/* ---- layout --------------------------------------------------------------- */

struct quality {
	int parts, cpus_min, cpus_max, split_cores, span_nodes, span_l3;
};

static void measure(const struct cplan_topo *topo, const struct cplan_table *t,
		    struct quality *q)
{
	int p, i, j, c;

	memset(q, 0, sizeof(*q));
	q->parts = t->nr_parts;
	q->cpus_min = -1;
	for (p = 0; p < t->nr_parts; p++) {
		int n = 0, multi_node = 0, multi_l3 = 0, first = -1;

		for (i = t->part_first[p]; i < t->part_first[p + 1]; i++) {
			c = t->part_cpu[i];
			if (!topo->cpu[c].online)
				continue;
			n++;
			if (first < 0) {
				first = c;
				continue;
			}
			if (topo->cpu[c].node != topo->cpu[first].node)
				multi_node = 1;
			if (topo->cpu[c].node != topo->cpu[first].node ||
			    topo->cpu[c].llc != topo->cpu[first].llc)
				multi_l3 = 1;
		}
		if (q->cpus_min < 0 || n < q->cpus_min)
			q->cpus_min = n;
		if (n > q->cpus_max)
			q->cpus_max = n;
		q->span_nodes += multi_node;
		q->span_l3 += multi_l3;
	}
	/* A core is split when its online threads are in two partitions. */
	for (i = 0; i < topo->nr_cpus; i++) {
		int split = 0, lowest = 1;

		if (!topo->cpu[i].online)
			continue;
		for (j = 0; j < topo->nr_cpus; j++) {
			if (!topo->cpu[j].online ||
			    topo->cpu[j].core != topo->cpu[i].core)
				continue;
			if (j < i)
				lowest = 0;
			if (t->cpu_part[j] != t->cpu_part[i])
				split = 1;
		}
		q->split_cores += lowest && split;
	}
}

static int count_cores(const struct cplan_topo *topo)
{
	int i, j, n = 0;

	for (i = 0; i < topo->nr_cpus; i++) {
		if (!topo->cpu[i].online)
			continue;
		for (j = 0; j < i; j++)
			if (topo->cpu[j].online &&
			    topo->cpu[j].core == topo->cpu[i].core)
				break;
		n += j == i;
	}
	return n;
}

static int do_layout(int argc, char **argv)
{
	int a;

	printf("fixture,layout,cpus,cores,nodes,l3,parts,cpus_min,cpus_max,split_cores,span_nodes,span_l3\n");
	for (a = 0; a < argc; a++) {
		const char *name = strrchr(argv[a], '/');
		struct cplan_topo *topo = NULL;
		char errbuf[512] = "", pattern[CPLAN_PATTERN_MAX + 1];
		int ret, m, n, c, ncpus = 0, nnodes = 0;
		size_t len;
		FILE *f;

		name = name ? name + 1 : argv[a];
		f = fopen(argv[a], "r");
		if (!f) {
			perror(argv[a]);
			return 1;
		}
		ret = topo_read_lscpu(f, argv[a], &topo, errbuf, sizeof(errbuf));
		(void)fclose(f);
		if (ret) {
			fprintf(stderr, "plan-bench: %s\n", errbuf);
			return 1;
		}
		/* One partition per CPU-bearing node: "N 0[n0] 1[n1] ...". */
		len = (size_t)snprintf(pattern, sizeof(pattern), "N");
		for (n = 0; n < topo->nr_nodes; n++) {
			for (c = 0; c < topo->nr_cpus; c++)
				if (topo->cpu[c].online && topo->cpu[c].node == n)
					break;
			if (c == topo->nr_cpus)
				continue;
			len += (size_t)snprintf(pattern + len,
						sizeof(pattern) - len,
						" %d[%d]", nnodes++, n);
			if (len >= sizeof(pattern))
				return 1;
		}
		for (c = 0; c < topo->nr_cpus; c++)
			ncpus += topo->cpu[c].online;
		for (m = 0; m < 2; m++) {
			struct cplan_table *table = NULL;
			struct quality q;

			if (plan_or_die(topo, 0, m ? pattern : NULL, &table)) {
				cplan_topo_free(topo);
				return 1;
			}
			measure(topo, table, &q);
			printf("%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d\n", name,
			       m ? "per-node" : "default", ncpus,
			       count_cores(topo), nnodes, count_l3(topo),
			       q.parts, q.cpus_min, q.cpus_max, q.split_cores,
			       q.span_nodes, q.span_l3);
			cplan_table_free(table);
		}
		cplan_topo_free(topo);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "scale"))
		return do_scale(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "once"))
		return do_once(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "mem"))
		return do_mem(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "layout"))
		return do_layout(argc - 2, argv + 2);
	fprintf(stderr,
		"usage: plan-bench scale [-t MS] NCPUS... | once NCPUS [NPART] |\n"
		"       mem [-s CPTAB,PART] NCPUS[:NPART]... | layout FILE...\n");
	return 2;
}
