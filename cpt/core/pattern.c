// SPDX-License-Identifier: GPL-2.0
/*
 * cpu_pattern parser.
 *
 *   pattern := item*            item := "N" | "X" list | "C" list | ID list
 *   list    := "[" elem ("," elem)* "]"
 *   elem    := "*" | NUM | NUM "-" NUM | NUM "-" NUM "/" NUM
 *
 * Whitespace may separate any two tokens.  Numbers are decimal only: a
 * leading zero followed by more characters is refused rather than read as
 * octal or hex, because a silently misread CPU list is worse than an error.
 * Every value is checked against the topology before it is used as an
 * index, so a range like 0-2147483647 is refused at its end instead of
 * being walked.
 */
#include "cplan_internal.h"

enum list_kind { LIST_CPUS, LIST_NODES, LIST_EXCLUDE, LIST_CORES };

struct parser {
	const struct cplan_topo *topo;
	const char *text;
	int pos;
	struct cplan_pattern *pat;
	struct cplan_err *err;
	int *node_cpus;		/* online CPUs per node */
	char what[96];
};

#define parse_error(p, error, offset, ...)				\
	(cplan_snprintf((p)->what, sizeof((p)->what), __VA_ARGS__),	\
	 cplan_fail((p)->err, (error), (p)->text, (offset), (p)->what))

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void skip_space(struct parser *p)
{
	while (is_space(p->text[p->pos]))
		p->pos++;
}

/*
 * The token at @offset: a range like 4-9/2, a number (with any letters glued
 * to it, as in 0x1f) or a single character, made printable since it may be
 * any byte.
 */
static int copy_token(const char *text, int offset, char *token, int size)
{
	const char *s = text + offset;
	int i = 0, n = 1;

	if (!*s)
		return 0;
	if (is_digit(*s)) {
		while (is_alnum(s[n]) ||
		       ((s[n] == '-' || s[n] == '/') && is_digit(s[n + 1])))
			n++;
	}
	for (i = 0; i < n && i < size - 1; i++)
		token[i] = (s[i] > ' ' && s[i] < 127) ? s[i] : '?';
	token[i] = '\0';
	return i;
}

int cplan_fail(struct cplan_err *err, int error, const char *text, int offset,
	     const char *what)
{
	char token[40];

	if (!err)
		return error;
	err->offset = offset;
	if (offset < 0 || !text)
		cplan_snprintf(err->msg, sizeof(err->msg), "%s", what);
	else if (copy_token(text, offset, token, sizeof(token)))
		cplan_snprintf(err->msg, sizeof(err->msg),
			     "cpu_pattern: %s at offset %d ('%s')",
			     what, offset, token);
	else
		cplan_snprintf(err->msg, sizeof(err->msg),
			     "cpu_pattern: %s at offset %d (end of pattern)",
			     what, offset);
	return error;
}

static int parse_number(struct parser *p, int *val)
{
	int start = p->pos;
	const char *s = p->text;
	int v = 0;

	if (!is_digit(s[start]))
		return parse_error(p, -EINVAL, start, "expected a number");
	if (s[start] == '0' && (s[start + 1] == 'x' || s[start + 1] == 'X'))
		return parse_error(p, -EINVAL, start,
				   "hex numbers are not accepted");
	if (s[start] == '0' && is_digit(s[start + 1]))
		return parse_error(p, -EINVAL, start,
				   "octal numbers (leading zero) are not accepted");
	while (is_digit(s[p->pos])) {
		int d = s[p->pos] - '0';

		if (v > (CPLAN_INT_MAX - d) / 10)
			return parse_error(p, -ERANGE, start,
					   "number too large");
		v = v * 10 + d;
		p->pos++;
	}
	*val = v;
	return 0;
}

/* The number of CPUs or nodes a list of this kind may name. */
static int list_bound(const struct parser *p, enum list_kind kind)
{
	return kind == LIST_NODES ? p->topo->nr_nodes : p->topo->nr_cpus;
}

static int check_exists(struct parser *p, enum list_kind kind, int v, int off)
{
	const struct cplan_topo *topo = p->topo;

	switch (kind) {
	case LIST_NODES:
		if (v >= topo->nr_nodes)
			return parse_error(p, -ENODEV, off,
					   "node %d does not exist", v);
		if (!topo->node_online[v])
			return parse_error(p, -ENODEV, off,
					   "node %d is offline", v);
		if (!p->node_cpus[v])
			return parse_error(p, -ENODEV, off,
					   "node %d has no online CPU", v);
		return 0;
	case LIST_CORES:
		if (v >= topo->nr_cpus)
			return parse_error(p, -ENODEV, off,
					   "core %d does not exist on any node", v);
		return 0;
	case LIST_CPUS:
	case LIST_EXCLUDE:
		if (v >= topo->nr_cpus)
			return parse_error(p, -ENODEV, off,
					   "CPU %d does not exist", v);
		/* Excluding an offline CPU is harmless, listing one is not. */
		if (kind == LIST_CPUS && !topo->cpu[v].online)
			return parse_error(p, -ENODEV, off,
					   "CPU %d is offline", v);
		return 0;
	}
	return 0;
}

