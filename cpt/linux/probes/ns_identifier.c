// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_NS_IDENTIFIER: symbol namespaces are bare words, not string literals (up to 6.12) */
#include <linux/module.h>

#ifdef CPTK_PROBE_CONTROL
MODULE_DESCRIPTION("cpt probe");
#else
MODULE_IMPORT_NS(CPT);
#endif
