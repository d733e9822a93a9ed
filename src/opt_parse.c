/* opt_parse.c -- the iterated minimum-cost parse of levels 10 to 12
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * A segment is compressed in four steps:
 *
 * 1. Statistics to start from: a sweep over pieces of 4 KiB, each parsed
 *    alone and priced by the frequencies of the piece before it (the
 *    first by a greedy parse's: the longest match at each position).
 * 2. Whole-segment passes: each symbol is priced at its entropy under the
 *    last frequencies (-log2 of its share, in 1/16 bit, at least one bit),
 *    the cheapest parse under those prices is found by dynamic
 *    programming backwards over the positions (cost[i] is the least of the
 *    literal plus cost[i + 1] and of every length l of every match at i
 *    plus cost[i + l]), and its frequencies price the next pass.
 *    Fractional prices matter: passes priced with Huffman code lengths
 *    settle 0.1-0.4% larger (TECHNIQUES.md).
 * 3. Block boundaries: the last parse's items are cut into candidate
 *    pieces, and dynamic programming over the pieces picks the boundaries
 *    that minimise the estimated size of all blocks (entropy of each
 *    block's symbols plus its extra bits plus an estimate of its header).
 * 4. Block passes: each block's own statistics price the positions inside
 *    it for another parse (entropy prices, and in the last pass the block's
 *    real Huffman code lengths); blocks are re-formed from where the items
 *    now start and sized exactly (opt_huff.c).  The smallest result seen in
 *    step 4 is kept; if it is larger than the segment stored, the segment
 *    is stored.
 *
 * Costs are integers, ties go to the first candidate (the literal, then
 * the shorter length), so the result depends only on the segment's bytes,
 * the window before it and the level and strategy.  Symbols the last parse
 * did not use are priced as if seen half a time (entropy) or one bit
 * longer than the longest code (Huffman), so a later pass can still try
 * them.
 */

#include "deflate_opt.h"

#define SCALE 16

/* In the builds that ask for SIMD (./configure --simd or --simd=auto; SSE2
   is part of every x86-64), the parse compares four lengths at a time with
   SSE2: the same integer costs and the same choices as the scalar loop of
   the default build, which has no SIMD. */
#if defined(__SSE2__) && !defined(ZO_NO_SSE2) && \
    (defined(Z_TURBO_SIMD) || defined(Z_TURBO_SIMD_AUTO))
#  include <emmintrin.h>
#  define ZO_SSE2
#  ifndef ZO_SSE2_MIN
#    define ZO_SSE2_MIN 12      /* the longest match at least this long */
#  endif
#endif

/* depth, nice, skip, whole-segment passes, block passes, boundaries:
   chosen by size and time over the corpus (TECHNIQUES.md).  Since long
   matches are parsed a length code at a time, searching inside them costs
   little, and no level skips (the field stays for experiments). */
local const zo_config configs[3] = {
    {64, 258, 0, 1, 1, 128},
    {96, 258, 0, 1, 2, 128},
    {160, 258, 0, 3, 2, 128}
};

#ifdef ZO_TUNE                  /* experiments: ZO_CF=depth,nice,skip,... */
#include <stdio.h>
#include <stdlib.h>
local zo_config tune;
#endif
ZLIB_INTERNAL const zo_config *zo_config_of(int level) {
#ifdef ZO_TUNE
    const char *e = getenv("ZO_CF");
    if (e) {
        sscanf(e, "%d,%d,%d,%d,%d,%d", &tune.depth, &tune.nice,
               &tune.skip, &tune.passes, &tune.block_passes, &tune.cand);
        return &tune;
    }
#endif
    return &configs[level - ZO_MIN_LEVEL];
}

/* ===========================================================================
 * Prices from frequencies: each symbol's Huffman code length, plus extra
 * bits.
 */
local void costs_from_freqs(zo_costs *k, const zo_u32 *llf,
                            const zo_u32 *df) {
    uch ll[ZO_NLL], dl[ZO_NDIST];
    int i, lmax = 0, dmax = 0;
    unsigned l;

    zo_huff_lengths(llf, 286, 15, ll);
    zo_huff_lengths(df, 30, 15, dl);
    for (i = 0; i < 286; i++)
        if (ll[i] > lmax) lmax = ll[i];
    for (i = 0; i < 30; i++)
        if (dl[i] > dmax) dmax = dl[i];
    lmax = lmax < 15 ? lmax + 1 : 15;
    dmax = dmax < 15 ? dmax + 1 : 15;
    for (i = 0; i < 256; i++)
        k->lit[i] = (ll[i] ? ll[i] : lmax) * SCALE;
    for (l = 3; l <= 258; l++) {
        int lc = zo_len_code(l);
        k->len[l] = ((ll[257 + lc] ? ll[257 + lc] : lmax) +
                     zo_len_extra[lc]) * SCALE;
    }
    k->len[0] = k->len[1] = k->len[2] = 0;
    k->len[259] = k->len[260] = k->len[261] = 0;    /* read, not used */
    for (i = 0; i < 30; i++)
        k->dist[i] = ((dl[i] ? dl[i] : dmax) + zo_dist_extra[i]) * SCALE;
}

/* Prices of the fixed codes (Z_FIXED). */
local void costs_fixed(zo_costs *k) {
    int i;
    unsigned l;
    for (i = 0; i < 256; i++)
        k->lit[i] = (i < 144 ? 8 : 9) * SCALE;
    for (l = 3; l <= 258; l++) {
        int lc = zo_len_code(l);
        k->len[l] = ((lc < 23 ? 7 : 8) + zo_len_extra[lc]) * SCALE;
    }
    k->len[0] = k->len[1] = k->len[2] = 0;
    k->len[259] = k->len[260] = k->len[261] = 0;    /* read, not used */
    for (i = 0; i < 30; i++)
        k->dist[i] = (5 + zo_dist_extra[i]) * SCALE;
}

