/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness of the C unit tests (linked into each by ncr_unit_test()):
 * checks that count and report, and the exit status ctest reads.
 *
 *	CHECK(cond);			counts; on failure "FAIL file:line: cond"
 *	CHECKF(cond, "fmt", ...);	the same with a message of the test's
 *	FAIL("fmt", ...);		a failure the test found by itself
 *	return unit_report("name");	"name: N checks, M failures"; 1 or 0
 *	return unit_skip("fmt", ...);	"SKIP: ..."; 77 (ctest: skipped)
 */
#ifndef NCR_TEST_UNIT_H
#define NCR_TEST_UNIT_H

#include <stdbool.h>

extern int unit_checks, unit_failures;

/* Counts one check; when !ok prints the message and counts a failure. */
bool unit_check(bool ok, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Counts one failure (not a check) and prints the message. */
void unit_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Called after each failure's message; a test whose library keeps its own
 * error state (libcrypto's error queue) defines it to print that too.
 */
void unit_on_failure(void);

int unit_report(const char *name);
int unit_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define CHECK(cond) unit_check(!!(cond), __FILE__, __LINE__, "%s", #cond)
#define CHECKF(cond, ...) unit_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define FAIL(...) unit_fail(__FILE__, __LINE__, __VA_ARGS__)

#endif
