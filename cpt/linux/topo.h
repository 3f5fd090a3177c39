/* SPDX-License-Identifier: GPL-2.0 */
/* The machine as the planner sees it, read from the running kernel. */
#ifndef CPTK_TOPO_H
#define CPTK_TOPO_H

#include "cplan.h"

struct cplan_topo *cptk_topo_snapshot(int dying, bool include_isolated);

#endif /* CPTK_TOPO_H */
