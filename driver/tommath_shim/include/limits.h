/* SPDX-License-Identifier: GPL-2.0 */
/* libc stand-in for LibTomMath in ncr.ko: INT_MAX, SIZE_MAX, CHAR_BIT. */
#ifndef NCR_SHIM_LIMITS_H
#define NCR_SHIM_LIMITS_H
#include <linux/limits.h>
#ifndef CHAR_BIT
#define CHAR_BIT 8
#endif
#endif
