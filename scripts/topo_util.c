// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the sysfs and the lscpu readers.  See scripts/topo_util.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_util.h"

void set_err(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!buf || !len)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

bool parse_dec(const char *s, const char *end, long max, long *out)
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

const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return s;
}

void rstrip(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
		     s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	rstrip(s);
	return s;
}

static int cmp_long(long x, long y)
{
	return (x > y) - (x < y);
}

/* By group, then by CPU: the first key of a group has its lowest CPU. */
static int cmp_group_key(const void *x, const void *y)
{
	const struct cpu_group_key *g = x, *h = y;
	int d = cmp_long(g->source, h->source);

	if (!d)
		d = cmp_long(g->scope, h->scope);
	if (!d)
		d = cmp_long(g->id, h->id);
	return d ? d : cmp_long(g->cpu, h->cpu);
}

static bool same_group(const struct cpu_group_key *g,
		       const struct cpu_group_key *h)
{
	return g->source == h->source && g->scope == h->scope && g->id == h->id;
}

void assign_groups(struct cplan_topo *topo, struct cpu_group_key *keys,
		   size_t n, enum key_field which)
{
	int first = CPLAN_NONE;

	if (n)
		qsort(keys, n, sizeof(*keys), cmp_group_key);
	for (size_t i = 0; i < n; i++) {
		struct cplan_cpu *c = &topo->cpu[keys[i].cpu];

		if (i == 0 || !same_group(&keys[i], &keys[i - 1]))
			first = keys[i].cpu;
		if (which == KEY_CORE)
			c->core = first;
		else
			c->llc = first;
	}
}