static int assign(struct parser *p, enum list_kind kind, int part, int v,
		  int off)
{
	struct cplan_pattern *pat = p->pat;
	int *slot;

	switch (kind) {
	case LIST_EXCLUDE:
		pat->excluded[v] = true;
		return 0;
	case LIST_CORES:
		if (pat->core_drop[v] < 0)
			pat->core_drop[v] = off;
		return 0;
	case LIST_NODES:
		slot = &pat->node_part[v];
		break;
	default:
		slot = &pat->cpu_part[v];
		break;
	}
	if (*slot == part)
		return parse_error(p, -EINVAL, off, "%s %d is listed twice",
				   kind == LIST_NODES ? "node" : "CPU", v);
	if (*slot != CPLAN_NONE)
		return parse_error(p, -EINVAL, off,
				   "%s %d is in partitions %d and %d",
				   kind == LIST_NODES ? "node" : "CPU", v,
				   *slot, part);
	*slot = part;
	return 0;
}

/* "*": every online CPU, or every node that has one. */
static int assign_all(struct parser *p, enum list_kind kind, int part, int off)
{
	int v, ret;

	for (v = 0; v < list_bound(p, kind); v++) {
		bool usable = kind == LIST_NODES ? p->node_cpus[v] > 0 :
			      kind == LIST_CPUS ? p->topo->cpu[v].online : true;

		if (!usable)
			continue;
		ret = assign(p, kind, part, v, off);
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_range(struct parser *p, enum list_kind kind, int part)
{
	int off = p->pos, lo, hi, stride = 1, v, ret;

	ret = parse_number(p, &lo);
	if (ret)
		return ret;
	hi = lo;
	skip_space(p);
	if (p->text[p->pos] == '-') {
		p->pos++;
		skip_space(p);
		ret = parse_number(p, &hi);
		if (ret)
			return ret;
		if (lo > hi)
			return parse_error(p, -EINVAL, off,
					   "reversed range %d-%d", lo, hi);
		skip_space(p);
		if (p->text[p->pos] == '/') {
			int soff;

			p->pos++;
			skip_space(p);
			soff = p->pos;
			ret = parse_number(p, &stride);
			if (ret)
				return ret;
			if (!stride)
				return parse_error(p, -EINVAL, soff,
						   "stride must be at least 1");
		}
	}
	/* Refuse an out-of-range end before walking up to it. */
	ret = hi >= list_bound(p, kind) ? check_exists(p, kind, hi, off) : 0;
	for (v = lo; !ret; v += stride) {
		ret = check_exists(p, kind, v, off);
		if (!ret)
			ret = assign(p, kind, part, v, off);
		if (stride > hi - v)
			break;
	}
	return ret;
}

/* Parse "[elem,...]" at p->pos into partition @part (or X/C lists). */
static int parse_list(struct parser *p, enum list_kind kind, int part)
{
	int ret;

	skip_space(p);
	if (p->text[p->pos] != '[')
		return parse_error(p, -EINVAL, p->pos, "missing '['");
	p->pos++;
	skip_space(p);
	if (p->text[p->pos] == ']')
		return parse_error(p, -EINVAL, p->pos, "empty list");
	for (;;) {
		skip_space(p);
		if (p->text[p->pos] == '*' && kind == LIST_CORES) {
			return parse_error(p, -EINVAL, p->pos,
					   "C[*] would remove every core");
		} else if (p->text[p->pos] == '*') {
			ret = assign_all(p, kind, part, p->pos);
			p->pos++;
		} else {
			ret = parse_range(p, kind, part);
		}
		if (ret)
			return ret;
		skip_space(p);
		if (p->text[p->pos] == ']')
			break;
		if (!p->text[p->pos])
			return parse_error(p, -EINVAL, p->pos, "missing ']'");
		if (p->text[p->pos] != ',')
			return parse_error(p, -EINVAL, p->pos,
					   "unexpected character in list");
		p->pos++;
	}
	p->pos++;
	return 0;
}

static int parse_partition(struct parser *p)
{
	struct cplan_pattern *pat = p->pat;
	enum list_kind kind = pat->by_node ? LIST_NODES : LIST_CPUS;
	int off = p->pos, id, ret;

	ret = parse_number(p, &id);
	if (ret)
		return ret;
	if (id >= list_bound(p, kind))
		return parse_error(p, -EINVAL, off,
				   "partition id %d is beyond the %d %s", id,
				   list_bound(p, kind),
				   pat->by_node ? "nodes" : "CPUs");
	if (id >= CPLAN_PARTS_MAX)
		return parse_error(p, -ERANGE, off,
				   "partition id %d: cpt supports %d partitions",
				   id, CPLAN_PARTS_MAX);
	if (pat->part_offset[id] >= 0)
		return parse_error(p, -EINVAL, off,
				   "duplicate partition id %d", id);
	pat->part_offset[id] = off;
	pat->nr_parts++;
	return parse_list(p, kind, id);
}

static int parse_item(struct parser *p)
{
	struct cplan_pattern *pat = p->pat;
	char c = p->text[p->pos];
	int off = p->pos;

	if (is_digit(c))
		return parse_partition(p);
	p->pos++;
	switch (c) {
	case 'N':
		if (pat->by_node)
			return parse_error(p, -EINVAL, off, "'N' given twice");
		if (pat->nr_parts)
			return parse_error(p, -EINVAL, off,
					   "'N' must come before the partition lists");
		pat->by_node = true;
		return 0;
	case 'X':
		return parse_list(p, LIST_EXCLUDE, CPLAN_NONE);
	case 'C':
		if (pat->core_drop_offset < 0)
			pat->core_drop_offset = off;
		return parse_list(p, LIST_CORES, CPLAN_NONE);
	default:
		return parse_error(p, -EINVAL, off, "unexpected character");
	}
}

/* Partition ids are bounded by the CPUs, or the nodes after "N". */
static int max_parts(const struct cplan_topo *topo)
{
	return topo->nr_cpus > topo->nr_nodes ? topo->nr_cpus : topo->nr_nodes;
}

/* Partition ids must be exactly 0..k-1. */
static int check_ids(struct parser *p)
{
	struct cplan_pattern *pat = p->pat;
	int id, last = -1;

	for (id = 0; id < max_parts(p->topo); id++)
		if (pat->part_offset[id] >= 0)
			last = id;
	for (id = 0; id < last; id++)
		if (pat->part_offset[id] < 0)
			return parse_error(p, -EINVAL, pat->part_offset[last],
					   "partition id %d is missing (ids must run from 0 to %d)",
					   id, last);
	return 0;
}

static int alloc_pattern(const struct cplan_topo *topo, struct cplan_pattern *pat)
{
	int i;

	pat->by_node = false;
	pat->nr_parts = 0;
	pat->core_drop_offset = -1;
	pat->part_offset = cplan_calloc(max_parts(topo), sizeof(int));
	pat->cpu_part = cplan_calloc(topo->nr_cpus, sizeof(int));
	pat->node_part = cplan_calloc(topo->nr_nodes, sizeof(int));
	pat->excluded = cplan_calloc(topo->nr_cpus, sizeof(bool));
	pat->core_drop = cplan_calloc(topo->nr_cpus, sizeof(int));
	if (!pat->part_offset || !pat->cpu_part || !pat->node_part ||
	    !pat->excluded || !pat->core_drop) {
		cplan_pattern_release(pat);
		return -ENOMEM;
	}
	for (i = 0; i < max_parts(topo); i++)
		pat->part_offset[i] = -1;
	for (i = 0; i < topo->nr_cpus; i++) {
		pat->cpu_part[i] = CPLAN_NONE;
		pat->core_drop[i] = -1;
	}
	for (i = 0; i < topo->nr_nodes; i++)
		pat->node_part[i] = CPLAN_NONE;
	return 0;
}

void cplan_pattern_release(struct cplan_pattern *pat)
{
	cplan_free(pat->part_offset);
	cplan_free(pat->cpu_part);
	cplan_free(pat->node_part);
	cplan_free(pat->excluded);
	cplan_free(pat->core_drop);
	pat->part_offset = NULL;
	pat->cpu_part = NULL;
	pat->node_part = NULL;
	pat->excluded = NULL;
	pat->core_drop = NULL;
}

static int count_node_cpus(struct parser *p)
{
	const struct cplan_topo *topo = p->topo;
	int cpu;

	p->node_cpus = cplan_calloc(topo->nr_nodes, sizeof(int));
	if (!p->node_cpus)
		return -ENOMEM;
	for (cpu = 0; cpu < topo->nr_cpus; cpu++)
		if (topo->cpu[cpu].online)
			p->node_cpus[topo->cpu[cpu].node]++;
	return 0;
}

/*
 * Parse @text into @pat.  On success the caller releases @pat with
 * cplan_pattern_release(); on failure nothing is left allocated.
 */
int cplan_pattern_parse(const struct cplan_topo *topo, const char *text,
		      struct cplan_pattern *pat, struct cplan_err *err)
{
	struct parser p = { .topo = topo, .text = text, .pat = pat,
			    .err = err };
	int len, ret;

	for (len = 0; text[len]; len++)
		if (len == CPLAN_PATTERN_MAX)
			return parse_error(&p, -E2BIG, -1,
					   "cpu_pattern: longer than %d bytes",
					   CPLAN_PATTERN_MAX);
	ret = alloc_pattern(topo, pat);
	if (ret)
		return cplan_fail(err, ret, NULL, -1, "out of memory");
	ret = count_node_cpus(&p);
	if (ret) {
		cplan_fail(err, ret, NULL, -1, "out of memory");
		goto out;
	}
	for (skip_space(&p); text[p.pos] && !ret; skip_space(&p))
		ret = parse_item(&p);
	if (!ret)
		ret = check_ids(&p);
out:
	cplan_free(p.node_cpus);
	if (ret)
		cplan_pattern_release(pat);
	return ret;
}
