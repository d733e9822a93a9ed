/* zdict.c -- prepared deflate dictionaries (zlib-turbo)
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * zlib-turbo is an altered version of zlib 1.3.2 (see zturbo.h).
 *
 * The problem.  A service compressing many small messages with one shared
 * dictionary calls deflateSetDictionary() once per message.  That call feeds
 * up to 32 KiB of dictionary through the hash: one UPDATE_HASH, one prev[]
 * store and one head[] store per dictionary byte, a dependent chain of
 * loads and stores that costs far more than compressing a message of a few
 * hundred bytes.
 *
 * The algorithm.  What deflateSetDictionary() leaves behind in a stream that
 * was just initialised or reset depends only on the dictionary and on the
 * stream's window and hash geometry (w_bits, hash_bits, hash_shift,
 * hash_mask), never on its level or strategy (zlib 1.3.2 inserts every
 * dictionary string at every level, 0 included).  So
 *
 *   deflatePrepareDictionary() copies the caller's stream (deflateCopy()),
 *     resets the copy and runs zlib's own deflateSetDictionary() on it, then
 *     keeps exactly what that call changed: the window's dictionary part
 *     (the tail of the dictionary, which the object keeps whole anyway),
 *     the nonzero entries of head[], prev[] for the inserted positions, and
 *     the scalars strstart, block_start, insert, ins_h, match_length,
 *     prev_length, match_available, plus the Adler-32 of the dictionary;
 *
 *   deflateUseDictionary() checks that the stream is in the state the
 *     snapshot was taken from (INIT_STATE, nothing in the window, hash
 *     cleared by deflateInit/deflateReset: strstart == insert == lookahead
 *     == block_start == 0) and has the same geometry, and then writes the
 *     snapshot into it: a few memcpy()s instead of the hash loop.  Anything
 *     else (another windowBits or memLevel, a gzip stream, a stream that has
 *     started or already has a dictionary, a snapshot that did not come out
 *     as expected) is handed to deflateSetDictionary() itself with the kept
 *     copy of the dictionary, so the result is always exactly the one
 *     deflateSetDictionary() would give: return value, strm->adler,
 *     strm->total_in, window, hash and every later compressed byte.
 *
 * What zdict.c knows of deflate.c, and must follow it if it changes: which
 * scalars deflateSetDictionary() sets (listed above), and that its read_buf()
 * adds the bytes put in the window to total_in and to zt_in (threaded
 * deflate's stream position).  The window itself is written
 * by deflate.c's deflate_load_window(), which zeroes above the data as
 * fill_window() does (high_water, WIN_INIT): that matters because the match
 * finders may read up to MAX_MATCH bytes past the data and their choice of
 * distance depends on those bytes.  A stream is checked as deflate.c checks
 * it, through deflatePending() (see zdict_bad()).  The differential test
 * turbo/tests/prepared_dictionary_test.cpp compares all of it against
 * pristine zlib's deflateSetDictionary() and would catch a drift.
 *
 * Trade-offs.  head[] is written sparsely (index, value pairs for the
 * entries the dictionary set; the rest are already zero after the reset)
 * when few entries are set, and copied whole when many are (a memcpy of
 * 2^hash_bits * 2 bytes beats scattered stores then); see ZDICT_SPARSE.
 * prev[] has to be copied whole for the dictionary's positions (the stream's
 * prev[] holds stale values there).  The object keeps a copy of the whole
 * dictionary, so that fallbacks and strm->adler values other than 1 are
 * computed exactly as zlib computes them; it costs dictLength bytes of
 * memory, plus prev (2 bytes per position) and head (sparse: 4 bytes per
 * entry set, dense: 2^hash_bits * 2 bytes).  The object is never written
 * after deflatePrepareDictionary() returns, so any number of threads may use
 * it at once.
 */

#include "deflate.h"
#include "zturbo.h"

#ifndef NIL
#  define NIL 0                         /* as in deflate.c: end of a hash chain */
#endif

