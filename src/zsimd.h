/* zsimd.h -- zlib-turbo's optional SIMD checksums: which are built, how they
 * are chosen, and their entry points
 * Copyright (C) 2026 zlib-turbo authors
 * For conditions of distribution and use, see copyright notice in zlib.h
 */

/*
   zlib-turbo can compute CRC-32 with carry-less multiplication (PCLMULQDQ,
   crc32_simd.c) and Adler-32 with AVX2 (adler32_simd.c), on x86 and x86-64
   with gcc or clang.  Nothing of this is built unless asked for:

   -DZ_TURBO_SIMD (configure --simd, CMake -DZLIB_TURBO_SIMD=ON), with
       -mpclmul -msse4.1 -mavx2: the SIMD code is always used.  The library
       then needs a CPU with PCLMULQDQ, SSE4.1 and AVX2.  Long CRC-32s use
       the wider VPCLMULQDQ loops (256-bit, and 512-bit with AVX-512F) where
       the CPU has them: asked once, as with --simd=auto below (zsimd.c), on
       top of that baseline.  With -mvpclmulqdq as well (or -march=native on
       such a CPU) the 256-bit loop is always used, and the CPU needs it;
       with -mavx512f -mvpclmulqdq the 512-bit loop likewise.

   -DZ_TURBO_SIMD_AUTO (configure --simd=auto, CMake -DZLIB_TURBO_SIMD=AUTO):
       the SIMD functions are compiled for their instruction sets with
       function attributes, the rest of the library for the baseline, and
       the CPU is asked once, at the first long enough checksum, which of them
       it can run (zsimd.c), VPCLMULQDQ on ymm and on zmm registers
       included.  For binaries that must run on any x86 CPU.

   With -DZ_TURBO_SIMD, inflate also copies matches with 32-byte AVX2 loads
   and stores (ZSIMD_COPY32, used by inffast.c); the results are the same.

   On other targets, or with neither macro, this header defines nothing and
   the portable code is used.  crc32.c and adler32.c use only the macros
   below: ZSIMD_CRC32 / ZSIMD_ADLER32 say that the code is there, and
   ZSIMD_HAVE_CRC32() / ZSIMD_HAVE_ADLER32() whether this CPU may run it.
 */

#ifndef ZSIMD_H
#define ZSIMD_H

#if (defined(__x86_64__) || defined(__i386__)) && \
    (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 5))
   /* whether the compiler builds the VPCLMULQDQ loops by attributes */
#  if defined(__clang__) ? __clang_major__ >= 6 : __GNUC__ >= 8
#    define ZSIMD_ATTRIBUTES 1
#  else
#    define ZSIMD_ATTRIBUTES 0
#  endif
#  define ZSIMD_ATTR_CRC32V \
       __attribute__((target("vpclmulqdq,avx2,pclmul,sse4.1")))
#  define ZSIMD_ATTR_CRC32Z \
       __attribute__((target("vpclmulqdq,avx512f,avx2,pclmul,sse4.1")))
#  if defined(Z_TURBO_SIMD)
#    if !defined(__PCLMUL__) || !defined(__SSE4_1__) || !defined(__AVX2__)
#      error "Z_TURBO_SIMD needs -mpclmul -msse4.1 -mavx2 (configure --simd)"
#    endif
#    define ZSIMD_CRC32
#    define ZSIMD_ADLER32
#    define ZSIMD_TARGET_CRC32      /* the whole build targets them */
#    define ZSIMD_TARGET_ADLER32
#    define ZSIMD_HAVE_CRC32() 1
#    define ZSIMD_HAVE_ADLER32() 1
     /* inflate copies matches 32 bytes at a time (inffast.c), only where
        the whole build targets AVX2: --simd=auto leaves inflate portable */
#    define ZSIMD_COPY32
     /* the wider CRC-32 loops: always, where the build targets them, else
        chosen at run time where the compiler can build them (the same
        attributes and detection as --simd=auto) */
#    ifdef __VPCLMULQDQ__            /* e.g. -mvpclmulqdq, -march=native */
#      define ZSIMD_CRC32V
#      define ZSIMD_TARGET_CRC32V
#      define ZSIMD_HAVE_CRC32V() 1
#    elif ZSIMD_ATTRIBUTES
#      define ZSIMD_DISPATCH
#      define ZSIMD_CRC32V
#      define ZSIMD_TARGET_CRC32V ZSIMD_ATTR_CRC32V
#      define ZSIMD_HAVE_CRC32V() (ZSIMD_CPU() & ZSIMD_CPU_CRC32V)
#    endif
#    if defined(__VPCLMULQDQ__) && defined(__AVX512F__)
       /* -mavx512f -mvpclmulqdq, or -march=native on such a CPU */
