/* SPDX-License-Identifier: GPL-2.0 */
/* The partition count's parser, for the module parameters and the sysctl. */
#ifndef CPTK_COUNT_H
#define CPTK_COUNT_H

#include <linux/types.h>

int cptk_parse_count(const char *val, size_t len, const char *name, int *count);

#endif /* CPTK_COUNT_H */
