// SPDX-License-Identifier: GPL-2.0
/*
 * cpt-plan: show the CPU partition table that the cpt module would build,
 * for this machine (sysfs) or for another one (a sysfs tree copy or the
 * output of `lscpu -p`), with the same planner code as the module.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "topo_read.h"

#define PROG		"cpt-plan"

/* Exit statuses. */
#define EXIT_PLAN	1	/* invalid pattern or parameter, write error */
#define EXIT_USAGE	2	/* bad command line */
#define EXIT_INPUT	3	/* topology input unreadable or malformed */

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [--lscpu FILE|-] [--sysfs DIR] [--npartitions N] [--pattern STR]\n"
	      "                [--distance] [--explain] [--help]\n"
	      "\n"
	      "Print the CPU partition table that the cpt module would build, exactly as\n"
	      "/proc/sys/lnet/cpu_partition_table shows it.\n"
	      "\n"
	      "  -l, --lscpu FILE      read the topology from `lscpu -p` output (- = stdin);\n"
	      "                        node distances are then 10 local, 20 remote\n"
	      "  -s, --sysfs DIR       read the topology from a sysfs tree rooted at DIR\n"
	      "                        (DIR/devices/system/{cpu,node}, or DIR/sys/...);\n"
	      "                        default: / (the live /sys)\n"
	      "  -n, --npartitions N   number of partitions (0: automatic), as the module's\n"
	      "                        cpu_npartitions parameter\n"
	      "  -p, --pattern STR     cpu_pattern, as the module parameter\n"
	      "  -d, --distance        print cpu_partition_distance instead of the table\n"
	      "  -e, --explain         describe the topology and each partition (CPUs,\n"
	      "                        cores, L3 domains, nodes, split cores, spans)\n"
	      "  -h, --help            show this help\n"
	      "\n"
	      "Warnings go to stderr.  Exit status: 0 success, 1 invalid pattern or\n"
	      "parameter, 2 usage error, 3 unreadable or malformed topology input.\n",
	      f);
}

/* ------------------------------------------------------------------ */
/* A growable string.                                                  */
/* ------------------------------------------------------------------ */

struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void sb_printf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->oom = true;
		return;
	}
	if (sb->len + (size_t)n + 1 > sb->cap) {
		size_t ncap = sb->cap ? sb->cap : 64;
		char *ns;

		while (ncap < sb->len + (size_t)n + 1)
			ncap *= 2;
		ns = realloc(sb->s, ncap);
		if (!ns) {
			sb->oom = true;
			return;
		}
		sb->s = ns;
		sb->cap = ncap;
	}
	va_start(ap, fmt);
	(void)vsnprintf(sb->s + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

static const char *sb_str(const struct sbuf *sb)
{
	return sb->s ? sb->s : "";
}

/* Append ascending ids as "0-3,8,10-11" ("-" when empty). */
static void sb_ranges(struct sbuf *sb, const int *ids, int n)
{
	if (!n) {
		sb_printf(sb, "-");
		return;
	}
	for (int i = 0; i < n;) {
		int j = i;

		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		sb_printf(sb, "%s%d", i ? "," : "", ids[i]);
		if (j > i)
			sb_printf(sb, "-%d", ids[j]);
		i = j + 1;
	}
}

/* ------------------------------------------------------------------ */
/* --explain                                                           */
/* ------------------------------------------------------------------ */

struct triple {
	int a, b, c;
};

static int cmp_triple(const void *x, const void *y)
{
	const struct triple *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	if (p->c != q->c)
		return p->c < q->c ? -1 : 1;
	return 0;
}

static void sort_triples(struct triple *t, size_t n)
{
	if (n)
		qsort(t, n, sizeof(*t), cmp_triple);
}

/* Machine-wide counts. */
struct summary {
	int online;
	int cores;
	int tmin, tmax;		/* threads per core */
	int packages;
	int cpu_nodes;		/* online nodes with CPUs */
	int mem_nodes;		/* online nodes without CPUs */
	int l3;			/* (node, L3) domains */
	bool l3_known;
};

static int summarize(const struct cplan_topo *topo, struct summary *s)
{
	struct triple *t = calloc((size_t)topo->nr_cpus, sizeof(*t));
	bool *has_cpu = calloc((size_t)topo->nr_nodes, sizeof(bool));
	size_t n = 0;
	int run = 0;

	memset(s, 0, sizeof(*s));
	if (!t || !has_cpu) {
		free(t);
		free(has_cpu);
		return -ENOMEM;
	}
	for (int c = 0; c < topo->nr_cpus; c++) {
		if (!topo->cpu[c].online)
			continue;
		s->online++;
		has_cpu[topo->cpu[c].node] = true;
		if (topo->cpu[c].llc != CPLAN_NONE)
			s->l3_known = true;
		t[n++] = (struct triple){ topo->cpu[c].core, c, 0 };
	}
	for (int i = 0; i < topo->nr_nodes; i++) {
		if (has_cpu[i])
			s->cpu_nodes++;
		else if (topo->node_online[i])
			s->mem_nodes++;
	}
	/* cores and threads per core */
	sort_triples(t, n);
	s->tmin = INT_MAX;
	for (size_t i = 0; i < n; i++) {
		run++;
		if (i + 1 == n || t[i + 1].a != t[i].a) {
			s->cores++;
			if (run < s->tmin)
				s->tmin = run;
			if (run > s->tmax)
				s->tmax = run;
			run = 0;
		}
	}
	/* packages */
	n = 0;
	for (int c = 0; c < topo->nr_cpus; c++)
		if (topo->cpu[c].online)
			t[n++] = (struct triple){ topo->cpu[c].package, 0, 0 };
	sort_triples(t, n);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || t[i].a != t[i - 1].a)
			s->packages++;
	/* L3 domains: (node, L3 key); an unknown key is one per node */
	n = 0;
	for (int c = 0; c < topo->nr_cpus; c++)
		if (topo->cpu[c].online)
			t[n++] = (struct triple){ topo->cpu[c].node,
						  topo->cpu[c].llc, 0 };
	sort_triples(t, n);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || t[i].a != t[i - 1].a || t[i].b != t[i - 1].b)
			s->l3++;
	free(t);
	free(has_cpu);
	return 0;
}

