// SPDX-License-Identifier: GPL-2.0
/*
 * The lscpu topology reader of cpt-plan: the parsable output of
 * `lscpu -p` (or `lscpu -p=CPU,Core,...`).  See scripts/topo_read.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "topo_read.h"
#include "topo_util.h"

#define UNKNOWN	(-1L)

/* One CPU line; the ids are UNKNOWN where the field is empty or absent. */
struct lscpu_row {
	long line;
	int cpu;
	bool online;
	long core, socket, node, l3;
};

/* Where the header puts each column (-1: absent). */
struct lscpu_cols {
	int n;			/* fields per line, 0 before the header */
	int cpu, core, socket, node, l3, online;
	int l3_sub;		/* -1: plain L3 column; else ':' subfield */
};

#define NO_COLS	{ 0, -1, -1, -1, -1, -1, -1, -1 }

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

static int lscpu_nomem(struct lscpu_ctx *lx)
{
	set_err(lx->errbuf, lx->errlen, "out of memory");
	return -ENOMEM;
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

/* The ':'-separated part of header field @f named "L3", or -1. */
static int l3_subfield(const char *f)
{
	int sub = 0;

	for (const char *p = f; p; sub++) {
		const char *e = strchr(p, ':');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == 2 && !strncasecmp(p, "L3", 2))
			return sub;
		p = e ? e + 1 : NULL;
	}
	return -1;
}

/* Note in @c where header field @f, number @i, puts its column. */
static void place_column(struct lscpu_cols *c, const char *f, int i)
{
	const struct {
		const char *name;
		int *col;
	} named[] = {
		{ "CPU", &c->cpu }, { "Core", &c->core },
		{ "Socket", &c->socket }, { "Node", &c->node },
		{ "Online", &c->online }, { "L3", &c->l3 },
	};
	int sub;

	for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++) {
		if (!strcasecmp(f, named[k].name) && *named[k].col < 0) {
			*named[k].col = i;
			return;
		}
	}
	if (c->l3 >= 0)
		return;
	if (!strcasecmp(f, "Cache"))
		sub = 3;		/* L1d:L1i:L2:L3 */
	else if (strchr(f, ':'))
		sub = l3_subfield(f);
	else
		sub = -1;
	if (sub >= 0) {
		c->l3 = i;
		c->l3_sub = sub;
	}
}

/* Is this comment line a "# CPU,Core,..." header?  Then fill @cols. */
static int parse_header(struct lscpu_ctx *lx, char *text,
			struct lscpu_cols *cols, bool *is_header)
{
	struct lscpu_cols c = NO_COLS;
	long n = split(lx, text, ',');

