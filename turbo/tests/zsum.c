/* zsum.c -- check the library's Adler-32 and CRC-32 against plain references.
 *
 * Standalone: links the zlib under test (-lz or a libz.a) and checks
 * adler32(), adler32_z(), crc32(), crc32_z(), the combine functions and
 * get_crc_table() against its own byte-at-a-time Adler-32 (reduced modulo
 * 65521 after every byte) and CRC-32 (a table made here from the
 * polynomial).  Cases:
 *   - every length 0..4096 at every alignment 0..63, on random bytes and on
 *     all-0xff bytes (the largest sums), each in one call and again in
 *     random pieces (pieces of 0 bytes and of 1 byte included);
 *   - Adler-32 from random starting values (each half 0..65535) for lengths
 *     of 16 or more, where zlib reduces fully;
 *   - long all-0xff and random buffers (several MB, past zlib's NMAX many
 *     times, and one of 400 MB past zlib-turbo's NMAXW once), one call and
 *     pieces;
 *   - adler32_combine(64), crc32_combine(64), crc32_combine_gen(64) and
 *     crc32_combine_op on random splits.
 * Prints the number of cases checked; exits 1 at the first mismatch.
 * Linked with a zlib-turbo built with -DZ_TURBO_SIMD_AUTO, it also prints
 * what the CPU dispatch chose (zsimd_detect(), after the mask that test
 * builds, -DZ_TURBO_SIMD_TEST, read from ZLIB_TURBO_SIMD_MASK).
 * Usage: zsum [-q]   (-q: skip the 400 MB case)
 */
#ifndef _LARGEFILE64_SOURCE
#  define _LARGEFILE64_SOURCE 1     /* for the *64 combine functions */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"

#if defined(__GNUC__) && defined(__ELF__) && \
    (defined(__x86_64__) || defined(__i386__))
/* zlib-turbo's CPU dispatch (zsimd.c), where it is linked in */
extern int zsimd_detect(void) __attribute__((weak));
#  define ZSUM_DISPATCH
#endif

#define BASE 65521UL
#define MAXLEN 4096
#define ALIGNS 64

static unsigned long ref_crc_table[256];
static unsigned long long cases;

static unsigned long rng_state = 2463534242UL;
static unsigned long rnd(void) {          /* xorshift32 */
    unsigned long x = rng_state & 0xffffffffUL;
    x ^= (x << 13) & 0xffffffffUL;
    x ^= x >> 17;
    x ^= (x << 5) & 0xffffffffUL;
    rng_state = x;
    return x;
}

