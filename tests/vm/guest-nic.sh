#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cpt-plan's site outputs on a real NIC (make test-nic), in one boot of
#   scripts/vm-run --smp 8,sockets=2,cores=2,threads=2 --nodes '0-3;4-7' \
#       --nic 1
# whose virtio-net NIC sits behind a PCI expander bridge on node 1.  With
# --npartitions 4 the plan is 0-1, 2-3 (node 0) and 4-5, 6-7 (node 1), the
# table test-percpt checks for this topology:
# - the kernel puts the NIC's PCI function on node 1, and cpt.ko agrees on
#   the table;
# - cpt-plan --emit lnet gives the NIC node 1's partitions, 2 and 3;
# - cpt-plan --emit irq gives each of its MSI-X IRQs one of those
#   partitions' CPU lists, round-robin; applied with the loop of
#   cpt-plan(8), each reads back its list, and each IRQ that fired since
#   (the queues', after a ping) has its effective CPU in its list.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

section "a virtio-net NIC on node 1"
# Its driver and what it needs, in order (scripts/install-deps).
while read -r m; do
	check "insmod $m" insmod "/cpt/nic/$m"
done </cpt/nic/order
nic=$(for d in /sys/class/net/*; do [ "${d##*/}" = lo ] || echo "${d##*/}"; done)
same "one NIC" "$nic" eth0
same "its PCI function is on node 1" "$(cat /sys/class/net/eth0/device/../numa_node)" 1
nirq=$(nfiles "/sys/class/net/eth0/device/../msi_irqs/*")
check "it has MSI-X IRQs ($nirq)" [ "$nirq" -ge 2 ]
check "insmod cpt.ko npartitions=4" insmod cpt.ko npartitions=4
same "cpt.ko: node 0 in 0-1 and 2-3, node 1 in 4-5 and 6-7" "$(table)" \
	"$(printf '0\t: 0 1\n1\t: 2 3\n2\t: 4 5\n3\t: 6 7')"

section "cpt-plan --emit lnet"
same "eth0 gets node 1's partitions" \
	"$(/cpt/cpt-plan --sysfs /sys --npartitions 4 --emit lnet --net tcp0:eth0)" \
	'options lnet networks="tcp0(eth0)[2-3]"'

section "cpt-plan --emit irq, applied"
/cpt/cpt-plan --sysfs /sys --npartitions 4 --emit irq --nic eth0 >/tmp/irq 2>/tmp/irq.err
check "cpt-plan --emit irq: no warning" [ ! -s /tmp/irq.err ]
# The IRQs in vector order are those of msi_irqs/, ascending; the lists
# alternate 4-5 and 6-7.
same "one line per IRQ, round-robin over 4-5 and 6-7" "$(cat /tmp/irq)" \
	"$(for d in /sys/class/net/eth0/device/../msi_irqs/*; do echo "${d##*/}"; done |
	   sort -n | awk '{ print $1, (NR % 2 ? "4-5" : "6-7") }')"
# irq_count IRQ: its interrupts so far, all CPUs.
irq_count() {
	awk -v irq="$1:" '$1 == irq { n = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i; print n }' /proc/interrupts
}
# The loop of cpt-plan(8).
while read -r irq cpus; do
	echo "$cpus" >"/proc/irq/$irq/smp_affinity_list"
	echo "$irq $(irq_count "$irq")" >>/tmp/irq.before
done </tmp/irq
# x86 moves an MSI at its next interrupt: some traffic (to QEMU's
# user-mode gateway, all that restrict=on lets the guest reach).
check "eth0 up" ip link set eth0 up
check "an address on it" ip addr add 10.0.2.15/24 dev eth0
check "ping the gateway" ping -c 3 -W 2 10.0.2.2
fired=0
while read -r irq cpus; do
	same "IRQ $irq: smp_affinity_list reads back $cpus" \
		"$(cat "/proc/irq/$irq/smp_affinity_list")" "$cpus"
	before=$(awk -v irq="$irq" '$1 == irq { print $2 }' /tmp/irq.before)
	[ "$(irq_count "$irq")" -gt "$before" ] || continue
	fired=$((fired + 1))
	eff=$(cat "/proc/irq/$irq/effective_affinity_list")
	in=no
	for c in $(expand "$cpus"); do
		[ "$c" = "$eff" ] && in=yes
	done
	same "IRQ $irq fired: its effective CPU ($eff) is one of $cpus" "$in" yes
done </tmp/irq
# The input and output queues' IRQs; the config IRQ fires only when the
# device's configuration changes.
check "at least 2 IRQs fired since the move ($fired)" [ "$fired" -ge 2 ]
check "rmmod cpt" rmmod cpt

finish
