/* crc32_fold_consts.c -- derive the constants of crc32_simd.c from the
 * CRC-32 polynomial, and check them.
 *
 * Representation (zlib's, see crc32.c): a polynomial of degree < 32 is a
 * 32-bit word with the coefficient of x^0 in bit 31 and of x^31 in bit 0
 * ("reflected").  crc32_simd.c multiplies 64-bit reflected lanes by constants
 * held as reflected 33-bit values (bit j <-> x^(32-j)); a remainder r of
 * degree < 32 is held as r << 1 (bit 0, the x^32 place, is then zero).
 *
 * Printed:
 *   x^e mod P, as a 33-bit lane constant, for e = F + 32 and F - 32 to fold
 *   128 bits over F = 2048 (the 512-bit VPCLMULQDQ loop), 1536, 1024 (the
 *   256-bit VPCLMULQDQ loop), 256, 512, 128 bits, and
 *   e = 96, 64 (the last 128 -> 96 -> 64 bit steps);
 *   mu = floor(x^64 / P) and P itself as 33-bit reflected values (Barrett).
 * Each x^e mod P is computed twice -- by e multiplications by x, and by
 * squaring (x^(a+b) = x^a * x^b mod P) -- and mu is checked by
 * x^64 = mu * P + r with deg r < 32.  Exit status 1 if any check fails.
 * The output lines are "#define NAME VALUE" as they appear in crc32_simd.c
 * (make check compares them).
 */
#include <stdio.h>
#include <stdint.h>

#define POLY 0xedb88320UL       /* P without x^32, reflected */

/* a * x mod P, reflected */
static uint32_t mulx(uint32_t a) {
    return a & 1 ? (a >> 1) ^ POLY : a >> 1;
}

/* x^e mod P by e multiplications by x; x^0 is bit 31 */
static uint32_t xpow_slow(unsigned e) {
    uint32_t r = 0x80000000UL;
    while (e--)
        r = mulx(r);
    return r;
}

/* a * b mod P, reflected (shift-and-add) */
static uint32_t mulmod(uint32_t a, uint32_t b) {
    uint32_t m = 0x80000000UL, p = 0;
    for (;;) {
        if (a & m) {
            p ^= b;
            if ((a & (m - 1)) == 0)
                break;
        }
        m >>= 1;
        b = mulx(b);
    }
    return p;
}

/* x^e mod P by squaring */
static uint32_t xpow_fast(unsigned e) {
    uint32_t r = 0x80000000UL, sq = mulx(0x80000000UL);    /* x^1 */
    while (e) {
        if (e & 1)
            r = mulmod(r, sq);
        sq = mulmod(sq, sq);
        e >>= 1;
    }
    return r;
}

/* reflect the low n bits of v */
static uint64_t reflect(uint64_t v, int n) {
    uint64_t r = 0;
    int i;
    for (i = 0; i < n; i++)
        if (v >> i & 1)
            r |= (uint64_t)1 << (n - 1 - i);
    return r;
}

static int bad;

static void lane(const char *name, unsigned e) {
    uint32_t a = xpow_slow(e), b = xpow_fast(e);
    if (a != b) {
        fprintf(stderr, "x^%u mod P: %08lx by steps, %08lx by squaring\n", e,
                (unsigned long)a, (unsigned long)b);
        bad = 1;
    }
    printf("#define %s 0x%09llx /* x^%u mod P */\n", name,
           (unsigned long long)((uint64_t)a << 1), e);
}

int main(void) {
    /* P in the ordinary representation: bit d <-> x^d, with the x^32 term */
    uint64_t p = ((uint64_t)1 << 32) | reflect(POLY, 32);
    uint64_t q = 0, rem, chk;
    int d;

    lane("K_FOLD2048_LO", 16 * 128 + 32);
    lane("K_FOLD2048_HI", 16 * 128 - 32);
    lane("K_FOLD1536_LO", 12 * 128 + 32);
    lane("K_FOLD1536_HI", 12 * 128 - 32);
    lane("K_FOLD1024_LO", 8 * 128 + 32);
    lane("K_FOLD1024_HI", 8 * 128 - 32);
    lane("K_FOLD256_LO", 2 * 128 + 32);
    lane("K_FOLD256_HI", 2 * 128 - 32);
    lane("K_FOLD512_LO", 4 * 128 + 32);
    lane("K_FOLD512_HI", 4 * 128 - 32);
    lane("K_FOLD128_LO", 128 + 32);
    lane("K_FOLD128_HI", 128 - 32);
    lane("K_96", 96);
    lane("K_64", 64);

    /* mu = floor(x^64 / P) by long division, one coefficient of x^64 at a
       time from x^64 down to x^0 */
    rem = 0;                    /* the running remainder, degree < 33 */
    for (d = 64; d >= 0; d--) {
        rem = (rem << 1) | (d == 64);   /* bring down x^d's coefficient */
        q <<= 1;
        if (rem >> 32 & 1) {
            rem ^= p;
            q |= 1;
        }
    }
    /* check: x^64 == q * P + rem, deg rem < 32, deg q == 32 */
    {
        uint64_t lo = 0, hi = 0;        /* 128-bit product q * P */
        for (d = 0; d < 33; d++)
            if (q >> d & 1) {
                lo ^= p << d;
                hi ^= d ? p >> (64 - d) : 0;
            }
        lo ^= rem;
        chk = (hi == 1 && lo == 0 && rem >> 32 == 0 && q >> 32 == 1);
        if (!chk) {
            fprintf(stderr, "mu check failed\n");
            bad = 1;
        }
    }
    printf("#define K_MU 0x%09llx /* floor(x^64 / P) */\n",
           (unsigned long long)reflect(q, 33));
    printf("#define K_P 0x%09llx /* P */\n",
           (unsigned long long)reflect(p, 33));
    return bad;
}