/* Prices from frequencies as entropy: -log2(f / total), fractional. */
local zo_u32 lg2(const zo_ctx *c, zo_u32 x);
local zt_u64 flg2(const zo_ctx *c, zo_u32 f);
local void costs_entropy(const zo_ctx *c, zo_costs *k, const zo_u32 *llf,
                         const zo_u32 *df) {
    zo_u32 tl = 0, td = 0, lt, ldt, cl[ZO_NLL], cd[ZO_NDIST];
    int i;
    unsigned l;
    for (i = 0; i < 286; i++) tl += llf[i];
    for (i = 0; i < 30; i++) td += df[i];
    lt = lg2(c, tl + 1);
    ldt = lg2(c, td + 1);
    for (i = 0; i < 286; i++)
        cl[i] = llf[i] ? (lt - lg2(c, llf[i])) >> 12 : (lt >> 12) + SCALE;
    for (i = 0; i < 30; i++)
        cd[i] = df[i] ? (ldt - lg2(c, df[i])) >> 12 : (ldt >> 12) + SCALE;
    for (i = 0; i < 256; i++)
        k->lit[i] = cl[i] < SCALE ? SCALE : cl[i];
    for (l = 3; l <= 258; l++) {
        int lc = zo_len_code(l);
        k->len[l] = (cl[257 + lc] < SCALE ? SCALE : cl[257 + lc]) + zo_len_extra[lc] * SCALE;
    }
    k->len[0] = k->len[1] = k->len[2] = 0;
    k->len[259] = k->len[260] = k->len[261] = 0;    /* read, not used */
    for (i = 0; i < 30; i++)
        k->dist[i] = (cd[i] < SCALE ? SCALE : cd[i]) + zo_dist_extra[i] * SCALE;
}

/* ===========================================================================
 * Frequencies of the greedy parse: the longest match wherever there is one.
 */
local void greedy_freqs(zo_ctx *c, zo_u32 *llf, zo_u32 *df, int all) {
    const Bytef *in = c->base + c->hist;
    zo_u32 i, skip = 0;
    zmemzero(llf, ZO_NLL * sizeof(zo_u32));
    zmemzero(df, ZO_NDIST * sizeof(zo_u32));
    for (i = 0; i < c->n; i++) {
        zo_u32 next = c->moff[i + 1];
        if (i >= skip) {
            if (next != c->moff[i]) {
                const zo_match *m = c->cache + next - 1;
                llf[257 + c->lcode[ZO_MLEN(*m)]]++;
                df[ZO_MDC(*m)]++;
                skip = i + ZO_MLEN(*m);
                if (all)
                    llf[in[i]]++;
            } else
                llf[in[i]]++;
        } else if (all)
            llf[in[i]]++;
    }
    llf[ZO_EOB]++;
}

/* ===========================================================================
 * The minima over win (or the sweep's keys) for the long matches' loops: the
 * lengths of one length code cost the same, so the least key over them is
 * the least of w[l] over those l, plus the code's price.  Level t holds at
 * w[t * ZO_LVL_N] the least of w[0 .. 2^t - 1]; any run of s lengths,
 * 2^t <= s < 2^(t + 1), is then covered by two of them.
 */
#define ZO_LV_FROM 19   /* lengths below: one code each or two lengths */

/* zo_rlog[s - 1]: the t with 2^t <= s < 2^(t + 1), for the s <= 32 lengths
   of a length code */
local const uch zo_rlog[32] = {
    0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5
};

/* The minima from w, once w[0 .. 31] and their minima are known. */
local ZT_INLINE void minima(zt_u64 *w) {
    zt_u64 a = w[0], y = w[1];
    a = y < a ? y : a;
    w[ZO_LVL_N] = a;
    y = w[ZO_LVL_N + 2];
    a = y < a ? y : a;
    w[2 * ZO_LVL_N] = a;
    y = w[2 * ZO_LVL_N + 4];
    a = y < a ? y : a;
    w[3 * ZO_LVL_N] = a;
    y = w[3 * ZO_LVL_N + 8];
    a = y < a ? y : a;
    w[4 * ZO_LVL_N] = a;
    y = w[4 * ZO_LVL_N + 16];
    a = y < a ? y : a;
    w[5 * ZO_LVL_N] = a;
}

/* All ones at positions from..ZO_LVL_N - 1 of every level: read by
   minima() above the last position, never chosen. */
local void minima_top(zt_u64 *win, zo_u32 from) {
    int t;
    zo_u32 p;
    for (t = 0; t <= ZO_NLV; t++)
        for (p = from; p < ZO_LVL_N; p++)
            win[t * ZO_LVL_N + p] = ~(zt_u64)0;
}

/* a0 = the least of itself and of every w[l] + len64[l], l in ll .. len,
   for the lengths of one match (ll >= 3, the first not yet taken): four
   at a time, or, with codes (the minima are kept), those below ZO_LV_FROM
   four at a time and the rest a code at a time. */
#define ZO_LENS_MIN(w, len64, ll, len, a0, codes) do { \
        if (!(codes) || len < ZO_LV_FROM) \
            ZO_LANES4(w, len64, ll, len, a0); \
        else { \
            zt_u64 x_, y_; \
            unsigned ca_, cb_, cc_; \
            z_size_t e_; \
            if (ll < ZO_LV_FROM) \
                ZO_LANES4(w, len64, ll, (z_size_t)ZO_LV_FROM - 1, a0); \
            ca_ = lcode[ll]; \
            cb_ = lcode[len]; \
            e_ = ca_ == cb_ ? len : (z_size_t)lnext[ll] - 1; \
            ZO_RMIN(w, len64, ll, e_, a0); \
            for (cc_ = ca_ + 1; cc_ < cb_; cc_++) { \
                x_ = w[lvq[cc_].o1]; \
                y_ = w[lvq[cc_].o2]; \
                x_ = y_ < x_ ? y_ : x_; \
                x_ += len64[lvq[cc_].lo]; \
                a0 = x_ < a0 ? x_ : a0; \
            } \
            if (ca_ != cb_) \
                ZO_RMIN(w, len64, (z_size_t)lvq[cb_].lo, len, a0); \
            ll = len + 1; \
        } \
    } while (0)
/* a0 = the least of itself and of w[l] + len64[l], l in ll .. e (ll <= e),
   four at a time: the lanes past e are made all ones, never the least
   (w[] and len64[] are readable three past e); leaves ll = e + 1 */
#define ZO_LANES4(w, len64, ll, e, a0) do { \
        zt_u64 u0_, u1_, u2_, u3_; \
        do { \
            u0_ = w[ll] + len64[ll]; \
            u1_ = (w[ll + 1] + len64[ll + 1]) | \
                  ((zt_u64)0 - (zt_u64)(ll + 1 > (e))); \
            u2_ = (w[ll + 2] + len64[ll + 2]) | \
                  ((zt_u64)0 - (zt_u64)(ll + 2 > (e))); \
            u3_ = (w[ll + 3] + len64[ll + 3]) | \
                  ((zt_u64)0 - (zt_u64)(ll + 3 > (e))); \
            u0_ = u1_ < u0_ ? u1_ : u0_; \
            u2_ = u3_ < u2_ ? u3_ : u2_; \
            u0_ = u2_ < u0_ ? u2_ : u0_; \
            a0 = u0_ < a0 ? u0_ : a0; \
        } while ((ll += 4) <= (e)); \
        ll = (e) + 1; \
    } while (0)
