// SPDX-License-Identifier: GPL-2.0
/*
 * Network interfaces in a sysfs tree (nic.h).  The kernel's layout:
 * class/net/IF links to the interface's directory, whose device/ links
 * to the PCI function (numa_node, msi_irqs/), or to a virtio device below
 * it (virtio-net); a virtual interface has no device/ but lower_LOWER
 * links to the interfaces it sits on.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nic.h"
#include "topo_util.h"

/* Lower links followed, at most: a loop of them must end. */
#define NIC_DEPTH_MAX	8

/* What one walk down the lower links needs. */
struct nic_walk {
	struct nic *nic;
	int nr_nodes;
	char *err;
	size_t errlen;
};

bool nic_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= NIC_NAME_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789_.-") == n;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The numeric entries of @dir (the IRQs of msi_irqs/), ascending. */
static int read_irqs(const char *dir, struct nic_dev *dev)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int cap = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		long v;

		if (!parse_dec(e->d_name, e->d_name + strlen(e->d_name),
			       1L << 30, &v))
			continue;
		if (dev->nr_irqs == cap) {
			int *ni = realloc(dev->irqs, sizeof(int) *
					  (size_t)(cap = cap ? 2 * cap : 16));

			if (!ni) {
				closedir(d);
				return -ENOMEM;
			}
			dev->irqs = ni;
		}
		dev->irqs[dev->nr_irqs++] = (int)v;
	}
	closedir(d);
	if (dev->nr_irqs)
		qsort(dev->irqs, (size_t)dev->nr_irqs, sizeof(int), cmp_int);
	return 0;
}

/*
 * The bus device of the interface at @path, as a path: device/, or its
 * parent when device/ has no numa_node (a virtio-net interface's device
 * is the virtio device, whose parent is the PCI function with the node
 * and the MSI IRQs).  NULL when out of memory.
 */
static char *dev_path(const char *path)
{
	char *dev = NULL, *file = NULL;
	bool here;

	if (asprintf(&file, "%s/device/numa_node", path) < 0)
		return NULL;
	here = access(file, F_OK) == 0;
	free(file);
	if (asprintf(&dev, here ? "%s/device" : "%s/device/..", path) < 0)
		return NULL;
	return dev;
}

/* numa_node of the device at @dev: the node, or -1 for none. */
static int read_node(struct nic_walk *w, const char *dev, int *node)
{
	char *file = NULL, buf[32];
	FILE *f;
	long v;

	*node = -1;
	if (asprintf(&file, "%s/numa_node", dev) < 0)
		return -ENOMEM;
	f = fopen(file, "r");
	if (!f) {
		free(file);
		return 0;	/* no device: no node */
	}
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	rstrip(buf);
	if (!strcmp(buf, "-1")) {
		free(file);
		return 0;
	}
	if (!parse_dec(buf, buf + strlen(buf), w->nr_nodes - 1, &v)) {
		set_err(w->err, w->errlen,
			"%s: '%.*s' is not a node of this topology (0-%d, or -1)",
			file, QUOTE_MAX, buf, w->nr_nodes - 1);
		free(file);
		return -EINVAL;
	}
	free(file);
	*node = (int)v;
	return 0;
}

/* The device under the interface at @path, as one more dev of the nic. */
static int add_dev(struct nic_walk *w, const char *path, const char *name)
{
	struct nic *nic = w->nic;
	struct nic_dev *dev;
	char *irqdir = NULL, *devdir;
	int ret;

	if (nic->nr_devs == NIC_DEVS_MAX) {
		set_err(w->err, w->errlen, "%s: more than %d devices below it",
			nic->name, NIC_DEVS_MAX);
		return -E2BIG;
	}
	dev = &nic->dev[nic->nr_devs++];
	memset(dev, 0, sizeof(*dev));
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	devdir = dev_path(path);
	if (!devdir)
		return -ENOMEM;
	ret = read_node(w, devdir, &dev->node);
	if (!ret && asprintf(&irqdir, "%s/msi_irqs", devdir) < 0)
		ret = -ENOMEM;
	free(devdir);
	if (ret)
		return ret;
	ret = read_irqs(irqdir, dev);
	if (ret && ret != -ENOMEM)
		set_err(w->err, w->errlen, "%s: cannot read: %s", irqdir,
			strerror(-ret));
	free(irqdir);
	return ret;
}

