/* zt_compress.c -- compression identity and speed, REF vs TURBO.
 *
 * usage: zt_compress FILE...   (env ZT_REPS: repetitions, default 5)
 *
 * Compresses each file at levels 0-9 with both libraries (zlib wrapper,
 * windowBits 15, memLevel 8, default strategy, one deflate(Z_FINISH) call),
 * checks the bytes are identical and that both inflate them back to the
 * file, and prints compression speed (median of the repetitions) and the
 * TURBO/REF speed ratio.  Exits 1 on any difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zapi.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* one compression; returns the compressed length or 0 on error */
static unsigned long squeeze(const zapi *A, const unsigned char *in,
                             unsigned long len, unsigned char *out,
                             unsigned long cap, int level) {
    z_stream s;
    unsigned long n;
    memset(&s, 0, sizeof s);
    if (ZAPI_DEFLATE_INIT2(A, &s, level, Z_DEFLATED, 15, 8,
                           Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    s.next_in = (Bytef *)in;
    s.avail_in = (uInt)len;
    s.next_out = out;
    s.avail_out = (uInt)cap;
    n = A->deflate(&s, Z_FINISH) == Z_STREAM_END ? s.total_out : 0;
    A->deflateEnd(&s);
    return n;
}

static int round_trip(const zapi *A, const unsigned char *z, unsigned long zlen,
                      const unsigned char *orig, unsigned long len) {
    unsigned char *back = malloc(len + 1);
    uLongf blen = len + 1;
    uLong zl = zlen;
    int ok = back && A->uncompress2(back, &blen, z, &zl) == Z_OK &&
             blen == len && memcmp(back, orig, len) == 0;
    free(back);
    return ok;
}

int main(int argc, char **argv) {
    int reps = getenv("ZT_REPS") ? atoi(getenv("ZT_REPS")) : 5, bad = 0;
    if (reps < 1) reps = 1;
    if (argc < 2) {
        fprintf(stderr, "usage: zt_compress FILE...\n");
        return 2;
    }
    printf("%-24s %5s %10s %10s %9s %9s %6s %s\n", "file", "level", "bytes",
           "compr", "ref MB/s", "tur MB/s", "ratio", "identical");
    for (int f = 1; f < argc; f++) {
        FILE *fp = fopen(argv[f], "rb");
        if (!fp) { perror(argv[f]); bad = 1; continue; }
        fseek(fp, 0, SEEK_END);
        unsigned long len = (unsigned long)ftell(fp);
        fseek(fp, 0, SEEK_SET);
        unsigned char *in = malloc(len + 1);
        if (!in || fread(in, 1, len, fp) != len) { perror(argv[f]); fclose(fp); bad = 1; continue; }
        fclose(fp);
        unsigned long cap = zapi_ref.compressBound(len);
        unsigned char *o[2] = {malloc(cap), malloc(cap)};
        const char *base = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];
        for (int level = 0; level <= 9; level++) {
            double t[2][64];
            unsigned long n[2] = {0, 0};
            int r = reps > 64 ? 64 : reps;
            for (int k = 0; k < r; k++)
                for (int side = 0; side < 2; side++) {     /* interleaved */
                    const zapi *A = side ? &zapi_tur : &zapi_ref;
                    double t0 = now();
                    n[side] = squeeze(A, in, len, o[side], cap, level);
                    t[side][k] = now() - t0;
                }
            qsort(t[0], (size_t)r, sizeof(double), cmp_double);
            qsort(t[1], (size_t)r, sizeof(double), cmp_double);
            double mr = (double)len / 1e6 / t[0][r / 2], mt = (double)len / 1e6 / t[1][r / 2];
            int same = n[0] && n[0] == n[1] && memcmp(o[0], o[1], n[0]) == 0;
            int rt = same && round_trip(&zapi_ref, o[1], n[1], in, len) &&
                     round_trip(&zapi_tur, o[1], n[1], in, len);
            printf("%-24.24s %5d %10lu %10lu %9.1f %9.1f %6.2f %s\n", base, level, len,
                   n[0], mr, mt, mt / mr, !same ? "DIFFERENT" : rt ? "yes" : "ROUND TRIP FAILED");
            fflush(stdout);
            if (!same || !rt) bad = 1;
        }
        free(o[0]);
        free(o[1]);
        free(in);
    }
    if (bad) fprintf(stderr, "zt_compress: differences found\n");
    return bad;
}