/* the same for lengths a .. e of one code */
#define ZO_RMIN(w, len64, a, e, a0) do { \
        unsigned t_ = zo_rlog[(e) - (a)]; \
        const zt_u64 *q_ = w + (z_size_t)t_ * ZO_LVL_N; \
        zt_u64 u_ = q_[a], v_ = q_[(e) + 1 - ((z_size_t)1 << t_)]; \
        u_ = v_ < u_ ? v_ : u_; \
        u_ += len64[a]; \
        a0 = u_ < a0 ? u_ : a0; \
    } while (0)

/* ===========================================================================
 * Frequencies to start from, by a sweep: the segment is cut into pieces of
 * ZO_SWEEP_MAX positions, and each piece in turn, from the first, gets its
 * cheapest parse alone (matches cut at its end), priced by the entropy of
 * the frequencies of the piece before it (the first piece's by the greedy
 * parse's).  A piece's counts are small, so what one parse uses little
 * the next prices dear and uses less: the sweep settles on fewer length
 * and distance symbols, each cheaper, where whole-segment passes from the
 * greedy statistics drift there only slowly or never (TECHNIQUES.md).
 * Leaves the last piece's frequencies in llf, df; uses c->win and c->items
 * as scratch.
 *
 * A key is cost << ZO_SWK | the position it reaches from the piece's
 * start, so the least is the least cost, then the literal, then the
 * shortest length, as in the parse.
 */
#define ZO_SWK 17
#define ZO_SWLOW (((zt_u64)1 << ZO_SWK) - 1)
local ZT_INLINE void sweep_body(zo_ctx *c, zo_u32 *llf, zo_u32 *df,
                                int longm) {
    const Bytef *in = c->base + c->hist;
    const zo_match *cache = c->cache;
    const zo_u32 *moff = c->moff;
    const ush *lnext = c->lnext;
    const uch *lcode = c->lcode;
    const zo_lvq *lvq = c->lvq;
    zt_u64 *ck = c->win;        /* the keys from the piece's positions,
                                   then their minima */
    zo_item *ch = c->items;     /* the length chosen at each position */
    zo_costs *k = &c->costs[0];
    zt_u64 lk[262], litk[256], dk[30];  /* lk[259..261]: read, not used */
    zo_u32 lo, hi, i;
    unsigned s;

    greedy_freqs(c, llf, df, 0);
    for (lo = 0; lo < c->n; lo = hi) {
        hi = c->n - lo > ZO_SWEEP_MAX ? lo + ZO_SWEEP_MAX : c->n;
        costs_entropy(c, k, llf, df);
        for (s = 0; s < 256; s++)
            litk[s] = (zt_u64)k->lit[s] << ZO_SWK;
        for (s = 3; s < 262; s++)
            lk[s] = (zt_u64)k->len[s] << ZO_SWK;
        for (s = 0; s < 30; s++)
            dk[s] = (zt_u64)k->dist[s] << ZO_SWK;
        if (longm)
            minima_top(ck, hi - lo + 1);
        ck[hi - lo] = hi - lo;  /* ck[p - lo] for positions p of the piece */
        ck[hi - lo + 1] = ck[hi - lo + 2] = ck[hi - lo + 3] = ~(zt_u64)0;
                                /* read by ZO_LANES4's lanes, never chosen */
        for (i = hi; i-- > lo; ) {
            zo_u32 p = i - lo;
            zt_u64 *w = ck + p;
            zt_u64 key = litk[in[i]] + w[1];
            const zo_match *m = cache + moff[i], *mend = cache + moff[i + 1];
            z_size_t ll = 3, lim = hi - i;
            for (; m < mend && ll <= lim; m++) {
                z_size_t len = ZO_MLEN(*m);
                zt_u64 a0 = ~(zt_u64)0;
                if (len > lim)
                    len = lim;
                ZO_LENS_MIN(w, lk, ll, len, a0, longm);
                a0 += dk[ZO_MDC(*m)];
                key = a0 < key ? a0 : key;
            }
            ch[i].v = (zo_u32)(key & ZO_SWLOW) - p;
            *w = (key & ~ZO_SWLOW) | p;
            if (longm)
                minima(w);
        }
        zmemzero(llf, ZO_NLL * sizeof(zo_u32));
        zmemzero(df, ZO_NDIST * sizeof(zo_u32));
        for (i = lo; i < hi; ) {
            zo_u32 v = ch[i].v;
            if (v == 1)
                llf[in[i++]]++;
            else {
                const zo_match *m = cache + moff[i];
                while (ZO_MLEN(*m) < v)
                    m++;
                llf[257 + lcode[v]]++;
                df[ZO_MDC(*m)]++;
                i += v;
            }
        }
        llf[ZO_EOB]++;
    }
}

/* Two copies of the sweep, as of the parse (c->longm). */
local void sweep_freqs(zo_ctx *c, zo_u32 *llf, zo_u32 *df) {
    if (c->longm)
        sweep_body(c, llf, df, 1);
    else
        sweep_body(c, llf, df, 0);
}

/* The statistics to start from: the sweep's (a -DZO_TUNE build takes the
   greedy parse's with ZO_SWP=0, to compare). */
local void start_freqs(zo_ctx *c, zo_u32 *llf, zo_u32 *df) {
#ifdef ZO_TUNE
    if (getenv("ZO_SWP") && atoi(getenv("ZO_SWP")) == 0) {
        greedy_freqs(c, llf, df, 0);
        return;
    }
#endif
    sweep_freqs(c, llf, df);
}

/* The whole-segment passes from the frequencies in llf, df: each parse is
   priced by the last one's; leaves the last parse's frequencies there. */
local void parse(zo_ctx *c, const zo_costs *k, const zo_u32 *starts, int nb);
local void passes(zo_ctx *c, const zo_config *cf, zo_u32 *llf, zo_u32 *df) {
    int pass;
    for (pass = 0; pass < cf->passes; pass++) {
        costs_entropy(c, &c->costs[0], llf, df);
        parse(c, c->costs, Z_NULL, 1);
        zo_block_freqs(c, c->items, c->nitems, llf, df);
    }
}

/* The segment's bytes as literals alone, estimated from their entropy,
   in bits * 65536, with the end of block and a header of 72 bits and 4 per
   byte value used (as est_bits() counts a block's). */