/* Per-partition facts derived from the table and the topology. */
struct part_info {
	int cores;
	int l3;
	int nodes;
	bool split_core;	/* a core shared with another partition */
	bool partial_core;	/* a core with threads in no partition */
};

static int part_facts(const struct cplan_topo *topo,
		      const struct cplan_table *table, struct part_info *pi)
{
	struct triple *t = calloc((size_t)topo->nr_cpus, sizeof(*t));
	size_t n = 0;

	if (!t)
		return -ENOMEM;
	for (int p = 0; p < table->nr_parts; p++)
		pi[p].nodes = table->part_node_first[p + 1] -
			      table->part_node_first[p];

	/* cores per partition */
	for (int c = 0; c < topo->nr_cpus; c++)
		if (topo->cpu[c].online && table->cpu_part[c] != CPLAN_NONE)
			t[n++] = (struct triple){ table->cpu_part[c],
						  topo->cpu[c].core, 0 };
	sort_triples(t, n);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || t[i].a != t[i - 1].a || t[i].b != t[i - 1].b)
			pi[t[i].a].cores++;

	/* L3 domains per partition */
	n = 0;
	for (int c = 0; c < topo->nr_cpus; c++)
		if (topo->cpu[c].online && table->cpu_part[c] != CPLAN_NONE)
			t[n++] = (struct triple){ table->cpu_part[c],
						  topo->cpu[c].node,
						  topo->cpu[c].llc };
	sort_triples(t, n);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || cmp_triple(&t[i], &t[i - 1]))
			pi[t[i].a].l3++;

	/* split and partial cores: (core, partition) over online CPUs */
	n = 0;
	for (int c = 0; c < topo->nr_cpus; c++)
		if (topo->cpu[c].online)
			t[n++] = (struct triple){ topo->cpu[c].core,
						  table->cpu_part[c], 0 };
	sort_triples(t, n);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		int parts = 0;
		bool unplaced = false;

		while (j < n && t[j].a == t[i].a) {
			if (t[j].b == CPLAN_NONE)
				unplaced = true;
			else if (j == i || t[j].b != t[j - 1].b)
				parts++;
			j++;
		}
		for (size_t k = i; k < j; k++) {
			if (t[k].b == CPLAN_NONE)
				continue;
			if (parts > 1)
				pi[t[k].b].split_core = true;
			if (unplaced)
				pi[t[k].b].partial_core = true;
		}
		i = j;
	}
	free(t);
	return 0;
}

/*
 * The CPUs of partition p that /proc lists (the online ones: a table keeps
 * offline members), ascending, into @ids; returns their number.
 */
