/* opt_parse.c -- the iterated minimum-cost parse of levels 10 to 12
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * A segment is compressed in four steps:
 *
 * 1. Statistics to start from: a greedy parse (the longest match at each
 *    position) gives symbol frequencies, and their Huffman code lengths
 *    give each literal, length and distance a price in bits.
 * 2. Whole-segment passes: the cheapest parse under those prices is found
 *    by dynamic programming over the positions (cost[i + l] from cost[i]
 *    for the literal and for every length of every match at i), and its
 *    own frequencies price the next pass.
 * 3. Block boundaries: the last parse's items are cut into candidate
 *    pieces, and dynamic programming over the pieces picks the boundaries
 *    that minimise the estimated size of all blocks (entropy of each
 *    block's symbols plus its extra bits plus an estimate of its header).
 * 4. Block passes: each block's own Huffman code prices the positions
 *    inside it for another parse; blocks are re-formed from where the items
 *    now start, and sized exactly (opt_huff.c).  The smallest parse seen in
 *    steps 2-4 is kept.
 *
 * Costs are integers in 1/16 bit, ties go to the first candidate, so the
 * result depends only on the segment's bytes, the window before it and the
 * level and strategy.  Symbols a code does not use are priced one bit above
 * its longest code, so a later pass can still try them.
 */

#include "deflate_opt.h"

#define SCALE 16
#define INF 0xffffffffUL

/* depth, nice, whole-segment passes, block passes, candidate boundaries */
local const zo_config configs[3] = {
    {24, 128, 2, 1, 64},
    {64, 258, 3, 3, 128},
    {160, 258, 5, 6, 256}
};

ZLIB_INTERNAL const zo_config *zo_config_of(int level) {
    return &configs[level - ZO_MIN_LEVEL];
}

local ZT_INLINE unsigned dcode(const zo_ctx *c, unsigned d1) {
    return c->dcode[d1 < 256 ? d1 : 256 + (d1 >> 7)];
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
    for (i = 0; i < 30; i++)
        k->dist[i] = (5 + zo_dist_extra[i]) * SCALE;
}

/* ===========================================================================
 * Frequencies of the greedy parse: the longest match wherever there is one.
 */
local void greedy_freqs(zo_ctx *c, zo_u32 *llf, zo_u32 *df) {
    const Bytef *in = c->base + c->hist;
    zo_u32 i, off = 0, skip = 0;
    zmemzero(llf, ZO_NLL * sizeof(zo_u32));
    zmemzero(df, ZO_NDIST * sizeof(zo_u32));
    for (i = 0; i < c->n; i++) {
        unsigned k = c->mcount[i];
        if (i >= skip) {
            if (k) {
                const zo_match *m = c->cache + off + k - 1;
                llf[257 + zo_len_code(m->len)]++;
                df[dcode(c, m->dist1)]++;
                skip = i + m->len;
            } else
                llf[in[i]]++;
        }
        off += k;
    }
    llf[ZO_EOB]++;
}

/* ===========================================================================
 * The cheapest parse of the segment: positions from starts[b] on (up to
 * starts[b + 1]) are priced with k[b], for b < nb.  Leaves the items in
 * c->items[0 .. c->nitems - 1].
 */
