#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The memory held for texts with the largest table QEMU lets us boot: 240
# partitions of 240 CPUs (a 0.3 MB distance file), in one boot of
#   scripts/vm-run --smp 240,sockets=2,dies=2,cores=30,threads=2 \
#       --nodes '0-119;120-239' --dist 0-1=21
# Not in make check (the boot alone takes minutes on a 2-core host):
#   make test-live LIVE_KERNELS=6.1 LIVE_SCENARIOS=bigmem
#
# LIVE_MEM_CYCLES (default 100 here) replacements.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

section "load on $(ncpus) CPUs"
check "insmod cpt.ko" insmod cpt.ko
texts_memory "${LIVE_MEM_CYCLES:-100}"
check "rmmod cpt" rmmod cpt
finish
