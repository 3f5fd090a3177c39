# SPDX-License-Identifier: GPL-2.0
#
# make test-badparam: every bad npartitions and cpu_pattern value of
# tests/badparam/cases, at load and through sysctl, in one guest per kernel
# (see tests/badparam/run.sh).  Included by the top Makefile; uses the ko
# target of tests/vm/vm.mk (through ko_kernels of tests/lib/kernels.mk) and
# build/cpt-plan.static of scripts/tools.mk.
#
#   make test-badparam                        5.10, 5.10-rt, 6.1, 6.12, 6.1-rt, newest, newest-rt
#   make test-badparam BADPARAM_KERNELS=6.12
#
# About 1.5 minutes per kernel on a 2-core host; logs in build/badparam/

BADPARAM_KERNELS ?= 5.10 5.10-rt 6.1 6.12 6.1-rt newest newest-rt

.PHONY: test-badparam

test-badparam: build/cpt-plan.static
	@$(call ko_kernels,$(BADPARAM_KERNELS))
	@tests/badparam/run.sh $(BADPARAM_KERNELS)
