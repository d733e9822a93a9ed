/* inflate_mt.c -- one inflate stream decoded on many threads, with zlib's
 * results call by call
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * inflateSetThreads() (zturbo.h) lets inflate() use worker threads on one
 * stream.  The stream's own thread (the caller) still runs zlib's inflate()
 * from start to end; the workers only decode ahead, and the caller takes
 * what they decoded only where that is exactly what it would have decoded
 * itself, so every call returns what one thread returns.
 *
 * The work.  The compressed input of a call is cut into chunks of
 * ZI_CHUNK bytes at fixed stream offsets (k * ZI_CHUNK).  A worker given
 * chunk k copies its bytes (and ZI_MARGIN more), looks in it for the first
 * bit offset where a dynamic block header is valid and its block decodes
 * without error (a candidate), and decodes blocks from there until one ends
 * at or after the chunk's end.  It does not know the 32 KiB of output
 * before its first block, so its first output is 16-bit symbols: a byte, or
 * a marker for "the byte D before the chunk" (D = 1..32768), which copies
 * carry along.  Once 32 KiB of symbols hold no marker, nothing later can
 * reach one: the worker then goes on with zlib's own inflate() on a private
 * raw stream given those 32 KiB as its dictionary, a block per call
 * (Z_BLOCK), writing bytes.  For each block it records where it ends (in
 * bits), how much output it made, its longest distance, whether it is the
 * last.  Chunks k with k % threads == 0 are left to the caller, so that it
 * decodes while the workers decode.
 *
 * The hand-off.  inflate() calls inflate_mt_ahead() at each block boundary
 * (mode TYPEDO).  If a finished chunk's first block begins exactly at the
 * caller's bit position P, the caller saves the 32 KiB of output before P
 * (its history) and takes blocks from there, one after the other, while:
 *   - the input bytes it holds from P to the block's end are those the
 *     worker decoded (compared byte by byte, with the bits held);
 *   - the block's end lies in this call's input, its output in this call's
 *     room (avail_out);
 *   - the block's longest distance is within what zlib would find behind
 *     it: the output written so far in this call plus whave (zlib's "too
 *     far back" test is made against exactly that, so it depends on how
 *     the calls are sliced); unknown distances (the inflate() part) count
 *     as 32768;
 *   - its markers reach no further back than that history.
 * The rest of the chunk is the caller's: a chunk is taken once, from its
 * first block (a later block of it may copy from blocks the caller decoded
 * itself, perhaps from other bytes or with another window).
 * Taking a block writes its bytes (markers looked up in that history) at
 * next_out and leaves the stream as zlib leaves it after that block's
 * end-of-block code: mode TYPE, next_in after the byte holding the block's
 * last bit, fewer than 8 bits held (the rest of that byte), back -1 after
 * a compressed block, last set after the last block.  adler, total_out,
 * the window and data_type then come from the same output and state, at
 * the call's end, as always.  Everything else -- a block that does not
 * fit, a damaged one, a stored or fixed block where no dynamic header was
 * found, the chunks the caller keeps -- the caller decodes itself, and so
 * reaches zlib's own errors at zlib's own positions.
 *
 * Work that turns out wrong (a candidate that was not a block boundary,
 * input that changed between calls, a chunk the caller passed) is dropped;
 * it is never seen.  The workers read only their own copies of the input,
 * so the program may reuse or free its buffers whenever inflate() has
 * returned; a chunk decoded during one call may be taken in a later one
 * (its bytes compared then, its history saved then).
 *
 * Trade-offs: a chunk's worker output is bounded (ZI_OUT bytes, a symbol
 * taking two): a chunk that would make more stops early and the caller
 * decodes the rest.  Blocks are found by their dynamic headers only: a
 * stream of stored or fixed blocks (or one huge block) is decoded by the
 * caller at one thread's speed.  The caller still copies every byte and
 * computes the check value of all the output.
 */

#include "zutil.h"
#include "inftrees.h"
#include "inflate.h"
#include "zport.h"
#include "inflate_mt.h"
#include "zturbo.h"

#ifdef ZI_THREADS

#define ZI_CHUNK (1UL << ZI_CHUNK_BITS)
#define ZI_MARGIN (ZI_CHUNK / 2)        /* input beyond the chunk's end */
#define ZI_PAD 16                       /* zero bytes after a chunk's input */
#define ZI_OUT (ZI_CHUNK_BITS > 18 ? 4 * ZI_CHUNK : 1UL << 20)
                                        /* a chunk's output arena: symbols,
                                           two bytes each, then bytes */
#define ZI_SLOTS_MORE (ZI_CHUNK_BITS > 16 ? 0 : 16)
                                        /* small chunks: more ahead */
#define ZI_SLACK 32                     /* arena bytes that copies may
                                           overwrite past their end */
#define ZI_BLOCKS 4096                  /* blocks per chunk, most */
#define ZI_WIN 32768U                   /* deflate's longest distance */
#define ZI_MARK 0x8000U                 /* symbol: marker for D = low + 1 */
#define ZI_NONE (~(zt_u64)0)

ZT_STATIC_ASSERT(zi_chunk_fits, ZI_CHUNK + ZI_MARGIN + ZI_PAD < 0xffffffffUL);
ZT_STATIC_ASSERT(zi_out_holds_windows, ZI_OUT > 8 * ZI_WIN);

/* slot states */
#define ZI_FREE 0
#define ZI_POSTED 1         /* input copied, waiting for a worker */
#define ZI_RUNNING 2
#define ZI_DONE 3

typedef struct {
    zt_u64 end;             /* bit after the block, from the chunk's in[0] */
    unsigned long out;      /* output symbols up to the block's end */
    unsigned dmax;          /* longest distance in the block (32768: unknown) */
    unsigned dback;         /* furthest marker so far, this block included */
    int flags;              /* 1: last block, 2: stored block */
} zi_block;

