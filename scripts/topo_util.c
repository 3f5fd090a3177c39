// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the sysfs and the lscpu readers.  See scripts/topo_util.h.
 */
#include <errno.h>
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

static bool same_group(const struct cpu_group_key *g,
		       const struct cpu_group_key *h)
{
	return g->source == h->source && g->scope == h->scope && g->id == h->id;
}

/* A group's hash: source, scope and id mixed by odd multipliers. */
static size_t hash_group(const struct cpu_group_key *g)
{
	unsigned long long h = (unsigned long long)g->source;

	h = h * 0x9e3779b97f4a7c15ull + (unsigned long long)g->scope;
	h = h * 0x9e3779b97f4a7c15ull + (unsigned long long)g->id;
	return (size_t)(h ^ (h >> 29));
}

/* One group in the table of assign_groups(): a key of it, its first CPU. */
struct group_slot {
	const struct cpu_group_key *key;	/* NULL: an empty slot */
	int first;
};

/* The slot of @g's group in @slot (@mask + 1 slots), or the empty one. */
static struct group_slot *find_group(struct group_slot *slot, size_t mask,
				     const struct cpu_group_key *g)
{
	size_t i = hash_group(g) & mask;

	while (slot[i].key && !same_group(slot[i].key, g))
		i = (i + 1) & mask;
	return &slot[i];
}

/*
 * One pass finds each group's lowest CPU, a second gives it out.  The
 * table is at least twice the keys, so find_group() always ends on an
 * empty slot.  Linear: sorting the keys was a quarter of what cpt-plan
 * did at 8192 CPUs.
 */
int assign_groups(struct cplan_topo *topo, const struct cpu_group_key *keys,
		  size_t n, enum key_field which)
{
	struct group_slot *slot;
	size_t cap = 16;

	while (cap < 2 * n)
		cap *= 2;
	slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct group_slot *s = find_group(slot, cap - 1, &keys[i]);

		if (!s->key || keys[i].cpu < s->first)
			*s = (struct group_slot){ &keys[i], keys[i].cpu };
	}
	for (size_t i = 0; i < n; i++) {
		struct cplan_cpu *c = &topo->cpu[keys[i].cpu];
		int first = find_group(slot, cap - 1, &keys[i])->first;

		if (which == KEY_CORE)
			c->core = first;
		else
			c->llc = first;
	}
	free(slot);
	return 0;
}
