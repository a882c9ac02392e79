/* SPDX-License-Identifier: GPL-2.0 */
/* libc stand-in for LibTomMath in ncr.ko: size_t, NULL. */
#ifndef NCR_SHIM_STDDEF_H
#define NCR_SHIM_STDDEF_H
#include <linux/types.h>
#include <linux/stddef.h>
#endif
