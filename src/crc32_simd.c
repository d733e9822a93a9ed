/* crc32_simd.c -- zlib-turbo: CRC-32 by carry-less multiplication (PCLMULQDQ)
 * Copyright (C) 2026 zlib-turbo authors
 * For conditions of distribution and use, see copyright notice in zlib.h
 */

/*
   Built only with Z_TURBO_SIMD or Z_TURBO_SIMD_AUTO on x86 (see zsimd.h).

   The math.  As in crc32.c, a message is a polynomial over GF(2) whose first
   bit (bit 0 of its first byte) has the highest power, P is the CRC-32
   polynomial of degree 32, and the CRC register after a message M is
   M x^32 mod P (pre- and post-conditioning aside).  Sixteen bytes loaded
   little-endian into an xmm register are then a "reflected" polynomial of
   degree < 128: bit k of the register is the coefficient of x^(127-k).  A
   register c of the CRC continuing into a message of n more bits is the
   same as a zero register and c exclusive-ored into the first 32 bits of
   those n: (c x^n + M' x^32) mod P = (c x^(n-32) + M') x^32 mod P.

   PCLMULQDQ multiplies two 64-bit lanes without carries.  For reflected
   operands a (bit i <-> x^(63-i)) and b (bit j <-> x^(32-j), a 33-bit
   constant), product bit k is the sum over i + j = k, the coefficient of
   x^(95-k): the product of the polynomials, as a reflected value of 96 bits.
   So the constants are held as 33-bit reflected values, (x^e mod P) << 1
   in zlib's 32-bit reflected form.

   Folding.  Let X be 128 bits of the message that are followed, F bits
   after X's end, by 128 bits Y still to come.  Only X x^F + Y matters modulo
   P.  With X = L x^64 + H (L: bytes 0..7, H: bytes 8..15),

       X x^F = L x^(F+64) + H x^F == L (x^(F+32) mod P) x^32 + H (x^(F-32) mod P) x^32

   and each product L K, H K' is < 96 bits, which as the top 96 bits of a
   128-bit reflected register is exactly the "x^32" above.  So
   clmul(L, K) ^ clmul(H, K') ^ Y is 128 bits with the same CRC as X
   followed by the F bits: X has been folded into Y.  Four registers fold
   over F = 512 (64 bytes per step, four independent chains to hide the
   multiplier's latency); at the end they fold into one with F = 128, and
   16-byte blocks left over fold the same way.

   The end.  The last register V = L x^64 + H needs V x^32 mod P:
   - V x^32 = L x^96 + H x^32 == L (x^96 mod P) + H x^32: a product of < 96
     bits, H lands on its top 64 bits (bits 0..63): S, of degree < 96;
   - S = T x^64 + U (T: bits 0..31, U: bits 32..95) == T (x^64 mod P) + U:
     W, of degree < 64 (a product of a 32-bit and a 33-bit lane is reflected
     on 64 bits, bit k <-> x^(63-k));
   - W mod P by Barrett reduction: with mu = floor(x^64 / P), the quotient
     is q = floor(floor(W / x^32) mu / x^32), and W mod P = (W + q P) mod x^32.
     floor(W / x^32) is W's bits 0..31; the product by mu (33 bits) is
     reflected on 64 bits, q is its bits 0..31, and (W ^ q P) mod x^32 is
     bits 32..63 of W ^ clmul(q, P): the new CRC register, zlib's form.
   The constants come from turbo/tests/crc32_fold_consts.c, which derives
   them from P two ways and checks mu; make check compares its output with
   the lines below.

   Why the result is identical: the same polynomial remainder, computed
   exactly (carry-less products are exact; every reduction step replaces a
   term by one congruent modulo P).  crc32.c uses this for inputs of
   CRC32_SIMD_MIN bytes or more, up to a multiple of 16, and its table code
   for the rest (fewer than 16 bytes), starting from the register returned.

   With AVX-512F and VPCLMULQDQ, crc32_vpclmul512() folds sixteen blocks in
   four zmm registers over F = 2048 (256 bytes per step).  The loops are
   bound by the multiplier's throughput (about the same number of
   VPCLMULQDQs per second at 128, 256 and 512 bits on Zen 5), not by its
   latency: eight ymm accumulators instead of four (F = 2048 too) measured
   no faster than four, so the 256-bit loop keeps four.

   Trade-offs: unaligned loads (as fast as aligned ones on the CPUs that have
   PCLMULQDQ with AVX2), no alignment prologue; the last len % 16 bytes go to
   the tables instead of a shifted, overlapping final block, which keeps this
   simple at a cost of up to 15 table steps per call.
 */

