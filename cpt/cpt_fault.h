/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Delays injected at chosen points, to open race windows on purpose in the
 * tests.  Only a test build has them (Kbuild: CPT_FAULT_INJECT=y, as
 * tests/vm/vm.mk builds build/ko/RELEASE/fault/cpt.ko); in the module that
 * ships, cpt_fault_delay() is empty and there is no parameter.
 */
#ifndef CPT_FAULT_H
#define CPT_FAULT_H

enum cpt_fault_point {
	/* cpt_notify_fn(), between cpt_get() and cpt_put() */
	CPT_FAULT_NOTIFY,
	CPT_NR_FAULTS
};

#ifdef CPT_FAULT_INJECT
void cpt_fault_delay(enum cpt_fault_point point);
#else
static inline void cpt_fault_delay(enum cpt_fault_point point)
{
}
#endif

#endif /* CPT_FAULT_H */
