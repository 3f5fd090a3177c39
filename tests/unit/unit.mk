# SPDX-License-Identifier: GPL-2.0
#
# cmocka unit tests of the portable core (planner, cpu_pattern, formatter),
# built with the core sources and AddressSanitizer + UBSan.  Included by the
# top Makefile.
#
#   make test-unit                   build and run every unit test
#   make test-unit UNIT_FILTER='*epyc*'   only the tests whose name matches
#
# Fails on any cmocka failure and on any sanitizer report (UBSan does not
# recover, LeakSanitizer is on).

UNIT_DIR	:= tests/unit
UNIT_OUT	:= build/unit
UNIT_TESTS	:= test_plan test_pattern test_format test_update test_fuzz_findings \
		   test_isolated
UNIT_BINS	:= $(addprefix $(UNIT_OUT)/,$(UNIT_TESTS))
UNIT_HELPERS	:= $(UNIT_OUT)/topo_fixtures.o $(UNIT_OUT)/unit_helpers.o \
		   $(UNIT_OUT)/oracle.o
UNIT_CORE_OBJS	:= $(patsubst cpt/core/%.c,$(UNIT_OUT)/core/%.o,$(CORE_SRC))
UNIT_HDRS	:= $(wildcard $(CORE_HDR)) $(wildcard $(UNIT_DIR)/*.h)
UNIT_CFLAGS	 = $(CFLAGS) $(WARN) $(SAN) -DCPLAN_COUNT_YIELDS -Icpt/core
UNIT_LDLIBS	:= -lcmocka
UNIT_ENV	:= ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1 \
		   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		   $(if $(UNIT_FILTER),CMOCKA_TEST_FILTER='$(UNIT_FILTER)')

CLEAN_FILES	+= $(UNIT_BINS)

.PHONY: test-unit unit-build

unit-build: $(UNIT_BINS)

test-unit: $(UNIT_BINS)
	@rc=0; for t in $(UNIT_BINS); do \
		echo "== $$t"; \
		$(UNIT_ENV) ./$$t || { echo "FAILED: $$t (exit $$?)"; rc=1; }; \
	done; \
	if [ $$rc -eq 0 ]; then echo "test-unit: all passed"; \
	else echo "test-unit: FAILED" >&2; fi; \
	exit $$rc

$(UNIT_OUT)/core/%.o: cpt/core/%.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -c -o $@ $<

$(UNIT_OUT)/%.o: $(UNIT_DIR)/%.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -Werror -I$(UNIT_DIR) -c -o $@ $<

$(UNIT_OUT)/test_%: $(UNIT_OUT)/test_%.o $(UNIT_HELPERS) $(UNIT_CORE_OBJS)
	$(CC) $(UNIT_CFLAGS) -o $@ $^ $(UNIT_LDLIBS)

# keep the objects
.SECONDARY: $(UNIT_HELPERS) $(UNIT_CORE_OBJS) \
	    $(addsuffix .o,$(UNIT_BINS))
