# SPDX-License-Identifier: GPL-2.0
#
# make test-live: the live-tuning VM tests (sysctl writes, CPU hotplug,
# table replacement under readers and consumers) on the Debian 6.1 and 6.12
# kernels; see tests/live/run.sh.  Included by the top Makefile; uses the
# ko target of tests/vm/vm.mk (through ko_kernels of tests/lib/kernels.mk)
# and build/cpt-plan.static of scripts/tools.mk.
#
#   make test-live                          every scenario on both kernels
#   make test-live LIVE_KERNELS=6.12 LIVE_SCENARIOS=tuning
#   make test-live LIVE_CYCLES=100 LIVE_HOTPLUG=20    a quicker pass
#   make test-unload                        the unload scenario, 3 kernels
#   make test-unload UNLOAD_KERNELS=6.1
#   make test-percpt                        the service helpers, 7 kernels
#   make test-percpt PERCPT_KERNELS=6.1-rt
#   make test-bind                          binds under hotplug, 3 kernels
#   make test-onecpu                        the kernel alone (no cpt.ko): per-CPU
#                                           works across their CPU's offline
#
# About 6 minutes on a 2-core host; logs in build/live/.

LIVE_KERNELS	?= 6.1 6.12
LIVE_SCENARIOS	?= maxcpus tuning seed
# Guests at a time in test-live and test-unload: two suit a 2-core host.
LIVE_JOBS	?= 2
UNLOAD_JOBS	?= 2

# make test-percpt: the service helpers' guest test (guest-percpt.sh) on
# every kernel, two guests at a time (30 to 45 s a guest here), each on
# one TCG thread, 6.1's too (tests/live/run.sh: its tracepoints patch
# static keys while pools run, which multi-threaded TCG may leave on a
# stale int3).
PERCPT_KERNELS	?= 6.1 5.10 5.10-rt 6.12 6.1-rt newest newest-rt
PERCPT_JOBS	?= 2

# make test-bind: threads bound by the kernel's rules (guest-bind.sh), on
# the kernels whose scheduler reports a bind that raced an offline (the
# PREEMPT_RT ones WARN in affine_move_task(), 6.x WARN in
# sched_cpu_dying()), two guests at a time.  Not 5.10-rt: its own
# workqueue BUGs in sched_cpu_dying() under the same offline loop with
# cpt never loaded (make test-onecpu, doc/kernels.md, "Kernel bugs seen"), so a
# BUG there says nothing about cpt; BIND_KERNELS=5.10-rt still runs it.
BIND_KERNELS	?= 6.1-rt 6.12 newest-rt
BIND_JOBS	?= 2

# make test-debug: the suites that exercise locks, lifetimes and threads,
# on the debug kernels (scripts/debug-kernel: lockdep, KASAN, kmemleak,
# PROVE_RCU; PREEMPT and PREEMPT_RT), where any report fails the guest:
# the live scenario tuning (sysctl writes, hotplug, chunked writes),
# percpt (pools, workers, locks, the lock pair), unload (the
# fault-injection races), bind (binds under hotplug), and locks (the lock
# tests at 64 partitions) on debug-rt.  Fewer cycles than on Debian's kernels: a debug
# guest runs several times slower under TCG, and the checkers see a race
# window on the first pass as on the hundredth.
DEBUG_KERNELS	?= debug debug-rt
DEBUG_SCENARIOS	?= tuning percpt unload bind
DEBUG_JOBS	?= 2
# And the lock tests at 64 partitions (64 CPUs) under lockdep and
# PROVE_RCU, on debug-rt (lockdep without KASAN and kmemleak, which make
# a 64-CPU guest take many minutes of host CPU: doc/testing.md, "Which
# suites run on which kernels"); the 8-CPU percpt guests run the same
# lock tests under KASAN.  DEBUG_LOCKS_KERNELS=debug runs it there too.
# Empty: none.
DEBUG_LOCKS_KERNELS ?= debug-rt
# And a short soak (tests/soak/guest-soak.sh: load/unload cycles, then
# readers, sysctl writes and hotplug at once), where kmemleak stands for
# the slab bounds that KASAN's quarantine voids.
DEBUG_SOAK_CYCLES ?= 20
DEBUG_SOAK_SECONDS ?= 10
# Cycle counts: lockdep reports an order on its first pass; the counts
# are for KASAN and kmemleak, which see a use after free or a leak only
# when a cycle hits it.  Debian's kernels run the full counts (200 to
# 1000) where the same code runs 5 to 10 times faster; unload keeps 30
# cycles here, half of Debian's 60, because a cycle under KASAN finds a
# use after free that a Debian cycle can only crash on by luck.
DEBUG_ENV	 = LIVE_CYCLES=100 LIVE_HOTPLUG=10 LIVE_UNLOAD_CYCLES=30 \
		   LIVE_BIND_FAULT=10 LIVE_BIND_CYCLES=15 LIVE_POOL_CYCLES=25