local zt_u64 literal_bits(const zo_ctx *c) {
    const Bytef *in = c->base + c->hist;
    zo_u32 f[256], i, nu = 0;
    zt_u64 sum = 0;
    zmemzero(f, sizeof(f));
    for (i = 0; i < c->n; i++)
        f[in[i]]++;
    for (i = 0; i < 256; i++) {
        sum += flg2(c, f[i]);
        nu += f[i] != 0;
    }
    return (zt_u64)(c->n + 1) * lg2(c, c->n + 1) - sum +
           ((zt_u64)(72 + 4 * (nu + 1)) << 16);
}

/* The exact size of the segment as one block with the frequencies llf, df
   (those of c->items). */
local zo_u32 one_block_bits(zo_ctx *c, const zo_u32 *llf, const zo_u32 *df) {
    zo_block t;
    t.len = c->n;
    zo_block_finish(&t, llf, df, c->strategy);
    return t.bits;
}
/* ===========================================================================
 * The cheapest parse of the segment: positions from starts[b] on (up to
 * starts[b + 1]) are priced with k[b], for b < nb.  Leaves the items in
 * c->items[0 .. c->nitems - 1].
 *
 * Each candidate at i is one 64-bit key, cost << ZO_PB | the position it
 * reaches (i + length; 0 for the literal).  A position's matches cover
 * increasing lengths, so the least key is the least cost, then the first
 * match, then the shortest length: the choice of "<" over the candidates
 * in turn, the literal first.  The least cost from each later position is
 * kept in the same form (c->win, a window of ZO_WIN positions), so a
 * length costs two loads, an add and a minimum, taken four lengths at a
 * time with the lanes past the match's end made all ones (ZO_LANES4: the
 * loop ends once per match, not at a length the predictor cannot know; the
 * distance's price is added once); the prices are shifted to the cost
 * field once per block (c->k64).  from[i] is the position the
 * choice reaches; the walk forward finds its match again.
 *
 * Where the segment has many long matches (c->longm), the window also
 * keeps the minima over 2, 4, .. 32 positions (minima()), and a match of
 * ZO_LV_FROM bytes or more is taken a length code at a time (ZO_LENS_MIN):
 * the least key over a code's lengths is the least of two minima plus the
 * code's price, the same key as length by length, in about 29 steps for a
 * 258-byte match instead of 256.
 */
#define ZO_PB (ZO_SEG_BITS + 1)         /* a position: 0 .. ZO_SEG */

#define ZO_LOW (((zt_u64)1 << ZO_PB) - 1)

local ZT_INLINE void parse_body(zo_ctx *c, const zo_costs *k,
                                const zo_u32 *starts, int nb, zo_u32 a,
                                zo_u32 n, int longm) {
    const Bytef *in = c->base + c->hist;
    const zo_match *cache = c->cache;
    const zo_u32 *moff = c->moff;
    zt_u64 *win = c->win;
    zt_u64 *lit64 = c->k64, *len64 = c->k64 + 256, *dist64 = c->k64 + 518;
    zo_u32 *from = c->from;
    const ush *lnext = c->lnext;
    const uch *lcode = c->lcode;
    const zo_lvq *lvq = c->lvq;
    zo_u32 i, pos, cnt, wbase;
    int b;
#ifdef ZO_SSE2
    zo_u32 *cost = c->cost;     /* the same costs, 32 bits, for the lanes */
#endif

    /* win[p - wbase] for positions p in [wbase, wbase + ZO_WIN) */
    wbase = n + 4 > ZO_WIN ? n + 4 - ZO_WIN : 0;
    win[n - wbase] = n;
    /* read by the lanes past a match's end, never chosen */
    win[n + 1 - wbase] = win[n + 2 - wbase] = win[n + 3 - wbase] = ~(zt_u64)0;
    if (longm)
        minima_top(win, n + 1 - wbase);
#ifdef ZO_SSE2
    cost[n - wbase] = 0;
    cost[n + 1 - wbase] = cost[n + 2 - wbase] = cost[n + 3 - wbase] = 0;
#endif
    i = n;
    for (b = nb - 1; b >= 0; b--) {
        const zo_costs *ks = k + b;
        zo_u32 lo = b > 0 && starts[b] > a ? starts[b] : a;
        unsigned s;
        if (i <= lo)
            continue;
        for (s = 0; s < 256; s++)
            lit64[s] = (zt_u64)ks->lit[s] << ZO_PB;
        for (s = 0; s < 262; s++)
            len64[s] = (zt_u64)ks->len[s] << ZO_PB;
        for (s = 0; s < 30; s++)
            dist64[s] = (zt_u64)ks->dist[s] << ZO_PB;
        while (i > lo) {
            zo_u32 stop, hi;
            zt_u64 *w;
            if (i == wbase) {
                /* slide: keep positions i .. i + ZO_WKEEP - 1 (those that
                   exist), at the window's top */
                zo_u32 top = i + ZO_WKEEP, nw, keep;
                nw = top > ZO_WIN ? top - ZO_WIN : 0;
                keep = n + 1 - i < ZO_WKEEP ? n + 1 - i : ZO_WKEEP;
                zo_move(win + (i - nw), win, keep * sizeof(zt_u64));
                if (longm) {
                    int t;
                    for (t = 1; t <= ZO_NLV; t++)
                        zo_move(win + t * ZO_LVL_N + (i - nw),
                                win + t * ZO_LVL_N, keep * sizeof(zt_u64));
                }
#ifdef ZO_SSE2
                keep = n + 4 - i < ZO_WKEEP ? n + 4 - i : ZO_WKEEP;
                zo_move(cost + (i - nw), cost, keep * sizeof(zo_u32));
#endif
                wbase = nw;
            }
            stop = lo > wbase ? lo : wbase;
            w = win + (i - wbase);      /* w[l]: position i + l */
            hi = moff[i];
            while (i > stop) {
                zt_u64 key;
                zo_u32 mo;
                i--;
                w--;
                mo = moff[i];
                key = (w[1] & ~ZO_LOW) + lit64[in[i]];
                if (mo != hi) {
                    const zo_match *m = cache + mo, *mend = cache + hi;
#ifdef ZO_SSE2
                    if (!longm && ZO_MLEN(mend[-1]) >= ZO_SSE2_MIN) {
                        /* four lengths at a time: each lane keeps its
                           least cost and the first (match, length) that
                           has it; then the least (cost, length) over the
                           lanes wins, the same choice as the scalar loop */
                        const zo_u32 *lc = ks->len, *ci = cost + (w - win);
                        const __m128i iota = _mm_setr_epi32(0, 1, 2, 3);
                        const __m128i four = _mm_set1_epi32(4);
                        __m128i vmin = _mm_set1_epi32(0x7fffffff);
                        __m128i vbl = _mm_setzero_si128();
                        zo_u32 cv[4], ls[4];
                        zt_u64 x;
                        unsigned l = 3;
                        int t;
                        for (; m < mend; m++) {
                            unsigned len = ZO_MLEN(*m);
                            __m128i vdc = _mm_set1_epi32(
                                (int)ks->dist[ZO_MDC(*m)]);
                            __m128i vl = _mm_add_epi32(
                                _mm_set1_epi32((int)l), iota);
                            __m128i v, lt;
                            for (; l + 3 <= len; l += 4) {
                                v = _mm_add_epi32(_mm_add_epi32(
                                    _mm_loadu_si128((const __m128i *)(lc + l)),
                                    _mm_loadu_si128((const __m128i *)(ci + l))),
                                    vdc);
                                lt = _mm_cmpgt_epi32(vmin, v);
                                vmin = _mm_or_si128(_mm_and_si128(lt, v),
                                                    _mm_andnot_si128(lt, vmin));
                                vbl = _mm_or_si128(_mm_and_si128(lt, vl),
                                                   _mm_andnot_si128(lt, vbl));
                                vl = _mm_add_epi32(vl, four);
                            }
                            if (l <= len) { /* lanes beyond len: 2^31 - 1 */
                                v = _mm_add_epi32(_mm_add_epi32(
                                    _mm_loadu_si128((const __m128i *)(lc + l)),
                                    _mm_loadu_si128((const __m128i *)(ci + l))),
                                    vdc);
                                v = _mm_or_si128(v, _mm_srli_epi32(
                                    _mm_cmpgt_epi32(vl, _mm_set1_epi32(
                                        (int)len)), 1));
                                lt = _mm_cmpgt_epi32(vmin, v);
                                vmin = _mm_or_si128(_mm_and_si128(lt, v),
                                                    _mm_andnot_si128(lt, vmin));
                                vbl = _mm_or_si128(_mm_and_si128(lt, vl),
                                                   _mm_andnot_si128(lt, vbl));
                                l = len + 1;
                            }
                        }
                        _mm_storeu_si128((__m128i *)cv, vmin);
                        _mm_storeu_si128((__m128i *)ls, vbl);
                        for (t = 0; t < 4; t++) {
                            if (ls[t] == 0)     /* a lane with no length */
                                continue;
                            x = (zt_u64)cv[t] << ZO_PB | (i + ls[t]);
                            key = x < key ? x : key;
                        }
                    } else
#endif
                    {
                        /* every match covers one length at least; with
                           longm, a long one is taken a code at a time */
                        z_size_t ll = 3;
                        do {
                            unsigned v = m->len_dc;
                            z_size_t len = v & 0x1ff;
                            zt_u64 a0 = ~(zt_u64)0;
                            ZO_LENS_MIN(w, len64, ll, len, a0, longm);
                            a0 += dist64[v >> 9];
                            key = a0 < key ? a0 : key;
                        } while (++m < mend);
                    }
                }
                hi = mo;
                from[i] = (zo_u32)(key & ZO_LOW);
                *w = (key & ~ZO_LOW) | i;
#ifdef ZO_SSE2
                cost[w - win] = (zo_u32)(key >> ZO_PB);
#endif
                if (longm)
                    minima(w);
            }
        }
    }
    /* the items, walking forward: the match whose lengths hold the chosen
       one */
    cnt = 0;
    for (pos = a; pos < n; cnt++) {
        zo_u32 f = from[pos];
        zo_item it;
        if (f == 0) {
            it.v = ZO_ITEM(in[pos], 0);
            pos++;
        } else {
            const zo_match *m = cache + moff[pos];
            f -= pos;
            while (ZO_MLEN(*m) < f)
                m++;
            it.v = ZO_ITEM(f, m->dist1 + 1);
            pos += f;
        }
        c->items[cnt] = it;
    }
    c->nitems = cnt;
}

