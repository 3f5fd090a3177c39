#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The acceptance checks on the seed's machine (LU-9998: 48 CPUs, one
# socket, 24 cores x 2), in one boot of
#   scripts/vm-run --smp 48,sockets=1,cores=24,threads=2
# and whole reads of a distance file of 13 KB (48 partitions) while the
# table is replaced.
#
# LIVE_BIG_CYCLES (default 100) replacements under the big readers;
# LIVE_MEM_CYCLES (default 500) replacements of the largest table before
# the memory held for texts is measured.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

BIG=${LIVE_BIG_CYCLES:-100}
MEMCYCLES=${LIVE_MEM_CYCLES:-500}
N=$P/cpu_npartitions
C=$P/cpu_pattern

section "load on $(ncpus) CPUs"
check "insmod cpt.ko" insmod cpt.ko
FRESH=$(table)
same "default table = cpt-plan" "$FRESH" "$(plan)"
check "insmod cpt_live_consumer.ko" insmod cpt_live_consumer.ko

section "sysctl -w lnet.cpu_npartitions=6"
check "sysctl -w lnet.cpu_npartitions=6" sysctl -w lnet.cpu_npartitions=6
T6=$(table)
echo "$T6" | sed 's/^/    /'
same "the table has six lines" "$(table | wc -l)" 6
same "cat /proc/sys/lnet/cpu_npartitions says 6" "$(cat $N)" 6
same "it is cpt-plan's table for 6" "$T6" "$(plan --npartitions 6)"
verify_consumer "after npartitions=6"

section "invalid writes leave the table byte-identical"
B=$(table | sum)
BD=$(distance | sum)
r=$(sysctl -w lnet.cpu_npartitions=99 2>&1)
check "sysctl -w lnet.cpu_npartitions=99 fails ($r)" contains "$r" "out of range"
same "table byte-identical" "$(table | sum)" "$B"
r=$(sysctl -w lnet.cpu_pattern="0[0-3] 1[3-5]" 2>&1)
check "sysctl -w lnet.cpu_pattern='0[0-3] 1[3-5]' fails ($r)" contains "$r" "Invalid argument"
same "table byte-identical" "$(table | sum)" "$B"
same "distance byte-identical" "$(distance | sum)" "$BD"
same "cpu_npartitions still 6" "$(cat $N)" 6
same "cpu_pattern still empty" "$(cat $C)" ""

section 'sysctl -w lnet.cpu_pattern="N"'
check 'sysctl -w lnet.cpu_pattern="N"' sysctl -w lnet.cpu_pattern="N"
same "one node: N is the default layout with npartitions=6" "$(table)" "$T6"
same "cpu_pattern says N" "$(cat $C)" N

section "$BIG replacements under readers of a 13 KB distance file"
echo 48 >$N
check "48 partitions" [ "$(table | wc -l)" = 48 ]
echo "    distance file: $(distance | wc -c) bytes"
rm -f /tmp/exp.big
for n in 24 48; do
	plan --npartitions $n --pattern N --distance | sum >>/tmp/exp.big
done
# dd: one read() for the whole file; cat: several, joined by the
# position, and started again when the table is replaced in between.
start_readers 1 bigdd "dd if=$P/cpu_partition_distance bs=1M 2>/dev/null"
start_readers 1 bigcat "whole bigcat 'cat $P/cpu_partition_distance'"
# shellcheck disable=SC2016 # repeat evaluates the body
under_readers "$BIG" 'echo $((24 + 24 * (i % 2))) >$N' "$BIG writes"
reads_check bigdd /tmp/exp.big "single-call reads" "each one whole distance file"
reads_check bigcat /tmp/exp.big "cat reads ($(restarts bigcat) started again)" \
	"each one whole distance file"
verify_consumer "after $BIG big replacements"

# The live consumer goes first: its worker threads, stopped and started
# at every replacement, would be all the counters show.
check "rmmod cpt_live_consumer" rmmod cpt_live_consumer
texts_memory "$MEMCYCLES"

section "unload and load again"
check "rmmod cpt" rmmod cpt
check "no table or notifier leaked" sh -c "! dmesg | grep -q -e 'still held at unload' -e 'did not unregister'"
check "insmod cpt.ko" insmod cpt.ko
same "a fresh load: the default table again" "$(table)" "$FRESH"
check "rmmod cpt" rmmod cpt

finish
