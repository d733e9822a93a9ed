/* inflate_onecall.c -- drv FILE.zz|FILE.gz N: one inflate(Z_FINISH) of the whole stream, N
   times; prints the MB/s of the fastest.  Built per library as drv-NAME (gcc -O2 -I TREE
   turbo/bench/inflate_onecall.c TREE/libz.a -o drv-NAME), alternated by inflate_onecall_ab.sh.
   The driver behind turbo/results/2026-12-02-simdcopies/, 2026-12-02-lenx/drv-vs-zlibng.txt
   and the probes and instruction counts of turbo/results/2026-12-03-xeon/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "zlib.h"
/* drv FILE.gz|FILE.zz N : inflate the whole stream in one call N times, print least ns/byte */
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); int n = atoi(argv[2]), r, best = -1;
    static unsigned char in[1 << 26], out[1 << 27];
    size_t len = fread(in, 1, sizeof in, f); double bt = 1e30; unsigned long tot = 0;
    int wb = strstr(argv[1], ".gz") ? 31 : 15;
    for (r = 0; r < n; r++) {
        z_stream s; struct timespec a, b; double t;
        memset(&s, 0, sizeof s); inflateInit2(&s, wb);
        s.next_in = in; s.avail_in = len; s.next_out = out; s.avail_out = sizeof out;
        clock_gettime(CLOCK_MONOTONIC, &a);
        best = inflate(&s, Z_FINISH);
        clock_gettime(CLOCK_MONOTONIC, &b);
        t = (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
        if (t < bt) bt = t; tot = s.total_out; inflateEnd(&s);
    }
    printf("%s rc %d out %lu  %.1f MB/s\n", argv[1], best, tot, tot / bt / 1e6);
    return 0;
}
