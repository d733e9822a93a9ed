/* zsum_bench.c -- Adler-32 and CRC-32 throughput, pristine zlib 1.3.2 against
 * zlib-turbo, in one process.
 *
 * Both libraries are linked side by side, renamed by turbo/harness/mkzobj.sh
 * (ref_*, tur_*) and reached through the zapi tables (turbo/harness/zapi.h).
 * For each buffer size and function, the two libraries are timed in
 * alternation, ROUNDS times each, on the same buffer; every timing covers
 * about TARGET bytes (the buffer checksummed repeatedly, each call's result
 * fed into the next, so no call can be skipped).  The median of each
 * library's rounds is reported in GB/s (1e9 bytes per second), with the
 * ratio turbo/ref, and the best (fastest) round of each with its ratio, which
 * is less disturbed by other load on a shared machine.  The checksums of both libraries are compared as well.
 *
 * Build: see turbo/bench/zsum_bench.sh.
 * Run:   zsum_bench [ROUNDS [MB [SIZE...]]]   (defaults 9, 64, the sizes below)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "zapi.h"
#include "bench_time.h"

typedef uLong (*sumfn)(uLong, const Bytef *, z_size_t);

static uLong sink;

/* seconds per byte for reps calls of f on buf[0..len-1] */
static double run(sumfn f, uLong init, const unsigned char *buf, size_t len,
                  long reps) {
    double t0, t1;
    uLong c = init;
    long i;
    t0 = bench_now();
    for (i = 0; i < reps; i++)
        c = f(c, buf, len);
    t1 = bench_now();
    sink ^= c;
    return (t1 - t0) / ((double)len * reps);
}

int main(int argc, char **argv) {
    static size_t sizes[16] = {8, 16, 32, 64, 256, 1024, 4096,
                               65536, 1 << 20, 16 << 20};
    int nsizes = 10;
    const zapi *L[2];
    int rounds = argc > 1 ? atoi(argv[1]) : 9;
    double target = (argc > 2 ? atof(argv[2]) : 64) * 1e6;
    unsigned char *buf;
    size_t maxlen = 16 << 20, i;
    int f, s;

    if (argc > 3) {             /* zsum_bench ROUNDS MB SIZE... */
        for (nsizes = 0; nsizes < argc - 3 && nsizes < 16; nsizes++) {
            sizes[nsizes] = (size_t)atol(argv[3 + nsizes]);
            if (sizes[nsizes] < 1 || sizes[nsizes] > (16 << 20)) return 2;
        }
    }
    L[0] = &zapi_ref;
    L[1] = &zapi_tur;
    if (rounds < 1 || rounds > 99) rounds = 9;
    buf = malloc(maxlen + 64);
    if (buf == NULL) return 1;
    srand(12345);
    for (i = 0; i < maxlen + 64; i++)
        buf[i] = (unsigned char)(rand() >> 7);
    printf("# zsum_bench: %d rounds, ~%.0f MB per timing, median GB/s\n",
           rounds, target / 1e6);
    printf("%-8s %9s %9s %9s %7s %9s %9s %7s\n", "func", "size", "ref",
           "turbo", "ratio", "ref-best", "tur-best", "ratio");
    for (f = 0; f < 2; f++) {
        for (s = 0; s < nsizes; s++) {
            size_t len = sizes[s];
            long reps = (long)(target / len);
            double t[2][99], med[2], best[2];
            int r, l;
            uLong res[2];
            if (reps < 1) reps = 1;
            for (l = 0; l < 2; l++) {
                sumfn fn = f ? L[l]->crc32_z : L[l]->adler32_z;
                res[l] = fn(f ? 0 : 1, buf + 1, len);
            }
            if (res[0] != res[1]) {
                printf("MISMATCH %s len %lu\n", f ? "crc32" : "adler32",
                       (unsigned long)len);
                return 1;
            }
            for (r = 0; r < rounds; r++)
                for (l = 0; l < 2; l++) {
                    int k = (r & 1) ? 1 - l : l;    /* alternate who is first */
                    sumfn fn = f ? L[k]->crc32_z : L[k]->adler32_z;
                    t[k][r] = run(fn, f ? 0 : 1, buf, len, reps);
                }
            for (l = 0; l < 2; l++) {
                qsort(t[l], rounds, sizeof(double), bench_cmp_double);
                med[l] = t[l][rounds / 2];
                best[l] = t[l][0];
            }
            printf("%-8s %9lu %9.3f %9.3f %7.2f %9.3f %9.3f %7.2f\n",
                   f ? "crc32" : "adler32", (unsigned long)len,
                   1e-9 / med[0], 1e-9 / med[1], med[0] / med[1],
                   1e-9 / best[0], 1e-9 / best[1], best[0] / best[1]);
            fflush(stdout);
        }
    }
    return (int)(sink & 0);
}
