// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_REGISTER_SYSCTL: register_sysctl(path, table) (5.x), needed */
#include <linux/sysctl.h>

struct ctl_table_header *probe(void);
struct ctl_table_header *probe(void)
{
#ifdef CPTK_PROBE_CONTROL
	return NULL;
#else
	static struct ctl_table probe_table[] = { { } };

	return register_sysctl("probe", probe_table);
#endif
}
