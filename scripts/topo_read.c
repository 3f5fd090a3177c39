// SPDX-License-Identifier: GPL-2.0
/*
 * Topology readers for cpt-plan: sysfs trees and `lscpu -p` output.
 * See scripts/topo_read.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "topo_read.h"

/* Longest piece of offending input quoted in a message. */
#define QUOTE_MAX	40

static void set_err(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!buf || !len)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* malloc'd vprintf / printf; NULL when out of memory. */
static char *xvasprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

static char *xvasprintf(const char *fmt, va_list ap)
{
	va_list ap2;
	char *s;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	(void)vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

static char *xasprintf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

/*
 * Parse a decimal number in [0, max] from [s, end): digits only, no sign,
 * no leading/trailing blanks.  Returns false when malformed or too big.
 */
static bool parse_dec(const char *s, const char *end, long max, long *out)
{
	long v = 0;

	if (s >= end)
		return false;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (v > (max - (*s - '0')) / 10)
			return false;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return true;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return s;
}

/* Strip trailing blanks and newlines in place. */
static void rstrip(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
		     s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

/* Trim blanks at both ends in place; returns the new start. */
static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	rstrip(s);
	return s;
}

/*
 * Read a (small) whole file into a malloc'd NUL-terminated string with
 * trailing blanks stripped.  Returns 0 or a negative errno.
 */
static int read_file(const char *path, char **out)
{
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int ret = 0;

	*out = NULL;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	for (;;) {
		size_t n;

		if (cap - len < 2) {
			size_t ncap = cap ? cap * 2 : 256;
			char *nbuf;

			if (ncap > (64u << 20)) {	/* not a sysfs attribute */
				ret = -EFBIG;
				break;
			}
			nbuf = realloc(buf, ncap);
			if (!nbuf) {
				ret = -ENOMEM;
				break;
			}
			buf = nbuf;
			cap = ncap;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0) {
			if (ferror(f))
				ret = -EIO;
			break;
		}
	}
	(void)fclose(f);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		return -EINVAL;		/* embedded NUL: not a text file */
	}
	rstrip(buf);
	*out = buf;
	return 0;
}

/*
 * Walk a kernel list ("0-3,8,10-11", possibly empty) calling fn(id, arg)
 * for each id.  Ids must be below @limit.  Returns 0, -EINVAL when
 * malformed, -ERANGE when an id is >= @limit, or what fn returned.
 */
static int list_walk(const char *s, long limit, int (*fn)(int, void *),
		     void *arg)
{
	s = skip_blanks(s);
	if (!*s)
		return 0;
	for (;;) {
		const char *p = s;
		long a, b;

		while (*p >= '0' && *p <= '9')
			p++;
		if (!parse_dec(s, p, LONG_MAX / 2, &a))
			return -EINVAL;
		b = a;
		if (*p == '-') {
			s = ++p;
			while (*p >= '0' && *p <= '9')
				p++;
			if (!parse_dec(s, p, LONG_MAX / 2, &b) || b < a)
				return -EINVAL;
		}
		if (b >= limit)
			return -ERANGE;
		for (long i = a; i <= b; i++) {
			int ret = fn((int)i, arg);

			if (ret)
				return ret;
		}
		p = skip_blanks(p);
		if (!*p)
			return 0;
		if (*p != ',')
			return -EINVAL;
		s = skip_blanks(p + 1);
	}
}

static int max_cb(int id, void *arg)
{
	int *max = arg;

	if (id > *max)
		*max = id;
	return 0;
}

static int first_cb(int id, void *arg)
{
	int *first = arg;

	if (*first < 0)
		*first = id;
	return 0;
}

/* bool array set, with the array's length in front. */
struct bitset {
	bool *bits;
	int n;
	int count;
};

static int set_cb(int id, void *arg)
{
	struct bitset *bs = arg;

	if (id >= bs->n)
		return -ERANGE;
	if (!bs->bits[id])
		bs->count++;
	bs->bits[id] = true;
	return 0;
}

/*
 * Grouping of CPUs by an opaque raw key (kind, a, b): every CPU of a group
 * gets the lowest CPU id of the group as its normalised key.
 */
struct grp {
	int kind;
	long a, b;
	int cpu;
};