local void parse(zo_ctx *c, const zo_costs *k, const zo_u32 *starts, int nb) {
    const Bytef *in = c->base + c->hist;
    zo_u32 *cost = c->cost, *from = c->from;
    zo_u32 n = c->n, i, off = 0, next, pos, cnt;
    const zo_costs *ks = k;
    int b = 0;

    cost[0] = 0;
    for (i = 1; i <= n; i++)
        cost[i] = INF;
    next = nb > 1 ? starts[1] : n + 1;
    for (i = 0; i < n; i++) {
        zo_u32 ci = cost[i], x;
        unsigned cntm, j, l = 3;
        const zo_match *m;
        while (i == next) {
            b++;
            ks = k + b;
            next = b + 1 < nb ? starts[b + 1] : n + 1;
        }
        x = ci + ks->lit[in[i]];
        if (x < cost[i + 1]) {
            cost[i + 1] = x;
            from[i + 1] = ZO_ITEM(in[i], 0);
        }
        cntm = c->mcount[i];
        m = c->cache + off;
        off += cntm;
        for (j = 0; j < cntm; j++) {
            unsigned d1 = m[j].dist1, len = m[j].len;
            zo_u32 dc = ci + ks->dist[dcode(c, d1)];
            for (; l <= len; l++) {
                x = dc + ks->len[l];
                if (x < cost[i + l]) {
                    cost[i + l] = x;
                    from[i + l] = ZO_ITEM(l, d1 + 1);
                }
            }
        }
    }
    /* walk back from the end, items stored from the top of the array */
    cnt = 0;
    pos = n;
    while (pos > 0) {
        zo_item it;
        it.v = from[pos];
        c->items[n - 1 - cnt].v = it.v;
        cnt++;
        pos -= ZO_DIST(it) ? ZO_LEN(it) : 1;
    }
    if (cnt && cnt < n)
        zo_move(c->items, c->items + (n - cnt), cnt * sizeof(zo_item));
    c->nitems = cnt;
}

/* ===========================================================================
 * log2(x) * 65536 for x >= 1, from the table of log2(1 + i/256).
 */
local ZT_INLINE zo_u32 lg2(const zo_ctx *c, zo_u32 x) {
    unsigned n = 0;
    while ((x >> n) > 1)
        n++;
    return ((zo_u32)n << 16) +
           c->lg[n >= 8 ? (x >> (n - 8)) & 255 : (x << (8 - n)) & 255];
}

/* Estimated bits * 65536 of a block whose symbol counts are a - b (prefix
   histograms); used[] lists the symbols that occur in the segment. */
local zt_u64 est_bits(const zo_ctx *c, const zo_u32 *a, const zo_u32 *b,
                      const ush *used, int nused) {
    zt_u64 sum = 0;
    zo_u32 tll = 1, td = 0, nu = 0;
    int i;
    for (i = 0; i < nused; i++) {
        unsigned s = used[i];
        zo_u32 f = a[s] - b[s];
        if (f) {
            sum += (zt_u64)f * (zt_u64)lg2(c, f);
            if (s < ZO_NLL) tll += f; else td += f;
            nu++;
        }
    }
    /* extra bits are kept in the last slot */
    {
        zt_u64 t = (zt_u64)tll * lg2(c, tll);
        if (td)
            t += (zt_u64)td * lg2(c, td);
        t += (zt_u64)(a[ZO_HSYMS - 1] - b[ZO_HSYMS - 1]) << 16;
        t += (zt_u64)(72 + 4 * nu) << 16;      /* header estimate */
        return t - sum;
    }
}

/* ===========================================================================
 * Block boundaries for c->items by dynamic programming over pieces of at
 * least ZO_SPLIT_STEP_MIN items.  Writes the item index of each block's
 * first item to starts[] and returns the number of blocks.
 */
