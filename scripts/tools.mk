# SPDX-License-Identifier: GPL-2.0
#
# cpt-plan (the planner as a userspace tool) and its tests; included by the
# top Makefile, which defines CC, CFLAGS, WARN, SAN, CORE_SRC and CORE_HDR.
#
#   make tools                  scripts/cpt-plan
#   make build/cpt-plan.static  the same, static (for the VM initramfs)
#   make test-tool              tests/tool/run.sh on the fixtures, with an
#                               ASan+UBSan build, plus the libnuma check
#   make lint-tool              cppcheck and clang-tidy on the tool's sources

TOOL_SRC	 = scripts/cpt-plan.c scripts/topo_read.c
TOOL_HDR	 = scripts/topo_read.h
TOOL_DEPS	 = $(TOOL_SRC) $(TOOL_HDR) $(CORE_SRC) $(CORE_HDR)
TOOL_CC		 = $(CC) $(CFLAGS) $(WARN) -Icpt/core -Iscripts
NUMA_CHECK_SRC	 = tests/tool/numa_check.c scripts/topo_read.c
BENCH_SRC	 = tests/tool/bench.c scripts/topo_read.c
TOOL_TEST_BINS	 = build/cpt-plan.san build/cpt-plan.static build/numa_check \
		   build/cpt-bench

.PHONY: lint-tool

tools: scripts/cpt-plan

scripts/cpt-plan: $(TOOL_DEPS)
	$(TOOL_CC) -o $@ $(TOOL_SRC) $(CORE_SRC) $(LDFLAGS)

build/cpt-plan.static: $(TOOL_DEPS)
	@mkdir -p $(@D)
	$(TOOL_CC) -static -o $@ $(TOOL_SRC) $(CORE_SRC) $(LDFLAGS)

build/cpt-plan.san: $(TOOL_DEPS)
	@mkdir -p $(@D)
	$(TOOL_CC) $(SAN) -o $@ $(TOOL_SRC) $(CORE_SRC) $(LDFLAGS)

build/numa_check: $(NUMA_CHECK_SRC) $(TOOL_HDR) $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $(@D)
	$(TOOL_CC) $(SAN) -o $@ $(NUMA_CHECK_SRC) $(CORE_SRC) $(LDFLAGS) -lnuma

build/cpt-bench: $(BENCH_SRC) tests/tool/bench_time.h $(TOOL_HDR) $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $(@D)
	$(TOOL_CC) -o $@ $(BENCH_SRC) $(CORE_SRC) $(LDFLAGS)

test-tool: scripts/cpt-plan $(TOOL_TEST_BINS)
	CPT_PLAN=build/cpt-plan.san CPT_PLAN_FAST=scripts/cpt-plan \
	CPT_PLAN_STATIC=build/cpt-plan.static NUMA_CHECK=build/numa_check \
	CPT_BENCH=build/cpt-bench sh tests/tool/run.sh

lint-tool:
	cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability \
		--std=c11 --inline-suppr --suppress=missingIncludeSystem \
		-Icpt/core -Iscripts $(TOOL_SRC) tests/tool/numa_check.c tests/tool/bench.c
	clang-tidy --quiet --warnings-as-errors='*' \
		--checks='-*,clang-analyzer-*,bugprone-*,cert-*,misc-*,performance-*,portability-*,-bugprone-easily-swappable-parameters,-misc-include-cleaner,-cert-err33-c,-bugprone-reserved-identifier,-cert-dcl37-c,-cert-dcl51-cpp,-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling,-clang-analyzer-valist.Uninitialized' \
		$(TOOL_SRC) tests/tool/numa_check.c tests/tool/bench.c -- -Icpt/core -Iscripts

lint: lint-tool
