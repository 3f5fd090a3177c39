#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh: `make bench` (tests/bench/bench.mk).  Prints tables and writes
# them as CSV files under build/bench/ (BENCH_OUT):
#
#   plan.csv          planner cost on generated topologies: best and median
#                     time of cplan_make(), callgrind instruction count
#                     (deterministic), growth per doubling of the CPU count
#   sysfs.csv         cpt-plan --sysfs against the bare reading of the files
#                     it opens and against --lscpu on the same generated
#                     machines, whole process: median and best of 7
#                     interleaved rounds, files opened, tables compared
#                     (tests/bench/sysfs-bench.sh)
#   fleet.csv         cpt-plan --fleet on generated fleets of HOST.lscpu
#                     files, text and JSON (tests/bench/fleet-bench.sh)
#   mem.csv           memory of one table in the kernel, per CPU and per
#                     partition (model: plan-bench mem, sizes from pahole)
#   layout.csv        layout quality on tests/fixtures/*.lscpu, default
#                     layout against one partition per NUMA node
#   host_svc.csv      svc-bench (userspace service model) on this host
#   vm_mem.csv        measured in the guest (cpt_bench bench=mem) against
#                     the model
#   vm_lookup.csv     cpt_current() and friends in the guest: TCG time and,
#                     under QEMU icount, guest instructions per call
#   vm_svc.csv        the kernel service model (cpt_bench bench=svc) per
#                     npartitions and build (impl=toolkit, on cpt.h's
#                     helpers; impl=hand, without them), with each one's
#                     ratio to npartitions=1 (vm_svc_summary.IMPL.csv)
#                     and the two compared (vm_svc_compare.csv)
#   vm_usvc.csv       the userspace model in the same guest
#   icount_svc.csv    the kernel service model under icount: guest time per
#                     request, i.e. instructions per request
#   summary.txt       everything printed
#
# Environment (defaults in brackets):
#   BENCH_SIZES       CPU counts of the planner and --sysfs benchmarks [64 256 1024 4096 8192]
#   BENCH_FLEET       host counts of the --fleet benchmark [1000 10000]
#   BENCH_KERNEL      guest kernel, 6.1 or 6.12 [6.12]
#   BENCH_SMP         guest topology (QEMU -smp) [24,sockets=1,cores=12,threads=2]
#   BENCH_NPARTS      npartitions values in the guest, 0 = default [1 2 3 0 12 24]
#   BENCH_ROUNDS      rounds of the kernel service model [5]
#   BENCH_USVC_ROUNDS rounds of the userspace model in the guest [3]
#   BENCH_SVC_MS      one service-model run in the guest, ms [2000]
#   BENCH_CALLS       lookup calls per operation [10000000]
#   BENCH_HOST_MS     one svc-bench run on this host, ms [2000]
#   BENCH_VM=0        skip the guest parts; BENCH_ICOUNT=0 skip the icount boot
#   BENCH_BUDGET_S    skip the icount boot when this many seconds have
#                     passed before it (it takes 1-4 minutes) [720]
#   BENCH_ICOUNT_SMP     guest topology of the icount boot [8,sockets=1,cores=4,threads=2]
#   BENCH_ICOUNT_NPARTS  npartitions values of the icount boot [1 0 4]
#   BENCH_ICOUNT_CALLS   lookup calls per operation under icount [1000000]
#   BENCH_OUT         output directory [build/bench]
#   BENCH_BIN         where bench.mk built plan-bench and svc-bench [build/bench]
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1

OUT=${BENCH_OUT:-build/bench}
BIN=${BENCH_BIN:-build/bench}
PLAN_BENCH=$BIN/plan-bench
SVC_BENCH=$BIN/svc-bench
SVC_STATIC=$BIN/svc-bench.static
CPT_PLAN=scripts/cpt-plan
: "${BENCH_SIZES:=64 256 1024 4096 8192}"
: "${BENCH_FLEET:=1000 10000}"
: "${BENCH_KERNEL:=6.12}"
: "${BENCH_SMP:=24,sockets=1,cores=12,threads=2}"
: "${BENCH_NPARTS:=1 2 3 0 12 24}"
: "${BENCH_ROUNDS:=5}"
: "${BENCH_SVC_MS:=2000}"
: "${BENCH_CALLS:=10000000}"
: "${BENCH_HOST_MS:=2000}"
: "${BENCH_VM:=1}"
: "${BENCH_ICOUNT:=1}"
: "${BENCH_ICOUNT_SMP:=8,sockets=1,cores=4,threads=2}"
: "${BENCH_ICOUNT_NPARTS:=1 0 4}"
: "${BENCH_USVC_ROUNDS:=3}"
: "${BENCH_BUDGET_S:=720}"
: "${BENCH_ICOUNT_CALLS:=1000000}"

