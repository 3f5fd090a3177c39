# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# report.sh: the one PASS/FAIL/SKIP reporter of the test suites, sourced by
# the host scripts (tests/tool/run.sh, packaging/test-*.sh) and, through
# tests/lib/guest-lib.sh, by every guest script.  POSIX sh: busybox ash in
# the guests, sh or bash on the host.
#
# Every check prints one line, which the run.sh wrappers grep for:
#   PASS: NAME                 or, with REPORT_TAG=T,  PASS T: NAME
#   FAIL: NAME                                          FAIL T: NAME
#       | DETAILS (several lines, REPORT_DETAIL_LINES of them at most)
#   SKIP: NAME                                          SKIP T: NAME
# and is counted in REPORT_NPASS, REPORT_NFAIL and REPORT_NSKIP.
#
#   pass NAME...             a check that passed
#   fail NAME [DETAILS]      a check that failed; DETAILS shown indented
#   skip NAME...             a check that could not run here
#   check NAME COMMAND...    pass NAME when COMMAND succeeds, else fail NAME
#   report_summary [LABEL]   "LABEL N passed, N failed"; false on a failure
#   report_verdict TEXT      "[T: ]N passed, N failed", then "FAIL T: N
#                            check(s) failed" and false on a failure, else
#                            "PASS T: TEXT"

REPORT_TAG=${REPORT_TAG:-}
REPORT_DETAIL_LINES=${REPORT_DETAIL_LINES:-60}
REPORT_NPASS=0
REPORT_NFAIL=0
REPORT_NSKIP=0

# report_line WORD TEXT: "WORD: TEXT", or "WORD TAG: TEXT".
report_line() { printf '%s%s: %s\n' "$1" "${REPORT_TAG:+ $REPORT_TAG}" "$2"; }

pass() {
	REPORT_NPASS=$((REPORT_NPASS + 1))
	report_line PASS "$*"
}

fail() {
	REPORT_NFAIL=$((REPORT_NFAIL + 1))
	report_line FAIL "$1"
	if [ $# -gt 1 ] && [ -n "$2" ]; then
		printf '%s\n' "$2" | head -n "$REPORT_DETAIL_LINES" | sed 's/^/    | /'
	fi
	return 0
}

skip() {
	REPORT_NSKIP=$((REPORT_NSKIP + 1))
	report_line SKIP "$*"
}

check() {
	_report_name=$1
	shift
	if "$@"; then pass "$_report_name"; else fail "$_report_name"; fi
}

# shellcheck disable=SC2120 # LABEL is optional
report_summary() {
	echo "${1:+$1 }$REPORT_NPASS passed, $REPORT_NFAIL failed"
	[ "$REPORT_NFAIL" -eq 0 ]
}

report_verdict() {
	# The summary line make check counts (tests/lib/check-table.sh).
	echo "${REPORT_TAG:+$REPORT_TAG: }$REPORT_NPASS passed, $REPORT_NFAIL failed"
	if [ "$REPORT_NFAIL" -ne 0 ]; then
		report_line FAIL "$REPORT_NFAIL check(s) failed"
		return 1
	fi
	report_line PASS "$*"
}
