# SPDX-License-Identifier: GPL-2.0
#
# The tests of cpt-plan; included by the top Makefile after
# scripts/tools.mk, which builds the tool and names its sources (TOOL_SRC,
# TOOL_LIB_SRC: the topology readers the test programs link) and compiler
# line (TOOL_CC).  SAN comes from the top Makefile.
#
#   make test-tool   tests/tool/run.sh on the fixtures, with an ASan+UBSan
#                    build, plus the libnuma check and the bench smoke test
#   make lint-tool   cppcheck and clang-tidy on the tool's sources and the
#                    test programs

TOOL_TEST_SRC	 = tests/tool/numa_check.c tests/tool/bench.c
TOOL_TEST_BINS	 = build/cpt-plan.san build/cpt-plan.static \
		   build/numa_check build/cpt-bench

.PHONY: lint-tool

build/cpt-plan.san: $(TOOL_DEPS)
	@mkdir -p $(@D)
	$(TOOL_CC) $(SAN) -o $@ $(TOOL_SRC) $(CORE_SRC) $(LDFLAGS)

build/numa_check: tests/tool/numa_check.c $(TOOL_LIB_DEPS)
	@mkdir -p $(@D)
	$(TOOL_CC) $(SAN) -o $@ tests/tool/numa_check.c $(TOOL_LIB_SRC) \
		$(CORE_SRC) $(LDFLAGS) -lnuma

build/cpt-bench: tests/tool/bench.c tests/tool/bench_time.h $(TOOL_LIB_DEPS)
	@mkdir -p $(@D)
	$(TOOL_CC) -o $@ tests/tool/bench.c $(TOOL_LIB_SRC) $(CORE_SRC) $(LDFLAGS)

test-tool: scripts/cpt-plan $(TOOL_TEST_BINS)
	CPT_PLAN=build/cpt-plan.san CPT_PLAN_FAST=scripts/cpt-plan \
	CPT_PLAN_STATIC=build/cpt-plan.static NUMA_CHECK=build/numa_check \
	CPT_BENCH=build/cpt-bench sh tests/tool/run.sh
	CPT_PLAN=build/cpt-plan.san sh tests/tool/emit.sh

lint-tool:
	cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability \
		--std=c11 --inline-suppr --suppress=missingIncludeSystem \
		-Icpt/core -Iscripts $(TOOL_SRC) $(TOOL_TEST_SRC)
	clang-tidy --quiet --warnings-as-errors='*' \
		--checks='-*,clang-analyzer-*,bugprone-*,cert-*,misc-*,performance-*,portability-*,-bugprone-easily-swappable-parameters,-misc-include-cleaner,-cert-err33-c,-bugprone-reserved-identifier,-cert-dcl37-c,-cert-dcl51-cpp,-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling,-clang-analyzer-valist.Uninitialized' \
		$(TOOL_SRC) $(TOOL_TEST_SRC) -- -Icpt/core -Iscripts

lint: lint-tool
