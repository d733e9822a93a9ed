#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "zlib.h"
#include "zturbo.h"
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
/* pf LEVEL REPS FILE... : per file min time with 1 and 2 threads, interleaved */
int main(int argc, char **argv) {
    int level = atoi(argv[1]), reps = atoi(argv[2]), nf = argc - 3, a, r, t;
    unsigned char **in = malloc(nf * sizeof *in); long *n = malloc(nf * sizeof *n);
    unsigned char *out = malloc(64 << 20);
    double *best = malloc(nf * 3 * sizeof(double)), s1 = 0, s2 = 0;
    for (a = 0; a < nf; a++) {
        FILE *f = fopen(argv[a + 3], "rb");
        fseek(f, 0, SEEK_END); n[a] = ftell(f); rewind(f);
        in[a] = malloc(n[a]); fread(in[a], 1, n[a], f); fclose(f);
        best[a*3+1] = best[a*3+2] = 1e9;
    }
    for (r = 0; r < reps; r++)
        for (a = 0; a < nf; a++)
        for (t = 1; t <= 2; t++) {
            double t0 = now();
                z_stream s; memset(&s, 0, sizeof s);
                deflateInit(&s, level); if (t > 1) deflateSetThreads(&s, t);
                s.next_in = in[a]; s.avail_in = n[a]; s.next_out = out; s.avail_out = 64 << 20;
                if (deflate(&s, Z_FINISH) != Z_STREAM_END) return 1;
                deflateEnd(&s);
            t0 = now() - t0; if (t0 < best[a*3+t]) best[a*3+t] = t0;
        }
    for (a = 0; a < nf; a++) {
        const char *b = strrchr(argv[a+3], '/');
        printf("%-16s %8ld %8.2f %8.2f %.3f\n", b ? b + 1 : argv[a+3], n[a], best[a*3+1]*1e3, best[a*3+2]*1e3, best[a*3+1]/best[a*3+2]);
        s1 += best[a*3+1]; s2 += best[a*3+2];
    }
    printf("total %.2f %.2f %.3f\n", s1*1e3, s2*1e3, s1/s2);
    return 0;
}
