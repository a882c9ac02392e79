/* SPDX-License-Identifier: GPL-2.0 */
/* libc stand-in for LibTomMath in ncr.ko: fixed-width types. */
#ifndef NCR_SHIM_STDINT_H
#define NCR_SHIM_STDINT_H
#include <linux/types.h>
#include <linux/limits.h>
#endif
