// SPDX-License-Identifier: GPL-2.0
/*
 * cpt_ro_write: a consumer that writes cpt_cpu_partition, whose member
 * cpt.h declares const for every module but cpt's own writer.  make
 * test-kbuild builds it once per write below (tests/kbuild/ro-write.sh):
 * each build must fail, the member writes on read-only errors alone; and
 * once with no write, when it only reads through cpt_current(), which must
 * build, so that the failures are the writes' and nothing else's.
 */
#include <linux/module.h>
#include <linux/percpu.h>

#include "cpt.h"

static int __init cpt_ro_write_init(void)
{
#ifdef CPT_RO_THIS_CPU_WRITE
	this_cpu_write(cpt_cpu_partition.cpt, 1);
#endif
#ifdef CPT_RO_PER_CPU_WRITE
	per_cpu(cpt_cpu_partition, 0).cpt = 1;
#endif
#ifdef CPT_RO_WHOLE_WRITE
	this_cpu_write(cpt_cpu_partition, 1);
#endif
	return cpt_current() < 0 ? -EINVAL : 0;
}

static void __exit cpt_ro_write_exit(void)
{
}

module_init(cpt_ro_write_init);
module_exit(cpt_ro_write_exit);
MODULE_LICENSE("GPL");
CPT_IMPORT_NS;
MODULE_DESCRIPTION("cpt test: a consumer writing cpt_cpu_partition must not build");
