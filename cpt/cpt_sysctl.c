// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/sys/lnet/cpu_partition_table and cpu_partition_distance, the files
 * Lustre's libcfs provides, read-only.
 *
 * Each read measures the text, renders it into a buffer of the exact size
 * needed (up to the end of the piece asked for) and copies out the piece at
 * *ppos.  The table cannot change while it is installed, so the pieces of a
 * read split over several calls (cat, dd bs=1, a seek) fit together; there
 * is no size limit such as a page.
 */
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysctl.h>

#include "cpt_compat.h"
#include "cpt_glue.h"

/* Copy bytes [*ppos, *ppos + *lenp) of the rendered text to @buffer. */
static int cpt_proc_read(size_t (*format)(const struct cpt_table *table,
					  char *buf, size_t size),
			 int write, void *buffer, size_t *lenp, loff_t *ppos)
{
	const struct cpt_state *state = cpt_state_get();
	size_t len, n, end;
	char *text;

	if (write)
		return -EPERM;
	if (!state)
		return -ENODEV;
	if (*ppos < 0)
		return -EINVAL;

	len = format(state->table, NULL, 0);
	if (*ppos >= len || !*lenp) {
		*lenp = 0;
		return 0;
	}
	n = min_t(size_t, *lenp, len - *ppos);
	end = *ppos + n;

	/*
	 * Render up to the end of the piece asked for: the formatter
	 * truncates like snprintf, so a read near the start of a big file
	 * does not need a buffer for all of it.
	 */
	text = kvmalloc(end + 1, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	format(state->table, text, end + 1);
	memcpy(buffer, text + *ppos, n);
	kvfree(text);

	*lenp = n;
	*ppos += n;
	return 0;
}

static int cpt_proc_table(CPT_CTL_CONST struct ctl_table *ctl, int write,
			  void *buffer, size_t *lenp, loff_t *ppos)
{
	return cpt_proc_read(cpt_format_table, write, buffer, lenp, ppos);
}

static int cpt_proc_distance(CPT_CTL_CONST struct ctl_table *ctl, int write,
			     void *buffer, size_t *lenp, loff_t *ppos)
{
	return cpt_proc_read(cpt_format_distance, write, buffer, lenp, ppos);
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
	CPT_CTL_SENTINEL
};

static struct ctl_table_header *cpt_sysctl_header;

/**
 * cpt_sysctl_register() - create the /proc/sys/lnet files
 *
 * Call once a state is installed: the files are readable at once.
 *
 * Return: 0, or -ENOMEM when the sysctl core refused the table (it says why
 * in the log; typically the files exist already, as when libcfs is loaded).
 */
int cpt_sysctl_register(void)
{
	cpt_sysctl_header = register_sysctl("lnet", cpt_sysctl_table);
	return cpt_sysctl_header ? 0 : -ENOMEM;
}

/* Remove the files; returns after the last reader has left the handler. */
void cpt_sysctl_unregister(void)
{
	unregister_sysctl_table(cpt_sysctl_header);
	cpt_sysctl_header = NULL;
}
