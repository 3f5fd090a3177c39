#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fleet-bench.sh: cpt-plan --fleet on a generated fleet, for make bench
# (tests/bench/run.sh) or alone:
#
#   tests/bench/fleet-bench.sh [NHOSTS...]      (default: 10000)
#
# For each size, writes NHOSTS files HOST.lscpu into a temporary
# directory, copies of the machines of tests/fixtures/*.lscpu (one awk
# process writes them all), in two layouts: "blocks" (each machine on a
# run of consecutive host numbers, as racks are bought) and "mixed" (host
# i is machine i mod M: the longest hostlists), plus one malformed file.
# Each --fleet run (text, then --format json) runs once untimed, checked
# (M classes holding NHOSTS hosts, one error, exit 3), then $BENCH_RUNS
# times, timed from fork to exit.  CSV on stdout:
#
#   hosts,layout,classes,text_median_ms,text_min_ms,json_median_ms,json_min_ms
#
# Exits 1 when a check fails.  Environment: CPT_PLAN [scripts/cpt-plan],
# BENCH_RUNS [5].
set -u
cd "$(dirname "$0")/../.." || exit 2

PLAN=${CPT_PLAN:-scripts/cpt-plan}
RUNS=${BENCH_RUNS:-5}
T=$(mktemp -d "${TMPDIR:-/tmp}/cpt-fleet.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
status=0

# The fixtures that plan without a warning and differ from each other.
MACHINES="dual-20c epyc-7742-2s-nps4 power9-smt4 xeon-8160 altra-80c i9-12900k-hybrid 2node-offline offline-16"

# ms ARGS...: $PLAN ARGS... run $RUNS times (exit 3 expected); "median min".
ms() {
	local t0 t1
	for _ in $(seq "$RUNS"); do
		t0=$EPOCHREALTIME
		"$PLAN" "$@" >/dev/null 2>&1
		[ $? -eq 3 ] || return 1
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) * 1000 }'
	done | sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%s %s\n", v[int((NR + 1) / 2)], v[1] }'
}

# gen DIR N LAYOUT: the fleet.
gen() {
	local files=()
	for m in $MACHINES; do files+=("tests/fixtures/$m.lscpu"); done
	mkdir -p "$1"
	awk -v dir="$1" -v n="$2" -v layout="$3" '
		FNR == 1 { m++ }
		{ text[m] = text[m] $0 "\n" }
		END {
			for (i = 1; i <= n; i++) {
				k = layout == "mixed" ? (i - 1) % m + 1 : int((i - 1) * m / n) + 1
				f = sprintf("%s/cn%05d.lscpu", dir, i)
				printf "%s", text[k] > f
				close(f)
			}
			print "not lscpu output" > (dir "/bad00001.lscpu")
		}' "${files[@]}"
}

echo "hosts,layout,classes,text_median_ms,text_min_ms,json_median_ms,json_min_ms"
nm=$(echo "$MACHINES" | wc -w)
for n in "${@:-10000}"; do
	for layout in blocks mixed; do
		d=$T/$n-$layout
		gen "$d" "$n" "$layout"
		"$PLAN" --fleet "$d" --format json >"$T/out.json" 2>"$T/err"
		rc=$?
		got=$(awk -F'"nhosts": ' 'NF > 1 { split($2, a, ","); c++; h += a[1] } END { print c + 0, h + 0 }' \
			<(tr '{' '\n' <"$T/out.json"))
		if [ $rc -ne 3 ] || [ "$got" != "$nm $n" ] || [ "$(wc -l <"$T/err")" -ne 1 ]; then
			echo "fleet-bench: $n $layout: exit $rc, classes and hosts '$got' (wanted '$nm $n'): $(head -c 300 "$T/err")" >&2
			status=1
			continue
		fi
		read -r tmed tmin < <(ms --fleet "$d") || { status=1; continue; }
		read -r jmed jmin < <(ms --fleet "$d" --format json) || { status=1; continue; }
		echo "$n,$layout,$nm,$tmed,$tmin,$jmed,$jmin"
		rm -rf "$d"
	done
done
exit $status