#define ZDICT_MAGIC 0x7a446963UL        /* "zDic": a live object */
#define ZDICT_DEAD  0x64656164UL        /* "dead": freed by deflateFreeDictionary */

/* head[] is kept as (index, value) pairs when at most 1/ZDICT_SPARSE of its
 * entries are set, else as the whole array: on text at memLevel 8 the two
 * cost the same near an 8 KiB dictionary, which sets about 1/8 of head[]
 * (measurements in turbo/TECHNIQUES.md) */
#ifndef ZDICT_SPARSE
#  define ZDICT_SPARSE 8
#endif

typedef struct {
    ush idx;                    /* index in head[] */
    Pos val;                    /* its value */
} zdict_pair;

struct z_dict_s {
    ulg magic;                  /* ZDICT_MAGIC while the object is alive */
    free_func zfree;            /* the preparing stream's zfree ... */
    voidpf opaque;              /* ... and opaque, to free the object */

    Bytef *dict;                /* a copy of the whole dictionary */
    uInt dict_len;
    uLong adler;                /* adler32(1, dict, dict_len) */

    int fast;                   /* 0: every use calls deflateSetDictionary() */
    /* the geometry the snapshot is valid for */
    uInt w_bits, w_size, hash_bits, hash_size, hash_mask, hash_shift;
    ulg window_size;
    /* the snapshot: what deflateSetDictionary() leaves in a fresh stream */
    uInt used;                  /* dictionary bytes in the window (its tail) */
    uInt strstart, insert, ins_h, match_length, prev_length;
    int match_available;
    long block_start;
    Posf *prev;                 /* prev[0 .. nprev-1] */
    uInt nprev;
    Posf *head;                 /* whole head[] (dense), or NULL */
    zdict_pair *pairs;          /* the nonzero head[] entries (sparse) */
    uInt npairs;
};

/* ===========================================================================
 * zdict_bad: 1 if strm is not a valid deflate stream, else 0.  deflatePending()
 * with both pointers Z_NULL changes nothing and returns Z_STREAM_ERROR exactly
 * for the streams that deflate.c's own check, deflateStateCheck(), refuses --
 * the check that deflateSetDictionary() applies first.
 */
local int zdict_bad(z_streamp strm) {
    return deflatePending(strm, Z_NULL, Z_NULL) != Z_OK;
}

/* ===========================================================================
 * zdict_release: returns every block of d (any of them may be Z_NULL) to
 * d->zfree, the object last.  The magic is cleared first, so a later use of
 * the freed object is refused where its memory still reads as it was.
 */
local void zdict_release(z_dict *d) {
    d->magic = ZDICT_DEAD;
    if (d->pairs != Z_NULL) d->zfree(d->opaque, (voidpf)d->pairs);
    if (d->head != Z_NULL) d->zfree(d->opaque, (voidpf)d->head);
    if (d->prev != Z_NULL) d->zfree(d->opaque, (voidpf)d->prev);
    if (d->dict != Z_NULL) d->zfree(d->opaque, (voidpf)d->dict);
    d->zfree(d->opaque, (voidpf)d);
}

/* ===========================================================================
 * zdict_snapshot: fills d's snapshot from ts, a fresh copy of the caller's
 * stream on which deflateSetDictionary(d->dict, d->dict_len) just returned
 * Z_OK.  Allocates prev and head/pairs with strm's zalloc.  Returns Z_OK or
 * Z_MEM_ERROR.  If the copy does not look as zlib 1.3.2's
 * deflateSetDictionary() leaves a fresh stream, d->fast stays 0 and every
 * use falls back to deflateSetDictionary().
 */
