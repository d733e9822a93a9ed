/* opt_match.c -- every useful match at each position, for levels 10 to 12
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * A minimum-cost parse needs, at each position, the shortest distance for
 * every match length, not only the longest match.  The strings starting at
 * the positions of the window are kept in binary search trees, one tree per
 * hash of their first four bytes, ordered by their bytes (and, along any
 * path from the root, by position: a new position becomes the root).
 * Inserting a position walks down from the root, splitting the tree into
 * the strings below and above it; the strings met on the way are the ones
 * that share the longest prefixes with it, so each time the common prefix
 * grows, that length and distance are recorded.  Lengths are recorded
 * increasing, each with the nearest distance met for it; the parse reads a
 * length l's distance as that of the first recorded match of length >= l.
 *
 * A position's two subtrees are kept in slot p mod 2 * wsize: every node
 * the walk reads is within wsize of the new position (older ones end the
 * walk), so no slot it reads has been reused, and the trees take 16 *
 * wsize bytes (512 KiB), not 8 bytes per position of window and segment.
 *
 * The walk stops after a number of nodes (the level's depth), or when a
 * match reaches the level's "nice" length; then the node is replaced by
 * the new position, which takes its two subtrees (the strings are equal
 * that far).  With the config's skip (no level has it since the parse
 * takes long matches a length code at a time; kept for experiments), the
 * positions a nice match covers are inserted with a short walk and get no
 * matches of their own: faster on long runs, 0.1-1.3% larger there.
 *
 * Matches of three bytes come from elsewhere: a hash chain of the
 * positions by their first three bytes (head3, prev3), followed from the
 * newest to the first position that shares the three bytes, which gives
 * the nearest length 3 (recorded when its fourth byte differs; when it
 * does not, the tree's walk meets it first, as the newest string that
 * shares four bytes).  Trees of three bytes gave the same matches (the
 * walk meets the strings of its tree that are newer than every string
 * sorted between them and the new one, whatever the tree holds besides),
 * but each walk also passed the strings that share three bytes and no
 * more: 30-40% of the nodes on text.  The chain's steps are bounded
 * (ZO_CHAIN3): beyond them a length 3 is given up.
 *
 * Z_RLE records only distance 1 (the run of the previous byte), and
 * Z_HUFFMAN_ONLY no match at all.
 */

#include "deflate_opt.h"

#define NIL 0xffffffffUL

local ZT_INLINE zo_u32 hash3(const Bytef *p) {
    zo_u32 v = (zo_u32)p[0] << 16 | (zo_u32)p[1] << 8 | p[2];
    return (zo_u32)((v * 0x9E3779B1UL) & 0xffffffffUL) >> (32 - ZO_HASH3_BITS);
}

local ZT_INLINE zo_u32 hash4(const Bytef *p) {
    zo_u32 v = (zo_u32)p[0] << 24 | (zo_u32)p[1] << 16 | (zo_u32)p[2] << 8 |
               p[3];
    return (zo_u32)((v * 0x9E3779B1UL) & 0xffffffffUL) >> (32 - ZO_HASH_BITS);
}

/* Put p at the head of its three-byte chain; with out, record at out[0]
   the nearest string within span that shares p's first three bytes (found
   within ZO_CHAIN3 steps) if it does not share the fourth: its length is
   3 then.  Return how many were recorded (0 or 1). */
local ZT_INLINE unsigned chain3(zo_ctx *c, zo_u32 p, unsigned maxlen,
                                zo_u32 span, zo_match *out) {
    const Bytef *base = c->base, *in = base + p;
    zo_u32 *h3 = &c->head3[hash3(in)], wm = c->wsize - 1;
    zo_u32 q = *h3, first = q;
    unsigned cnt = 0;
    int k;
    *h3 = p;
    for (k = out != Z_NULL ? ZO_CHAIN3 : 0; k > 0 && p - 1 - q < span; k--) {
        const Bytef *m = base + q;
        if (m[0] == in[0] && m[1] == in[1] && m[2] == in[2]) {
            if (maxlen == 3 || m[3] != in[3]) {
                out->len_dc = (ush)(3 | ZO_DCODE(c, p - 1 - q) << 9);
                out->dist1 = (ush)(p - 1 - q);
                cnt = 1;
            }
            break;
        }
        q = c->prev3[q & wm];
    }
    /* prev3[] is a ring of wsize slots: a slot is reused wsize positions
       later, when its string has left the window (this slot may be the one
       of p - wsize, read above) */
    c->prev3[p & wm] = first;
    return cnt;
}

/* Bytes equal at a[k..], b[k..] from k, up to max. */
local ZT_INLINE unsigned extend(const Bytef *a, const Bytef *b, unsigned k,
                                unsigned max) {
#if defined(ZT_WORD_BYTES) && defined(ZT_LITTLE_ENDIAN) && \
    defined(ZT_HAVE_BITSCAN)
    while (k + ZT_WORD_BYTES <= max) {
        zt_word x = zt_load_word(a + k) ^ zt_load_word(b + k);
        if (x)
            return k + (unsigned)(ZT_CTZ_WORD(x) >> 3);
        k += ZT_WORD_BYTES;
    }
#endif
    while (k < max && a[k] == b[k])
        k++;
    return k;
}

