/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace topology readers for cpt-plan and the tool tests: build a
 * struct cplan_topo (cpt/core/cplan.h) from a sysfs tree laid out like the
 * kernel's (topo_sysfs.c), or from the parsable output of `lscpu -p`
 * (topo_lscpu.c).  What only the two share is in topo_util.h.
 *
 * Keys are normalised so that both readers describe the same machine the
 * same way: the core key of a CPU is the lowest CPU id among its SMT
 * siblings and the L3 key is the lowest CPU id sharing its L3 (CPLAN_NONE when
 * unknown).  The package key is the raw socket / physical_package_id.
 */
#ifndef CPT_TOPO_READ_H
#define CPT_TOPO_READ_H

#include <stddef.h>
#include <stdio.h>

#include "cplan.h"

/* Sanity limits on ids read from files (the kernel's are lower). */
#define TOPO_MAX_CPUS	(1 << 20)
#define TOPO_MAX_NODES	4096

/*
 * Read the topology under the sysfs root @root ("/sys"; "/" works too: a
 * root without devices/system/cpu/online but with sys/devices/... is taken
 * as a filesystem root and its sys/ is read): the files
 * devices/system/cpu/{possible,online}, cpuN/topology/..., cpuN/cache/...,
 * devices/system/node/{possible,online}, nodeN/{cpulist,distance}, and
 * devices/system/cpu/{isolated,nohz_full} (optional), whose online CPUs
 * are flagged isolated (struct cplan_cpu), as the module leaves them out.
 * A siblings list, a package's CPU list (topology/package_cpus_list or
 * core_siblings_list) and an L3's shared_cpu_list are read once, for
 * the first CPU they name, and taken for every online CPU they name,
 * whose own files are not read; where the lists read disagree, every
 * CPU's own files are read (topo_sysfs.c, struct cpu_cover).
 * Returns 0 and stores a topology to free with cplan_topo_free(), or a
 * negative errno with a one-line message naming the file in @errbuf.
 */
int topo_read_sysfs(const char *root, struct cplan_topo **out, char *errbuf,
		    size_t errlen);

/*
 * The sysfs directory that topo_read_sysfs() reads for @root (@root
 * itself, or @root/sys when @root is a filesystem root), malloc'd and
 * without a trailing '/'; NULL when out of memory.  cpt-plan finds the
 * network interfaces there (class/net).
 */
char *topo_sysfs_dir(const char *root);

/*
 * Read `lscpu -p` output from @f; @name (the file name, "-" or "<stdin>")
 * is used in messages, which have the form "NAME:LINE: problem".  Columns
 * are found by the last "# CPU,..." header line.  Node distances are not in
 * lscpu output: they stay at the cplan_topo_alloc() defaults (10 / 20).
 */
int topo_read_lscpu(FILE *f, const char *name, struct cplan_topo **out,
		    char *errbuf, size_t errlen);

/*
 * Make exactly the online CPUs of the kernel-style list @list ("2-3,8",
 * "" for none) isolated, for cpt-plan --isolated.  Returns 0, or -EINVAL
 * (malformed), -ERANGE (a CPU past the topology's) or -ENOMEM with a
 * message in @errbuf; the flags are unchanged then.
 */
int topo_set_isolated(struct cplan_topo *topo, const char *list,
		      char *errbuf, size_t errlen);

#endif /* CPT_TOPO_READ_H */
