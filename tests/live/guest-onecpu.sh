#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel alone, with cpt.ko never loaded, in one boot of
#   scripts/vm-run --smp 8,sockets=1,cores=8,threads=1 \
#       --append 'slub_debug=FZPU panic_on_warn=1'
# (scenario onecpu, make test-onecpu): through LIVE_ONECPU_CYCLES (default
# 35) cycles, cpt_onecpu_test.ko, which uses no cpt code, queues works that
# block on one CPU's system_wq pool, one by one from another CPU, while
# that CPU goes offline and online; each round over the 7 CPUs queues 16
# more than the last, so that the pool, whose idle workers take the first
# ones, creates workers during the offline, each bound to the CPU going
# down.  A kernel
# with upstream's 5ba2ffba13a1 (5.11) wakes them elsewhere and passes;
# Debian 11's 5.10-rt, without it, wakes one on the CPU after it was
# emptied and BUGs in sched_cpu_dying().  That is the proof that the same
# BUG seen in test-bind's 5.10-rt guests (a new kworker of the dying CPU
# woken there) is the kernel's: see doc/kernels.md, "Kernel bugs seen".

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

OT=/sys/module/cpt_onecpu_test/parameters
CYCLES=${LIVE_ONECPU_CYCLES:-35}

# works_cycle CPU N: N works queued on CPU's pool while it goes offline
# and online, then released (the write waits for them).
works_cycle() {
	echo "$1" >$OT/cpu && echo "$2" >$OT/works &&
		set_cpu "$1" 0 && set_cpu "$1" 1 && echo 0 >$OT/works
}

section "works queued on a CPU across its offline, cpt not loaded, $(ncpus) CPUs"
check "cpt.ko is not loaded" sh -c '! grep -q "^cpt " /proc/modules'
check "insmod cpt_onecpu_test.ko" insmod cpt_onecpu_test.ko
check "it needs no cpt symbol (cpt.ko still not loaded)" \
	sh -c '! grep -q "^cpt " /proc/modules'
# shellcheck disable=SC2016 # repeat evaluates the body
repeat "$CYCLES" 'works_cycle $((i % 7 + 1)) $((16 * (i / 7 + 1)))'
check "$CYCLES offline/online cycles in ${wt}s, no error" [ "$errs" = 0 ]
_v=$(cat $OT/works)
_r=$(echo "$_v" | sed -n 's/.* ran=\([0-9]*\)$/\1/p')
check "the works ran ($_v)" [ "${_r:-0}" -gt 0 ]
check "rmmod cpt_onecpu_test" rmmod cpt_onecpu_test

finish