static int cmp_grp(const void *x, const void *y)
{
	const struct grp *g = x, *h = y;

	if (g->kind != h->kind)
		return g->kind < h->kind ? -1 : 1;
	if (g->a != h->a)
		return g->a < h->a ? -1 : 1;
	if (g->b != h->b)
		return g->b < h->b ? -1 : 1;
	if (g->cpu != h->cpu)
		return g->cpu < h->cpu ? -1 : 1;
	return 0;
}

enum key_field { KEY_CORE, KEY_LLC };

static void assign_groups(struct cplan_topo *topo, struct grp *g, size_t n,
			  enum key_field which)
{
	int first = CPLAN_NONE;

	if (n)
		qsort(g, n, sizeof(*g), cmp_grp);
	for (size_t i = 0; i < n; i++) {
		struct cplan_cpu *c = &topo->cpu[g[i].cpu];

		if (i == 0 || g[i].kind != g[i - 1].kind ||
		    g[i].a != g[i - 1].a || g[i].b != g[i - 1].b)
			first = g[i].cpu;
		if (which == KEY_CORE)
			c->core = first;
		else
			c->llc = first;
	}
}

/* ------------------------------------------------------------------ */
/* sysfs                                                               */
/* ------------------------------------------------------------------ */

struct sysfs_ctx {
	const char *root;	/* without trailing '/' ("" for "/") */
	char *errbuf;
	size_t errlen;
};

