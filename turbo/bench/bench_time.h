/* bench_time.h -- the clock and the median of zlib-turbo's C benchmarks
 *
 * bench_now(): seconds on CLOCK_MONOTONIC (wall time, not disturbed by
 * clock changes).  bench_cmp_double(): qsort()'s order of doubles.
 * bench_median(v, n): the median of n >= 1 values (the mean of the middle
 * two for even n), v left as it is.  Every benchmark reports medians of
 * interleaved runs, so that one slow run (another process, a frequency
 * step) moves nothing; the method is in turbo/results/README.md.
 */
#ifndef BENCH_TIME_H
#define BENCH_TIME_H

#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GNUC__) || defined(__clang__)
#  define BENCH_UNUSED __attribute__((unused))
#else
#  define BENCH_UNUSED
#endif

BENCH_UNUSED static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

BENCH_UNUSED static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

BENCH_UNUSED static double bench_median(const double *v, int n)
{
    double *tmp = (double *)malloc((size_t)n * sizeof *tmp), m;
    if (tmp == NULL)
        abort();
    memcpy(tmp, v, (size_t)n * sizeof *v);
    qsort(tmp, (size_t)n, sizeof *tmp, bench_cmp_double);
    m = n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
    free(tmp);
    return m;
}

#endif /* BENCH_TIME_H */
