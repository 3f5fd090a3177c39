# SPDX-License-Identifier: GPL-2.0
#
# cpt-plan, the planner as a userspace tool: the core (CORE_SRC) and the
# topology readers of scripts/ (sysfs trees, `lscpu -p` output).  Included
# by the top Makefile, which defines CC, CFLAGS, WARN, CORE_SRC and
# CORE_HDR.  The tool's sources are named here only: its tests
# (tests/tool/tool.mk) and the benchmarks (tests/bench/bench.mk) take the
# readers from TOOL_LIB_SRC.
#
#   make tools                  scripts/cpt-plan
#   make build/cpt-plan.static  the same, static (for the VM initramfs)

# The topology readers (topo_read.h): what the tests link besides the core.
TOOL_LIB_SRC	 = scripts/topo_sysfs.c scripts/topo_lscpu.c scripts/topo_util.c
TOOL_LIB_HDR	 = scripts/topo_read.h scripts/topo_util.h
TOOL_LIB_DEPS	 = $(TOOL_LIB_SRC) $(TOOL_LIB_HDR) $(CORE_SRC) $(CORE_HDR)
# cpt-plan's own files: the command line, --explain, --emit, the network
# interfaces (--emit lnet/irq/irqbalance), --check, --fleet.
TOOL_OWN_SRC	 = scripts/cpt-plan.c scripts/emit.c scripts/out.c scripts/explain.c \
		   scripts/nic.c scripts/site.c scripts/check.c scripts/fleet.c \
		   scripts/lustre.c
TOOL_OWN_HDR	 = scripts/emit.h scripts/out.h scripts/explain.h scripts/nic.h \
		   scripts/site.h scripts/check.h scripts/fleet.h scripts/lustre.h
TOOL_SRC	 = $(TOOL_OWN_SRC) $(TOOL_LIB_SRC)
TOOL_DEPS	 = $(TOOL_OWN_SRC) $(TOOL_OWN_HDR) $(TOOL_LIB_DEPS)
TOOL_CC		 = $(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -Icpt/core -Iscripts

tools: scripts/cpt-plan

scripts/cpt-plan: $(TOOL_DEPS)
	$(TOOL_CC) -o $@ $(TOOL_SRC) $(CORE_SRC) $(LDFLAGS)

build/cpt-plan.static: $(TOOL_DEPS)
	@mkdir -p $(@D)
	$(TOOL_CC) -static -o $@ $(TOOL_SRC) $(CORE_SRC) $(LDFLAGS)