/* Read root/rel (rel printf-formatted).  -ENOENT is reported quietly. */
static int sys_vread(struct sysfs_ctx *sx, char **out, char **pathp,
		     const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static int sys_vread(struct sysfs_ctx *sx, char **out, char **pathp,
		     const char *fmt, va_list ap)
{
	char *rel, *path;
	int ret;

	*out = NULL;
	*pathp = NULL;
	rel = xvasprintf(fmt, ap);
	path = rel ? xasprintf("%s/%s", sx->root, rel) : NULL;
	free(rel);
	if (!path) {
		set_err(sx->errbuf, sx->errlen, "out of memory");
		return -ENOMEM;
	}
	ret = read_file(path, out);
	if (ret && ret != -ENOENT) {
		if (ret == -ENOMEM)
			set_err(sx->errbuf, sx->errlen, "out of memory");
		else
			set_err(sx->errbuf, sx->errlen, "%s: cannot read: %s",
				path, strerror(-ret));
	}
	*pathp = path;
	return ret;
}

static int sys_read(struct sysfs_ctx *sx, char **out, char **pathp,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int sys_read(struct sysfs_ctx *sx, char **out, char **pathp,
		    const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = sys_vread(sx, out, pathp, fmt, ap);
	va_end(ap);
	return ret;
}

static int sys_missing(struct sysfs_ctx *sx, const char *path)
{
	set_err(sx->errbuf, sx->errlen, "%s: cannot read: %s", path,
		strerror(ENOENT));
	return -ENOENT;
}

static int list_err(struct sysfs_ctx *sx, const char *path, const char *text,
		    int ret, const char *what, long limit)
{
	if (ret == -ERANGE)
		set_err(sx->errbuf, sx->errlen,
			"%s:1: %s id out of range (limit %ld) in '%.*s'",
			path, what, limit, QUOTE_MAX, text);
	else if (ret == -ENOMEM)
		set_err(sx->errbuf, sx->errlen, "out of memory");
	else if (ret == -EINVAL)
		set_err(sx->errbuf, sx->errlen,
			"%s:1: malformed %s list '%.*s'", path, what,
			QUOTE_MAX, text);
	return ret;
}

/*
 * Read a list file, returning its highest id (-1 if empty) in *max.
 * Returns -ENOENT quietly when the file does not exist.
 */
static int sys_list_max(struct sysfs_ctx *sx, const char *rel,
			const char *what, long limit, int *max)
{
	char *text, *path;
	int ret;

	*max = -1;
	ret = sys_read(sx, &text, &path, "%s", rel);
	if (!ret) {
		ret = list_walk(text, limit, max_cb, max);
		if (ret)
			list_err(sx, path, text, ret, what, limit);
	}
	free(text);
	free(path);
	return ret;
}

static int sys_list_set(struct sysfs_ctx *sx, const char *rel,
			const char *what, struct bitset *bs)
{
	char *text, *path;
	int ret;

	ret = sys_read(sx, &text, &path, "%s", rel);
	if (ret == -ENOENT)
		ret = sys_missing(sx, path);
	else if (!ret) {
		ret = list_walk(text, bs->n, set_cb, bs);
		if (ret)
			list_err(sx, path, text, ret, what, bs->n);
	}
	free(text);
	free(path);
	return ret;
}

/* First id of a non-empty list file; -ENOENT quietly unless @required. */
static int sys_list_first(struct sysfs_ctx *sx, bool required, int *first,
			  const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int sys_list_first(struct sysfs_ctx *sx, bool required, int *first,
			  const char *fmt, ...)
{
	va_list ap;
	char *text, *path;
	int ret;

	*first = -1;
	va_start(ap, fmt);
	ret = sys_vread(sx, &text, &path, fmt, ap);
	va_end(ap);
	if (ret == -ENOENT && required) {
		ret = sys_missing(sx, path);
	} else if (!ret) {
		ret = list_walk(text, TOPO_MAX_CPUS, first_cb, first);
		if (ret) {
			list_err(sx, path, text, ret, "CPU", TOPO_MAX_CPUS);
		} else if (*first < 0) {
			set_err(sx->errbuf, sx->errlen,
				"%s:1: empty CPU list", path);
			ret = -EINVAL;
		}
	}
	free(text);
	free(path);
	return ret;
}

/* A signed decimal number file; -ENOENT quietly. */
static int sys_number(struct sysfs_ctx *sx, long *val, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int sys_number(struct sysfs_ctx *sx, long *val, const char *fmt, ...)
{
	va_list ap;
	char *text, *path;
	int ret;

	va_start(ap, fmt);
	ret = sys_vread(sx, &text, &path, fmt, ap);
	va_end(ap);
	if (!ret) {
		const char *s = skip_blanks(text);
		bool neg = *s == '-';

		if (neg)
			s++;
		if (!parse_dec(s, s + strlen(s), INT_MAX, val)) {
			set_err(sx->errbuf, sx->errlen,
				"%s:1: expected a number, got '%.*s'", path,
				QUOTE_MAX, text);
			ret = -EINVAL;
		} else if (neg) {
			*val = -*val;
		}
	}
	free(text);
	free(path);
	return ret;
}

static int sys_nodes(struct sysfs_ctx *sx, struct cplan_topo *topo,
		     const bool *cpu_online)
{
	struct bitset nodes = { NULL, topo->nr_nodes, 0 };
	int *order = NULL, *row = NULL;
	int nr_online = 0, ret;

	nodes.bits = calloc((size_t)topo->nr_nodes, sizeof(bool));
	order = calloc((size_t)topo->nr_nodes, sizeof(int));
	row = calloc((size_t)topo->nr_nodes, sizeof(int));
	if (!nodes.bits || !order || !row) {
		set_err(sx->errbuf, sx->errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	ret = sys_list_set(sx, "devices/system/node/online", "node", &nodes);
	if (ret)
		goto out;
	for (int n = 0; n < topo->nr_nodes; n++) {
		topo->node_online[n] = nodes.bits[n];
		if (nodes.bits[n])
			order[nr_online++] = n;
	}
	for (int k = 0; k < nr_online; k++) {
		int n = order[k], count = 0;
		char *text, *path, *rel;
		const char *s;
		struct bitset cpus = { NULL, topo->nr_cpus, 0 };

		rel = xasprintf("devices/system/node/node%d/cpulist", n);
		cpus.bits = calloc((size_t)topo->nr_cpus, sizeof(bool));
		if (!rel || !cpus.bits) {
			free(rel);
			free(cpus.bits);
			set_err(sx->errbuf, sx->errlen, "out of memory");
			ret = -ENOMEM;
			goto out;
		}
		ret = sys_list_set(sx, rel, "CPU", &cpus);
		free(rel);
		if (ret) {
			free(cpus.bits);
			goto out;
		}
		for (int c = 0; c < topo->nr_cpus; c++) {
			if (!cpus.bits[c] || !cpu_online[c])
				continue;
			if (topo->cpu[c].node >= 0) {
				set_err(sx->errbuf, sx->errlen,
					"%s/devices/system/node: CPU %d is in the cpulist of node %d and of node %d",
					sx->root, c, topo->cpu[c].node, n);
				ret = -EINVAL;
				break;
			}
			topo->cpu[c].node = n;
		}
		free(cpus.bits);
		if (ret)
			goto out;

		ret = sys_read(sx, &text, &path,
			       "devices/system/node/node%d/distance", n);
		if (ret == -ENOENT)
			ret = sys_missing(sx, path);
		if (ret) {
			free(text);
			free(path);
			goto out;
		}
		s = skip_blanks(text);
		while (*s) {
			const char *e = s;
			long v;

			while (*e >= '0' && *e <= '9')
				e++;
			if (count >= nr_online || !parse_dec(s, e, INT_MAX, &v) ||
			    (*e && *e != ' ' && *e != '\t')) {
				count = -1;
				break;
			}
			row[count++] = (int)v;
			s = skip_blanks(e);
		}
		if (count != nr_online) {
			set_err(sx->errbuf, sx->errlen,
				"%s:1: expected %d distances (one per online node), got '%.*s'",
				path, nr_online, QUOTE_MAX, text);
			ret = -EINVAL;
		} else {
			for (int j = 0; j < nr_online; j++)
				topo->distance[n * topo->nr_nodes + order[j]] =
					row[j];
		}
		free(text);
		free(path);
		if (ret)
			goto out;
	}
	for (int c = 0; c < topo->nr_cpus; c++) {
		if (cpu_online[c] && topo->cpu[c].node < 0) {
			set_err(sx->errbuf, sx->errlen,
				"%s/devices/system/node: online CPU %d is in no online node's cpulist",
				sx->root, c);
			ret = -EINVAL;
			goto out;
		}
	}
out:
	free(nodes.bits);
	free(order);
	free(row);
	return ret;
}

/* Core, package and L3 of one online CPU, into the grouping records. */
static int sys_cpu(struct sysfs_ctx *sx, struct cplan_topo *topo, int c,
		   struct grp *core, struct grp *llc, bool *has_llc)
{
	long pkg = 0, core_id, level;
	int first, ret;

	ret = sys_number(sx, &pkg, "devices/system/cpu/cpu%d/topology/physical_package_id", c);
	if (ret && ret != -ENOENT)
		return ret;
	if (ret || pkg < 0)
		pkg = 0;
	topo->cpu[c].package = (int)pkg;

	ret = sys_list_first(sx, false, &first,
			     "devices/system/cpu/cpu%d/topology/thread_siblings_list",
			     c);
	if (!ret) {
		*core = (struct grp){ 0, 0, first, c };
	} else if (ret == -ENOENT) {
		ret = sys_number(sx, &core_id, "devices/system/cpu/cpu%d/topology/core_id", c);
		if (!ret)
			*core = (struct grp){ 1, pkg, core_id, c };
		else if (ret == -ENOENT)
			*core = (struct grp){ 2, 0, c, c };	/* alone */
		else
			return ret;
	} else {
		return ret;
	}

	*has_llc = false;
	for (int k = 0;; k++) {
		char *text, *path;

		ret = sys_number(sx, &level, "devices/system/cpu/cpu%d/cache/index%d/level", c, k);
		if (ret == -ENOENT)
			return 0;
		if (ret)
			return ret;
		if (level != 3)
			continue;
		ret = sys_read(sx, &text, &path, "devices/system/cpu/cpu%d/cache/index%d/type", c, k);
		if (ret == -ENOENT) {
			free(text);
			free(path);
			continue;
		}
		if (ret) {
			free(path);
			return ret;
		}
		ret = strcmp(text, "Unified");
		free(text);
		free(path);
		if (ret)
			continue;
		ret = sys_list_first(sx, true, &first,
				     "devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
				     c, k);
		if (ret)
			return ret;
		*llc = (struct grp){ 0, 0, first, c };
		*has_llc = true;
		return 0;
	}
}

/* Does @dir/devices/system/cpu/online exist?  (false when out of memory) */
static bool dir_has_cpu_online(const char *dir)
{
	char *path = xasprintf("%s/devices/system/cpu/online", dir);
	bool ret = path && access(path, F_OK) == 0;

	free(path);
	return ret;
}

int topo_read_sysfs(const char *root, struct cplan_topo **out, char *errbuf,
		    size_t errlen)
{
	struct sysfs_ctx sx = { NULL, errbuf, errlen };
	struct bitset online = { NULL, 0, 0 };
	struct cplan_topo *topo = NULL;
	struct grp *cores = NULL, *llcs = NULL;
	size_t nr_cores = 0, nr_llcs = 0;
	char *rootcopy = NULL;
	int max_possible, max_online, max_node, nr_cpus, nr_nodes, ret;
	bool numa = true;

	*out = NULL;
	rootcopy = strdup(root && *root ? root : "/");
	if (!rootcopy) {
		set_err(errbuf, errlen, "out of memory");
		return -ENOMEM;
	}
	{
		size_t n = strlen(rootcopy);

		while (n && rootcopy[n - 1] == '/')
			rootcopy[--n] = '\0';
	}
	sx.root = rootcopy;

	/*
	 * DIR may be a sysfs mount (/sys, a copy of one, a fixture) or a
	 * filesystem root holding one in sys/ ("/" for the live system).
	 */
	if (!dir_has_cpu_online(rootcopy)) {
		char *sys = xasprintf("%s/sys", rootcopy);

		if (!sys) {
			free(rootcopy);
			set_err(errbuf, errlen, "out of memory");
			return -ENOMEM;
		}
		if (dir_has_cpu_online(sys)) {
			free(rootcopy);
			rootcopy = sys;
			sx.root = rootcopy;
		} else {
			free(sys);
		}
	}

	ret = sys_list_max(&sx, "devices/system/cpu/online", "CPU",
			   TOPO_MAX_CPUS, &max_online);
	if (ret == -ENOENT) {
		set_err(errbuf, errlen,
			"%s/devices/system/cpu/online: cannot read: %s (is %s a sysfs root?)",
			sx.root, strerror(ENOENT), root && *root ? root : "/");
	}
	if (ret)
		goto out;
	if (max_online < 0) {
		set_err(errbuf, errlen,
			"%s/devices/system/cpu/online: no online CPU",
			sx.root);
		ret = -EINVAL;
		goto out;
	}
	ret = sys_list_max(&sx, "devices/system/cpu/possible", "CPU",
			   TOPO_MAX_CPUS, &max_possible);
	if (ret == -ENOENT)
		max_possible = max_online;
	else if (ret)
		goto out;
	if (max_online > max_possible) {
		set_err(errbuf, errlen,
			"%s/devices/system/cpu/online: CPU %d is online but not possible",
			sx.root, max_online);
		ret = -EINVAL;
		goto out;
	}
	nr_cpus = max_possible + 1;

	ret = sys_list_max(&sx, "devices/system/node/possible", "node",
			   TOPO_MAX_NODES, &max_node);
	if (ret == -ENOENT) {
		ret = sys_list_max(&sx, "devices/system/node/online", "node",
				   TOPO_MAX_NODES, &max_node);
		if (ret == -ENOENT) {
			numa = false;	/* CONFIG_NUMA=n: one node */
			max_node = 0;
			ret = 0;
		}
	}
	if (ret)
		goto out;
	if (max_node < 0) {
		set_err(errbuf, errlen, "%s/devices/system/node: no node",
			sx.root);
		ret = -EINVAL;
		goto out;
	}
	nr_nodes = max_node + 1;

	topo = cplan_topo_alloc(nr_cpus, nr_nodes);
	online.n = nr_cpus;
	online.bits = calloc((size_t)nr_cpus, sizeof(bool));
	cores = calloc((size_t)nr_cpus, sizeof(*cores));
	llcs = calloc((size_t)nr_cpus, sizeof(*llcs));
	if (!topo || !online.bits || !cores || !llcs) {
		set_err(errbuf, errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	ret = sys_list_set(&sx, "devices/system/cpu/online", "CPU", &online);
	if (ret)
		goto out;
	for (int c = 0; c < nr_cpus; c++) {
		topo->cpu[c].online = online.bits[c];
		topo->cpu[c].node = online.bits[c] && !numa ? 0 : -1;
		topo->cpu[c].llc = CPLAN_NONE;
		topo->cpu[c].core = c;
	}
	if (numa) {
		ret = sys_nodes(&sx, topo, online.bits);
		if (ret)
			goto out;
	} else {
		topo->node_online[0] = true;
	}
	for (int c = 0; c < nr_cpus; c++) {
		bool has_llc;

		if (!online.bits[c])
			continue;
		ret = sys_cpu(&sx, topo, c, &cores[nr_cores], &llcs[nr_llcs],
			      &has_llc);
		if (ret)
			goto out;
		nr_cores++;
		if (has_llc)
			nr_llcs++;
	}
	assign_groups(topo, cores, nr_cores, KEY_CORE);
	assign_groups(topo, llcs, nr_llcs, KEY_LLC);
	*out = topo;
	topo = NULL;
out:
	cplan_topo_free(topo);
	free(online.bits);
	free(cores);
	free(llcs);
	free(rootcopy);
	return ret;
}

/* ------------------------------------------------------------------ */
/* lscpu -p                                                            */
/* ------------------------------------------------------------------ */

#define UNKNOWN	(-1L)

struct row {
	long line;
	int cpu;
	bool online;
	long core, socket, node, l3;
};

struct cols {
	int n;			/* fields per line, 0 before the header */
	int cpu, core, socket, node, l3, online;
	int l3_sub;		/* -1: plain L3 column; else ':' subfield */
};

struct lscpu_ctx {
	const char *name;
	long line;
	char *errbuf;
	size_t errlen;
	char **fields;
	size_t fields_cap;
};

static int lerr(struct lscpu_ctx *lx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int lerr(struct lscpu_ctx *lx, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	set_err(lx->errbuf, lx->errlen, "%s:%ld: %s", lx->name, lx->line, msg);
	return -EINVAL;
}

/* Split @s at @sep in place into lx->fields; returns the count or -ENOMEM. */
static long split(struct lscpu_ctx *lx, char *s, char sep)
{
	size_t n = 0;

	for (;;) {
		char *e = strchr(s, sep);

		if (n == lx->fields_cap) {
			size_t ncap = lx->fields_cap ? lx->fields_cap * 2 : 16;
			char **nf = realloc(lx->fields, ncap * sizeof(*nf));

			if (!nf)
				return -ENOMEM;
			lx->fields = nf;
			lx->fields_cap = ncap;
		}
		if (e)
			*e = '\0';
		lx->fields[n++] = trim(s);
		if (!e)
			return (long)n;
		s = e + 1;
	}
}

/* Is this comment line a "# CPU,Core,..." header?  Then fill @cols. */
static int parse_header(struct lscpu_ctx *lx, char *text, struct cols *cols,
			bool *is_header)
{
	struct cols c = { 0, -1, -1, -1, -1, -1, -1, -1 };
	long n = split(lx, text, ',');

	*is_header = false;
	if (n < 0)
		return (int)n;
	for (long i = 0; i < n; i++) {
		char *f = lx->fields[i];

		if (!strcasecmp(f, "CPU") && c.cpu < 0)
			c.cpu = (int)i;
		else if (!strcasecmp(f, "Core") && c.core < 0)
			c.core = (int)i;
		else if (!strcasecmp(f, "Socket") && c.socket < 0)
			c.socket = (int)i;
		else if (!strcasecmp(f, "Node") && c.node < 0)
			c.node = (int)i;
		else if (!strcasecmp(f, "Online") && c.online < 0)
			c.online = (int)i;
		else if (!strcasecmp(f, "L3") && c.l3 < 0)
			c.l3 = (int)i;
		else if (!strcasecmp(f, "Cache") && c.l3 < 0) {
			c.l3 = (int)i;		/* L1d:L1i:L2:L3 */
			c.l3_sub = 3;
		} else if (strchr(f, ':') && c.l3 < 0) {
			int sub = 0;

			for (char *p = f; p; sub++) {
				char *e = strchr(p, ':');
				size_t len = e ? (size_t)(e - p) : strlen(p);

				if (len == 2 && !strncasecmp(p, "L3", 2)) {
					c.l3 = (int)i;
					c.l3_sub = sub;
					break;
				}
				p = e ? e + 1 : NULL;
			}
		}
	}
	if (c.cpu < 0)
		return 0;
	c.n = (int)n;
	*cols = c;
	*is_header = true;
	return 0;
}

/* Empty or "-": UNKNOWN; otherwise a decimal in [0, max]. */
static int parse_val(struct lscpu_ctx *lx, const char *f, const char *what,
		     long max, long *out)
{
	if (!*f || !strcmp(f, "-")) {
		*out = UNKNOWN;
		return 0;
	}
	if (!parse_dec(f, f + strlen(f), max, out))
		return lerr(lx, "%s: expected a number up to %ld, got '%.*s'",
			    what, max, QUOTE_MAX, f);
	return 0;
}

static int parse_row(struct lscpu_ctx *lx, char *text, const struct cols *c,
		     struct row *r)
{
	long n = split(lx, text, ','), cpu = 0;
	char **f = lx->fields;
	int ret;

	if (n < 0)
		return (int)n;
	if (n != c->n)
		return lerr(lx, "%ld fields where the header has %d", n, c->n);
	if (!*f[c->cpu])
		return lerr(lx, "empty CPU field");
	ret = parse_val(lx, f[c->cpu], "CPU", TOPO_MAX_CPUS - 1, &cpu);
	if (ret)
		return ret;
	r->cpu = (int)cpu;
	r->line = lx->line;
	r->core = r->socket = r->node = r->l3 = UNKNOWN;
	if (c->core >= 0 &&
	    (ret = parse_val(lx, f[c->core], "Core", INT_MAX, &r->core)))
		return ret;
	if (c->socket >= 0 &&
	    (ret = parse_val(lx, f[c->socket], "Socket", INT_MAX, &r->socket)))
		return ret;
	if (c->node >= 0 &&
	    (ret = parse_val(lx, f[c->node], "Node", TOPO_MAX_NODES - 1,
			     &r->node)))
		return ret;
	if (c->l3 >= 0) {
		const char *v = f[c->l3];
		char *sub = NULL;

		if (c->l3_sub >= 0) {
			/* pick the l3_sub-th ':'-separated part */
			const char *p = v;

			for (int k = 0; p && k < c->l3_sub; k++) {
				p = strchr(p, ':');
				if (p)
					p++;
			}
			if (p) {
				size_t len = strcspn(p, ":");

				sub = strndup(p, len);
				if (!sub)
					return -ENOMEM;
			}
			v = sub ? sub : "";
		}
		ret = parse_val(lx, v, "L3", INT_MAX, &r->l3);
		free(sub);
		if (ret)
			return ret;
	}
	r->online = true;
	if (c->online >= 0) {
		const char *o = f[c->online];

		if (strcasecmp(o, "N") == 0 || strcasecmp(o, "no") == 0)
			r->online = false;
		else if (*o && strcasecmp(o, "Y") != 0 &&
			 strcasecmp(o, "yes") != 0)
			return lerr(lx, "Online: expected Y or N, got '%.*s'",
				    QUOTE_MAX, o);
	} else if (n > 1) {
		/* `lscpu -p -a` prints offline CPUs with empty fields */
		bool all_empty = true;

		for (long i = 0; i < n; i++)
			if (i != c->cpu && *f[i])
				all_empty = false;
		if (all_empty)
			r->online = false;
	}
	return 0;
}

static int lscpu_build(struct lscpu_ctx *lx, struct row *rows, size_t nr,
		       struct cplan_topo **out)
{
	struct cplan_topo *topo = NULL;
	struct grp *cores = NULL, *llcs = NULL;
	long *seen = NULL;
	size_t nr_cores = 0, nr_llcs = 0, nr_online = 0;
	int max_cpu = -1, max_node = -1, ret = 0;
	const struct row *with_node = NULL, *without_node = NULL;

	for (size_t i = 0; i < nr; i++) {
		if (rows[i].cpu > max_cpu)
			max_cpu = rows[i].cpu;
		if (!rows[i].online)
			continue;
		nr_online++;
		if (rows[i].node >= 0) {
			with_node = &rows[i];
			if (rows[i].node > max_node)
				max_node = (int)rows[i].node;
		} else if (!without_node) {
			without_node = &rows[i];
		}
	}
	if (!nr_online) {
		set_err(lx->errbuf, lx->errlen,
			"%s: no online CPU (is this `lscpu -p` output?)",
			lx->name);
		return -EINVAL;
	}
	if (with_node && without_node) {
		lx->line = without_node->line;
		return lerr(lx, "CPU %d has no node while CPU %d (line %ld) has node %ld",
			    without_node->cpu, with_node->cpu, with_node->line,
			    with_node->node);
	}
	topo = cplan_topo_alloc(max_cpu + 1, max_node < 0 ? 1 : max_node + 1);
	seen = calloc((size_t)max_cpu + 1, sizeof(*seen));
	cores = calloc(nr_online, sizeof(*cores));
	llcs = calloc(nr_online, sizeof(*llcs));
	if (!topo || !seen || !cores || !llcs) {
		set_err(lx->errbuf, lx->errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (int c = 0; c < topo->nr_cpus; c++)
		topo->cpu[c].llc = CPLAN_NONE;
	for (size_t i = 0; i < nr; i++) {
		const struct row *r = &rows[i];
		struct cplan_cpu *c = &topo->cpu[r->cpu];

		if (seen[r->cpu]) {
			lx->line = r->line;
			ret = lerr(lx, "CPU %d listed again (first on line %ld)",
				   r->cpu, seen[r->cpu]);
			goto out;
		}
		seen[r->cpu] = r->line;
		if (!r->online)
			continue;
		c->online = true;
		c->node = r->node < 0 ? 0 : (int)r->node;
		c->package = r->socket < 0 ? 0 : (int)r->socket;
		c->core = r->cpu;
		topo->node_online[c->node] = true;
		if (r->core >= 0)
			cores[nr_cores++] = (struct grp){ 0, r->socket, r->core,
							  r->cpu };
		else
			cores[nr_cores++] = (struct grp){ 1, 0, r->cpu, r->cpu };
		if (r->l3 >= 0)
			llcs[nr_llcs++] = (struct grp){ 0, 0, r->l3, r->cpu };
	}
	assign_groups(topo, cores, nr_cores, KEY_CORE);
	assign_groups(topo, llcs, nr_llcs, KEY_LLC);
	*out = topo;
	topo = NULL;
out:
	cplan_topo_free(topo);
	free(seen);
	free(cores);
	free(llcs);
	return ret;
}

int topo_read_lscpu(FILE *f, const char *name, struct cplan_topo **out,
		    char *errbuf, size_t errlen)
{
	struct lscpu_ctx lx = { name ? name : "<stdin>", 0, errbuf, errlen,
				NULL, 0 };
	struct cols cols = { 0, -1, -1, -1, -1, -1, -1, -1 };
	struct row *rows = NULL;
	size_t nr = 0, cap = 0, linecap = 0;
	char *line = NULL;
	ssize_t len;
	int ret = 0;

	*out = NULL;
	for (;;) {
		char *text;

		errno = 0;
		len = getline(&line, &linecap, f);
		if (len < 0)
			break;

		lx.line++;
		if ((size_t)len != strlen(line)) {
			ret = lerr(&lx, "NUL byte in line (not lscpu -p output)");
			goto out;
		}
		text = trim(line);
		if (!*text)
			continue;
		if (*text == '#') {
			bool is_header;

			ret = parse_header(&lx, trim(text + 1), &cols,
					   &is_header);
			if (ret)
				goto nomem;
			continue;
		}
		if (!cols.n) {
			ret = lerr(&lx, "data before the '# CPU,Core,Socket,Node,...' header line (use `lscpu -p` output)");
			goto out;
		}
		if (nr == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct row *nrows = realloc(rows, ncap * sizeof(*nrows));

			if (!nrows)
				goto nomem;
			rows = nrows;
			cap = ncap;
		}
		ret = parse_row(&lx, text, &cols, &rows[nr]);
		if (ret == -ENOMEM)
			goto nomem;
		if (ret)
			goto out;
		nr++;
	}
	if (errno == ENOMEM)
		goto nomem;
	if (ferror(f)) {
		set_err(errbuf, errlen, "%s: read error: %s", lx.name,
			strerror(errno ? errno : EIO));
		ret = -EIO;
		goto out;
	}
	if (!nr) {
		set_err(errbuf, errlen,
			"%s: no CPU lines (expected `lscpu -p` output)",
			lx.name);
		ret = -EINVAL;
		goto out;
	}
	ret = lscpu_build(&lx, rows, nr, out);
	goto out;
nomem:
	set_err(errbuf, errlen, "out of memory");
	ret = -ENOMEM;
out:
	free(line);
	free(rows);
	free(lx.fields);
	return ret;
}