static int listed_cpus(const struct cplan_topo *topo,
		       const struct cplan_table *table, int p, int *ids)
{
	int k = 0;

	for (int i = table->part_first[p]; i < table->part_first[p + 1]; i++) {
		int c = table->part_cpu[i];
		bool online = table->cpu_online ? table->cpu_online[c] :
			      topo->cpu[c].online;

		if (online)
			ids[k++] = c;
	}
	return k;
}

static void print_warnings(unsigned int w)
{
	if (w & CPLAN_WARN_SPLIT_CORES)
		fprintf(stderr, PROG ": warning: more partitions than cores: SMT siblings are split across partitions\n");
	if (w & CPLAN_WARN_NPART_IGNORED)
		fprintf(stderr, PROG ": warning: npartitions is ignored: the pattern sets the partition count\n");
	w &= ~(unsigned int)(CPLAN_WARN_SPLIT_CORES | CPLAN_WARN_NPART_IGNORED);
	if (w)
		fprintf(stderr, PROG ": warning: planner warning flags 0x%x\n", w);
}

static int explain(FILE *out, const struct cplan_topo *topo,
		   const struct cplan_table *table, const char *source,
		   int npartitions, const char *pattern)
{
	struct summary s;
	struct part_info *pi = NULL;
	struct sbuf *nodes = NULL, *notes = NULL, cpus = { 0 };
	struct cplan_table *autotab = NULL;
	int *ids = NULL, auto_count = -1, wn = 5, wt = 5, ret;
	int nsplit = 0, nspan_node = 0, nspan_l3 = 0, pmin = INT_MAX, pmax = 0;
	int placed_cores = 0;

	ret = summarize(topo, &s);
	if (ret)
		return ret;
	pi = calloc((size_t)table->nr_parts + 1, sizeof(*pi));
	nodes = calloc((size_t)table->nr_parts + 1, sizeof(*nodes));
	notes = calloc((size_t)table->nr_parts + 1, sizeof(*notes));
	ids = calloc((size_t)(topo->nr_nodes > topo->nr_cpus ?
			      topo->nr_nodes : topo->nr_cpus) + 1,
		     sizeof(*ids));
	if (!pi || !nodes || !notes || !ids) {
		ret = -ENOMEM;
		goto out;
	}
	ret = part_facts(topo, table, pi);
	if (ret)
		goto out;
	if (!cplan_make(topo, 0, NULL, &autotab, NULL))
		auto_count = autotab->nr_parts;

	fprintf(out, "Topology (%s):\n", source);
	fprintf(out, "  CPUs:        %d online of %d possible\n", s.online,
		topo->nr_cpus);
	if (s.tmin == s.tmax)
		fprintf(out, "  cores:       %d, %d thread%s per core\n", s.cores,
			s.tmax, s.tmax == 1 ? "" : "s");
	else
		fprintf(out, "  cores:       %d, %d to %d threads per core (mixed)\n",
			s.cores, s.tmin, s.tmax);
	fprintf(out, "  packages:    %d\n", s.packages);
	{
		int k = 0;
		struct sbuf nl = { 0 };

		/* flag the nodes with CPUs, then compact them in place */
		for (int c = 0; c < topo->nr_cpus; c++)
			if (topo->cpu[c].online)
				ids[topo->cpu[c].node] = 1;
		for (int i = 0; i < topo->nr_nodes; i++)
			if (ids[i])
				ids[k++] = i;
		sb_ranges(&nl, ids, k);
		fprintf(out, "  NUMA nodes:  %d with CPUs (%s)", s.cpu_nodes,
			nl.oom ? "?" : sb_str(&nl));
		free(nl.s);
		if (s.mem_nodes)
			fprintf(out, ", %d without CPUs", s.mem_nodes);
		fputc('\n', out);
	}
	fprintf(out, "  L3 domains:  %d%s\n", s.l3,
		s.l3_known ? "" : " (L3 unknown: one per node)");
	if (auto_count >= 0) {
		fprintf(out, "Automatic partition count: %d\n", auto_count);
		if (s.online <= 4)
			fprintf(out, "  (1 when there are at most 4 CPUs)\n");
		else
			fprintf(out, "  (max(2, ceil(%d cores / 2), %d nodes with CPUs), at most %d cores and %d)\n",
				s.cores, s.cpu_nodes, s.cores, CPLAN_DEFAULT_MAX);
	}
	fprintf(out, "Requested: npartitions %d, pattern %s%s%s\n", npartitions,
		pattern ? "\"" : "", pattern ? pattern : "none",
		pattern ? "\"" : "");

	for (int p = 0; p < table->nr_parts; p++) {
		int nc = listed_cpus(topo, table, p, ids);

		sb_ranges(&nodes[p], table->part_node + table->part_node_first[p],
			  pi[p].nodes);
		if (pi[p].split_core) {
			sb_printf(&notes[p], "splits a core");
			nsplit++;
		}
		if (pi[p].partial_core)
			sb_printf(&notes[p], "%spart of a core", notes[p].len ? ", " : "");
		if (pi[p].nodes > 1) {
			sb_printf(&notes[p], "%sspans nodes", notes[p].len ? ", " : "");
			nspan_node++;
		}
		if (pi[p].l3 > 1) {
			sb_printf(&notes[p], "%sspans L3", notes[p].len ? ", " : "");
			nspan_l3++;
		}
		if (!notes[p].len)
			sb_printf(&notes[p], "-");
		if (nodes[p].oom || notes[p].oom) {
			ret = -ENOMEM;
			goto out;
		}
		if ((int)nodes[p].len > wn)
			wn = (int)nodes[p].len;
		if ((int)notes[p].len > wt)
			wt = (int)notes[p].len;
		if (nc < pmin)
			pmin = nc;
		if (nc > pmax)
			pmax = nc;
		placed_cores += pi[p].cores;
	}
	fprintf(out, "\nPlan: %d partition%s\n", table->nr_parts,
		table->nr_parts == 1 ? "" : "s");
	fprintf(out, "  part  cpus  cores  L3  %-*s  %-*s  cpu list\n", wn,
		"nodes", wt, "notes");
	for (int p = 0; p < table->nr_parts; p++) {
		int nc = listed_cpus(topo, table, p, ids);

		cpus.len = 0;
		sb_ranges(&cpus, ids, nc);
		if (cpus.oom) {
			ret = -ENOMEM;
			goto out;
		}
		fprintf(out, "  %4d  %4d  %5d  %2d  %-*s  %-*s  %s\n", p, nc,
			pi[p].cores, pi[p].l3, wn, sb_str(&nodes[p]), wt,
			sb_str(&notes[p]), sb_str(&cpus));
	}
	fprintf(out, "\nPlaced: %d of %d online CPUs, %d of %d cores, %d of %d nodes with CPUs\n",
		table->nr_placed_cpus, s.online, table->nr_placed_cores,
		s.cores, table->nr_placed_nodes, s.cpu_nodes);
	if (table->nr_parts)
		fprintf(out, "CPUs per partition: %d to %d\n", pmin, pmax);
	fprintf(out, "Partitions splitting a core: %d; spanning nodes: %d; spanning L3 domains: %d\n",
		nsplit, nspan_node, nspan_l3);
	ret = 0;
out:
	if (nodes && notes)
		for (int p = 0; p <= table->nr_parts; p++) {
			free(nodes[p].s);
			free(notes[p].s);
		}
	free(nodes);
	free(notes);
	free(cpus.s);
	free(pi);
	free(ids);
	cplan_table_free(autotab);
	return ret;
}

