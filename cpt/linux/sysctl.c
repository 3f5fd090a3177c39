// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/sys/lnet: the files Lustre's libcfs provides, and three tunables.
 *
 *   cpu_partition_table     0444  the table in force, one line per partition
 *   cpu_partition_distance  0444  distances between partitions
 *   cpu_npartitions         0644  the partition count in force (0: automatic)
 *   cpu_pattern             0644  the cpu_pattern in force (empty: none)
 *   include_isolated        0644  1: isolated CPUs are placed too (0: not)
 *
 * Writing cpu_npartitions, cpu_pattern or include_isolated (sysctl -w
 * lnet.cpu_npartitions=6, sysctl -w lnet.cpu_pattern="N") plans a new
 * table from the CPUs online now, with the other values in force, exactly
 * as at load: an explicit pattern still fixes the count, so writing
 * cpu_npartitions under such a pattern only changes the value shown (and
 * warns, as at load).  A value the planner refuses fails the write with
 * its errno and one line in the log, and changes nothing.  Writing needs
 * CAP_SYS_ADMIN in the initial user namespace, on top of the file mode:
 * the table is the whole machine's.  A number is one write() at offset 0;
 * a pattern may come in pieces (see cptk_pending), may end with one
 * newline (echo adds it), which is not part of it, and is at most 4096
 * bytes (-E2BIG beyond).
 *
 * Reading.  A table's text of each file is rendered once, the first time
 * it is read, and kept with the table, so every read() returns bytes of
 * one table.  A file read in several calls (cat's last read that finds
 * the end, a table bigger than the reader's buffer, dd bs=1, a shell's
 * read builtin) also gets one table, the one its first call saw: the file
 * position names it (see cptk_pos_tag()).  When that table is replaced
 * between two calls, the reader gets -EAGAIN (or 0 bytes, if it had read
 * all of its text) rather than the end of another table; reading again
 * from offset 0 gives the table in force.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <linux/sched.h>

#include "compat.h"
#include "count.h"
#include "live.h"
#include "sysctl.h"
#include "tab.h"
#include "text.h"

/* A count longer than this is garbage or out of range, not worth copying. */
#define CPTK_COUNT_MAX	64

/*
 * File positions.  A sysctl file has no state per open file but its
 * position, so the position names the table a read started with: after a
 * read, *ppos is (tag << 32) | END | offset, where the tag (never 0) names
 * the text (cptk_pos_tag()) and END says that the reader
 * has had the last byte of its text.  A read at a position with a tag
 * continues that table's text while the table is in force.  Once it has
 * been replaced, the reader gets 0 bytes if it had read to the end (cat
 * comes back for the end of file), or -EAGAIN otherwise: rather than join
 * two tables, make it start again from offset 0, which reads the table in
 * force.  A position without a tag (0 for a fresh open, or an offset set
 * with lseek(SEEK_SET) or pread()) reads the table in force; moving by
 * SEEK_CUR keeps the tag, as a shell's read builtin does.
 *
 * So the only text of a file that exists is the one of each table still
 * held: nothing is kept for slow readers, and finding a reader's table is
 * one comparison, whatever the position says.  A tag repeats after 2^30
 * replacements; a reader that slow is not served its table, only another
 * table's bytes of the same offset.
 */
#define CPTK_POS_SHIFT	32
#define CPTK_POS_END	(1ULL << 31)
#define CPTK_POS_OFFSET	(CPTK_POS_END - 1)
#define CPTK_POS_TAGS	((1ULL << 30) - 1)	/* keeps positions positive */

/*
 * The tag of the text of @kind of @tab.  The table and distance texts
 * depend on the partitions alone, so their tag is the generation: a
 * reader continues across a replacement that kept the partitions.  The
 * values can change without them, so theirs is the table's serial.
 */
static u64 cptk_pos_tag(const struct cptab *tab, enum cptk_text_kind kind)
{
	u64 n = kind <= CPTK_TEXT_DISTANCE ? tab->generation : tab->serial;

	return (n - 1) % CPTK_POS_TAGS + 1;
}

/* The text of @kind of @tab, a table the caller holds (text.c). */
static const struct cptk_text *cptk_text_of(struct cptab *tab,
					    enum cptk_text_kind kind)
{
	const struct cptk_text_src src = {
		.table = tab->table,
		.npartitions = tab->npartitions,
		.pattern = tab->pattern,
		.include_isolated = tab->include_isolated,
	};

	return cptk_text_get(&tab->texts, kind, &src);
}

