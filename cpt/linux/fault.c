// SPDX-License-Identifier: GPL-2.0
/*
 * Test builds only (see fault.h): fault_notify_ms=N makes the consumer
 * notification sleep N ms while it holds a table, so that a test can
 * unload cpt in the middle of it; fault_offline_ms=N makes cpt's CPU
 * teardown callback sleep N ms before the table follows, so that a test
 * can bind threads to a CPU that is going down.
 */
#include <linux/delay.h>
#include <linux/moduleparam.h>

#include "fault.h"

static unsigned int fault_ms[CPTK_NR_FAULTS];
module_param_named(fault_notify_ms, fault_ms[CPTK_FAULT_NOTIFY], uint, 0644);
MODULE_PARM_DESC(fault_notify_ms,
		 "test build: sleep this long in each consumer notification");
module_param_named(fault_offline_ms, fault_ms[CPTK_FAULT_OFFLINE], uint, 0644);
MODULE_PARM_DESC(fault_offline_ms,
		 "test build: sleep this long in each CPU teardown callback");

void cptk_fault_delay(enum cptk_fault_point point)
{
	unsigned int ms = READ_ONCE(fault_ms[point]);

	if (ms)
		msleep(ms);
}