typedef struct {
    int state;              /* under the pool's lock */
    int found;              /* first block known (under the lock) */
    zt_u64 k;               /* chunk number */
    zt_u64 base;            /* stream offset of in[0] */
    zt_u64 x;               /* the first block's bit, from in[0] */
    zt_u64 hint;            /* a block boundary known there, or ZI_NONE */
    unsigned char *in;      /* the chunk's input, inlen bytes, ZI_PAD zeros */
    unsigned long inlen;
    unsigned char *arena;   /* ZI_OUT + ZI_SLACK bytes: */
    unsigned short *sym;    /* the first output, bytes and markers, */
    unsigned long nsym;
    unsigned char *byt;     /* then the rest, bytes (after the symbols) */
    unsigned long nbyt;
    unsigned char *map;     /* symbol to byte, once hist is known */
    zi_block *blk;
    unsigned nblk;
    unsigned char *hist;    /* the output before the first block */
    unsigned nhist;
    z_stream priv;          /* raw inflate for the part after the markers */
    int privok;
    code codes[ENOUGH];     /* the worker's tables */
    unsigned short lens[320];
    unsigned short work[288];
} zi_slot;

struct zi_mt_s {
    int threads;
    zt_pool *pool;
    int started;            /* workers started (or tried) */
    zt_u64 abs;             /* input consumed by the stream's calls */
    zt_u64 kc;              /* the caller's chunk (under the lock) */
    int ahead;              /* workers take chunks from kc + ahead on */
    zi_slot *slot;
    int nslot;
    code fixed[ENOUGH];     /* the fixed block's tables */
    code const *flen, *fdist;
    unsigned short kraft[4096];     /* zi_find(): four 3-bit lengths' sum */
    unsigned flenbits, fdistbits;
};

/* ========================================================================
 * The worker's decoder: 16-bit symbols, zlib's tables and zlib's checks.
 */

typedef struct {
    const unsigned char *in, *p, *end;  /* end: in + inlen, then ZI_PAD zeros */
    zt_u64 hold;
    unsigned bits;
} zi_bits;

#define ZB_POS(b) ((zt_u64)((b)->p - (b)->in) * 8 - (b)->bits)

/* At least 56 bits in hold, zeros after the end: p stays within the ZI_PAD
   zeros as long as the position is checked against the end after each
   code. */
#ifdef ZT_WORD64
#  define ZB_FILL(b) do { \
        (b)->hold |= (zt_u64)zt_load_le_word((b)->p) << (b)->bits; \
        (b)->p += (63 - (b)->bits) >> 3; \
        (b)->bits |= 56; \
    } while (0)
#else
#  define ZB_FILL(b) do { \
        while ((b)->bits <= 56) { \
            (b)->hold |= (zt_u64)*(b)->p++ << (b)->bits; \
            (b)->bits += 8; \
        } \
    } while (0)
#endif

local void zb_seek(zi_bits *b, const unsigned char *in, unsigned long len,
                   zt_u64 pos) {
    b->in = in;
    b->end = in + len;
    b->p = in + (unsigned long)(pos >> 3);
    b->hold = 0;
    b->bits = 0;
    ZB_FILL(b);
    b->hold >>= (unsigned)(pos & 7);
    b->bits -= (unsigned)(pos & 7);
}

#define ZB_DROP(b, n) ((b)->hold >>= (n), (b)->bits -= (n))
#define ZB_BITS(b, n) ((unsigned)((b)->hold & ((1U << (n)) - 1)))

/* The code of table t (root rbits) at b, through a sub-table if need be;
   its bits dropped. */
#define ZB_CODE(here, b, t, rbits) do { \
        here = (t)[(b)->hold & ((1U << (rbits)) - 1)]; \
        if (here.op != 0 && (here.op & 0xf0) == 0) { \
            ZB_DROP(b, here.bits); \
            here = (t)[here.val + ZB_BITS(b, here.op)]; \
        } \
        ZB_DROP(b, here.bits); \
    } while (0)

/* Decode one block at b into s->sym from s->nsym, as zlib would decode it,
   with 16-bit markers for what lies before the chunk.  Returns 0 when it
   ended (b after it, info set), 1 where zlib reports an error or the input
   ends first, 2 when the arena is full. */