local int zdict_snapshot(z_streamp strm, z_dict *d, deflate_state *ts) {
    uInt used, i, set;

    used = d->dict_len < ts->w_size ? d->dict_len : ts->w_size;
    if (ts->lookahead != 0 || ts->strstart != used ||
        ts->strstart < ts->insert || ts->window_size != 2 * (ulg)ts->w_size ||
        ts->strm->total_in != used ||
        zmemcmp(ts->window, d->dict + (d->dict_len - used), used) != 0)
        return Z_OK;                            /* not usable: fall back */

    d->w_bits = ts->w_bits;
    d->w_size = ts->w_size;
    d->hash_bits = ts->hash_bits;
    d->hash_size = ts->hash_size;
    d->hash_mask = ts->hash_mask;
    d->hash_shift = ts->hash_shift;
    d->window_size = ts->window_size;
    d->used = used;
    d->strstart = ts->strstart;
    d->insert = ts->insert;
    d->ins_h = ts->ins_h;
    d->match_length = ts->match_length;
    d->prev_length = ts->prev_length;
    d->match_available = ts->match_available;
    d->block_start = ts->block_start;

    /* prev[] was written for every inserted position, 0 .. strstart-insert-1
     * (deflateCopy() relies on the same bound) */
    d->nprev = ts->strstart - ts->insert;
#ifdef FASTEST
    d->nprev = 0;                               /* no hash chains */
#endif
    if (d->nprev) {
        d->prev = (Posf *)ZALLOC(strm, d->nprev, sizeof(Pos));
        if (d->prev == Z_NULL) return Z_MEM_ERROR;
        zmemcpy(d->prev, ts->prev, d->nprev * sizeof(Pos));
    }

    /* head[]: every entry not set by the dictionary is still zero from the
     * reset */
    set = 0;
    for (i = 0; i < ts->hash_size; i++)
        set += ts->head[i] != NIL;
    if (set && ((ulg)set * ZDICT_SPARSE > ts->hash_size ||
                ts->hash_size > 65536UL)) {
        d->head = (Posf *)ZALLOC(strm, ts->hash_size, sizeof(Pos));
        if (d->head == Z_NULL) return Z_MEM_ERROR;
        zmemcpy(d->head, ts->head, ts->hash_size * sizeof(Pos));
    }
    else if (set) {
        d->pairs = (zdict_pair *)ZALLOC(strm, set, sizeof(zdict_pair));
        if (d->pairs == Z_NULL) return Z_MEM_ERROR;
        for (i = 0; i < ts->hash_size; i++)
            if (ts->head[i] != NIL) {
                d->pairs[d->npairs].idx = (ush)i;
                d->pairs[d->npairs].val = ts->head[i];
                d->npairs++;
            }
    }
    d->fast = 1;
    return Z_OK;
}

/* ===========================================================================
 * deflatePrepareDictionary: see zturbo.h.  Reads strm (its geometry and its
 * allocator) without changing it; on success *dict is a new object, else
 * *dict is Z_NULL and nothing stays allocated.
 */
int ZEXPORT deflatePrepareDictionary(z_streamp strm, const Bytef *dictionary,
                                     uInt dictLength, z_dict **dict) {
    z_dict *d;
    z_stream tmp;
    int ret;

    if (dict == Z_NULL)
        return Z_STREAM_ERROR;
    *dict = Z_NULL;
    if (zdict_bad(strm) || dictionary == Z_NULL)
        return Z_STREAM_ERROR;
    if (strm->state->wrap == 2 || strm->state->wrap == -2)
        return Z_STREAM_ERROR;  /* gzip: deflateSetDictionary() refuses it */

    d = (z_dict *)ZALLOC(strm, 1, sizeof(z_dict));
    if (d == Z_NULL)
        return Z_MEM_ERROR;
    zmemzero(d, sizeof(z_dict));
    d->magic = ZDICT_MAGIC;
    d->zfree = strm->zfree;
    d->opaque = strm->opaque;
    d->dict_len = dictLength;
    d->dict = (Bytef *)ZALLOC(strm, dictLength ? dictLength : 1, 1);
    if (d->dict == Z_NULL) {
        zdict_release(d);
        return Z_MEM_ERROR;
    }
    zmemcpy(d->dict, dictionary, dictLength);
    d->adler = adler32(1L, d->dict, dictLength);

    /* a private stream with strm's geometry and allocator, reset so that it
     * is exactly the fresh stream deflateUseDictionary() will accept */
    ret = deflateCopy(&tmp, strm);
    if (ret != Z_OK) {                  /* tmp holds nothing of its own */
        zdict_release(d);
        return ret;
    }
    ret = deflateReset(&tmp);
    if (ret == Z_OK)
        ret = deflateSetDictionary(&tmp, d->dict, dictLength);
    if (ret == Z_OK)
        ret = zdict_snapshot(strm, d, tmp.state);
    deflateEnd(&tmp);
    if (ret != Z_OK) {
        zdict_release(d);
        return ret;
    }
    *dict = d;
    return Z_OK;
}