mkdir -p "$OUT" || exit 1
# Results of an earlier run must not pass for this one's.
rm -f "$OUT"/*.csv "$OUT"/*.log "$OUT"/*.err "$OUT"/callgrind.* \
	"$OUT"/host_plan.* "$OUT"/plan_ir.txt "$OUT"/env.txt
exec > >(tee "$OUT/summary.txt") 2>&1
t_start=$(date +%s)
status=0

section() { printf '\n== %s\n' "$*"; }
fail() { echo "bench: FAILED: $*"; status=1; }

# table FILE: a CSV file as aligned columns.
table() {
	awk -F, '
		{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) }
		  if (NF > nf) nf = NF; n = NR }
		END { for (r = 1; r <= n; r++) { line = "  "
			for (i = 1; i <= nf; i++) line = line sprintf("%-" w[i] + 2 "s", c[r, i])
			sub(/ +$/, "", line); print line } }' "$1"
}

# kv2csv KEYS...: "k=v k=v" lines on stdin to CSV with a header of KEYS.
kv2csv() {
	awk -v keys="$*" '
		BEGIN { n = split(keys, k, " "); h = k[1]; for (i = 2; i <= n; i++) h = h "," k[i]; print h }
		{ delete v; for (i = 1; i <= NF; i++) if ((p = index($i, "=")) > 0) v[substr($i, 1, p - 1)] = substr($i, p + 1)
		  l = v[k[1]]; for (i = 2; i <= n; i++) l = l "," v[k[i]]; print l }'
}

# ratios FILE NCOL RCOL VCOL PCOL [QCOL]: per value of column NCOL
# (npartitions), the partition count (column PCOL), the median of column
# VCOL over rounds (column RCOL), the median, lowest and highest ratio to
# npartitions=1 of the same round and, with QCOL, the median of that
# column (queued requests).  CSV on stdout.
ratios() {
	awk -F, -v ncol="$2" -v rcol="$3" -v vcol="$4" -v pcol="$5" -v qcol="${6:-0}" '
		function median(a, m,   i, j, t) {
			for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
		}
		NR == 1 { next }
		{ n = $ncol; r = $rcol; val[n, r] = $vcol; parts[n] = $pcol; if (qcol) qv[n, r] = $qcol
		  if (!(n in seen)) { seen[n] = 1; order[++nn] = n }
		  if (!(r in rs)) { rs[r] = 1; rounds[++nr] = r } }
		END {
			print "npartitions,parts,runs,median_rps,ratio_median,ratio_min,ratio_max" (qcol ? ",queued_median" : "")
			for (i = 1; i <= nn; i++) {
				n = order[i]; m = 0; q = 0; lo = ""; hi = ""
				delete a; delete b; delete c
				for (j = 1; j <= nr; j++) {
					r = rounds[j]
					if (!((n, r) in val)) continue
					a[++m] = val[n, r]; c[m] = qv[n, r]
					if ((1, r) in val && val[1, r] > 0) {
						x = val[n, r] / val[1, r]; b[++q] = x
						if (lo == "" || x < lo) lo = x
						if (hi == "" || x > hi) hi = x
					}
				}
				if (!m) continue
				printf "%s,%s,%d,%.0f,%s,%s,%s%s\n", (n == 0 ? "0 (default)" : n), parts[n], m, median(a, m),
					(q ? sprintf("%.2f", median(b, q)) : ""), (q ? sprintf("%.2f", lo) : ""), (q ? sprintf("%.2f", hi) : ""),
					(qcol ? "," median(c, m) : "")
			}
		}' "$1"
}

# add_idle SUMMARY KIND: append to a ratios() table the median idle share
# of the guest's vCPUs during the runs of each npartitions (BENCH-IDLE
# lines of KIND in $OUT/vm.log).
add_idle() {
	sed -n "s/^BENCH-IDLE $2 round=\([0-9]*\) n=\([0-9]*\) idle=\([0-9]*\)/\2 \3/p" "$OUT/vm.log" >"$OUT/vm_idle.$2.txt"
	awk -F, 'NR == FNR { split($0, f, " "); v[f[1], ++c[f[1]]] = f[2]; next }
		FNR == 1 { print $0 ",idle_pct_median"; next }
		{ n = $1; sub(/ .*/, "", n); m = c[n]; delete a
		  for (i = 1; i <= m; i++) a[i] = v[n, i]
		  for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		  med = !m ? "" : m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
		  print $0 "," med }' "$OUT/vm_idle.$2.txt" "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}

