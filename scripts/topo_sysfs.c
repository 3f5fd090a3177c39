// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs topology reader of cpt-plan: a tree laid out like the kernel's
 * /sys, live or copied.  See scripts/topo_read.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topo_read.h"
#include "topo_util.h"

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

/* The ids of a list file, as flags: has[id] for id < limit. */
struct id_set {
	const char *what;	/* "CPU" or "node", for messages */
	bool *has;
	int limit;
};

static int set_cb(int id, void *arg)
{
	struct id_set *set = arg;

	if (id >= set->limit)
		return -ERANGE;
	set->has[id] = true;
	return 0;
}

/* The highest id of a list file (-1 when the list is empty). */
struct id_max {
	const char *what;
	long limit;
	int max;
};

/* ------------------------------------------------------------------ */
/* Reading one file                                                    */
/* ------------------------------------------------------------------ */

struct sysfs_ctx {
	const char *root;	/* without trailing '/' ("" for "/") */
	char *errbuf;
	size_t errlen;
};

static int sys_nomem(struct sysfs_ctx *sx)
{
	set_err(sx->errbuf, sx->errlen, "out of memory");
	return -ENOMEM;
}

/*
 * Parse the text of the file @path into @out.  Returns 0, or a negative
 * errno with the message in sx->errbuf.
 */
typedef int sys_parse_fn(struct sysfs_ctx *sx, const char *path,
			 const char *text, void *out);

/* Whether a missing file is an error or just -ENOENT, reported quietly. */
enum sys_need { SYS_OPTIONAL, SYS_REQUIRED };

