/* zturbo.c -- zlib-turbo's identity and its most level
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * zlib-turbo is an altered version of zlib 1.3.2 (see zturbo.h).
 */

#include "zutil.h"
#include "zturbo.h"
#if !defined(_WIN32) && !defined(Z_SOLO)
#  include <unistd.h>            /* getuid() */
#endif

/* ========================================================================= */
const char * ZEXPORT zlibTurboVersion(void) {
    return ZLIB_TURBO_VERSION;
}

/* The most level deflate accepts without Z_TURBO_LEVEL(): the built-in
   Z_TURBO_MAX_LEVEL (./configure --max-level=N), or ZLIB_TURBO_MAX_LEVEL
   when it is a decimal number from 9 to 12 (ignored in a set-user-ID or
   set-group-ID program, and in Z_SOLO builds). */
#ifndef Z_TURBO_MAX_LEVEL
#  define Z_TURBO_MAX_LEVEL 12
#endif
#if Z_TURBO_MAX_LEVEL < 9 || Z_TURBO_MAX_LEVEL > 12
#  error Z_TURBO_MAX_LEVEL must be 9, 10, 11 or 12
#endif
local int max_level(void) {
#ifndef Z_SOLO
    const char *e;

#  ifndef _WIN32
    if (getuid() != geteuid() || getgid() != getegid())
        return Z_TURBO_MAX_LEVEL;
#  endif
    e = getenv("ZLIB_TURBO_MAX_LEVEL");
    if (e != NULL && (e[0] == '9' || (e[0] == '1' && e[1] >= '0' &&
                                      e[1] <= '2')) &&
        e[e[0] == '9' ? 1 : 2] == 0)
        return e[0] == '9' ? 9 : 10 + (e[1] - '0');
#endif
    return Z_TURBO_MAX_LEVEL;
}

/* ========================================================================= */
/* The level deflateInit2_() and deflateParams() check, as zlib checks its
   own: Z_TURBO_LEVEL(n) for n in 0..12 is n; a level from 10 to 12 above
   the most is -2 (refused, as zlib refuses it; FASTEST builds map it to 1,
   as zlib maps 10); any other level is itself. */
int ZLIB_INTERNAL zt_level(int level) {
    if (level >= Z_TURBO_LEVEL(0) && level <= Z_TURBO_LEVEL(12))
        return level - Z_TURBO_LEVEL(0);
    if (level > 9 && level <= 12 && level > max_level())
        return -2;
    return level;
}