# svc_compare FILE: per npartitions of vm_svc.csv, the median ratio to
# npartitions=1 of impl=toolkit, impl=hand and impl=hand with lock=mutex
# (hand_mutex), and the median over the rounds of toolkit rps / hand rps.
# CSV on stdout.
svc_compare() {
	awk -F, '
		function median(a, m,   i, j, t) {
			for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
		}
		NR == 1 { next }
		{ v[$2, $1, $12] = $8; if (!($2 in seen)) { seen[$2] = 1; order[++nn] = $2 }
		  if (!($1 in rs)) { rs[$1] = 1; rounds[++nr] = $1 } }
		END {
			print "npartitions,ratio_median_toolkit,ratio_median_hand,ratio_median_hand_mutex,toolkit_over_hand_median,toolkit_over_hand_min,toolkit_over_hand_max"
			for (i = 1; i <= nn; i++) {
				n = order[i]; mt = mh = mm = mx = 0; lo = hi = ""
				delete t; delete h; delete hm; delete x
				for (j = 1; j <= nr; j++) {
					r = rounds[j]
					if ((n, r, "toolkit") in v && v[1, r, "toolkit"] > 0) t[++mt] = v[n, r, "toolkit"] / v[1, r, "toolkit"]
					if ((n, r, "hand") in v && v[1, r, "hand"] > 0) h[++mh] = v[n, r, "hand"] / v[1, r, "hand"]
					if ((n, r, "hand_mutex") in v && v[1, r, "hand_mutex"] > 0) hm[++mm] = v[n, r, "hand_mutex"] / v[1, r, "hand_mutex"]
					if ((n, r, "toolkit") in v && v[n, r, "hand"] > 0) {
						y = v[n, r, "toolkit"] / v[n, r, "hand"]; x[++mx] = y
						if (lo == "" || y < lo) lo = y
						if (hi == "" || y > hi) hi = y
					}
				}
				printf "%s,%s,%s,%s,%s,%s,%s\n", n,
					mt ? sprintf("%.2f", median(t, mt)) : "-",
					mh ? sprintf("%.2f", median(h, mh)) : "-",
					mm ? sprintf("%.2f", median(hm, mm)) : "-",
					mx ? sprintf("%.2f", median(x, mx)) : "-",
					mx ? sprintf("%.2f", lo) : "-", mx ? sprintf("%.2f", hi) : "-"
			}
		}' "$1"
}

host_info() {
	echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host:    $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), Linux $(uname -r)"
	echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
	echo "tools:   $(${CC:-cc} --version | head -n 1); $(valgrind --version 2>/dev/null || echo 'no valgrind'); $(qemu-system-x86_64 --version 2>/dev/null | head -n 1)"
}

section "cpt benchmarks (make bench)"
host_info | tee "$OUT/env.txt"

