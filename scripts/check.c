// SPDX-License-Identifier: GPL-2.0
/*
 * cpt-plan --check (check.h): two questions an administrator asks after
 * a change.  Is the table in force the one planned?  ROOT's
 * cpu_partition_table (in /proc/sys/lnet for cpt and Lustre 2.10, in
 * debugfs for Lustre 2.11 and later) against the plan's text.  Did
 * modprobe.d apply?  `options libcfs ...` and `options cpt ...` lines do
 * nothing when the module is already loaded, so each value they set is
 * compared with the loaded module's sys/module/MOD/parameters/KEY.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "out.h"

/* Where a table in force is shown, under ROOT, first found first. */
static const char *const table_files[] = {
	"proc/sys/lnet/cpu_partition_table",
	"sys/kernel/debug/lnet/cpu_partition_table",
	NULL,
};

/* The modules whose options are compared. */
static const char *const check_modules[] = { "libcfs", "cpt", NULL };

/* One partition line of a table: what follows "N\t:". */
struct tlines {
	char **v;
	int n;
};

/* A value modprobe.d sets, and where the loaded one is. */
struct mopt {
	char mod[16];
	char key[64];
	char *val;
};

struct mopts {
	struct mopt *v;
	int n, cap;
};

struct check {
	const struct check_opts *co;
	char *path;		/* the table file read */
	struct tlines force, plan;
	int nr_differ;
	struct mopts opts;
	int nr_changed;
	bool json;
};

static char *root_path(const char *root, const char *rel)
{
	size_t n = strlen(root);
	char *p = NULL;

	while (n > 1 && root[n - 1] == '/')
		n--;
	if (asprintf(&p, "%.*s%s%s", (int)n, root,
		     n && root[n - 1] == '/' ? "" : "/", rel) < 0)
		return NULL;
	return p;
}

