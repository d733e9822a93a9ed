/* zsums.c -- Adler-32 and CRC-32 of zlib-turbo against pristine zlib, on
 * any target (run_cross.sh builds it for each target it checks, both
 * libraries built for that target and linked side by side by
 * turbo/harness/pair.sh; on targets where zlib-turbo's 8-byte Adler-32
 * (adler32-words) is off by default, also with it forced on).
 *
 * usage: zsums [-q]
 *
 * Calls adler32(), adler32_z(), crc32() and crc32_z() of both libraries on
 *   - every length 0..1100 (-q: 0..300) at every alignment 0..15, on random
 *     bytes and on all-0xff bytes (the largest sums), from the initial value
 *     and from a random one;
 *   - the lengths around zlib's and zlib-turbo's block sizes (NMAX 5552,
 *     adler32-words' 2048-byte lane limit and 32-byte steps, the CRC braids)
 *     up to 140000 bytes, at alignments 0..7, from random values (Adler-32
 *     halves also 65521..65535, which zlib reduces);
 *   - random buffers fed in random pieces (0 and 1 bytes among them),
 *     every partial value compared;
 * and adler32_combine(), crc32_combine(), crc32_combine_gen() and
 * crc32_combine_op() on random values and lengths (0, 1, small, large,
 * negative), get_crc_table() entry by entry, and that crc32_combine() of
 * two pieces' CRCs is the CRC of the whole.  Pristine zlib is first
 * checked against the known values of "123456789" (CRC-32 cbf43926) and
 * "Wikipedia" (Adler-32 11e60398).  Prints the number of calls compared;
 * on the first difference prints it and exits 1.  C89.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zapi.h"

#define MAXB 140000ul
#define ALIGNS 16

static unsigned char *rbuf, *fbuf;
static unsigned long cases;
static const char *what;

/* xorshift32 */
static unsigned long rs = 2463534242UL;
static unsigned long rnd(void) {
    unsigned long x = rs;
    x ^= (x << 13) & 0xffffffffUL;
    x ^= x >> 17;
    x ^= (x << 5) & 0xffffffffUL;
    rs = x;
    return x;
}
static unsigned long below(unsigned long n) { return n ? rnd() % n : 0; }

static void differ(const char *fn, unsigned long len, unsigned align,
                   unsigned long start, unsigned long r, unsigned long t) {
    printf("zsums: DIFFERENT: %s(0x%08lx, %s buffer + %u, %lu): pristine "
           "0x%08lx, zlib-turbo 0x%08lx\n", fn, start, what, align, len, r,
           t);
    exit(1);
}

/* the four checksum functions of both libraries on buf[0..len-1] */
static void one(const unsigned char *buf, unsigned align, unsigned long len,
                unsigned long a0, unsigned long c0) {
    unsigned long r, t;

    r = zapi_ref.adler32(a0, buf, (uInt)len);
    t = zapi_tur.adler32(a0, buf, (uInt)len);
    if (r != t) differ("adler32", len, align, a0, r, t);
    t = zapi_tur.adler32_z(a0, buf, (z_size_t)len);
    if (r != t) differ("adler32_z", len, align, a0, r, t);
    r = zapi_ref.crc32(c0, buf, (uInt)len);
    t = zapi_tur.crc32(c0, buf, (uInt)len);
    if (r != t) differ("crc32", len, align, c0, r, t);
    t = zapi_tur.crc32_z(c0, buf, (z_size_t)len);
    if (r != t) differ("crc32_z", len, align, c0, r, t);
    cases += 4;
}

/* a random Adler-32 value: halves 0..65535 (above BASE now and then) */
static unsigned long any_adler(void) {
    unsigned long a = below(4) ? below(65521) : 65521 + below(15);
    unsigned long s = below(4) ? below(65521) : 65521 + below(15);
    return a | s << 16;
}

static void pieces(const unsigned char *buf, unsigned long len) {
    unsigned long ar = 1, at = 1, cr = 0, ct = 0, pos = 0, k;
    while (pos < len) {
        k = below(5) == 0 ? below(2) : below(4) ? below(100) : below(9000);
        if (k > len - pos) k = len - pos;
        ar = zapi_ref.adler32_z(ar, buf + pos, (z_size_t)k);
        at = zapi_tur.adler32_z(at, buf + pos, (z_size_t)k);
        if (ar != at) differ("adler32_z, in pieces,", pos + k, 0, 1, ar, at);
        cr = zapi_ref.crc32_z(cr, buf + pos, (z_size_t)k);
        ct = zapi_tur.crc32_z(ct, buf + pos, (z_size_t)k);
        if (cr != ct) differ("crc32_z, in pieces,", pos + k, 0, 0, cr, ct);
        pos += k;
        cases += 2;
    }
}

