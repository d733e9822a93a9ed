/* inflate_threads_call.c -- drv FILE.gz THREADS ROUNDS: one inflate(Z_FINISH)
   call over the whole gzip file (every member, inflateReset() between them),
   ROUNDS times, with inflateSetThreads(THREADS) where the library has it
   (zlib-turbo, built with -DTURBO; pristine zlib: THREADS must be 1).  Prints each round's
   seconds on one line, then the output's size and CRC-32 (for the script to
   compare across libraries and thread counts).  Built per library by
   turbo/bench/inflate_threads.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "zlib.h"
#ifdef TURBO                                    /* -DTURBO: zlib-turbo */
#  include "zturbo.h"
#else
#  define inflateSetThreads(s, n) ((n) <= 1 ? Z_OK : Z_STREAM_ERROR)
#endif

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
    FILE *f;
    unsigned char *in, *out;
    long len;
    size_t cap;
    int threads, rounds, r;
    unsigned long total = 0, crc = 0;

    if (argc != 4) {
        fprintf(stderr, "usage: drv FILE.gz THREADS ROUNDS\n");
        return 2;
    }
    threads = atoi(argv[2]);
    rounds = atoi(argv[3]);
    f = fopen(argv[1], "rb");
    if (f == NULL || fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0) {
        perror(argv[1]);
        return 2;
    }
    rewind(f);
    in = malloc((size_t)len);
    if (in == NULL || fread(in, 1, (size_t)len, f) != (size_t)len) return 2;
    fclose(f);
    cap = (size_t)len * 12 + (1u << 20);        /* enough for the corpus */
    out = malloc(cap);
    if (out == NULL) return 2;
    memset(out, 0, cap);                        /* pages touched before timing */
    for (r = 0; r < rounds; r++) {
        z_stream s;
        double t;
        int rc;
        memset(&s, 0, sizeof s);
        if (inflateInit2(&s, 31) != Z_OK) return 2;
        if (threads > 1 && inflateSetThreads(&s, threads) != Z_OK) {
            fprintf(stderr, "inflateSetThreads(%d) refused\n", threads);
            return 2;
        }
        s.next_in = in;
        s.avail_in = (uInt)len;
        s.next_out = out;
        s.avail_out = (uInt)(cap > 0xffffffffUL ? 0xffffffffUL : cap);
        t = now();
        for (;;) {
            rc = inflate(&s, Z_FINISH);
            if (rc == Z_STREAM_END && s.avail_in > 0) {
                inflateReset(&s);               /* the next member */
                continue;
            }
            break;
        }
        t = now() - t;
        if (rc != Z_STREAM_END) {
            fprintf(stderr, "inflate: %d %s\n", rc, s.msg ? s.msg : "");
            return 2;
        }
        total = (unsigned long)(s.next_out - out);
        inflateEnd(&s);
        printf("%s%.6f", r ? " " : "", t);
    }
    crc = crc32(0, out, (uInt)total);
    printf("\n%lu %08lx\n", total, crc);
    return 0;
}