	*is_header = false;
	if (n < 0)
		return (int)n;
	for (long i = 0; i < n; i++)
		place_column(&c, lx->fields[i], (int)i);
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

/* The L3 id in field @v: all of it, or its @sub-th ':'-separated part. */
static int parse_l3(struct lscpu_ctx *lx, const char *v, int sub, long *l3)
{
	const char *p = v;
	char *part = NULL;
	int ret;

	if (sub < 0)
		return parse_val(lx, v, "L3", INT_MAX, l3);
	for (int k = 0; p && k < sub; k++) {
		p = strchr(p, ':');
		if (p)
			p++;
	}
	if (p) {
		part = strndup(p, strcspn(p, ":"));
		if (!part)
			return -ENOMEM;
	}
	ret = parse_val(lx, part ? part : "", "L3", INT_MAX, l3);
	free(part);
	return ret;
}

/*
 * Is the CPU of this line online?  The Online column says so; without
 * one, `lscpu -p -a` prints offline CPUs with all other fields empty.
 */
static int parse_online(struct lscpu_ctx *lx, const struct lscpu_cols *c,
			long n, bool *online)
{
	char **f = lx->fields;

	*online = true;
	if (c->online >= 0) {
		const char *o = f[c->online];

		if (strcasecmp(o, "N") == 0 || strcasecmp(o, "no") == 0)
			*online = false;
		else if (*o && strcasecmp(o, "Y") != 0 &&
			 strcasecmp(o, "yes") != 0)
			return lerr(lx, "Online: expected Y or N, got '%.*s'",
				    QUOTE_MAX, o);
	} else if (n > 1) {
		bool all_empty = true;

		for (long i = 0; i < n; i++)
			if (i != c->cpu && *f[i])
				all_empty = false;
		if (all_empty)
			*online = false;
	}
	return 0;
}

/* The optional column @col into *out (UNKNOWN where there is none). */
static int parse_column(struct lscpu_ctx *lx, int col, const char *what,
			long max, long *out)
{
	*out = UNKNOWN;
	return col >= 0 ? parse_val(lx, lx->fields[col], what, max, out) : 0;
}

static int parse_row(struct lscpu_ctx *lx, char *text,
		     const struct lscpu_cols *c, struct lscpu_row *r)
{
	long n = split(lx, text, ','), cpu = 0;
	int ret;

	*r = (struct lscpu_row){ lx->line, 0, true, UNKNOWN, UNKNOWN, UNKNOWN,
				 UNKNOWN };
	if (n < 0)
		return (int)n;
	if (n != c->n)
		return lerr(lx, "%ld fields where the header has %d", n, c->n);
	if (!*lx->fields[c->cpu])
		return lerr(lx, "empty CPU field");
	ret = parse_val(lx, lx->fields[c->cpu], "CPU", TOPO_MAX_CPUS - 1, &cpu);
	if (ret)
		return ret;
	if (cpu == UNKNOWN)	/* "-": every other column may be unknown */
		return lerr(lx, "CPU: expected a number up to %ld, got '-'",
			    (long)TOPO_MAX_CPUS - 1);
	r->cpu = (int)cpu;
	ret = parse_column(lx, c->core, "Core", INT_MAX, &r->core);
	if (!ret)
		ret = parse_column(lx, c->socket, "Socket", INT_MAX, &r->socket);
	if (!ret)
		ret = parse_column(lx, c->node, "Node", TOPO_MAX_NODES - 1,
				   &r->node);
	if (!ret && c->l3 >= 0)
		ret = parse_l3(lx, lx->fields[c->l3], c->l3_sub, &r->l3);
	return ret ? ret : parse_online(lx, c, n, &r->online);
}

/*
 * The highest CPU and node ids of @rows, and a check that there is an
 * online CPU and that all online CPUs have a node or none has.
 */
static int scan_rows(struct lscpu_ctx *lx, const struct lscpu_row *rows,
		     size_t nr, int *max_cpu, int *max_node)
{
	const struct lscpu_row *with_node = NULL, *without_node = NULL;
	size_t nr_online = 0;

	*max_cpu = *max_node = -1;
	for (size_t i = 0; i < nr; i++) {
		if (rows[i].cpu > *max_cpu)
			*max_cpu = rows[i].cpu;
		if (!rows[i].online)
			continue;
		nr_online++;
		if (rows[i].node >= 0) {
			with_node = &rows[i];
			if (rows[i].node > *max_node)
				*max_node = (int)rows[i].node;
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
	return 0;
}

/* The raw core and L3 keys of the online CPUs, for assign_groups(). */
struct lscpu_groups {
	struct cpu_group_key *cores, *llcs;
	size_t nr_cores, nr_llcs;
};

/* Online CPU @r into @topo and @g. */
static void place_cpu(struct cplan_topo *topo, const struct lscpu_row *r,
		      struct lscpu_groups *g)
{
	struct cplan_cpu *c = &topo->cpu[r->cpu];

	c->online = true;
	c->node = r->node < 0 ? 0 : (int)r->node;
	c->package = r->socket < 0 ? 0 : (int)r->socket;
	c->core = r->cpu;
	topo->node_online[c->node] = true;
	if (r->core >= 0)
		g->cores[g->nr_cores++] = (struct cpu_group_key){
			GROUP_BY_ID, r->socket, r->core, r->cpu };
	else
		g->cores[g->nr_cores++] = (struct cpu_group_key){
			GROUP_ALONE, 0, r->cpu, r->cpu };
	if (r->l3 >= 0)
		g->llcs[g->nr_llcs++] = (struct cpu_group_key){
			GROUP_BY_ID, 0, r->l3, r->cpu };
}

/* Every row into @topo and @g; a CPU listed twice is an error. */
static int place_rows(struct lscpu_ctx *lx, const struct lscpu_row *rows,
		      size_t nr, struct cplan_topo *topo,
		      struct lscpu_groups *g)
{
	long *seen = calloc((size_t)topo->nr_cpus, sizeof(*seen));
	int ret = 0;

	if (!seen)
		return lscpu_nomem(lx);
	for (int c = 0; c < topo->nr_cpus; c++)
		topo->cpu[c].llc = CPLAN_NONE;
	for (size_t i = 0; i < nr; i++) {
		const struct lscpu_row *r = &rows[i];

		if (seen[r->cpu]) {
			lx->line = r->line;
			ret = lerr(lx, "CPU %d listed again (first on line %ld)",
				   r->cpu, seen[r->cpu]);
			break;
		}
		seen[r->cpu] = r->line;
		if (r->online)
			place_cpu(topo, r, g);
	}
	free(seen);
	return ret;
}

static int lscpu_build(struct lscpu_ctx *lx, const struct lscpu_row *rows,
		       size_t nr, struct cplan_topo **out)
{
	struct lscpu_groups g = { NULL, NULL, 0, 0 };
	struct cplan_topo *topo;
	int max_cpu, max_node, ret;

	ret = scan_rows(lx, rows, nr, &max_cpu, &max_node);
	if (ret)
		return ret;
	topo = cplan_topo_alloc(max_cpu + 1, max_node < 0 ? 1 : max_node + 1);
	g.cores = calloc(nr, sizeof(*g.cores));
	g.llcs = calloc(nr, sizeof(*g.llcs));
	if (!topo || !g.cores || !g.llcs)
		ret = lscpu_nomem(lx);
	if (!ret)
		ret = place_rows(lx, rows, nr, topo, &g);
	if (!ret && (assign_groups(topo, g.cores, g.nr_cores, KEY_CORE) ||
		     assign_groups(topo, g.llcs, g.nr_llcs, KEY_LLC)))
		ret = lscpu_nomem(lx);
	if (!ret) {
		*out = topo;
		topo = NULL;
	}
	cplan_topo_free(topo);
	free(g.cores);
	free(g.llcs);
	return ret;
}

/* The rows read so far, in a growing array. */
struct lscpu_rows {
	struct lscpu_row *row;
	size_t nr, cap;
	struct lscpu_cols cols;
};

/* One line of input (trimmed): blank, comment, header or CPU line. */
static int parse_line(struct lscpu_ctx *lx, char *text, struct lscpu_rows *rs)
{
	int ret;

	if (!*text)
		return 0;
	if (*text == '#') {
		bool is_header;

		return parse_header(lx, trim(text + 1), &rs->cols, &is_header);
	}
	if (!rs->cols.n)
		return lerr(lx, "data before the '# CPU,Core,Socket,Node,...' header line (use `lscpu -p` output)");
	if (rs->nr == rs->cap) {
		size_t ncap = rs->cap ? rs->cap * 2 : 64;
		struct lscpu_row *nrows = realloc(rs->row, ncap * sizeof(*nrows));

		if (!nrows)
			return -ENOMEM;
		rs->row = nrows;
		rs->cap = ncap;
	}
	ret = parse_row(lx, text, &rs->cols, &rs->row[rs->nr]);
	if (!ret)
		rs->nr++;
	return ret;
}

/* All lines of @f into @rs. */
static int read_rows(struct lscpu_ctx *lx, FILE *f, struct lscpu_rows *rs)
{
	size_t linecap = 0;
	char *line = NULL;
	int ret = 0;

	for (;;) {
		ssize_t len;

		errno = 0;
		len = getline(&line, &linecap, f);
		if (len < 0)
			break;
		lx->line++;
		if ((size_t)len != strlen(line)) {
			ret = lerr(lx, "NUL byte in line (not lscpu -p output)");
			break;
		}
		ret = parse_line(lx, trim(line), rs);
		if (ret)
			break;
	}
	if (!ret && errno == ENOMEM)
		ret = -ENOMEM;
	if (!ret && ferror(f)) {
		set_err(lx->errbuf, lx->errlen, "%s: read error: %s", lx->name,
			strerror(errno ? errno : EIO));
		ret = -EIO;
	}
	free(line);
	return ret == -ENOMEM ? lscpu_nomem(lx) : ret;
}

int topo_read_lscpu(FILE *f, const char *name, struct cplan_topo **out,
		    char *errbuf, size_t errlen)
{
	struct lscpu_ctx lx = { name ? name : "<stdin>", 0, errbuf, errlen,
				NULL, 0 };
	struct lscpu_rows rs = { NULL, 0, 0, NO_COLS };
	int ret;

	*out = NULL;
	ret = read_rows(&lx, f, &rs);
	if (!ret && !rs.nr) {
		set_err(errbuf, errlen,
			"%s: no CPU lines (expected `lscpu -p` output)",
			lx.name);
		ret = -EINVAL;
	}
	if (!ret)
		ret = lscpu_build(&lx, rs.row, rs.nr, out);
	free(rs.row);
	free(lx.fields);
	return ret;
}
