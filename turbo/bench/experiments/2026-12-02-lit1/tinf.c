/* tinf FILE.z REPS: min time of one whole inflate() of FILE.z over REPS */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "zlib.h"
static unsigned char in[40 << 20], out[40 << 20];
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); size_t n = fread(in, 1, sizeof(in), f); int r, reps = atoi(argv[2]);
    double best = 1e9; unsigned long tot = 0;
    fclose(f);
    for (r = 0; r < reps; r++) {
        z_stream s; double t;
        s.zalloc = Z_NULL; s.zfree = Z_NULL; s.opaque = Z_NULL;
        s.next_in = in; s.avail_in = (uInt)n;
        inflateInit(&s); s.next_out = out; s.avail_out = sizeof(out);
        t = now();
        if (inflate(&s, Z_FINISH) != Z_STREAM_END) return 1;
        t = now() - t; if (t < best) best = t; tot = s.total_out;
        inflateEnd(&s);
    }
    printf("%.1f\n", tot / best / 1e6);
    return 0;
}