/* Serve a read of a /proc/sys/lnet file from the text of one table. */
static int cptk_proc_read(enum cptk_text_kind kind, void *buffer, size_t *lenp,
			 loff_t *ppos)
{
	u64 pos = *ppos, tag = pos >> CPTK_POS_SHIFT;
	u64 off = pos & CPTK_POS_OFFSET;
	const struct cptk_text *text;
	struct cptab *tab;
	size_t n = 0;
	int ret = 0;

	if (*ppos < 0)
		return -EINVAL;
	tab = cpt_get();
	if (!tab)
		return -ENODEV;
	if (tag && tag != cptk_pos_tag(tab, kind)) {
		/* Its table was replaced: see the file positions above. */
		if (!(pos & CPTK_POS_END))
			ret = -EAGAIN;
		goto out;
	}
	text = cptk_text_of(tab, kind);
	if (IS_ERR(text)) {
		ret = PTR_ERR(text);
		goto out;
	}
	/* 256 partitions give 0.5 MB of distances: far from this. */
	if (text->len > CPTK_POS_OFFSET) {
		ret = -EFBIG;
		goto out;
	}
	if (off < text->len) {
		n = min_t(size_t, *lenp, text->len - off);
		memcpy(buffer, text->buf + off, n);
	}
	off += n;
	*ppos = (loff_t)(cptk_pos_tag(tab, kind) << CPTK_POS_SHIFT |
			 (off >= text->len ? CPTK_POS_END : 0) | off);
out:
	*lenp = n;
	cpt_put(tab);
	return ret;
}

static int cptk_proc_table(CPTK_CTL_CONST struct ctl_table *ctl, int write,
			  void *buffer, size_t *lenp, loff_t *ppos)
{
	if (write)
		return -EPERM;
	return cptk_proc_read(CPTK_TEXT_TABLE, buffer, lenp, ppos);
}

static int cptk_proc_distance(CPTK_CTL_CONST struct ctl_table *ctl, int write,
			     void *buffer, size_t *lenp, loff_t *ppos)
{
	if (write)
		return -EPERM;
	return cptk_proc_read(CPTK_TEXT_DISTANCE, buffer, lenp, ppos);
}

/*
 * Who may write.  The file mode already limits writers to root; a root
 * that only has CAP_SYS_ADMIN inside a user namespace (a container) must
 * not re-partition the host.
 */
static int cptk_proc_may_write(void)
{
	return capable(CAP_SYS_ADMIN) ? 0 : -EPERM;
}

/*
 * The written value as a string, without the one trailing newline that
 * echo adds, and cut after @max + 1 bytes: enough for the parser to tell
 * that it is too long, with the same message as at load.
 */
static char *cptk_proc_value(const char *s, size_t len, size_t max,
			    size_t *vlen)
{
	if (len && s[len - 1] == '\n')
		len--;
	*vlen = min(len, max + 1);
	return kmemdup_nul(s, *vlen, GFP_KERNEL);
}

static void cptk_log_offset(const char *name, loff_t pos)
{
	pr_err("%s: a write at offset %lld continues no value\n", name, pos);
}

/*
 * A write of cpu_npartitions (@name) or of include_isolated (a flag):
 * parse the number and plan with it.
 */
static int cptk_proc_set_number(const char *name, bool flag,
				const void *buffer, size_t *lenp, loff_t *ppos)
{
	bool isolated;
	size_t vlen;
	char *val;
	int ret, n;

	ret = cptk_proc_may_write();
	if (ret)
		return ret;
	/* A number is a few bytes: one write() at offset 0. */
	if (*ppos) {
		cptk_log_offset(name, *ppos);
		return -EINVAL;
	}
	val = cptk_proc_value(buffer, *lenp, CPTK_COUNT_MAX, &vlen);
	if (!val)
		return -ENOMEM;
	if (flag)
		ret = cptk_parse_flag(val, vlen, name, &isolated);
	else
		ret = cptk_parse_count(val, vlen, name, &n);
	if (!ret)
		ret = flag ? cptk_live_replan(NULL, NULL, &isolated) :
			     cptk_live_replan(&n, NULL, NULL);
	kfree(val);
	if (ret)
		return ret;
	*ppos += *lenp;
	return 0;
}

static int cptk_proc_npartitions(CPTK_CTL_CONST struct ctl_table *ctl,
				int write, void *buffer, size_t *lenp,
				loff_t *ppos)
{
	if (write)
		return cptk_proc_set_number("cpu_npartitions", false, buffer,
					    lenp, ppos);
	return cptk_proc_read(CPTK_TEXT_NPARTITIONS, buffer, lenp, ppos);
}

