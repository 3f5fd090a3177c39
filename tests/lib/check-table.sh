#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-table.sh: make check's runner.  Runs each suite's make target in
# turn, its output shown as it comes and kept in build/check/TARGET.log,
# then prints where the time went: a line per suite with the kernels it
# ran on, its wall time and its pass/fail counts, and the total.
#
#   tests/lib/check-table.sh 'TARGET...|KERNELS' ...
#
# Several targets in one argument run in one make (test-probes needs
# test-kbuild's builds, which a make of its own would do again).
# KERNELS is what the Makefile passes (the suite's kernel variable, or
# "-" for a suite that boots no guest).  A suite's counts are the sum of
# its summary lines, "[LABEL: ]N passed, N failed" at the start of a line
# (indented sub-totals and per-guest lines with a time after them are not
# summaries), and of cmocka's counts (test-unit).  Every suite runs, even after one failed; the exit status
# is 0 only when each one exited 0.
set -u

MAKE=${MAKE:-make}
OUT=build/check
mkdir -p "$OUT"
SUMMARY_RE='^([[:alnum:]_.+-]+( [[:alnum:]_.+-]+)*: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$'

# suite_counts LOG: "PASSED FAILED" of a suite's log: its summary lines,
# and cmocka's "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s)".
suite_counts() {
	{
		grep -aE "$SUMMARY_RE" "$1" | sed -E 's/^.*: //'
		sed -nE 's/^\[  PASSED  \] ([0-9]+) tests?.*/\1 passed, 0 failed/p;
			 s/^\[  FAILED  \] ([0-9]+) tests?.*/0 passed, \1 failed/p' "$1"
	} | awk '{ p += $1; f += $3 } END { print p + 0, f + 0 }'
}

rows=()
tpass=0
tfail=0
status=0
t_all=$SECONDS
for arg; do
	targets=${arg%%|*}
	kernels=${arg#*|}
	# Targets that share a prerequisite run in one make, as one row.
	target=${targets// /+}
	log=$OUT/$target.log
	t0=$SECONDS
	# shellcheck disable=SC2086 # a list of targets
	"$MAKE" --no-print-directory $targets 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	secs=$((SECONDS - t0))
	read -r p f < <(suite_counts "$log")
	verdict=ok
	if [ "$rc" != 0 ]; then
		verdict="FAIL (exit $rc)"
		status=1
		# A suite that failed without a failed check still counts one.
		[ "$f" -gt 0 ] || f=1
	fi
	tpass=$((tpass + p))
	tfail=$((tfail + f))
	rows+=("$(printf '%-24s %-46s %5ss %7s %7s  %s' "$target" "${kernels:--}" \
		"$secs" "$p" "$f" "$verdict")")
done

echo
echo "=== make check: where the time goes"
printf '%-24s %-46s %6s %7s %7s\n' suite kernels wall passed failed
for r in "${rows[@]}"; do
	echo "$r"
done
printf '%-24s %-46s %5ss %7s %7s\n' total "" $((SECONDS - t_all)) "$tpass" "$tfail"
echo "check: $tpass passed, $tfail failed"
exit "$status"
