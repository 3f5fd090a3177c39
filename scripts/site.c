// SPDX-License-Identifier: GPL-2.0
/*
 * cpt-plan --emit lnet, irq and irqbalance (site.h).
 *
 * An interface is local to the nodes of the devices under it; its local
 * partitions are those with CPUs on one of these nodes, or, when no
 * partition has (a memory-only node, a node whose CPUs are all
 * isolated), those of the nearest nodes that have partitions.
 *
 * The networks= value follows lnet_parse_networks() (lnet/lnet/config.c):
 * NET(IF)[CPTS] for a network of one interface, which every Lustre
 * since 2.3 parses, and NET(IF1[CPTS1],IF2[CPTS2]) for several, the
 * per-interface form of the Multi-Rail parser (2.10 and later).  CPTS
 * is libcfs's expression list: "0-3,8".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nic.h"
#include "out.h"
#include "site.h"
#include "topo_util.h"

/* A module parameter's value: the kernel's charp takes 1024 bytes. */
#define LNET_NETWORKS_MAX	1024
/* Interfaces in one run: every --nic and every interface of a --net. */
#define SITE_NICS_MAX	(SITE_ARGS_MAX * 4)

struct site {
	const struct site_opts *so;
	const struct cplan_topo *topo;
	const struct cplan_table *table;
	struct nic *nic;
	int nr_nic;
	bool *nodes;		/* [nr_nodes] scratch */
	int *ids;		/* [nr_cpus + 1] scratch */
	int *parts;		/* [nr_parts + 1] scratch */
};