/* Insert position p into its tree; with out, record the matches found
   (increasing lengths) and return how many.  maxlen: bytes left from p
   (at most 258, at least 3).  The side a node joins is chosen by selects,
   not a branch (to the predictor its direction is a coin toss), and the
   two sides' links and shared lengths are four variables, not arrays
   indexed by the side (those went through memory: a store and a reload on
   the walk's chain of dependent loads).  The bytes after those known equal
   are compared a word at a time, and the first unequal byte of the two
   words gives the side without loading it again. */
local unsigned bt_insert(zo_ctx *c, zo_u32 p, unsigned maxlen, unsigned nice,
                         int depth, zo_match *out, unsigned *longest) {
    const Bytef *base = c->base, *in = base + p;
    zo_u32 *child = c->child;
    zo_u32 mask = 2 * c->wsize - 1;     /* the tree's slots: a ring */
    zo_u32 *hp, q;
    zo_u32 span = p > c->wsize ? c->wsize : p;  /* nodes p - span .. p - 1 */
    unsigned best, cnt;
    /* the lesser side (lo) and the greater side (hi): the link to fill
       next and the bytes every string on that side shares with p's */
    zo_u32 *lo, *hi;
    unsigned slo = 0, shi = 0;

    /* a length 3 only if the three-byte string does not go on to four;
       else the walk below records it, with its longer length */
    cnt = chain3(c, p, maxlen, span, out);
    best = cnt ? 3 : 2;
    if (maxlen < 4) {           /* not in any tree: no string follows it */
        *longest = best;
        return cnt;
    }
    hp = &c->head[hash4(in)];
    q = *hp;
    *hp = p;
    lo = &child[2 * (p & mask)];
    hi = lo + 1;
    if (nice > maxlen)
        nice = maxlen;
    for (;;) {
        const Bytef *m;
        zo_u32 *cq, d1 = p - 1 - q;     /* the distance - 1 */
        unsigned len, below;
        if (d1 >= span || depth-- <= 0) {
            *lo = *hi = NIL;
            break;
        }
        m = base + q;
        cq = &child[2 * (q & mask)];
        len = slo < shi ? slo : shi;                    /* equal so far */
        below = 2;                                      /* not known */
#if defined(ZT_WORD_BYTES) && defined(ZT_LITTLE_ENDIAN) && \
    defined(ZT_HAVE_BITSCAN)
        if (len + ZT_WORD_BYTES <= maxlen) {
            zt_word a = zt_load_word(m + len), b = zt_load_word(in + len);
            zt_word x = a ^ b;
            if (x) {
                unsigned sh = (unsigned)ZT_CTZ_WORD(x) & ~7U;
                len += sh >> 3;
                below = (unsigned)(a >> sh & 0xff) <
                        (unsigned)(b >> sh & 0xff);
            } else
                len = extend(m, in, len + ZT_WORD_BYTES, maxlen);
        } else
#endif
            len = extend(m, in, len, maxlen);
        if (len > best) {
            best = len;
            if (out != Z_NULL) {
                out[cnt].len_dc = (ush)(len | ZO_DCODE(c, d1) << 9);
                out[cnt].dist1 = (ush)d1;
                cnt++;
            }
            if (len >= nice) {
                *lo = cq[0];
                *hi = cq[1];
                break;
            }
        }
        /* q's string is less than p's (below) or greater: it joins that
           side, whose next link is then q's greater (lesser) child */
        if (below == 2)
            below = m[len] < in[len];
        *(below ? lo : hi) = q;
        lo = below ? cq + 1 : lo;
        hi = below ? hi : cq;
        slo = below ? len : slo;
        shi = below ? shi : len;
        q = cq[below];
    }
    *longest = best;
    return cnt;
}

/* Runs of the previous byte (Z_RLE): the run at i + 1 is the run at i less
   one byte, unless it was cut at 258 or ended (then it is counted again).
   No run crosses the cut between the parts. */
local void rle_matches(zo_ctx *c) {
    const Bytef *in = c->base + c->hist;
    zo_u32 i, n = c->n, mid = ZO_MID(c), used = 0;
    unsigned run = 0, cut = 1;
    for (i = 0; i < n; i++) {
        zo_u32 e = i < mid ? mid : n;
        unsigned max = e - i > 258 ? 258 : e - i;
        c->moff[i] = used;
        if (i == mid)
            cut = 1;                    /* the run at mid - 1 was cut */
        if (c->hist + i == 0)
            continue;
        if (run > 1 && !cut)
            run--;
        else {
            run = 0;
            while (run < max && in[i + run] == in[(long)i - 1])
                run++;
        }
        if (run > max)
            run = max;
        cut = run == max;
        if (run >= 3) {
            c->cache[used].len_dc = (ush)run;     /* distance code 0 */
            c->cache[used].dist1 = 0;
            used++;
        }
    }
    c->moff[n] = used;
    c->nmatch = used;
}