static int cptk_proc_include_isolated(CPTK_CTL_CONST struct ctl_table *ctl,
				      int write, void *buffer, size_t *lenp,
				      loff_t *ppos)
{
	if (write)
		return cptk_proc_set_number("include_isolated", true, buffer,
					    lenp, ppos);
	return cptk_proc_read(CPTK_TEXT_INCLUDE_ISOLATED, buffer, lenp, ppos);
}

/*
 * A cpu_pattern written in pieces.  /proc/sys files report a block size of
 * 1024 bytes, so stdio writers (bash's echo and printf, procps) write a
 * longer value in pieces of a multiple of 1024 bytes, and dd in pieces of
 * its bs.  The kernel cannot see where a value ends, so the rule is:
 *
 *   a piece that ends with a newline, or whose length is not a multiple
 *   of CPTK_PIECE (512) bytes, ends the value; any other piece is held as
 *   the start of a longer value, and the write succeeds.
 *
 * Pieces held are joined with the next write of the same process at the
 * offset where they stop, and the whole value is planned once, when it
 * ends: applied, or refused by that last write with the planner's errno
 * and log line.  No prefix of a value is ever planned.  A write at offset
 * 0 starts a new value (dropping what was held, with a log line); a write
 * at another offset that continues nothing is refused (-EINVAL).  A value
 * over CPLAN_PATTERN_MAX bytes ends at once, refused with -E2BIG.
 *
 * The cost of the rule: a value of exactly 512 * k bytes written without
 * a newline (busybox sysctl -w writes none) is held, not applied, until a
 * newline follows; echo, printf '%s\n' and procps sysctl add one.
 *
 * One value is held at a time, for cpu_pattern only (a count fits in one
 * write): at most CPLAN_PATTERN_MAX + 1 bytes are kept.
 */
#define CPTK_PIECE	512

struct cptk_pending {
	pid_t tgid;
	size_t len;			/* bytes written, kept or not */
	char buf[CPLAN_PATTERN_MAX + 1];	/* the longest value and a newline */
};
static struct cptk_pending cptk_pending;
static DEFINE_MUTEX(cptk_pending_lock);

/* Under cptk_pending_lock. */
static void cptk_pending_drop(void)
{
	if (cptk_pending.len)
		pr_info("cpu_pattern: %zu bytes written without an end (a newline) dropped\n",
			cptk_pending.len);
	cptk_pending.len = 0;
}

/*
 * Add the piece at @buffer to the value held; whether the value ends with
 * it.  Under cptk_pending_lock, after the offset was checked.
 */
static bool cptk_pending_add(const char *buffer, size_t len)
{
	size_t kept = min(cptk_pending.len, sizeof(cptk_pending.buf));

	memcpy(cptk_pending.buf + kept, buffer,
	       min(len, sizeof(cptk_pending.buf) - kept));
	cptk_pending.len += len;
	cptk_pending.tgid = task_tgid_nr(current);
	if (cptk_pending.len > sizeof(cptk_pending.buf))
		return true;	/* too long already: refuse it now */
	return (len && buffer[len - 1] == '\n') || len % CPTK_PIECE;
}

/* Plan the value held, and forget it. */
static int cptk_pending_apply(void)
{
	size_t vlen;
	char *val;
	int ret;

	if (cptk_pending.len > sizeof(cptk_pending.buf)) {
		/* Enough of it for the parser's -E2BIG and message. */
		vlen = sizeof(cptk_pending.buf);
		val = kmemdup_nul(cptk_pending.buf, vlen, GFP_KERNEL);
	} else {
		val = cptk_proc_value(cptk_pending.buf, cptk_pending.len,
				     CPLAN_PATTERN_MAX, &vlen);
	}
	cptk_pending.len = 0;
	if (!val)
		return -ENOMEM;
	/* The parser would stop at a NUL and plan from half the value. */
	if (strlen(val) != vlen) {
		pr_err("cpu_pattern: NUL byte at offset %zu\n", strlen(val));
		ret = -EINVAL;
	} else {
		ret = cptk_live_replan(NULL, val, NULL);
	}
	kfree(val);
	return ret;
}

static int cptk_proc_set_pattern(const void *buffer, size_t *lenp,
				loff_t *ppos)
{
	int ret;

	ret = cptk_proc_may_write();
	if (ret)
		return ret;
	mutex_lock(&cptk_pending_lock);
	if (!*ppos) {
		cptk_pending_drop();
	} else if (*ppos != cptk_pending.len ||
		   cptk_pending.tgid != task_tgid_nr(current)) {
		cptk_log_offset("cpu_pattern", *ppos);
		ret = -EINVAL;
		goto unlock;
	}
	if (cptk_pending_add(buffer, *lenp))
		ret = cptk_pending_apply();
	if (!ret)
		*ppos += *lenp;
unlock:
	mutex_unlock(&cptk_pending_lock);
	return ret;
}

