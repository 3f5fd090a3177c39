#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mktree.sh: a big machine as a fake sysfs tree and as `lscpu -p` output,
# for timing `cpt-plan --sysfs` against `cpt-plan --lscpu` (make bench,
# tests/bench/run.sh) and for the tool tests of big trees:
#
#   tests/bench/mktree.sh NCPUS DIR [THREADS [CORES_PER_L3 [CORES_PER_NODE]]]
#
# writes DIR/sysfs/devices/system/{cpu,node}/... and DIR/lscpu.  The
# machine is the one plan-bench generates (tests/bench/plan_bench.c,
# gen_topo()) with its defaults: THREADS threads per core [2], Intel
# numbering (CPU i, i + NCPUS/THREADS, ... are one core's threads),
# CORES_PER_L3 cores per L3 domain [16], CORES_PER_NODE cores per NUMA
# node and package [64], distances 10 local and 20 remote, every CPU
# online.  The files are those the kernel has and cpt-plan may read, in
# the kernel's list format ("0-3,8"): cpu/{possible,online},
# cpuN/online, cpuN/topology/{physical_package_id,core_id,
# thread_siblings_list,core_siblings_list,package_cpus_list},
# cpuN/cache/index0-3/{level,type,shared_cpu_list},
# node/{possible,online}, nodeN/{cpulist,distance}.
set -eu

[ $# -ge 2 ] || { echo "usage: $0 NCPUS DIR [THREADS [CORES_PER_L3 [CORES_PER_NODE]]]" >&2; exit 2; }
N=$1 OUT=$2 T=${3:-2} L3=${4:-16} PER=${5:-64}
if [ $((N % T)) -ne 0 ]; then
	echo "$0: NCPUS ($N) is not a multiple of THREADS ($T)" >&2
	exit 2
fi
rm -rf "$OUT"
S=$OUT/sysfs/devices/system

# Every directory first (awk cannot make them), then every file.
awk -v N="$N" -v T="$T" -v PER="$PER" -v S="$S" 'BEGIN {
	C = N / T; nodes = int((C + PER - 1) / PER)
	print S "/cpu"
	for (c = 0; c < N; c++)
		for (k = 0; k < 4; k++)
			print S "/cpu/cpu" c "/cache/index" k
	for (c = 0; c < N; c++)
		print S "/cpu/cpu" c "/topology"
	for (n = 0; n < nodes; n++)
		print S "/node/node" n
}' | xargs mkdir -p

awk -v N="$N" -v T="$T" -v L3="$L3" -v PER="$PER" -v S="$S" \
    -v LSCPU="$OUT/lscpu" '
# put FILE TEXT: FILE holds TEXT and a newline, as a sysfs attribute.
function put(file, text) {
	print text >file
	close(file)
}
# cores(lo, hi): the list of the threads of cores lo..hi, in the kernel
# format: one range per thread, merged when they touch.
function cores(lo, hi,   s, t, a, b, pa, pb) {
	s = ""; pa = -2; pb = -2
	for (t = 0; t < T; t++) {
		a = t * C + lo; b = t * C + hi
		if (a == pb + 1) { pb = b; continue }
		if (pa >= 0) s = s (s == "" ? "" : ",") (pa == pb ? pa : pa "-" pb)
		pa = a; pb = b
	}
	return s (s == "" ? "" : ",") (pa == pb ? pa : pa "-" pb)
}
function min(a, b) { return a < b ? a : b }
BEGIN {
	C = N / T; nodes = int((C + PER - 1) / PER)
	put(S "/cpu/possible", "0-" (N - 1))
	put(S "/cpu/online", "0-" (N - 1))
	put(S "/node/possible", nodes == 1 ? "0" : "0-" (nodes - 1))
	put(S "/node/online", nodes == 1 ? "0" : "0-" (nodes - 1))
	for (n = 0; n < nodes; n++) {
		put(S "/node/node" n "/cpulist", cores(n * PER, min(C, (n + 1) * PER) - 1))
		d = ""
		for (m = 0; m < nodes; m++) d = d (m ? " " : "") (m == n ? 10 : 20)
		put(S "/node/node" n "/distance", d)
	}
	print "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3" >LSCPU
	for (c = 0; c < N; c++) {
		k = c % C; n = int(k / PER); l = int(k / L3)
		d = S "/cpu/cpu" c
		if (c) put(d "/online", 1)
		sib = cores(k, k)
		pkg = cores(n * PER, min(C, (n + 1) * PER) - 1)
		put(d "/topology/physical_package_id", n)
		put(d "/topology/core_id", k % PER)
		put(d "/topology/thread_siblings_list", sib)
		put(d "/topology/core_siblings_list", pkg)
		put(d "/topology/package_cpus_list", pkg)
		split("1 1 2 3", lvl, " "); split("Data Instruction Unified Unified", typ, " ")
		for (i = 0; i < 4; i++) {
			put(d "/cache/index" i "/level", lvl[i + 1])
			put(d "/cache/index" i "/type", typ[i + 1])
			put(d "/cache/index" i "/shared_cpu_list",
			    i < 3 ? sib : cores(l * L3, min(C, (l + 1) * L3) - 1))
		}
		printf "%d,%d,%d,%d,,%d,%d,%d,%d\n", c, k, n, n, k, k, k, l >LSCPU
	}
	close(LSCPU)
}'