/* Two copies of the parse of positions [a, e): with and without the loop
   for long matches, which costs text a test per position (c->longm:
   zo_find_matches()).  No match crosses a or e, so the cheapest parse of
   [a, e) is the same as part of a whole segment's or alone. */
local void parse_range(zo_ctx *c, const zo_costs *k, const zo_u32 *starts,
                       int nb, zo_u32 a, zo_u32 e) {
    if (c->longm)
        parse_body(c, k, starts, nb, a, e, 1);
    else
        parse_body(c, k, starts, nb, a, e, 0);
}

/* The parse of the segment under prices k (k[b] for the positions from
   starts[b], b < nb; starts Z_NULL when nb is 1): part 1 offered to
   another thread while this one parses part 0, its items then moved
   after part 0's. */
local void parse(zo_ctx *c, const zo_costs *k, const zo_u32 *starts, int nb) {
    zo_u32 mid = ZO_MID(c), n0;
    if (mid == c->n) {
        parse_range(c, k, starts, nb, 0, c->n);
        return;
    }
    c->part->k = k;
    c->part->starts = starts;
    c->part->nb = nb;
    zo_part_begin(c, ZO_PART_PARSE);
    parse_range(c, k, starts, nb, 0, mid);
    n0 = c->nitems;
    zo_part_end(c);
    zo_move(c->items + n0, c->items + mid,
            c->part->w.nitems * sizeof(zo_item));
    c->nitems = n0 + c->part->w.nitems;
}

local void est_rows(const zo_ctx *c, const zo_split *sp, int j0, int j1);
local void finish_blocks(zo_ctx *c, int b0, int b1, int kmode);

/* ===========================================================================
 * Part 1 of a step, in turn with part 0 or beside it: zo_part_begin()
 * copies the context into c->part (for the parse, with items from
 * ZO_MID(c)) and offers it to the stream's threads; zo_part_end() returns
 * once it has run, here if no other thread took it.  zo_part_run() runs it
 * with the scratch arrays of context t: the trees, the window and from[]
 * are written before they are read, so any context's give the same.
 */
void ZLIB_INTERNAL zo_part_begin(zo_ctx *c, int kind) {
    zo_part *p = c->part;
    p->kind = kind;
    p->w = *c;
    if (kind == ZO_PART_PARSE)
        p->w.items = c->items + ZO_MID(c);
    if (c->offer != Z_NULL)
        c->offer(c);
}

void ZLIB_INTERNAL zo_part_end(zo_ctx *c) {
    if (c->finish != Z_NULL)
        c->finish(c);
    else
        zo_part_run(c->part, c);
}

