#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-table.sh: make check's runner.  Runs each suite's make target,
# its output shown as it comes and kept in build/check/TARGET.log, then
# prints where the time went: a line per suite with the kernels it ran
# on, when it started, its wall time and share of the total, and its
# pass/fail counts, and the total.
#
#   tests/lib/check-table.sh '[&~]TARGET...|KERNELS' ...
#
# Suites run in two lanes side by side.  The first lane runs, in turn,
# the suites given plainly; the second, started at once, those whose
# TARGET starts with '&' (the debug kernels' build, then the suites that
# boot them), their output lines shown with "[TARGET] " before them.
# Those whose TARGET starts with '~' float: each lane, once its own list
# is done, takes the next one no lane has taken yet (longest first, so
# that the lanes end close together, warm or fresh: in a fresh run the
# second lane starts late, behind the debug kernels' build).  A
# 2-core host has room for both: a TCG guest keeps one core busy at most
# and often less, and no lane waits for the other.  The guests of both
# lanes share CPT_VM_SLOTS (default: the host's cores) guest slots
# (scripts/vm-run), so that two lanes never boot more guests at once than
# one lane's suites did before.  A suite named in CHECK_HOST (the
# Makefile's host suites: compilers, packaging, the tool's tests) holds
# one of those slots while it runs, and its own guests (test-pkg's,
# test-dkms's) run in it: so a host suite and a lane's guests never make
# more runnable work than the host has cores.  A guest starved of its
# core costs more CPU, not just more time (TCG runs the guest's clock on
# the host's, and its ticks and timers go on while it waits): the same
# debug percpt guest used 75 s of host CPU alone, 90 s beside a second
# guest, 98 s beside two busy loops (2026-12-07).  CHECK_LANES=1 runs
# every suite in the first lane, one after the other.
#
# Several targets in one argument run in one make (test-probes needs
# test-kbuild's builds, which a make of its own would do again).
# KERNELS is what the Makefile passes (the suite's kernel variable, or
# "-" for a suite that boots no guest).  A suite's counts are the sum of
# its summary lines, "[LABEL: ]N passed, N failed" at the start of a line
# (indented sub-totals and per-guest lines with a time after them are not
# summaries), and of cmocka's counts (test-unit).  Every suite runs, even
# after one failed; the exit status is 0 only when each one exited 0.
# A total past CHECK_BUDGET seconds (3600: CI allows 5400) is said so.
set -u

MAKE=${MAKE:-make}
OUT=build/check
mkdir -p "$OUT"
SUMMARY_RE='^([[:alnum:]_.+-]+( [[:alnum:]_.+-]+)*: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$'
BUDGET=${CHECK_BUDGET:-3600}
export CPT_VM_SLOTS=${CPT_VM_SLOTS:-$(nproc 2>/dev/null || echo 2)}
export CPT_VM_SLOT_DIR=${CPT_VM_SLOT_DIR:-$PWD/$OUT/slots}
# in_slot counts on a number (vm-run says the same of its own).
case $CPT_VM_SLOTS in
''|*[!0-9]*) echo "check-table.sh: CPT_VM_SLOTS wants a number of guests, not '$CPT_VM_SLOTS'" >&2; exit 2 ;;
esac

# suite_counts LOG: "PASSED FAILED" of a suite's log: its summary lines,
# and cmocka's "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s)".
suite_counts() {
	{
		grep -aE "$SUMMARY_RE" "$1" | sed -E 's/^.*: //'
		sed -nE 's/^\[  PASSED  \] ([0-9]+) tests?.*/\1 passed, 0 failed/p;
			 s/^\[  FAILED  \] ([0-9]+) tests?.*/0 passed, \1 failed/p' "$1"
	} | awk '{ p += $1; f += $3 } END { print p + 0, f + 0 }'
}

t_all=$SECONDS

# in_slot TARGETS CMD...: run CMD; for a host suite (every one of TARGETS
# in CHECK_HOST), in a guest slot of its own (flock -o: the lock stays
# with flock, not with CMD's children), its guests in that slot too.
in_slot() {
	local t i rc
	for t in $1; do
		case " ${CHECK_HOST:-} " in *" $t "*) ;; *) t= ; break ;; esac
	done
	shift
	if [ -z "$t" ] || [ "$CPT_VM_SLOTS" -le 0 ]; then
		"$@"
		return
	fi
	mkdir -p "$CPT_VM_SLOT_DIR" || return 1
	while :; do
		for ((i = 0; i < CPT_VM_SLOTS; i++)); do
			CPT_VM_SLOTS=0 flock -n -o -E 200 "$CPT_VM_SLOT_DIR/slot-$i" "$@"
			rc=$?
			[ "$rc" = 200 ] || return "$rc"
		done
		sleep 1
	done
}

