/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a /proc/sys/lnet file shows of a table: each text rendered once, by
 * its first reader, and kept with the table until the table is freed.
 * The files themselves (positions, writes) are sysctl.c's; the table that
 * owns the texts is tab.h's.
 */
#ifndef CPTK_TEXT_H
#define CPTK_TEXT_H

#include <linux/mutex.h>
#include <linux/types.h>

#include "cplan.h"

enum cptk_text_kind {
	CPTK_TEXT_TABLE,
	CPTK_TEXT_DISTANCE,
	CPTK_TEXT_NPARTITIONS,
	CPTK_TEXT_PATTERN,
	CPTK_TEXT_INCLUDE_ISOLATED,
	CPTK_NR_TEXTS
};

struct cptk_text {
	size_t len;
	char buf[];
};

/*
 * The texts of one table.  Each @text only goes from NULL to a complete
 * rendering, once, under @lock, so that readers of a rendered text need
 * no lock.
 */
struct cptk_texts {
	struct mutex lock;
	struct cptk_text *text[CPTK_NR_TEXTS];
};

/* What the texts of a table are rendered from; all of it stays put. */
struct cptk_text_src {
	const struct cplan_table *table;
	int npartitions;
	const char *pattern;
	bool include_isolated;
};

void cptk_texts_init(struct cptk_texts *texts);
void cptk_texts_free(struct cptk_texts *texts);
const struct cptk_text *cptk_text_get(struct cptk_texts *texts,
				      enum cptk_text_kind kind,
				      const struct cptk_text_src *src);

#endif /* CPTK_TEXT_H */
