/* SPDX-License-Identifier: GPL-2.0 */
/* libc stand-in for LibTomMath in ncr.ko: va_list (mp_init_multi). */
#ifndef NCR_SHIM_STDARG_H
#define NCR_SHIM_STDARG_H
#include <linux/stdarg.h>
#endif