/* The whole of @path, NUL-terminated, malloc'd; NULL with errno set. */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 4096;
	char *buf = f ? malloc(cap) : NULL;

	if (!buf) {
		if (f)
			fclose(f);
		return NULL;
	}
	for (;;) {
		size_t got = fread(buf + len, 1, cap - len - 1, f);
		char *nb;

		len += got;
		if (len + 1 < cap)
			break;
		nb = realloc(buf, cap *= 2);
		if (!nb) {
			free(buf);
			fclose(f);
			errno = ENOMEM;
			return NULL;
		}
		buf = nb;
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* Is @s " N N ..." (CPU numbers, each after one blank)? */
static bool cpu_words(const char *s)
{
	if (!*s)
		return false;
	while (*s) {
		if (*s++ != ' ' || *s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return true;
}

/* Split a table's text in place into its partitions' CPU texts. */
static int split_table(char *text, struct tlines *l, const char *name)
{
	char *line = text, *nl;

	for (l->n = 0; *line; line = nl + 1, l->n++) {
		char head[24], *rest;
		int hn;
		char **nv;

		nl = strchr(line, '\n');
		if (!nl) {
			fprintf(stderr, PROG ": %s: line %d does not end\n", name, l->n + 1);
			return EXIT_INPUT;
		}
		*nl = '\0';
		hn = snprintf(head, sizeof(head), "%d\t:", l->n);
		rest = line + hn;
		if (strncmp(line, head, (size_t)hn) != 0 || !cpu_words(rest)) {
			fprintf(stderr, PROG ": %s:%d: not a line of a partition table: '%.40s'\n",
				name, l->n + 1, line);
			return EXIT_INPUT;
		}
		nv = realloc(l->v, sizeof(char *) * (size_t)(l->n + 1));
		if (!nv)
			return EXIT_PLAN;
		l->v = nv;
		l->v[l->n] = rest;
	}
	if (!l->n) {
		fprintf(stderr, PROG ": %s: empty: no partition\n", name);
		return EXIT_INPUT;
	}
	return 0;
}

/* The table in force: the first of table_files[] that exists. */
static int read_force(struct check *c, char **text)
{
	for (int i = 0; table_files[i]; i++) {
		free(c->path);
		c->path = root_path(c->co->root, table_files[i]);
		if (!c->path)
			return EXIT_PLAN;
		*text = read_text(c->path);
		if (*text)
			return split_table(*text, &c->force, c->path);
		if (errno != ENOENT)
			break;
	}
	if (errno == ENOENT)
		fprintf(stderr, PROG ": %s: no cpu_partition_table in %s/proc/sys/lnet or sys/kernel/debug/lnet (is libcfs or cpt loaded?)\n",
			c->co->root, c->co->root);
	else
		fprintf(stderr, PROG ": %s: cannot read: %s\n", c->path,
			strerror(errno));
	return errno == ENOMEM ? EXIT_PLAN : EXIT_INPUT;
}

/* The plan's own text, as the module would show it. */
static char *plan_text(const struct cplan_table *table)
{
	char dummy[1];
	size_t len = cplan_format_table(table, dummy, 0);
	char *buf = malloc(len + 1);

	if (buf)
		(void)cplan_format_table(table, buf, len + 1);
	return buf;
}

/* The CPU numbers of a partition's text as a JSON array. */
static void json_cpu_words(FILE *out, const char *s)
{
	fputc('[', out);
	for (bool first = true; s && *s; first = false) {
		char *end;
		long v = strtol(s, &end, 10);

		fprintf(out, "%s%ld", first ? "" : ", ", v);
		s = end;
	}
	fputc(']', out);
}

static const char *part_text(const struct tlines *l, int p)
{
	return p < l->n ? l->v[p] : NULL;
}

/* The partitions that differ: on stderr, and in the JSON document. */
static void report_parts(FILE *out, struct check *c)
{
	int n = c->force.n > c->plan.n ? c->force.n : c->plan.n;

	for (int p = 0; p < n; p++) {
		const char *f = part_text(&c->force, p);
		const char *q = part_text(&c->plan, p);

		if (f && q && !strcmp(f, q))
			continue;
		fprintf(stderr, PROG ": partition %d: in force:%s; planned:%s\n",
			p, f ? f : " none", q ? q : " none");
		if (c->json) {
			fprintf(out, "%s{\"cpt\": %d, \"in_force\": ",
				c->nr_differ ? ", " : "", p);
			json_cpu_words(out, f);
			fputs(", \"planned\": ", out);
			json_cpu_words(out, q);
			fputc('}', out);
		}
		c->nr_differ++;
	}
}

/* Is the table in force Lustre's own default?  -1 on no memory. */
static int force_is_lustre(struct check *c)
{
	char *text = lustre_text(c->co->lt);
	struct tlines l = { 0 };
	int same = -1;

	if (text && !split_table(text, &l, "Lustre's default table")) {
		same = l.n == c->force.n;
		for (int p = 0; same && p < l.n; p++)
			same = !strcmp(l.v[p], c->force.v[p]);
	} else if (text) {
		same = 0;	/* no partition: not a table in force */
	}
	free(l.v);
	free(text);
	return same;
}

/* With --lustre: is the table in force that version's default? */
static int report_lustre(FILE *out, struct check *c)
{
	int same = c->co->lt ? force_is_lustre(c) : 0;

	if (!c->co->lt)
		return 0;
	if (same < 0)
		return EXIT_PLAN;
	if (same && c->nr_differ)
		fprintf(stderr, PROG ": the table in force is Lustre %s's default: the cpu_pattern or cpu_npartitions meant for it is not in force\n",
			c->co->lustre);
	if (c->json) {
		fputs(", \"lustre_default\": {\"version\": ", out);
		json_str(out, c->co->lustre);
		fprintf(out, ", \"partitions\": %d, \"in_force\": %s}",
			c->co->lt->nr_parts, same ? "true" : "false");
	} else {
		fprintf(out, "lustre %s default: %s (%d partition%s)\n",
			c->co->lustre, same ? "in force" : "not in force",
			c->co->lt->nr_parts, c->co->lt->nr_parts == 1 ? "" : "s");
	}
	return 0;
}

static int check_table(FILE *out, struct check *c,
		       const struct cplan_table *table)
{
	char *force = NULL, *plan = plan_text(table);
	int ret = plan ? read_force(c, &force) : EXIT_PLAN;

	if (!ret)
		ret = split_table(plan, &c->plan, "the plan");
	if (!ret && c->json) {
		fputs("{\"table\": {\"file\": ", out);
		json_str(out, c->path);
		fputs(", \"differ\": [", out);
	}
	if (!ret)
		report_parts(out, c);
	if (!ret && c->nr_differ)
		fprintf(stderr, PROG ": the table in force (%s) is not the plan: %d partitions in force, %d planned, %d differ\n",
			c->path, c->force.n, c->plan.n, c->nr_differ);
	if (!ret && c->json)
		fputc(']', out);
	else if (!ret)
		fprintf(out, "table: %s (%s, %d partitions)\n",
			c->nr_differ ? "differs from the plan" : "as planned",
			c->path, c->force.n);
	if (!ret)
		ret = report_lustre(out, c);
	if (!ret && c->json)
		fprintf(out, ", \"in_force\": %d, \"planned\": %d, \"equal\": %s}",
			c->force.n, c->plan.n, c->nr_differ ? "false" : "true");
	free(force);
	free(plan);
	return ret;
}

/* ------------------------------------------------------------------ */
/* modprobe.d against the loaded parameters                            */
/* ------------------------------------------------------------------ */

/* Module and parameter names: modprobe and the kernel take - for _. */
static void dashes(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

static bool checked_module(const char *mod)
{
	for (int i = 0; check_modules[i]; i++)
		if (!strcmp(mod, check_modules[i]))
			return true;
	return false;
}

/* Keep MOD KEY=VAL; a later line sets it again, as the kernel reads them. */
static int keep_opt(struct mopts *o, const char *mod, const char *key,
		    size_t klen, const char *val, size_t vlen)
{
	struct mopt *m = NULL;

	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->v[i].mod, mod) && strlen(o->v[i].key) == klen &&
		    !strncmp(o->v[i].key, key, klen))
			m = &o->v[i];
	if (!m) {
		if (o->n == o->cap) {
			struct mopt *nv = realloc(o->v, sizeof(*nv) *
						  (size_t)(o->cap = o->cap ? 2 * o->cap : 8));

			if (!nv)
				return -ENOMEM;
			o->v = nv;
		}
		m = &o->v[o->n++];
		snprintf(m->mod, sizeof(m->mod), "%s", mod);
		snprintf(m->key, sizeof(m->key), "%.*s", (int)klen, key);
		dashes(m->key);
	} else {
		free(m->val);
	}
	m->val = strndup(val, vlen);
	return m->val ? 0 : -ENOMEM;
}

/*
 * The next parameter of an options line, as the kernel's next_arg()
 * splits them: blanks end it outside double quotes; quotes around the
 * value (or the whole) are dropped.
 */
static int next_param(const char **p, struct mopts *o, const char *mod)
{
	const char *s = *p, *e = s, *eq, *v;
	bool quoted = false;
	size_t vlen;

	while (*e && (quoted || (*e != ' ' && *e != '\t')))
		quoted ^= *e++ == '"';
	*p = e;
	if (*s == '"') {
		s++;
		if (e > s && e[-1] == '"')
			e--;
	}
	eq = memchr(s, '=', (size_t)(e - s));
	if (!eq)
		return keep_opt(o, mod, s, (size_t)(e - s), "Y", 1);
	v = eq + 1;
	vlen = (size_t)(e - v);
	if (vlen && *v == '"') {
		v++;
		vlen -= vlen > 1 && v[vlen - 2] == '"' ? 2 : 1;
	}
	return keep_opt(o, mod, s, (size_t)(eq - s), v, vlen);
}

/* One logical line of a modprobe.d file: "options MOD PARAM...". */
static int parse_line(char *line, struct mopts *o)
{
	char mod[16], *p = line;
	size_t n;

	p += strspn(p, " \t");
	if (strncmp(p, "options", 7) != 0 || (p[7] != ' ' && p[7] != '\t'))
		return 0;
	p += 7 + strspn(p + 7, " \t");
	n = strcspn(p, " \t");
	if (!n || n >= sizeof(mod))
		return 0;
	snprintf(mod, sizeof(mod), "%.*s", (int)n, p);
	dashes(mod);
	if (!checked_module(mod))
		return 0;
	p += n;
	for (int ret;;) {
		const char *q;

		p += strspn(p, " \t");
		if (!*p)
			return 0;
		q = p;
		ret = next_param(&q, o, mod);
		if (ret)
			return ret;
		p = (char *)q;
	}
}

/* A modprobe.d file: comments dropped, "\" continues a line. */
static int parse_conf(char *text, struct mopts *o)
{
	char *w = text, *line = text;

	for (char *r = text;; r++) {
		if (*r == '\\' && r[1] == '\n') {
			r++;
			continue;
		}
		if (*r == '\n' || !*r) {
			bool end = !*r;
			char *hash;
			int ret;

			*w = '\0';
			hash = strchr(line, '#');
			if (hash)
				*hash = '\0';
			ret = parse_line(line, o);
			if (ret || end)
				return ret;
			line = w = r + 1;
			continue;
		}
		*w++ = *r;
	}
}

/* Every ROOT/etc/modprobe.d/ *.conf, in the order of their names. */
static int read_modprobe(struct check *c)
{
	char *pat = root_path(c->co->root, "etc/modprobe.d/*.conf");
	glob_t g;
	int ret = 0;

	if (!pat)
		return -ENOMEM;
	if (glob(pat, 0, NULL, &g)) {
		free(pat);
		return 0;	/* none: nothing set there */
	}
	for (size_t i = 0; !ret && i < g.gl_pathc; i++) {
		char *text = read_text(g.gl_pathv[i]);

		if (!text) {
			fprintf(stderr, PROG ": warning: %s: cannot read: %s\n",
				g.gl_pathv[i], strerror(errno));
			continue;
		}
		ret = parse_conf(text, &c->opts);
		free(text);
	}
	globfree(&g);
	free(pat);
	return ret;
}

/* y/Y/1/on and n/N/0/off as the kernel's bool parameters print them. */
static const char *as_bool(const char *v)
{
	if (!strcmp(v, "1") || !strcasecmp(v, "y") || !strcasecmp(v, "on"))
		return "Y";
	if (!strcmp(v, "0") || !strcasecmp(v, "n") || !strcasecmp(v, "off"))
		return "N";
	return v;
}

static bool is_int(const char *s, long *v)
{
	char *end;

	if (!*s)
		return false;
	*v = strtol(s, &end, 10);
	return !*end;
}

/* Does the value modprobe.d sets read back as @loaded? */
static bool same_value(const char *set, const char *loaded)
{
	long a, b;

	if (!strcmp(set, loaded))
		return true;
	if (!strcmp(loaded, "Y") || !strcmp(loaded, "N"))
		return !strcmp(as_bool(set), loaded);
	if (!strcmp(loaded, "(null)"))
		return !*set;
	return is_int(set, &a) && is_int(loaded, &b) && a == b;
}

static bool module_loaded(const char *root, const char *mod)
{
	char *rel = NULL, *path;
	struct stat st;
	bool ret;

	if (asprintf(&rel, "sys/module/%s", mod) < 0)
		return false;
	path = root_path(root, rel);
	ret = path && !stat(path, &st) && S_ISDIR(st.st_mode);
	free(path);
	free(rel);
	return ret;
}

/* The loaded value of @m, without its newline; NULL when not there. */
static char *loaded_value(const char *root, const struct mopt *m)
{
	char *rel = NULL, *path, *text;

	if (asprintf(&rel, "sys/module/%s/parameters/%s", m->mod, m->key) < 0)
		return NULL;
	path = root_path(root, rel);
	text = path ? read_text(path) : NULL;
	if (text && *text && text[strlen(text) - 1] == '\n')
		text[strlen(text) - 1] = '\0';
	free(path);
	free(rel);
	return text;
}

static void json_opt(FILE *out, const struct mopt *m, const char *loaded,
		     bool first)
{
	fprintf(out, "%s{\"module\": \"%s\", \"parameter\": ", first ? "" : ", ",
		m->mod);
	json_str(out, m->key);
	fputs(", \"modprobe_d\": ", out);
	json_str(out, m->val);
	fputs(", \"loaded\": ", out);
	json_str(out, loaded);
	fputc('}', out);
}

/* Each value modprobe.d sets for a loaded module, against the module's. */
static void compare_opts(FILE *out, struct check *c)
{
	for (int i = 0; i < c->opts.n; i++) {
		const struct mopt *m = &c->opts.v[i];
		char *loaded;

		if (!module_loaded(c->co->root, m->mod))
			continue;
		loaded = loaded_value(c->co->root, m);
		if (!loaded) {
			fprintf(stderr, PROG ": warning: %s: parameter %s is set in modprobe.d but not shown in sys/module/%s/parameters: not compared\n",
				m->mod, m->key, m->mod);
			continue;
		}
		if (!same_value(m->val, loaded)) {
			fprintf(stderr, PROG ": %s: %s is \"%s\" in modprobe.d, \"%s\" loaded\n",
				m->mod, m->key, m->val, loaded);
			if (c->json)
				json_opt(out, m, loaded, !c->nr_changed);
			c->nr_changed++;
		}
		free(loaded);
	}
}

static int check_modprobe(FILE *out, struct check *c)
{
	int ret = read_modprobe(c);

	if (ret)
		return EXIT_PLAN;
	if (c->json)
		fputs(",\n \"modprobe\": {\"differ\": [", out);
	compare_opts(out, c);
	if (c->nr_changed)
		fprintf(stderr, PROG ": modprobe.d changed after the module was loaded; reload it to apply\n");
	if (c->json) {
		fputs("], \"loaded\": [", out);
		for (int i = 0, k = 0; check_modules[i]; i++)
			if (module_loaded(c->co->root, check_modules[i]))
				fprintf(out, "%s\"%s\"", k++ ? ", " : "",
					check_modules[i]);
		fprintf(out, "], \"equal\": %s},\n \"equal\": %s}\n",
			c->nr_changed ? "false" : "true",
			c->nr_changed || c->nr_differ ? "false" : "true");
	} else {
		fprintf(out, "modprobe.d: %s\n", c->nr_changed ?
			"changed after the module was loaded" : "as loaded");
	}
	return 0;
}

int check_run(FILE *out, const struct check_opts *co,
	      const struct cplan_table *table)
{
	struct check c = { .co = co, .json = co->json };
	int ret = check_table(out, &c, table);

	if (!ret)
		ret = check_modprobe(out, &c);
	if (!ret && (c.nr_differ || c.nr_changed))
		ret = EXIT_DIFFER;
	for (int i = 0; i < c.opts.n; i++)
		free(c.opts.v[i].val);
	free(c.opts.v);
	free(c.force.v);
	free(c.plan.v);
	free(c.path);
	return ret;
}
