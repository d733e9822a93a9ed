/* zturbo.h -- zlib-turbo's additions to the zlib interface
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * zlib-turbo is an altered version of zlib 1.3.2: it is not the original
 * zlib by Jean-loup Gailly and Mark Adler.  It keeps zlib's interface, its
 * compressed bytes at levels 0-9 and its decompression results, and only
 * makes them faster.  zlib.h is unchanged; what zlib-turbo adds is declared
 * here, and exported under the symbol version ZLIB_TURBO_1.0, so a program
 * that uses none of it runs on any zlib 1.3.2.
 *
 * Include it after zlib.h, or alone (it includes zlib.h):
 *
 *     #include <zturbo.h>
 */

#ifndef ZTURBO_H
#define ZTURBO_H

#include "zlib.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ZLIB_TURBO_VERSION "1.0.0"
#define ZLIB_TURBO_VERNUM 0x1000
#define ZLIB_TURBO_VER_MAJOR 1
#define ZLIB_TURBO_VER_MINOR 0
#define ZLIB_TURBO_VER_REVISION 0

ZEXTERN const char * ZEXPORT zlibTurboVersion(void);
/*
     Returns the version of zlib-turbo, ZLIB_TURBO_VERSION ("1.0.0"), as the
   library was built.  zlibVersion() still returns the zlib version whose
   interface and results zlib-turbo keeps ("1.3.2"), so programs that check it
   against ZLIB_VERSION keep working.  A program can tell at run time whether
   it is running on zlib-turbo by looking this symbol up (for example with
   dlsym()) before calling it.
*/

#ifdef __cplusplus
}
#endif

#endif /* ZTURBO_H */
