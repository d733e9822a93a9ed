/* canterbury+calgary with one stream reused by deflateReset(): T threads */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "zturbo.h"
int main(int argc, char **argv) {
    int level = atoi(argv[1]), T = atoi(argv[2]), nf = argc - 3;
    unsigned char *in[64]; size_t n[64], tot = 0, cap = 0;
    for (int i = 0; i < nf; i++) { FILE *f = fopen(argv[3+i], "rb"); fseek(f,0,SEEK_END); n[i]=ftell(f); fseek(f,0,SEEK_SET); in[i]=malloc(n[i]); fread(in[i],1,n[i],f); fclose(f); tot+=n[i]; if (n[i]>cap) cap=n[i]; }
    unsigned char *out = malloc(cap*2+1000);
    z_stream s; memset(&s,0,sizeof s); deflateInit(&s, level); deflateSetThreads(&s, T);
    double best = 1e9;
    for (int r = 0; r < 7; r++) {
        struct timespec a,b; clock_gettime(CLOCK_MONOTONIC,&a);
        for (int i = 0; i < nf; i++) { deflateReset(&s); s.next_in=in[i]; s.avail_in=n[i]; s.next_out=out; s.avail_out=cap*2+1000; deflate(&s, Z_FINISH); }
        clock_gettime(CLOCK_MONOTONIC,&b); double t=(b.tv_sec-a.tv_sec)+(b.tv_nsec-a.tv_nsec)/1e9; if (t<best) best=t;
    }
    printf("L%d T%d reuse: %.1f MB/s (best of 7)\n", level, T, tot/best/1e6);
    return 0;
}
