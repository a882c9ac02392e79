/* SPDX-License-Identifier: GPL-2.0 */
/*
 * P-256 and P-384 in constant time: the NIST half of lib/ec_math.h
 * (ncr_ec_math_pub, _check_pub, _sign, _verify and _ecdh are defined in
 * lib/ec_nist.c), compiled unchanged into the module and into the unit
 * tests.  The field and the order are Montgomery arithmetic on 4 or 6
 * 64-bit limbs, instantiated per curve; points are projective with the
 * complete formulas of Renes, Costello and Batina (2016, a = -3), so no
 * input needs a special case.  k G walks a signed 5-bit comb over a
 * table of 2^(5i) j G built once (ncr_ec_nist_init); k P uses the same
 * recoding over 16 multiples of P.  Every table read scans the whole row
 * with masks; no branch or address depends on a secret.
 */
#ifndef NCR_EC_NIST_H
#define NCR_EC_NIST_H

#include "ncr_port.h"

/* Builds the base-point tables, once, before any other call: 0. */
int ncr_ec_nist_init(void);

#endif /* NCR_EC_NIST_H */
