// SPDX-License-Identifier: GPL-2.0
/* The one-line error report every part of ncrctl uses (ncrctl.h). */
#include <stdarg.h>
#include <stdio.h>
#include "ncrctl.h"

int ncrctl_die(int code, const char *fmt, ...)
{
	va_list ap;

	fputs(NCRCTL_NAME ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}
