#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unloading cpt while a CPU event is being followed, in one boot of
#   scripts/vm-run --smp 4,sockets=1,cores=2,threads=2 \
#       --append "slub_debug=FZPU panic_on_warn=1"
#
# 1. The test build of cpt.ko (fault/cpt.ko, cpt/linux/fault.h) sleeps in
#    the consumer notification while it holds a table: a CPU goes offline,
#    and rmmod runs while the notification holds the table.  The
#    notification then drops the table's last reference during rmmod.
#    Destroying the workqueue before that free was queued oopsed on 6.1
#    (NULL pwq in softirq) and WARNed on 6.12 (__WQ_DESTROYING).
# 2. LIVE_UNLOAD_CYCLES (default 200) times: offline a CPU, rmmod, online
#    it, insmod, with busy loops on every CPU.
#
# With panic_on_warn=1 any WARN kills the guest: the run then has no
# RESULT line and fails.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

CYCLES=${LIVE_UNLOAD_CYCLES:-200}
DELAY=${LIVE_UNLOAD_DELAY_MS:-1500}
NCPUS=$(ncpus)
LAST=$((NCPUS - 1))

section "rmmod while a notification holds the table (test build, ${DELAY} ms)"
check "the test build is here" [ -f fault/cpt.ko ]
for c in 1 $LAST; do
	check "insmod fault/cpt.ko fault_notify_ms=$DELAY" \
		insmod fault/cpt.ko fault_notify_ms="$DELAY"
	set_cpu "$c" 0
	# The work item starts at once; give it time to take its reference.
	usleep 200000
	_t=$(now)
	check "rmmod cpt during the notification of CPU $c offline" rmmod cpt
	_dt=$(elapsed "$_t")
	# rmmod waited for the notification: the window was really hit.
	check "rmmod waited for the notification (${_dt}s)" \
		awk -v d="$_dt" -v m="$DELAY" 'BEGIN { exit !(d * 1000 >= m / 2) }'
	check "cpt is gone" sh -c "! lsmod | grep -q '^cpt '"
	# A free queued late would run (and oops) within a few grace periods.
	sleep 2
	set_cpu "$c" 1
done
check "no table leaked" sh -c "! dmesg | grep -q 'still held at unload'"

section "$CYCLES x (offline, rmmod, online, insmod) under busy loops"
for c in $(seq 1 "$NCPUS"); do
	( while [ ! -e /tmp/stop.hog ]; do :; done ) &
done
check "insmod cpt.ko" insmod cpt.ko
# shellcheck disable=SC2016 # repeat evaluates the body
repeat "$CYCLES" 'c=$((i % LAST + 1)); set_cpu $c 0 && rmmod cpt && set_cpu $c 1 && insmod cpt.ko'
touch /tmp/stop.hog
wait
rm -f /tmp/stop.hog
check "$CYCLES cycles in ${wt}s, no error" [ "$errs" = 0 ]
check "cpt is loaded" loaded cpt
same "the table is the fresh one" "$(table)" "$(plan)"
check "rmmod cpt" rmmod cpt
check "no table or notifier leaked" sh -c "! dmesg | grep -q -e 'still held at unload' -e 'did not unregister'"

finish
