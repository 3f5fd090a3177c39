#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sysctl writes (valid, invalid, unprivileged), replacements under
# concurrent readers and hotplug cycles, in one boot of
#   scripts/vm-run --smp 4,sockets=1,cores=2,threads=2 --nodes '0-3;'
# 4 CPUs (siblings 2k, 2k+1), node 1 memory-only; few vCPUs keep hotplug
# fast under TCG.
#
# LIVE_CYCLES (default 1000) sysctl writes under concurrent reads and
# LIVE_HOTPLUG (default 200) offline/online cycles.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

CYCLES=${LIVE_CYCLES:-1000}
HOTPLUG=${LIVE_HOTPLUG:-200}
NCPUS=$(ncpus)
LAST=$((NCPUS - 1))
HALF=$((NCPUS / 2))

section "load"
check "insmod cpt.ko" insmod cpt.ko
FRESH=$(table)
same "table at load = cpt-plan" "$FRESH" "$(plan)"
check "insmod cpt_live_consumer.ko" insmod cpt_live_consumer.ko
# Its read holds a lock for 300 ms and more, which stalls notifications.
same "verify is 0400" "$(stat -c %a $LC)" 400
verify_consumer "at load"

# ---------------------------------------------------------------------------
section "what a notifier callback must not call"
# The consumer tries, in its first notification, cpt_register_notifier()
# and cpt_unregister_notifier() (the chain is locked: -EDEADLK) and
# cptab_bind_current() (it would bind cpt's worker: -EPERM).  Checked at
# once, before 1000 writes push the log lines out of the kernel's buffer.
check "a first replacement: npartitions=2" sysctl -w lnet.cpu_npartitions=2
same "register, unregister, bind from a callback: refused" \
	"$(cat /sys/module/cpt_live_consumer/parameters/contract)" \
	"register=-35 unregister=-35 bind=-1"
check "... each with a log line" sh -c \
	"[ \$(dmesg | grep -c 'called from a notifier callback: refused') -ge 3 ]"
verify_consumer "after the refused calls"

# ---------------------------------------------------------------------------
section "valid sysctl writes"
check "sysctl -w lnet.cpu_npartitions=3" sysctl -w lnet.cpu_npartitions=3
same "table for 3" "$(table)" "$(plan --npartitions 3)"
same "cpu_npartitions reads 3" "$(cat $P/cpu_npartitions)" 3
same "distance for 3" "$(distance)" "$(plan --npartitions 3 --distance)"
same "module parameter keeps its load value" \
	"$(cat /sys/module/cpt/parameters/npartitions)" 0
check 'sysctl -w lnet.cpu_pattern="N"' sysctl -w lnet.cpu_pattern="N"
same "table for N with 3" "$(table)" "$(plan --npartitions 3 --pattern N)"
same "cpu_pattern reads N" "$(cat $P/cpu_pattern)" N
EXPLICIT="0[0-$((HALF - 1))] 1[$HALF-$LAST]"
same "echo '$EXPLICIT' > cpu_pattern" "$(put $P/cpu_pattern "$EXPLICIT")" ok
same "explicit table" "$(table)" "$(plan --pattern "$EXPLICIT")"
same "cpu_pattern reads it back" "$(cat $P/cpu_pattern)" "$EXPLICIT"
NOTIFIED=$(notified)
same "npartitions=2 under an explicit pattern is accepted" "$(put $P/cpu_npartitions 2)" ok
same "... the pattern still sets the table" "$(table)" "$(plan --pattern "$EXPLICIT")"
same "... cpu_npartitions reads 2" "$(cat $P/cpu_npartitions)" 2
check "... and the log says it is ignored" contains "$(lastk 3)" "npartitions=2 ignored"
check "... and that the partitions are unchanged" contains "$(lastk)" "partitions are unchanged"
same "... so the consumer was not notified" "$(notified)" "$NOTIFIED"
same "the same pattern again: accepted" "$(put $P/cpu_pattern "$EXPLICIT")" ok
check "... and nothing is replaced" contains "$(lastk)" "partition table is unchanged"
same "... and the consumer was not notified" "$(notified)" "$NOTIFIED"
same "empty cpu_pattern" "$(put $P/cpu_pattern '')" ok
same "table for 2, no pattern" "$(table)" "$(plan --npartitions 2)"
# On these 4 CPUs that is the explicit pattern's layout again.
same "... the same partitions: the consumer was not notified" "$(notified)" "$NOTIFIED"
same "npartitions=2 again: accepted" "$(put $P/cpu_npartitions 2)" ok
same "... and the consumer was not notified" "$(notified)" "$NOTIFIED"
same "X[0] with 2" "$(put $P/cpu_pattern 'X[0]')" ok
same "table for X[0]" "$(table)" "$(plan --npartitions 2 --pattern 'X[0]')"
same "... new partitions: the consumer was notified once" "$(notified)" "$((NOTIFIED + 1))"
LONG=$(pad 4096 "0[0-$LAST]")
same "a 4096-byte pattern plus newline" "$(put $P/cpu_pattern "$LONG")" ok
same "its table" "$(table)" "$(plan --pattern "0[0-$LAST]")"
same "cpu_pattern reads back 4096 bytes and a newline" "$(cat $P/cpu_pattern | wc -c)" 4097
same "pattern cleared" "$(put $P/cpu_pattern '')" ok
same "npartitions back to 0" "$(put $P/cpu_npartitions 0)" ok
same "back to the fresh table" "$(table)" "$FRESH"
verify_consumer "after valid writes"

