/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stats.h - percentiles for the benchmarks (header-only, see binder_io.h).
 */
#ifndef KBINDER_BENCH_STATS_H
#define KBINDER_BENCH_STATS_H

#include <stdlib.h>
#include <string.h>

static inline int stats_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* stats_sort: sort @v in place (ascending). */
static inline void stats_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), stats_cmp);
}

/*
 * stats_pct_sorted: the @p-th percentile (0..100) of sorted @v, linear
 * interpolation between the closest ranks; 0 when @n is 0.
 */
static inline double stats_pct_sorted(const double *v, size_t n, double p)
{
	double rank;
	size_t lo;

	if (n == 0)
		return 0;
	rank = p / 100.0 * (double)(n - 1);
	lo = (size_t)rank;
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (rank - (double)lo) * (v[lo + 1] - v[lo]);
}

/* stats_pct: like stats_pct_sorted on an unsorted array (sorted copy). */
static inline double stats_pct(const double *v, size_t n, double p)
{
	double *tmp, r;

	if (n == 0)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return 0;
	memcpy(tmp, v, n * sizeof(*tmp));
	stats_sort(tmp, n);
	r = stats_pct_sorted(tmp, n, p);
	free(tmp);
	return r;
}

#endif /* KBINDER_BENCH_STATS_H */