# ---- 1. planner cost ---------------------------------------------------------
section "Planner cost: cplan_make() on generated topologies (default layout)"
echo "  2 threads per core (CPU i and i+N/2 siblings), 16 cores per L3, 64 cores per node and package"
# shellcheck disable=SC2086
if "$PLAN_BENCH" scale -t 300 $BENCH_SIZES >"$OUT/plan_time.csv"; then
	: >"$OUT/plan_ir.txt"
	for n in $BENCH_SIZES; do
		if command -v valgrind >/dev/null &&
		   valgrind --tool=callgrind --toggle-collect=cplan_make \
			--callgrind-out-file="$OUT/callgrind.out.$n" \
			"$PLAN_BENCH" once "$n" >/dev/null 2>"$OUT/callgrind.$n.log"; then
			echo "$n $(sed -n 's/^summary: *//p' "$OUT/callgrind.out.$n")" >>"$OUT/plan_ir.txt"
		else
			echo "$n -" >>"$OUT/plan_ir.txt"
			fail "callgrind on $n CPUs (see $OUT/callgrind.$n.log)"
		fi
	done
	awk -F, 'NR == FNR { ir[$1] = $2; next }
		FNR == 1 { print "cpus,cores,nodes,l3,parts,reps,best_us,median_us,instructions,instr_per_cpu,instr_x_per_doubling,time_x_per_doubling"; next }
		{
			n = $1; i = (n in ir) ? ir[n] : "-"
			gi = gt = "-"
			if (pn && i != "-" && pi != "-") {
				d = log(n / pn) / log(2)
				gi = sprintf("%.2f", exp(log(i / pi) / d))
				gt = sprintf("%.2f", exp(log($7 / pt) / d))
			}
			printf "%s,%s,%s,%s,%s,%s,%.1f,%.1f,%s,%s,%s,%s\n", n, $2, $3, $4, $5, $6, $7 / 1000, $8 / 1000,
				i, i == "-" ? "-" : sprintf("%.0f", i / n), gi, gt
			pn = n; pi = i; pt = $7
		}' FS=' ' "$OUT/plan_ir.txt" FS=, "$OUT/plan_time.csv" >"$OUT/plan.csv"
	table "$OUT/plan.csv"
	awk -F, 'NR > 1 { if (!f) { f = $1; fi = $9 } l = $1; li = $9 }
		END { if (l > f && li != "-" && fi != "-") printf "  %d -> %d CPUs: %.1fx the instructions for %.0fx the CPUs (%.2fx per doubling)\n",
			f, l, li / fi, l / f, exp(log(li / fi) / (log(l / f) / log(2))) }' "$OUT/plan.csv"
else
	fail "plan-bench scale"
fi

# ---- 1b. cpt-plan --sysfs against its files read bare, and --lscpu -----------
section "cpt-plan as a whole process: --sysfs against its files read bare and --lscpu, median of 7 rounds"
echo "  the same machines as a sysfs tree and as lscpu -p output (tests/bench/mktree.sh); opens: files --sysfs opens;"
echo "  bare: those files opened and read, nothing else (tests/bench/sysfs_bare.c); --sysfs over 1.25x bare at 8192 CPUs fails"
# shellcheck disable=SC2086
if CPT_PLAN=$CPT_PLAN BENCH_BARE=$BIN/sysfs-bare BENCH_TREES="$OUT/trees" \
   tests/bench/sysfs-bench.sh $BENCH_SIZES >"$OUT/sysfs.csv"; then
	table "$OUT/sysfs.csv"
else
	table "$OUT/sysfs.csv"
	fail "sysfs-bench (a table differs between --sysfs and --lscpu, a run failed, or --sysfs is past 1.25x its bare reading)"
fi

# ---- 1c. cpt-plan --fleet -------------------------------------------------------
section "cpt-plan --fleet: classing generated fleets, median of 5 runs"
echo "  HOST.lscpu copies of 8 fixture machines, blocks or mixed, one malformed (tests/bench/fleet-bench.sh)"
# shellcheck disable=SC2086
if CPT_PLAN=$CPT_PLAN tests/bench/fleet-bench.sh $BENCH_FLEET >"$OUT/fleet.csv"; then
	table "$OUT/fleet.csv"
else
	table "$OUT/fleet.csv"
	fail "fleet-bench (a fleet classed wrong, or a run failed)"
fi

