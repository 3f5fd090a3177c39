// SPDX-License-Identifier: GPL-2.0
/*
 * Output helpers of cpt-plan (out.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"

void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->oom = true;
		return;
	}
	if (sb->len + (size_t)n + 1 > sb->cap) {
		size_t ncap = sb->cap ? sb->cap : 64;
		char *ns;

		while (ncap < sb->len + (size_t)n + 1)
			ncap *= 2;
		ns = realloc(sb->s, ncap);
		if (!ns) {
			sb->oom = true;
			return;
		}
		sb->s = ns;
		sb->cap = ncap;
	}
	va_start(ap, fmt);
	(void)vsnprintf(sb->s + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

const char *sb_str(const struct sbuf *sb)
{
	return sb->s ? sb->s : "";
}

void sb_list(struct sbuf *sb, const int *ids, int n)
{
	for (int i = 0; i < n;) {
		int j = i;

		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		sb_printf(sb, "%s%d", i ? "," : "", ids[i]);
		if (j > i)
			sb_printf(sb, "-%d", ids[j]);
		i = j + 1;
	}
}

void sb_ranges(struct sbuf *sb, const int *ids, int n)
{
	if (!n)
		sb_printf(sb, "-");
	else
		sb_list(sb, ids, n);
}

int listed_cpus(const struct cplan_topo *topo, const struct cplan_table *table,
		int p, int *ids)
{
	int k = 0;

	for (int i = table->part_first[p]; i < table->part_first[p + 1]; i++) {
		int c = table->part_cpu[i];
		bool online = table->cpu_online ? table->cpu_online[c] :
			      topo->cpu[c].online;

		if (online)
			ids[k++] = c;
	}
	return k;
}

void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

void json_ints(FILE *out, const int *v, int n)
{
	fputc('[', out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%d", i ? ", " : "", v[i]);
	fputc(']', out);
}

void json_partition(FILE *out, const struct cplan_topo *topo,
		    const struct cplan_table *table, int p, int *ids,
		    bool distance)
{
	int nc = listed_cpus(topo, table, p, ids);
	int first = table->part_node_first[p];

	fprintf(out, "{\"cpt\": %d, \"cpus\": ", p);
	json_ints(out, ids, nc);
	fputs(", \"nodes\": ", out);
	json_ints(out, table->part_node + first,
		  table->part_node_first[p + 1] - first);
	if (distance) {
		fputs(", \"distance\": [", out);
		for (int q = 0; q < table->nr_parts; q++)
			fprintf(out, "%s%d", q ? ", " : "",
				cplan_table_distance(table, p, q));
		fputc(']', out);
	}
}
