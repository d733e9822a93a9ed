#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"
int ref_inflateInit2_(z_streamp, int, const char*, int); int tur_inflateInit2_(z_streamp, int, const char*, int);
int ref_inflate(z_streamp, int); int tur_inflate(z_streamp, int);
int ref_inflateEnd(z_streamp); int tur_inflateEnd(z_streamp);
int ref_deflateInit2_(z_streamp, int,int,int,int,int, const char*, int);
int ref_deflate(z_streamp, int); int ref_deflateEnd(z_streamp);
static unsigned rnd(unsigned long long *s){ *s = *s*6364136223846793005ULL+1442695040888963407ULL; return (unsigned)(*s>>33); }
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); static unsigned char src[1<<20], z[1<<21], o1[1<<20], o2[1<<20];
    size_t n = fread(src, 1, sizeof src, f); fclose(f);
    int iters = atoi(argv[2]);
    unsigned long long seed = 1;
    for (int it = 0; it < iters; it++) {
        size_t off = rnd(&seed) % n, len = 1 + rnd(&seed) % 8000; if (off + len > n) len = n - off;
        int level = 1 + rnd(&seed) % 9;
        z_stream d; memset(&d, 0, sizeof d);
        ref_deflateInit2_(&d, level, 8, 9 + rnd(&seed)%7, 1 + rnd(&seed)%9, 0, ZLIB_VERSION, sizeof d);
        d.next_in = src + off; d.avail_in = len; d.next_out = z; d.avail_out = sizeof z;
        ref_deflate(&d, Z_FINISH); size_t zl = d.total_out; ref_deflateEnd(&d);
        z_stream a, b; memset(&a,0,sizeof a); memset(&b,0,sizeof b);
        ref_inflateInit2_(&a, 15, ZLIB_VERSION, sizeof a); tur_inflateInit2_(&b, 15, ZLIB_VERSION, sizeof b);
        a.next_in = b.next_in = z; a.next_out = o1; b.next_out = o2;
        unsigned maxin = 1 + rnd(&seed) % 20, maxout = 1 + rnd(&seed) % 300;
        for (int call = 0;; call++) {
            unsigned ai = 1 + rnd(&seed) % maxin, ao = 1 + rnd(&seed) % maxout;
            size_t ri = z + zl - a.next_in; if (ai > ri) ai = ri;
            a.avail_in = b.avail_in = ai; a.avail_out = b.avail_out = ao;
            int r1 = ref_inflate(&a, Z_NO_FLUSH), r2 = tur_inflate(&b, Z_NO_FLUSH);
            if (r1 != r2 || a.avail_in != b.avail_in || a.avail_out != b.avail_out || a.data_type != b.data_type) {
                printf("it %d call %d: r %d %d in %u %u out %u %u dt %d %d msg %s|%s lvl %d\n", it, call, r1, r2, a.avail_in, b.avail_in, a.avail_out, b.avail_out, a.data_type, b.data_type, a.msg, b.msg, level);
                return 1;
            }
            if (r1 != Z_OK) break;
        }
        if (memcmp(o1, o2, a.total_out)) { printf("it %d output differs\n", it); return 1; }
        ref_inflateEnd(&a); tur_inflateEnd(&b);
    }
    printf("ok\n"); return 0;
}
