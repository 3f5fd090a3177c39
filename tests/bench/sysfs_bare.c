// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs-bare: the floor of `cpt-plan --sysfs`, for sysfs-bench.sh.  It
 * opens, reads and closes the files a --sysfs run opened, in its order,
 * and does nothing else: no parsing, no plan, no output.
 *
 *   sysfs-bare LIST CPUDIR
 *
 * LIST has one file a line, as sysfs-bench.sh writes it from strace:
 * "c NAME", NAME relative to CPUDIR (the tree's devices/system/cpu, which
 * cpt-plan opens once and opens the CPUs' files from), or "p PATH", PATH
 * opened as it is.  Each file is read as cpt-plan reads it
 * (scripts/topo_sysfs.c, sys_read_file()): into a 4096-byte buffer until
 * a read returns less than it asked.  A file that cannot be opened is
 * skipped, as cpt-plan's optional files are: the open was the cost.
 * Exits 0, or 2 when LIST or CPUDIR cannot be read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Open, read whole and close one file; an open that fails is no error. */
static void read_one(int dir, const char *name)
{
	char buf[4096];
	ssize_t n;
	int fd;

	fd = openat(dir, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while ((n < 0 && errno == EINTR) || n == (ssize_t)sizeof(buf) - 1);
	(void)close(fd);
}

int main(int argc, char **argv)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *list;
	int cpu_dir;

	if (argc != 3) {
		fprintf(stderr, "usage: sysfs-bare LIST CPUDIR\n");
		return 2;
	}
	list = fopen(argv[1], "re");
	if (!list) {
		fprintf(stderr, "sysfs-bare: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	cpu_dir = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cpu_dir < 0) {
		fprintf(stderr, "sysfs-bare: %s: %s\n", argv[2], strerror(errno));
		(void)fclose(list);
		return 2;
	}
	while ((len = getline(&line, &cap, list)) > 2) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		read_one(line[0] == 'c' ? cpu_dir : AT_FDCWD, line + 2);
	}
	free(line);
	(void)fclose(list);
	(void)close(cpu_dir);
	return 0;
}