/* ===========================================================================
 * The matches of part 0 or 1 of segment c, positions [a, e) of it: in the
 * cache from entry 0 (part 0) or ZO_CAP0(mid) (part 1), never past the
 * part's share of it, none reaching past e, where each position's start in
 * moff[a .. e) (part 1 also sets moff[e]).  Part 0's trees start with the
 * window before the segment inserted, as a whole segment's; part 1's with
 * the wsize positions before it, inserted with a quarter of the depth
 * (their matches are not kept, only the trees' shape matters: on text a
 * quarter takes about two thirds of a full insertion's time, for 0.002%
 * more bytes on Calgary; a depth of 8 cost 0.04% on large).
 * Sets *used to the entry after the last and *nlong to the positions with
 * a match of ZO_LONG bytes or more.
 */
void ZLIB_INTERNAL zo_find_part(zo_ctx *c, const zo_config *cf, int part,
                                zo_u32 *pused, zo_u32 *pnlong) {
    zo_u32 mid = ZO_MID(c), a = part ? mid : 0, e = part ? c->n : mid;
    zo_u32 total = c->hist + e, p, nlong = 0, used, lim, w0;
    int wdepth = part ? (cf->depth + 3) / 4 : cf->depth;
    unsigned long i;

    used = part ? ZO_CAP0(mid) : 0;
    lim = part || mid == c->n ? ZO_CACHE : ZO_CAP0(mid);
    for (i = 0; i < ZO_HASH_SIZE; i++)
        c->head[i] = NIL;
    for (i = 0; i < ZO_HASH3_SIZE; i++)
        c->head3[i] = NIL;
    /* the window before the part: inserted, no matches kept */
    w0 = c->hist + a > c->wsize ? c->hist + a - c->wsize : 0;
    if (!part)
        w0 = 0;
    for (p = w0; p + 3 <= c->hist + a; p++) {
        unsigned longest, max = total - p > 258 ? 258 : total - p;
        bt_insert(c, p, max, cf->nice, wdepth, Z_NULL, &longest);
    }
    for (p = c->hist + a; p < total; p++) {
        unsigned longest, max = total - p > 258 ? 258 : total - p, k;
        zo_u32 i0 = p - c->hist;
        c->moff[i0] = used;
        if (max < 3)
            continue;
        if (used + 260 > lim) {         /* cache full: no more matches */
            bt_insert(c, p, max, cf->nice, cf->depth, Z_NULL, &longest);
            continue;
        }
        k = bt_insert(c, p, max, cf->nice, cf->depth, c->cache + used,
                      &longest);
        used += k;
        if (longest >= ZO_LONG)
            nlong++;
        if (cf->skip && longest >= (unsigned)cf->nice) {
            /* inside a nice match: insert only */
            zo_u32 end = p + longest;
            for (p++; p < end; p++) {
                unsigned lg, mx = total - p > 258 ? 258 : total - p;
                c->moff[p - c->hist] = used;
                if (mx >= 3)
                    bt_insert(c, p, mx, cf->nice, 4, Z_NULL, &lg);
            }
            p--;
        }
    }
    if (e == c->n)
        c->moff[e] = used;
    *pused = used;
    *pnlong = nlong;
}

/* ===========================================================================
 * Fill c->cache with the matches of every segment position, c->moff with
 * where each position's matches start: part 1 offered to another thread
 * while this one finds part 0's, then moved down after part 0's.
 */
void ZLIB_INTERNAL zo_find_matches(zo_ctx *c, const zo_config *cf) {
    zo_u32 mid = ZO_MID(c), used, nlong;

    c->nmatch = 0;
    c->longm = 0;
    if (c->strategy == Z_HUFFMAN_ONLY) {
        zmemzero(c->moff, (c->n + 1) * sizeof(zo_u32));
        return;
    }
    if (c->strategy == Z_RLE) {
        rle_matches(c);
        return;
    }
    if (mid < c->n)
        zo_part_begin(c, ZO_PART_FIND);
    zo_find_part(c, cf, 0, &used, &nlong);
    if (mid < c->n) {
        zo_u32 from = ZO_CAP0(mid), n1, d, i;
        zo_part_end(c);
        n1 = c->part->used - from;
        d = from - used;
        zo_move(c->cache + used, c->cache + from, n1 * sizeof(zo_match));
        for (i = mid; i <= c->n; i++)
            c->moff[i] -= d;
        used += n1;
        nlong += c->part->nlong;
    }
    c->nmatch = used;
    c->longm = nlong >= (c->n >> 4);
}