/* The directories still to walk, a stack: the next one on top. */
struct wstack {
	struct witem {
		char *path;
		const char *name;	/* in path: after "lower_", or the nic's */
		int depth;
	} *v;
	int n, cap;
};

/* Push @path (taken over: freed on failure too). */
static int wpush(struct wstack *st, char *path, size_t name_at, int depth)
{
	if (!path)
		return -ENOMEM;
	if (st->n == st->cap) {
		int cap = st->cap ? st->cap * 2 : 8;
		struct witem *v = realloc(st->v, (size_t)cap * sizeof(*v));

		if (!v) {
			free(path);
			return -ENOMEM;
		}
		st->v = v;
		st->cap = cap;
	}
	st->v[st->n++] = (struct witem){ path, path + name_at, depth };
	return 0;
}

/*
 * One directory: its lower_* links pushed so that they come off in the
 * order of their names, or, with none, its own device added.
 */
static int walk_one(struct nic_walk *w, struct wstack *st,
		    const struct witem *it)
{
	struct dirent **ents = NULL;
	int n, ret = 0, lowers = 0;

	if (it->depth > NIC_DEPTH_MAX) {
		set_err(w->err, w->errlen, "%s: lower_* links %d deep (a loop?)",
			w->nic->name, it->depth);
		return -ELOOP;
	}
	n = scandir(it->path, &ents, NULL, alphasort);
	if (n < 0) {
		set_err(w->err, w->errlen, "%s: cannot read: %s", it->path,
			strerror(errno));
		return -errno;
	}
	for (int i = n - 1; i >= 0; i--) {
		char *sub = NULL;

		if (!ret && !strncmp(ents[i]->d_name, "lower_", 6)) {
			lowers++;
			if (asprintf(&sub, "%s/%s", it->path, ents[i]->d_name) < 0)
				sub = NULL;
			ret = wpush(st, sub, strlen(it->path) + 1 + 6,
				    it->depth + 1);
		}
		free(ents[i]);
	}
	free(ents);
	if (!ret && !lowers)
		ret = add_dev(w, it->path, it->name);
	return ret;
}

/*
 * The interface at @path: the devices below its lower_* links (followed
 * down, depth first, in the order of their names), or its own device
 * when it has no such link.  A stack, not recursion: a loop of links
 * ends at NIC_DEPTH_MAX.
 */
static int walk(struct nic_walk *w, const char *path)
{
	struct wstack st = { 0 };
	char *top = strdup(path);
	int ret = wpush(&st, top, 0, 0);

	if (!ret)
		st.v[0].name = w->nic->name;
	while (!ret && st.n) {
		struct witem it = st.v[--st.n];

		ret = walk_one(w, &st, &it);
		free(it.path);
	}
	while (st.n)
		free(st.v[--st.n].path);
	free(st.v);
	return ret;
}

int nic_read(const char *sysdir, struct nic *nic, int nr_nodes, char *err,
	     size_t errlen)
{
	struct nic_walk w = { nic, nr_nodes, err, errlen };
	struct stat st;
	char *path = NULL;
	int ret;

	if (asprintf(&path, "%s/class/net/%s", sysdir, nic->name) < 0)
		return -ENOMEM;
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		set_err(err, errlen, "interface %s: not found (no %s)",
			nic->name, path);
		free(path);
		return -ENOENT;
	}
	ret = walk(&w, path);
	free(path);
	if (ret == -ENOMEM)
		set_err(err, errlen, "out of memory");
	return ret;
}

void nic_free(struct nic *nic)
{
	for (int i = 0; i < nic->nr_devs; i++) {
		free(nic->dev[i].irqs);
		nic->dev[i].irqs = NULL;
	}
	nic->nr_devs = 0;
}
