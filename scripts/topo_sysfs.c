// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs topology reader of cpt-plan: a tree laid out like the kernel's
 * /sys, live or copied.  See scripts/topo_read.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

struct cpu_cover;

/* Where the CPUs' files are, under the root. */
#define CPU_DIR		"devices/system/cpu/"

struct sysfs_ctx {
	const char *root;	/* without trailing '/' ("" for "/") */
	char *errbuf;
	size_t errlen;
	const struct cplan_topo *topo;
	struct cpu_cover *cover;	/* NULL: each CPU's own files (sys_cpus) */
	int cpu_dir;		/* root/CPU_DIR, or -1 */
	char *path;		/* the file read last: root, '/', its name */
	size_t path_cap;
	char *text;		/* its text */
	size_t text_cap;
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

/*
 * Room in sx->path for a name of @len bytes after root and '/', which it
 * then starts with.  One buffer serves every file: thousands of them are
 * read on big machines.
 */
static int sys_path_room(struct sysfs_ctx *sx, size_t len)
{
	size_t head = strlen(sx->root) + 1;

	if (sx->path_cap > head + len)
		return 0;
	free(sx->path);
	sx->path_cap = head + len + 64;
	sx->path = malloc(sx->path_cap);
	if (!sx->path) {
		sx->path_cap = 0;
		return -ENOMEM;
	}
	memcpy(sx->path, sx->root, head - 1);
	sx->path[head - 1] = '/';
	return 0;
}

/* Set sx->path to root/rel, rel printf-formatted. */
static int sys_path(struct sysfs_ctx *sx, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static int sys_path(struct sysfs_ctx *sx, const char *fmt, va_list ap)
{
	size_t head = strlen(sx->root) + 1;
	size_t room = sx->path_cap > head ? sx->path_cap - head : 0;
	va_list ap2;
	int n, ret;

	va_copy(ap2, ap);
	n = vsnprintf(room ? sx->path + head : NULL, room, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return -ENOMEM;
	if ((size_t)n < room)
		return 0;
	ret = sys_path_room(sx, (size_t)n);
	if (!ret)
		(void)vsnprintf(sx->path + head, sx->path_cap - head, fmt, ap);
	return ret;
}

/* @v in decimal at @p, which must have room for it; returns its end. */
static char *put_dec(char *p, unsigned int v)
{
	char digits[16];
	int n = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n)
		*p++ = digits[--n];
	return p;
}

/*
 * Set sx->path to root/devices/system/cpu/cpuC/NAME, or with @index >= 0
 * to root/.../cpuC/cache/indexK/NAME: the files of each CPU, thousands
 * on a big machine, so without printf (half of the reading's own cost).
 */
static int sys_cpu_path(struct sysfs_ctx *sx, int c, int index,
			const char *name)
{
	static const char cpu[] = CPU_DIR "cpu", cache[] = "/cache/index";
	size_t len = strlen(name) + 1;
	char *p;
	int ret;

	/* Two numbers of 10 digits at most, a '/' and name's NUL. */
	ret = sys_path_room(sx, sizeof(cpu) + sizeof(cache) + 20 + len);
	if (ret)
		return ret;
	p = sx->path + strlen(sx->root) + 1;
	p = put_dec(stpcpy(p, cpu), (unsigned int)c);
	if (index >= 0)
		p = put_dec(stpcpy(p, cache), (unsigned int)index);
	*p++ = '/';
	memcpy(p, name, len);
	return 0;
}

/* Room for at least two more bytes of text after @len, doubling. */
static int sys_text_room(struct sysfs_ctx *sx, size_t len)
{
	size_t cap = sx->text_cap ? sx->text_cap : 4096;
	char *text;

	if (sx->text_cap >= len + 2)
		return 0;
	while (cap < len + 2 && cap <= (64u << 20))
		cap *= 2;
	if (cap > (64u << 20))		/* not a sysfs attribute */
		return -EFBIG;
	text = realloc(sx->text, cap);
	if (!text)
		return -ENOMEM;
	sx->text = text;
	sx->text_cap = cap;
	return 0;
}

/*
 * Did a read of @n bytes, @room asked, reach the end of the file?  It
 * saves a read per file: a read that returns less than asked ends a
 * regular file, and a sysfs file too when it is less than a page (sysfs
 * hands out a page at a time, at most).
 */
static bool end_of_text(ssize_t n, size_t room)
{
	return (size_t)n < room && n < 4096;
}

/*
 * Open sx->path.  Files under devices/system/cpu are opened from that
 * directory: a path walk of 3 names instead of 7 or more, which is most
 * of an open's cost in a directory of thousands of CPUs.
 */
static int sys_open(const struct sysfs_ctx *sx)
{
	const char *rel = sx->path + strlen(sx->root) + 1;
	size_t n = strlen(CPU_DIR);

	if (sx->cpu_dir >= 0 && !strncmp(rel, CPU_DIR, n))
		return openat(sx->cpu_dir, rel + n, O_RDONLY | O_CLOEXEC);
	return open(sx->path, O_RDONLY | O_CLOEXEC);
}

/*
 * Read the file sx->path whole into sx->text, NUL-terminated, with
 * trailing blanks stripped.  Returns 0 or a negative errno (-EIO for a
 * failed read, -EINVAL for an embedded NUL: not a text file).
 */
static int sys_read_file(struct sysfs_ctx *sx)
{
	size_t len = 0;
	int fd, ret = 0;

	fd = sys_open(sx);
	if (fd < 0)
		return -errno;
	for (;;) {
		size_t room;
		ssize_t n;

		ret = sys_text_room(sx, len);
		if (ret)
			break;
		room = sx->text_cap - len - 1;
		n = read(fd, sx->text + len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = -EIO;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (end_of_text(n, room))
			break;
	}
	(void)close(fd);
	if (ret)
		return ret;
	sx->text[len] = '\0';
	if (strlen(sx->text) != len)
		return -EINVAL;
	rstrip(sx->text);
	return 0;
}

/* Read sx->path and hand its text to @parse. */
static int sys_parse_path(struct sysfs_ctx *sx, enum sys_need need,
			  sys_parse_fn *parse, void *out, int ret)
{
	if (!ret)
		ret = sys_read_file(sx);
	if (ret == -ENOMEM)
		sys_nomem(sx);
	else if (ret && (ret != -ENOENT || need == SYS_REQUIRED))
		set_err(sx->errbuf, sx->errlen, "%s: cannot read: %s",
			sx->path, strerror(-ret));
	else if (!ret)
		ret = parse(sx, sx->path, sx->text, out);
	return ret;
}

/* Read root/rel (rel printf-formatted) and hand its text to @parse. */
static int sys_parse(struct sysfs_ctx *sx, enum sys_need need,
		     sys_parse_fn *parse, void *out, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int sys_parse(struct sysfs_ctx *sx, enum sys_need need,
		     sys_parse_fn *parse, void *out, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = sys_path(sx, fmt, ap);
	va_end(ap);
	return sys_parse_path(sx, need, parse, out, ret);
}

/* sys_parse() of CPU @c's file @name (see sys_cpu_path()). */
static int sys_parse_cpu(struct sysfs_ctx *sx, enum sys_need need,
			 sys_parse_fn *parse, void *out, int c, int index,
			 const char *name)
{
	return sys_parse_path(sx, need, parse, out,
			      sys_cpu_path(sx, c, index, name));
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

/*
 * Node @n's cpulist, giving node @n to the online CPUs it names: the
 * lowest CPU a node read before has already is the error.  A walk of
 * the list, not of every CPU: 64 nodes of 8192 CPUs would cost more
 * than their files.
 */
struct node_walk {
	struct cplan_topo *topo;
	const bool *cpu_online;
	int node;
	int clash;	/* the lowest CPU in an earlier node's list, or -1 */
};

static int node_cb(int id, void *arg)
{
	struct node_walk *w = arg;
	struct cplan_cpu *cpu = &w->topo->cpu[id];

	if (!w->cpu_online[id] || cpu->node == w->node)
		return 0;
	if (cpu->node < 0)
		cpu->node = w->node;
	else if (w->clash < 0 || id < w->clash)
		w->clash = id;
	return 0;
}

static int parse_node_cpus(struct sysfs_ctx *sx, const char *path,
			   const char *text, void *out)
{
	struct node_walk *w = out;
	int limit = w->topo->nr_cpus;
	int ret = list_walk(text, limit, node_cb, w);

	return ret ? list_err(sx, path, text, ret, "CPU", limit) : 0;
}

/* Put the online CPUs of node @n's cpulist into node @n. */
static int sys_node_cpus(struct sysfs_ctx *sx, struct cplan_topo *topo,
			 int n, const bool *cpu_online)
{
	struct node_walk w = { topo, cpu_online, n, -1 };
	int ret;

	ret = sys_parse(sx, SYS_REQUIRED, parse_node_cpus, &w,
			"devices/system/node/node%d/cpulist", n);
	if (!ret && w.clash >= 0) {
		set_err(sx->errbuf, sx->errlen,
			"%s/devices/system/node: CPU %d is in the cpulist of node %d and of node %d",
			sx->root, w.clash, topo->cpu[w.clash].node, n);
		ret = -EINVAL;
	}
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

/*
 * Each CPU's own files are 8 opens and reads, 65 000 at 8192 CPUs: most
 * of what cpt-plan --sysfs costs.  But a siblings list, a package's CPU
 * list and an L3's shared_cpu_list name all the CPUs they hold, and the
 * kernel gives each of those CPUs the same list.  So the first pass
 * ("shared", sx->cover set) takes a list read for one CPU as the list
 * of every online CPU it names, and reads no more of their files for
 * it: one siblings list per core, one L3 walk per L3 domain, two files
 * per package.  Lists that disagree (a CPU named by two lists, or by a
 * list read for a lower CPU, a list without its own CPU), a bad file or
 * any other failure end that pass, and a second one reads every CPU's
 * own files, as cpt-plan always did: such trees give what each CPU's
 * files say, and the error of the first bad file.  A CPU covered by
 * another's list is taken at that list's word: its own files are never
 * read, so they cannot disagree.
 */
#define COVER_NONE	LONG_MIN

struct cpu_cover {
	long *pkg;	/* each CPU's package, from a package CPU list */
	long *core;	/* its raw core key, from a siblings list */
	long *llc;	/* its raw L3 key, from a shared_cpu_list */
};

static void cover_free(struct cpu_cover *cv)
{
	free(cv->pkg);
	free(cv->core);
	free(cv->llc);
}

static int cover_alloc(struct cpu_cover *cv, int nr_cpus)
{
	cv->pkg = malloc((size_t)nr_cpus * sizeof(long));
	cv->core = malloc((size_t)nr_cpus * sizeof(long));
	cv->llc = malloc((size_t)nr_cpus * sizeof(long));
	if (!cv->pkg || !cv->core || !cv->llc) {
		cover_free(cv);
		return -ENOMEM;
	}
	for (int c = 0; c < nr_cpus; c++)
		cv->pkg[c] = cv->core[c] = cv->llc[c] = COVER_NONE;
	return 0;
}

/* CPU @cpu's list, giving @val to the other online CPUs it names. */
struct cover_walk {
	const struct cplan_topo *topo;
	long *of;
	long val;
	int cpu;
	bool self, clash;
};

static int cover_cb(int id, void *arg)
{
	struct cover_walk *w = arg;

	if (id == w->cpu) {
		w->self = true;
	} else if (id < w->topo->nr_cpus && w->topo->cpu[id].online) {
		/* A lower CPU was read already, without this list. */
		if (id < w->cpu || w->of[id] != COVER_NONE)
			w->clash = true;
		w->of[id] = w->val;
	}
	return 0;
}

/*
 * Cover the CPUs of @text, CPU @c's list, with @val.  Returns 0, -EAGAIN
 * when the list disagrees with those read before it, or what list_walk()
 * returned.
 */
static int cover_list(struct sysfs_ctx *sx, const char *text, int c,
		      long *of, long val)
{
	struct cover_walk w = { sx->topo, of, val, c, false, false };
	int ret = list_walk(text, TOPO_MAX_CPUS, cover_cb, &w);

	if (!ret && (w.clash || !w.self))
		ret = -EAGAIN;
	return ret;
}

/* A CPU list's first CPU, and in the shared pass the CPUs it covers. */
struct first_cover {
	int first;
	int cpu;	/* whose file it is */
	long *of;	/* NULL: the list is CPU @cpu's only */
};

static int parse_first_cover(struct sysfs_ctx *sx, const char *path,
			     const char *text, void *out)
{
	struct first_cover *fc = out;
	int ret = parse_first_cpu(sx, path, text, &fc->first);

	if (!ret && fc->of)
		ret = cover_list(sx, text, fc->cpu, fc->of, fc->first);
	return ret;
}

/* A package's CPU list: its CPUs get the package of the CPU read. */
struct pkg_cover {
	int cpu;
	long pkg;
};

static int parse_pkg_cover(struct sysfs_ctx *sx, const char *path,
			   const char *text, void *out)
{
	struct pkg_cover *pc = out;
	int ret = cover_list(sx, text, pc->cpu, sx->cover->pkg, pc->pkg);

	return ret == -EAGAIN ? ret :
	       ret ? list_err(sx, path, text, ret, "CPU", TOPO_MAX_CPUS) : 0;
}

/*
 * The shared pass: give package @pkg of CPU @c to the CPUs of its
 * package list (package_cpus_list, core_siblings_list before Linux 5.3).
 * Without either file, each CPU reads its own package.
 */
static int sys_cover_package(struct sysfs_ctx *sx, int c, long pkg)
{
	static const char *const files[] = { "topology/package_cpus_list",
					     "topology/core_siblings_list" };
	struct pkg_cover pc = { c, pkg };
	int ret = -ENOENT;

	for (size_t i = 0; ret == -ENOENT && i < 2; i++)
		ret = sys_parse_cpu(sx, SYS_OPTIONAL, parse_pkg_cover, &pc,
				    c, -1, files[i]);
	return ret == -ENOENT ? 0 : ret;
}

/* The package of online CPU @c (0 when unknown); -ENOENT is no error. */
static int sys_package(struct sysfs_ctx *sx, int c, long *pkg)
{
	int ret;

	if (sx->cover && sx->cover->pkg[c] != COVER_NONE) {
		*pkg = sx->cover->pkg[c];
		return 0;
	}
	ret = sys_parse_cpu(sx, SYS_OPTIONAL, parse_number, pkg, c, -1,
			    "topology/physical_package_id");
	if (ret && ret != -ENOENT)
		return ret;
	if (ret || *pkg < 0)
		*pkg = 0;
	return sx->cover ? sys_cover_package(sx, c, *pkg) : 0;
}

/*
 * The raw core key of CPU @c in package @pkg: its first SMT sibling, else
 * its core_id in the package, else the CPU alone.
 */
static int sys_core_key(struct sysfs_ctx *sx, int c, long pkg,
			struct cpu_group_key *key)
{
	struct first_cover fc = { -1, c, sx->cover ? sx->cover->core : NULL };
	long core_id;
	int ret;

	if (fc.of && fc.of[c] != COVER_NONE) {
		*key = (struct cpu_group_key){ GROUP_BY_FIRST_CPU, 0, fc.of[c], c };
		return 0;
	}
	ret = sys_parse_cpu(sx, SYS_OPTIONAL, parse_first_cover, &fc, c, -1,
			    "topology/thread_siblings_list");
	if (!ret) {
		*key = (struct cpu_group_key){ GROUP_BY_FIRST_CPU, 0, fc.first, c };
		return 0;
	}
	if (ret != -ENOENT)
		return ret;
	ret = sys_parse_cpu(sx, SYS_OPTIONAL, parse_number, &core_id, c, -1,
			    "topology/core_id");
	if (!ret)
		*key = (struct cpu_group_key){ GROUP_BY_ID, pkg, core_id, c };
	else if (ret == -ENOENT)
		*key = (struct cpu_group_key){ GROUP_ALONE, 0, c, c };
	return ret == -ENOENT ? 0 : ret;
}

/*
 * The first CPU sharing CPU @c's unified level-3 cache, into *first: the
 * first such cache of cache/index0, index1, ...  -ENOENT when sysfs
 * lists none.
 */
static int sys_llc_first(struct sysfs_ctx *sx, int c, struct first_cover *fc)
{
	for (int k = 0;; k++) {
		bool unified;
		long level;
		int ret;

		ret = sys_parse_cpu(sx, SYS_OPTIONAL, parse_number, &level,
				    c, k, "level");
		if (ret)
			return ret;
		if (level != 3)
			continue;
		ret = sys_parse_cpu(sx, SYS_OPTIONAL, parse_is_unified,
				    &unified, c, k, "type");
		if (ret == -ENOENT || (!ret && !unified))
			continue;
		return ret ? ret :
		       sys_parse_cpu(sx, SYS_REQUIRED, parse_first_cover, fc,
				     c, k, "shared_cpu_list");
	}
}

/*
 * The raw L3 key of CPU @c: the first CPU sharing its unified level-3
 * cache.  *has_llc is false when sysfs lists no such cache.
 */
static int sys_llc_key(struct sysfs_ctx *sx, int c, struct cpu_group_key *key,
		       bool *has_llc)
{
	struct first_cover fc = { -1, c, sx->cover ? sx->cover->llc : NULL };
	int ret = 0;

	if (fc.of && fc.of[c] != COVER_NONE)
		fc.first = (int)fc.of[c];
	else
		ret = sys_llc_first(sx, c, &fc);
	*has_llc = !ret;
	if (!ret)
		*key = (struct cpu_group_key){ GROUP_BY_FIRST_CPU, 0, fc.first, c };
	return ret == -ENOENT ? 0 : ret;
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

/* Package, core and L3 of every online CPU: one pass (see cpu_cover). */
static int sys_cpus_pass(struct sysfs_ctx *sx, struct cplan_topo *topo)
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

		if (!topo->cpu[c].online)
			continue;
		ret = sys_cpu(sx, topo, c, &cores[nr_cores], &llcs[nr_llcs],
			      &has_llc);
		nr_cores++;
		if (has_llc)
			nr_llcs++;
	}
	if (!ret && (assign_groups(topo, cores, nr_cores, KEY_CORE) ||
		     assign_groups(topo, llcs, nr_llcs, KEY_LLC)))
		ret = sys_nomem(sx);
	free(cores);
	free(llcs);
	return ret;
}

/* The shared pass (see cpu_cover). */
static int sys_shared_pass(struct sysfs_ctx *sx, struct cplan_topo *topo)
{
	struct cpu_cover cv;
	int ret = cover_alloc(&cv, topo->nr_cpus);

	if (!ret) {
		sx->cover = &cv;
		ret = sys_cpus_pass(sx, topo);
		sx->cover = NULL;
		cover_free(&cv);
	}
	return ret;
}

/* The shared pass, then, where it failed, every CPU's own files. */
static int sys_cpus(struct sysfs_ctx *sx, struct cplan_topo *topo)
{
	int ret = sys_shared_pass(sx, topo);

	if (ret) {
		set_err(sx->errbuf, sx->errlen, "%s", "");
		ret = sys_cpus_pass(sx, topo);
	}
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

char *topo_sysfs_dir(const char *root)
{
	return sysfs_dir(root && *root ? root : "/");
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

/* root/CPU_DIR opened, or -1 (files are then opened by their paths). */
static int sys_open_cpu_dir(const char *root)
{
	char *path = xasprintf("%s/" CPU_DIR, root);
	int fd = path ? open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	free(path);
	return fd;
}

int topo_read_sysfs(const char *root, struct cplan_topo **out, char *errbuf,
		    size_t errlen)
{
	struct sysfs_ctx sx = { .errbuf = errbuf, .errlen = errlen,
				.cpu_dir = -1 };
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
	sx.cpu_dir = sys_open_cpu_dir(dir);
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
	if (!ret) {
		sx.topo = topo;
		ret = sys_cpus(&sx, topo);
	}
	if (!ret)
		ret = sys_isolated(&sx, topo);
	if (!ret) {
		*out = topo;
		topo = NULL;
	}
	cplan_topo_free(topo);
	free(online);
	if (sx.cpu_dir >= 0)
		(void)close(sx.cpu_dir);
	free(sx.path);
	free(sx.text);
	free(dir);
	return ret;
}
