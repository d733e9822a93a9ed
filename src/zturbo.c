/* zturbo.c -- zlib-turbo's identity
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * zlib-turbo is an altered version of zlib 1.3.2 (see zturbo.h).
 */

#include "zutil.h"
#include "zturbo.h"

/* ========================================================================= */
const char * ZEXPORT zlibTurboVersion(void) {
    return ZLIB_TURBO_VERSION;
}