# ---------------------------------------------------------------------------
section "invalid sysctl writes"
# Every bad value, at load and through sysctl, with its errno and log line,
# is tests/badparam/cases (make test-badparam); privileges are below.
N=$P/cpu_npartitions
C=$P/cpu_pattern
MSG_REVERSED=$(put $C "0[5-3]" >/dev/null; lastk)
same "table after the invalid writes" "$(table)" "$FRESH"

# ---------------------------------------------------------------------------
section "unprivileged writers"
mkdir -p /etc
grep -q '^nobody:' /etc/passwd 2>/dev/null ||
	echo 'nobody:x:1000:1000:nobody:/tmp:/bin/sh' >>/etc/passwd
r=$(su -s /bin/sh nobody -c "echo 3 > $N" 2>&1)
check "uid 1000: refused ($r)" contains "$r" "Permission denied"
r=$(su -s /bin/sh nobody -c "echo N > $C" 2>&1)
check "uid 1000, cpu_pattern: refused ($r)" contains "$r" "Permission denied"
# Root of a new user namespace: the file mode lets it in, cpt does not.
r=$(unshare -r sh -c "echo 3 > $N" 2>&1)
check "root in a user namespace: EPERM ($r)" contains "$r" "Operation not permitted"
r=$(unshare -r sh -c "echo N > $C" 2>&1)
check "root in a user namespace, cpu_pattern: EPERM ($r)" contains "$r" "Operation not permitted"
same "unprivileged writes changed nothing" "$(table)" "$FRESH"
same "cpu_npartitions still 0" "$(cat $N)" 0
check "anyone may read" su -s /bin/sh nobody -c "cat $P/cpu_partition_table $N $C >/dev/null"

# ---------------------------------------------------------------------------
section "$CYCLES replacements under 5 concurrent readers"
# A reader in several calls that a replacement overtakes gets EAGAIN and
# starts again (whole); every output must be one whole planned table.
rm -f /tmp/exp.table /tmp/exp.dist
for n in 0 1 2 3 4; do
	plan --npartitions $n | sum >>/tmp/exp.table
	plan --npartitions $n --distance | sum >>/tmp/exp.dist
done
start_readers 3 tbl "cat $P/cpu_partition_table"
# One byte per read(): every call after the first continues the same table.
start_readers 1 tbl1 "whole tbl1 'dd if=$P/cpu_partition_table bs=1'"
start_readers 1 dst "cat $P/cpu_partition_distance"
# shellcheck disable=SC2016 # repeat evaluates the body
under_readers "$CYCLES" 'echo $((i % 5)) >$N' "$CYCLES writes succeeded"
reads_check tbl /tmp/exp.table "table reads" "each one whole planned table"
reads_check dst /tmp/exp.dist "distance reads" "each one whole planned distance"
reads_check tbl1 /tmp/exp.table \
	"reads of one byte per call ($(restarts tbl1) started again)" \
	"each one whole planned table"