#      define ZSIMD_CRC32Z
#      define ZSIMD_TARGET_CRC32Z
#      define ZSIMD_HAVE_CRC32Z() 1
#    elif ZSIMD_ATTRIBUTES
#      ifndef ZSIMD_DISPATCH
#        define ZSIMD_DISPATCH
#      endif
#      define ZSIMD_CRC32Z
#      define ZSIMD_TARGET_CRC32Z ZSIMD_ATTR_CRC32Z
#      define ZSIMD_HAVE_CRC32Z() (ZSIMD_CPU() & ZSIMD_CPU_CRC32Z)
#    endif
#  elif defined(Z_TURBO_SIMD_AUTO)
#    define ZSIMD_CRC32
#    define ZSIMD_ADLER32
#    define ZSIMD_DISPATCH
#    define ZSIMD_TARGET_CRC32 __attribute__((target("pclmul,sse4.1")))
#    define ZSIMD_TARGET_ADLER32 __attribute__((target("avx2")))
#    define ZSIMD_HAVE_CRC32() (ZSIMD_CPU() & ZSIMD_CPU_CRC32)
#    define ZSIMD_HAVE_ADLER32() (ZSIMD_CPU() & ZSIMD_CPU_ADLER32)
#    if ZSIMD_ATTRIBUTES
#      define ZSIMD_CRC32V
#      define ZSIMD_TARGET_CRC32V ZSIMD_ATTR_CRC32V
#      define ZSIMD_HAVE_CRC32V() (ZSIMD_CPU() & ZSIMD_CPU_CRC32V)
#      define ZSIMD_CRC32Z
#      define ZSIMD_TARGET_CRC32Z ZSIMD_ATTR_CRC32Z
#      define ZSIMD_HAVE_CRC32Z() (ZSIMD_CPU() & ZSIMD_CPU_CRC32Z)
#    endif
#  endif
#  ifdef ZSIMD_DISPATCH
#    define ZSIMD_CPU_KNOWN 1       /* zsimd_cpu bits */
#    define ZSIMD_CPU_CRC32 2       /* PCLMULQDQ and SSE4.1 */
#    define ZSIMD_CPU_ADLER32 4     /* AVX2, and the OS saves ymm registers */
#    define ZSIMD_CPU_CRC32V 8      /* both of the above, and VPCLMULQDQ */
#    define ZSIMD_CPU_CRC32Z 16     /* CRC32V, AVX-512F, and the OS saves the
                                       zmm registers (XCR0 bits 5-7) */
     /* zsimd_cpu is 0 until zsimd_detect() has run, then never changes
        again (see zsimd.c for why reading it unlocked is safe) */
     extern int ZLIB_INTERNAL zsimd_cpu;
     int ZLIB_INTERNAL zsimd_detect(void);
#    define ZSIMD_CPU() (zsimd_cpu ? zsimd_cpu : zsimd_detect())
#  endif
#endif

#ifdef ZSIMD_CRC32
   /* Inputs this long or longer use crc32_pclmul() (measured: see
      turbo/TECHNIQUES.md); shorter ones the tables. */
#  ifndef CRC32_SIMD_MIN
#    define CRC32_SIMD_MIN 16
#  endif
#  ifndef CRC32_SIMDV_MIN
#    define CRC32_SIMDV_MIN 128
#  endif
#  ifndef CRC32_SIMDZ_MIN
#    define CRC32_SIMDZ_MIN 256
#  endif
#  if CRC32_SIMDV_MIN < 128 || CRC32_SIMDZ_MIN < 256
#    error "the VPCLMULQDQ loops need 128 (ymm) and 256 (zmm) bytes at least"
#  endif
   /* The CRC register (pre-conditioned, as inside crc32_z()) after crc's
      message is followed by buf[0..len-1]; len is a multiple of 16, >= 16.
      crc32_simd() calls crc32_vpclmul512() where it is built and the CPU
      has it (len >= CRC32_SIMDZ_MIN, at least 256), else crc32_vpclmul()
      likewise (len >= CRC32_SIMDV_MIN, at least 128), else crc32_pclmul(). */
   unsigned ZLIB_INTERNAL crc32_simd(unsigned crc, const unsigned char *buf,
                                     z_size_t len);
   unsigned ZLIB_INTERNAL crc32_pclmul(unsigned crc, const unsigned char *buf,
                                       z_size_t len);
#  ifdef ZSIMD_CRC32V
   unsigned ZLIB_INTERNAL crc32_vpclmul(unsigned crc,
                                        const unsigned char *buf,
                                        z_size_t len);
#  endif
#  ifdef ZSIMD_CRC32Z
   unsigned ZLIB_INTERNAL crc32_vpclmul512(unsigned crc,
                                           const unsigned char *buf,
                                           z_size_t len);
#  endif
#endif

#ifdef ZSIMD_ADLER32
#  ifndef ADLER32_SIMD_MIN
#    define ADLER32_SIMD_MIN 64
#  endif
   /* The Adler-32 of buf[0..len-1] from the component sums adler and sum2
      (each at most 65535), fully reduced; len >= 32. */
   uLong ZLIB_INTERNAL adler32_avx2(uLong adler, uLong sum2, const Bytef *buf,
                                    z_size_t len);
#endif

#endif /* ZSIMD_H */
