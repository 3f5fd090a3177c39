# SPDX-License-Identifier: GPL-2.0
#
# libFuzzer target over the portable core (cpu_pattern parser, planner,
# formatter, hotplug update) with AddressSanitizer and UBSan: random
# topologies, npartitions values and patterns, every invariant of
# doc/planner.md checked by the oracle the unit tests use too
# (tests/unit/oracle.c).  Included by the top Makefile.
#
#   make fuzz [FUZZ_SECONDS=600]    fuzz for N seconds (default 60)
#   make test-fuzz                  the seed corpus once, then 30 s (make check)
#   make fuzz-repro FILE=build/fuzz/crash-...   rerun one input, verbose
#   make fuzz-corpus                rewrite tests/fuzz/corpus (gen-corpus.py)
#   make fuzz-cov                   line/branch coverage of cpt/core/*.c by
#                                   build/fuzz/corpus (or the seeds), llvm-cov
#
# FUZZ_FLAGS adds libFuzzer flags (FUZZ_FLAGS=-use_value_profile=1).
#
# Runs work on a copy of the seed corpus under build/fuzz/ (the checked-in
# tests/fuzz/corpus is never written); a crash, sanitizer report, invariant
# violation, timeout or out-of-memory saves its input as build/fuzz/crash-*
# (timeout-*, oom-*) and fails.  Each run ends with a summary line: execs,
# time, coverage, corpus size.
#
# FUZZ_RELAX lists checks of documented behaviour to skip (ids S1... in
# fuzz_plan.c, tests/fuzz/README.md), for use while a finding waits for its
# fix; every run prints it.  All findings so far (S1 S2 S4 S5 S7, inputs in
# tests/fuzz/findings/, tests in tests/unit/test_fuzz_findings.c) are fixed,
# so every check runs.  Memory safety is never relaxed.

FUZZ_DIR	:= tests/fuzz
FUZZ_OUT	:= build/fuzz
FUZZ_CC		?= $(firstword $(shell command -v clang-14 clang 2>/dev/null) clang)
FUZZ_SECONDS	?= 60
FUZZ_CI_SECONDS	?= 30
FUZZ_RELAX	?=
FUZZ_FLAGS	?=
FUZZ_BIN	:= $(FUZZ_OUT)/fuzz_plan
FUZZ_COV_BIN	:= $(FUZZ_OUT)/cov/fuzz_plan
FUZZ_LLVM_SUFFIX ?= $(if $(filter %clang-14,$(FUZZ_CC)),-14)
FUZZ_SAN	 = -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
FUZZ_CFLAGS	 = -g -O1 $(FUZZ_SAN) $(WARN) -Icpt/core -Itests/unit
# the test oracle, shared with the unit tests
FUZZ_ORACLE	:= tests/unit/oracle.c tests/unit/oracle.h
FUZZ_CORE_OBJS	:= $(patsubst cpt/core/%.c,$(FUZZ_OUT)/core/%.o,$(CORE_SRC))
# the core's allocations go through fz_calloc(), which fails them on demand
FUZZ_CORE_FLAGS	 = -include $(FUZZ_DIR)/fz_alloc.h
FUZZ_HDRS	 = $(wildcard $(CORE_HDR)) $(FUZZ_DIR)/fz_alloc.h tests/unit/oracle.h
FUZZ_RUN	 = CPT_FUZZ_RELAX='$(FUZZ_RELAX)' FUZZ_FLAGS='$(FUZZ_FLAGS)' \
		   FUZZ_BIN=$(FUZZ_BIN) FUZZ_OUT=$(FUZZ_OUT) $(FUZZ_DIR)/run-fuzz

.PHONY: fuzz fuzz-build test-fuzz fuzz-repro fuzz-corpus fuzz-cov

fuzz-build: $(FUZZ_BIN)

fuzz: $(FUZZ_BIN)
	$(FUZZ_RUN) fuzz $(FUZZ_SECONDS)

test-fuzz: $(FUZZ_BIN)
	$(FUZZ_RUN) ci $(FUZZ_CI_SECONDS)

fuzz-repro: $(FUZZ_BIN)
	@test -n "$(FILE)" || { echo "usage: make fuzz-repro FILE=build/fuzz/crash-..." >&2; exit 2; }
	$(FUZZ_RUN) repro $(FILE)

fuzz-cov: $(FUZZ_COV_BIN)
	CPT_FUZZ_RELAX='$(FUZZ_RELAX)' FUZZ_BIN=$(FUZZ_COV_BIN) FUZZ_OUT=$(FUZZ_OUT) \
	LLVM_SUFFIX=$(FUZZ_LLVM_SUFFIX) $(FUZZ_DIR)/run-fuzz cov $(CORE_SRC)

# Source-based coverage, no sanitizer: only to measure what the corpus reaches.
$(FUZZ_COV_BIN): $(FUZZ_DIR)/fuzz_plan.c $(CORE_SRC) $(FUZZ_HDRS) $(FUZZ_ORACLE)
	@mkdir -p $(@D)
	$(FUZZ_CC) -g -O1 $(WARN) -Icpt/core -Itests/unit -fsanitize=fuzzer \
		-c -o $(@D)/oracle.o tests/unit/oracle.c
	$(FUZZ_CC) -g -O1 $(WARN) $(FUZZ_CORE_FLAGS) -Icpt/core -Itests/unit \
		-fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping \
		-o $@ $(FUZZ_DIR)/fuzz_plan.c $(CORE_SRC) $(@D)/oracle.o

fuzz-corpus:
	rm -f $(FUZZ_DIR)/corpus/*
	python3 $(FUZZ_DIR)/gen-corpus.py $(FUZZ_DIR)/corpus

$(FUZZ_OUT)/core/%.o: cpt/core/%.c $(FUZZ_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CORE_FLAGS) -fsanitize=fuzzer-no-link \
		-c -o $@ $<

$(FUZZ_OUT)/fuzz_plan.o: $(FUZZ_DIR)/fuzz_plan.c $(FUZZ_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Werror -fsanitize=fuzzer-no-link -c -o $@ $<

# the oracle without fz_alloc.h: its own allocations never fail
$(FUZZ_OUT)/oracle.o: $(FUZZ_ORACLE) $(FUZZ_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Werror -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BIN): $(FUZZ_OUT)/fuzz_plan.o $(FUZZ_OUT)/oracle.o $(FUZZ_CORE_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^

.SECONDARY: $(FUZZ_CORE_OBJS) $(FUZZ_OUT)/fuzz_plan.o $(FUZZ_OUT)/oracle.o