void ZLIB_INTERNAL zo_part_run(zo_part *p, zo_ctx *t) {
    zo_ctx *w = &p->w;
    w->head = t->head;
    w->head3 = t->head3;
    w->prev3 = t->prev3;
    w->child = t->child;
    w->win = t->win;
    w->cost = t->cost;
    w->from = t->from;
    if (p->kind == ZO_PART_FIND)
        zo_find_part(w, zo_config_of(w->level), 1, &p->used, &p->nlong);
    else if (p->kind == ZO_PART_PARSE)
        parse_range(w, p->k, p->starts, p->nb, ZO_MID(w), w->n);
    else if (p->kind == ZO_PART_SPLIT)
        est_rows(w, p->split, p->r1, p->K);
    else
        finish_blocks(w, p->b1, w->nblocks, p->kmode);
}

/* ===========================================================================
 * log2(x) * 65536 for x >= 1, from the table of log2(1 + i/256).
 */
local ZT_INLINE zo_u32 lg2(const zo_ctx *c, zo_u32 x) {
    unsigned n;
#ifdef ZT_HAVE_BITSCAN
    n = (unsigned)(sizeof(zt_word) * 8 - 1) - (unsigned)ZT_CLZ_WORD((zt_word)x);
#else
    n = 0;
    if (x >> 16) n += 16;
    if (x >> (n + 8)) n += 8;
    if (x >> (n + 4)) n += 4;
    if (x >> (n + 2)) n += 2;
    if (x >> (n + 1)) n += 1;
#endif
    return ((zo_u32)n << 16) +
           c->lg[n >= 8 ? (x >> (n - 8)) & 255 : (x << (8 - n)) & 255];
}

/* f * log2(f) * 65536 for f < ZO_FLG (0 for f = 0), so that est_bits()
   looks up the usual counts instead of computing their logarithms. */
void ZLIB_INTERNAL zo_parse_tables(zo_ctx *c) {
    zo_u32 f;
    c->flg[0] = 0;
    for (f = 1; f < ZO_FLG; f++)
        c->flg[f] = f * lg2(c, f);
}

/* f * log2(f) * 65536 */
local ZT_INLINE zt_u64 flg2(const zo_ctx *c, zo_u32 f) {
    return f < ZO_FLG ? (zt_u64)c->flg[f] : (zt_u64)f * lg2(c, f);
}

/* The estimate of a block but its symbols' sum of f * log2(f): tll and
   td, its literal/length symbols (end-of-block counted) and distance
   symbols; extra, its extra bits; nu, its symbols used. */
local ZT_INLINE zt_u64 est_rest(const zo_ctx *c, zo_u32 tll, zo_u32 td,
                                zo_u32 extra, zo_u32 nu) {
    zt_u64 t;
    t = (zt_u64)tll * lg2(c, tll);
    t += (zt_u64)td * lg2(c, td + (td == 0));
    t += (zt_u64)extra << 16;                                   /* extra bits */
#ifdef ZO_TUNE
    { static int ha = -1, hb; if (ha < 0) { ha = getenv("ZO_HA") ? atoi(getenv("ZO_HA")) : 72; hb = getenv("ZO_HB") ? atoi(getenv("ZO_HB")) : 4; }
      t += (zt_u64)(ha + hb * nu) << 16; }
#else
    t += (zt_u64)(72 + 4 * nu) << 16;                          /* header */
#endif
    return t;
}

/* Estimated bits * 65536 of a block whose symbol counts are a - b (prefix
   histograms of the nused symbols that occur in the segment, then the
   extra bits): the entropy of its symbols, its extra bits and its header
   (72 bits and 4 per symbol used). */
local zt_u64 est_bits(const zo_ctx *c, const zo_u32 *a, const zo_u32 *b,
                      int nused, zo_u32 tll, zo_u32 td) {
    zt_u64 sum = 0;
    zo_u32 nu = 0;
    int i;
    for (i = 0; i < nused; i++) {
        zo_u32 f = a[i] - b[i];
        sum += flg2(c, f);
        nu += f != 0;
    }
    return est_rest(c, tll, td, a[nused] - b[nused], nu) - sum;
}

/* ===========================================================================
 * The estimates of the blocks between candidate boundaries i < jj, for
 * rows j0 < jj <= j1, into sp->est: the same integers from either of two
 * forms.  With sp->inc, each piece's symbols are listed (sp->lst) and the
 * estimates of the blocks ending at piece jj are summed piece by piece,
 * from the last piece back, updating only the symbols each piece adds;
 * else each is est_bits() over the prefix rows.
 */
local void est_rows(const zo_ctx *c, const zo_split *sp, int j0, int j1) {
    const zo_u32 *pre = sp->pre, *lst = sp->lst, *nit = sp->nit,
                 *nmt = sp->nmt;
    zo_u32 stride = sp->stride, e;
    int nused = sp->nused, i, jj;
    for (jj = j0 + 1; jj <= j1; jj++) {
        zt_u64 *row = sp->est + (zo_u32)jj * (zo_u32)(jj - 1) / 2;
        if (sp->inc) {
            const zo_u32 *hj = pre + (zo_u32)jj * stride;
            zo_u32 cur[ZO_HSYMS], nu = 0;
            zt_u64 sum = 0;
            zmemzero(cur, (unsigned)nused * sizeof(zo_u32));
            for (i = jj - 1; i >= 0; i--) {
                for (e = lst[i]; e < lst[i + 1]; e++) {
                    unsigned u = pre[e] & 0x1ff;
                    zo_u32 old = cur[u], f = old + (pre[e] >> 9);
                    cur[u] = f;
                    sum += flg2(c, f) - flg2(c, old);
                    nu += old == 0;
                }
                row[i] = est_rest(c, 1 + nit[jj] - nit[i], nmt[jj] - nmt[i],
                                  hj[nused] - pre[(zo_u32)i * stride +
                                                  (zo_u32)nused],
                                  nu) - sum;
            }
        } else
            for (i = 0; i < jj; i++)
                row[i] = est_bits(c, pre + (zo_u32)jj * stride,
                                  pre + (zo_u32)i * stride, nused,
                                  1 + nit[jj] - nit[i], nmt[jj] - nmt[i]);
    }
}

/* ===========================================================================
 * Block boundaries for c->items by dynamic programming over pieces of at
 * least ZO_SPLIT_STEP_MIN items.  Writes the item index of each block's
 * first item to starts[] and returns the number of blocks.  The estimates
 * of all blocks come first (the rows from r1 on offered to another
 * thread: a row costs about its number, so r1 = K / sqrt(2) halves them),
 * then the choice, the first i of equal least costs.
 */
