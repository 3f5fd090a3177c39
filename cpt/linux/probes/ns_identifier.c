// SPDX-License-Identifier: GPL-2.0
/* CPTK_HAVE_NS_IDENTIFIER: symbol namespaces are bare words, not string literals (up to 6.12) */
#include <linux/module.h>

MODULE_IMPORT_NS(CPT);
