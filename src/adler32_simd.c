/* adler32_simd.c -- zlib-turbo: Adler-32 with AVX2, 32 bytes per step
 * Copyright (C) 2026 zlib-turbo authors
 * For conditions of distribution and use, see copyright notice in zlib.h
 */

/*
   Built only with Z_TURBO_SIMD or Z_TURBO_SIMD_AUTO on x86 (see zsimd.h).

   For 32 bytes b0..b31 (memory order), Adler-32 adds b0 + ... + b31 to
   adler and 32 adler + 32 b0 + 31 b1 + ... + 1 b31 to sum2, adler being its
   value before them.  Over n such blocks, from adler = a and sum2 = s:

       a' = a + B,   s' = s + 32 (n a + A) + Wt

   where B is the sum of all the bytes, A the sum over the blocks of the
   bytes of the blocks before each one, and Wt the sum of the weighted sums
   32 b0 + ... + 1 b31.  Per 32-byte step, in ymm registers:
   - vpsadbw against zero: four 64-bit sums of 8 bytes each, added into vs1
     (four 64-bit lanes), after vs1 is added into vps (so vps sums vs1 as it
     was before each step: four lanes of A);
   - vpmaddubsw with the weights 32..1: sixteen 16-bit sums of two weighted
     bytes (at most 255 (32 + 31) = 16065, no saturation), then vpmaddwd
     with ones: eight 32-bit sums of four (at most 255 (32+31+30+29) =
     31110), added into vs2 (eight 32-bit lanes).
   After a run of n steps the lanes are added up in 64-bit integers, a and s
   updated as above and reduced modulo 65521.

   Bounds, i.e. how rarely the modulo is needed: a vs2 lane reaches at most
   31110 n, so n <= 138055 steps keep it within 32 bits; vs1 and vps lanes
   are 64-bit (at most 2040 n and 2040 n (n - 1) / 2); with a and s below
   65536 at the start, s' < 2^16 + 32 (2^16 n + 4 * 1020 n^2) + 8 * 31110 n,
   far below 2^64.  So a run is BLOCK = 131072 steps (4 MiB) and the modulo
   is taken once per 4 MiB, instead of zlib's once per NMAX = 5552 bytes.

   Why the result is identical: the same integer sums as zlib's, exact (no
   lane overflows, by the bounds above), reduced modulo 65521 at other
   points; adler32.c calls this only where zlib reduces fully (len >= 16),
   and the result here is fully reduced too.  The last len % 32 bytes are
   added one at a time, as zlib does.

   Trade-offs: unaligned loads (no alignment prologue); one step of 32 bytes
   with two independent chains (vs1 and vps) and a vs2 chain of one add each,
   so the loop is bound by its instruction count, not by latency.
 */

#include "zutil.h"
#include "zsimd.h"

#ifdef ZSIMD_ADLER32

#include <immintrin.h>

#define BASE 65521U             /* as in adler32.c */
#define BLOCK 131072            /* steps of 32 bytes between reductions */

typedef unsigned long long z_sum64;

/* the sum of the 64-bit lanes of v, and of the 32-bit lanes of w */
ZSIMD_TARGET_ADLER32
local z_sum64 lanes64(__m256i v) {
    z_sum64 t[4];
    _mm256_storeu_si256((__m256i *)t, v);
    return t[0] + t[1] + t[2] + t[3];
}

ZSIMD_TARGET_ADLER32
local z_sum64 lanes32(__m256i w) {
    __m256i lo = _mm256_and_si256(w, _mm256_set1_epi64x(0xffffffff));
    return lanes64(_mm256_add_epi64(lo, _mm256_srli_epi64(w, 32)));
}

ZSIMD_TARGET_ADLER32
uLong ZLIB_INTERNAL adler32_avx2(uLong adler, uLong sum2, const Bytef *buf,
                                 z_size_t len) {
    const __m256i weights = _mm256_set_epi8(
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
        17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32);
    const __m256i ones = _mm256_set1_epi16(1);
    const __m256i zero = _mm256_setzero_si256();
    z_sum64 a = adler, s = sum2;

    while (len >= 32) {
        z_size_t n = len >> 5, k;
        __m256i vs1 = zero, vps = zero, vs2 = zero;

        if (n > BLOCK)
            n = BLOCK;
        len -= n << 5;
        for (k = n; k; k--) {
            __m256i v = _mm256_loadu_si256((const __m256i *)buf);
            vps = _mm256_add_epi64(vps, vs1);
            vs1 = _mm256_add_epi64(vs1, _mm256_sad_epu8(v, zero));
            vs2 = _mm256_add_epi32(vs2, _mm256_madd_epi16(
                      _mm256_maddubs_epi16(v, weights), ones));
            buf += 32;
        }
        s += ((n * a + lanes64(vps)) << 5) + lanes32(vs2);
        a += lanes64(vs1);
        a %= BASE;
        s %= BASE;
    }
    while (len--) {
        a += *buf++;
        s += a;
    }
    a %= BASE;
    s %= BASE;
    return (uLong)(a | (s << 16));
}

#else /* !ZSIMD_ADLER32 */

typedef int adler32_simd_not_built;     /* ISO C: no empty file */

#endif