.PHONY: test-live test-unload test-percpt test-bind test-debug test-onecpu debug-kernels

# make test-onecpu: the kernel alone, cpt.ko never loaded
# (guest-onecpu.sh): per-CPU works queued on a CPU while it goes offline,
# so that its pool creates workers bound to it.  Not in make check: it is a proof about kernels, not a
# test of cpt, and 5.10-rt is expected to fail it (its scheduler lacks
# upstream's 5.11 fix; doc/kernels.md, "Kernel bugs seen").
ONECPU_KERNELS	?= 5.10-rt 6.1-rt
test-onecpu: build/cpt-plan.static
	@$(call ko_kernels,$(ONECPU_KERNELS))
	@LIVE_JOBS=2 tests/live/run.sh --scenarios onecpu $(ONECPU_KERNELS)

# make test-unload: the unload scenario on every kernel (6.1-rt too),
# with 60 offline/rmmod/online/insmod cycles each; the guest script's own
# default is 200 (make test-unload UNLOAD_CYCLES=200).  A cycle is
# costly under TCG: with a busy loop on every vCPU, each cross-CPU wait
# of an offline or an rmmod (stop_machine, IPIs, grace periods) waits for
# the busy vCPUs' turns (doc/testing.md, "Where the time goes").
UNLOAD_KERNELS	?= 6.1 6.12 6.1-rt
UNLOAD_CYCLES	?= 60
test-unload: build/cpt-plan.static
	@$(call ko_kernels,$(UNLOAD_KERNELS))
	@LIVE_UNLOAD_CYCLES=$(UNLOAD_CYCLES) LIVE_JOBS=$(UNLOAD_JOBS) tests/live/run.sh --scenarios unload $(UNLOAD_KERNELS)

test-live: build/cpt-plan.static
	@$(call ko_kernels,$(LIVE_KERNELS))
	@LIVE_JOBS=$(LIVE_JOBS) tests/live/run.sh --scenarios '$(LIVE_SCENARIOS)' $(LIVE_KERNELS)

test-percpt: build/cpt-plan.static
	@$(call ko_kernels,$(PERCPT_KERNELS))
	@LIVE_JOBS=$(PERCPT_JOBS) tests/live/run.sh --scenarios percpt $(PERCPT_KERNELS)

test-bind: build/cpt-plan.static
	@$(call ko_kernels,$(BIND_KERNELS))
	@LIVE_JOBS=$(BIND_JOBS) tests/live/run.sh --scenarios bind $(BIND_KERNELS)

# make debug-kernels: the debug kernels built (scripts/debug-kernel), or
# waited for where scripts/install-deps left their build running
# (CPT_DEBUG_ASYNC=1).  Not niced: make check runs it in its second lane,
# and it and test-debug are the longest chain of a fresh run, while the
# first lane's suites can wait.
debug-kernels:
	@scripts/debug-kernel $(sort $(DEBUG_KERNELS) $(DEBUG_LOCKS_KERNELS))

# Then the harness itself: a planted lock-order inversion must fail a
# debug guest with lockdep's report (tests/live/harness-lockdep.sh).
#
# The 64-CPU lock guest boots after the scenarios, beside the soak and the
# harness.
test-debug: build/cpt-plan.static debug-kernels
	@$(call ko_kernels,$(sort $(DEBUG_KERNELS) $(DEBUG_LOCKS_KERNELS)))
	@st=0; locks=; mkdir -p build/live; \
	$(DEBUG_ENV) LIVE_JOBS=$(DEBUG_JOBS) tests/live/run.sh \
		--scenarios '$(DEBUG_SCENARIOS)' $(DEBUG_KERNELS) || st=1; \
	if [ -n '$(strip $(DEBUG_LOCKS_KERNELS))' ]; then \
		LIVE_JOBS=1 tests/live/run.sh --scenarios locks \
			$(DEBUG_LOCKS_KERNELS) >build/live/debug-locks.out 2>&1 & \
		locks=$$!; \
	fi; \
	SOAK_NOISE=0 SOAK_JOBS=1 tests/soak/run.sh --tag debug-soak \
		--cycles $(DEBUG_SOAK_CYCLES) --seconds $(DEBUG_SOAK_SECONDS) \
		$(DEBUG_KERNELS) || st=1; \
	tests/live/harness-lockdep.sh $(firstword $(DEBUG_KERNELS)) || st=1; \
	if [ -n "$$locks" ]; then \
		wait $$locks || st=1; cat build/live/debug-locks.out; \
	fi; \
	exit $$st
