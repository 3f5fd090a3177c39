// SPDX-License-Identifier: GPL-2.0
/*
 * cpt-plan --fleet DIR (fleet.h): every DIR/HOST.lscpu planned with the
 * same options, the hosts with the same plan in one class.  The class
 * key is the emitted pattern (emit.h), which names every CPU of every
 * partition: two hosts share it exactly when their tables are equal.
 * Sorting the hosts by it makes 10,000 of them a matter of seconds,
 * most of it reading and planning each once.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "fleet.h"
#include "out.h"
#include "topo_read.h"

#define SUFFIX		".lscpu"
/* Digits of a host number read as a number; longer is a plain name. */
#define HOSTNUM_MAX	9

struct host {
	char *name;
	char *pattern;		/* the class key; NULL when in error */
	char *error;
	size_t plen;
	int parts, cpus_min, cpus_max, nodes;
};

struct fleet {
	const struct fleet_opts *fo;
	struct host *h;
	int n;
	char *buf;		/* emit_pattern()'s buffer */
	size_t bufsize;
};

/* ------------------------------------------------------------------ */
/* Hostlists                                                           */
/* ------------------------------------------------------------------ */

/* A host name as prefix, number and suffix ("oss", "07", "-ib"). */
struct hname {
	const char *name;
	int pre, dig;		/* prefix length, digits length (0: none) */
	long num;
};

