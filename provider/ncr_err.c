// SPDX-License-Identifier: GPL-2.0
/*
 * Error reporting through the core's error upcalls, so that messages carry
 * the provider's own reason strings ("ncr" library in `openssl errstr`).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "ncr_prov.h"

const OSSL_ITEM ncrp_reason_strings[] = {
	{ NCR_R_DEV_UNAVAILABLE, "/dev/crypto not available" },
	{ NCR_R_DEV_NOT_PERMITTED, "/dev/crypto not permitted" },
	{ NCR_R_NO_MASTER_KEY, "no storage master key set in the kernel" },
	{ NCR_R_BLOB_REJECTED,
	  "key blob rejected: tampered or made under another master key" },
	{ NCR_R_KEY_NOT_EXPORTABLE,
	  "private key is held by the kernel and is not exportable" },
	{ NCR_R_NOT_SUPPORTED, "parameter not supported" },
	{ NCR_R_KERNEL_OP_FAILED, "kernel operation failed" },
	{ NCR_R_INVALID_ARGUMENT, "invalid argument" },
	{ NCR_R_BAD_KEY_FILE, "malformed ncr key file" },
	{ NCR_R_MALLOC_FAILURE, "out of memory" },
	{ NCR_R_BAD_DECRYPT, "bad decrypt" },
	{ NCR_R_NO_KEY, "no key set" },
	{ NCR_R_UNKNOWN_CURVE,
	  "unknown or unsupported elliptic curve (ncr: P-256, P-384, X25519)" },
	{ NCR_R_PEER_KEY_MISMATCH, "peer key is not on the same curve" },
	{ 0, NULL }
};

static const OSSL_CORE_HANDLE *err_handle;
static OSSL_FUNC_core_new_error_fn *up_new_error;
static OSSL_FUNC_core_set_error_debug_fn *up_set_debug;
static OSSL_FUNC_core_vset_error_fn *up_vset_error;

void ncrp_err_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in)
{
	err_handle = handle;
	for (; in->function_id != 0; in++) {
		switch (in->function_id) {
		case OSSL_FUNC_CORE_NEW_ERROR:
			up_new_error = OSSL_FUNC_core_new_error(in);
			break;
		case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
			up_set_debug = OSSL_FUNC_core_set_error_debug(in);
			break;
		case OSSL_FUNC_CORE_VSET_ERROR:
			up_vset_error = OSSL_FUNC_core_vset_error(in);
			break;
		}
	}
}

static void vraise(const char *file, int line, const char *func, int reason,
		   const char *fmt, va_list ap)
{
	if (up_new_error == NULL || up_vset_error == NULL)
		return;
	up_new_error(err_handle);
	if (up_set_debug != NULL)
		up_set_debug(err_handle, file, line, func);
	up_vset_error(err_handle, reason, fmt, ap);
}

void ncrp_raise_at(const char *file, int line, const char *func, int reason,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vraise(file, line, func, reason, fmt, ap);
	va_end(ap);
}

void ncrp_raise_errno_at(const char *file, int line, const char *func,
			 const char *what, int err)
{
	int dev = ncrlib_dev_status();
	int reason;

	if (dev != 0) {
		ncrp_raise_at(file, line, func, dev == EACCES || dev == EPERM ?
			      NCR_R_DEV_NOT_PERMITTED : NCR_R_DEV_UNAVAILABLE,
			      "%s", strerror(dev));
		return;
	}
	switch (err) {
	case ENOKEY:
		reason = NCR_R_NO_MASTER_KEY;
		break;
	case EOPNOTSUPP:
	case ENOSYS:
	case ENOTTY:
		reason = NCR_R_NOT_SUPPORTED;
		break;
	case ENOMEM:
		reason = NCR_R_MALLOC_FAILURE;
		break;
	default:
		reason = NCR_R_KERNEL_OP_FAILED;
	}
	ncrp_raise_at(file, line, func, reason, "%s: %s", what, strerror(err));
}