# ---- 2. memory ------------------------------------------------------------------
section "Memory of one table in the kernel (core table + glue)"
krel=$(head -n 1 "${CPT_KERNELS:-/var/cache/cpt/kernels}/release-$BENCH_KERNEL" 2>/dev/null || echo "$BENCH_KERNEL")
sizes=
if make -s --no-print-directory ko KREL="$BENCH_KERNEL" >"$OUT/ko.log" 2>&1 &&
   command -v pahole >/dev/null; then
	s1=$(pahole -C cptab "build/ko/$krel/cpt.ko" 2>/dev/null | sed -n 's/.*size: \([0-9]*\),.*/\1/p')
	s2=$(pahole -C cptk_part "build/ko/$krel/cpt.ko" 2>/dev/null | sed -n 's/.*size: \([0-9]*\),.*/\1/p')
	[ -n "$s1" ] && [ -n "$s2" ] && sizes="$s1,$s2"
fi
if [ -n "$sizes" ]; then
	echo "  sizeof(struct cptab), sizeof(struct cpt_part) = $sizes bytes (pahole on build/ko/$krel/cpt.ko)"
else
	sizes=224,160
	echo "  sizeof(struct cptab), sizeof(struct cpt_part) = $sizes bytes (pahole or make ko unavailable: the values measured for 6.1/6.12)"
fi
echo "  sizes rounded as kvmalloc() rounds them (slab classes to 8 KiB, page orders above); cpumask = BITS_TO_LONGS(nr_cpu_ids) longs"
mem_args=
for n in $BENCH_SIZES; do mem_args="$mem_args $n"; done
for p in 1 16 64 128 256; do mem_args="$mem_args 1024:$p"; done
# shellcheck disable=SC2086
if "$PLAN_BENCH" mem -s "$sizes" $mem_args >"$OUT/mem.csv"; then
	table "$OUT/mem.csv"
else
	fail "plan-bench mem"
fi

# ---- 3. layout quality ------------------------------------------------------------
section "Layout quality on tests/fixtures (default layout vs one partition per NUMA node)"
if "$PLAN_BENCH" layout tests/fixtures/*.lscpu >"$OUT/layout.csv"; then
	table "$OUT/layout.csv"
else
	fail "plan-bench layout"
fi

# ---- 4. userspace service model on this host ----------------------------------------
section "Userspace service model on this host (svc-bench, pinned by cpt-plan)"
ncpu=$(grep -c . <("$CPT_PLAN" --npartitions 0 | tr ' ' '\n' | grep -E '^[0-9]+$'))
host_nparts="1 0"
p=2
while [ "$p" -le "$ncpu" ]; do host_nparts="$host_nparts $p"; p=$((p * 2)); done
echo "  $ncpu CPUs online; npartitions $host_nparts (duplicate tables skipped), $BENCH_ROUNDS rounds of ${BENCH_HOST_MS} ms, window 8, work 4"
echo "round,npartitions,lock,parts,cpus,servers,lock_,window,work,ms,requests,rps,part_min,part_max" >"$OUT/host_svc.csv"
seen=
nlist=
for n in $host_nparts; do
	"$CPT_PLAN" --npartitions "$n" >"$OUT/host_plan.$n" 2>/dev/null || continue
	sum=$(cksum <"$OUT/host_plan.$n")
	case " $seen " in *" $sum "*) continue ;; esac
	seen="$seen $sum"
	nlist="$nlist $n"
done
for r in $(seq 1 "$BENCH_ROUNDS"); do
	list=$nlist
	# shellcheck disable=SC2086
	[ $((r % 2)) -eq 0 ] && list=$(printf '%s\n' $nlist | tac | tr '\n' ' ')
	for n in $list; do
		for lock in mutex spin; do
			if out=$("$SVC_BENCH" -c -l "$lock" -d "$BENCH_HOST_MS" "$OUT/host_plan.$n"); then
				echo "$r,$n,$lock,$out" >>"$OUT/host_svc.csv"
			else
				fail "svc-bench npartitions=$n $lock"
			fi
		done
	done
done
for lock in mutex spin; do
	echo "  lock=$lock: requests/s, median of rounds; ratio to npartitions=1 in the same round"
	awk -F, -v l="$lock" 'NR == 1 || $3 == l' "$OUT/host_svc.csv" >"$OUT/host_svc.$lock.csv"
	ratios "$OUT/host_svc.$lock.csv" 2 1 12 4 >"$OUT/host_svc_summary.$lock.csv"
	table "$OUT/host_svc_summary.$lock.csv"
done

# ---- 5. the guest -----------------------------------------------------------------
vm_parse() {
	local log=$1 prefix=$2
	grep '^BENCH-RESULT .*bench=lookup' "$log" |
		kv2csv op calls best_round_ns ps_per_call >"$OUT/${prefix}_lookup_raw.csv"
	grep '^BENCH-RESULT .*bench=svc' "$log" | sed 's/tag=svc_\([0-9]*\)_\([0-9]*\)_[a-z]*/round=\1 npartitions=\2/' |
		sed 's/impl=hand \(.*\)lock=mutex/impl=hand_mutex \1lock=mutex/' |
		kv2csv round npartitions parts cpus servers ns requests rps part_min part_max queued_avg impl >"$OUT/${prefix}_svc.csv"
}