static int cptk_proc_pattern(CPTK_CTL_CONST struct ctl_table *ctl, int write,
			    void *buffer, size_t *lenp, loff_t *ppos)
{
	if (write)
		return cptk_proc_set_pattern(buffer, lenp, ppos);
	return cptk_proc_read(CPTK_TEXT_PATTERN, buffer, lenp, ppos);
}

static struct ctl_table cptk_sysctl_table[] = {
	{ .procname = "cpu_partition_table", .mode = 0444, .proc_handler = cptk_proc_table },
	{ .procname = "cpu_partition_distance", .mode = 0444, .proc_handler = cptk_proc_distance },
	{ .procname = "cpu_npartitions", .mode = 0644, .proc_handler = cptk_proc_npartitions },
	{ .procname = "cpu_pattern", .mode = 0644, .proc_handler = cptk_proc_pattern },
	{ .procname = "include_isolated", .mode = 0644, .proc_handler = cptk_proc_include_isolated },
	CPTK_CTL_SENTINEL
};

static struct ctl_table_header *cptk_sysctl_header;

/*
 * Another module's /proc/sys/lnet.  Lustre 2.10's libcfs registers
 * cpu_partition_table and cpu_partition_distance there itself (2.11 and
 * later use debugfs), and register_sysctl() must not be asked to add a
 * name that exists: it refuses the table, but its error path unlinks the
 * entries it never inserted too, which empties the directory's tree: the
 * other module's files vanish from /proc/sys/lnet while it still holds
 * them (tests/vm/guest-lustre.sh shows it on 6.1, 6.12 and 7.3: mainline's
 * erase_header() still walks every entry), and 6.1 dumps the stack.  So
 * the names are looked up first, and an existing one fails the load
 * before anything is registered.
 *
 * The names are looked up under /proc/sys/lnet in the loading process's
 * file system (kern_path(): the one lookup interface that every kernel
 * cpt builds for has in the same form).  Where that process has no procfs
 * at /proc (no /proc/sys/kernel), nothing can be seen, and the table is
 * registered without looking.  A module that registers the same names
 * between the lookup and register_sysctl() is not seen either: the
 * sysctl core then refuses the table, as above.
 *
 * Returns the first name of ours that exists, or NULL.
 */
static const char *cptk_sysctl_taken(void)
{
	char name[64];
	struct path path;
	size_t i;

	if (kern_path("/proc/sys/kernel", LOOKUP_DIRECTORY, &path))
		return NULL;
	path_put(&path);
	for (i = 0; i < ARRAY_SIZE(cptk_sysctl_table); i++) {
		const char *procname = cptk_sysctl_table[i].procname;

		if (!procname)
			break;	/* the sentinel, where there is one */
		snprintf(name, sizeof(name), "/proc/sys/lnet/%s", procname);
		if (!kern_path(name, 0, &path)) {
			path_put(&path);
			return procname;
		}
	}
	return NULL;
}

/**
 * cptk_sysctl_register() - create the /proc/sys/lnet files
 *
 * Call once a table is in force: the files are usable at once.  Logs one
 * line when it fails.
 *
 * Return: 0; -EBUSY when a file of ours exists already (another module's,
 * as Lustre 2.10's libcfs), nothing registered; -ENOMEM when the sysctl
 * core refused the table (it says why in the log).  Not -EEXIST: from a
 * module's init, that means "already loaded" to modprobe, which would
 * then report success, and newer kernels replace it with -EBUSY and a
 * warning.
 */
int cptk_sysctl_register(void)
{
	const char *taken = cptk_sysctl_taken();

	if (taken) {
		pr_err("/proc/sys/lnet/%s belongs to another module (Lustre 2.10's libcfs?): unload it first\n",
		       taken);
		return -EBUSY;
	}
	cptk_sysctl_header = register_sysctl("lnet", cptk_sysctl_table);
	if (!cptk_sysctl_header) {
		pr_err("cannot register /proc/sys/lnet (the line above says why)\n");
		return -ENOMEM;
	}
	return 0;
}

/* Remove the files; returns after the last reader or writer has left. */
void cptk_sysctl_unregister(void)
{
	unregister_sysctl_table(cptk_sysctl_header);
	cptk_sysctl_header = NULL;
}
