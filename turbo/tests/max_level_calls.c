/* max_level_calls.c -- every zlib call that takes a level, at every level
 *
 * For each level from -2 to 13, prints one line per call: deflateInit(),
 * deflateInit2() (zlib and gzip wrappers), deflateParams() before and after
 * a deflate() call, compress2() and gzsetparams() (with gzwrite() and
 * gzclose() after it), each with its return codes and the CRC-32 of the
 * bytes written.  Run on pristine zlib 1.3.2 and on zlib-turbo with its
 * most level at 9 (./configure --max-level=9 or ZLIB_TURBO_MAX_LEVEL=9),
 * the output must be the same text: zlib's level check, call by call.
 * With "turbo" as its first argument (a zlib-turbo build, compiled with
 * -DWITH_ZTURBO), it makes the same calls with Z_TURBO_LEVEL(n), n from 0
 * to 12, printed as n: the lines must be those of plain levels 0-12 with
 * no most level, whatever the most level.  The second argument is
 * a file name for the gzip calls.
 */
#include <stdio.h>
#include <string.h>
#include "zlib.h"
#ifdef WITH_ZTURBO
#  include "zturbo.h"
#endif

static unsigned char in[20000], out[40000];

/* some compressible input, the same on every run */
static void make_input(void) {
    unsigned long x = 1;
    unsigned i;

    for (i = 0; i < sizeof(in); i++) {
        x = x * 1103515245UL + 12345UL;
        in[i] = (unsigned char)("abcdefgh  \n"[(x >> 16) % 11]);
    }
}

/* deflate all of in[] with strm (avail_out: all of out[]); prints its
   return code and the CRC-32 of what it wrote */
static void finish(z_stream *strm) {
    int ret;

    strm->next_in = in;
    strm->avail_in = sizeof(in);
    strm->next_out = out;
    strm->avail_out = sizeof(out);
    ret = deflate(strm, Z_FINISH);
    printf(" finish %d crc %08lx", ret,
           crc32(0, out, (uInt)(sizeof(out) - strm->avail_out)));
}

/* the calls at one level, as a program would make them; the lines say
   shown for the level */
static void calls(int level, int shown, const char *gzname, const char *tag) {
    z_stream s;
    uLongf n;
    gzFile gz;
    int ret;
    FILE *f;
    unsigned long len = 0, crc = 0;

    memset(&s, 0, sizeof(s));
    ret = deflateInit(&s, level);
    printf("%s %d deflateInit %d", tag, shown, ret);
    if (ret == Z_OK) { finish(&s); deflateEnd(&s); }
    putchar('\n');

    memset(&s, 0, sizeof(s));
    ret = deflateInit2(&s, level, Z_DEFLATED, 31, 9, Z_FILTERED);
    printf("%s %d deflateInit2-gzip %d", tag, shown, ret);
    if (ret == Z_OK) { finish(&s); deflateEnd(&s); }
    putchar('\n');

    memset(&s, 0, sizeof(s));
    ret = deflateInit(&s, 6);
    printf("%s %d deflateParams-first %d %d", tag, shown, ret,
           deflateParams(&s, level, Z_DEFAULT_STRATEGY));
    finish(&s);
    deflateEnd(&s);
    putchar('\n');

    memset(&s, 0, sizeof(s));
    ret = deflateInit(&s, 6);
    s.next_in = in;
    s.avail_in = sizeof(in) / 2;
    s.next_out = out;
    s.avail_out = sizeof(out);
    printf("%s %d deflateParams-later %d %d", tag, shown, ret,
           deflate(&s, Z_NO_FLUSH));
    printf(" %d", deflateParams(&s, level, Z_DEFAULT_STRATEGY));
    printf(" pending-in %u", s.avail_in);
    finish(&s);
    deflateEnd(&s);
    putchar('\n');

    n = sizeof(out);
    ret = compress2(out, &n, in, sizeof(in), level);
    printf("%s %d compress2 %d crc %08lx\n", tag, shown, ret,
           ret == Z_OK ? crc32(0, out, (uInt)n) : 0UL);

    gz = gzopen(gzname, "wb");
    if (gz == NULL) {
        printf("%s %d gzopen failed\n", tag, shown);
        return;
    }
    printf("%s %d gzsetparams %d", tag, shown,
           gzsetparams(gz, level, Z_DEFAULT_STRATEGY));
    printf(" gzwrite %d", gzwrite(gz, in, sizeof(in)));
    printf(" gzclose %d", gzclose(gz));
    f = fopen(gzname, "rb");
    if (f != NULL) {
        size_t got;
        while ((got = fread(out, 1, sizeof(out), f)) > 0) {
            crc = crc32(crc, out, (uInt)got);
            len += (unsigned long)got;
        }
        fclose(f);
    }
    printf(" file %lu crc %08lx\n", len, crc);
}

int main(int argc, char **argv) {
    int level;

    if (argc != 3) {
        fprintf(stderr, "usage: max_level_calls plain|turbo GZFILE\n");
        return 2;
    }
    make_input();
    if (strcmp(argv[1], "plain") == 0) {
        for (level = -2; level <= 13; level++)
            calls(level, level, argv[2], "level");
        return 0;
    }
#ifdef WITH_ZTURBO
    if (strcmp(argv[1], "turbo") == 0) {
        for (level = 0; level <= 12; level++)
            calls(Z_TURBO_LEVEL(level), level, argv[2], "level");
        return 0;
    }
#endif
    fprintf(stderr, "max_level_calls: %s: not in this build\n", argv[1]);
    return 2;
}
