/* threads_one_vs_two.c -- rs LEVEL REPS FILE...: deflateSetThreads(), a set of files at LEVEL,
   each file a new stream, with one thread then two, interleaved per repetition; prints the least
   time of each and their ratio.  Built as rs: cc -O2 -I build/zlib-turbo -I src
   turbo/bench/threads_one_vs_two.c build/zlib-turbo/libz.a -lpthread -o rs.  The driver behind
   turbo/results/2026-12-03-parts/, 2026-12-03-waits/ and 2026-12-03-zen5/optimal12-threads-*-rs.txt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "zlib.h"
#include "zturbo.h"
#include "bench_time.h"
/* rs LEVEL REPS FILE... : set time with 1 and 2 threads, interleaved per rep; min of each; prints t1 t2 */
int main(int argc, char **argv) {
    int level = atoi(argv[1]), reps = atoi(argv[2]), nf = argc - 3, a, r, t;
    unsigned char **in = malloc(nf * sizeof *in); long *n = malloc(nf * sizeof *n);
    unsigned char *out = malloc(64 << 20);
    double best[3] = {1e9, 1e9, 1e9};
    for (a = 0; a < nf; a++) {
        FILE *f = fopen(argv[a + 3], "rb");
        fseek(f, 0, SEEK_END); n[a] = ftell(f); rewind(f);
        in[a] = malloc(n[a]); fread(in[a], 1, n[a], f); fclose(f);
    }
    for (r = 0; r < reps; r++)
        for (t = 1; t <= 2; t++) {
            double t0 = bench_now();
            for (a = 0; a < nf; a++) {
                z_stream s; memset(&s, 0, sizeof s);
                deflateInit(&s, level); if (t > 1) deflateSetThreads(&s, t);
                s.next_in = in[a]; s.avail_in = n[a]; s.next_out = out; s.avail_out = 64 << 20;
                if (deflate(&s, Z_FINISH) != Z_STREAM_END) return 1;
                deflateEnd(&s);
            }
            t0 = bench_now() - t0; if (t0 < best[t]) best[t] = t0;
        }
    printf("%.4f %.4f %.3f\n", best[1], best[2], best[1] / best[2]);
    return 0;
}