#include "zutil.h"
#include "zsimd.h"

#ifdef ZSIMD_CRC32

#include <immintrin.h>

#define K_FOLD2048_LO 0x11542778a /* x^2080 mod P */
#define K_FOLD2048_HI 0x1322d1430 /* x^2016 mod P */
#define K_FOLD1536_LO 0x1821d8bc0 /* x^1568 mod P */
#define K_FOLD1536_HI 0x12e958ac4 /* x^1504 mod P */
#define K_FOLD1024_LO 0x1e88ef372 /* x^1056 mod P */
#define K_FOLD1024_HI 0x14a7fe880 /* x^992 mod P */
#define K_FOLD256_LO 0x0f1da05aa /* x^288 mod P */
#define K_FOLD256_HI 0x15a546366 /* x^224 mod P */
#define K_FOLD512_LO 0x154442bd4 /* x^544 mod P */
#define K_FOLD512_HI 0x1c6e41596 /* x^480 mod P */
#define K_FOLD128_LO 0x1751997d0 /* x^160 mod P */
#define K_FOLD128_HI 0x0ccaa009e /* x^96 mod P */
#define K_96 0x0ccaa009e /* x^96 mod P */
#define K_64 0x163cd6124 /* x^64 mod P */
#define K_MU 0x1f7011641 /* floor(x^64 / P) */
#define K_P 0x1db710641 /* P */

/* constant pair: lane 0 (multiplies bytes 0..7), lane 1 (bytes 8..15) */
#define KPAIR(lo, hi) _mm_set_epi64x((long long)(hi), (long long)(lo))

/* x folded over F bits, for k = KPAIR(x^(F+32) mod P, x^(F-32) mod P) */
ZSIMD_TARGET_CRC32
local __m128i fold(__m128i x, __m128i k) {
    return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
                         _mm_clmulepi64_si128(x, k, 0x11));
}

#define LOAD(p) _mm_loadu_si128((const __m128i *)(p))

ZSIMD_TARGET_CRC32
local unsigned crc32_end(__m128i x0, const unsigned char *buf, z_size_t len);

ZSIMD_TARGET_CRC32
unsigned ZLIB_INTERNAL crc32_pclmul(unsigned crc, const unsigned char *buf,
                                    z_size_t len) {
    __m128i x0, x1, x2, x3, k;

    x0 = _mm_xor_si128(LOAD(buf), _mm_cvtsi32_si128((int)crc));
    buf += 16;
    len -= 16;
    if (len >= 48) {
        x1 = LOAD(buf);
        x2 = LOAD(buf + 16);
        x3 = LOAD(buf + 32);
        buf += 48;
        len -= 48;
        k = KPAIR(K_FOLD512_LO, K_FOLD512_HI);
        while (len >= 64) {
            x0 = _mm_xor_si128(fold(x0, k), LOAD(buf));
            x1 = _mm_xor_si128(fold(x1, k), LOAD(buf + 16));
            x2 = _mm_xor_si128(fold(x2, k), LOAD(buf + 32));
            x3 = _mm_xor_si128(fold(x3, k), LOAD(buf + 48));
            buf += 64;
            len -= 64;
        }
        k = KPAIR(K_FOLD128_LO, K_FOLD128_HI);
        x0 = _mm_xor_si128(fold(x0, k), x1);
        x0 = _mm_xor_si128(fold(x0, k), x2);
        x0 = _mm_xor_si128(fold(x0, k), x3);
    }
    return crc32_end(x0, buf, len);
}

