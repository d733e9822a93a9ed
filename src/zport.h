/* zport.h -- what zlib-turbo decides about the machine, decided once
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * zlib-turbo is an altered version of zlib 1.3.2 (see zturbo.h).
 */

/*
   zlib reads and writes its data a byte at a time, so it never needs to know
   the machine's word size or byte order.  zlib-turbo's techniques move a word
   where zlib moves a byte: Adler-32 sums eight bytes per step (adler32.c),
   deflate compares match candidates a word at a time (deflate.c) and sends
   its bits through a 64-bit buffer (deflate.h, trees.c), inflate refills its
   bit buffer with one load and copies matches in words (inffast.c).  They all
   need the same few facts; this header states each of them once, and no
   other file tests the compiler, the word size or the byte order itself.

   ZT_WORD64      defined where a 64-bit integer is native: unsigned long has
                  64 bits, or 64-bit Windows.  The word-wide techniques then
                  work on 64-bit words, elsewhere on 32-bit ones.  Compiling
                  with -DZT_NO_WORD64 leaves it undefined: the one opt-out for
                  all word-wide code, which builds every technique as on a
                  32-bit target (so a 64-bit host can test those paths too).
   zt_word        that word (zt_u64 or zt_u32), ZT_WORD_BYTES its size; where
                  no 32-bit type is known either (Z_SOLO), zt_word is unsigned
                  long and ZT_WORD_BYTES is not defined.
   ZT_LITTLE_ENDIAN, ZT_BIG_ENDIAN
                  defined when the compiler tells the byte order.  ZT_IS_LITTLE
                  is then a constant; otherwise it asks at run time.
   zt_load16/64(p), zt_load_word(p)
                  the bytes at p as the machine reads them (native order).
   zt_load_le_word(p), zt_store_le32/64(p, v)
                  little-endian: the byte at p is the value's low eight bits
                  (zt_store_le32 stores the low four bytes of an unsigned long).
                  Every load and store goes through memcpy(), which compilers
                  make one instruction where the target allows unaligned
                  access and byte accesses elsewhere: valid C at any address,
                  nothing for -fsanitize=alignment to report.
   ZT_CTZ_WORD(x), ZT_CLZ_WORD(x)
                  trailing / leading zero bits of a nonzero zt_word, where the
                  compiler has them as builtins (ZT_HAVE_BITSCAN).
   ZT_INLINE      asks the compiler to inline a function wherever it is called.
   ZT_BARRIER(x)  makes the compiler forget what it knows of x's value (so
                  that it keeps a branch as written); nothing where unknown.
   ZT_STATIC_ASSERT(name, cond)
                  stops the compilation unless cond, a constant, is true.
 */

#ifndef ZPORT_H
#define ZPORT_H

#include "zutil.h"
#include <limits.h>

#if defined(__GNUC__) || defined(__clang__)
#  define ZT_GNUC
#  define ZT_MAYBE_UNUSED __attribute__((unused))
#else
#  define ZT_MAYBE_UNUSED
#endif

/* --- word size ------------------------------------------------------------ */

#ifdef Z_U8
   typedef Z_U8 zt_u64;
#endif
#ifdef Z_U4
   typedef Z_U4 zt_u32;
#endif

#if defined(Z_U8) && !defined(ZT_NO_WORD64) && \
    (ULONG_MAX > 0xffffffffUL || defined(_WIN64))
#  define ZT_WORD64
   typedef zt_u64 zt_word;
#  define ZT_WORD_BYTES 8
#elif defined(Z_U4)
   typedef zt_u32 zt_word;
#  define ZT_WORD_BYTES 4
#else
   typedef unsigned long zt_word;
#endif

/* --- byte order ----------------------------------------------------------- */

#if (defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
     __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || \
    (defined(_MSC_VER) && (defined(_M_IX86) || defined(_M_X64) || \
                           defined(_M_ARM64)))
#  define ZT_LITTLE_ENDIAN
#  define ZT_IS_LITTLE 1
#elif defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
      __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#  define ZT_BIG_ENDIAN