/* ===========================================================================
 * deflateUseDictionary: see zturbo.h.  Leaves strm exactly as
 * deflateSetDictionary(strm, dictionary, dictLength) would, with the
 * dictionary given to deflatePrepareDictionary(), and returns what it would
 * return.  Only reads *dict.
 */
int ZEXPORT deflateUseDictionary(z_streamp strm, const z_dict *dict) {
    deflate_state *s;
    uInt used, i;

    if (dict == Z_NULL || dict->magic != ZDICT_MAGIC || zdict_bad(strm))
        return Z_STREAM_ERROR;
    s = strm->state;
    if (!dict->fast || s->status != INIT_STATE ||
        (s->wrap != 0 && s->wrap != 1) ||
        s->strstart != 0 || s->lookahead != 0 || s->insert != 0 ||
        s->block_start != 0 ||
        s->w_bits != dict->w_bits || s->w_size != dict->w_size ||
        s->hash_bits != dict->hash_bits || s->hash_size != dict->hash_size ||
        s->hash_mask != dict->hash_mask ||
        s->hash_shift != dict->hash_shift ||
        s->window_size != dict->window_size)
        return deflateSetDictionary(strm, dict->dict, dict->dict_len);

    /* A fresh stream: in INIT_STATE with nothing in the window, deflateInit
     * or deflateReset cleared head[] and nothing has been inserted since. */
    if (s->wrap == 1)
        strm->adler = strm->adler == 1 ? dict->adler :
                      adler32(strm->adler, dict->dict, dict->dict_len);
    if (s->wrap == 0 && dict->dict_len >= s->w_size)
        s->slid = 0;                    /* deflateSetDictionary's CLEAR_HASH */

    /* the window: the dictionary's tail, and zeros above it as
     * fill_window() leaves them (deflate.c) */
    used = dict->used;
    deflate_load_window(s, dict->dict + (dict->dict_len - used), used);

    /* the hash chains */
    if (dict->nprev)
        zmemcpy(s->prev, dict->prev, dict->nprev * sizeof(Pos));
    if (dict->head != Z_NULL)
        zmemcpy(s->head, dict->head, dict->hash_size * sizeof(Pos));
    else
        for (i = 0; i < dict->npairs; i++)
            s->head[dict->pairs[i].idx] = dict->pairs[i].val;

    /* the scalars; ins_h is only computed once MIN_MATCH bytes are in */
    if (used >= MIN_MATCH)
        s->ins_h = dict->ins_h;
    s->strstart = dict->strstart;
    s->block_start = dict->block_start;
    s->insert = dict->insert;
    s->match_length = dict->match_length;
    s->prev_length = dict->prev_length;
    s->match_available = dict->match_available;
    strm->total_in += used;             /* read_buf() counts what it reads */
    s->zt_in += used;                   /* and so does zlib-turbo's count */
    return Z_OK;
}

/* ===========================================================================
 * deflateFreeDictionary: see zturbo.h.  Z_NULL and objects already freed
 * (where their memory still reads as it was left) are ignored.
 */
void ZEXPORT deflateFreeDictionary(z_dict *dict) {
    if (dict == Z_NULL || dict->magic != ZDICT_MAGIC)
        return;
    zdict_release(dict);
}
