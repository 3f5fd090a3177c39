/* SPDX-License-Identifier: GPL-2.0 */
/* The /proc/sys/lnet files. */
#ifndef CPTK_SYSCTL_H
#define CPTK_SYSCTL_H

int cptk_sysctl_register(void);
void cptk_sysctl_unregister(void);

#endif /* CPTK_SYSCTL_H */
