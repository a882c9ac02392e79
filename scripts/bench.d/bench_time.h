/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timing loop of the scripts/bench programs.
 *
 * In the scripts/vm guest (TCG) the TSC is unstable, the clock source is
 * the emulated HPET and clock_gettime() is a system call with an emulated
 * device read behind it: reading the clock once per operation would add
 * microseconds to every small operation (and pull every ratio towards 1).
 * So the clock is read once per batch, the batch doubling while a batch
 * takes less than 1/64 of the measuring time.
 */
#ifndef NCR_BENCH_TIME_H
#define NCR_BENCH_TIME_H

#include <time.h>

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Operations per second of op(arg) over at least secs seconds and min_ops
 * operations, or -1 as soon as op returns nonzero.
 */
static inline double bench_rate(int (*op)(void *), void *arg, double secs,
			 long min_ops)
{
	double t0 = bench_now(), tb = t0, t;
	long count = 0, batch = 1, i;

	for (;;) {
		for (i = 0; i < batch; i++)
			if (op(arg))
				return -1;
		count += batch;
		t = bench_now();
		if (t - t0 >= secs && count >= min_ops)
			return count / (t - t0);
		if (t - tb < secs / 64)
			batch *= 2;
		tb = t;
	}
}

/*
 * Several operations measured in turns: `slices` turns in which each
 * operation runs for secs/slices, so that a slow phase of the host (other
 * virtual machines on it) weighs on all of them alike.  rate[i] is the mean
 * of op[i]'s slice rates (equal slices: its overall rate).  Returns 0, or
 * 1 + the index of the operation that failed.
 */
static inline int bench_rates(int (*const op[])(void *), void *const arg[], int n,
		       double secs, int slices, long min_ops, double rate[])
{
	int i, s;

	for (i = 0; i < n; i++)
		rate[i] = 0;
	for (s = 0; s < slices; s++)
		for (i = 0; i < n; i++) {
			double r = bench_rate(op[i], arg[i], secs / slices,
					      min_ops);

			if (r < 0)
				return i + 1;
			rate[i] += r / slices;
		}
	return 0;
}

#endif
