# SPDX-License-Identifier: GPL-2.0
#
# The soak: cpt.ko loaded and unloaded many times with the slab
# and vmalloc counters checked, then readers, sysctl replacements and CPU
# hotplug at once, on each kernel in QEMU; see tests/soak/run.sh.
# Included by the top Makefile; uses the ko target of tests/vm/vm.mk
# (through ko_kernels of tests/lib/kernels.mk) and build/cpt-plan.static of
# scripts/tools.mk.  Logs in build/soak/.
#
#   make soak                  500 cycles and 300 s on each kernel (about
#                              half an hour or more under TCG)
#   make test-soak             the short one of make check: 60 cycles, 20 s,
#                              without the information-only snapshots
#                              (about 4 minutes for the three kernels)
#   make soak SOAK_KERNELS=6.12 SOAK_CYCLES=100 SOAK_SECONDS=60

SOAK_KERNELS	?= 6.1 6.12 6.1-rt
SOAK_CYCLES	?= 500
SOAK_SECONDS	?= 300
TEST_SOAK_CYCLES ?= 60
TEST_SOAK_SECONDS ?= 20
# make test-soak boots its guests two at a time (make soak: one).
TEST_SOAK_JOBS	?= 2

.PHONY: soak test-soak soak-ko

soak-ko: build/cpt-plan.static
	@$(call ko_kernels,$(SOAK_KERNELS))

soak: soak-ko
	@tests/soak/run.sh --cycles $(SOAK_CYCLES) --seconds $(SOAK_SECONDS) $(SOAK_KERNELS)

test-soak: soak-ko
	@SOAK_NOISE=0 SOAK_JOBS=$(TEST_SOAK_JOBS) tests/soak/run.sh --tag test-soak --cycles $(TEST_SOAK_CYCLES) \
		--seconds $(TEST_SOAK_SECONDS) $(SOAK_KERNELS)
