#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "zlib.h"
/* drvc FILE N : 16 KiB in, 64 KiB out per call; least time of N */
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); int n = atoi(argv[2]), r, rc = 0;
    static unsigned char in[1 << 26], out[1 << 16];
    size_t len = fread(in, 1, sizeof in, f); double bt = 1e30; unsigned long tot = 0;
    int wb = strstr(argv[1], ".gz") ? 31 : 15;
    for (r = 0; r < n; r++) {
        z_stream s; struct timespec a, b; double t; size_t pos = 0;
        memset(&s, 0, sizeof s); inflateInit2(&s, wb);
        clock_gettime(CLOCK_MONOTONIC, &a);
        do {
            if (s.avail_in == 0) { size_t k = len - pos > 16384 ? 16384 : len - pos; s.next_in = in + pos; s.avail_in = k; pos += k; }
            s.next_out = out; s.avail_out = sizeof out;
            rc = inflate(&s, Z_NO_FLUSH);
        } while (rc == Z_OK);
        clock_gettime(CLOCK_MONOTONIC, &b);
        t = (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
        if (t < bt) bt = t; tot = s.total_out; inflateEnd(&s);
    }
    printf("%s rc %d out %lu  %.1f MB/s\n", argv[1], rc, tot, tot / bt / 1e6);
    return 0;
}