/* fold the 16-byte blocks of buf[0..len-1] into x0, then reduce */
ZSIMD_TARGET_CRC32
local unsigned crc32_end(__m128i x0, const unsigned char *buf, z_size_t len) {
    __m128i x1, k, lo32;

    k = KPAIR(K_FOLD128_LO, K_FOLD128_HI);
    while (len >= 16) {
        x0 = _mm_xor_si128(fold(x0, k), LOAD(buf));
        buf += 16;
        len -= 16;
    }

    /* V x^32 == L (x^96 mod P) + H x^32: S in bits 0..95 */
    k = KPAIR(K_96, K_64);
    x0 = _mm_xor_si128(_mm_clmulepi64_si128(x0, k, 0x00),
                       _mm_srli_si128(x0, 8));
    /* S == T (x^64 mod P) + U: W in bits 0..63 */
    lo32 = _mm_set_epi32(0, 0, 0, -1);
    x0 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x0, lo32), k, 0x10),
                       _mm_srli_si128(x0, 4));
    /* Barrett: q = bits 0..31 of floor(W / x^32) * mu; CRC = bits 32..63 of
       W ^ q P */
    k = KPAIR(K_MU, K_P);
    x1 = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x0, lo32), k, 0x00),
                       lo32);
    x0 = _mm_xor_si128(x0, _mm_clmulepi64_si128(x1, k, 0x10));
    return (unsigned)_mm_extract_epi32(x0, 1);
}

#ifdef ZSIMD_CRC32V

/* the same fold, on two 128-bit blocks at once */
ZSIMD_TARGET_CRC32V
local __m256i vfold(__m256i y, __m256i k) {
    return _mm256_xor_si256(_mm256_clmulepi64_epi128(y, k, 0x00),
                            _mm256_clmulepi64_epi128(y, k, 0x11));
}

#define VLOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define VKPAIR(lo, hi) _mm256_set_epi64x((long long)(hi), (long long)(lo), \
                                         (long long)(hi), (long long)(lo))

/* crc32_pclmul()'s loop with VPCLMULQDQ, for len >= 128 (a multiple of 16): eight 128-bit
   blocks in four ymm registers fold over F = 1024 bits (128 bytes per step;
   the multiplier takes one instruction per two blocks instead of one per
   block, which is what bounds the 128-bit loop), then fold into one:
   registers 64 bytes apart over F = 512, 32 bytes apart over F = 256, and
   the two halves over F = 128. */
ZSIMD_TARGET_CRC32V
unsigned ZLIB_INTERNAL crc32_vpclmul(unsigned crc, const unsigned char *buf,
                                     z_size_t len) {
    __m256i y0, y1, y2, y3, k;
    __m128i x0;

    y0 = _mm256_xor_si256(VLOAD(buf),
                          _mm256_set_epi32(0, 0, 0, 0, 0, 0, 0, (int)crc));
    y1 = VLOAD(buf + 32);
    y2 = VLOAD(buf + 64);
    y3 = VLOAD(buf + 96);
    buf += 128;
    len -= 128;
    k = VKPAIR(K_FOLD1024_LO, K_FOLD1024_HI);
    while (len >= 128) {
        y0 = _mm256_xor_si256(vfold(y0, k), VLOAD(buf));
        y1 = _mm256_xor_si256(vfold(y1, k), VLOAD(buf + 32));
        y2 = _mm256_xor_si256(vfold(y2, k), VLOAD(buf + 64));
        y3 = _mm256_xor_si256(vfold(y3, k), VLOAD(buf + 96));
        buf += 128;
        len -= 128;
    }
    k = VKPAIR(K_FOLD512_LO, K_FOLD512_HI);
    y0 = _mm256_xor_si256(vfold(y0, k), y2);
    y1 = _mm256_xor_si256(vfold(y1, k), y3);
    k = VKPAIR(K_FOLD256_LO, K_FOLD256_HI);
    y0 = _mm256_xor_si256(vfold(y0, k), y1);
    x0 = _mm_xor_si128(fold(_mm256_castsi256_si128(y0),
                            KPAIR(K_FOLD128_LO, K_FOLD128_HI)),
                       _mm256_extracti128_si256(y0, 1));
    return crc32_end(x0, buf, len);
}

#endif /* ZSIMD_CRC32V */

#ifdef ZSIMD_CRC32Z

/* the same fold, on four 128-bit blocks at once; vpternlogq with table 0x96
   is the exclusive-or of its three operands */