local int split(zo_ctx *c, const zo_config *cf, zo_u32 *starts) {
    zo_u32 m = c->nitems, step, j, stride, lpos;
    zo_u32 room = (ZO_MAX_CAND + 1) * ZO_HSYMS;     /* words of c->prefix */
    zo_u32 lst[ZO_MAX_CAND + 1];        /* each piece's symbols in pre[] */
    int K, i, jj, nused = 0, r1;
    zo_u32 *pre = c->prefix;
    ush used[ZO_HSYMS];
    zt_u64 best[ZO_MAX_CAND + 1];
    int arg[ZO_MAX_CAND + 1];
    int cuts[ZO_MAX_CAND + 1], ncut = 0;
    zo_u32 nit[ZO_MAX_CAND + 1], nmt[ZO_MAX_CAND + 1];  /* prefix counts of
                                           items and of matches */
    zo_split sp;

    step = (m + (zo_u32)cf->cand - 1) / (zo_u32)cf->cand;
    if (step < ZO_SPLIT_STEP_MIN)
        step = ZO_SPLIT_STEP_MIN;
    K = (int)((m + step - 1) / step);
    if (K <= 1) {
        starts[0] = 0;
        return 1;
    }
    zmemzero(pre, ZO_HSYMS * sizeof(zo_u32));
    nit[0] = nmt[0] = 0;
    for (i = 1; i <= K; i++) {
        zo_u32 *h = pre + (zo_u32)i * ZO_HSYMS;
        zo_u32 end = (zo_u32)i * step > m ? m : (zo_u32)i * step;
        zmemcpy(h, h - ZO_HSYMS, ZO_HSYMS * sizeof(zo_u32));
        for (j = (zo_u32)(i - 1) * step; j < end; j++) {
            unsigned d = ZO_DIST(c->items[j]), len = ZO_LEN(c->items[j]);
            if (d == 0)
                h[len]++;
            else {
                int lc = c->lcode[len], dc = ZO_DCODE(c, d - 1);
                h[257 + lc]++;
                h[ZO_NLL + dc]++;
                h[ZO_HSYMS - 1] += zo_len_extra[lc] + zo_dist_extra[dc];
            }
        }
        nit[i] = end;
        nmt[i] = nmt[i - 1];
        for (j = (zo_u32)(i - 1) * step; j < end; j++)
            nmt[i] += ZO_DIST(c->items[j]) != 0;
    }
    {
        const zo_u32 *h = pre + (zo_u32)K * ZO_HSYMS;
        for (i = 0; i < ZO_HSYMS - 1; i++)
            if (h[i])
                used[nused++] = (ush)i;
        used[nused] = ZO_HSYMS - 1;             /* the extra bits */
    }
    /* keep only the used symbols' columns, in place (rows shrink from
       ZO_HSYMS to stride words; used[u] >= u, so nothing is overwritten
       before it is read): the estimates read them contiguously */
    stride = (zo_u32)nused + 1;
    for (i = 0; i <= K; i++) {
        const zo_u32 *h = pre + (zo_u32)i * ZO_HSYMS;
        zo_u32 *d = pre + (zo_u32)i * stride;
        for (jj = 0; jj <= nused; jj++)
            d[jj] = h[used[jj]];
    }
    /* Each piece's symbols, as u | count << 9, after the rows (they fit
       when cand <= 128: K * nused words at most), for the incremental form
       of est_rows(): the same integers as est_bits(), in a fraction of the
       time where pieces use few of the segment's symbols (small inputs,
       many pieces). */
    lpos = (zo_u32)(K + 1) * stride;
    for (i = 0; i < K && lpos <= room - (zo_u32)nused; i++) {
        const zo_u32 *h0 = pre + (zo_u32)i * stride, *h1 = h0 + stride;
        lst[i] = lpos;
        for (jj = 0; jj < nused; jj++)
            if (h1[jj] != h0[jj])
                pre[lpos++] = (zo_u32)jj | (h1[jj] - h0[jj]) << 9;
    }
    lst[i] = lpos;
    if (i == K) {       /* an update costs about three symbols of a scan */
        zt_u64 upd = 0;
        for (i = 0; i < K; i++)
            upd += (zt_u64)(lst[i + 1] - lst[i]) * (zo_u32)(K - i);
        if (3 * upd >= (zt_u64)K * (zo_u32)(K + 1) / 2 * (zo_u32)nused)
            i = 0;
    }
    sp.pre = pre;
    sp.lst = lst;
    sp.nit = nit;
    sp.nmt = nmt;
    sp.stride = stride;
    sp.nused = nused;
    sp.inc = i == K;
    sp.est = c->est;
    r1 = K >= ZO_SPLIT_PART_MIN ? (int)((zo_u32)K * 181 / 256) : K;
    if (r1 < K) {
        c->part->split = &sp;
        c->part->r1 = r1;
        c->part->K = K;
        zo_part_begin(c, ZO_PART_SPLIT);
    }
    est_rows(c, &sp, 0, r1);
    if (r1 < K)
        zo_part_end(c);
    best[0] = 0;
    for (jj = 1; jj <= K; jj++) {
        const zt_u64 *row = sp.est + (zo_u32)jj * (zo_u32)(jj - 1) / 2;
        zt_u64 bv = ~(zt_u64)0;
        int ba = 0;
        for (i = 0; i < jj; i++) {
            zt_u64 v = best[i] + row[i];
            if (v < bv) {
                bv = v;
                ba = i;
            }
        }
        best[jj] = bv;
        arg[jj] = ba;
    }
    for (jj = K; jj > 0; jj = arg[jj])
        cuts[ncut++] = arg[jj];
    for (i = 0; i < ncut; i++)
        starts[i] = (zo_u32)cuts[ncut - 1 - i] * step;
    return ncut;
}

/* ===========================================================================
 * Blocks b0 .. b1 - 1 of c->blocks (their items known): their symbol
 * counts, codes and exact sizes, and with kmode the prices of their
 * positions for the next parse (1: entropy, 2: the block's Huffman code
 * lengths) in c->costs[b].  Each block alone: any thread, the same result.
 */
local void finish_blocks(zo_ctx *c, int b0, int b1, int kmode) {
    zo_u32 llf[ZO_NLL], df[ZO_NDIST];
    int b;
    for (b = b0; b < b1; b++) {
        zo_block *bl = &c->blocks[b];
        zo_block_freqs(c, c->items + bl->first, bl->n, llf, df);
        zo_block_finish(bl, llf, df, c->strategy);
        if (kmode == 1)
            costs_entropy(c, &c->costs[b], llf, df);
        else if (kmode == 2)
            costs_from_freqs(&c->costs[b], llf, df);
    }
}

