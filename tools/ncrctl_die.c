// SPDX-License-Identifier: GPL-2.0
/* The one-line error report and the usage lines every part of ncrctl uses. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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

void ncrctl_print_usage(FILE *f, const char *first, const char *lines)
{
	const char *lead = first;

	while (*lines) {
		size_t n = strcspn(lines, "\n");

		fprintf(f, "%-6s " NCRCTL_NAME " %.*s\n", lead, (int)n, lines);
		lead = "";
		lines += n + (lines[n] == '\n');
	}
}