#define ZXOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define ZFOLD(z, k, next) ZXOR3(_mm512_clmulepi64_epi128(z, k, 0x00), \
                                _mm512_clmulepi64_epi128(z, k, 0x11), next)
#define ZLOAD(p) _mm512_loadu_si512((const void *)(p))
#define ZKPAIR(lo, hi) _mm512_set_epi64((long long)(hi), (long long)(lo), \
                                        (long long)(hi), (long long)(lo), \
                                        (long long)(hi), (long long)(lo), \
                                        (long long)(hi), (long long)(lo))

/* crc32_pclmul()'s loop with 512-bit VPCLMULQDQ (AVX-512F), for len >= 256
   (a multiple of 16): sixteen 128-bit blocks in four zmm registers fold over
   F = 2048 bits (256 bytes per step, four independent chains); the four then
   fold into one at once, over F = 1536, 1024 and 512 bits (registers 192,
   128 and 64 bytes before the last); 64-byte blocks left over fold into it
   over F = 512, its two halves into one ymm over F = 256, a 32-byte block
   left over into that, and the ymm into one xmm over F = 128. */
ZSIMD_TARGET_CRC32Z
unsigned ZLIB_INTERNAL crc32_vpclmul512(unsigned crc,
                                        const unsigned char *buf,
                                        z_size_t len) {
    __m512i z0, z1, z2, z3, k;
    __m256i y0, ky;
    __m128i x0;

    z0 = _mm512_xor_si512(ZLOAD(buf), _mm512_set_epi32(
             0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (int)crc));
    z1 = ZLOAD(buf + 64);
    z2 = ZLOAD(buf + 128);
    z3 = ZLOAD(buf + 192);
    buf += 256;
    len -= 256;
    k = ZKPAIR(K_FOLD2048_LO, K_FOLD2048_HI);
    while (len >= 256) {
        z0 = ZFOLD(z0, k, ZLOAD(buf));
        z1 = ZFOLD(z1, k, ZLOAD(buf + 64));
        z2 = ZFOLD(z2, k, ZLOAD(buf + 128));
        z3 = ZFOLD(z3, k, ZLOAD(buf + 192));
        buf += 256;
        len -= 256;
    }
    z0 = ZFOLD(z0, ZKPAIR(K_FOLD1536_LO, K_FOLD1536_HI), z3);
    z1 = ZFOLD(z1, ZKPAIR(K_FOLD1024_LO, K_FOLD1024_HI), z0);
    k = ZKPAIR(K_FOLD512_LO, K_FOLD512_HI);
    z0 = ZFOLD(z2, k, z1);
    while (len >= 64) {
        z0 = ZFOLD(z0, k, ZLOAD(buf));
        buf += 64;
        len -= 64;
    }
    ky = VKPAIR(K_FOLD256_LO, K_FOLD256_HI);
    y0 = _mm256_xor_si256(vfold(_mm512_castsi512_si256(z0), ky),
                          _mm512_extracti64x4_epi64(z0, 1));
    if (len >= 32) {
        y0 = _mm256_xor_si256(vfold(y0, ky), VLOAD(buf));
        buf += 32;
        len -= 32;
    }
    x0 = _mm_xor_si128(fold(_mm256_castsi256_si128(y0),
                            KPAIR(K_FOLD128_LO, K_FOLD128_HI)),
                       _mm256_extracti128_si256(y0, 1));
    return crc32_end(x0, buf, len);
}

#endif /* ZSIMD_CRC32Z */

/* the entry point for crc32.c; ZSIMD_HAVE_CRC32() has been checked */
unsigned ZLIB_INTERNAL crc32_simd(unsigned crc, const unsigned char *buf,
                                  z_size_t len) {
#ifdef ZSIMD_CRC32Z
    if (len >= CRC32_SIMDZ_MIN && ZSIMD_HAVE_CRC32Z())
        return crc32_vpclmul512(crc, buf, len);
#endif
#ifdef ZSIMD_CRC32V
    if (len >= CRC32_SIMDV_MIN && ZSIMD_HAVE_CRC32V())
        return crc32_vpclmul(crc, buf, len);
#endif
    return crc32_pclmul(crc, buf, len);
}

#else /* !ZSIMD_CRC32 */

typedef int crc32_simd_not_built;       /* ISO C: no empty file */

#endif