int main(int argc, char **argv) {
    static const unsigned long longs[] = {
        2047, 2048, 2049, 2079, 2080, 2081, 4095, 4096, 4097, 5551, 5552,
        5553, 5583, 5584, 5585, 8191, 8192, 8193, 11103, 11104, 11105,
        16384, 16415, 32768, 65535, 65536, 65537, 131071, 131072, 131073,
        139999 };
    unsigned long maxlen = 1100, len, a0, c0, i, r, t;
    unsigned align, k;
    const z_crc_t *tr, *tt;

    if (argc == 2 && strcmp(argv[1], "-q") == 0)
        maxlen = 300;
    else if (argc != 1) {
        fprintf(stderr, "usage: zsums [-q]\n");
        return 2;
    }
    rbuf = malloc(MAXB + ALIGNS);
    fbuf = malloc(MAXB + ALIGNS);
    if (rbuf == NULL || fbuf == NULL) return 2;
    for (i = 0; i < MAXB + ALIGNS; i++) rbuf[i] = (unsigned char)rnd();
    memset(fbuf, 0xff, MAXB + ALIGNS);

    /* the reference is the reference */
    if (zapi_ref.crc32(0, (const Bytef *)"123456789", 9) != 0xcbf43926UL ||
        zapi_ref.adler32(1, (const Bytef *)"Wikipedia", 9) != 0x11e60398UL) {
        printf("zsums: pristine zlib gives wrong checksums\n");
        return 1;
    }

    /* every length at every alignment */
    for (k = 0; k < 2; k++) {
        what = k ? "0xff" : "random";
        for (len = 0; len <= maxlen; len++)
            for (align = 0; align < ALIGNS; align++) {
                one((k ? fbuf : rbuf) + align, align, len, 1, 0);
                a0 = any_adler();
                c0 = rnd();
                one((k ? fbuf : rbuf) + align, align, len, a0, c0);
            }
    }

    /* long lengths around the block sizes */
    for (i = 0; i < sizeof longs / sizeof longs[0]; i++)
        for (align = 0; align < 8; align++)
            for (k = 0; k < 2; k++) {
                what = k ? "0xff" : "random";
                one((k ? fbuf : rbuf) + align, align, longs[i], 1, 0);
                a0 = any_adler();
                c0 = rnd();
                one((k ? fbuf : rbuf) + align, align, longs[i], a0, c0);
            }

    /* in pieces */
    what = "random";
    for (i = 0; i < 200; i++) {
        len = below(i < 150 ? 20000 : MAXB);
        pieces(rbuf + below(ALIGNS), len);
    }
    what = "0xff";
    for (i = 0; i < 20; i++) {
        len = below(MAXB);
        pieces(fbuf + below(ALIGNS), len);
    }

    /* combine */
    what = "combine";
    for (i = 0; i < 20000; i++) {
        unsigned long a1 = i & 1 ? any_adler() : rnd(), a2 = any_adler();
        unsigned long c1 = rnd(), c2 = rnd(), op;
        long len2 = i < 4 ? (long)i - 1 :
                    below(3) == 0 ? (long)below(64) :
                    below(2) ? (long)below(1ul << 20) :
                    (long)(rnd() & 0x7fffffffUL);
        r = zapi_ref.adler32_combine(a1, a2, len2);
        t = zapi_tur.adler32_combine(a1, a2, len2);
        if (r != t) differ("adler32_combine", (unsigned long)len2, 0, a1, r, t);
        r = zapi_ref.crc32_combine(c1, c2, len2);
        t = zapi_tur.crc32_combine(c1, c2, len2);
        if (r != t) differ("crc32_combine", (unsigned long)len2, 0, c1, r, t);
        op = zapi_ref.crc32_combine_gen(len2);
        t = zapi_tur.crc32_combine_gen(len2);
        if (op != t) differ("crc32_combine_gen", (unsigned long)len2, 0, 0, op, t);
        r = zapi_ref.crc32_combine_op(c1, c2, op);
        t = zapi_tur.crc32_combine_op(c1, c2, op);
        if (r != t) differ("crc32_combine_op", (unsigned long)len2, 0, c1, r, t);
        cases += 4;
    }
    /* combined pieces are the whole */
    for (i = 0; i < 200; i++) {
        unsigned long n1 = below(70000), n2 = below(70000);
        unsigned long w = zapi_tur.crc32_z(0, rbuf, (z_size_t)(n1 + n2));
        unsigned long x = zapi_tur.crc32_z(0, rbuf, (z_size_t)n1);
        unsigned long y = zapi_tur.crc32_z(0, rbuf + n1, (z_size_t)n2);
        if (zapi_tur.crc32_combine(x, y, (long)n2) != w)
            differ("crc32_combine of pieces", n2, 0, x, w,
                   zapi_tur.crc32_combine(x, y, (long)n2));
        w = zapi_tur.adler32_z(1, rbuf, (z_size_t)(n1 + n2));
        x = zapi_tur.adler32_z(1, rbuf, (z_size_t)n1);
        y = zapi_tur.adler32_z(1, rbuf + n1, (z_size_t)n2);
        if (zapi_tur.adler32_combine(x, y, (long)n2) != w)
            differ("adler32_combine of pieces", n2, 0, x, w,
                   zapi_tur.adler32_combine(x, y, (long)n2));
        cases += 2;
    }

    /* the table */
    tr = zapi_ref.get_crc_table();
    tt = zapi_tur.get_crc_table();
    what = "table";
    for (i = 0; i < 256; i++, cases++)
        if (tr[i] != tt[i])
            differ("get_crc_table", i, 0, 0, (unsigned long)tr[i],
                   (unsigned long)tt[i]);

    printf("zsums: %lu checksum calls compared (lengths 0-%lu at %d "
           "alignments, %u long lengths, pieces, combine), all identical\n",
           cases, maxlen, ALIGNS,
           (unsigned)(sizeof longs / sizeof longs[0]));
    return 0;
}
