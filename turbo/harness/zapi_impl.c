/* zapi_impl.c -- fill one zapi table from one renamed zlib.
 *
 * Compiled once per library: -DZAPI_PREFIX=ref_ -DZAPI_TABLE=zapi_ref, and
 * -DZAPI_PREFIX=tur_ -DZAPI_TABLE=zapi_tur.  The renamed functions are
 * declared here from zapi_list.h, so the program itself never sees a zlib
 * symbol under its own name.  zlib-turbo's extras (zlibTurboVersion, the
 * prepared dictionary functions, deflateSetThreads, inflateSetThreads) are
 * weak: a pristine library renamed into the "tur" slot (as the harness
 * self-test does) leaves them NULL.
 */
#include "zapi.h"

#ifndef ZAPI_PREFIX
#  error "define ZAPI_PREFIX and ZAPI_TABLE"
#endif

#define ZAPI_CAT_(a, b) a##b
#define ZAPI_CAT(a, b) ZAPI_CAT_(a, b)
#define P(fn) ZAPI_CAT(ZAPI_PREFIX, fn)

#define ZFN(ret, fn, args) extern ret P(fn) args;
#include "zapi_list.h"
#undef ZFN

#if defined(__GNUC__) || defined(__clang__)
#  define ZAPI_WEAK __attribute__((weak))
extern const char *P(zlibTurboVersion)(void) ZAPI_WEAK;
extern int P(deflatePrepareDictionary)(z_streamp, const Bytef *, uInt,
                                       struct z_dict_s **) ZAPI_WEAK;
extern int P(deflateUseDictionary)(z_streamp, const struct z_dict_s *)
    ZAPI_WEAK;
extern void P(deflateFreeDictionary)(struct z_dict_s *) ZAPI_WEAK;
extern int P(deflateSetThreads)(z_streamp, int) ZAPI_WEAK;
extern int P(inflateSetThreads)(z_streamp, int) ZAPI_WEAK;
#  define TURBO_FN(fn) P(fn)
#else
#  define TURBO_FN(fn) 0
#endif

#define STR_(x) #x
#define STR(x) STR_(x)

const zapi ZAPI_TABLE = {
    STR(ZAPI_PREFIX),
#define ZFN(ret, fn, args) P(fn),
#include "zapi_list.h"
#undef ZFN
    TURBO_FN(zlibTurboVersion),
    TURBO_FN(deflatePrepareDictionary),
    TURBO_FN(deflateUseDictionary),
    TURBO_FN(deflateFreeDictionary),
    TURBO_FN(deflateSetThreads),
    TURBO_FN(inflateSetThreads)
};
