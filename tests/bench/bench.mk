# SPDX-License-Identifier: GPL-2.0
#
# make bench: benchmarks of the planner, the module and the layout, with
# tables on stdout and CSV files in build/bench (tests/bench/run.sh says
# which, and which BENCH_* variables change the sizes).  Not part of make
# check: it boots QEMU twice and takes several minutes.  Included by the
# top Makefile, which defines CC, CFLAGS, WARN, CORE_SRC and CORE_HDR.
#
#   make bench              everything
#   make bench BENCH_VM=0   only what runs on this host (no guest)

BENCH_OUT	 = build/bench
BENCH_BINS	 = $(BENCH_OUT)/plan-bench $(BENCH_OUT)/svc-bench \
		   $(BENCH_OUT)/svc-bench.static $(BENCH_OUT)/sysfs-bare
BENCH_CC	 = $(CC) $(CFLAGS) $(WARN) -pthread

.PHONY: bench bench-bins

bench-bins: $(BENCH_BINS) scripts/cpt-plan build/cpt-plan.static

# The planner with its calloc()/free() counted (ld --wrap) for the memory
# model; built like cpt-plan otherwise.
$(BENCH_OUT)/plan-bench: tests/bench/plan_bench.c $(TOOL_LIB_DEPS) \
		tests/tool/bench_time.h
	@mkdir -p $(@D)
	$(BENCH_CC) -Icpt/core -Iscripts -o $@ tests/bench/plan_bench.c \
		$(TOOL_LIB_SRC) $(CORE_SRC) -Wl,--wrap=calloc,--wrap=free $(LDFLAGS)

$(BENCH_OUT)/svc-bench: tests/bench/svc_bench.c
	@mkdir -p $(@D)
	$(BENCH_CC) -pthread -o $@ $< $(LDFLAGS)

# Static, for the guest (its initramfs has no C library).
$(BENCH_OUT)/svc-bench.static: tests/bench/svc_bench.c
	@mkdir -p $(@D)
	$(BENCH_CC) -static -pthread -s -o $@ $< $(LDFLAGS)

# The floor of cpt-plan --sysfs: the same files opened and read, nothing
# else (tests/bench/sysfs-bench.sh).
$(BENCH_OUT)/sysfs-bare: tests/bench/sysfs_bare.c
	@mkdir -p $(@D)
	$(BENCH_CC) -o $@ $< $(LDFLAGS)

bench: bench-bins
	CC="$(CC)" BENCH_OUT=$(BENCH_OUT) tests/bench/run.sh