static void make_ref_table(void) {
    unsigned long c;
    int n, k;
    for (n = 0; n < 256; n++) {
        c = (unsigned long)n;
        for (k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320UL ^ (c >> 1) : c >> 1;
        ref_crc_table[n] = c;
    }
}

static unsigned long ref_adler(unsigned long adler, const unsigned char *p,
                               size_t len) {
    unsigned long a = adler & 0xffff, s = (adler >> 16) & 0xffff;
    a %= BASE;
    s %= BASE;
    while (len--) {
        a = (a + *p++) % BASE;
        s = (s + a) % BASE;
    }
    return a | (s << 16);
}

static unsigned long ref_crc(unsigned long crc, const unsigned char *p,
                             size_t len) {
    crc = ~crc & 0xffffffffUL;
    while (len--)
        crc = (crc >> 8) ^ ref_crc_table[(crc ^ *p++) & 0xff];
    return ~crc & 0xffffffffUL;
}

static void fail(const char *what, size_t len, size_t align,
                 unsigned long got, unsigned long want) {
    printf("MISMATCH %s: len %lu align %lu: got %08lx want %08lx\n", what,
           (unsigned long)len, (unsigned long)align, got, want);
    exit(1);
}

static void check(const char *what, size_t len, size_t align,
                  unsigned long got, unsigned long want) {
    cases++;
    if (got != want)
        fail(what, len, align, got, want);
}

/* the library's checksum of p[0..len-1] in random pieces */
static unsigned long lib_pieces(int crc, unsigned long init,
                                const unsigned char *p, size_t len) {
    unsigned long v = init;
    while (len) {
        size_t n;
        switch (rnd() % 4) {
        case 0: n = rnd() % 2; break;               /* 0 or 1 byte */
        case 1: n = rnd() % 64; break;
        case 2: n = rnd() % 512; break;
        default: n = rnd() % (len + 1); break;
        }
        if (n > len) n = len;
        if (rnd() & 1)
            v = crc ? crc32_z(v, p, n) : adler32_z(v, p, n);
        else
            v = crc ? crc32(v, p, (uInt)n) : adler32(v, p, (uInt)n);
        p += n;
        len -= n;
    }
    return v;
}

/* every length at every alignment of one fill of buf */
static void sweep(unsigned char *buf, const char *name) {
    size_t align, len;
    static unsigned long ra[MAXLEN + 1], rc[MAXLEN + 1];
    char what[64];
    for (align = 0; align < ALIGNS; align++) {
        const unsigned char *p = buf + align;
        unsigned long a = 1, c = 0;
        /* the references for every prefix of p, in one pass */
        ra[0] = a;
        rc[0] = c;
        for (len = 1; len <= MAXLEN; len++) {
            a = ref_adler(a, p + len - 1, 1);
            c = ref_crc(c, p + len - 1, 1);
            ra[len] = a;
            rc[len] = c;
        }
        for (len = 0; len <= MAXLEN; len++) {
            sprintf(what, "adler32 %s one call", name);
            check(what, len, align, adler32_z(1, p, len), ra[len]);
            sprintf(what, "crc32 %s one call", name);
            check(what, len, align, crc32_z(0, p, len), rc[len]);
            sprintf(what, "adler32 %s pieces", name);
            check(what, len, align, lib_pieces(0, 1, p, len), ra[len]);
            sprintf(what, "crc32 %s pieces", name);
            check(what, len, align, lib_pieces(1, 0, p, len), rc[len]);
            if (len >= 16) {
                unsigned long init = rnd() & 0xffffffffUL;
                sprintf(what, "adler32 %s start %08lx", name, init);
                check(what, len, align, adler32_z(init, p, len),
                      ref_adler(init, p, len));
                init = rnd() & 0xffffffffUL;
                sprintf(what, "crc32 %s start %08lx", name, init);
                check(what, len, align, crc32_z(init, p, len),
                      ref_crc(init, p, len));
            }
        }
    }
}

/* combine functions on random splits of p[0..len-1] */
static void combines(const unsigned char *p, size_t len, int n) {
    while (n--) {
        size_t k = len ? rnd() % (len + 1) : 0;
        unsigned long a1 = adler32_z(1, p, k), a2 = adler32_z(1, p + k, len - k);
        unsigned long c1 = crc32_z(0, p, k), c2 = crc32_z(0, p + k, len - k);
        unsigned long wa = ref_adler(1, p, len), wc = ref_crc(0, p, len);
        check("adler32_combine", len, k,
              adler32_combine(a1, a2, (z_off_t)(len - k)), wa);
        check("adler32_combine64", len, k,
              adler32_combine64(a1, a2, (z_off64_t)(len - k)), wa);
        check("crc32_combine", len, k,
              crc32_combine(c1, c2, (z_off_t)(len - k)), wc);
        check("crc32_combine64", len, k,
              crc32_combine64(c1, c2, (z_off64_t)(len - k)), wc);
        check("crc32_combine_gen/op", len, k,
              crc32_combine_op(c1, c2, crc32_combine_gen((z_off_t)(len - k))),
              wc);
        check("crc32_combine_gen64/op", len, k,
              crc32_combine_op(c1, c2,
                               crc32_combine_gen64((z_off64_t)(len - k))), wc);
    }
}

/* one long buffer: one call, pieces, and a few combines */
static void longcase(const unsigned char *p, size_t len, const char *name) {
    unsigned long wa = ref_adler(1, p, len), wc = ref_crc(0, p, len);
    check(name, len, 0, adler32_z(1, p, len), wa);
    check(name, len, 0, crc32_z(0, p, len), wc);
    check(name, len, 0, lib_pieces(0, 1, p, len), wa);
    check(name, len, 0, lib_pieces(1, 0, p, len), wc);
    check(name, len, 1, adler32_z(0xfff0fff0UL, p + 1, len - 1),
          ref_adler(0xfff0fff0UL, p + 1, len - 1));
    combines(p, len, 4);
}

int main(int argc, char **argv) {
    int quick = argc > 1 && strcmp(argv[1], "-q") == 0;
    static unsigned char buf[MAXLEN + ALIGNS];
    const z_crc_t *t = get_crc_table();
    unsigned char *big;
    size_t i, n;

    make_ref_table();
#ifdef ZSUM_DISPATCH
    if (zsimd_detect) {
        int f = zsimd_detect();
        /* bits (zsimd.h): 2 PCLMULQDQ, 4 AVX2, 8 256-bit VPCLMULQDQ,
           16 512-bit VPCLMULQDQ (AVX-512F) */
        printf("zsum: SIMD dispatch: CRC-32 %s%s%s%s, Adler-32 %s\n",
               f & 16 ? "VPCLMULQDQ-512 + " : "",
               f & 8 ? "VPCLMULQDQ + " : "",
               f & 2 ? "PCLMULQDQ" : "", f & 2 ? "" : "tables",
               f & 4 ? "AVX2" : "portable");
    }
#endif
    for (i = 0; i < 256; i++)
        check("get_crc_table", i, 0, (unsigned long)t[i], ref_crc_table[i]);
    check("adler32 NULL", 0, 0, adler32(12345, Z_NULL, 0), 1);
    check("crc32 NULL", 0, 0, crc32(12345, Z_NULL, 0), 0);

    for (i = 0; i < sizeof(buf); i++)
        buf[i] = (unsigned char)(rnd() >> 5);
    sweep(buf, "random");
    combines(buf, MAXLEN, 2000);
    memset(buf, 0xff, sizeof(buf));
    sweep(buf, "0xff");
    combines(buf, MAXLEN, 200);

    n = (size_t)9 << 20;                        /* 9 MB */
    big = malloc(n);
    if (big == NULL) { printf("no memory\n"); return 2; }
    memset(big, 0xff, n);
    longcase(big, n, "long 0xff");
    longcase(big, 5552 * 3 + 7, "3*NMAX+7 0xff");
    for (i = 0; i < n; i++)
        big[i] = (unsigned char)(rnd() >> 3);
    longcase(big, n, "long random");
    free(big);

    if (!quick) {
        /* past zlib-turbo's NMAXW (380366848) once, largest sums */
        n = 400000000;
        big = malloc(n);
        if (big == NULL)
            printf("skipped the 400 MB case (no memory)\n");
        else {
            memset(big, 0xff, n);
            check("400 MB 0xff adler32", n, 0, adler32_z(1, big, n),
                  ref_adler(1, big, n));
            check("400 MB 0xff adler32 start", n, 0,
                  adler32_z(0xffffffffUL, big, n),
                  ref_adler(0xffffffffUL, big, n));
            check("400 MB 0xff crc32", n, 0, crc32_z(0, big, n),
                  ref_crc(0, big, n));
            free(big);
        }
    }
    printf("zsum: %s: %llu cases checked, all match\n", zlibVersion(), cases);
    return 0;
}