/* ===========================================================================
 * Form blocks from c->items where block b is the items starting at input
 * positions from pstart[b] (pstart[0] = 0); empty blocks are dropped.
 * Sizes each block exactly (and prices it for the next parse, kmode of
 * finish_blocks()); returns the total bits and leaves the blocks' first
 * input positions in pstart[].  The blocks holding the second half of the
 * items are offered to another thread.
 */
local zt_u64 form_blocks(zo_ctx *c, zo_u32 *pstart, int nb, int kmode) {
    zo_u32 i = 0, pos = 0;
    zt_u64 total = 0;
    int b, out = 0, b1;

    for (b = 0; b < nb; b++) {
        zo_u32 end = b + 1 < nb ? pstart[b + 1] : c->n + 1;
        zo_block *bl = &c->blocks[out];
        bl->first = i;
        bl->start = pos;
        while (i < c->nitems && pos < end) {
            zo_item it = c->items[i++];
            pos += ZO_DIST(it) ? ZO_LEN(it) : 1;
        }
        bl->n = i - bl->first;
        bl->len = pos - bl->start;
        if (bl->n == 0 && !(out == 0 && b == nb - 1))
            continue;
        out++;
    }
    c->nblocks = out;
    b1 = out;
    if (ZO_MID(c) < c->n && out > 1) {
        b1 = 1;
        while (b1 < out - 1 && c->blocks[b1].first < c->nitems / 2)
            b1++;
        c->part->b1 = b1;
        c->part->kmode = kmode;
        zo_part_begin(c, ZO_PART_BLOCKS);
    }
    finish_blocks(c, 0, b1, kmode);
    if (b1 < out)
        zo_part_end(c);
    for (b = 0; b < out; b++) {
        total += c->blocks[b].bits;
        pstart[b] = c->blocks[b].start;
    }
    return total;
}

/* If the blocks would take more bits than the whole segment stored, store
   it: the output never exceeds the stored size plus 5 bytes per 65535
   (what deflateBound() allows), however the segment was split. */
local void stored_if_larger(zo_ctx *c, zt_u64 bits) {
    zo_u32 pieces = (c->n + 65534) / 65535;
    zt_u64 sto = (zt_u64)(pieces ? pieces : 1) * 42 + (zt_u64)c->n * 8;
    if (bits <= sto)
        return;
    c->blocks[0].first = 0;
    c->blocks[0].n = c->nitems;
    c->blocks[0].start = 0;
    c->blocks[0].len = c->n;
    c->blocks[0].type = ZO_STORED;
    c->blocks[0].bits = (zo_u32)sto;
    c->nblocks = 1;
}

/* Block boundaries for c->items as input positions in ps[]; returns their
   number. */
local int split_at(zo_ctx *c, const zo_config *cf, zo_u32 *ps) {
    zo_u32 i = 0, pos = 0;
    int nb = split(c, cf, ps), b;
    for (b = 0; b < nb; b++) {
        zo_u32 first = ps[b];
        while (i < first) {
            zo_item it = c->items[i++];
            pos += ZO_DIST(it) ? ZO_LEN(it) : 1;
        }
        ps[b] = pos;
    }
    return nb;
}

/* ===========================================================================
 * Compress segment c: leaves its blocks in c->blocks[0 .. c->nblocks - 1]
 * and their items in c->items.
 */
void ZLIB_INTERNAL zo_segment(zo_ctx *c) {
    const zo_config *cf = zo_config_of(c->level);
    zo_u32 llf[ZO_NLL], df[ZO_NDIST];
    zo_u32 *ps = c->starts;
    zt_u64 bestbits = ~(zt_u64)0;
    int pass, nb, b, bestnb = 1;

    if (c->n == 0) {
        c->nitems = 0;
        ps[0] = 0;
        form_blocks(c, ps, 1, 0);
        return;
    }
    zo_find_matches(c, cf);
    if (c->strategy == Z_FIXED) {
        costs_fixed(&c->costs[0]);
        parse(c, c->costs, Z_NULL, 1);
        ps[0] = 0;
        form_blocks(c, ps, 1, 0);
        return;
    }
    /* The statistics to start from (the sweep's, or the greedy parse's),
       then the whole-segment passes.  Where matches are everywhere but
       poor (random hex digits), any statistics that take them make literals
       look dear, and the passes never leave the matches (7-10% larger than
       literals alone).  So where the bytes as literals alone are estimated
       1% smaller than the parse, a second start, the greedy statistics with
       every byte also counted as a literal, goes through the same passes,
       and the smaller parse goes on. */
    start_freqs(c, llf, df);
    passes(c, cf, llf, df);
    {
        zo_u32 bits = one_block_bits(c, llf, df), bits_b;
        if (literal_bits(c) * 100 < ((zt_u64)bits << 16) * 99) {
            zo_item *t = c->items;              /* this parse to best */
            zo_u32 nt = c->nitems;
            c->items = c->best;
            c->best = t;
            c->nitems = c->nbest;
            c->nbest = nt;
            greedy_freqs(c, llf, df, 1);
            passes(c, cf, llf, df);
            bits_b = one_block_bits(c, llf, df);
            if (bits <= bits_b) {               /* the first one back */
                t = c->items;
                c->items = c->best;
                c->best = t;
                c->nitems = c->nbest;
            }
        }
    }
    /* block boundaries, as input positions */
    nb = split_at(c, cf, ps);
    for (pass = 0; ; pass++) {
        /* the next parse's prices: entropy, then the blocks' codes */
        zt_u64 bits = form_blocks(c, ps, nb, pass == cf->block_passes ? 0 :
                                  pass < cf->block_passes - 1 ? 1 : 2);
        nb = c->nblocks;
        if (bits < bestbits) {
            bestbits = bits;
            zmemcpy(c->best, c->items, c->nitems * sizeof(zo_item));
            c->nbest = c->nitems;
            zmemcpy(c->bblocks, c->blocks, (unsigned)nb * sizeof(zo_block));
            bestnb = nb;
        }
        if (pass == cf->block_passes)
            break;
        parse(c, c->costs, ps, nb);
    }
    /* the best parse and its blocks */
    {
        zo_item *t = c->items;
        c->items = c->best;
        c->best = t;
        c->nitems = c->nbest;
        c->nblocks = bestnb;
        zmemcpy(c->blocks, c->bblocks,
                (unsigned)c->nblocks * sizeof(zo_block));
    }
    stored_if_larger(c, bestbits);
}
