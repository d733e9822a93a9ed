/* zoptimal.c -- write FILE compressed at levels 10, 11 and 12 (zlib-turbo's
 * optimal levels, zturbo.h) in several ways to stdout, each stream preceded
 * by its 4-byte length (little-endian).  zlib-turbo promises the same bytes
 * for these levels on every machine, word size and byte order, for every
 * slicing and thread count: run_cross.sh compares this program's output for
 * another target (32-bit x86, s390x, 64-bit Windows) with its output on the
 * x86-64 host.  For each level:
 *   1. compress2() of the first 512 KiB (zlib wrapper);
 *   2. raw deflate, windowBits 10, memLevel 2, Z_FILTERED, of the first
 *      256 KiB: input in 1000-byte calls, output in 777-byte slices, a
 *      Z_SYNC_FLUSH every 20000 bytes and a Z_FULL_FLUSH every 70000 (with
 *      room for all), deflateParams() to the next level at the middle;
 *   3. gzip, windowBits 15, memLevel 9, one strategy per level (Z_RLE,
 *      Z_FIXED, Z_HUFFMAN_ONLY), of the first 256 KiB, one call, with a
 *      deflateSetHeader() header whose OS byte is 3 on every target;
 *   4. zlib wrapper with the file's first 4 KiB as dictionary, then the
 *      next 128 KiB;
 *   5. the whole file (up to 1 MiB, several 256 KiB segments) with
 *      deflateSetThreads(strm, 3), one call.
 * Exit status 1 when a call fails (the output then stops), 2 on bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"
#include "zturbo.h"
#ifdef _WIN32
#  include <fcntl.h>
#  include <io.h>
#endif

static unsigned char *out;
static size_t outcap;

static void put(size_t len) {
    int i;
    for (i = 0; i < 4; i++) putchar((int)(len >> (8 * i)) & 0xff);
    fwrite(out, 1, len, stdout);
}

/* a whole stream: init done by the caller; input in slices of inslice
 * bytes (0: all), output in slices of outslice (0: all), flushes every
 * sync / full bytes (0: none), deflateParams(level2) at switch (0: none) */
static int stream(z_stream *s, const unsigned char *in, size_t n, size_t inslice,
                  size_t outslice, size_t sync, size_t full, size_t sw, int level2,
                  int strategy2, size_t *len) {
    size_t pos = 0, have = 0;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        size_t next = n, give;
        int flush = Z_FINISH, marker = 0;
        if (sync && (pos / sync + 1) * sync < next) next = (pos / sync + 1) * sync, flush = Z_SYNC_FLUSH;
        if (full && (pos / full + 1) * full < next) next = (pos / full + 1) * full, flush = Z_FULL_FLUSH;
        if (sw && pos < sw && sw < next) next = sw, flush = Z_NO_FLUSH;
        marker = flush == Z_SYNC_FLUSH || flush == Z_FULL_FLUSH;
        /* the input before the event, then the event's call(s) */
        while (pos < next) {
            give = inslice && next - pos > inslice ? inslice : next - pos;
            s->next_in = (Bytef *)in + pos;
            s->avail_in = (uInt)give;
            s->next_out = out + have;
            s->avail_out = (uInt)(outslice && outcap - have > outslice ? outslice : outcap - have);
            rc = deflate(s, Z_NO_FLUSH);
            if (rc != Z_OK) return 1;
            pos += give - s->avail_in;
            have = (size_t)(s->next_out - out);
        }
        if (flush == Z_NO_FLUSH) {          /* deflateParams() at sw */
            do {
                s->next_out = out + have;
                s->avail_out = (uInt)(outslice && outcap - have > outslice ? outslice : outcap - have);
                rc = deflateParams(s, level2, strategy2);
                have = (size_t)(s->next_out - out);
            } while (rc == Z_BUF_ERROR && s->avail_out == 0);
            if (rc != Z_OK) return 1;
            continue;
        }
        do {
            s->next_in = (Bytef *)in + pos;
            s->avail_in = 0;
            s->next_out = out + have;
            s->avail_out = (uInt)(!marker && outslice && outcap - have > outslice ? outslice : outcap - have);
            rc = deflate(s, flush);
            have = (size_t)(s->next_out - out);
            if (rc != Z_OK && rc != Z_STREAM_END) return 1;
        } while (flush == Z_FINISH ? rc != Z_STREAM_END : s->avail_out == 0);
    }
    *len = have;
    return deflateEnd(s) != Z_OK;
}

int main(int argc, char **argv) {
    FILE *f;
    long n;
    size_t len, m;
    unsigned char *in;
    int level;
    static const int strategies[3] = {Z_RLE, Z_FIXED, Z_HUFFMAN_ONLY};
    if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL) return 2;
#ifdef _WIN32
    _setmode(_fileno(stdout), _O_BINARY);
#endif
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n > (1L << 20)) n = 1L << 20;
    in = malloc(n ? n : 1);
    if (fread(in, 1, n, f) != (size_t)n) return 2;
    fclose(f);
    outcap = (size_t)n * 2 + 65536;
    out = malloc(outcap);
    for (level = 10; level <= 12; level++) {
        z_stream s;
        gz_header head;
        uLongf dl = (uLongf)outcap;
        /* 1 */
        m = n < (512L << 10) ? (size_t)n : (512u << 10);
        if (compress2(out, &dl, in, (uLong)m, level) != Z_OK) return 1;
        put(dl);
        /* 2 */
        m = n < (256L << 10) ? (size_t)n : (256u << 10);
        memset(&s, 0, sizeof s);
        if (deflateInit2(&s, level, Z_DEFLATED, -10, 2, Z_FILTERED) != Z_OK ||
            stream(&s, in, m, 1000, 777, 20000, 70000, m / 2, level == 12 ? 10 : level + 1,
                   Z_FILTERED, &len))
            return 1;
        put(len);
        /* 3: the header's OS byte fixed by deflateSetHeader() (zlib writes
           its OS_CODE otherwise: 3 on Unix, 10 on Windows) */
        memset(&s, 0, sizeof s);
        memset(&head, 0, sizeof head);
        head.os = 3;
        if (deflateInit2(&s, level, Z_DEFLATED, 31, 9, strategies[level - 10]) != Z_OK ||
            deflateSetHeader(&s, &head) != Z_OK ||
            stream(&s, in, m, 0, 0, 0, 0, 0, 0, 0, &len))
            return 1;
        put(len);
        /* 4 */
        memset(&s, 0, sizeof s);
        m = n > 4096 ? (size_t)n - 4096 : 0;
        if (m > (128u << 10)) m = 128u << 10;
        if (deflateInit2(&s, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK ||
            deflateSetDictionary(&s, in, n > 4096 ? 4096 : (uInt)n) != Z_OK ||
            stream(&s, in + (n > 4096 ? 4096 : n), m, 0, 0, 0, 0, 0, 0, 0, &len))
            return 1;
        put(len);
        /* 5 */
        memset(&s, 0, sizeof s);
        if (deflateInit2(&s, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK ||
            deflateSetThreads(&s, 3) != Z_OK ||
            stream(&s, in, (size_t)n, 0, 0, 0, 0, 0, 0, 0, &len))
            return 1;
        put(len);
    }
    return 0;
}