static void split_name(struct hname *h, const char *name)
{
	int len = (int)strlen(name), j = len, i;

	h->name = name;
	while (j > 0 && (name[j - 1] < '0' || name[j - 1] > '9'))
		j--;
	for (i = j; i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9'; i--)
		;
	h->pre = i;
	h->dig = j - i;
	h->num = 0;
	if (!h->dig || h->dig > HOSTNUM_MAX) {
		h->pre = len;
		h->dig = 0;
		return;
	}
	for (int k = i; k < j; k++)
		h->num = h->num * 10 + (name[k] - '0');
}

/* Same prefix and suffix: hosts that one bracket can hold. */
static int cmp_stem(const struct hname *a, const struct hname *b)
{
	int c = strncmp(a->name, b->name, (size_t)(a->pre < b->pre ? a->pre : b->pre));

	if (c || a->pre != b->pre)
		return c ? c : a->pre - b->pre;
	if (!a->dig || !b->dig)
		return a->dig - b->dig;
	return strcmp(a->name + a->pre + a->dig, b->name + b->pre + b->dig);
}

static int cmp_hname(const void *x, const void *y)
{
	const struct hname *a = x, *b = y;
	int c = cmp_stem(a, b);

	if (c)
		return c;
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return a->dig - b->dig;
}

/* Does @b follow @a in a range that starts at @first? */
static bool follows(const struct hname *first, const struct hname *a,
		    const struct hname *b)
{
	bool padded = first->dig > 1 && first->name[first->pre] == '0';

	if (cmp_stem(a, b) || !b->dig || b->num != a->num + 1)
		return false;
	return padded ? b->dig == first->dig :
	       b->dig == 1 || b->name[b->pre] != '0';
}

/* The hosts h[i..j) of one stem: "name", or "pre[a-b,c]suf". */
static void put_stem(struct sbuf *sb, const struct hname *h, int i, int j)
{
	const char *suf = h[i].name + h[i].pre + h[i].dig;

	if (j - i == 1 || !h[i].dig) {
		for (int k = i; k < j; k++)
			sb_printf(sb, "%s%s", sb->len ? "," : "", h[k].name);
		return;
	}
	sb_printf(sb, "%s%.*s[", sb->len ? "," : "", h[i].pre, h[i].name);
	for (int k = i, first = 1; k < j; first = 0) {
		int e = k;

		while (e + 1 < j && follows(&h[k], &h[e], &h[e + 1]))
			e++;
		sb_printf(sb, "%s%.*s", first ? "" : ",", h[k].dig,
			  h[k].name + h[k].pre);
		if (e > k)
			sb_printf(sb, "-%.*s", h[e].dig, h[e].name + h[e].pre);
		k = e + 1;
	}
	sb_printf(sb, "]%s", suf);
}

char *fleet_hostlist(const char **names, int n)
{
	struct hname *h = calloc((size_t)n + 1, sizeof(*h));
	struct sbuf sb = { 0 };

	if (!h)
		return NULL;
	for (int i = 0; i < n; i++)
		split_name(&h[i], names[i]);
	qsort(h, (size_t)n, sizeof(*h), cmp_hname);
	for (int i = 0; i < n;) {
		int j = i + 1;

		while (j < n && !cmp_stem(&h[i], &h[j]))
			j++;
		put_stem(&sb, h, i, j);
		i = j;
	}
	free(h);
	if (sb.oom || !sb.s) {
		free(sb.s);
		return sb.oom ? NULL : strdup("");
	}
	return sb.s;
}

/* ------------------------------------------------------------------ */
/* Planning each host                                                  */
/* ------------------------------------------------------------------ */

static bool host_name_ok(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_.-") == strlen(s);
}

static int host_error(struct host *h, const char *msg)
{
	h->error = strdup(msg);
	return h->error ? 0 : -ENOMEM;
}

/* The table's pattern into f->buf, grown to fit; -EINVAL, -ENOMEM. */
static int host_pattern(struct fleet *f, const struct cplan_table *t,
			size_t *len)
{
	int ret = emit_pattern(t, f->buf, f->bufsize, len);

	if (!ret && *len >= f->bufsize) {
		char *nb = realloc(f->buf, *len + 1);

		if (!nb)
			return -ENOMEM;
		f->buf = nb;
		f->bufsize = *len + 1;
		ret = emit_pattern(t, f->buf, f->bufsize, len);
	}
	return ret;
}

/* The shape of @t: its CPUs per partition, smallest and largest. */
static void host_shape(struct host *h, const struct cplan_table *t)
{
	h->parts = t->nr_parts;
	h->nodes = t->nr_placed_nodes;
	h->cpus_min = -1;
	for (int p = 0; p < t->nr_parts; p++) {
		int n = 0;

		for (int i = t->part_first[p]; i < t->part_first[p + 1]; i++)
			n += !t->cpu_online || t->cpu_online[t->part_cpu[i]];
		if (h->cpus_min < 0 || n < h->cpus_min)
			h->cpus_min = n;
		if (n > h->cpus_max)
			h->cpus_max = n;
	}
}

/* Plan one host's topology; an error of its own is kept in h->error. */
static int plan_host(struct fleet *f, struct host *h, struct cplan_topo *topo)
{
	const struct fleet_opts *fo = f->fo;
	struct cplan_err err = { -1, "" };
	struct cplan_table *t = NULL;
	char msg[256] = "";
	int ret;

	if (fo->isolated && topo_set_isolated(topo, fo->isolated, msg, sizeof(msg)))
		return host_error(h, msg);
	for (int c = 0; fo->include_isolated && c < topo->nr_cpus; c++)
		topo->cpu[c].isolated = false;
	ret = cplan_make(topo, fo->npartitions, fo->pattern, &t, &err);
	if (ret)
		return ret == -ENOMEM ? ret :
		       host_error(h, err.msg[0] ? err.msg : strerror(-ret));
	ret = host_pattern(f, t, &h->plen);
	if (ret == -EINVAL)
		ret = host_error(h, "a partition has no online CPU: no pattern can say so");
	else if (!ret && !(h->pattern = strdup(f->buf)))
		ret = -ENOMEM;
	if (h->pattern)
		host_shape(h, t);
	cplan_table_free(t);
	return ret;
}

/* Read and plan DIR/FILE; only running out of memory stops the fleet. */
static int read_host(struct fleet *f, struct host *h, const char *file)
{
	char *path = NULL, msg[512] = "";
	struct cplan_topo *topo = NULL;
	FILE *in;
	int ret;

	h->name = strndup(file, strlen(file) - strlen(SUFFIX));
	if (!h->name || asprintf(&path, "%s/%s", f->fo->dir, file) < 0) {
		free(h->name);
		h->name = NULL;
		return -ENOMEM;
	}
	if (!host_name_ok(h->name)) {
		free(path);
		return host_error(h, "not a host name a hostlist can hold");
	}
	in = fopen(path, "r");
	if (!in) {
		snprintf(msg, sizeof(msg), "%s: cannot open: %s", path, strerror(errno));
		free(path);
		return host_error(h, msg);
	}
	ret = topo_read_lscpu(in, path, &topo, msg, sizeof(msg));
	fclose(in);
	free(path);
	if (ret == -ENOMEM)
		return ret;
	ret = ret ? host_error(h, msg) : plan_host(f, h, topo);
	cplan_topo_free(topo);
	return ret;
}

static int is_lscpu(const struct dirent *e)
{
	size_t n = strlen(e->d_name), k = strlen(SUFFIX);

	return n > k && !strcmp(e->d_name + n - k, SUFFIX);
}

/* Every DIR/HOST.lscpu, read and planned, into f->h. */
static int read_hosts(struct fleet *f)
{
	struct dirent **ents = NULL;
	int n = scandir(f->fo->dir, &ents, is_lscpu, alphasort), ret = 0;

	if (n < 0) {
		fprintf(stderr, PROG ": %s: cannot read: %s\n", f->fo->dir,
			strerror(errno));
		return EXIT_INPUT;
	}
	f->h = calloc((size_t)n + 1, sizeof(*f->h));
	for (int i = 0; i < n; i++) {
		if (f->h && !ret && (ret = read_host(f, &f->h[i], ents[i]->d_name)) == 0)
			f->n++;
		free(ents[i]);
	}
	free(ents);
	if (!f->h || ret) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_PLAN;
	}
	if (!n) {
		fprintf(stderr, PROG ": %s: no HOST" SUFFIX " file\n", f->fo->dir);
		return EXIT_INPUT;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Classes                                                             */
/* ------------------------------------------------------------------ */

struct hclass {
	int first, count;	/* hosts order[first .. first + count - 1] */
};

/* The hosts of the fleet being classed, for the qsort() comparisons. */
static const struct host *class_h;
/* order[i]: an index into class_h, hosts sorted by plan then name. */
static const int *class_order;

static int cmp_host(const void *x, const void *y)
{
	const struct host *a = &class_h[*(const int *)x];
	const struct host *b = &class_h[*(const int *)y];
	int c = strcmp(a->pattern, b->pattern);

	return c ? c : strcmp(a->name, b->name);
}

/* Bigger classes first, then by their first host's name. */
static int cmp_class(const void *x, const void *y)
{
	const struct hclass *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(class_h[class_order[a->first]].name,
		      class_h[class_order[b->first]].name);
}

/* The options line of a class: the pattern, or the nearest count. */
static void put_options(struct sbuf *sb, const struct host *h)
{
	if (h->plen <= EMIT_LUSTRE_MAX)
		sb_printf(sb, "options libcfs cpu_pattern=\"%s\"", h->pattern);
	else
		sb_printf(sb, "options libcfs cpu_npartitions=%d", h->parts);
}

static void print_class(FILE *out, const struct fleet *f, const char *hosts,
			const struct host *h, int k, int n)
{
	struct sbuf opt = { 0 };

	put_options(&opt, h);
	if (f->fo->json) {
		fprintf(out, "%s\n  {\"hosts\": ", k ? "," : "");
		json_str(out, hosts);
		fprintf(out, ", \"nhosts\": %d, \"partitions\": %d, \"cpus_per_partition\": [%d, %d], \"nodes\": %d, \"options\": ",
			n, h->parts, h->cpus_min, h->cpus_max, h->nodes);
		json_str(out, sb_str(&opt));
		fputs(", \"pattern\": ", out);
		json_str(out, h->pattern);
		fputc('}', out);
	} else {
		fprintf(out, "class %d: %s (%d host%s)\n", k + 1, hosts, n,
			n == 1 ? "" : "s");
		fprintf(out, "  shape: %d partition%s x ", h->parts,
			h->parts == 1 ? "" : "s");
		if (h->cpus_min == h->cpus_max)
			fprintf(out, "%d CPUs", h->cpus_min);
		else
			fprintf(out, "%d-%d CPUs", h->cpus_min, h->cpus_max);
		fprintf(out, ", %d node%s\n  %s\n", h->nodes,
			h->nodes == 1 ? "" : "s", sb_str(&opt));
	}
	free(opt.s);
}

/* The hosts planned, sorted into classes; returns their number, or -1. */
static int make_classes(const struct fleet *f, int *order, struct hclass *cl)
{
	int m = 0, nc = 0;

	for (int i = 0; i < f->n; i++)
		if (f->h[i].pattern)
			order[m++] = i;
	class_h = f->h;
	class_order = order;
	qsort(order, (size_t)m, sizeof(*order), cmp_host);
	for (int i = 0; i < m; i++) {
		if (!i || strcmp(f->h[order[i]].pattern, f->h[order[i - 1]].pattern) != 0)
			cl[nc++] = (struct hclass){ i, 0 };
		cl[nc - 1].count++;
	}
	qsort(cl, (size_t)nc, sizeof(*cl), cmp_class);
	return nc;
}

static int print_classes(FILE *out, const struct fleet *f)
{
	int *order = calloc((size_t)f->n + 1, sizeof(*order));
	const char **names = calloc((size_t)f->n + 1, sizeof(*names));
	struct hclass *cl = calloc((size_t)f->n + 1, sizeof(*cl));
	int nc = order && names && cl ? make_classes(f, order, cl) : -1;

	for (int k = 0; k < nc; k++) {
		char *hosts;

		for (int i = 0; i < cl[k].count; i++)
			names[i] = f->h[order[cl[k].first + i]].name;
		hosts = fleet_hostlist(names, cl[k].count);
		if (!hosts) {
			nc = -1;
			break;
		}
		print_class(out, f, hosts, &f->h[order[cl[k].first]], k, cl[k].count);
		free(hosts);
	}
	free(order);
	free(names);
	free(cl);
	return nc < 0 ? -ENOMEM : 0;
}

/* The hosts not classed: on stderr, and in the JSON document. */
static int print_errors(FILE *out, const struct fleet *f)
{
	int bad = 0;

	for (int i = 0; i < f->n; i++) {
		const struct host *h = &f->h[i];

		if (!h->error)
			continue;
		fprintf(stderr, PROG ": %s: %s\n", h->name, h->error);
		if (f->fo->json) {
			fprintf(out, "%s\n  {\"host\": ", bad ? "," : "");
			json_str(out, h->name);
			fputs(", \"error\": ", out);
			json_str(out, h->error);
			fputc('}', out);
		}
		bad++;
	}
	return bad;
}

int fleet_run(FILE *out, const struct fleet_opts *fo)
{
	struct fleet f = { fo, NULL, 0, malloc(CPLAN_PATTERN_MAX + 1),
			   CPLAN_PATTERN_MAX + 1 };
	int ret = f.buf ? read_hosts(&f) : EXIT_PLAN, bad = 0;

	if (!ret && fo->json)
		fputs("{\"classes\": [", out);
	if (!ret && print_classes(out, &f)) {
		fprintf(stderr, PROG ": out of memory\n");
		ret = EXIT_PLAN;
	}
	if (!ret && fo->json)
		fputs("\n],\n \"errors\": [", out);
	if (!ret)
		bad = print_errors(out, &f);
	if (!ret && fo->json)
		fputs("\n]}\n", out);
	if (!ret && bad)
		ret = EXIT_INPUT;
	for (int i = 0; i < f.n; i++) {
		free(f.h[i].name);
		free(f.h[i].pattern);
		free(f.h[i].error);
	}
	free(f.h);
	free(f.buf);
	return ret;
}
