// SPDX-License-Identifier: GPL-2.0
/*
 * The texts of the /proc/sys/lnet files, one per table and file, rendered
 * by the first reader.  A table's texts are freed with it, so the memory
 * they take is bounded by the tables held, whoever reads how slowly.
 */
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "text.h"

void cptk_texts_init(struct cptk_texts *texts)
{
	mutex_init(&texts->lock);
}

void cptk_texts_free(struct cptk_texts *texts)
{
	int kind;

	for (kind = 0; kind < CPTK_NR_TEXTS; kind++)
		kvfree(texts->text[kind]);
	mutex_destroy(&texts->lock);
}

/* Like snprintf: the full length, at most @size bytes written with a NUL. */
static size_t cptk_text_format(const struct cptk_text_src *src,
			       enum cptk_text_kind kind, char *buf, size_t size)
{
	switch (kind) {
	case CPTK_TEXT_TABLE:
		return cplan_format_table(src->table, buf, size);
	case CPTK_TEXT_DISTANCE:
		return cplan_format_distance(src->table, buf, size);
	case CPTK_TEXT_NPARTITIONS:
		return snprintf(buf, size, "%d\n", src->npartitions);
	case CPTK_TEXT_INCLUDE_ISOLATED:
		return snprintf(buf, size, "%d\n", src->include_isolated);
	default:
		return snprintf(buf, size, "%s\n", src->pattern);
	}
}

static struct cptk_text *cptk_text_render(const struct cptk_text_src *src,
					  enum cptk_text_kind kind)
{
	struct cptk_text *text;
	size_t len;

	len = cptk_text_format(src, kind, NULL, 0);
	text = kvmalloc(struct_size(text, buf, len + 1), GFP_KERNEL);
	if (!text)
		return NULL;
	text->len = cptk_text_format(src, kind, text->buf, len + 1);
	return text;
}

/**
 * cptk_text_get() - the text of @kind, rendered on first use
 * @texts: the texts of a table the caller holds
 * @kind: which file's text
 * @src: what the table's texts are rendered from
 *
 * The first reader renders while the others wait (killably) for it.  The
 * formatter yields the CPU between lines: the distance text of 256
 * partitions is 0.5 MB.
 *
 * Return: the text, valid while the table is held; ERR_PTR(-EINTR) for a
 * reader killed while waiting, ERR_PTR(-ENOMEM).
 */
const struct cptk_text *cptk_text_get(struct cptk_texts *texts,
				      enum cptk_text_kind kind,
				      const struct cptk_text_src *src)
{
	struct cptk_text *text;

	/* Pairs with smp_store_release(): a text seen is a text complete. */
	text = smp_load_acquire(&texts->text[kind]);
	if (text)
		return text;
	if (mutex_lock_killable(&texts->lock))
		return ERR_PTR(-EINTR);
	text = texts->text[kind];
	if (!text) {
		text = cptk_text_render(src, kind);
		if (text)
			smp_store_release(&texts->text[kind], text);
	}
	mutex_unlock(&texts->lock);
	return text ?: ERR_PTR(-ENOMEM);
}
