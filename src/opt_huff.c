/* opt_huff.c -- codes, headers and the bit writer of levels 10 to 12
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * A block of items is written in the smallest of its three forms (RFC 1951
 * 3.2.4-3.2.7): stored, fixed codes, or dynamic codes.  The dynamic codes
 * are optimal length-limited Huffman codes (package-merge: no code longer
 * than 15 bits, 7 for the code length code), not zlib's heuristic, and the
 * header that sends them is itself minimised: the run-length encoding of
 * the code lengths (symbols 16, 17, 18) is chosen by dynamic programming
 * against the code length code's own lengths, re-chosen twice as those
 * lengths change.  A stored form is priced with 7 padding bits, the most it
 * can need, so the choice never depends on where in a byte the block
 * starts (which a thread compressing a later segment cannot know).
 */

#include "deflate_opt.h"

const uch ZLIB_INTERNAL zo_len_extra[29] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
    5, 5, 5, 5, 0};
const ush ZLIB_INTERNAL zo_len_base[29] = {
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
    67, 83, 99, 115, 131, 163, 195, 227, 258};
const uch ZLIB_INTERNAL zo_dist_extra[30] = {
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
    11, 11, 12, 12, 13, 13};
const ush ZLIB_INTERNAL zo_dist_base[30] = {
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385,
    513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
local const uch cl_order[ZO_NCL] = {
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/* The length code (0..28) of a match length 3..258. */
int ZLIB_INTERNAL zo_len_code(unsigned len) {
    unsigned x = len - 3, b = 2;
    if (x < 8)
        return (int)x;
    if (len == 258)
        return 28;
    while ((x >> (b + 1)) != 0)
        b++;                            /* x has b + 1 bits */
    return (int)(4 * (b - 1) + ((x >> (b - 2)) & 3));
}

/* The distance code (0..29) of a distance 1..32768. */
int ZLIB_INTERNAL zo_dist_code(unsigned dist) {
    int c;
    unsigned d = dist - 1, b = 0;
    if (d < 4)
        return (int)d;
    while ((d >> b) > 1)
        b++;                            /* d has b + 1 bits */
    c = (int)(2 * b + ((d >> (b - 1)) & 1));
    return c;
}

/* ===========================================================================
 * Optimal code lengths for freq[0..n-1], none longer than maxbits, by
 * package-merge; len[i] = 0 where freq[i] == 0.  Fewer than two used
 * symbols get two codes of one bit (the lowest unused symbols added), as
 * some inflaters need a complete code.  Ties are broken by symbol number,
 * so the lengths depend only on the frequencies.
 */
#define PM_MAX ZO_NLL
typedef struct {
    zo_u32 w;                   /* weight (saturated sum) */
    short a, b;                 /* leaf: a = symbol, b = -1; package:
                                   children a, b in the previous list */
} pm_node;

local void pm_count(pm_node (*lists)[2 * PM_MAX], int lvl, int k, uch *len) {
    const pm_node *p = &lists[lvl][k];
    if (p->b < 0)
        len[p->a]++;
    else {
        pm_count(lists, lvl - 1, p->a, len);
        pm_count(lists, lvl - 1, p->b, len);
    }
}

void ZLIB_INTERNAL zo_huff_lengths(const zo_u32 *freq, int n, int maxbits,
                                   uch *len) {
    pm_node leaves[PM_MAX];
    pm_node lists[16][2 * PM_MAX];
    int cnt[16];
    int nl = 0, i, j, lvl;

    for (i = 0; i < n; i++) {
        len[i] = 0;
        if (freq[i]) {
            leaves[nl].w = freq[i];
            leaves[nl].a = (short)i;
            leaves[nl].b = -1;
            nl++;
        }
    }
    for (i = 0; nl < 2 && i < n; i++)
        if (freq[i] == 0) {
            leaves[nl].w = 1;
            leaves[nl].a = (short)i;
            leaves[nl].b = -1;
            nl++;
        }
    /* sort the leaves by (weight, symbol): a shell sort, total order */
    {
        static const int gaps[] = {132, 57, 23, 10, 4, 1};
        int g;
        for (g = 0; g < 6; g++) {
            int h = gaps[g];
            for (i = h; i < nl; i++) {
                pm_node t = leaves[i];
                j = i;
                while (j >= h && (leaves[j - h].w > t.w ||
                                  (leaves[j - h].w == t.w &&
                                   leaves[j - h].a > t.a))) {
                    leaves[j] = leaves[j - h];
                    j -= h;
                }
                leaves[j] = t;
            }
        }
    }
    if (nl == 2) {
        len[leaves[0].a] = len[leaves[1].a] = 1;
        return;
    }
    /* list 0: the leaves; list l: leaves merged with packages of list
       l - 1; only the first 2 nl - 2 of each list can matter */
    for (i = 0; i < nl; i++)
        lists[0][i] = leaves[i];
    cnt[0] = nl;
    for (lvl = 1; lvl < maxbits; lvl++) {
        int np = cnt[lvl - 1] / 2, a = 0, b = 0, k = 0, lim = 2 * nl - 2;
        while (k < lim && (a < nl || b < np)) {
            zo_u32 pw = 0;
            if (b < np) {
                zo_u32 x = lists[lvl - 1][2 * b].w,
                       y = lists[lvl - 1][2 * b + 1].w;
                pw = x + y < x ? 0xffffffffUL : x + y;
            }
            if (a < nl && (b >= np || leaves[a].w <= pw))
                lists[lvl][k++] = leaves[a++];
            else {
                lists[lvl][k].w = pw;
                lists[lvl][k].a = (short)(2 * b);
                lists[lvl][k].b = (short)(2 * b + 1);
                k++;
                b++;
            }
        }
        cnt[lvl] = k;
    }
    for (i = 0; i < 2 * nl - 2; i++)
        pm_count(lists, maxbits - 1, i, len);
}

/* ===========================================================================
 * Canonical codes for lengths len[0..n-1] (RFC 1951 3.2.2), bit-reversed for
 * sending low bit first.
 */
local void gen_codes_rev(const uch *len, int n, ush *code) {
    ush count[16], next[16];
    int i, b;
    unsigned c = 0;
    for (i = 0; i < 16; i++)
        count[i] = 0;
    for (i = 0; i < n; i++)
        count[len[i]]++;
    count[0] = 0;
    for (b = 1; b < 16; b++) {
        c = (c + count[b - 1]) << 1;
        next[b] = (ush)c;
    }
    for (i = 0; i < n; i++) {
        unsigned v, r = 0;
        int l = len[i];
        if (l == 0) {
            code[i] = 0;
            continue;
        }
        v = next[l]++;
        for (b = 0; b < l; b++) {
            r = (r << 1) | (v & 1);
            v >>= 1;
        }
        code[i] = (ush)r;
    }
}

/* ===========================================================================
 * The item frequencies of items[0..n-1] plus one end-of-block.
 */
void ZLIB_INTERNAL zo_block_freqs(const zo_ctx *c, const zo_item *it,
                                  zo_u32 n, zo_u32 *llf, zo_u32 *df) {
    zo_u32 i;
    zmemzero(llf, ZO_NLL * sizeof(zo_u32));
    zmemzero(df, ZO_NDIST * sizeof(zo_u32));
    for (i = 0; i < n; i++) {
        unsigned d = ZO_DIST(it[i]);
        if (d == 0)
            llf[ZO_LEN(it[i])]++;
        else {
            llf[257 + c->lcode[ZO_LEN(it[i])]]++;
            df[ZO_DCODE(c, d - 1)]++;
        }
    }
    llf[ZO_EOB]++;
}

/* ===========================================================================
 * The code length sequence lens[0..n-1] written with the fewest bits under
 * the code length code's lengths cl (unused symbols cost 8 bits here, so a
 * DP pass may pick them up; the caller re-derives cl from what is used).
 * Fills rle[] and returns its bit count.
 */
local zo_u32 rle_plan(const uch *lens, int n, const uch *cl, ush *rle,
                      int *nrle) {
    zo_u32 cost[ZO_NLL + ZO_NDIST + 1];
    ush how[ZO_NLL + ZO_NDIST + 1];     /* sym | run << 5 */
    zo_u32 c[ZO_NCL];
    /* positions i + r, 11 <= r <= 138, of a run of zeros (symbol 18),
       dq[head .. tail - 1] by increasing position and decreasing cost: the
       last is the cheapest, the first of those as cheap */
    int dq[ZO_NLL + ZO_NDIST + 1];
    int head = 0, tail = 0, same = 0;
    int i, r, k;

    for (i = 0; i < ZO_NCL; i++)
        c[i] = cl[i] ? cl[i] : 8;
    cost[n] = 0;
    for (i = n - 1; i >= 0; i--) {
        int v = lens[i];
        zo_u32 best = c[v] + cost[i + 1];
        unsigned bh = (unsigned)v | 1U << 5;
        /* same: how many of lens[i ..] equal v */
        if (i + 1 < n && lens[i + 1] == v)
            same++;
        else {
            same = 1;
            head = tail = n;            /* a new run: no candidates */
        }
        if (v == 0) {
            int top = same < 10 ? same : 10;
            for (r = 3; r <= top; r++) {
                zo_u32 x = c[17] + 3 + cost[i + r];
                if (x < best) {
                    best = x;
                    bh = 17U | (unsigned)r << 5;
                }
            }
            if (same >= 11) {
                int p = i + 11;
                /* p joins at the front; it is preferred to any later
                   position that costs as much or more */
                while (tail > head && cost[dq[head]] >= cost[p])
                    head++;
                dq[--head] = p;
                if (dq[tail - 1] > i + 138)     /* out of reach */
                    tail--;
                {
                    zo_u32 x = c[18] + 7 + cost[dq[tail - 1]];
                    if (x < best) {
                        best = x;
                        bh = 18U | (unsigned)(dq[tail - 1] - i) << 5;
                    }
                }
            }
        }
        if (i > 0 && lens[i - 1] == v) {
            int top = same < 6 ? same : 6;
            for (r = 3; r <= top; r++) {
                zo_u32 x = c[16] + 2 + cost[i + r];
                if (x < best) {
                    best = x;
                    bh = 16U | (unsigned)r << 5;
                }
            }
        }
        cost[i] = best;
        how[i] = (ush)bh;
    }
    k = 0;
    for (i = 0; i < n; ) {
        unsigned sym = how[i] & 31, run = how[i] >> 5;
        if (sym < 16) {
            rle[k++] = (ush)sym;
            i++;
        } else {
            unsigned extra = sym == 16 ? run - 3 : sym == 17 ? run - 3 :
                             run - 11;
            rle[k++] = (ush)(sym | extra << 5);
            i += (int)run;
        }
    }
    *nrle = k;
    return cost[0];
}

/* ===========================================================================
 * The dynamic header for b->ll_len[0..nll-1], b->d_len[0..nd-1]: the code
 * length code and run-length plan with the fewest bits.  Returns its size.
 */
local zo_u32 plan_header(zo_block *b) {
    uch lens[ZO_NLL + ZO_NDIST];
    zo_u32 f[ZO_NCL];
    uch cl[ZO_NCL];
    ush rle[ZO_NLL + ZO_NDIST];
    zo_u32 best = 0xffffffffUL;
    int n = b->nll + b->nd, i, iter, nrle;

    zmemcpy(lens, b->ll_len, (unsigned)b->nll);
    zmemcpy(lens + b->nll, b->d_len, (unsigned)b->nd);
    for (i = 0; i < ZO_NCL; i++)
        cl[i] = 0;
    for (iter = 0; iter < 3; iter++) {
        zo_u32 bits;
        int ncl;
        rle_plan(lens, n, cl, rle, &nrle);
        for (i = 0; i < ZO_NCL; i++)
            f[i] = 0;
        for (i = 0; i < nrle; i++)
            f[rle[i] & 31]++;
        zo_huff_lengths(f, ZO_NCL, 7, cl);
        ncl = ZO_NCL;
        while (ncl > 4 && cl[cl_order[ncl - 1]] == 0)
            ncl--;
        bits = 5 + 5 + 4 + 3 * (zo_u32)ncl;
        for (i = 0; i < nrle; i++) {
            unsigned sym = rle[i] & 31;
            bits += cl[sym] + (sym == 16 ? 2 : sym == 17 ? 3 :
                               sym == 18 ? 7 : 0);
        }
        if (bits < best) {
            best = bits;
            zmemcpy(b->cl_len, cl, ZO_NCL);
            zmemcpy(b->rle, rle, (unsigned)nrle * sizeof(ush));
            b->nrle = nrle;
            b->ncl = ncl;
        }
    }
    return best;
}

/* ===========================================================================
 * Decide b's form from its frequencies (b->len and b->n already set): the
 * dynamic codes and header, then the smallest of stored, fixed and
 * dynamic.  Z_FIXED allows only fixed and stored.
 */
void ZLIB_INTERNAL zo_block_finish(zo_block *b, const zo_u32 *llf,
                                   const zo_u32 *df, int strategy) {
    zo_u32 dyn = 0xffffffffUL, fix = 3, sto, data;
    int i;

    /* fixed: 8 bits 0-143, 9 bits 144-255, 7 bits 256-279, 8 bits 280-287,
       distances 5 bits; extra bits as for dynamic */
    data = 0;
    for (i = 0; i < 29; i++)
        data += (llf[257 + i] + 0) * zo_len_extra[i];
    for (i = 0; i < 30; i++)
        data += df[i] * zo_dist_extra[i];
    for (i = 0; i < 144; i++)
        fix += llf[i] * 8;
    for (; i < 256; i++)
        fix += llf[i] * 9;
    for (; i < 280; i++)
        fix += llf[i] * 7;
    for (; i < 286; i++)
        fix += llf[i] * 8;
    for (i = 0; i < 30; i++)
        fix += df[i] * 5;
    fix += data;
    /* stored: per 65535 bytes, 3 bits + at most 7 padding + LEN, NLEN */
    sto = (b->len + 65534) / 65535;
    if (sto == 0)
        sto = 1;
    sto = sto * 42 + b->len * 8;

    if (strategy != Z_FIXED) {
        zo_huff_lengths(llf, 286, 15, b->ll_len);
        zo_huff_lengths(df, 30, 15, b->d_len);
        b->ll_len[286] = b->ll_len[287] = 0;
        b->d_len[30] = b->d_len[31] = 0;
        b->nll = 286;
        while (b->nll > 257 && b->ll_len[b->nll - 1] == 0)
            b->nll--;
        b->nd = 30;
        while (b->nd > 1 && b->d_len[b->nd - 1] == 0)
            b->nd--;
        dyn = 3 + plan_header(b) + data;
        for (i = 0; i < 286; i++)
            dyn += llf[i] * b->ll_len[i];
        for (i = 0; i < 30; i++)
            dyn += df[i] * b->d_len[i];
    }
    if (sto <= fix && sto <= dyn) {
        b->type = ZO_STORED;
        b->bits = sto;
    } else if (fix <= dyn) {
        b->type = ZO_FIXED;
        b->bits = fix;
    } else {
        b->type = ZO_DYNAMIC;
        b->bits = dyn;
    }
}

/* ===========================================================================
 * The bit writer.  put() keeps at most 7 bits between calls once flushed.
 */
#define W_PUT(w, v, n) do { \
        (w)->buf |= (zt_u64)(v) << (w)->nbits; \
        (w)->nbits += (n); \
        if ((w)->nbits >= 32) { \
            zo_u32 x_ = (zo_u32)(w)->buf; \
            (w)->out[(w)->pos] = (Bytef)x_; \
            (w)->out[(w)->pos + 1] = (Bytef)(x_ >> 8); \
            (w)->out[(w)->pos + 2] = (Bytef)(x_ >> 16); \
            (w)->out[(w)->pos + 3] = (Bytef)(x_ >> 24); \
            (w)->pos += 4; \
            (w)->buf >>= 32; \
            (w)->nbits -= 32; \
        } \
    } while (0)

local void w_align(zo_bits *w) {
    w->used = ((w->nbits - 1) & 7) + 1;
    while (w->nbits > 0) {
        w->out[w->pos++] = (Bytef)w->buf;
        w->buf >>= 8;
        w->nbits -= 8;
    }
    w->buf = 0;
    w->nbits = 0;
}

local void write_items(zo_bits *w, const zo_item *items, zo_u32 n,
                       const uch *ll, const ush *llc, const uch *dl,
                       const ush *dc) {
    zo_u32 i;
    for (i = 0; i < n; i++) {
        unsigned d = ZO_DIST(items[i]), len = ZO_LEN(items[i]);
        if (d == 0) {
            W_PUT(w, llc[len], ll[len]);
        } else {
            int lc = zo_len_code(len), dcd = zo_dist_code(d);
            W_PUT(w, llc[257 + lc], ll[257 + lc]);
            if (zo_len_extra[lc])
                W_PUT(w, len - zo_len_base[lc], zo_len_extra[lc]);
            W_PUT(w, dc[dcd], dl[dcd]);
            if (zo_dist_extra[dcd])
                W_PUT(w, d - zo_dist_base[dcd], zo_dist_extra[dcd]);
        }
    }
    W_PUT(w, llc[ZO_EOB], ll[ZO_EOB]);
}

/* Write block b (its items from items[b->first], its bytes from in[0..]),
   with BFINAL set on its last piece if last. */
void ZLIB_INTERNAL zo_write_block(zo_bits *w, const zo_block *b,
                                  const zo_item *items, const Bytef *in,
                                  int last) {
    if (b->type == ZO_STORED) {
        zo_u32 left = b->len;
        do {
            zo_u32 k = left > 65535 ? 65535 : left;
            W_PUT(w, (last && k == left) ? 1 : 0, 3);
            w_align(w);
            w->out[w->pos++] = (Bytef)k;
            w->out[w->pos++] = (Bytef)(k >> 8);
            w->out[w->pos++] = (Bytef)~k;
            w->out[w->pos++] = (Bytef)(~k >> 8);
            zmemcpy(w->out + w->pos, in, k);
            w->pos += k;
            in += k;
            left -= k;
        } while (left);
    } else if (b->type == ZO_FIXED) {
        uch ll[ZO_NLL], dl[ZO_NDIST];
        ush llc[ZO_NLL], dc[ZO_NDIST];
        int i;
        for (i = 0; i < 144; i++) ll[i] = 8;
        for (; i < 256; i++) ll[i] = 9;
        for (; i < 280; i++) ll[i] = 7;
        for (; i < 288; i++) ll[i] = 8;
        for (i = 0; i < 32; i++) dl[i] = 5;
        gen_codes_rev(ll, ZO_NLL, llc);
        gen_codes_rev(dl, ZO_NDIST, dc);
        W_PUT(w, 2 + (last ? 1 : 0), 3);
        write_items(w, items + b->first, b->n, ll, llc, dl, dc);
    } else {
        ush llc[ZO_NLL], dc[ZO_NDIST], clc[ZO_NCL];
        int i;
        gen_codes_rev(b->ll_len, ZO_NLL, llc);
        gen_codes_rev(b->d_len, ZO_NDIST, dc);
        gen_codes_rev(b->cl_len, ZO_NCL, clc);
        W_PUT(w, 4 + (last ? 1 : 0), 3);
        W_PUT(w, b->nll - 257, 5);
        W_PUT(w, b->nd - 1, 5);
        W_PUT(w, b->ncl - 4, 4);
        for (i = 0; i < b->ncl; i++)
            W_PUT(w, b->cl_len[cl_order[i]], 3);
        for (i = 0; i < b->nrle; i++) {
            unsigned sym = b->rle[i] & 31, ex = b->rle[i] >> 5;
            W_PUT(w, clc[sym], b->cl_len[sym]);
            if (sym == 16)
                W_PUT(w, ex, 2);
            else if (sym == 17)
                W_PUT(w, ex, 3);
            else if (sym == 18)
                W_PUT(w, ex, 7);
        }
        write_items(w, items + b->first, b->n, b->ll_len, llc, b->d_len, dc);
    }
}
