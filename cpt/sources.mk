# SPDX-License-Identifier: GPL-2.0
#
# The module's sources: the one list.  Kbuild builds cpt.ko from it; the
# Makefile compiles its core into cpt-plan, the unit tests, the fuzzer and
# the benchmarks; DKMS, the kbuild test and the VM builds copy what
# CPT_STAGE_FILES names (scripts/stage-tree).  Included by Kbuild and by the
# top Makefile: plain assignments only.

# The portable core (cpt/core): calls nothing but what cplan_shim.h defines.
CPT_CORE_C	:= rank.c topo.c table.c pattern.c plan.c update.c format.c
# The kernel glue (cpt/linux), one job a file; README.md, "Layout".
CPT_LINUX_C	:= main.c count.c sysctl.c api.c live.c tab.c text.c topo.c percpt.c pool.c worker.c trace.c stats.c
# Only in the test build (CPT_FAULT_INJECT=y): delays at race windows.
CPT_FAULT_C	:= fault.c

CPT_CORE_SRC	:= $(addprefix cpt/core/,$(CPT_CORE_C))
CPT_LINUX_SRC	:= $(addprefix cpt/linux/,$(CPT_LINUX_C))
CPT_FAULT_SRC	:= $(addprefix cpt/linux/,$(CPT_FAULT_C))
CPT_CORE_HDR	:= $(wildcard cpt/core/*.h)
