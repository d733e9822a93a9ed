/* zlevels.c -- write FILE compressed at levels 0-9 (zlib wrapper, one
 * compress2() each) to stdout, each stream preceded by its 4-byte length
 * (little-endian).  Deflate output is platform independent, so this output
 * must be the same for any correct build of the same zlib on any target. */
#include <stdio.h>
#include <stdlib.h>
#include "zlib.h"
#ifdef _WIN32
#  include <fcntl.h>
#  include <io.h>
#endif

int main(int argc, char **argv) {
    FILE *f;
    long n;
    unsigned char *in, *out;
    int level, i;
    if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL) return 2;
#ifdef _WIN32
    _setmode(_fileno(stdout), _O_BINARY);   /* no \r before \n */
#endif
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    in = malloc(n ? n : 1);
    if (fread(in, 1, n, f) != (size_t)n) return 2;
    fclose(f);
    out = malloc(compressBound(n));
    for (level = 0; level <= 9; level++) {
        uLongf len = compressBound(n);
        if (compress2(out, &len, in, n, level) != Z_OK) return 1;
        for (i = 0; i < 4; i++) putchar((int)(len >> (8 * i)) & 0xff);
        fwrite(out, 1, len, stdout);
    }
    return 0;
}