/* Read root/rel (rel printf-formatted) and hand its text to @parse. */
static int sys_parse(struct sysfs_ctx *sx, enum sys_need need,
		     sys_parse_fn *parse, void *out, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int sys_parse(struct sysfs_ctx *sx, enum sys_need need,
		     sys_parse_fn *parse, void *out, const char *fmt, ...)
{
	char *rel, *path, *text;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	rel = xvasprintf(fmt, ap);
	va_end(ap);
	path = rel ? xasprintf("%s/%s", sx->root, rel) : NULL;
	free(rel);
	if (!path)
		return sys_nomem(sx);
	ret = read_file(path, &text);
	if (ret == -ENOMEM)
		sys_nomem(sx);
	else if (ret && (ret != -ENOENT || need == SYS_REQUIRED))
		set_err(sx->errbuf, sx->errlen, "%s: cannot read: %s", path,
			strerror(-ret));
	else if (!ret)
		ret = parse(sx, path, text, out);
	free(text);
	free(path);
	return ret;
}

static int list_err(struct sysfs_ctx *sx, const char *path, const char *text,
		    int ret, const char *what, long limit)
{
	if (ret == -ERANGE)
		set_err(sx->errbuf, sx->errlen,
			"%s:1: %s id out of range (limit %ld) in '%.*s'",
			path, what, limit, QUOTE_MAX, text);
	else if (ret == -ENOMEM)
		sys_nomem(sx);
	else if (ret == -EINVAL)
		set_err(sx->errbuf, sx->errlen,
			"%s:1: malformed %s list '%.*s'", path, what,
			QUOTE_MAX, text);
	return ret;
}

/* A list file into struct id_max. */
static int parse_list_max(struct sysfs_ctx *sx, const char *path,
			  const char *text, void *out)
{
	struct id_max *m = out;
	int ret;

	m->max = -1;
	ret = list_walk(text, m->limit, max_cb, &m->max);
	return ret ? list_err(sx, path, text, ret, m->what, m->limit) : 0;
}

/* A list file into struct id_set. */
static int parse_list_set(struct sysfs_ctx *sx, const char *path,
			  const char *text, void *out)
{
	struct id_set *set = out;
	int ret = list_walk(text, set->limit, set_cb, set);

	return ret ? list_err(sx, path, text, ret, set->what, set->limit) : 0;
}

/* The first id of a non-empty CPU list file, into an int. */
static int parse_first_cpu(struct sysfs_ctx *sx, const char *path,
			   const char *text, void *out)
{
	int *first = out;
	int ret;

	*first = -1;
	ret = list_walk(text, TOPO_MAX_CPUS, first_cb, first);
	if (ret)
		return list_err(sx, path, text, ret, "CPU", TOPO_MAX_CPUS);
	if (*first < 0) {
		set_err(sx->errbuf, sx->errlen, "%s:1: empty CPU list", path);
		return -EINVAL;
	}
	return 0;
}

/* A signed decimal number, into a long. */
static int parse_number(struct sysfs_ctx *sx, const char *path,
			const char *text, void *out)
{
	const char *s = skip_blanks(text);
	bool neg = *s == '-';
	long *val = out;

	if (neg)
		s++;
	if (!parse_dec(s, s + strlen(s), INT_MAX, val)) {
		set_err(sx->errbuf, sx->errlen,
			"%s:1: expected a number, got '%.*s'", path,
			QUOTE_MAX, text);
		return -EINVAL;
	}
	if (neg)
		*val = -*val;
	return 0;
}

/* Is a cache's type "Unified" (not "Data" or "Instruction")?  Into a bool. */
static int parse_is_unified(struct sysfs_ctx *sx, const char *path,
			    const char *text, void *out)
{
	bool *unified = out;

	(void)sx;
	(void)path;
	*unified = !strcmp(text, "Unified");
	return 0;
}

/* One row of the node distance matrix: @nr numbers, one per online node. */
struct distance_row {
	int *dist;
	int nr;
};

static int parse_distances(struct sysfs_ctx *sx, const char *path,
			   const char *text, void *out)
{
	struct distance_row *row = out;
	const char *s = skip_blanks(text);
	int count = 0;

	while (*s) {
		const char *e = s;
		long v;

		while (*e >= '0' && *e <= '9')
			e++;
		if (count >= row->nr || !parse_dec(s, e, INT_MAX, &v) ||
		    (*e && *e != ' ' && *e != '\t')) {
			count = -1;
			break;
		}
		row->dist[count++] = (int)v;
		s = skip_blanks(e);
	}
	if (count != row->nr) {
		set_err(sx->errbuf, sx->errlen,
			"%s:1: expected %d distances (one per online node), got '%.*s'",
			path, row->nr, QUOTE_MAX, text);
		return -EINVAL;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Nodes                                                               */
/* ------------------------------------------------------------------ */

/* The online nodes, ascending, into @order; returns their number. */
static int sys_online_nodes(struct sysfs_ctx *sx, struct cplan_topo *topo,
			    int *order)
{
	struct id_set nodes = { "node", NULL, topo->nr_nodes };
	int nr_online = 0, ret;

	nodes.has = calloc((size_t)topo->nr_nodes, sizeof(bool));
	if (!nodes.has)
		return sys_nomem(sx);
	ret = sys_parse(sx, SYS_REQUIRED, parse_list_set, &nodes,
			"devices/system/node/online");
	for (int n = 0; !ret && n < topo->nr_nodes; n++) {
		topo->node_online[n] = nodes.has[n];
		if (nodes.has[n])
			order[nr_online++] = n;
	}
	free(nodes.has);
	return ret ? ret : nr_online;
}

/* Put the online CPUs of node @n's cpulist into node @n. */
static int sys_node_cpus(struct sysfs_ctx *sx, struct cplan_topo *topo,
			 int n, const bool *cpu_online)
{
	struct id_set cpus = { "CPU", NULL, topo->nr_cpus };
	int ret;

	cpus.has = calloc((size_t)topo->nr_cpus, sizeof(bool));
	if (!cpus.has)
		return sys_nomem(sx);
	ret = sys_parse(sx, SYS_REQUIRED, parse_list_set, &cpus,
			"devices/system/node/node%d/cpulist", n);
	for (int c = 0; !ret && c < topo->nr_cpus; c++) {
		if (!cpus.has[c] || !cpu_online[c])
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
	free(cpus.has);
	return ret;
}

/* Row @n of the distance matrix, from node @n's distance file. */
static int sys_node_distances(struct sysfs_ctx *sx, struct cplan_topo *topo,
			      int n, const int *order, int nr_online)
{
	struct distance_row row = { NULL, nr_online };
	int ret;

	row.dist = calloc((size_t)nr_online, sizeof(int));
	if (!row.dist)
		return sys_nomem(sx);
	ret = sys_parse(sx, SYS_REQUIRED, parse_distances, &row,
			"devices/system/node/node%d/distance", n);
	for (int j = 0; !ret && j < nr_online; j++)
		topo->distance[n * topo->nr_nodes + order[j]] = row.dist[j];
	free(row.dist);
	return ret;
}

static int sys_nodes(struct sysfs_ctx *sx, struct cplan_topo *topo,
		     const bool *cpu_online)
{
	int *order = calloc((size_t)topo->nr_nodes, sizeof(int));
	int nr_online, ret = 0;

	if (!order)
		return sys_nomem(sx);
	nr_online = sys_online_nodes(sx, topo, order);
	if (nr_online < 0)
		ret = nr_online;
	for (int k = 0; !ret && k < nr_online; k++) {
		ret = sys_node_cpus(sx, topo, order[k], cpu_online);
		if (!ret)
			ret = sys_node_distances(sx, topo, order[k], order,
						 nr_online);
	}
	free(order);
	for (int c = 0; !ret && c < topo->nr_cpus; c++) {
		if (cpu_online[c] && topo->cpu[c].node < 0) {
			set_err(sx->errbuf, sx->errlen,
				"%s/devices/system/node: online CPU %d is in no online node's cpulist",
				sx->root, c);
			ret = -EINVAL;
		}
	}
	return ret;
}

/* ------------------------------------------------------------------ */
/* CPUs                                                                */
/* ------------------------------------------------------------------ */

/* The package of online CPU @c (0 when unknown); -ENOENT is no error. */
static int sys_package(struct sysfs_ctx *sx, int c, long *pkg)
{
	int ret = sys_parse(sx, SYS_OPTIONAL, parse_number, pkg,
			    "devices/system/cpu/cpu%d/topology/physical_package_id",
			    c);

	if (ret && ret != -ENOENT)
		return ret;
	if (ret || *pkg < 0)
		*pkg = 0;
	return 0;
}

/*
 * The raw core key of CPU @c in package @pkg: its first SMT sibling, else
 * its core_id in the package, else the CPU alone.
 */
static int sys_core_key(struct sysfs_ctx *sx, int c, long pkg,
			struct cpu_group_key *key)
{
	long core_id;
	int first, ret;

	ret = sys_parse(sx, SYS_OPTIONAL, parse_first_cpu, &first,
			"devices/system/cpu/cpu%d/topology/thread_siblings_list",
			c);
	if (!ret) {
		*key = (struct cpu_group_key){ GROUP_BY_FIRST_CPU, 0, first, c };
		return 0;
	}
	if (ret != -ENOENT)
		return ret;
	ret = sys_parse(sx, SYS_OPTIONAL, parse_number, &core_id,
			"devices/system/cpu/cpu%d/topology/core_id", c);
	if (!ret)
		*key = (struct cpu_group_key){ GROUP_BY_ID, pkg, core_id, c };
	else if (ret == -ENOENT)
		*key = (struct cpu_group_key){ GROUP_ALONE, 0, c, c };
	return ret == -ENOENT ? 0 : ret;
}

/*
 * The raw L3 key of CPU @c: the first CPU sharing its unified level-3
 * cache.  *has_llc is false when sysfs lists no such cache.
 */
static int sys_llc_key(struct sysfs_ctx *sx, int c, struct cpu_group_key *key,
		       bool *has_llc)
{
	*has_llc = false;
	for (int k = 0;; k++) {
		bool unified;
		long level;
		int first, ret;

		ret = sys_parse(sx, SYS_OPTIONAL, parse_number, &level,
				"devices/system/cpu/cpu%d/cache/index%d/level", c, k);
		if (ret)
			return ret == -ENOENT ? 0 : ret;
		if (level != 3)
			continue;
		ret = sys_parse(sx, SYS_OPTIONAL, parse_is_unified, &unified,
				"devices/system/cpu/cpu%d/cache/index%d/type", c, k);
		if (ret == -ENOENT || (!ret && !unified))
			continue;
		if (!ret)
			ret = sys_parse(sx, SYS_REQUIRED, parse_first_cpu, &first,
					"devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
					c, k);
		if (ret)
			return ret;
		*key = (struct cpu_group_key){ GROUP_BY_FIRST_CPU, 0, first, c };
		*has_llc = true;
		return 0;
	}
}

/* The package, core key and L3 key of online CPU @c. */
static int sys_cpu(struct sysfs_ctx *sx, struct cplan_topo *topo, int c,
		   struct cpu_group_key *core, struct cpu_group_key *llc,
		   bool *has_llc)
{
	long pkg;
	int ret = sys_package(sx, c, &pkg);

	if (ret)
		return ret;
	topo->cpu[c].package = (int)pkg;
	ret = sys_core_key(sx, c, pkg, core);
	return ret ? ret : sys_llc_key(sx, c, llc, has_llc);
}

/* Package, core and L3 of every online CPU. */
static int sys_cpus(struct sysfs_ctx *sx, struct cplan_topo *topo,
		    const bool *online)
{
	struct cpu_group_key *cores, *llcs;
	size_t nr_cores = 0, nr_llcs = 0;
	int ret = 0;

	cores = calloc((size_t)topo->nr_cpus, sizeof(*cores));
	llcs = calloc((size_t)topo->nr_cpus, sizeof(*llcs));
	if (!cores || !llcs)
		ret = sys_nomem(sx);
	for (int c = 0; !ret && c < topo->nr_cpus; c++) {
		bool has_llc = false;

		if (!online[c])
			continue;
		ret = sys_cpu(sx, topo, c, &cores[nr_cores], &llcs[nr_llcs],
			      &has_llc);
		nr_cores++;
		if (has_llc)
			nr_llcs++;
	}
	if (!ret) {
		assign_groups(topo, cores, nr_cores, KEY_CORE);
		assign_groups(topo, llcs, nr_llcs, KEY_LLC);
	}
	free(cores);
	free(llcs);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The machine                                                         */
/* ------------------------------------------------------------------ */

/* Does @dir/devices/system/cpu/online exist?  (false when out of memory) */
static bool dir_has_cpu_online(const char *dir)
{
	char *path = xasprintf("%s/devices/system/cpu/online", dir);
	bool ret = path && access(path, F_OK) == 0;

	free(path);
	return ret;
}

/*
 * The directory to read, malloc'd, without trailing '/'; NULL when out of
 * memory.  @root may be a sysfs mount (/sys, a copy of one, a fixture) or
 * a filesystem root holding one in sys/ ("/" for the live system).
 */
static char *sysfs_dir(const char *root)
{
	char *dir = strdup(root), *sys;
	size_t n;

	if (!dir)
		return NULL;
	n = strlen(dir);
	while (n && dir[n - 1] == '/')
		dir[--n] = '\0';
	if (dir_has_cpu_online(dir))
		return dir;
	sys = xasprintf("%s/sys", dir);
	if (sys && !dir_has_cpu_online(sys)) {
		free(sys);
		return dir;
	}
	free(dir);
	return sys;
}

/*
 * One more than the highest possible CPU (the highest online one when
 * there is no cpu/possible file).  @root is named in messages.
 */
static int sys_count_cpus(struct sysfs_ctx *sx, const char *root,
			  int *nr_cpus)
{
	struct id_max online = { "CPU", TOPO_MAX_CPUS, -1 };
	struct id_max possible = { "CPU", TOPO_MAX_CPUS, -1 };
	int ret;

	ret = sys_parse(sx, SYS_OPTIONAL, parse_list_max, &online,
			"devices/system/cpu/online");
	if (ret == -ENOENT)
		set_err(sx->errbuf, sx->errlen,
			"%s/devices/system/cpu/online: cannot read: %s (is %s a sysfs root?)",
			sx->root, strerror(ENOENT), root);
	if (ret)
		return ret;
	if (online.max < 0) {
		set_err(sx->errbuf, sx->errlen,
			"%s/devices/system/cpu/online: no online CPU", sx->root);
		return -EINVAL;
	}
	ret = sys_parse(sx, SYS_OPTIONAL, parse_list_max, &possible,
			"devices/system/cpu/possible");
	if (ret == -ENOENT)
		possible.max = online.max;
	else if (ret)
		return ret;
	if (online.max > possible.max) {
		set_err(sx->errbuf, sx->errlen,
			"%s/devices/system/cpu/online: CPU %d is online but not possible",
			sx->root, online.max);
		return -EINVAL;
	}
	*nr_cpus = possible.max + 1;
	return 0;
}

/*
 * One more than the highest possible node (else online node); *numa is
 * false when sysfs has neither list (CONFIG_NUMA=n: one node).
 */
static int sys_count_nodes(struct sysfs_ctx *sx, int *nr_nodes, bool *numa)
{
	struct id_max nodes = { "node", TOPO_MAX_NODES, -1 };
	int ret;

	*numa = true;
	ret = sys_parse(sx, SYS_OPTIONAL, parse_list_max, &nodes,
			"devices/system/node/possible");
	if (ret == -ENOENT)
		ret = sys_parse(sx, SYS_OPTIONAL, parse_list_max, &nodes,
				"devices/system/node/online");
	if (ret == -ENOENT) {
		*numa = false;
		nodes.max = 0;
		ret = 0;
	}
	if (ret)
		return ret;
	if (nodes.max < 0) {
		set_err(sx->errbuf, sx->errlen, "%s/devices/system/node: no node",
			sx->root);
		return -EINVAL;
	}
	*nr_nodes = nodes.max + 1;
	return 0;
}

/* The online CPUs, into @online and @topo, and their nodes. */
static int sys_online_cpus(struct sysfs_ctx *sx, struct cplan_topo *topo,
			   bool *online, bool numa)
{
	struct id_set set = { "CPU", online, topo->nr_cpus };
	int ret;

	ret = sys_parse(sx, SYS_REQUIRED, parse_list_set, &set,
			"devices/system/cpu/online");
	if (ret)
		return ret;
	for (int c = 0; c < topo->nr_cpus; c++) {
		topo->cpu[c].online = online[c];
		topo->cpu[c].node = online[c] && !numa ? 0 : -1;
		topo->cpu[c].llc = CPLAN_NONE;
		topo->cpu[c].core = c;
	}
	if (!numa) {
		topo->node_online[0] = true;
		return 0;
	}
	return sys_nodes(sx, topo, online);
}

/* Flag the online CPUs of a list as isolated; ids past the machine's skipped. */
static int isolate_cb(int id, void *arg)
{
	struct cplan_topo *topo = arg;

	if (id < topo->nr_cpus && topo->cpu[id].online)
		topo->cpu[id].isolated = true;
	return 0;
}

/*
 * An isolated or nohz_full list file into the topology's flags.  A kernel
 * booted without nohz_full= never allocates the mask that nohz_full
 * prints: with CONFIG_CPUMASK_OFFSTACK (Debian) 6.1 prints it as
 * "(null)", padded with blanks, which means no CPU.
 */
static int parse_isolated(struct sysfs_ctx *sx, const char *path,
			  const char *text, void *out)
{
	int ret;

	if (!strcmp(skip_blanks(text), "(null)"))
		return 0;
	ret = list_walk(text, TOPO_MAX_CPUS, isolate_cb, out);

	return ret ? list_err(sx, path, text, ret, "CPU", TOPO_MAX_CPUS) : 0;
}

/*
 * The CPUs the kernel isolates: isolcpus= (cpu/isolated) and nohz_full=
 * (cpu/nohz_full, only there with CONFIG_NO_HZ_FULL), as the module
 * leaves out (cpt/linux/compat.h, cptk_compat_cpu_isolated()).  Either
 * file may be missing (older kernels, fixtures): nothing isolated then.
 */
static int sys_isolated(struct sysfs_ctx *sx, struct cplan_topo *topo)
{
	static const char *const files[] = { "isolated", "nohz_full" };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		int ret = sys_parse(sx, SYS_OPTIONAL, parse_isolated, topo,
				    "devices/system/cpu/%s", files[i]);

		if (ret && ret != -ENOENT)
			return ret;
	}
	return 0;
}

int topo_set_isolated(struct cplan_topo *topo, const char *list,
		      char *errbuf, size_t errlen)
{
	struct id_set set = { "CPU", NULL, topo->nr_cpus };
	int ret;

	set.has = calloc((size_t)topo->nr_cpus, sizeof(bool));
	if (!set.has) {
		set_err(errbuf, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = list_walk(list, topo->nr_cpus, set_cb, &set);
	if (ret == -ERANGE)
		set_err(errbuf, errlen,
			"--isolated: a CPU of '%.*s' is past the last CPU (%d)",
			QUOTE_MAX, list, topo->nr_cpus - 1);
	else if (ret)
		set_err(errbuf, errlen, "--isolated: malformed CPU list '%.*s'",
			QUOTE_MAX, list);
	for (int c = 0; !ret && c < topo->nr_cpus; c++)
		topo->cpu[c].isolated = topo->cpu[c].online && set.has[c];
	free(set.has);
	return ret;
}

int topo_read_sysfs(const char *root, struct cplan_topo **out, char *errbuf,
		    size_t errlen)
{
	struct sysfs_ctx sx = { NULL, errbuf, errlen };
	struct cplan_topo *topo = NULL;
	int nr_cpus = 0, nr_nodes = 0, ret;
	bool *online = NULL, numa = true;
	char *dir;

	*out = NULL;
	if (!root || !*root)
		root = "/";
	dir = sysfs_dir(root);
	if (!dir) {
		set_err(errbuf, errlen, "out of memory");
		return -ENOMEM;
	}
	sx.root = dir;
	ret = sys_count_cpus(&sx, root, &nr_cpus);
	if (!ret)
		ret = sys_count_nodes(&sx, &nr_nodes, &numa);
	if (!ret) {
		topo = cplan_topo_alloc(nr_cpus, nr_nodes);
		online = calloc((size_t)nr_cpus, sizeof(bool));
		if (!topo || !online)
			ret = sys_nomem(&sx);
	}
	if (!ret)
		ret = sys_online_cpus(&sx, topo, online, numa);
	if (!ret)
		ret = sys_cpus(&sx, topo, online);
	if (!ret)
		ret = sys_isolated(&sx, topo);
	if (!ret) {
		*out = topo;
		topo = NULL;
	}
	cplan_topo_free(topo);
	free(online);
	free(dir);
	return ret;
}
