/* zapi.h -- one zlib as a table of function pointers.
 *
 * The differential harness needs pristine zlib 1.3.2 and zlib-turbo in one
 * process, calling the same functions with the same arguments and comparing
 * everything observable after each call.  Both libraries export the same
 * names, so mkzobj.sh renames every global symbol of each library with a
 * prefix ("ref_", "tur_"), and zapi_impl.c, compiled once per prefix, fills a
 * zapi table with that library's functions.  zlib.h is the same file in both
 * trees (zlib-turbo never changes it), so z_stream and every other type is
 * shared.
 *
 * Usage:   const zapi *R = &zapi_ref, *T = &zapi_tur;
 *          R->deflateInit2_(&s, ...);  T->deflateInit2_(&t, ...);
 */
#ifndef ZAPI_H
#define ZAPI_H

#include "zlib.h"

#ifdef __cplusplus
extern "C" {
#endif

struct z_dict_s;                /* zturbo.h's prepared dictionary (opaque) */

typedef struct zapi_s {
    const char *name;           /* "ref" or "tur" */
#define ZFN(ret, fn, args) ret (*fn) args;
#include "zapi_list.h"
#undef ZFN
    /* zlib-turbo's own extras (zturbo.h), each NULL in a library without
     * it (pristine zlib has none of them) */
    const char *(*zlibTurboVersion)(void);
    int (*deflatePrepareDictionary)(z_streamp strm, const Bytef *dictionary,
                                    uInt dictLength, struct z_dict_s **dict);
    int (*deflateUseDictionary)(z_streamp strm, const struct z_dict_s *dict);
    void (*deflateFreeDictionary)(struct z_dict_s *dict);
    int (*deflateSetThreads)(z_streamp strm, int threads);
    int (*inflateSetThreads)(z_streamp strm, int threads);
} zapi;

extern const zapi zapi_ref;     /* the reference: pristine zlib 1.3.2 */
extern const zapi zapi_tur;     /* the library under test */

/* The zapi_init*() convenience wrappers mirror zlib.h's macros. */
#define ZAPI_DEFLATE_INIT2(A, s, lvl, meth, wb, ml, st) \
    ((A)->deflateInit2_((s), (lvl), (meth), (wb), (ml), (st), \
                        ZLIB_VERSION, (int)sizeof(z_stream)))
#define ZAPI_INFLATE_INIT2(A, s, wb) \
    ((A)->inflateInit2_((s), (wb), ZLIB_VERSION, (int)sizeof(z_stream)))
#define ZAPI_INFLATE_BACK_INIT(A, s, wb, win) \
    ((A)->inflateBackInit_((s), (wb), (win), ZLIB_VERSION, \
                           (int)sizeof(z_stream)))

#ifdef __cplusplus
}
#endif

#endif /* ZAPI_H */
