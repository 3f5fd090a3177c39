// SPDX-License-Identifier: GPL-2.0
/*
 * The one place cpt's tracepoints (cpt_trace.h) are instantiated: the
 * callers include the header alone.
 */
#define CREATE_TRACE_POINTS
#include "cpt_trace.h"
