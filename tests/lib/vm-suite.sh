# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-suite.sh: the host side shared by the suites that boot guests with
# scripts/vm-run and read their logs (tests/live, tests/soak,
# tests/badparam).  Sourced from the top of the tree; POSIX sh.
#
#   suite_usage FILE           print FILE's header comment (for --help)
#   suite_env VAR...           "VAR=value " for each VAR set here: the
#                              prefix of a guest command
#   suite_boot LOG ARGS...     scripts/vm-run --no-build ARGS... >LOG 2>&1;
#                              sets BOOT_RC and BOOT_SECS
#   suite_start LOG ARGS...    suite_boot in the background, at most
#                              $SUITE_JOBS (default 2) at a time: when that
#                              many run, waits for one of them to end
#   suite_wait                 wait for every suite_start
#   suite_result LOG           BOOT_RC and BOOT_SECS of a suite_start
#   suite_verdict LABEL LOG DONE NFAIL
#                              add the failures that are not the guest's
#                              FAIL lines to NFAIL: no line matching the ERE
#                              DONE (the guest did not finish), or a vm-run
#                              failure (123: kernel log problem); show
#                              vm-run's own lines when it failed.  Sets
#                              BOOT_FAILS; false when it is not 0
#   suite_wall LOG             vm-run's timing line of LOG
#   suite_report LABEL LOG     one guest of guest-lib.sh (PASS:/FAIL: lines,
#                              RESULT: at the end): its FAIL lines with their
#                              details, suite_verdict, and the line
#                              "LABEL: N passed, N failed in ..."; adds its
#                              counts to SUITE_NPASS and SUITE_NFAIL; false
#                              when it failed

VM_RUN=${VM_RUN:-scripts/vm-run}

suite_usage() { sed -n '3,/^set -u/{/^set -u/d;s/^# \{0,1\}//;p}' "$1"; }

suite_env() {
	for _v; do
		eval "_val=\${$_v:-}"
		[ -n "$_val" ] && printf '%s=%s ' "$_v" "$_val"
	done
	return 0
}

suite_boot() {
	_log=$1
	shift
	_t=$(date +%s)
	"$VM_RUN" --no-build "$@" >"$_log" 2>&1
	BOOT_RC=$?
	# shellcheck disable=SC2034 # read by the suites
	BOOT_SECS=$(($(date +%s) - _t))
}

# Two guests at a time suit a 2-core host: a guest that loads modules or
# reads files mostly keeps one vCPU busy.  A new guest starts as soon as
# one of them ends (its LOG.boot appears), not when the whole batch has.
_suite_logs=
suite_start() {
	rm -f "$1.boot"
	while _suite_busy; do
		sleep 1
	done
	(
		suite_boot "$@"
		echo "$BOOT_RC $BOOT_SECS" >"$1.boot"
	) &
	_suite_logs="$_suite_logs $1"
}

# _suite_busy: true while $SUITE_JOBS guests of suite_start still run.
_suite_busy() {
	_n=0
	for _l in $_suite_logs; do
		[ -e "$_l.boot" ] || _n=$((_n + 1))
	done
	[ "$_n" -ge "${SUITE_JOBS:-2}" ]
}

suite_wait() {
	wait
	_suite_logs=
}

suite_result() {
	# shellcheck disable=SC2034 # read by the suites
	read -r BOOT_RC BOOT_SECS <"$1.boot" 2>/dev/null || { BOOT_RC=125 BOOT_SECS=0; }
}

suite_verdict() {
	BOOT_FAILS=$4
	if ! grep -aEq "$3" "$2"; then
		echo "$1: FAIL: the guest script did not finish (vm-run status $BOOT_RC; 124: timeout, 125: the guest died)"
		BOOT_FAILS=$((BOOT_FAILS + 1))
	elif [ "$BOOT_RC" != 0 ] && [ "$BOOT_FAILS" = 0 ]; then
		echo "$1: FAIL: vm-run status $BOOT_RC (123: kernel log problem)"
		BOOT_FAILS=$((BOOT_FAILS + 1))
	fi
	[ "$BOOT_RC" = 0 ] || grep -a '^vm-run: ' "$2" | tail -n 40 | sed "s/^/$1: /"
	[ "$BOOT_FAILS" = 0 ]
}

suite_wall() { grep -a '^vm-run: .*wall' "$1" | sed 's/^vm-run: //'; }

SUITE_NPASS=0
SUITE_NFAIL=0
suite_report() {
	suite_result "$2"
	_p=$(grep -c '^PASS: ' "$2")
	_f=$(grep -c '^FAIL: ' "$2")
	# Each FAIL line with the details shown under it.
	awk '/^FAIL: /	{ n = 0; d = 1; print; next }
	     d && /^    \| / && n++ < 40 { print; next }
	     { d = 0 }' "$2" | sed "s/^/$1: /"
	suite_verdict "$1" "$2" '^RESULT: ' "$_f"
	_ok=$?
	SUITE_NPASS=$((SUITE_NPASS + _p))
	SUITE_NFAIL=$((SUITE_NFAIL + BOOT_FAILS))
	echo "$1: $_p passed, $BOOT_FAILS failed in ${BOOT_SECS}s ($(suite_wall "$2"); log $2)"
	return $_ok
}