#  define ZT_IS_LITTLE 0
#else
   /* the first byte of a 16-bit 1 in memory */
#  define ZT_IS_LITTLE (zt_one.b[0] != 0)
   local const union { ush u; unsigned char b[2]; } zt_one ZT_MAYBE_UNUSED = {1};
#endif

/* --- loads and stores ----------------------------------------------------- */

local ZT_MAYBE_UNUSED ush zt_load16(const void FAR *p) {
    ush v;
    zmemcpy(&v, p, sizeof(v));
    return v;
}

#ifdef Z_U8
local ZT_MAYBE_UNUSED zt_u64 zt_load64(const void FAR *p) {
    zt_u64 v;
    zmemcpy(&v, p, sizeof(v));
    return v;
}
#endif

local ZT_MAYBE_UNUSED zt_word zt_load_word(const void FAR *p) {
    zt_word v;
    zmemcpy(&v, p, sizeof(v));
    return v;
}

/* The sizeof(zt_word) bytes at p as a little-endian number. */
local ZT_MAYBE_UNUSED zt_word zt_load_le_word(const void FAR *p) {
#ifdef ZT_LITTLE_ENDIAN
    zt_word v;
    zmemcpy(&v, p, sizeof(v));
    return v;
#else
    const unsigned char FAR *b = (const unsigned char FAR *)p;
    zt_word v = 0;
    unsigned i = (unsigned)sizeof(zt_word);
    while (i--)
        v = (v << 8) | b[i];
    return v;
#endif
}

/* The n low bytes of v at p, the low byte first (n <= sizeof(v)): the
   portable form of the two stores below. */
#ifdef Z_U8
   typedef zt_u64 zt_widest;
#else
   typedef unsigned long zt_widest;
#endif
local ZT_MAYBE_UNUSED void zt_store_le_bytes(void FAR *p, zt_widest v,
                                             unsigned n) {
    unsigned char FAR *b = (unsigned char FAR *)p;
    unsigned i;
    for (i = 0; i < n; i++, v >>= 8)
        b[i] = (unsigned char)v;
}

#ifdef Z_U8
/* Store the eight bytes of v at p, the low byte first. */
local ZT_MAYBE_UNUSED void zt_store_le64(void FAR *p, zt_u64 v) {
#ifdef ZT_LITTLE_ENDIAN
    zmemcpy(p, &v, sizeof(v));
#else
    zt_store_le_bytes(p, v, 8);
#endif
}
#endif

/* Store the low four bytes of v at p, the low byte first. */
local ZT_MAYBE_UNUSED void zt_store_le32(void FAR *p, unsigned long v) {
#if defined(ZT_LITTLE_ENDIAN) && defined(Z_U4)
    zt_u32 u = (zt_u32)v;
    zmemcpy(p, &u, sizeof(u));
#else
    zt_store_le_bytes(p, v, 4);
#endif
}

/* --- compiler ------------------------------------------------------------- */

#if defined(ZT_GNUC) && defined(ZT_WORD_BYTES)
#  define ZT_HAVE_BITSCAN
#  ifdef ZT_WORD64
#    define ZT_CTZ_WORD(x) __builtin_ctzll(x)
#    define ZT_CLZ_WORD(x) __builtin_clzll(x)
#  else
#    define ZT_CTZ_WORD(x) __builtin_ctz(x)
#    define ZT_CLZ_WORD(x) __builtin_clz(x)
#  endif
#endif

#if defined(ZT_GNUC)
#  define ZT_INLINE __attribute__((always_inline)) __inline__
#elif defined(_MSC_VER)
#  define ZT_INLINE __forceinline
#else
#  define ZT_INLINE
#endif

#ifdef ZT_GNUC
#  define ZT_BARRIER(x) __asm__("" : "+r"(x))
#else
#  define ZT_BARRIER(x)
#endif

/* A negative array size stops the compilation where cond is false.  Use it
   at file scope, with a name that says what is checked. */
#define ZT_STATIC_ASSERT(name, cond) \
    typedef char zt_assert_##name[(cond) ? 1 : -1]

#endif /* ZPORT_H */