/* ------------------------------------------------------------------ */

static int write_formatted(FILE *out, const struct cplan_table *table,
			   bool distance)
{
	char dummy[1];
	size_t len, len2;
	char *buf;

	len = distance ? cplan_format_distance(table, dummy, 0) :
			 cplan_format_table(table, dummy, 0);
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	len2 = distance ? cplan_format_distance(table, buf, len + 1) :
			  cplan_format_table(table, buf, len + 1);
	if (len2 != len || strlen(buf) != len) {
		free(buf);
		return -EPROTO;
	}
	if (len && fwrite(buf, 1, len, out) != len) {
		free(buf);
		return -EIO;
	}
	free(buf);
	return 0;
}

/* Strict decimal int, optionally negative; false when malformed. */
static bool parse_int_arg(const char *s, int *out, bool *overflow)
{
	char *end;
	long v;

	*overflow = false;
	if (!*s)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || end == s || (*s != '-' && (*s < '0' || *s > '9')))
		return false;
	if (errno == ERANGE || v > INT_MAX || v < INT_MIN) {
		*overflow = true;
		return false;
	}
	*out = (int)v;
	return true;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "lscpu", required_argument, NULL, 'l' },
		{ "sysfs", required_argument, NULL, 's' },
		{ "npartitions", required_argument, NULL, 'n' },
		{ "pattern", required_argument, NULL, 'p' },
		{ "distance", no_argument, NULL, 'd' },
		{ "explain", no_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *lscpu = NULL, *sysfs = NULL, *pattern = NULL;
	const char *npart_arg = NULL;
	bool distance = false, want_explain = false;
	int npartitions = 0, opt, ret, status = 0;
	struct cplan_topo *topo = NULL;
	struct cplan_table *table = NULL;
	struct cplan_err err = { -1, "" };
	char errbuf[512] = "";
	char *source = NULL;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":l:s:n:p:deh", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			lscpu = optarg;
			break;
		case 's':
			sysfs = optarg;
			break;
		case 'n':
			npart_arg = optarg;
			break;
		case 'p':
			pattern = optarg;
			break;
		case 'd':
			distance = true;
			break;
		case 'e':
			want_explain = true;
			break;
		case 'h':
			usage(stdout);
			return fclose(stdout) ? EXIT_PLAN : 0;
		case ':':
			fprintf(stderr, PROG ": option '%s' needs an argument\n",
				argv[optind - 1]);
			usage(stderr);
			return EXIT_USAGE;
		default:
			if (optopt)
				fprintf(stderr, PROG ": unknown option '-%c'\n",
					optopt);
			else
				fprintf(stderr, PROG ": unknown option '%s'\n",
					argv[optind - 1]);
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (lscpu && sysfs) {
		fprintf(stderr, PROG ": --lscpu and --sysfs are exclusive\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (npart_arg) {
		bool overflow;

		if (!parse_int_arg(npart_arg, &npartitions, &overflow)) {
			if (overflow) {
				fprintf(stderr, PROG ": npartitions %s is out of range\n",
					npart_arg);
				return EXIT_PLAN;
			}
			fprintf(stderr, PROG ": --npartitions needs a decimal number, not '%s'\n",
				npart_arg);
			usage(stderr);
			return EXIT_USAGE;
		}
	}

	if (lscpu) {
		bool is_stdin = !strcmp(lscpu, "-");
		FILE *f = is_stdin ? stdin : fopen(lscpu, "r");

		if (!f) {
			fprintf(stderr, PROG ": %s: cannot open: %s\n", lscpu,
				strerror(errno));
			return EXIT_INPUT;
		}
		ret = topo_read_lscpu(f, is_stdin ? "<stdin>" : lscpu, &topo,
				      errbuf, sizeof(errbuf));
		if (!is_stdin)
			(void)fclose(f);
		if (asprintf(&source, "lscpu %s; distances 10 local, 20 remote",
			     is_stdin ? "<stdin>" : lscpu) < 0)
			source = NULL;
	} else {
		if (!sysfs)
			sysfs = "/";
		ret = topo_read_sysfs(sysfs, &topo, errbuf, sizeof(errbuf));
		if (asprintf(&source, "sysfs %s", sysfs) < 0)
			source = NULL;
	}
	if (ret) {
		fprintf(stderr, PROG ": %s\n",
			ret == -ENOMEM && !*errbuf ? "out of memory" : errbuf);
		free(source);
		return ret == -ENOMEM ? EXIT_PLAN : EXIT_INPUT;
	}
	if (!source) {
		fprintf(stderr, PROG ": out of memory\n");
		cplan_topo_free(topo);
		return EXIT_PLAN;
	}

	ret = cplan_make(topo, npartitions, pattern, &table, &err);
	if (ret) {
		if (err.msg[0])
			fprintf(stderr, PROG ": %.*s\n", (int)sizeof(err.msg),
				err.msg);
		else
			fprintf(stderr, PROG ": planning failed: %s\n",
				strerror(-ret));
		status = EXIT_PLAN;
		goto out;
	}
	if (want_explain) {
		ret = explain(stdout, topo, table, source, npartitions, pattern);
		if (!ret && distance) {
			fputs("\nDistances (cpu_partition_distance):\n", stdout);
			ret = write_formatted(stdout, table, true);
		}
	} else {
		ret = write_formatted(stdout, table, distance);
	}
	if (ret) {
		fprintf(stderr, PROG ": %s\n",
			ret == -EPROTO ? "formatter returned inconsistent lengths" :
					 strerror(-ret));
		status = EXIT_PLAN;
		goto out;
	}
	print_warnings(table->warnings);
out:
	cplan_table_free(table);
	cplan_topo_free(topo);
	free(source);
	if (fclose(stdout) && !status) {
		fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
		status = EXIT_PLAN;
	}
	return status;
}