local int split(zo_ctx *c, const zo_config *cf, zo_u32 *starts) {
    zo_u32 m = c->nitems, step, j;
    int K, i, jj, nused = 0;
    zo_u32 *pre = c->prefix;
    ush used[ZO_HSYMS];
    zt_u64 best[ZO_MAX_CAND + 1];
    int arg[ZO_MAX_CAND + 1];
    int cuts[ZO_MAX_CAND + 1], ncut = 0;

    step = (m + (zo_u32)cf->cand - 1) / (zo_u32)cf->cand;
    if (step < ZO_SPLIT_STEP_MIN)
        step = ZO_SPLIT_STEP_MIN;
    K = (int)((m + step - 1) / step);
    if (K <= 1) {
        starts[0] = 0;
        return 1;
    }
    zmemzero(pre, ZO_HSYMS * sizeof(zo_u32));
    for (i = 1; i <= K; i++) {
        zo_u32 *h = pre + (zo_u32)i * ZO_HSYMS;
        zo_u32 end = (zo_u32)i * step > m ? m : (zo_u32)i * step;
        zmemcpy(h, h - ZO_HSYMS, ZO_HSYMS * sizeof(zo_u32));
        for (j = (zo_u32)(i - 1) * step; j < end; j++) {
            unsigned d = ZO_DIST(c->items[j]), len = ZO_LEN(c->items[j]);
            if (d == 0)
                h[len]++;
            else {
                int lc = zo_len_code(len), dc = zo_dist_code(d);
                h[257 + lc]++;
                h[ZO_NLL + dc]++;
                h[ZO_HSYMS - 1] += zo_len_extra[lc] + zo_dist_extra[dc];
            }
        }
    }
    {
        const zo_u32 *h = pre + (zo_u32)K * ZO_HSYMS;
        for (i = 0; i < ZO_HSYMS - 1; i++)
            if (h[i])
                used[nused++] = (ush)i;
    }
    best[0] = 0;
    for (jj = 1; jj <= K; jj++) {
        zt_u64 bv = ~(zt_u64)0;
        int ba = 0;
        for (i = 0; i < jj; i++) {
            zt_u64 v = best[i] + est_bits(c, pre + (zo_u32)jj * ZO_HSYMS,
                                          pre + (zo_u32)i * ZO_HSYMS,
                                          used, nused);
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
 * Form blocks from c->items where block b is the items starting at input
 * positions from pstart[b] (pstart[0] = 0); empty blocks are dropped.
 * Sizes each block exactly; returns the total bits and leaves the blocks'
 * first input positions in pstart[].
 */
local zt_u64 form_blocks(zo_ctx *c, zo_u32 *pstart, int nb) {
    zo_u32 llf[ZO_NLL], df[ZO_NDIST];
    zo_u32 i = 0, pos = 0;
    zt_u64 total = 0;
    int b, out = 0;

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
        zo_block_freqs(c->items + bl->first, bl->n, llf, df);
        zo_block_finish(bl, llf, df, c->strategy);
        total += bl->bits;
        out++;
    }
    c->nblocks = out;
    for (b = 0; b < out; b++)
        pstart[b] = c->blocks[b].start;
    return total;
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
        form_blocks(c, ps, 1);
        return;
    }
    zo_find_matches(c, cf);
    if (c->strategy == Z_FIXED) {
        costs_fixed(&c->costs[0]);
        parse(c, c->costs, Z_NULL, 1);
        ps[0] = 0;
        form_blocks(c, ps, 1);
        return;
    }
    greedy_freqs(c, llf, df);
    costs_from_freqs(&c->costs[0], llf, df);
    for (pass = 0; pass < cf->passes; pass++) {
        parse(c, c->costs, Z_NULL, 1);
        zo_block_freqs(c->items, c->nitems, llf, df);
        costs_from_freqs(&c->costs[0], llf, df);
    }
    /* block boundaries, as input positions */
    nb = split(c, cf, ps);
    {
        zo_u32 i = 0, pos = 0;
        for (b = 0; b < nb; b++) {
            zo_u32 first = ps[b];
            while (i < first) {
                zo_item it = c->items[i++];
                pos += ZO_DIST(it) ? ZO_LEN(it) : 1;
            }
            ps[b] = pos;
        }
    }
    for (pass = 0; ; pass++) {
        zt_u64 bits = form_blocks(c, ps, nb);
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
        for (b = 0; b < nb; b++) {
            zo_block_freqs(c->items + c->blocks[b].first, c->blocks[b].n,
                           llf, df);
            costs_from_freqs(&c->costs[b], llf, df);
        }
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
}