local int zi_block16(zi_mt *mt, zi_slot *s, zi_bits *b, zi_block *info) {
    code const *lc, *dc;
    unsigned lb, db, type, i;
    unsigned long n = s->nsym, lim = (ZI_OUT - 2 * 258) / 2;
    unsigned short *sym = s->sym;
    zt_u64 limit = (zt_u64)s->inlen * 8;
    unsigned dmax = 0, dback = info->dback;

    ZB_FILL(b);
    info->flags = (int)(b->hold & 1);
    type = (unsigned)(b->hold >> 1) & 3;
    ZB_DROP(b, 3);
    if (type == 0) {                        /* stored */
        zt_u64 pos = ZB_POS(b);
        unsigned long at, len;
        pos = (pos + 7) & ~(zt_u64)7;
        at = (unsigned long)(pos >> 3);
        if (at + 4 > s->inlen)
            return 1;
        len = s->in[at] | ((unsigned)s->in[at + 1] << 8);
        if ((len ^ 0xffff) != (s->in[at + 2] | ((unsigned)s->in[at + 3] << 8)))
            return 1;
        at += 4;
        if (at + len > s->inlen)
            return 1;
        if (n + len > lim)
            return 2;
        for (i = 0; i < len; i++)
            sym[n + i] = s->in[at + i];
        s->nsym = n + len;
        zb_seek(b, s->in, s->inlen, (zt_u64)(at + len) * 8);
        info->flags |= 2;
        info->dmax = 0;
        info->dback = dback;
        info->end = ZB_POS(b);
        info->out = s->nsym;
        return 0;
    }
    if (type == 1) {                        /* fixed */
        lc = mt->flen;
        lb = mt->flenbits;
        dc = mt->fdist;
        db = mt->fdistbits;
    }
    else if (type == 2) {                   /* dynamic: zlib's TABLE .. */
        static const unsigned short order[19] =
            {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
        unsigned nlen, ndist, ncode, have, cb;
        code *next;
        code const *cc;
        nlen = ZB_BITS(b, 5) + 257;
        ZB_DROP(b, 5);
        ndist = ZB_BITS(b, 5) + 1;
        ZB_DROP(b, 5);
        ncode = ZB_BITS(b, 4) + 4;
        ZB_DROP(b, 4);
#ifndef PKZIP_BUG_WORKAROUND
        if (nlen > 286 || ndist > 30)
            return 1;
#endif
        ZB_FILL(b);
        for (i = 0; i < ncode; i++) {
            s->lens[order[i]] = (unsigned short)ZB_BITS(b, 3);
            ZB_DROP(b, 3);
        }
        for (; i < 19; i++)
            s->lens[order[i]] = 0;
        next = s->codes;
        cc = next;
        cb = 7;
        if (inflate_table(CODES, s->lens, 19, &next, &cb, s->work))
            return 1;
        have = 0;
        while (have < nlen + ndist) {
            code here;
            unsigned len, copy;
            ZB_FILL(b);
            if (ZB_POS(b) > limit)
                return 1;
            here = cc[ZB_BITS(b, cb)];
            ZB_DROP(b, here.bits);
            if (here.val < 16) {
                s->lens[have++] = here.val;
                continue;
            }
            if (here.val == 16) {
                if (have == 0)
                    return 1;
                len = s->lens[have - 1];
                copy = 3 + ZB_BITS(b, 2);
                ZB_DROP(b, 2);
            }
            else if (here.val == 17) {
                len = 0;
                copy = 3 + ZB_BITS(b, 3);
                ZB_DROP(b, 3);
            }
            else {
                len = 0;
                copy = 11 + ZB_BITS(b, 7);
                ZB_DROP(b, 7);
            }
            if (have + copy > nlen + ndist)
                return 1;
            while (copy--)
                s->lens[have++] = (unsigned short)len;
        }
        if (s->lens[256] == 0)
            return 1;
        next = s->codes;
        lc = next;
        lb = ROOT_LENS;
        if (inflate_table(LENS, s->lens, nlen, &next, &lb, s->work))
            return 1;
        dc = next;
        db = ROOT_DISTS;
        if (inflate_table(DISTS, s->lens + nlen, ndist, &next, &db, s->work))
            return 1;
    }
    else
        return 1;                           /* invalid block type */

    {                                       /* the codes, bit buffer local */
        const unsigned char *p = b->p, *pend = b->end;
        zt_u64 hold = b->hold;
        unsigned bits = b->bits, lmask = (1U << lb) - 1, dm = (1U << db) - 1;
        for (;;) {
            code here;
            unsigned len, dist, op;
#ifdef ZT_WORD64
            hold |= (zt_u64)zt_load_le_word(p) << bits;
            p += (63 - bits) >> 3;
            bits |= 56;
#else
            while (bits <= 56) {
                hold |= (zt_u64)*p++ << bits;
                bits += 8;
            }
#endif
            if (p > pend && (zt_u64)(p - b->in) * 8 - bits > limit)
                return 1;
            if (n > lim)
                return 2;
            here = lc[hold & lmask];
            if (here.op == 0) {             /* literals: three fit in 56 bits */
                hold >>= here.bits;
                bits -= here.bits;
                sym[n++] = here.val;
                here = lc[hold & lmask];
                if (here.op == 0) {
                    hold >>= here.bits;
                    bits -= here.bits;
                    sym[n++] = here.val;
                    here = lc[hold & lmask];
                    if (here.op == 0 && here.bits + 15U <= bits) {
                        hold >>= here.bits;
                        bits -= here.bits;
                        sym[n++] = here.val;
                    }
                }
                continue;
            }
            if (here.op != 0 && (here.op & 0xf0) == 0) {    /* sub-table */
                hold >>= here.bits;
                bits -= here.bits;
                here = lc[here.val + (hold & ((1U << here.op) - 1))];
            }
            hold >>= here.bits;
            bits -= here.bits;
            op = here.op;
            if (op == 0) {
                sym[n++] = here.val;
                continue;
            }
            if (op & 32)                    /* end of block */
                break;
            if (!(op & 16))                 /* invalid literal/length code */
                return 1;
            len = here.val + ((unsigned)hold & ((1U << (op & 15)) - 1));
            hold >>= op & 15;
            bits -= op & 15;
            here = dc[hold & dm];
            if (here.op != 0 && (here.op & 0xf0) == 0) {
                hold >>= here.bits;
                bits -= here.bits;
                here = dc[here.val + (hold & ((1U << here.op) - 1))];
            }
            hold >>= here.bits;
            bits -= here.bits;
            op = here.op;
            if (!(op & 16))                 /* invalid distance code */
                return 1;
            dist = here.val + ((unsigned)hold & ((1U << (op & 15)) - 1));
            hold >>= op & 15;
            bits -= op & 15;
            if (dist > dmax)
                dmax = dist;
            if (dist <= n) {
                unsigned short *to = sym + n;
                const unsigned short *from = to - dist;
                unsigned k;
                if (dist >= 8)              /* eight at a time, past the end */
                    for (k = 0; k < len; k += 8)
                        zmemcpy(to + k, from + k, 8 * sizeof(unsigned short));
                else
                    for (k = 0; k < len; k++)
                        to[k] = from[k];
            }
            else {
                unsigned k;
                for (k = 0; k < len; k++) {
                    unsigned long q = n + k;
                    if (q >= dist)
                        sym[q] = sym[q - dist];
                    else {
                        unsigned d = (unsigned)(dist - q);  /* 1..32768 */
                        sym[q] = (unsigned short)(ZI_MARK | (d - 1));
                        if (d > dback)
                            dback = d;
                    }
                }
            }
            n += len;
        }
        b->p = p;
        b->hold = hold;
        b->bits = bits;
    }
    if (ZB_POS(b) > limit)
        return 1;
    s->nsym = n;
    info->dmax = dmax;
    info->dback = dback;
    info->end = ZB_POS(b);
    info->out = n;
    return 0;
}

/* The 64 bits at bit pos of in (read within the ZI_PAD zeros after it). */
local zt_u64 zi_peek(const unsigned char *in, zt_u64 pos) {
    const unsigned char *p = in + (unsigned long)(pos >> 3);
    unsigned r = (unsigned)(pos & 7), i;
    zt_u64 v = 0;
    for (i = 0; i < 8; i++)
        v |= (zt_u64)p[i] << (8 * i);
    return r ? v >> r | (zt_u64)p[8] << (64 - r) : v;
}

/* First bit in [pos, stop) where a dynamic block that is not the last may
   begin: its header's counts in range and its code length code complete,
   as zlib requires; stop if none.  The three header tests are made for 48
   bit offsets at once on one 64-bit word (BFINAL 0 and BTYPE 2: bits 0-2
   are 0, 0, 1; HLIT and HDIST below 30: bits 4-7 and 9-12 not all 1); the
   few offsets left get their code length code's Kraft sum from a table of
   four lengths at a time (kraft: 4096 sums in 1/128). */
local zt_u64 zi_find(const unsigned short *kraft, const unsigned char *in,
                     zt_u64 pos, zt_u64 stop) {
    while (pos < stop) {
        zt_u64 w = zi_peek(in, pos), m;
        m = ~w & ~(w >> 1) & (w >> 2) &
            ~((w >> 4) & (w >> 5) & (w >> 6) & (w >> 7)) &
            ~((w >> 9) & (w >> 10) & (w >> 11) & (w >> 12)) &
            (((zt_u64)1 << 48) - 1);
        if (stop - pos < 48)
            m &= ((zt_u64)1 << (unsigned)(stop - pos)) - 1;
        while (m) {
            unsigned r = 0, ncode, sum;
            zt_u64 c;
#if defined(ZT_HAVE_BITSCAN) && defined(ZT_WORD64)
            r = (unsigned)ZT_CTZ_WORD(m);           /* m: a 64-bit word */
#else
            while (!((m >> r) & 1))
                r++;
#endif
            m &= m - 1;
            c = zi_peek(in, pos + r + 13);
            ncode = (unsigned)(c & 15) + 4;
            c = (c >> 4) & ((((zt_u64)1 << (3 * ncode - 1)) << 1) - 1);
            sum = (unsigned)kraft[c & 4095] + kraft[(c >> 12) & 4095] +
                  kraft[(c >> 24) & 4095] + kraft[(c >> 36) & 4095] +
                  kraft[(c >> 48) & 4095];
            if (sum == 128)
                return pos + r;
        }
        pos += 48;
    }
    return stop;
}

/* A quick look at a candidate from zi_find(): its code lengths decoded and
   counted without building tables.  0 when zlib would refuse the header
   (a repeat with nothing before it or past the end, no end-of-block code,
   an over-subscribed or incomplete literal/length or distance code where
   inflate_table() refuses one); 1 when only decoding it can tell. */
local int zi_precheck(const unsigned char *in, zt_u64 pos) {
    static const unsigned char order[19] =
        {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    unsigned char cl[19], tsym[128], tlen[128], lens[320];
    unsigned cnt[8], code[8], nlen, ndist, ncode, i, have, left, kl, kd;
    unsigned maxl, maxd, nl, nd;
    zt_u64 v = zi_peek(in, pos), c;

    nlen = (unsigned)((v >> 3) & 31) + 257;
    ndist = (unsigned)((v >> 8) & 31) + 1;
    ncode = (unsigned)((v >> 13) & 15) + 4;
    c = zi_peek(in, pos + 17);
    for (i = 0; i < 19; i++)
        cl[order[i]] = (unsigned char)(i < ncode ? (c >> (3 * i)) & 7 : 0);
    pos += 17 + 3 * ncode;
    /* the code length code (complete: zi_find checked), canonical, into a
       7-bit table */
    for (i = 0; i < 8; i++)
        cnt[i] = 0;
    for (i = 0; i < 19; i++)
        cnt[cl[i]]++;
    code[1] = 0;
    for (i = 1; i < 7; i++)
        code[i + 1] = (code[i] + cnt[i]) << 1;
    for (i = 0; i < 19; i++) {
        unsigned l = cl[i], k, r = 0, j;
        if (l == 0)
            continue;
        k = code[l]++;
        for (j = 0; j < l; j++)             /* deflate sends codes reversed */
            r |= ((k >> j) & 1) << (l - 1 - j);
        for (j = r; j < 128; j += 1U << l) {
            tsym[j] = (unsigned char)i;
            tlen[j] = (unsigned char)l;
        }
    }
    /* the lengths, with zlib's checks, Kraft sums in 1/32768 */
    have = 0;
    v = zi_peek(in, pos);
    left = 64;
    while (have < nlen + ndist) {
        unsigned sym, len, copy, e;
        if (left < 14) {
            v = zi_peek(in, pos);
            left = 64;
        }
        sym = tsym[v & 127];
        e = tlen[v & 127];
        v >>= e;
        left -= e;
        pos += e;
        if (sym < 16) {
            lens[have++] = (unsigned char)sym;
            continue;
        }
        if (sym == 16) {
            if (have == 0)
                return 0;
            len = lens[have - 1];
            copy = 3 + (unsigned)(v & 3);
            e = 2;
        }
        else if (sym == 17) {
            len = 0;
            copy = 3 + (unsigned)(v & 7);
            e = 3;
        }
        else {
            len = 0;
            copy = 11 + (unsigned)(v & 127);
            e = 7;
        }
        v >>= e;
        left -= e;
        pos += e;
        if (have + copy > nlen + ndist)
            return 0;
        while (copy--)
            lens[have++] = (unsigned char)len;
    }
    if (lens[256] == 0)
        return 0;
    kl = kd = 0;
    maxl = maxd = nl = nd = 0;
    for (i = 0; i < nlen; i++)
        if (lens[i]) {
            kl += 32768U >> lens[i];
            nl++;
            if (lens[i] > maxl) maxl = lens[i];
        }
    for (; i < nlen + ndist; i++)
        if (lens[i]) {
            kd += 32768U >> lens[i];
            nd++;
            if (lens[i] > maxd) maxd = lens[i];
        }
    /* inflate_table(): over-subscribed never; incomplete only with one
       code of one bit (or no distance code at all) */
    if (kl > 32768 || kd > 32768)
        return 0;
    if (kl < 32768 && !(nl == 1 && maxl == 1))
        return 0;
    if (kd < 32768 && nd != 0 && !(nd == 1 && maxd == 1))
        return 0;
    return 1;
}

/* The rest of the chunk with zlib's inflate(), a block per call, from bit
   pos, given the last 32 KiB of symbols (no marker among them) as its
   dictionary.  Adds the blocks it finishes. */
local void zi_bytes(zi_slot *s, zt_u64 pos, zt_u64 regend) {
    z_streamp ps = &s->priv;
    struct inflate_state FAR *st = (struct inflate_state FAR *)ps->state;
    unsigned char *dict = s->hist;      /* free until the caller takes it */
    unsigned long at, i;
    unsigned r;

    for (i = 0; i < ZI_WIN; i++)
        dict[i] = (unsigned char)s->sym[s->nsym - ZI_WIN + i];
    if (inflateReset(ps) != Z_OK ||
        inflateSetDictionary(ps, dict, ZI_WIN) != Z_OK)
        return;
    at = (unsigned long)(pos >> 3);
    r = (unsigned)(pos & 7);
    if (r) {
        if (inflatePrime(ps, (int)(8 - r), s->in[at] >> r) != Z_OK)
            return;
        at++;
    }
    ps->next_in = s->in + at;
    ps->avail_in = (uInt)(s->inlen - at);
    s->byt = s->arena + 2 * s->nsym;
    s->nbyt = 0;
    while (s->nblk < ZI_BLOCKS) {
        zi_block *bi = s->blk + s->nblk;
        zt_u64 here = (zt_u64)(ps->next_in - s->in) * 8 - st->bits;
        unsigned long made;
        int ret, type = (int)(zi_peek(s->in, here) >> 1) & 3;
        ps->next_out = s->byt + s->nbyt;
        ps->avail_out = (uInt)(ZI_OUT - 2 * s->nsym - s->nbyt);
        st->mode = TYPEDO;              /* past the boundary it stopped at */
        ret = inflate(ps, Z_BLOCK);
        if (ret != Z_OK || !(ps->data_type & 128))
            return;                     /* an error, or the block is cut */
        made = (unsigned long)(ps->next_out - (s->byt + s->nbyt));
        s->nbyt += made;
        bi->end = (zt_u64)(ps->next_in - s->in) * 8 - st->bits;
        bi->out = s->nsym + s->nbyt;
        bi->dmax = ZI_WIN;
        bi->dback = s->nblk ? bi[-1].dback : 0;
        bi->flags = (ps->data_type & 64 ? 1 : 0) | (type == 0 ? 2 : 0);
        s->nblk++;
        if ((bi->flags & 1) || bi->end >= regend)
            return;
    }
}

/* A worker's job: chunk s, from its input copy to its blocks. */
local void zi_run(zi_mt *mt, zi_slot *s) {
    zt_u64 regend = (zt_u64)ZI_CHUNK * 8, pos;
    zi_bits b;
    zi_block info;
    unsigned long mark = 0;     /* a marker is known at mark - 1 (0: none) */
    int found = 0;

    s->nblk = 0;
    s->nsym = 0;
    s->nbyt = 0;
    if (s->inlen <= ZI_CHUNK)
        regend = (zt_u64)s->inlen * 8;
    if (s->hint < regend) {             /* where the chunk before ended */
        pos = s->hint;
        zb_seek(&b, s->in, s->inlen, pos);
        info.dback = 0;
        found = zi_block16(mt, s, &b, &info) == 0;
        pos++;
    }
    for (pos = found ? pos : 0; pos < regend && !found; pos++) {
        pos = zi_find(mt->kraft, s->in, pos, regend);
        if (pos >= regend)
            break;
        if (!zi_precheck(s->in, pos))
            continue;
        zb_seek(&b, s->in, s->inlen, pos);
        s->nsym = 0;
        info.dback = 0;
        if (zi_block16(mt, s, &b, &info) == 0)
            found = 1;
    }
    if (!found) {
        s->nsym = 0;
        return;
    }
    pos--;
    zt_pool_lock(mt->pool);
    s->blk[0] = info;
    s->nblk = 1;
    s->x = pos;
    s->found = 1;
    zt_pool_post(mt->pool);
    zt_pool_unlock(mt->pool);
    while (!(info.flags & 1) && info.end < regend && s->nblk < ZI_BLOCKS) {
        unsigned long n0 = s->nsym, q;
        if (s->nsym >= ZI_WIN && s->nsym - mark >= ZI_WIN && s->privok) {
            /* the last 32 KiB: markers?  (each symbol looked at once) */
            for (q = s->nsym; q > mark && q > s->nsym - ZI_WIN; q--)
                if (s->sym[q - 1] & ZI_MARK)
                    break;
            if (q > mark && q > s->nsym - ZI_WIN)
                mark = q;                       /* a marker at q - 1 */
            if (s->nsym - mark >= ZI_WIN) {
                zi_bytes(s, info.end, regend);
                return;
            }
        }
        if (zi_block16(mt, s, &b, &info) != 0) {
            s->nsym = n0;
            return;
        }
        s->blk[s->nblk++] = info;
    }
}

/* Where the chunk before s ended, if a worker has decoded it that far: a
   block boundary in s's chunk, relative to its input; else ZI_NONE.  With
   the lock held. */
local zt_u64 zi_hint(zi_mt *mt, const zi_slot *s) {
    int i;
    for (i = 0; i < mt->nslot; i++) {
        const zi_slot *c = mt->slot + i;
        zt_u64 end;
        if (c->state != ZI_DONE || c->k + 1 != s->k || c->nblk == 0 ||
            (c->blk[c->nblk - 1].flags & 1))
            continue;
        end = c->base * 8 + c->blk[c->nblk - 1].end;
        if (end >= s->base * 8 && end < (s->base + ZI_CHUNK) * 8)
            return end - s->base * 8;
    }
    return ZI_NONE;
}

/* The pool's task: take the first posted chunk that the caller will not
   reach before a worker has decoded it.  How far that is (mt->ahead) is
   learnt from how many chunks the caller went through while a worker
   decoded one. */
local int zi_task(void *owner, int t) {
    zi_mt *mt = (zi_mt *)owner;
    zi_slot *s = Z_NULL;
    zt_u64 kc0 = mt->kc;
    int i;
    (void)t;
    for (i = 0; i < mt->nslot; i++)
        if (mt->slot[i].state == ZI_POSTED &&
            mt->slot[i].k >= mt->kc + (zt_u64)mt->ahead &&
            (s == Z_NULL || mt->slot[i].k < s->k))
            s = mt->slot + i;
    if (s != Z_NULL && s->hint == ZI_NONE)
        s->hint = zi_hint(mt, s);
    if (s == Z_NULL)
        return 0;
    s->state = ZI_RUNNING;
    zt_pool_unlock(mt->pool);
    zi_run(mt, s);
    zt_pool_lock(mt->pool);
    s->state = ZI_DONE;
    {
        unsigned went = (unsigned)(mt->kc - kc0 < 64 ? mt->kc - kc0 : 64);
        unsigned ahead = (unsigned)(mt->ahead + went + 2) / 2;
        mt->ahead = ahead < 2 ? 2 : ahead > (unsigned)mt->nslot ?
                    mt->nslot : (int)ahead;
    }
    zt_pool_post_done(mt->pool);
    return 1;
}

/* ========================================================================
 * The caller's side.
 */

/* The n bytes of output before put (written of them in this call, the
   rest from the window) into to. */
local void zi_history(struct inflate_state FAR *state, const unsigned char *put,
                      unsigned long written, unsigned char *to, unsigned n) {
    unsigned fromwin = n > written ? n - (unsigned)written : 0, i;
    for (i = 0; i < fromwin; i++) {
        unsigned back = fromwin - i;            /* 1.. before the window's end */
        unsigned at = (state->wnext + state->wsize - back) % state->wsize;
        to[i] = state->window[at];
    }
    zmemcpy(to + fromwin, put - (n - fromwin), n - fromwin);
}

/* Writes the chunk's output [from, to) at put. */
local void zi_emit(zi_slot *s, unsigned long from, unsigned long to,
                   unsigned char *put) {
    const unsigned char *map = s->map;
    const unsigned short *sym = s->sym;
    unsigned long n = to < s->nsym ? to : s->nsym;
    for (; from < n; from++)
        *put++ = map[sym[from]];
    if (from < to)
        zmemcpy(put, s->byt + (from - s->nsym), to - from);
}

/* The symbols' bytes: themselves, and for a marker the byte it stands for
   (zero where the history does not reach; no block with such a marker is
   taken). */
local void zi_map(zi_slot *s) {
    unsigned i;
    for (i = 0; i < 256; i++)
        s->map[i] = (unsigned char)i;
    for (i = 1; i <= ZI_WIN; i++)
        s->map[ZI_MARK + i - 1] = i <= s->nhist ? s->hist[s->nhist - i] : 0;
}

local void zi_slot_free(z_streamp strm, zi_slot *s) {
    if (s->in != Z_NULL) ZFREE(strm, s->in);
    if (s->arena != Z_NULL) ZFREE(strm, s->arena);
    if (s->map != Z_NULL) ZFREE(strm, s->map);
    if (s->blk != Z_NULL) ZFREE(strm, s->blk);
    if (s->hist != Z_NULL) ZFREE(strm, s->hist);
    if (s->priv.state != Z_NULL) inflateEnd(&s->priv);
    s->in = s->arena = s->map = s->hist = Z_NULL;
    s->sym = Z_NULL;
    s->blk = Z_NULL;
}

local int zi_alloc(z_streamp strm, zi_slot *s) {
    if (s->in != Z_NULL)
        return 1;
    s->in = (unsigned char *)ZALLOC(strm, ZI_CHUNK + ZI_MARGIN + ZI_PAD, 1);
    s->arena = (unsigned char *)ZALLOC(strm, ZI_OUT + ZI_SLACK, 1);
    s->sym = (unsigned short *)s->arena;
    s->map = (unsigned char *)ZALLOC(strm, ZI_MARK + ZI_WIN, 1);
    s->blk = (zi_block *)ZALLOC(strm, ZI_BLOCKS, sizeof(zi_block));
    s->hist = (unsigned char *)ZALLOC(strm, ZI_WIN, 1);
    if (s->in == Z_NULL || s->arena == Z_NULL || s->map == Z_NULL ||
        s->blk == Z_NULL || s->hist == Z_NULL) {
        zi_slot_free(strm, s);              /* all or nothing */
        return 0;
    }
    s->priv.zalloc = strm->zalloc;
    s->priv.zfree = strm->zfree;
    s->priv.opaque = strm->opaque;
    if (inflateInit2(&s->priv, -15) == Z_OK) {
        struct inflate_state FAR *ps = (struct inflate_state FAR *)s->priv.state;
        ps->zi_auto = 1;                        /* never threads itself */
        /* the window, allocated here on the caller's thread */
        s->privok = inflateSetDictionary(&s->priv, s->hist, 1) == Z_OK;
    }
    return 1;
}


/* Post the workers' chunks ahead of stream offset a whose bytes this call
   holds (a .. a + have, at next), with the lock held. */
local void zi_post(z_streamp strm, zi_mt *mt, zt_u64 a, const unsigned char *next,
                   unsigned long have) {
    zt_u64 k, kc = a >> ZI_CHUNK_BITS, end = a + have;
    int i, posted = 0;

    mt->kc = kc;
    for (k = kc + 2; k < kc + 2 + (zt_u64)mt->nslot; k++) {
        zi_slot *s = Z_NULL;
        zt_u64 base = k << ZI_CHUNK_BITS;
        unsigned long len;
        if (base + ZI_CHUNK > end)
            break;
        for (i = 0; i < mt->nslot; i++)
            if (mt->slot[i].state != ZI_FREE && mt->slot[i].k == k)
                break;
        if (i < mt->nslot)
            continue;
        for (i = 0; i < mt->nslot; i++)
            if (mt->slot[i].state == ZI_FREE) {
                s = mt->slot + i;
                break;
            }
        if (s == Z_NULL || !zi_alloc(strm, s))
            break;
        len = end - base > ZI_CHUNK + ZI_MARGIN ? ZI_CHUNK + ZI_MARGIN :
              (unsigned long)(end - base);
        zmemcpy(s->in, next + (unsigned long)(base - a), len);
        zmemzero(s->in + len, ZI_PAD);
        s->inlen = len;
        s->k = k;
        s->base = base;
        s->found = 0;
        s->nblk = 0;
        s->hint = ZI_NONE;
        s->state = ZI_POSTED;
        posted = 1;
    }
    if (posted)
        zt_pool_post(mt->pool);
}

void ZLIB_INTERNAL inflate_mt_ahead(z_streamp strm, unsigned long used,
                                    unsigned long written) {
    struct inflate_state FAR *state = (struct inflate_state FAR *)strm->state;
    zi_mt *mt = state->zi_mt;
    int i;

    if (mt == Z_NULL) {                         /* ZLIB_TURBO_THREADS */
        int n;
        state->zi_auto = 1;
        n = zt_env_threads();
        if (n < 2 || zt_forks() != 0 || inflate_mt_set(strm, n) != Z_OK)
            return;
        mt = state->zi_mt;
    }
    zt_pool_lock(mt->pool);
    if (zt_pool_lost(mt->pool)) {               /* a child of fork() */
        for (i = 0; i < mt->nslot; i++)
            mt->slot[i].state = ZI_FREE;
        mt->started = 1;
    }
    for (;;) {
        zt_u64 a = mt->abs + used, p = a * 8 - state->bits, yend;
        unsigned long left = strm->avail_out, take, o0, o1, need;
        unsigned nh;
        zi_slot *s = Z_NULL;
        unsigned j, j0 = 0, j1;
        int stored = 1;

            /* drop what lies behind; find a boundary at p */
        for (i = 0; i < mt->nslot; i++) {
            zi_slot *c = mt->slot + i;
            zt_u64 b0 = c->base * 8, x = b0 + c->x;
            if (c->state == ZI_FREE)
                continue;
            if (c->state == ZI_POSTED) {
                if (b0 + (zt_u64)ZI_CHUNK * 8 <= p)
                    c->state = ZI_FREE;
                continue;
            }
            if (c->state == ZI_RUNNING) {
                if (!c->found || x != p)
                    continue;
                while (c->state == ZI_RUNNING)  /* its first block is here */
                    zt_pool_wait(mt->pool);
                if (c->state != ZI_DONE)
                    continue;
            }
            if (c->nblk == 0) {
                if (b0 + (zt_u64)ZI_CHUNK * 8 <= p)
                    c->state = ZI_FREE;
                continue;
            }
            if (b0 + c->blk[c->nblk - 1].end <= p) {
                c->state = ZI_FREE;
                continue;
            }
            if (p == x) {
                s = c;
                j0 = 0;
                break;
            }
            if (p > x)                          /* passed by */
                c->state = ZI_FREE;
        }
        if (s == Z_NULL)
            break;
        zt_pool_unlock(mt->pool);

        /* the output before the chunk, then which blocks fit */
        {
            unsigned long back = written + state->whave;
            nh = back < ZI_WIN ? (unsigned)back : ZI_WIN;
            zi_history(state, strm->next_out, written, s->hist, nh);
            s->nhist = nh;
            zi_map(s);
        }
        o0 = j0 ? s->blk[j0 - 1].out : 0;
        j1 = j0;
        for (j = j0; j < s->nblk; j++) {
            zi_block *bi = s->blk + j;
            zt_u64 endbyte = (s->base * 8 + bi->end + 7) >> 3;
            unsigned long before = j ? s->blk[j - 1].out - o0 : 0;
            if (bi->out - o0 > left || endbyte > a + strm->avail_in ||
                bi->dmax > written + before + state->whave ||
                bi->dback > s->nhist)
                break;
#ifdef INFLATE_STRICT
            if (bi->dmax > state->dmax)
                break;
#endif
            j1 = j + 1;
        }
        if (j1 == j0) {
            zt_pool_lock(mt->pool);
            break;
        }
        /* the input must be what the worker decoded */
        yend = s->base * 8 + s->blk[j1 - 1].end;
        need = (unsigned long)(((yend + 7) >> 3) - a);
        {
            unsigned long off = (unsigned long)(a - s->base);
            int same = zmemcmp(strm->next_in, s->in + off, need) == 0;
            if (same && state->bits)
                same = off > 0 && (unsigned)(s->in[off - 1] >> (8 - state->bits)) ==
                       (unsigned)(state->hold & ((1U << state->bits) - 1));
            if (!same) {
                zt_pool_lock(mt->pool);
                s->state = ZI_FREE;
                continue;
            }
        }
        /* take them */
        o1 = s->blk[j1 - 1].out;
        take = o1 - o0;
        zi_emit(s, o0, o1, strm->next_out);
            strm->next_out += take;
        strm->avail_out -= (uInt)take;
        written += take;
        strm->next_in += need;
        strm->avail_in -= (uInt)need;
        used += need;
        state->bits = (unsigned)(((yend + 7) & ~(zt_u64)7) - yend);
        state->hold = state->bits ?
                      (unsigned long)(strm->next_in[-1] >> (8 - state->bits)) : 0;
        for (j = j0; j < j1; j++)
            if (!(s->blk[j].flags & 2))
                stored = 0;
        if (!stored)
            state->back = -1;
        if (s->blk[j1 - 1].flags & 1)
            state->last = 1;
        state->mode = TYPE;                 /* as after an end-of-block code
                                               (the hook may run in TYPEDO) */
        zt_pool_lock(mt->pool);
        s->state = ZI_FREE;                 /* the rest: the caller's */
        if (state->last)
            break;
    }
    if (!state->last) {
        zt_u64 a = mt->abs + used;
        if (!mt->started &&             /* threads once there is work */
            (((a >> ZI_CHUNK_BITS) + 3) << ZI_CHUNK_BITS) <= a + strm->avail_in) {
            mt->started = 1;
            zt_pool_unlock(mt->pool);
            zt_pool_start(mt->pool, mt->threads - 1);
            zt_pool_lock(mt->pool);
        }
        if (zt_pool_workers(mt->pool) > 0)
            zi_post(strm, mt, a, strm->next_in, strm->avail_in);
    }
    zt_pool_unlock(mt->pool);
}

void ZLIB_INTERNAL inflate_mt_leave(z_streamp strm, unsigned long used) {
    struct inflate_state FAR *state = (struct inflate_state FAR *)strm->state;
    state->zi_mt->abs += used;
}

void ZLIB_INTERNAL inflate_mt_free(z_streamp strm) {
    struct inflate_state FAR *state = (struct inflate_state FAR *)strm->state;
    zi_mt *mt = state->zi_mt;
    int i;
    if (mt == Z_NULL)
        return;
    zt_pool_free(strm, mt->pool);       /* joins the workers */
    if (mt->slot != Z_NULL) {
        for (i = 0; i < mt->nslot; i++)
            zi_slot_free(strm, mt->slot + i);
        ZFREE(strm, mt->slot);
    }
    ZFREE(strm, mt);
    state->zi_mt = Z_NULL;
}

int ZLIB_INTERNAL inflate_mt_set(z_streamp strm, int threads) {
    struct inflate_state FAR *state = (struct inflate_state FAR *)strm->state;
    zi_mt *mt;
    unsigned short lens[320], work[288];
    code *next;
    int i;

    if (state->zi_mt != Z_NULL && state->zi_mt->threads == threads)
        return Z_OK;
    inflate_mt_free(strm);
    if (threads <= 1)
        return Z_OK;
    mt = (zi_mt *)ZALLOC(strm, 1, sizeof(zi_mt));
    if (mt == Z_NULL)
        return Z_MEM_ERROR;
    zmemzero(mt, sizeof(zi_mt));
    mt->threads = threads;
    mt->nslot = 2 * threads + ZI_SLOTS_MORE;
    mt->ahead = 2;
    mt->slot = (zi_slot *)ZALLOC(strm, (unsigned)mt->nslot, sizeof(zi_slot));
    if (mt->slot != Z_NULL)
        zmemzero(mt->slot, (unsigned)mt->nslot * sizeof(zi_slot));
    mt->pool = mt->slot == Z_NULL ? Z_NULL :
               zt_pool_new(strm, threads - 1, zi_task, mt, 0);
    if (mt->pool == Z_NULL) {
        if (mt->slot != Z_NULL) ZFREE(strm, mt->slot);
        ZFREE(strm, mt);
        return Z_MEM_ERROR;
    }
    for (i = 0; i < 64; i++)                    /* two lengths, then four */
        mt->kraft[i] = (unsigned short)((i & 7 ? 128U >> (i & 7) : 0) +
                                        (i >> 3 ? 128U >> (i >> 3) : 0));
    for (i = 4095; i >= 64; i--)
        mt->kraft[i] = (unsigned short)(mt->kraft[i & 63] + mt->kraft[i >> 6]);
    /* the fixed block's tables, by zlib's table builder */
    for (i = 0; i < 144; i++) lens[i] = 8;
    for (; i < 256; i++) lens[i] = 9;
    for (; i < 280; i++) lens[i] = 7;
    for (; i < 288; i++) lens[i] = 8;
    next = mt->fixed;
    mt->flen = next;
    mt->flenbits = 9;
    inflate_table(LENS, lens, 288, &next, &mt->flenbits, work);
    for (i = 0; i < 32; i++) lens[i] = 5;
    mt->fdist = next;
    mt->fdistbits = 5;
    inflate_table(DISTS, lens, 32, &next, &mt->fdistbits, work);
    state->zi_mt = mt;
    return Z_OK;
}

#else /* !ZI_THREADS */

typedef int zi_empty;   /* ISO C: a translation unit declares something */

#endif
