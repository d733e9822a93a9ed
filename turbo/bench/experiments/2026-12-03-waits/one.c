#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "zlib.h"
#include "zturbo.h"
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static int cmp(const void *a, const void *b) { double x = *(double*)a, y = *(double*)b; return x < y ? -1 : x > y; }
/* one LEVEL THREADS REPS FILE */
int main(int argc, char **argv) {
    int level = atoi(argv[1]), th = atoi(argv[2]), reps = atoi(argv[3]), r;
    FILE *f = fopen(argv[4], "rb"); long n; unsigned char *in, *out = malloc(64 << 20);
    double *t = malloc(reps * sizeof(double));
    fseek(f, 0, SEEK_END); n = ftell(f); rewind(f); in = malloc(n); fread(in, 1, n, f); fclose(f);
    for (r = 0; r < reps; r++) {
        z_stream s; double t0 = now(); memset(&s, 0, sizeof s);
        deflateInit(&s, level); if (th > 1) deflateSetThreads(&s, th);
        s.next_in = in; s.avail_in = n; s.next_out = out; s.avail_out = 64 << 20;
        if (deflate(&s, Z_FINISH) != Z_STREAM_END) return 1;
        deflateEnd(&s); t[r] = now() - t0;
    }
    qsort(t, reps, sizeof(double), cmp);
    printf("%s t%d min %.2f med %.2f ms\n", argv[4], th, t[0]*1e3, t[reps/2]*1e3);
    return 0;
}
