// SPDX-License-Identifier: GPL-2.0
/* The unit-test harness of unit.h. */
#include "unit.h"

#include <stdarg.h>
#include <stdio.h>

int unit_checks, unit_failures;

__attribute__((weak)) void unit_on_failure(void)
{
}

static void vfail(const char *file, int line, const char *fmt, va_list ap)
{
	unit_failures++;
	fprintf(stderr, "FAIL %s:%d: ", file, line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	unit_on_failure();
}

bool unit_check(bool ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	unit_checks++;
	if (ok)
		return true;
	va_start(ap, fmt);
	vfail(file, line, fmt, ap);
	va_end(ap);
	return false;
}

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(file, line, fmt, ap);
	va_end(ap);
}

int unit_report(const char *name)
{
	/* tests that only FAIL() count no checks: they report their cases */
	if (unit_checks)
		printf("%s: %d checks, %d failures\n", name, unit_checks,
		       unit_failures);
	else
		printf("%s: %d failures\n", name, unit_failures);
	return unit_failures ? 1 : 0;
}

int unit_skip(const char *fmt, ...)
{
	va_list ap;

	printf("SKIP: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return 77;
}
