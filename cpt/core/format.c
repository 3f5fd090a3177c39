// SPDX-License-Identifier: GPL-2.0
/*
 * Text of /proc/sys/lnet/cpu_partition_table and cpu_partition_distance,
 * byte for byte as Lustre prints them, so that existing tools keep parsing
 * them.  The output is measured and written in one pass with snprintf
 * semantics: the caller asks for the length with size 0, allocates, and
 * renders; no fixed buffer limits the table (Lustre's 4 KiB one did).
 */
#include "cplan_internal.h"

struct out {
	char *buf;
	size_t size;
	size_t len;
};

static void put_char(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_uint(struct out *o, unsigned int v)
{
	char digits[10];
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		put_char(o, digits[--n]);
}

static void put_int(struct out *o, int v)
{
	if (v < 0) {
		put_char(o, '-');
		put_uint(o, 0u - (unsigned int)v);
	} else {
		put_uint(o, (unsigned int)v);
	}
}

/* "%d\t:" */
static void put_head(struct out *o, int part)
{
	put_int(o, part);
	put_char(o, '\t');
	put_char(o, ':');
}

static size_t finish(struct out *o)
{
	if (o->size)
		o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
	return o->len;
}

size_t cplan_format_table(const struct cplan_table *t, char *buf, size_t size)
{
	struct out o = { .buf = buf, .size = size };
	int p, i;

	for (p = 0; p < t->nr_parts; p++) {
		put_head(&o, p);
		for (i = t->part_first[p]; i < t->part_first[p + 1]; i++) {
			if (t->cpu_online && !t->cpu_online[t->part_cpu[i]])
				continue;
			put_char(&o, ' ');
			put_int(&o, t->part_cpu[i]);
		}
		put_char(&o, '\n');
		cplan_yield();
	}
	return finish(&o);
}

size_t cplan_format_distance(const struct cplan_table *t, char *buf, size_t size)
{
	struct out o = { .buf = buf, .size = size };
	int a, b;

	for (a = 0; a < t->nr_parts; a++) {
		put_head(&o, a);
		for (b = 0; b < t->nr_parts; b++) {
			put_char(&o, ' ');
			put_int(&o, b);
			put_char(&o, ':');
			put_int(&o, cplan_table_distance(t, a, b));
		}
		put_char(&o, '\n');
		cplan_yield();
	}
	return finish(&o);
}
