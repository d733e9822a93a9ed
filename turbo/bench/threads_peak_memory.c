/* threads_peak_memory.c -- mem THREADS KIB: the memory of level 12 with threads, through a
   counting zalloc: what deflateInit() allocates and the peak of one deflate(Z_FINISH) of KIB KiB
   of generated input with deflateSetThreads(strm, THREADS).  Built as mem (as threads_one_vs_two.c);
   the driver behind the memory numbers of turbo/results/2026-12-03-parts/ and 2026-12-03-waits/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"
#include "zturbo.h"
static size_t tot, peak;
static voidpf za(voidpf o, uInt n, uInt s) { size_t *p = malloc((size_t)n * s + 16); *p = (size_t)n * s; tot += *p; if (tot > peak) peak = tot; return p + 2; }
static void zf(voidpf o, voidpf q) { size_t *p = (size_t *)q - 2; tot -= *p; free(p); }
int main(int argc, char **argv) {
    int th = atoi(argv[1]); size_t n = (size_t)atoi(argv[2]) << 10;
    unsigned char *in = malloc(n), *out = malloc(n * 2 + 100000); z_stream s; size_t i;
    for (i = 0; i < n; i++) in[i] = (unsigned char)(i * 7 ^ i >> 9);
    memset(&s, 0, sizeof s); s.zalloc = za; s.zfree = zf;
    deflateInit(&s, 12); printf("init %.2f MiB\n", tot / 1048576.0);
    if (th > 1) deflateSetThreads(&s, th);
    s.next_in = in; s.avail_in = n; s.next_out = out; s.avail_out = n * 2 + 100000;
    deflate(&s, Z_FINISH); printf("threads %d input %zu KiB: peak %.2f MiB\n", th, n >> 10, peak / 1048576.0);
    deflateEnd(&s); return 0;
}
