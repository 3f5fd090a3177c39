/* SPDX-License-Identifier: GPL-2.0 */
/* The parsers of numbers, for the module parameters and the sysctls. */
#ifndef CPTK_COUNT_H
#define CPTK_COUNT_H

#include <linux/types.h>

int cptk_parse_count(const char *val, size_t len, const char *name, int *count);
int cptk_parse_flag(const char *val, size_t len, const char *name, bool *flag);

#endif /* CPTK_COUNT_H */
