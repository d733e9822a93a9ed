/* zsimd.c -- zlib-turbo: ask the CPU, once, which SIMD checksums it can run
 * Copyright (C) 2026 zlib-turbo authors
 * For conditions of distribution and use, see copyright notice in zlib.h
 */

/*
   Built into the code only with Z_TURBO_SIMD_AUTO (configure --simd=auto),
   and with Z_TURBO_SIMD (configure --simd) for the VPCLMULQDQ loops that the
   build's flags do not target (there the rest is always used); see zsimd.h.
   zsimd_detect() asks cpuid for

   - PCLMULQDQ (leaf 1, ecx bit 1) and SSE4.1 (leaf 1, ecx bit 19): CRC-32 by
     carry-less multiplication, crc32_simd.c;
   - AVX2 (leaf 7, ebx bit 5), and that the operating system saves and
     restores the ymm registers: OSXSAVE (leaf 1, ecx bit 27), AVX (leaf 1,
     ecx bit 28), and XCR0 bits 1 and 2 (SSE and AVX state) set, read with
     xgetbv: Adler-32 with AVX2, adler32_simd.c;
   - VPCLMULQDQ (leaf 7, ecx bit 10) with all of the above: CRC-32 folding
     with 256-bit carry-less multiplications, crc32_simd.c;
   - AVX-512F (leaf 7, ebx bit 16) with all of the above, and that the OS
     saves and restores the zmm registers and the mask registers: XCR0 bits
     5 (opmask), 6 (upper halves of zmm0-15) and 7 (zmm16-31): CRC-32
     folding with 512-bit carry-less multiplications, crc32_simd.c;

   and stores the answer in zsimd_cpu, with ZSIMD_CPU_KNOWN set so that it is
   never 0 afterwards.

   Threads: zsimd_cpu is read without a lock (ZSIMD_CPU() in zsimd.h), and
   several threads may run zsimd_detect() at the same time at first.  This is
   safe because every run computes the same value from the same CPU and
   stores it with one aligned int store, which x86 never tears: a reader sees
   either 0, and runs the detection itself, or that final value.  The value
   never changes once set, so reading it twice cannot see two different
   nonzero values either.  (zlib's z_once() would serialize the first calls,
   at the cost of an atomic test on every call; nothing here needs it.)

   Test builds (-DZ_TURBO_SIMD_TEST, never a library build) also read the
   environment variable ZLIB_TURBO_SIMD_MASK, a number ANDed with the bits
   found (e.g. 0 forces the portable code, 6 the 128-bit CRC-32 code and AVX2
   Adler-32, 14 the 256-bit CRC-32 loop at most, 30 the 512-bit one), so
   that turbo/tests/zsum.sh can check both sides of every choice.
 */

#include "zutil.h"
#include "zsimd.h"

#ifdef ZSIMD_DISPATCH

#include <cpuid.h>
#ifdef Z_TURBO_SIMD_TEST
#  include <stdlib.h>
#endif

int ZLIB_INTERNAL zsimd_cpu = 0;

/* XCR0, the register of the state components the OS saves (xgetbv, ecx 0);
   only called when cpuid says OSXSAVE */
local unsigned xcr0(void) {
    unsigned eax, edx;
    __asm__ __volatile__(".byte 0x0f, 0x01, 0xd0"     /* xgetbv */
                         : "=a"(eax), "=d"(edx) : "c"(0));
    return eax;
}

int ZLIB_INTERNAL zsimd_detect(void) {
    unsigned eax, ebx, ecx, edx, max, xsaved;
    int found = ZSIMD_CPU_KNOWN;

    max = __get_cpuid_max(0, 0);        /* 0 if there is no cpuid (i386) */
    if (max >= 1) {
        __cpuid(1, eax, ebx, ecx, edx);
        if ((ecx & (1U << 1)) && (ecx & (1U << 19)))
            found |= ZSIMD_CPU_CRC32;
        if (max >= 7 && (ecx & (1U << 27)) && (ecx & (1U << 28)) &&
            ((xsaved = xcr0()) & 6) == 6) {
            __cpuid_count(7, 0, eax, ebx, ecx, edx);
            if (ebx & (1U << 5)) {
                found |= ZSIMD_CPU_ADLER32;
                if ((ecx & (1U << 10)) && (found & ZSIMD_CPU_CRC32)) {
                    found |= ZSIMD_CPU_CRC32V;
                    if ((ebx & (1U << 16)) && (xsaved & 0xe0) == 0xe0)
                        found |= ZSIMD_CPU_CRC32Z;
                }
            }
        }
    }
#ifdef Z_TURBO_SIMD_TEST
    {
        const char *mask = getenv("ZLIB_TURBO_SIMD_MASK");
        if (mask != NULL)
            found &= (int)strtol(mask, NULL, 0) | ZSIMD_CPU_KNOWN;
    }
#endif
    zsimd_cpu = found;
    return found;
}

#else /* !ZSIMD_DISPATCH */

typedef int zsimd_dispatch_not_built;   /* ISO C: no empty file */

#endif
