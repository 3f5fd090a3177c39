/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Delays injected at chosen points, to open race windows on purpose in the
 * tests.  Only a test build has them (Kbuild: CPT_FAULT_INJECT=y, as
 * tests/vm/vm.mk builds build/ko/RELEASE/fault/cpt.ko); in the module that
 * ships, cptk_fault_delay() is empty and there is no parameter.
 */
#ifndef CPTK_FAULT_H
#define CPTK_FAULT_H

enum cptk_fault_point {
	/* cptk_notify_fn(), between cpt_get() and cpt_put() */
	CPTK_FAULT_NOTIFY,
	/* cptk_cpu_offline(), before the table follows the CPU going down */
	CPTK_FAULT_OFFLINE,
	CPTK_NR_FAULTS
};

#ifdef CPT_FAULT_INJECT
void cptk_fault_delay(enum cptk_fault_point point);
#else
static inline void cptk_fault_delay(enum cptk_fault_point point)
{
}
#endif

#endif /* CPTK_FAULT_H */