static bool net_name_ok(const char *s, size_t n)
{
	if (!n || n >= NIC_NAME_MAX || s[0] < 'a' || s[0] > 'z')
		return false;
	if ((n == 2 || n == 3) && !strncmp(s, "lo", 2) &&
	    (n == 2 || s[2] == '0'))
		return false;	/* the loopback network is implicit */
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* The next interface name of a comma list into @name; false if bad. */
static bool next_if(const char **p, char *name)
{
	size_t n = strcspn(*p, ",");

	if (!n || n >= NIC_NAME_MAX)
		return false;
	memcpy(name, *p, n);
	name[n] = '\0';
	*p += n + ((*p)[n] == ',');
	return nic_name_ok(name) && ((*p)[-1] != ',' || **p);
}

bool site_arg_ok(const char *arg, bool nic)
{
	const char *colon = strchr(arg, nic ? '=' : ':');
	char name[NIC_NAME_MAX];
	long v;

	if (nic) {
		if (!colon)
			return nic_name_ok(arg);
		if ((size_t)(colon - arg) >= NIC_NAME_MAX)
			return false;
		memcpy(name, arg, (size_t)(colon - arg));
		name[colon - arg] = '\0';
		return nic_name_ok(name) &&
		       parse_dec(colon + 1, colon + strlen(colon), 1 << 20, &v);
	}
	if (!colon || !net_name_ok(arg, (size_t)(colon - arg)))
		return false;
	for (const char *p = colon + 1; *p;)
		if (!next_if(&p, name))
			return false;
	return colon[1] != '\0';
}

/* The interface named @name, added when new; NULL when too many. */
static struct nic *nic_get(struct site *s, const char *name, bool *added)
{
	*added = false;
	for (int i = 0; i < s->nr_nic; i++)
		if (!strcmp(s->nic[i].name, name))
			return &s->nic[i];
	if (s->nr_nic == SITE_NICS_MAX)
		return NULL;
	*added = true;
	memset(&s->nic[s->nr_nic], 0, sizeof(s->nic[0]));
	snprintf(s->nic[s->nr_nic].name, NIC_NAME_MAX, "%s", name);
	s->nic[s->nr_nic].node_given = -1;
	return &s->nic[s->nr_nic++];
}

/* A --nic IF=NODE: the node must be an online node of the topology. */
static int take_nic_arg(struct site *s, const char *arg)
{
	char name[NIC_NAME_MAX];
	size_t n = strcspn(arg, "=");
	struct nic *nic;
	bool added;

	snprintf(name, sizeof(name), "%.*s", (int)n, arg);
	nic = nic_get(s, name, &added);
	if (!nic || !added) {
		fprintf(stderr, PROG ": --nic %s: %s\n", arg,
			nic ? "interface given twice" : "too many interfaces");
		return EXIT_USAGE;
	}
	if (!arg[n])
		return 0;
	nic->node_given = (int)strtol(arg + n + 1, NULL, 10);
	if (nic->node_given >= s->topo->nr_nodes ||
	    !s->topo->node_online[nic->node_given]) {
		fprintf(stderr, PROG ": --nic %s: node %d is not an online node of this topology (0-%d)\n",
			arg, nic->node_given, s->topo->nr_nodes - 1);
		return EXIT_PLAN;
	}
	return 0;
}

/*
 * Lustre refuses a network named twice in networks= ("Duplicate net") and
 * an interface twice in one network: both are refused here.
 */
static bool net_twice(const struct site *s, int i)
{
	const char *a = s->so->net[i], *p = strchr(a, ':') + 1;
	size_t n = (size_t)(p - a);
	char name[NIC_NAME_MAX], other[NIC_NAME_MAX];

	for (int j = 0; j < i; j++)
		if (!strncmp(s->so->net[j], a, n)) {
			fprintf(stderr, PROG ": --net %.*s given twice: give all its interfaces in one --net NET:IF,IF...\n",
				(int)n - 1, a);
			return true;
		}
	while (*p && next_if(&p, name))
		for (const char *q = p; *q && next_if(&q, other);)
			if (!strcmp(name, other)) {
				fprintf(stderr, PROG ": --net %s: interface %s given twice\n",
					a, name);
				return true;
			}
	return false;
}

/* The interfaces of the --net options, after those of --nic. */
static int take_net_ifs(struct site *s)
{
	char name[NIC_NAME_MAX];
	bool added;

	for (int i = 0; i < s->so->nr_net; i++) {
		const char *p = strchr(s->so->net[i], ':') + 1;

		if (net_twice(s, i))
			return EXIT_USAGE;
		while (*p && next_if(&p, name)) {
			if (!nic_get(s, name, &added)) {
				fprintf(stderr, PROG ": --net %s: too many interfaces\n",
					s->so->net[i]);
				return EXIT_USAGE;
			}
		}
	}
	return 0;
}

/* Read from sysfs what the emitted lines need of each interface. */
static int read_nics(struct site *s, bool need_irqs)
{
	char err[512] = "";

	for (int i = 0; i < s->nr_nic; i++) {
		struct nic *nic = &s->nic[i];
		int ret;

		if (!need_irqs && nic->node_given >= 0)
			continue;
		if (!s->so->sysdir) {
			fprintf(stderr, PROG ": interface %s: %s\n", nic->name,
				need_irqs ? "its IRQs are in a sysfs tree: plan with --sysfs" :
				"--lscpu input has no interfaces: give its node with --nic IF=NODE");
			return EXIT_USAGE;
		}
		ret = nic_read(s->so->sysdir, nic, s->topo->nr_nodes, err,
			       sizeof(err));
		if (ret) {
			fprintf(stderr, PROG ": %s\n", err);
			return ret == -ENOMEM ? EXIT_PLAN : EXIT_INPUT;
		}
	}
	return 0;
}

/* Does partition @p have a CPU on a node of s->nodes? */
static bool part_on_nodes(const struct site *s, int p)
{
	const struct cplan_table *t = s->table;

	for (int k = t->part_node_first[p]; k < t->part_node_first[p + 1]; k++)
		if (s->nodes[t->part_node[k]])
			return true;
	return false;
}

/* The partitions on s->nodes into s->parts, ascending; their number. */
static int parts_on_nodes(struct site *s)
{
	int n = 0;

	for (int p = 0; p < s->table->nr_parts; p++)
		if (part_on_nodes(s, p) && listed_cpus(s->topo, s->table, p, s->ids))
			s->parts[n++] = p;
	return n;
}

/* Replace s->nodes by the nearest nodes that hold a partition. */
static void nearest_nodes(struct site *s)
{
	const struct cplan_topo *topo = s->topo;
	int nr = topo->nr_nodes, best = -1;
	int *dist = calloc((size_t)nr, sizeof(int));

	if (!dist)
		return;
	for (int m = 0; m < nr; m++) {
		dist[m] = -1;
		if (s->table->node_part[m] == CPLAN_NONE)
			continue;
		for (int n = 0; n < nr; n++) {
			int d = cplan_node_distance(topo->distance, nr, n, m);

			if (s->nodes[n] && (dist[m] < 0 || d < dist[m]))
				dist[m] = d;
		}
		if (dist[m] >= 0 && (best < 0 || dist[m] < best))
			best = dist[m];
	}
	for (int m = 0; m < nr; m++)
		s->nodes[m] = best >= 0 && dist[m] == best;
	free(dist);
}

/* The local partitions of the nodes in s->nodes, into s->parts. */
static int local_parts(struct site *s, const char *name)
{
	int n = parts_on_nodes(s);

	if (n)
		return n;
	fprintf(stderr, PROG ": warning: %s: no partition has CPUs on its node: the nearest node's partitions serve it\n",
		name);
	nearest_nodes(s);
	return parts_on_nodes(s);
}

/* s->nodes := the nodes of @nic; false (and a warning) when it has none. */
static bool nic_nodes(struct site *s, const struct nic *nic)
{
	bool any = false;

	memset(s->nodes, 0, sizeof(bool) * (size_t)s->topo->nr_nodes);
	if (nic->node_given >= 0) {
		s->nodes[nic->node_given] = true;
		return true;
	}
	for (int d = 0; d < nic->nr_devs; d++) {
		if (nic->dev[d].node >= 0) {
			s->nodes[nic->dev[d].node] = any = true;
			continue;
		}
		fprintf(stderr, PROG ": warning: %s: no NUMA node (device/numa_node is -1, or no device)%s\n",
			nic->dev[d].name, strcmp(nic->dev[d].name, nic->name) ?
			"" : ": no partition list for it");
	}
	return any;
}

static struct nic *nic_find(struct site *s, const char *name)
{
	for (int i = 0; i < s->nr_nic; i++)
		if (!strcmp(s->nic[i].name, name))
			return &s->nic[i];
	return NULL;
}

/*
 * The local partitions of interface @name into s->parts (none: no list),
 * its own nodes appended to @nodes_js as JSON numbers.
 */
static int iface_parts(struct site *s, const char *name,
		       struct sbuf *nodes_js)
{
	int nn = 0;

	if (!nic_nodes(s, nic_find(s, name)))
		return 0;
	for (int n = 0; n < s->topo->nr_nodes; n++)
		if (s->nodes[n])
			sb_printf(nodes_js, "%s%d", nn++ ? ", " : "", n);
	return local_parts(s, name);
}

/* One interface in the networks= value: "IF" or "IF[CPTS]". */
static void put_iface(struct site *s, struct sbuf *v, const char *name,
		      int np, bool alone)
{
	sb_printf(v, "%s%s", name, alone ? ")" : "");
	if (np) {
		sb_printf(v, "[");
		sb_list(v, s->parts, np);
		sb_printf(v, "]");
	}
}

/* One --net as NET(IF)[CPTS] or NET(IF1[CPTS],IF2...), and its JSON. */
static void put_net(struct site *s, const char *arg, struct sbuf *v,
		    struct sbuf *js)
{
	const char *colon = strchr(arg, ':'), *p = colon + 1;
	bool alone = !strchr(p, ',');
	char name[NIC_NAME_MAX];

	sb_printf(v, "%s%.*s(", v->len ? "," : "", (int)(colon - arg), arg);
	sb_printf(js, "%s{\"net\": \"%.*s\", \"interfaces\": [",
		  js->len ? ", " : "", (int)(colon - arg), arg);
	for (int k = 0; *p && next_if(&p, name); k++) {
		struct sbuf nodes = { 0 };
		int np = iface_parts(s, name, &nodes);

		if (k)
			sb_printf(v, ",");
		put_iface(s, v, name, np, alone);
		sb_printf(js, "%s{\"name\": \"%s\", \"nodes\": [%s], \"cpts\": [",
			  k ? ", " : "", name, sb_str(&nodes));
		js->oom |= nodes.oom;
		free(nodes.s);
		for (int i = 0; i < np; i++)
			sb_printf(js, "%s%d", i ? ", " : "", s->parts[i]);
		sb_printf(js, "]}");
	}
	if (!alone)
		sb_printf(v, ")");
	sb_printf(js, "]}");
}

static int emit_lnet(FILE *out, struct site *s)
{
	struct sbuf v = { 0 }, js = { 0 };
	int ret = 0;

	for (int i = 0; i < s->so->nr_net; i++)
		put_net(s, s->so->net[i], &v, &js);
	if (v.oom || js.oom) {
		fprintf(stderr, PROG ": out of memory\n");
		ret = EXIT_PLAN;
	} else if (v.len > LNET_NETWORKS_MAX) {
		fprintf(stderr, PROG ": the networks value would be %zu bytes, over the %d a module parameter takes\n",
			v.len, LNET_NETWORKS_MAX);
		ret = EXIT_PLAN;
	} else if (s->so->json) {
		fputs("{\"options\": ", out);
		fprintf(out, "\"options lnet networks=\\\"%s\\\"\"", sb_str(&v));
		fprintf(out, ", \"networks\": [%s]}\n", sb_str(&js));
	} else {
		fprintf(out, "options lnet networks=\"%s\"\n", sb_str(&v));
	}
	free(v.s);
	free(js.s);
	return ret;
}

/* Was @irq placed before, by an earlier interface of the command line? */
static bool irq_seen(const struct site *s, int upto, int d_upto, int irq)
{
	for (int i = 0; i <= upto; i++)
		for (int d = 0; d < (i < upto ? s->nic[i].nr_devs : d_upto); d++)
			for (int k = 0; k < s->nic[i].dev[d].nr_irqs; k++)
				if (s->nic[i].dev[d].irqs[k] == irq)
					return true;
	return false;
}

/* The local partitions of one device (all of them when it has no node). */
static int dev_parts(struct site *s, const struct nic *nic,
		     const struct nic_dev *dev)
{
	int node = nic->node_given >= 0 ? nic->node_given : dev->node;

	memset(s->nodes, 0, sizeof(bool) * (size_t)s->topo->nr_nodes);
	if (node >= 0) {
		s->nodes[node] = true;
		return local_parts(s, dev->name);
	}
	fprintf(stderr, PROG ": warning: %s: no NUMA node (device/numa_node is -1): its IRQs go round all partitions\n",
		dev->name);
	for (int n = 0; n < s->topo->nr_nodes; n++)
		s->nodes[n] = true;
	return parts_on_nodes(s);
}

/* The IRQ lines of one device: vector i on local partition i mod n. */
static void irq_lines(FILE *out, struct site *s, int i, int d, bool *first)
{
	const struct nic_dev *dev = &s->nic[i].dev[d];
	int np = dev_parts(s, &s->nic[i], dev);

	for (int k = 0, j = 0; np && k < dev->nr_irqs; k++) {
		int p = s->parts[j % np];
		int nc = listed_cpus(s->topo, s->table, p, s->ids);
		struct sbuf cl = { 0 };

		if (irq_seen(s, i, d, dev->irqs[k]))
			continue;
		j++;
		sb_list(&cl, s->ids, nc);
		if (!s->so->json) {
			fprintf(out, "%d %s\n", dev->irqs[k], sb_str(&cl));
		} else {
			fprintf(out, "%s\n  {\"irq\": %d, \"interface\": ",
				*first ? "" : ",", dev->irqs[k]);
			json_str(out, s->nic[i].name);
			fputs(", \"device\": ", out);
			json_str(out, dev->name);
			fprintf(out, ", \"cpt\": %d, \"cpus\": ", p);
			json_ints(out, s->ids, nc);
			fprintf(out, ", \"cpulist\": \"%s\"}", sb_str(&cl));
			*first = false;
		}
		free(cl.s);
	}
}

/* Every interface given must have IRQs: one line for the first without. */
static int check_irqs(const struct site *s)
{
	for (int i = 0; i < s->nr_nic; i++) {
		int n = 0;

		for (int d = 0; d < s->nic[i].nr_devs; d++)
			n += s->nic[i].dev[d].nr_irqs;
		if (!n) {
			fprintf(stderr, PROG ": interface %s: no MSI IRQs (device/msi_irqs/ of it or of the devices below it)\n",
				s->nic[i].name);
			return EXIT_INPUT;
		}
	}
	return 0;
}

static int emit_irq(FILE *out, struct site *s)
{
	bool first = true;
	int ret = check_irqs(s);

	if (ret)
		return ret;
	if (s->so->json)
		fputs("{\"irqs\": [", out);
	for (int i = 0; i < s->nr_nic; i++)
		for (int d = 0; d < s->nic[i].nr_devs; d++)
			irq_lines(out, s, i, d, &first);
	if (s->so->json)
		fputs("\n]}\n", out);
	return 0;
}

/* The IRQs of all the interfaces given, each once, as --banirq= options. */
static void ban_irqs(struct site *s, struct sbuf *args, struct sbuf *list)
{
	for (int i = 0; i < s->nr_nic; i++)
		for (int d = 0; d < s->nic[i].nr_devs; d++)
			for (int k = 0; k < s->nic[i].dev[d].nr_irqs; k++) {
				int irq = s->nic[i].dev[d].irqs[k];

				if (irq_seen(s, i, d, irq))
					continue;
				sb_printf(args, "%s--banirq=%d",
					  args->len ? " " : "", irq);
				sb_printf(list, "%s%d", list->len ? ", " : "",
					  irq);
			}
}

static int emit_irqbalance(FILE *out, struct site *s)
{
	struct sbuf args = { 0 }, list = { 0 }, iso = { 0 };
	int n = 0, ret = check_irqs(s);

	if (ret)
		return ret;
	ban_irqs(s, &args, &list);
	for (int c = 0; c < s->topo->nr_cpus; c++)
		if (s->topo->cpu[c].online && s->topo->cpu[c].isolated)
			s->ids[n++] = c;
	sb_list(&iso, s->ids, n);
	if (args.oom || list.oom || iso.oom) {
		fprintf(stderr, PROG ": out of memory\n");
		ret = EXIT_PLAN;
	} else if (s->so->json) {
		fprintf(out, "{\"banirq\": [%s], \"banned_cpulist\": \"%s\", \"lines\": [\"IRQBALANCE_ARGS=\\\"%s\\\"\"",
			sb_str(&list), sb_str(&iso), sb_str(&args));
		if (n)
			fprintf(out, ", \"IRQBALANCE_BANNED_CPULIST=%s\"", sb_str(&iso));
		fputs("]}\n", out);
	} else {
		fprintf(out, "IRQBALANCE_ARGS=\"%s\"\n", sb_str(&args));
		if (n)
			fprintf(out, "IRQBALANCE_BANNED_CPULIST=%s\n", sb_str(&iso));
	}
	free(args.s);
	free(list.s);
	free(iso.s);
	return ret;
}

/* The interfaces of the options, read.  Returns 0 or an exit status. */
static int site_take(struct site *s, bool lnet)
{
	int ret = 0;

	for (int i = 0; !ret && i < s->so->nr_nic; i++)
		ret = take_nic_arg(s, s->so->nic[i]);
	if (!ret && lnet)
		ret = take_net_ifs(s);
	if (!ret)
		ret = read_nics(s, !lnet);
	return ret;
}

int site_emit(FILE *out, const char *what, const struct site_opts *so,
	      const struct cplan_topo *topo, const struct cplan_table *table)
{
	struct site s = { so, topo, table, NULL, 0, NULL, NULL, NULL };
	bool lnet = !strcmp(what, "lnet");
	int ret = EXIT_PLAN;

	s.nic = calloc((size_t)SITE_NICS_MAX, sizeof(*s.nic));
	s.nodes = calloc((size_t)topo->nr_nodes + 1, sizeof(bool));
	s.ids = calloc((size_t)topo->nr_cpus + 1, sizeof(int));
	s.parts = calloc((size_t)table->nr_parts + 1, sizeof(int));
	if (!s.nic || !s.nodes || !s.ids || !s.parts)
		fprintf(stderr, PROG ": out of memory\n");
	else
		ret = site_take(&s, lnet);
	if (!ret && lnet)
		ret = emit_lnet(out, &s);
	else if (!ret && !strcmp(what, "irq"))
		ret = emit_irq(out, &s);
	else if (!ret)
		ret = emit_irqbalance(out, &s);
	for (int i = 0; s.nic && i < s.nr_nic; i++)
		nic_free(&s.nic[i]);
	free(s.nic);
	free(s.nodes);
	free(s.ids);
	free(s.parts);
	return ret;
}
