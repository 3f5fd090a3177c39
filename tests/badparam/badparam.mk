# SPDX-License-Identifier: GPL-2.0
#
# make test-badparam: every bad npartitions and cpu_pattern value of
# tests/badparam/cases, at load and through sysctl, in one guest per kernel
# (see tests/badparam/run.sh).  Included by the top Makefile; uses the ko
# target of tests/vm/vm.mk (through ko_kernels of tests/lib/kernels.mk) and
# build/cpt-plan.static of scripts/tools.mk.
#
#   make test-badparam                        5.10, 6.1, 6.12, newest, 6.1-rt
#   make test-badparam BADPARAM_KERNELS=6.12
#
# About 1.5 minutes per kernel on a 2-core host; logs in build/badparam/

# What a bad value goes through besides cpt's own code (the kernel's
# parameter parser, finit_module()'s error path, the sysctl write path)
# changes with the kernel's version, not with its preemption model: each
# version once, and 6.1-rt for the error paths under PREEMPT_RT's locks
# with panic_on_warn=1 (5.10-rt and newest-rt ran it in make check until
# 2026-12-02 and passed there; BADPARAM_KERNELS=... runs any).
BADPARAM_KERNELS ?= 5.10 6.1 6.12 newest 6.1-rt

.PHONY: test-badparam

test-badparam: build/cpt-plan.static
	@$(call ko_kernels,$(BADPARAM_KERNELS))
	@tests/badparam/run.sh $(BADPARAM_KERNELS)