# lookup_table RAW OUT UNIT: per operation, cost per call and ratios to
# this_cpu_read() (whole loop) and net of the empty loop.
lookup_table() {
	awk -F, -v unit="$3" 'NR == 1 { next } { op[++n] = $1; v[$1] = $4 / 1000 }
		END {
			print "operation," unit "_per_call,x_this_cpu_read,net_" unit ",net_x_this_cpu_read"
			e = v["empty_loop"]; b = v["this_cpu_read"]
			for (i = 1; i <= n; i++) {
				o = op[i]
				net = "-"
				if (b - e > 0 && o != "empty_loop")
					net = sprintf("%.1f", (v[o] - e) / (b - e))
				printf "%s,%.2f,%.2f,%.2f,%s\n", o, v[o], (b ? v[o] / b : 0), v[o] - e, net
			}
		}' "$1" >"$2"
}

# vm_run BASE COMMAND...: run vm-run (with --keep-going in COMMAND), stdout
# to BASE.log, stderr to BASE.err.  A kernel log problem fails the benchmark
# only when a trace names cpt or cpt_bench: the guest kernel itself warns
# now and then under a starved TCG (e.g. 6.12's deadline server: "DL
# replenish lagged too much"), and the figures stay.  (vm-run itself boots
# again a guest that dies before COMMAND starts.)
vm_run() {
	local base=$1 rc
	shift
	"$@" >"$base.log" 2>"$base.err"
	rc=$?
	grep '^vm-run: [^|=]' "$base.err" | sed 's/^/  /'
	if grep -q 'KERNEL LOG PROBLEM' "$base.err"; then
		echo "  guest kernel log problem (in $base.err):"
		grep -E '^vm-run: \| .*(WARNING|BUG|Oops|lockup|stall|Call Trace)' "$base.err" |
			head -n 3 | sed 's/^vm-run: | /    /'
		if grep -Eq '^vm-run: \| .*\[(cpt|cpt_bench)\]' "$base.err"; then
			fail "the guest's kernel log problem involves cpt or cpt_bench"
		else
			echo "    (no trace through cpt or cpt_bench: not counted as a failure)"
		fi
	fi
	return "$rc"
}

