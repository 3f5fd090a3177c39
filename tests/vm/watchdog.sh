#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/watchdog.sh: scripts/vm-run's boot watchdog (make test-watchdog).
# It must tell a hung boot from a slow one: kill a guest that prints
# nothing, however young, and spare one that keeps printing, however old.
# Each case boots a small 6.1 guest through a QEMU wrapper (vm-run's QEMU
# variable) that plays a host:
#   stopped  QEMU -S: the vCPUs never run.  Killed within the silence
#            limit, each try, and reported with how long it ran and that it
#            printed nothing;
#   starved  QEMU stopped (SIGSTOP) for 6 s of every 7 s once it has
#            printed, as a guest starved by a busy host: the boot takes
#            longer than the silence limit, but is never silent that long,
#            so it boots and COMMAND runs;
#   hung     QEMU stopped for good once it has printed: killed, and the
#            report names the last line the guest printed.
# A watchdog that limits the whole boot fails "starved"; one that waits
# for the whole --timeout fails "stopped" and "hung".
# shellcheck disable=SC2016 # the wrappers' code expands when they run
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh
OUT=$ROOT/build/vm/watchdog
mkdir -p "$OUT"
QEMU_REAL=${QEMU:-qemu-system-x86_64}
SILENCE=15

# wrapper NAME BODY: a QEMU stand-in that runs BODY, with $QEMU_REAL.
wrapper() {
	printf '#!/bin/bash\nq=%q\n%s\n' "$QEMU_REAL" "$2" >"$OUT/$1"
	chmod 755 "$OUT/$1"
}
wrapper stopped 'exec "$q" -S "$@"'
# The stopper loop runs beside QEMU; a TERM from vm-run reaches QEMU.
# The stoppers run beside QEMU, from its first console line on; a TERM
# from vm-run reaches QEMU.  $log is QEMU's console log (vm-run's serial.raw).
started='for a; do case $a in *logfile=*) log=${a##*logfile=} ;; esac; done
until [ -s "$log" ]; do sleep 0.2; done'
wrapper starved '"$q" "$@" & p=$!
trap "kill -CONT $p; kill $p" TERM
'"$started"'
( while sleep 1; do kill -STOP $p || exit; sleep 6; kill -CONT $p || exit; done ) &
wait $p; rc=$?; kill %2 2>/dev/null; exit $rc'
wrapper hung '"$q" "$@" & p=$!
trap "kill -CONT $p; kill $p" TERM
'"$started"'
kill -STOP $p
wait $p'

# boot CASE TRIES: vm-run through the CASE wrapper; sets RC, SECS, ERR.
# The guests take no guest slot (CPT_VM_SLOTS=0): a slot is for a guest
# that keeps a core busy, and these are stopped for all or most of their
# life (the suite uses about 15 s of CPU in 100 to 140 s).  Beside busy
# guests, they are what "starved" plays: a guest on a busy host.
boot() {
	local t0=$SECONDS
	QEMU=$OUT/$1 CPT_VM_BOOT_SILENCE=$SILENCE CPT_VM_BOOT_TRIES=$2 CPT_VM_SLOTS=0 \
		"${VM_RUN:-scripts/vm-run}" --no-build --no-module --kernel 6.1-rt \
		--smp 8,sockets=1,cores=4,threads=2 --append slub_debug=FZPU \
		--timeout 60 -- 'echo CMD-RAN' \
		>"$OUT/$1.out" 2>"$OUT/$1.err"
	RC=$?
	ERR=$OUT/$1.err
	SECS=$((SECONDS - t0))
}

boot stopped 2
check "stopped: vm-run exits 124 (rc $RC)" [ "$RC" = 124 ]
# Two tries of SILENCE seconds each, plus QEMU's start and exit.
check "stopped: killed within the limit, twice (${SECS}s for 2 x ${SILENCE}s)" \
	[ "$SECS" -lt $((2 * SILENCE + 20)) ]
check "stopped: the first kill is reported, and booted again" \
	grep -q "printed nothing for ${SILENCE}s, after ${SILENCE}s of boot, and last printed nothing at all; QEMU killed (try 1 of 2" "$ERR"
check "stopped: the last try fails the run" \
	grep -q "^vm-run: FAIL: the guest kernel hung while booting.*(try 2 of 2)" "$ERR"

boot starved 1
check "starved: COMMAND ran (rc $RC, log $ERR)" grep -q CMD-RAN "$OUT/starved.out"
check "starved: vm-run exits 0 (rc $RC)" [ "$RC" = 0 ]
# Longer than the limit by more than the second SECS rounds to: a
# watchdog that cut the boot at the limit would have failed the run.
check "starved: the boot took longer than the silence limit (${SECS}s > ${SILENCE}s)" \
	[ "$SECS" -gt $((SILENCE + 2)) ]

boot hung 1
check "hung: vm-run exits 124 (rc $RC)" [ "$RC" = 124 ]
check "hung: killed ${SILENCE}s after it stopped (${SECS}s)" \
	[ "$SECS" -lt $((SILENCE + 20)) ]
check "hung: the report names the last line printed" \
	grep -Eq "printed nothing for ${SILENCE}s, after [0-9]+s of boot, and last printed '.+'; QEMU killed" "$ERR"

report_summary "watchdog:"
