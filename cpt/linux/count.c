// SPDX-License-Identifier: GPL-2.0
/*
 * The partition count, as given at load (npartitions=, cpu_npartitions=)
 * and as written to /proc/sys/lnet/cpu_npartitions, and the 0 or 1 of
 * include_isolated: one parser, so that load and write refuse the same
 * texts with the same log line.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/string.h>

#include "count.h"

/**
 * cptk_parse_count() - parse a partition count given at load or written
 * @val: the text, NUL-terminated
 * @len: its length as given (a NUL before it is an error)
 * @name: the parameter's name, for the log line
 * @count: the count, when the text is one
 *
 * Decimal only, like the numbers of cpu_pattern: "0x10", "010" and " 6"
 * are refused.  The range is the planner's to check.
 *
 * Return: 0, or -EINVAL / -ERANGE after one log line.
 */
int cptk_parse_count(const char *val, size_t len, const char *name, int *count)
{
	const char *digits, *why = "";
	int ret, n;

	if (strlen(val) != len) {
		pr_err("%s: NUL byte at offset %zu\n", name, strlen(val));
		return -EINVAL;
	}
	ret = kstrtoint(val, 10, &n);
	/* The kernel's int parameters, Lustre's among them, read 010 as 8. */
	digits = val + (*val == '-' || *val == '+');
	if (!ret && digits[0] == '0' && digits[1]) {
		why = ": no leading zeros (octal elsewhere)";
		ret = -EINVAL;
	}
	if (ret) {
		pr_err("`%*pE' invalid for parameter `%s'%s\n", (int)len, val,
		       name, why);
		return ret;
	}
	*count = n;
	return 0;
}

/**
 * cptk_parse_flag() - parse a 0 or 1 given at load or written
 * @val: the text, NUL-terminated
 * @len: its length as given
 * @name: the parameter's name, for the log line
 * @flag: the value, when the text is "0" or "1"
 *
 * Return: 0, or -EINVAL / -ERANGE after one log line.
 */
int cptk_parse_flag(const char *val, size_t len, const char *name, bool *flag)
{
	int ret, n;

	ret = cptk_parse_count(val, len, name, &n);
	if (ret)
		return ret;
	if (n != 0 && n != 1) {
		pr_err("%s=%d: 0 or 1 only\n", name, n);
		return -EINVAL;
	}
	*flag = n;
	return 0;
}