check "readers saw more than one table" [ "$(nfiles "/tmp/out.tbl/*")" -gt 1 ]
echo 0 >$N
same "after the cycles: the fresh table" "$(table)" "$FRESH"
verify_consumer "after $CYCLES replacements"

# ---------------------------------------------------------------------------
section "a reader across a replacement"
echo 2 >$N
WANT=$(table)
# No replacement between two calls: the rest of the same table.
exec 3<$P/cpu_partition_table
dd bs=3 count=1 <&3 >/tmp/slow.out 2>/dev/null
echo 2 >$N
cat <&3 >>/tmp/slow.out 2>/tmp/slow.err
exec 3<&-
same "3 bytes, a write that changes nothing, the rest: the same table" \
	"$(cat /tmp/slow.out /tmp/slow.err)" "$WANT"
# A replacement between two calls: EAGAIN, never the end of another table.
exec 3<$P/cpu_partition_table
dd bs=3 count=1 <&3 >/dev/null 2>&1
echo 1 >$N
cat <&3 >/tmp/slow.out 2>/tmp/slow.err
exec 3<&-
check "3 bytes, a replacement, the rest: EAGAIN" \
	grep -q 'temporarily unavailable' /tmp/slow.err
check "... and no byte of the new table" [ ! -s /tmp/slow.out ]
same "a fresh read gives the table in force" "$(table)" "$(plan --npartitions 1)"
# The same for a 4 KiB pattern read 3 bytes at a time.
put $C "$LONG" >/dev/null
exec 3<$C
dd bs=3 count=1 <&3 >/dev/null 2>&1
put $C '' >/dev/null
cat <&3 >/dev/null 2>/tmp/slow.err
exec 3<&-
check "3 bytes of a 4 KiB pattern, a replacement: EAGAIN" \
	grep -q 'temporarily unavailable' /tmp/slow.err
# A reader that had its whole text and comes back for the end of file (as
# cat does) gets 0 bytes, however many tables came since.
put $C "$LONG" >/dev/null
exec 3<$C
dd bs=8192 count=1 <&3 >/dev/null 2>&1
# shellcheck disable=SC2016 # repeat evaluates the body
repeat 100 'echo $((i % 3 + 1)) >$N'
cat <&3 >/tmp/slow.out 2>/tmp/slow.err
_rc=$?
exec 3<&-
check "whole 4 KiB pattern, 100 replacements, then end of file: no error" \
	sh -c "[ $_rc = 0 ] && [ ! -s /tmp/slow.out ] && [ ! -s /tmp/slow.err ]"
put $C '' >/dev/null
echo 0 >$N
same "a fresh read gives the table in force" "$(table)" "$FRESH"

# ---------------------------------------------------------------------------
section "a pattern written in pieces"
# /proc/sys files have a block size of 1024: stdio writers (bash's echo
# and printf) split a long value in pieces of 1024 * k bytes, dd in pieces
# of its bs.  A value is applied whole or not at all (cpt(4)): a piece that
# ends with a newline, or is not a multiple of 512 bytes, ends it; other
# pieces are held.  GOOD patterns are 0[0-1], blanks, 1[2-3]: any prefix of
# 512 * k bytes is 0[0-1] alone, a valid pattern for another table.  BAD
# ones end with a stray ']' instead: invalid whole, valid prefixes.
echo 0 >$N
put $C '' >/dev/null
PREV=$(table)
WHOLE=$(plan --pattern '0[0-1] 1[2-3]')
PREFIX=$(plan --pattern '0[0-1]')
check "the prefix table differs from both" \
	sh -c "[ '$PREFIX' != '$WHOLE' ] && [ '$PREFIX' != '$PREV' ]"
BASH=/cpt/bash
check "bash is here (bash-static)" [ -x $BASH ]
# mkpat LEN KIND: the GOOD or BAD pattern of LEN bytes.
mkpat() {
	if [ "$2" = GOOD ]; then _end='1[2-3]'; else _end=']'; fi
	printf '0[0-1]%*s%s' $(($1 - 6 - ${#_end})) '' "$_end"
}
# write_with WRITER FILE: write the value in /tmp/v.nl (with a newline)
# or /tmp/v (without) to FILE the way WRITER does.
write_with() {
	# shellcheck disable=SC2016 # bash -c expands them
	case $1 in
	echo) $BASH -c 'v=$(cat /tmp/v); echo "$v" >'"$2" ;;
	printf) $BASH -c 'v=$(cat /tmp/v); printf "%s" "$v" >'"$2" ;;
	dd512) dd if=/tmp/v.nl of="$2" bs=512 conv=notrunc ;;
	dd1024) dd if=/tmp/v.nl of="$2" bs=1024 conv=notrunc ;;
	once) dd if=/tmp/v.nl of="$2" bs=1M conv=notrunc ;;
	sysctl) sysctl -q -w "lnet.cpu_pattern=$(cat /tmp/v)" ;;
	esac
}
nprefix=0
for len in 1023 1024 1025 1500 2100 4095 4096; do
	for kind in GOOD BAD; do
		mkpat $len $kind >/tmp/v
		{ cat /tmp/v; echo; } >/tmp/v.nl
		for w in echo printf dd512 dd1024 once sysctl; do
			# Without a newline (printf, sysctl), 512 * k bytes are
			# held as the start of a longer value.
			held=0
			case $w in printf|sysctl) [ $((len % 512)) = 0 ] && held=1 ;; esac
			if [ $held = 1 ]; then
				want=$PREV; wantp=; wantrc=0
			elif [ $kind = GOOD ]; then
				want=$WHOLE; wantp=$(cat /tmp/v); wantrc=0
			else
				want=$PREV; wantp=; wantrc=1
			fi
			write_with $w $C >/dev/null 2>/tmp/w.err
			rc=$?
			[ $rc = 0 ] || rc=1
			got=$(table)
			[ "$got" = "$PREFIX" ] && nprefix=$((nprefix + 1))
			if [ "$got" = "$want" ] && [ "$(cat $C)" = "$wantp" ] &&
			   [ $rc = $wantrc ]; then
				if [ $wantrc = 1 ]; then how=refused
				elif [ $held = 1 ]; then how=held
				else how=applied; fi
				pass "$len-byte $kind pattern by $w: $how"
			else
				fail "$len-byte $kind pattern by $w: rc $rc (want $wantrc)"
				{ echo "table:"; echo "$got"; echo "cpu_pattern: $(cat $C | wc -c) bytes";
				  cat /tmp/w.err; } | sed 's/^/    | /'
			fi
			put $C '' >/dev/null
		done
	done
done
same "no write ever installed a prefix's table" "$nprefix" 0
# A held value is finished by the same process at the offset it stopped.
mkpat 1024 GOOD >/tmp/v
# shellcheck disable=SC2016 # bash -c expands them
same "1024 bytes, then a newline, by one process (two writes)" \
	"$($BASH -c 'v=$(cat /tmp/v); exec 3>'$C'; printf "%s" "$v" >&3; echo >&3'; table)" "$WHOLE"
put $C '' >/dev/null
r=$(dd if=/tmp/v of=$C bs=1 seek=100 conv=notrunc 2>&1)
check "a write at offset 100 that continues nothing: EINVAL" contains "$r" "Invalid argument"
check "... with a log line" contains "$(lastk)" "offset 100 continues no value"
same "... and nothing changed" "$(table)" "$PREV"


# ---------------------------------------------------------------------------
section "$HOTPLUG offline/online cycles under a reader"
# Two partitions, so that a CPU coming back has a partition to return to.
echo 2 >$N
BASE=$(table)
rm -f /tmp/exp.hp
echo "$BASE" | sum >>/tmp/exp.hp
for c in $(seq 1 $((NCPUS - 1))); do
	echo "$BASE" | drop_cpu "$c" | sum >>/tmp/exp.hp
done
READ_PAUSE=20000
start_readers 1 hp "cat $P/cpu_partition_table"
READ_PAUSE=0
# CPU 0 stays: some kernels cannot take it offline.
# shellcheck disable=SC2016 # repeat evaluates the body
repeat "$HOTPLUG" 'c=$((i % (NCPUS - 1) + 1)); set_cpu $c 0 && set_cpu $c 1'
stop_readers
check "$HOTPLUG cycles in ${wt}s, no hotplug error" [ "$errs" = 0 ]
reads_check hp /tmp/exp.hp reads "each the table with at most the cycling CPU unlisted"
same "after the cycles: the same table" "$(table)" "$BASE"
verify_consumer "after $HOTPLUG hotplug cycles"
echo 0 >$N
same "then npartitions=0: the fresh table" "$(table)" "$FRESH"

# ---------------------------------------------------------------------------
section "unload"
check "rmmod cpt_live_consumer" rmmod cpt_live_consumer
check "rmmod cpt" rmmod cpt
check "no table or notifier leaked" sh -c "! dmesg | grep -q -e 'still held at unload' -e 'did not unregister'"
insmod cpt.ko cpu_pattern="0[5-3]" 2>/dev/null
same "load-time message = sysctl message" "$(lastk)" "$MSG_REVERSED"
# sysfs shows a parameter in one page: a pattern that does not fit with
# its newline fails the read rather than show a part of it.
check "insmod cpt.ko with a 4096-byte cpu_pattern" insmod cpt.ko "cpu_pattern=\"$LONG\""
r=$(cat /sys/module/cpt/parameters/cpu_pattern 2>&1 >/dev/null)
check "its sysfs parameter: EOVERFLOW, not a part ($r)" contains "$r" "too large"
same "/proc/sys/lnet/cpu_pattern shows it whole" "$(wc -c <$C)" 4097
check "rmmod cpt" rmmod cpt
LONG4094=$(pad 4094 "0[0-$LAST]")
check "insmod cpt.ko with a 4094-byte cpu_pattern" insmod cpt.ko "cpu_pattern=\"$LONG4094\""
same "its sysfs parameter shows it whole" "$(cat /sys/module/cpt/parameters/cpu_pattern)" "$LONG4094"
check "rmmod cpt" rmmod cpt
check "insmod cpt.ko again" insmod cpt.ko
same "a fresh load gives the same table" "$(table)" "$FRESH"
check "rmmod cpt" rmmod cpt

finish
