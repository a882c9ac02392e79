/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forced-included (-include) into every LibTomMath object of ncr.ko: routes
 * its heap through kernel allocators (ltm_kernel.c) and drops stdio.
 */
#ifndef NCR_LTM_KERNEL_H
#define NCR_LTM_KERNEL_H

#ifndef MP_NO_FILE
#define MP_NO_FILE
#endif
/* Unparenthesised: tommath_private.h also expands these in prototypes. */
#define MP_MALLOC(size) ncr_ltm_malloc(size)
#define MP_REALLOC(mem, oldsize, newsize) ncr_ltm_realloc(mem, oldsize, newsize)
#define MP_CALLOC(nmemb, size) ncr_ltm_calloc(nmemb, size)
#define MP_FREE(mem, size) ncr_ltm_free(mem, size)
/* ncr_ltm_free() wipes every block; LibTomMath's own wipe would be a second. */
#ifndef MP_NO_ZERO_ON_FREE
#define MP_NO_ZERO_ON_FREE
#endif

/*
 * Kernel stacks are 16 KiB: MP_LOW_MEM shrinks the exptmod window tables
 * (256 -> 32 mp_ints) and a smaller comba array (default 512 double digits,
 * 8 KiB) keeps each frame near 2 KiB.  140 digits still cover the fast
 * paths up to 4096-bit moduli; larger ones use the baseline routines.
 * tommath_private.h reads PRIVATE_MP_WARRAY lazily, so redefining it after
 * tommath.h is enough.
 */
#ifndef MP_LOW_MEM
#define MP_LOW_MEM
#endif
#include "tommath.h"
#undef PRIVATE_MP_WARRAY
#define PRIVATE_MP_WARRAY 140
/*
 * MP_LOW_MEM would also start every number at 8 digits, and each grows
 * by reallocation (copy and wipe) on the way to a 2048-bit product.
 */
#undef PRIVATE_MP_PREC
#define PRIVATE_MP_PREC 32

#endif
