// SPDX-License-Identifier: GPL-2.0
/*
 * cpt-bench: time the planner alone (cplan_make + cplan_format_table) on a
 * topology read from `lscpu -p` output, for the scaling check of
 * tests/tool/run.sh.
 *
 *   cpt-bench FILE REPS [NPARTITIONS [PATTERN]]
 *
 * Prints "CPUS PARTS MIN_NS MEDIAN_NS" on stdout.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cplan.h"
#include "topo_read.h"
#include "bench_time.h"

int main(int argc, char **argv)
{
	struct cplan_topo *topo = NULL;
	struct cplan_err err = { -1, "" };
	char errbuf[512] = "";
	long long *t = NULL;
	int reps, npart = 0, parts = 0, online = 0, ret;
	char *end;
	FILE *f;

	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: cpt-bench FILE REPS [NPARTITIONS [PATTERN]]\n");
		return 2;
	}
	reps = (int)strtol(argv[2], &end, 10);
	if (*end || reps < 1 || reps > 100000) {
		fprintf(stderr, "cpt-bench: bad REPS\n");
		return 2;
	}
	if (argc > 3) {
		npart = (int)strtol(argv[3], &end, 10);
		if (*end) {
			fprintf(stderr, "cpt-bench: bad NPARTITIONS\n");
			return 2;
		}
	}
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	ret = topo_read_lscpu(f, argv[1], &topo, errbuf, sizeof(errbuf));
	(void)fclose(f);
	if (ret) {
		fprintf(stderr, "cpt-bench: %s\n", errbuf);
		return 1;
	}
	t = calloc((size_t)reps, sizeof(*t));
	if (!t) {
		cplan_topo_free(topo);
		return 1;
	}
	for (int c = 0; c < topo->nr_cpus; c++)
		online += topo->cpu[c].online;
	for (int i = 0; i < reps; i++) {
		struct cplan_table *table = NULL;
		long long t0 = now_ns();
		char dummy[1];
		size_t len;
		char *buf;

		ret = cplan_make(topo, npart, argc > 4 ? argv[4] : NULL, &table,
			       &err);
		if (ret) {
			fprintf(stderr, "cpt-bench: cplan_make: %d %s\n", ret,
				err.msg);
			break;
		}
		len = cplan_format_table(table, dummy, 0);
		buf = malloc(len + 1);
		if (buf)
			(void)cplan_format_table(table, buf, len + 1);
		t[i] = now_ns() - t0;
		parts = table->nr_parts;
		free(buf);
		cplan_table_free(table);
	}
	if (!ret) {
		qsort(t, (size_t)reps, sizeof(*t), cmp_ll);
		printf("%d %d %lld %lld\n", online, parts, t[0], t[reps / 2]);
	}
	free(t);
	cplan_topo_free(topo);
	return ret ? 1 : 0;
}
