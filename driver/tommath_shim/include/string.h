/* SPDX-License-Identifier: GPL-2.0 */
/* libc stand-in for LibTomMath in ncr.ko: memset/memcpy. */
#ifndef NCR_SHIM_STRING_H
#define NCR_SHIM_STRING_H
#include <linux/string.h>
#endif
