// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/sys/lnet: the files Lustre's libcfs provides, and two tunables.
 *
 *   cpu_partition_table     0444  the table in force, one line per partition
 *   cpu_partition_distance  0444  distances between partitions
 *   cpu_npartitions         0644  the partition count in force (0: automatic)
 *   cpu_pattern             0644  the cpu_pattern in force (empty: none)
 *
 * Writing cpu_npartitions or cpu_pattern (sysctl -w lnet.cpu_npartitions=6,
 * sysctl -w lnet.cpu_pattern="N") plans a new table from the CPUs online
 * now, with the other value in force, exactly as at load: an explicit
 * pattern still fixes the count, so writing cpu_npartitions under such a
 * pattern only changes the value shown (and warns, as at load).  A value
 * the planner refuses fails the write with its errno and one line in the
 * log, and changes nothing.  Writing needs CAP_SYS_ADMIN in the initial
 * user namespace, on top of the file mode: the table is the whole
 * machine's.  A value is one write() at offset 0; a pattern may end with
 * one newline (echo adds it), which is not part of it, and is at most 4096
 * bytes (-E2BIG beyond).
 *
 * Reading.  A table's texts (of each file) are rendered once, the first
 * time they are read, and kept with the table, so every read() returns
 * bytes of one table.  A file read in several calls (cat's last read that
 * finds the end, a table bigger than the reader's buffer, dd bs=1, a
 * shell's read builtin) also gets one table, the one its first call saw,
 * even when the table is replaced between two calls: the file position
 * remembers it (see cpt_pos_tag()), and the texts of replaced tables stay
 * available for a while (see cpt_recent).  A reader that falls further
 * behind gets -EAGAIN rather than the end of another table (or 0 bytes, if
 * it had read all of its text); reading again from offset 0 gives the
 * table in force.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <linux/user_namespace.h>

#include "cpt.h"
#include "cpt_compat.h"
#include "cpt_glue.h"

/* A count longer than this is garbage or out of range, not worth copying. */
#define CPT_COUNT_MAX	64

/*
 * File positions.  A sysctl file has no state per open file but its
 * position, so the position carries the table a read started with: after
 * a read, *ppos is (tag << 32) + offset, where the tag (never 0) names the
 * generation of the text served.  A read at a position with a tag
 * continues that text; a position without one (0 for a fresh open, or an
 * offset set with lseek(SEEK_SET) or pread()) reads the table in force.
 * Moving by SEEK_CUR keeps the tag, as a shell's read builtin does.
 */
#define CPT_POS_SHIFT	32
#define CPT_POS_OFFSET	((1ULL << CPT_POS_SHIFT) - 1)
#define CPT_POS_TAGS	((1ULL << 30) - 1)	/* keeps positions positive */

static u64 cpt_pos_tag(u64 generation)
{
	return (generation - 1) % CPT_POS_TAGS + 1;
}

/*
 * The texts of each file rendered last, newest first, each with a
 * reference: a reader that started on a table replaced since finds its
 * text here.  Each file keeps the last CPT_RECENT_MIN texts, and more, up
 * to CPT_RECENT_MAX, while they take at most CPT_RECENT_BYTES: the small
 * texts of a few hundred CPUs stay for 2048 replacements, more than a
 * starved reader falls behind even under a write loop, while the 0.4 MB
 * distance text of 8192 CPUs and 256 partitions costs at most 32 copies.
 * One list per file, so that readers of the other files do not push a
 * slow reader's text out.  The text of the table in force is among the
 * newest of its file, so it stays.
 */
#define CPT_RECENT_MIN		32
#define CPT_RECENT_MAX		2048
#define CPT_RECENT_BYTES	(512 * 1024)

struct cpt_recent {
	struct list_head texts;
	unsigned int nr;
	size_t bytes;
};
static struct cpt_recent cpt_recent[CPT_NR_TEXTS];

/*
 * The lengths of the texts pushed out of those lists, the last CPT_GONE of
 * each file: a reader that got a whole text and comes back to find the
 * end (as cat does) gets 0 bytes even when the text itself is gone.
 */
#define CPT_GONE	128
struct cpt_gone {
	u64 tag;
	size_t len;
};
static struct cpt_gone cpt_gone[CPT_NR_TEXTS][CPT_GONE];
static unsigned int cpt_gone_next[CPT_NR_TEXTS];
static DEFINE_SPINLOCK(cpt_recent_lock);

void cpt_text_put(struct cpt_text *text)
{
	if (text && refcount_dec_and_test(&text->ref))
		kvfree(text);
}

static size_t cpt_text_size(const struct cpt_text *text)
{
	return struct_size(text, buf, text->len + 1);
}

/* Under cpt_recent_lock. */
static void cpt_gone_add(const struct cpt_text *text)
{
	unsigned int *next = &cpt_gone_next[text->kind];

	cpt_gone[text->kind][*next] = (struct cpt_gone) {
		.tag = cpt_pos_tag(text->generation),
		.len = text->len,
	};
	*next = (*next + 1) % CPT_GONE;
}

/* Under cpt_recent_lock: whether @r keeps more than it must. */
static bool cpt_recent_over(const struct cpt_recent *r)
{
	return r->nr > CPT_RECENT_MIN &&
	       (r->nr > CPT_RECENT_MAX || r->bytes > CPT_RECENT_BYTES);
}

/* Under cpt_recent_lock: move the oldest text of @r to @gone. */
static void cpt_recent_drop_oldest(struct cpt_recent *r,
				   struct list_head *gone)
{
	struct cpt_text *old;

	old = list_last_entry(&r->texts, struct cpt_text, recent);
	list_move(&old->recent, gone);
	r->nr--;
	r->bytes -= cpt_text_size(old);
	cpt_gone_add(old);
}

static void cpt_put_list(struct list_head *texts)
{
	struct cpt_text *text, *next;

	list_for_each_entry_safe(text, next, texts, recent) {
		list_del(&text->recent);
		cpt_text_put(text);
	}
}

static void cpt_recent_add(struct cpt_text *text)
{
	struct cpt_recent *r = &cpt_recent[text->kind];
	LIST_HEAD(gone);

	refcount_inc(&text->ref);
	spin_lock(&cpt_recent_lock);
	list_add(&text->recent, &r->texts);
	r->nr++;
	r->bytes += cpt_text_size(text);
	while (cpt_recent_over(r))
		cpt_recent_drop_oldest(r, &gone);
	spin_unlock(&cpt_recent_lock);
	cpt_put_list(&gone);
}

/*
 * The recent text of @kind whose generation has @tag, referenced.  When it
 * is gone: NULL if @off is its end (or past it), as for a reader that had
 * all of it, else -EAGAIN: rather than join two tables, make the reader
 * start again.
 */
static struct cpt_text *cpt_recent_find(enum cpt_text_kind kind, u64 tag,
					u64 off)
{
	struct cpt_text *text, *found = ERR_PTR(-EAGAIN);
	int i;

	spin_lock(&cpt_recent_lock);
	list_for_each_entry(text, &cpt_recent[kind].texts, recent) {
		if (cpt_pos_tag(text->generation) == tag) {
			found = text;
			refcount_inc(&found->ref);
			goto out;
		}
	}
	for (i = 0; i < CPT_GONE; i++) {
		if (cpt_gone[kind][i].tag == tag) {
			if (off >= cpt_gone[kind][i].len)
				found = NULL;
			break;
		}
	}
out:
	spin_unlock(&cpt_recent_lock);
	return found;
}

static void cpt_recent_init(void)
{
	int k;

	for (k = 0; k < CPT_NR_TEXTS; k++)
		INIT_LIST_HEAD(&cpt_recent[k].texts);
}

static void cpt_recent_clear(void)
{
	LIST_HEAD(gone);
	int k;

	spin_lock(&cpt_recent_lock);
	for (k = 0; k < CPT_NR_TEXTS; k++) {
		list_splice_init(&cpt_recent[k].texts, &gone);
		cpt_recent[k].nr = 0;
		cpt_recent[k].bytes = 0;
		memset(cpt_gone[k], 0, sizeof(cpt_gone[k]));
	}
	spin_unlock(&cpt_recent_lock);
	cpt_put_list(&gone);
}

/* Like snprintf: the full length, at most @size bytes written with a NUL. */
static size_t cpt_text_format(const struct cptab *tab,
			      enum cpt_text_kind kind, char *buf, size_t size)
{
	switch (kind) {
	case CPT_TEXT_TABLE:
		return cpt_format_table(tab->table, buf, size);
	case CPT_TEXT_DISTANCE:
		return cpt_format_distance(tab->table, buf, size);
	case CPT_TEXT_NPARTITIONS:
		return snprintf(buf, size, "%d\n", tab->npartitions);
	default:
		return snprintf(buf, size, "%s\n", tab->pattern);
	}
}

static struct cpt_text *cpt_text_render(const struct cptab *tab,
					enum cpt_text_kind kind)
{
	struct cpt_text *text;
	size_t len;

	len = cpt_text_format(tab, kind, NULL, 0);
	text = kvmalloc(struct_size(text, buf, len + 1), GFP_KERNEL);
	if (!text)
		return NULL;
	refcount_set(&text->ref, 1);
	text->kind = kind;
	text->generation = tab->generation;
	text->len = cpt_text_format(tab, kind, text->buf, len + 1);
	return text;
}

/*
 * The text of @tab, rendered on first use, with a reference for the
 * caller.  A text is in cpt_recent before any reader can see it: a reader
 * that got it from @tab and comes back for the rest must find it there,
 * even when the first reader that rendered it was preempted at once.
 * cpt_render_lock makes one reader render while the others wait, so the
 * text never changes once seen.
 */
static DEFINE_MUTEX(cpt_render_lock);

static struct cpt_text *cpt_text_get(struct cptab *tab,
				     enum cpt_text_kind kind)
{
	struct cpt_text *text;

	/* Pairs with smp_store_release(): a text seen is a text complete. */
	text = smp_load_acquire(&tab->text[kind]);
	if (!text) {
		mutex_lock(&cpt_render_lock);
		text = tab->text[kind];
		if (!text) {
			text = cpt_text_render(tab, kind);
			if (text) {
				cpt_recent_add(text);
				smp_store_release(&tab->text[kind], text);
			}
		}
		mutex_unlock(&cpt_render_lock);
		if (!text)
			return NULL;
	}
	/* @tab holds a reference until the caller puts it. */
	refcount_inc(&text->ref);
	return text;
}

/*
 * The text a read at *ppos continues, or that of the table in force; NULL
 * when the position is the end of a text pushed out since (0 bytes).
 */
static struct cpt_text *cpt_text_at(enum cpt_text_kind kind, loff_t pos)
{
	u64 tag = (u64)pos >> CPT_POS_SHIFT;
	struct cpt_text *text;
	struct cptab *tab;

	if (tag)
		return cpt_recent_find(kind, tag, (u64)pos & CPT_POS_OFFSET);
	tab = cpt_get();
	if (!tab)
		return ERR_PTR(-ENODEV);
	text = cpt_text_get(tab, kind);
	cpt_put(tab);
	return text ?: ERR_PTR(-ENOMEM);
}

/* Serve a read of a /proc/sys/lnet file from one text for all its calls. */
static int cpt_proc_read(enum cpt_text_kind kind, void *buffer, size_t *lenp,
			 loff_t *ppos)
{
	u64 off = (u64)*ppos & CPT_POS_OFFSET;
	struct cpt_text *text;
	size_t n = 0;
	int ret = 0;

	if (*ppos < 0)
		return -EINVAL;
	text = cpt_text_at(kind, *ppos);
	if (IS_ERR(text))
		return PTR_ERR(text);
	if (!text) {
		*lenp = 0;
		return 0;
	}
	/* A distance file of 8192 partitions is 0.6 GB: far from this. */
	if (text->len > CPT_POS_OFFSET) {
		ret = -EFBIG;
		goto out;
	}
	if (off < text->len) {
		n = min_t(size_t, *lenp, text->len - off);
		memcpy(buffer, text->buf + off, n);
	}
	*ppos = (loff_t)(cpt_pos_tag(text->generation) << CPT_POS_SHIFT |
			 (off + n));
out:
	*lenp = n;
	cpt_text_put(text);
	return ret;
}

static int cpt_proc_table(CPT_CTL_CONST struct ctl_table *ctl, int write,
			  void *buffer, size_t *lenp, loff_t *ppos)
{
	if (write)
		return -EPERM;
	return cpt_proc_read(CPT_TEXT_TABLE, buffer, lenp, ppos);
}

static int cpt_proc_distance(CPT_CTL_CONST struct ctl_table *ctl, int write,
			     void *buffer, size_t *lenp, loff_t *ppos)
{
	if (write)
		return -EPERM;
	return cpt_proc_read(CPT_TEXT_DISTANCE, buffer, lenp, ppos);
}

/*
 * Who may write, and how.  The file mode already limits writers to root;
 * a root that only has CAP_SYS_ADMIN inside a user namespace (a container)
 * must not re-partition the host.  A value comes in one write(): there is
 * no per-open state to assemble pieces written at other offsets.
 */
static int cpt_proc_may_write(const loff_t *ppos)
{
	if (!ns_capable(&init_user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	if (*ppos)
		return -EINVAL;
	return 0;
}

/*
 * The written value as a string, without the one trailing newline that
 * echo adds, and cut after @max + 1 bytes: enough for the parser to tell
 * that it is too long, with the same message as at load.
 */
static char *cpt_proc_value(const void *buffer, size_t len, size_t max,
			    size_t *vlen)
{
	const char *s = buffer;

	if (len && s[len - 1] == '\n')
		len--;
	*vlen = min(len, max + 1);
	return kmemdup_nul(s, *vlen, GFP_KERNEL);
}

static int cpt_proc_set_count(const void *buffer, size_t *lenp, loff_t *ppos)
{
	size_t vlen;
	char *val;
	int ret, n;

	ret = cpt_proc_may_write(ppos);
	if (ret)
		return ret;
	val = cpt_proc_value(buffer, *lenp, CPT_COUNT_MAX, &vlen);
	if (!val)
		return -ENOMEM;
	ret = cpt_parse_count(val, vlen, "cpu_npartitions", &n);
	if (!ret)
		ret = cpt_live_replan(&n, NULL);
	kfree(val);
	if (ret)
		return ret;
	*ppos += *lenp;
	return 0;
}

static int cpt_proc_npartitions(CPT_CTL_CONST struct ctl_table *ctl,
				int write, void *buffer, size_t *lenp,
				loff_t *ppos)
{
	if (write)
		return cpt_proc_set_count(buffer, lenp, ppos);
	return cpt_proc_read(CPT_TEXT_NPARTITIONS, buffer, lenp, ppos);
}

static int cpt_proc_set_pattern(const void *buffer, size_t *lenp,
				loff_t *ppos)
{
	size_t vlen;
	char *val;
	int ret;

	ret = cpt_proc_may_write(ppos);
	if (ret)
		return ret;
	val = cpt_proc_value(buffer, *lenp, CPT_PATTERN_MAX, &vlen);
	if (!val)
		return -ENOMEM;
	/* The parser would stop at a NUL and plan from half the value. */
	if (strlen(val) != vlen) {
		pr_err("cpu_pattern: NUL byte at offset %zu\n", strlen(val));
		ret = -EINVAL;
	} else {
		ret = cpt_live_replan(NULL, val);
	}
	kfree(val);
	if (ret)
		return ret;
	*ppos += *lenp;
	return 0;
}

static int cpt_proc_pattern(CPT_CTL_CONST struct ctl_table *ctl, int write,
			    void *buffer, size_t *lenp, loff_t *ppos)
{
	if (write)
		return cpt_proc_set_pattern(buffer, lenp, ppos);
	return cpt_proc_read(CPT_TEXT_PATTERN, buffer, lenp, ppos);
}

static struct ctl_table cpt_sysctl_table[] = {
	{
		.procname	= "cpu_partition_table",
		.mode		= 0444,
		.proc_handler	= cpt_proc_table,
	},
	{
		.procname	= "cpu_partition_distance",
		.mode		= 0444,
		.proc_handler	= cpt_proc_distance,
	},
	{
		.procname	= "cpu_npartitions",
		.mode		= 0644,
		.proc_handler	= cpt_proc_npartitions,
	},
	{
		.procname	= "cpu_pattern",
		.mode		= 0644,
		.proc_handler	= cpt_proc_pattern,
	},
	CPT_CTL_SENTINEL
};

static struct ctl_table_header *cpt_sysctl_header;

/**
 * cpt_sysctl_register() - create the /proc/sys/lnet files
 *
 * Call once a table is in force: the files are usable at once.
 *
 * Return: 0, or -ENOMEM when the sysctl core refused the table (it says why
 * in the log; typically the files exist already, as when libcfs is loaded).
 */
int cpt_sysctl_register(void)
{
	cpt_recent_init();
	cpt_sysctl_header = register_sysctl("lnet", cpt_sysctl_table);
	return cpt_sysctl_header ? 0 : -ENOMEM;
}

/* Remove the files; returns after the last reader or writer has left. */
void cpt_sysctl_unregister(void)
{
	unregister_sysctl_table(cpt_sysctl_header);
	cpt_sysctl_header = NULL;
	cpt_recent_clear();
}
