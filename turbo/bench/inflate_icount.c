/* inflate_icount.c -- inflate one zlib stream, whole, once per repetition.
 *
 * Usage: inflate_icount FILE.z [REPS [16k]]
 * Reads a zlib stream (at most 40 MiB, inflating to at most 40 MiB) and
 * inflates it with one inflate(Z_FINISH) call, REPS times (default 1), or
 * with "16k" 16 KiB of input at a time into a 64 KiB output buffer (as
 * zbench's inflate-zlib-16k); prints the total number of bytes produced.  Made to be run under
 * valgrind --tool=callgrind by inflate_icount.sh, which links it with one
 * zlib tree at a time: executed instructions are steadier than time on a
 * shared machine.  Exit status 1 if the stream does not inflate to its end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"

static unsigned char in[40 << 20], out[40 << 20];

int main(int argc, char **argv) {
    FILE *f;
    size_t n;
    int reps, r, chunked;
    unsigned long total = 0;

    if (argc < 2 || (f = fopen(argv[1], "rb")) == NULL) {
        fprintf(stderr, "usage: inflate_icount FILE.z [REPS]\n");
        return 1;
    }
    n = fread(in, 1, sizeof(in), f);
    fclose(f);
    reps = argc > 2 ? atoi(argv[2]) : 1;
    chunked = argc > 3 && strcmp(argv[3], "16k") == 0;
    for (r = 0; r < reps; r++) {
        z_stream s;
        int ret;

        s.zalloc = Z_NULL;
        s.zfree = Z_NULL;
        s.opaque = Z_NULL;
        s.next_in = in;
        s.avail_in = (uInt)n;
        if (inflateInit(&s) != Z_OK)
            return 1;
        if (chunked) {
            size_t used = 0;

            s.avail_in = 0;
            do {
                if (s.avail_in == 0) {
                    s.avail_in = (uInt)(n - used < 16384 ? n - used : 16384);
                    used += s.avail_in;
                }
                s.next_out = out;
                s.avail_out = 65536;
                ret = inflate(&s, Z_NO_FLUSH);
            } while (ret == Z_OK);
        }
        else {
            s.next_out = out;
            s.avail_out = sizeof(out);
            ret = inflate(&s, Z_FINISH);
        }
        if (ret != Z_STREAM_END) {
            fprintf(stderr, "inflate_icount: %s: inflate() returned %d\n",
                    argv[1], ret);
            return 1;
        }
        total += s.total_out;
        inflateEnd(&s);
    }
    printf("%lu\n", total);
    return 0;
}