if [ "$BENCH_VM" = 1 ]; then
	section "Guest: Linux $krel under QEMU TCG, -smp $BENCH_SMP"
	payload=()
	if [ -x "$SVC_STATIC" ]; then
		mapfile -t payload < <(gzip -9c "$SVC_STATIC" | base64 -w 0 | fold -w 100000)
	fi
	guest="BENCH_WHAT='mem lookup svc usvc' BENCH_NPARTS='$BENCH_NPARTS' BENCH_ROUNDS=$BENCH_ROUNDS BENCH_USVC_ROUNDS=$BENCH_USVC_ROUNDS BENCH_SVC_MS=$BENCH_SVC_MS BENCH_CALLS=$BENCH_CALLS ./guest-bench.sh \"\$@\""
	echo "  boot and run: mem, lookup ($BENCH_CALLS calls), svc ($BENCH_ROUNDS rounds) and usvc ($BENCH_USVC_ROUNDS rounds)"
	echo "  for npartitions $BENCH_NPARTS, $BENCH_SVC_MS ms a run (load $(cut -d' ' -f1 /proc/loadavg))"
	# Multi-threaded TCG (vm-run gives 6.12 one thread by default): the
	# service model needs vCPUs that really run at once.  vm-run boots
	# again a guest that dies while booting.
	TCG_OPTS='' vm_run "$OUT/vm" scripts/vm-run --keep-going --kernel "$BENCH_KERNEL" --smp "$BENCH_SMP" --timeout 1500 \
		-- sh -c "$guest" guest-bench "${payload[@]}"
	rc=$?
	[ "$rc" -eq 0 ] || fail "guest run (exit $rc; $OUT/vm.log, $OUT/vm.err)"
	grep '^BENCH-FAIL' "$OUT/vm.log" | sed 's/^/  /'
	echo "  load after: $(cut -d' ' -f1 /proc/loadavg)"
	vm_parse "$OUT/vm.log" vm

	echo
	echo "  Memory of the table in force, measured in the guest (ksize() of every allocation) vs plan-bench mem:"
	guest_cpus=$(sed -n 's/^BENCH-RESULT .*bench=mem .*nr_cpu_ids=\([0-9]*\).*/\1/p' "$OUT/vm.log" | head -n 1)
	grep '^BENCH-RESULT .*bench=mem' "$OUT/vm.log" | sed 's/tag=mem_\([0-9]*\)/npartitions=\1/' |
		kv2csv npartitions parts nr_cpu_ids nr_node_ids core_req_bytes core_bytes glue_bytes cpumask_bytes total_bytes \
			>"$OUT/vm_mem_measured.csv"
	if [ -n "$guest_cpus" ]; then
		margs=
		for n in $BENCH_NPARTS; do margs="$margs $guest_cpus:$n"; done
		# shellcheck disable=SC2086
		"$PLAN_BENCH" mem -s "$sizes" $margs >"$OUT/vm_mem_model.csv"
		awk -F, 'NR == FNR { if (FNR > 1) { mc[FNR] = $6; mg[FNR] = $9 } next }
			FNR == 1 { print "npartitions,parts,nr_cpu_ids,core_bytes,glue_bytes,total_bytes,model_core_bytes,model_glue_bytes,match"; next }
			{ printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $6, $7, $9, mc[FNR], mg[FNR],
				($6 == mc[FNR] && $7 == mg[FNR]) ? "yes" : "NO" }' \
			"$OUT/vm_mem_model.csv" "$OUT/vm_mem_measured.csv" >"$OUT/vm_mem.csv"
		table "$OUT/vm_mem.csv"
		grep -q ',NO$' "$OUT/vm_mem.csv" && echo "  (model and measurement differ: see $OUT/vm_mem.csv)"
	else
		fail "no mem result from the guest"
	fi

	echo
	echo "  Lookup cost under TCG (wall-clock time, best of 5 rounds; noisy, see icount below):"
	lookup_table "$OUT/vm_lookup_raw.csv" "$OUT/vm_lookup.csv" ns
	table "$OUT/vm_lookup.csv"

	echo
	echo "  Kernel service model (cpt_bench bench=svc): requests/s per npartitions (0 = default layout);"
	echo "  queued: requests waiting in the queues (sampled every 10 ms); idle_pct: idle share of all"
	echo "  vCPUs from insmod to the end of the run (guest /proc/stat)"
	grep '^BENCH-TABLE' "$OUT/vm.log" | awk '{ sub("n=", "", $2); sub("parts=", "", $3); p[$2] = $3 }
		END { s = ""; for (n in p) s = s " " n "->" p[n]; print "  partitions per npartitions:" s }'
	for impl in toolkit hand hand_mutex; do
		awk -F, -v i="$impl" 'NR == 1 || $12 == i' "$OUT/vm_svc.csv" >"$OUT/vm_svc.$impl.csv"
		[ "$(wc -l <"$OUT/vm_svc.$impl.csv")" -gt 1 ] || continue
		case $impl in
		toolkit) what="on cpt.h's helpers: cpt_lock, a mutex per partition" ;;
		hand) what="without them, a spinlock per queue" ;;
		*) what="without them, a mutex per queue" ;;
		esac
		echo "  impl=$impl ($what):"
		ratios "$OUT/vm_svc.$impl.csv" 2 1 8 3 11 >"$OUT/vm_svc_summary.$impl.csv"
		add_idle "$OUT/vm_svc_summary.$impl.csv" "svc_$impl"
		table "$OUT/vm_svc_summary.$impl.csv"
	done
	echo
	echo "  The builds side by side: the median ratio to npartitions=1 of each, and the"
	echo "  median of toolkit/hand requests/s over the rounds (same round, same table)"
	svc_compare "$OUT/vm_svc.csv" >"$OUT/vm_svc_compare.csv"
	table "$OUT/vm_svc_compare.csv"

	echo
	echo "  Userspace service model (svc-bench, mutex) in the same guest, pinned by the guest's cpt-plan:"
	echo "round,npartitions,parts,cpus,servers,lock,window,work,ms,requests,rps,part_min,part_max" >"$OUT/vm_usvc.csv"
	sed -n 's/^BENCH-USVC n=\([0-9]*\) round=\([0-9]*\),/\2,\1,/p' "$OUT/vm.log" >>"$OUT/vm_usvc.csv"
	ratios "$OUT/vm_usvc.csv" 2 1 11 3 >"$OUT/vm_usvc_summary.csv"
	add_idle "$OUT/vm_usvc_summary.csv" usvc
	table "$OUT/vm_usvc_summary.csv"

	elapsed=$(($(date +%s) - t_start))
	if [ "$BENCH_ICOUNT" = 1 ] && [ "${krel#6.1.}" != "$krel" ]; then
		# Seen here: 6.1 never finishes "Bringing up secondary CPUs" under
		# icount (sleep=off), while 6.12 boots in seconds of guest time.
		section "Guest under QEMU icount skipped: Linux 6.1 hangs bringing up its CPUs under icount (use BENCH_KERNEL=6.12)"
	elif [ "$BENCH_ICOUNT" = 1 ] && [ "$elapsed" -gt "$BENCH_BUDGET_S" ]; then
		section "Guest under QEMU icount skipped: ${elapsed} s have passed (BENCH_BUDGET_S=$BENCH_BUDGET_S)"
	elif [ "$BENCH_ICOUNT" = 1 ]; then
		section "Guest under QEMU icount, -smp $BENCH_ICOUNT_SMP (shift=0: 1 guest ns = 1 instruction; vCPUs run one at a time)"
		guest="BENCH_WHAT='lookup svc' BENCH_NPARTS='$BENCH_ICOUNT_NPARTS' BENCH_ROUNDS=1 BENCH_SVC_MS=1000 BENCH_CALLS=$BENCH_ICOUNT_CALLS ./guest-bench.sh"
		QEMU=$ROOT/tests/bench/qemu-icount TCG_OPTS=thread=single \
			vm_run "$OUT/icount" scripts/vm-run --keep-going --no-build --kernel "$BENCH_KERNEL" \
			--smp "$BENCH_ICOUNT_SMP" --timeout 900 -- "$guest"
		rc=$?
		[ "$rc" -eq 0 ] || fail "icount guest run (exit $rc; $OUT/icount.log, $OUT/icount.err)"
		vm_parse "$OUT/icount.log" icount
		echo "  Lookup cost in guest instructions per call (deterministic):"
		lookup_table "$OUT/icount_lookup_raw.csv" "$OUT/icount_lookup.csv" instr
		table "$OUT/icount_lookup.csv"
		echo
		echo "  Kernel service model: guest instructions per request, all vCPUs together (1 s of guest time)"
		awk -F, 'NR == 1 { print "impl,npartitions,parts,requests,instr_per_request,queued_avg"; next }
			{ printf "%s,%s,%s,%s,%.0f,%s\n", $12, $2, $3, $7, $6 / $7, $11 }' "$OUT/icount_svc.csv" >"$OUT/icount_svc_summary.csv"
		table "$OUT/icount_svc_summary.csv"
	fi
else
	section "Guest parts skipped (BENCH_VM=$BENCH_VM)"
fi

t_end=$(date +%s)
section "Done in $((t_end - t_start)) s; load $(cut -d' ' -f1-3 /proc/loadavg); CSV files in $OUT/"
exit $status
