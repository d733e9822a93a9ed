/* fuzz_checksum.c -- differential libFuzzer target for the checksums.
 *
 * Pristine zlib 1.3.2 (zapi_ref) and zlib-turbo (zapi_tur), renamed by
 * turbo/harness/mkzobj.sh and linked into one program, compute the same
 * checksums; any difference abort()s.
 *
 * Input layout: bytes 0-3 the initial Adler-32, 4-7 the initial CRC-32 (any
 * 32-bit values: zlib takes what it is given, valid or not), byte 8 the
 * slicing (bits 0-1 a size class: 1..8, 1..64, 1..4096 bytes or
 * everything; the rest seed the sizes), byte 9 the offset of the data from
 * its buffer's alignment (0..63); the rest is the data.  The data is
 * checksummed in slices with adler32(), adler32_z(), crc32() and crc32_z()
 * (each slice by one of the two, alternating, the value carried), and each
 * pair of consecutive slices is joined with adler32_combine(),
 * crc32_combine(), crc32_combine_gen() + crc32_combine_op(); also lengths
 * 0 and NULL buffers (zlib answers 1 and 0).  get_crc_table() must give
 * the same 256 words.
 *
 * Built and run by turbo/tests/fuzz/run.sh checksum (clang -fsanitize=fuzzer
 * plus ASan and UBSan).  No input has found a difference in it yet, so it
 * has no regression input; one would be regressions/checksum-NAME.bin,
 * replayed by run.sh and by make check's fuzz-replay step.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zapi.h"

#define CHECK(c, what) do { if (!(c)) { \
    fprintf(stderr, "fuzz_checksum: difference: %s (line %d)\n", what, \
            __LINE__); abort(); } } while (0)

static uint32_t rs;

/* next pseudo-random number of the slicing */
static uint32_t rnd(void) {
    rs = rs * 1103515245u + 12345u;
    return rs >> 8;
}

/* a slice length for size class c */
static size_t slice(unsigned c) {
    switch (c & 3) {
    case 0: return 1 + rnd() % 8;
    case 1: return 1 + rnd() % 64;
    case 2: return 1 + rnd() % 4096;
    default: return (size_t)-1;
    }
}

static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static unsigned char buf[(1u << 20) + 64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uLong a0, c0, ar, at, cr, ct, pa_r, pa_t, pc_r, pc_t, sa, sc, op_r, op_t;
    const unsigned char *p;
    size_t n, pos, k;
    unsigned cls, i;
    const z_crc_t *tr, *tt;

    if (size < 10)
        return 0;
    a0 = get32(data);
    c0 = get32(data + 4);
    cls = data[8];
    rs = data[8] >> 2;
    n = size - 10;
    if (n > sizeof buf - 64)
        n = sizeof buf - 64;
    memcpy(buf + data[9] % 64, data + 10, n);
    p = buf + data[9] % 64;

    CHECK(zapi_ref.adler32(a0, NULL, 0) == zapi_tur.adler32(a0, NULL, 0), "adler32 NULL");
    CHECK(zapi_ref.crc32(c0, NULL, 0) == zapi_tur.crc32(c0, NULL, 0), "crc32 NULL");
    CHECK(zapi_ref.adler32_z(a0, p, 0) == zapi_tur.adler32_z(a0, p, 0), "adler32_z 0");
    CHECK(zapi_ref.crc32_z(c0, p, 0) == zapi_tur.crc32_z(c0, p, 0), "crc32_z 0");

    /* the whole buffer at once, then in slices carrying the value */
    CHECK(zapi_ref.adler32_z(a0, p, n) == zapi_tur.adler32_z(a0, p, n), "adler32_z all");
    CHECK(zapi_ref.crc32_z(c0, p, n) == zapi_tur.crc32_z(c0, p, n), "crc32_z all");
    ar = at = a0;
    cr = ct = c0;
    pa_r = pa_t = pc_r = pc_t = 0;
    for (pos = 0, i = 0; pos < n; pos += k, i++) {
        k = slice(cls);
        if (k > n - pos)
            k = n - pos;
        if (i & 1) {
            ar = zapi_ref.adler32(ar, p + pos, (uInt)k);
            at = zapi_tur.adler32(at, p + pos, (uInt)k);
            cr = zapi_ref.crc32(cr, p + pos, (uInt)k);
            ct = zapi_tur.crc32(ct, p + pos, (uInt)k);
        } else {
            ar = zapi_ref.adler32_z(ar, p + pos, k);
            at = zapi_tur.adler32_z(at, p + pos, k);
            cr = zapi_ref.crc32_z(cr, p + pos, k);
            ct = zapi_tur.crc32_z(ct, p + pos, k);
        }
        CHECK(ar == at, "adler32 slices");
        CHECK(cr == ct, "crc32 slices");

        /* this slice alone, joined to the one before */
        sa = zapi_ref.adler32_z(1, p + pos, k);
        CHECK(sa == zapi_tur.adler32_z(1, p + pos, k), "adler32 slice");
        sc = zapi_ref.crc32_z(0, p + pos, k);
        CHECK(sc == zapi_tur.crc32_z(0, p + pos, k), "crc32 slice");
        if (i > 0) {
            CHECK(zapi_ref.adler32_combine(pa_r, sa, (z_off_t)k) ==
                  zapi_tur.adler32_combine(pa_t, sa, (z_off_t)k), "adler32_combine");
            CHECK(zapi_ref.crc32_combine(pc_r, sc, (z_off_t)k) ==
                  zapi_tur.crc32_combine(pc_t, sc, (z_off_t)k), "crc32_combine");
            op_r = zapi_ref.crc32_combine_gen((z_off_t)k);
            op_t = zapi_tur.crc32_combine_gen((z_off_t)k);
            CHECK(op_r == op_t, "crc32_combine_gen");
            CHECK(zapi_ref.crc32_combine_op(pc_r, sc, op_r) ==
                  zapi_tur.crc32_combine_op(pc_t, sc, op_t), "crc32_combine_op");
        }
        pa_r = sa;
        pa_t = sa;
        pc_r = sc;
        pc_t = sc;
    }

    /* combine with lengths from the data itself, also huge and negative */
    if (n >= 8) {
        z_off_t len2 = (z_off_t)(int64_t)((uint64_t)get32(p) << 32 | get32(p + 4));
        CHECK(zapi_ref.adler32_combine(a0, c0, len2) ==
              zapi_tur.adler32_combine(a0, c0, len2), "adler32_combine len");
        CHECK(zapi_ref.crc32_combine(a0, c0, len2) ==
              zapi_tur.crc32_combine(a0, c0, len2), "crc32_combine len");
        CHECK(zapi_ref.crc32_combine_gen(len2) == zapi_tur.crc32_combine_gen(len2),
              "crc32_combine_gen len");
    }

    tr = zapi_ref.get_crc_table();
    tt = zapi_tur.get_crc_table();
    CHECK(memcmp(tr, tt, 256 * sizeof(z_crc_t)) == 0, "get_crc_table");
    return 0;
}