# run_suite TARGETS KERNELS PREFIX: one suite's make, its output on
# stdout (each line after PREFIX) and in its log; writes its row's
# fields, "START SECS PASSED FAILED RC", to $OUT/TARGET.row.
run_suite() {
	local targets=$1 kernels=$2 prefix=$3 target log t0 rc p f
	target=${targets// /+}
	log=$OUT/$target.log
	t0=$SECONDS
	# shellcheck disable=SC2086 # a list of targets
	if [ -n "$prefix" ]; then
		in_slot "$targets" "$MAKE" --no-print-directory $targets 2>&1 |
			tee "$log" | sed -u "s/^/$prefix/"
	else
		in_slot "$targets" "$MAKE" --no-print-directory $targets 2>&1 | tee "$log"
	fi
	rc=${PIPESTATUS[0]}
	read -r p f < <(suite_counts "$log")
	echo "$((t0 - t_all)) $((SECONDS - t0)) $p $f $rc" >"$OUT/$target.row"
}

# lane_run N ARG: run_suite for 'TARGETS|KERNELS' in lane N; lane 2's
# lines are named by their suite.
lane_run() {
	local n=$1 arg=$2 targets
	targets=${arg%%|*}
	targets=${targets#[&~]}
	echo "$n" >"$OUT/${targets// /+}.lane"
	if [ "$n" = 2 ]; then
		run_suite "$targets" "${arg#*|}" "[${targets// /+}] "
	else
		run_suite "$targets" "${arg#*|}" ''
	fi
}

# lane N ARGS...: lane_run each of ARGS, then each floating suite that
# the other lane has not claimed (mkdir is the claim: atomic).
lane() {
	local n=$1 arg t
	shift
	for arg; do
		lane_run "$n" "$arg"
	done
	for arg in "${floating[@]}"; do
		t=${arg%%|*}
		t=${t#\~}
		mkdir "$OUT/${t// /+}.claim" 2>/dev/null || continue
		lane_run "$n" "$arg"
	done
}

first=() second=() floating=()
for arg; do
	case $arg in
	'&'*) if [ "${CHECK_LANES:-2}" = 1 ]; then first+=("${arg#&}"); else second+=("$arg"); fi ;;
	'~'*) floating+=("$arg") ;;
	*) first+=("$arg") ;;
	esac
done
for arg; do
	t=${arg%%|*}
	t=${t#[&~]}
	rm -rf "$OUT/${t// /+}.row" "$OUT/${t// /+}.lane" "$OUT/${t// /+}.claim"
done
lane2=
if [ ${#second[@]} -gt 0 ]; then
	lane 2 "${second[@]}" &
	lane2=$!
fi
lane 1 "${first[@]}"
[ -z "$lane2" ] || wait "$lane2"
total=$((SECONDS - t_all))

echo
echo "=== make check: where the time goes (lanes side by side: shares add up to more than 100%)"
printf '%-24s %-46s %6s %6s %6s %7s %7s\n' suite kernels start wall share passed failed
tpass=0 tfail=0 status=0
for arg; do
	targets=${arg%%|*}
	targets=${targets#[&~]}
	target=${targets// /+}
	kernels=${arg#*|}
	read -r start secs p f rc 2>/dev/null <"$OUT/$target.row" ||
		{ start=0 secs=0 p=0 f=0 rc=125; }
	read -r ln 2>/dev/null <"$OUT/$target.lane" || ln=1
	[ "${CHECK_LANES:-2}" = 1 ] || [ "$ln" = 1 ] || target="$target (lane $ln)"
	verdict=ok
	if [ "$rc" != 0 ]; then
		verdict="FAIL (exit $rc)"
		status=1
		# A suite that failed without a failed check still counts one.
		[ "$f" -gt 0 ] || f=1
	fi
	tpass=$((tpass + p))
	tfail=$((tfail + f))
	printf '%-24s %-46s %5ss %5ss %5s%% %7s %7s  %s\n' "$target" "${kernels:--}" \
		"$start" "$secs" "$((secs * 100 / (total > 0 ? total : 1)))" "$p" "$f" "$verdict"
done
printf '%-24s %-46s %6s %5ss %6s %7s %7s\n' total "" "" "$total" "100%" "$tpass" "$tfail"
if [ "$total" -gt "$BUDGET" ]; then
	echo "check: WARNING: the total, ${total}s, is past $((BUDGET / 60)) minutes (CI allows 90): see doc/testing.md, \"Where the time goes\""
fi
echo "check: $tpass passed, $tfail failed"
exit "$status"
