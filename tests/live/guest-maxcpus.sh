#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# CPUs that were never in the table, a partition with no CPU online, and
# unloading under a consumer, in one boot of
#   scripts/vm-run --smp 8,sockets=1,dies=2,cores=2,threads=2 --nodes '0-7;'
#                  --append maxcpus=2
# 8 CPUs (siblings 2k, 2k+1; L3 0-3 and 4-7), node 1 memory-only, two CPUs
# up at boot.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

NCPUS=$(ncpus)

# ---------------------------------------------------------------------------
section "maxcpus=2 of $NCPUS, then online the rest while reading"
BOOT_ONLINE=$(cat $SYS/online)
echo "online at boot: $BOOT_ONLINE"
check "insmod cpt.ko" insmod cpt.ko
T0=$(table)
same "table at load = cpt-plan on the CPUs up" "$T0" "$(plan)"
echo "$T0" | cpu_map >/tmp/m0
check "insmod cpt_live_consumer.ko" insmod cpt_live_consumer.ko
verify_consumer "at load"

start_readers 2 boot "cat $P/cpu_partition_table"
for c in $(seq 1 $((NCPUS - 1))); do
	cpu_online "$c" || set_cpu "$c" 1
done
stop_readers
n=$(sort_reads boot)
bad=0
: >/tmp/maps
for f in /tmp/out.boot/*; do
	if ! msg=$(well_formed <"$f"); then
		echo "  read $(basename "$f"): $msg"
		bad=1
	fi
	cpu_map <"$f" >>/tmp/maps
done
# Placed CPUs never move: across every read (and the load-time table), a
# CPU is always listed in the same partition.
cat /tmp/m0 >>/tmp/maps
if ! awk '($1 in p) && p[$1] != $2 { print "  CPU " $1 " in " p[$1] " and " $2; bad = 1 } { p[$1] = $2 } END { exit bad }' /tmp/maps; then
	bad=1
fi
check "$n reads while onlining: whole tables, no CPU ever in two partitions ($(nfiles "/tmp/out.boot/*") distinct)" [ "$bad" = 0 ]
T1=$(table)
echo "$T1" | sed 's/^/    /'
check "after onlining: $NCPUS CPUs listed" [ "$(echo "$T1" | cpu_map | wc -l)" = "$NCPUS" ]
check "after onlining: every CPU once" wf_str "$T1"
if msg=$(echo "$T1" | siblings_together); then
	pass "after onlining: siblings together"
else
	fail "after onlining: siblings together ($msg)"
fi
echo "$T1" | cpu_map >/tmp/m1
# shellcheck disable=SC2016 # awk's fields
check "after onlining: CPUs up at load did not move" \
	awk 'NR == FNR { p[$1] = $2; next } ($1 in p) && p[$1] != $2 { exit 1 }' /tmp/m0 /tmp/m1
verify_consumer "after onlining"
check "sysctl -w lnet.cpu_npartitions=0" sysctl -w lnet.cpu_npartitions=0
same "npartitions=0 after onlining = fresh plan" "$(table)" "$(plan)"
FRESH=$(table)
verify_consumer "after npartitions=0"

# ---------------------------------------------------------------------------
section "re-plan with an L3 domain offline, then online it"
for c in 4 5 6 7; do set_cpu $c 0; done
check "sysctl -w lnet.cpu_npartitions=2 with CPUs 4-7 offline" sysctl -w lnet.cpu_npartitions=2
same "two partitions of one core" "$(table)" "$(printf '0\t: 0 1\n1\t: 2 3')"
for c in 4 5 6 7; do set_cpu $c 1; done
# 4: nothing placed in its L3 or by a sibling, lightest on the node (a tie,
# partition 0); 5: its sibling's; 6: the only partition in its L3; 7: its
# sibling's.
same "CPUs 4-7 joined by the rules of cplan_table_update()" "$(table)" \
	"$(printf '0\t: 0 1 4 5 6 7\n1\t: 2 3')"
verify_consumer "after the L3 domain came back"
check "sysctl -w lnet.cpu_npartitions=0" sysctl -w lnet.cpu_npartitions=0
same "npartitions=0: the fresh table again" "$(table)" "$FRESH"

# ---------------------------------------------------------------------------
section "a whole partition offline"
BASE=$(table)
DIST=$(distance)
last=$(echo "$BASE" | tail -n 1)
lp=${last%%	*}
lcpus=$(echo "$last" | cut -d: -f2)
for c in $lcpus; do set_cpu "$c" 0; done
same "partition $lp stays, empty" "$(table | tail -n 1)" "$(printf '%s\t:' "$lp")"
same "distance unchanged" "$(distance)" "$DIST"
verify_consumer "partition $lp offline (its worker keeps running)"
check "cpt_consumer checks pass with partition $lp offline" insmod cpt_consumer.ko
rmmod cpt_consumer 2>/dev/null
for c in $lcpus; do set_cpu "$c" 1; done
same "back online: the same table" "$(table)" "$BASE"
verify_consumer "partition $lp back (its worker rebinds)"

# ---------------------------------------------------------------------------
section "unload"
r=$(rmmod cpt 2>&1)
check "rmmod cpt refused while the consumer holds tables ($r)" loaded cpt
same "table still served" "$(table)" "$BASE"
verify_consumer "after the refused unload"
check "rmmod cpt_live_consumer" rmmod cpt_live_consumer
check "rmmod cpt" rmmod cpt
check "no table or notifier leaked" sh -c "! dmesg | grep -q -e 'still held at unload' -e 'did not unregister'"
check "insmod cpt.ko again" insmod cpt.ko
same "a fresh load gives the table of npartitions=0" "$(table)" "$FRESH"
check "rmmod cpt" rmmod cpt

finish
