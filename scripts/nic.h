/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Network interfaces in a sysfs tree, for cpt-plan --emit lnet, irq and
 * irqbalance: the NUMA node of the device under each interface and its
 * MSI/MSI-X IRQs.  A VLAN, bond or other virtual interface has no device
 * of its own that matters: it is served by the devices under it (its
 * lower_* links, followed down to the physical ones).
 */
#ifndef CPT_NIC_H
#define CPT_NIC_H

#include <stdbool.h>
#include <stddef.h>

/* Linux's IFNAMSIZ, with the NUL. */
#define NIC_NAME_MAX	16
/* Physical devices under one interface (a bond's slaves), at most. */
#define NIC_DEVS_MAX	16

/* One physical device under an interface. */
struct nic_dev {
	char name[NIC_NAME_MAX];	/* the interface it serves */
	int node;			/* its numa_node; -1: none */
	int *irqs;			/* its MSI IRQs, ascending */
	int nr_irqs;
};

struct nic {
	char name[NIC_NAME_MAX];
	int node_given;			/* --nic IF=NODE, or -1 */
	struct nic_dev dev[NIC_DEVS_MAX];
	int nr_devs;
};

/*
 * Read interface @nic->name under the sysfs directory @sysdir: the
 * devices its lower_* links lead to, or its own device, each with
 * device/numa_node and device/msi_irqs/.  Nodes must be below @nr_nodes.
 * Returns 0, or a negative errno with a one-line message in @err.
 */
int nic_read(const char *sysdir, struct nic *nic, int nr_nodes, char *err,
	     size_t errlen);

void nic_free(struct nic *nic);

/* Is @s a name cpt-plan takes for an interface (and Lustre parses)? */
bool nic_name_ok(const char *s);

#endif /* CPT_NIC_H */
