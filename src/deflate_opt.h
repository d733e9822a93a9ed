/* deflate_opt.h -- internal interface of zlib-turbo's levels 10 to 12
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * Levels 10-12 are a second compressor behind zlib's interface: valid
 * deflate, smaller than zlib's level 9, not zlib's bytes.  The input is cut
 * into segments of ZO_SEG bytes, counted from the start of the stream or the
 * last flush; each segment is compressed on its own, seeing only its bytes
 * and the window before it, so segments can be parsed on several threads
 * and the output never depends on how the input was sliced, on the output
 * space or on the thread count:
 *
 *   opt_match.c   every useful match at each position (binary trees)
 *   opt_parse.c   iterated minimum-cost parse, block boundaries by dynamic
 *                 programming, the plan of a segment's blocks
 *   opt_huff.c    length-limited Huffman codes, the smallest code-length
 *                 header, block sizes, the bit writer
 *   deflate_opt.c the stream: buffering, flushes, threads, output
 *
 * A segment of ZO_CUT_MIN bytes or more is found and parsed as two parts
 * cut a little past its middle (ZO_MID): no match crosses the cut, and
 * part 1's matches come from trees of its own, so the two halves of each
 * of those steps can run on two threads; statistics and blocks stay the
 * segment's.  Where the cut is depends only on the segment's length and
 * the window before it, so the bytes do not depend on whether a second
 * thread took part 1.
 *
 * Every cost is an integer (1/16 bit), so the choices are the same on every
 * machine and compiler.
 */

#ifndef DEFLATE_OPT_H
#define DEFLATE_OPT_H

#include "deflate.h"
#include <string.h>
#define zo_move(d, s, n) memmove(d, s, n)   /* overlapping copies */

/* Levels 10-12 need a 64-bit integer type; FASTEST builds have only level 1. */
#if defined(Z_U8) && !defined(FASTEST)
#  define ZO_LEVELS
#endif

#ifndef ZO_SEG_BITS
#  define ZO_SEG_BITS 18        /* 256 KiB segments; tests build smaller */
#endif
#if ZO_SEG_BITS < 8 || ZO_SEG_BITS > 20
#  error "ZO_SEG_BITS must be 8..20"
#endif
#define ZO_SEG (1UL << ZO_SEG_BITS)

/* Segments of ZO_CUT_MIN bytes or more have two parts, [0, ZO_MID(c)) and
   [ZO_MID(c), c->n); shorter ones one, whose part 1 is empty.  Part 1's
   match finder first inserts the wsize positions before it, part 0's only
   the window the segment has (none at the start of a stream): the cut is
   a quarter of that difference past the middle, which evens out the two
   parts' time (finder and parse about alike), at most a quarter of n. */
#define ZO_CUT_MIN (ZO_SEG >> 2)
#define ZO_MIN(a, b) ((a) < (b) ? (a) : (b))
#define ZO_MID(c) ((c)->n < ZO_CUT_MIN ? (c)->n : ((c)->n >> 1) + \
    ZO_MIN(((c)->wsize - ZO_MIN((c)->hist, (c)->wsize)) >> 2, (c)->n >> 2))

#define ZO_MAX_LEVEL 12
#define ZO_MIN_LEVEL 10

#define ZO_NLL 288              /* literal/length symbols (286 used) */
#define ZO_NDIST 32             /* distance symbols (30 used) */
#define ZO_NCL 19               /* code length symbols */
#define ZO_EOB 256

typedef zt_u32 zo_u32;

/* An item of a parse: a literal (dist == 0, len is the byte) or a match of
   len 3..258 bytes at distance dist 1..32768, in one 32-bit word. */
typedef struct {
    zo_u32 v;                   /* len | dist << 9 */
} zo_item;
#define ZO_ITEM(len, dist) ((zo_u32)(len) | (zo_u32)(dist) << 9)
#define ZO_LEN(it) ((it).v & 0x1ff)
#define ZO_DIST(it) ((it).v >> 9)

/* A match found at a position: the shortest distance seen for lengths up to
   its length (matches at one position are stored by increasing length). */
typedef struct {
    ush len_dc;                 /* length | distance code << 9 */
    ush dist1;                  /* distance - 1 */
} zo_match;
#define ZO_MLEN(m) ((unsigned)(m).len_dc & 0x1ff)
#define ZO_MDC(m) ((unsigned)(m).len_dc >> 9)

/* A block's codes and how it is written. */
#define ZO_STORED 0
#define ZO_FIXED 1
#define ZO_DYNAMIC 2
typedef struct {
    zo_u32 first, n;            /* items [first, first + n) of the segment */
    zo_u32 start, len;          /* input bytes [start, start + len) */
    int type;
    uch ll_len[ZO_NLL], d_len[ZO_NDIST];
    int nll, nd;                /* HLIT + 257, HDIST + 1 */
    uch cl_len[ZO_NCL];
    int ncl;                    /* HCLEN + 4 */
    ush rle[ZO_NLL + ZO_NDIST]; /* code length symbols: sym | extra << 5 */
    int nrle;
    zo_u32 bits;                /* size of the chosen form, pad counted 7 */
} zo_block;

/* Per-level settings (opt_parse.c) */
typedef struct {
    int depth;                  /* binary tree nodes visited per position */
    int nice;                   /* a match this long ends the search */
    int skip;                   /* no search inside a nice match (no
                                   level; experiments) */
    int passes;                 /* parse passes over the whole segment */
    int block_passes;           /* further passes with each block's codes */
    int cand;                   /* candidate block boundaries, at most */
} zo_config;

/* Bit costs of a parse (1/16 bit): literal bytes, match lengths 3..258
   (code and extra bits), distance codes (code and extra bits). */
typedef struct {
    zo_u32 lit[256];
    zo_u32 len[262];            /* 259..261: padding for the parse */
    zo_u32 dist[30];
} zo_costs;

#define ZO_FLG 4096             /* counts whose f * log2(f) is tabulated */

/* A length code's lengths lo .. hi in the parse's minima: the least of
   win[i + l] for them is the least of win[i + o1] and win[i + o2] (offsets
   into the levels, opt_parse.c). */
typedef struct {
    zo_u32 o1, o2, lo;
} zo_lvq;

struct zo_part_s;

/* One segment's working memory: what a thread needs to compress it. */
typedef struct zo_ctx_s {
    /* input: base[0 .. hist + n), the segment is base[hist ..] */
    const Bytef *base;
    zo_u32 hist, n;
    zo_u32 wsize;
    int level, strategy;
    voidpf mem;                 /* the arrays below but items, best and
                                   blocks (deflate_opt.c) */
    /* match finder */
    zo_u32 *head;               /* ZO_HASH_SIZE tree roots */
    zo_u32 *head3;              /* ZO_HASH3_SIZE chain heads */
    zo_u32 *prev3;              /* wsize: a ring, the next older position
                                   on each position's chain */
    zo_u32 *child;              /* 2 * 2 * wsize: a ring of slots */
    zo_match *cache;            /* ZO_CACHE entries */
    zo_u32 *moff;               /* ZO_SEG + 1: where each segment position's
                                   matches start in the cache (the next
                                   position's start ends them) */
    zo_u32 nmatch;              /* in the cache, all positions */
    int longm;                  /* 1/16 of the positions or more have a
                                   match of ZO_LONG bytes or more */
    /* parse */
    zt_u64 *win;                /* ZO_WIN: least costs from the positions
                                   after the parse's, with the position;
                                   (ZO_NLV + 1) * ZO_LVL_N with the minima
                                   over 2^t positions (opt_parse.c) */
    zo_u32 *cost;               /* ZO_WIN: the costs alone (SSE2 parse) */
    zo_lvq lvq[29];             /* per length code, its minimum's loads */
    zt_u64 k64[548];            /* a block's prices, shifted (opt_parse.c) */
    zo_u32 *from;               /* ZO_SEG + 1: len | dist << 9 */
    zo_item *items, *best;      /* ZO_SEG each */
    zo_u32 nitems, nbest;
    /* blocks */
    zo_block *blocks, *bblocks; /* ZO_MAX_BLOCKS each: now, best */
    int nblocks;
    zo_costs *costs;            /* ZO_MAX_BLOCKS */
    zo_u32 *prefix;             /* (ZO_MAX_CAND + 1) * ZO_HSYMS histograms */
    zo_u32 *starts;             /* ZO_MAX_BLOCKS + 1 block starts */
    zt_u64 *est;                /* ZO_EST: the estimates of the blocks
                                   between candidate boundaries (split()) */
    zo_u32 lg[256];             /* log2(1 + i/256) * 65536 */
    zo_u32 flg[ZO_FLG];         /* f * log2(f) * 65536 (opt_parse.c) */
    uch dcode[512];             /* distance code of distance - 1 */
    uch lcode[259];             /* length code of a length */
    ush lnext[259];             /* first length of the next length code */
    int last;                   /* the segment ends the stream */
    /* part 1 of a step, which another thread may take (deflate_opt.c):
       offer() makes it available, finish() returns once it is done,
       having run it here if no one took it; without them it runs here */
    struct zo_part_s *part;
    void (*offer)(struct zo_ctx_s *c);
    void (*finish)(struct zo_ctx_s *c);
    void *team;                 /* the stream's threads, for them */
} zo_ctx;

/* Part 1 of the match finder or of a parse, with a copy of the segment's
   context made when it was offered: the arrays it writes are the
   segment's (cache and moff from its own first entry, or items from
   ZO_MID(c)), the scratch arrays are those of the context that runs it
   (zo_part_run()), so the result is the same on any thread. */
#define ZO_PART_FIND 0
#define ZO_PART_PARSE 1
#define ZO_PART_SPLIT 2         /* the block estimates' rows r1 + 1 .. K */
#define ZO_PART_BLOCKS 3        /* blocks b1 .. nblocks - 1 sized, priced */
#define ZO_SPLIT_PART_MIN 16    /* for K candidate pieces or more */

/* The block estimates' inputs (opt_parse.c) */
typedef struct {
    const zo_u32 *pre, *lst, *nit, *nmt;
    zo_u32 stride;
    int nused, inc;
    zt_u64 *est;
} zo_split;

typedef struct zo_part_s {
    int kind;
    const zo_costs *k;          /* the parse's prices, */
    const zo_u32 *starts;       /* block starts */
    int nb;                     /* and number of blocks */
    const zo_split *split;      /* the block estimates', */
    int r1, K;                  /* rows */
    int b1, kmode;              /* finish_blocks()' first block, prices */
    zo_u32 used, nlong;         /* the match finder's results */
    int state;                  /* deflate_opt.c's */
    zo_ctx w;
} zo_part;

/* Part 1's matches start at this cache entry (part 0's end before it). */
#define ZO_CAP0(mid) (4 * (zo_u32)(mid) + 512)

#define ZO_LONG 32              /* a long match (c->longm, opt_match.c) */
#define ZO_PIECE 4096           /* positions of a piece of the sweep, at
                                   most (opt_parse.c) */
#define ZO_SWEEP_MAX (ZO_SEG / 2 - 1 < ZO_PIECE ? ZO_SEG / 2 - 1 : ZO_PIECE)
#define ZO_WIN (ZO_PIECE + 8)   /* positions in the parse's window: a
                                   piece's keys, one more, fit */
#define ZO_WKEEP 262            /* kept when it slides (258 + padding) */
#define ZO_NLV 5                /* minima over 2^1 .. 2^5 positions: the
                                   widest length code has 32 lengths */
#define ZO_LVL_PAD 32           /* read above the window's top (2^5 - 1 at
                                   most, written as all ones) */
#define ZO_LVL_N (ZO_WIN + ZO_LVL_PAD)
#define ZO_HASH_BITS 16        /* trees: a hash of four bytes */
#define ZO_HASH_SIZE (1UL << ZO_HASH_BITS)
#define ZO_HASH3_BITS 16       /* chains: a hash of three bytes */
#define ZO_HASH3_SIZE (1UL << ZO_HASH3_BITS)
#ifndef ZO_CHAIN3
#  define ZO_CHAIN3 32          /* steps along a chain for a length 3 */
#endif
#define ZO_CACHE (4 * ZO_SEG + 1024)
#define ZO_SPLIT_STEP_MIN 64   /* items between candidate boundaries */
#define ZO_MAX_CAND 256         /* candidate boundaries per segment */
#define ZO_MAX_BLOCKS (ZO_MAX_CAND + 1)
#define ZO_HSYMS (ZO_NLL + ZO_NDIST)  /* symbols of a prefix histogram */
#define ZO_EST ((ZO_MAX_CAND + 1) * (ZO_MAX_CAND + 2) / 2)

/* the distance code of distance d1 + 1 */
#define ZO_DCODE(c, d1) ((c)->dcode[(d1) < 256 ? (d1) : 256 + ((d1) >> 7)])

/* A bit writer into a byte buffer large enough for what is written. */
typedef struct {
    Bytef *out;
    ulg pos;                    /* bytes written */
    zt_u64 buf;                 /* bits not yet written, low first */
    int nbits;
    int used;                   /* bits of the last byte before a stored
                                   block's padding (deflateUsed()), or -1 */
} zo_bits;

/* opt_huff.c */
void ZLIB_INTERNAL zo_huff_lengths(const zo_u32 *freq, int n, int maxbits,
                                   uch *len);
void ZLIB_INTERNAL zo_block_finish(zo_block *b, const zo_u32 *llf,
                                   const zo_u32 *df, int strategy);
void ZLIB_INTERNAL zo_block_freqs(const zo_ctx *c, const zo_item *it,
                                  zo_u32 n, zo_u32 *llf, zo_u32 *df);
void ZLIB_INTERNAL zo_write_block(zo_bits *w, const zo_block *b,
                                  const zo_item *items, const Bytef *in,
                                  int last);
int ZLIB_INTERNAL zo_len_code(unsigned len);
int ZLIB_INTERNAL zo_dist_code(unsigned dist);
extern const uch ZLIB_INTERNAL zo_len_extra[29];
extern const uch ZLIB_INTERNAL zo_dist_extra[30];
extern const ush ZLIB_INTERNAL zo_len_base[29];
extern const ush ZLIB_INTERNAL zo_dist_base[30];

/* opt_match.c */
void ZLIB_INTERNAL zo_find_matches(zo_ctx *c, const zo_config *cf);
void ZLIB_INTERNAL zo_find_part(zo_ctx *c, const zo_config *cf, int part,
                                zo_u32 *used, zo_u32 *nlong);

/* opt_parse.c */
ZLIB_INTERNAL const zo_config *zo_config_of(int level);
void ZLIB_INTERNAL zo_segment(zo_ctx *c);
void ZLIB_INTERNAL zo_parse_tables(zo_ctx *c);
void ZLIB_INTERNAL zo_part_run(zo_part *p, zo_ctx *t);
void ZLIB_INTERNAL zo_part_begin(zo_ctx *c, int kind);
void ZLIB_INTERNAL zo_part_end(zo_ctx *c);

/* deflate_opt.c, called by deflate.c */
int ZLIB_INTERNAL zo_init(deflate_state *s);
void ZLIB_INTERNAL zo_free(z_streamp strm);
int ZLIB_INTERNAL zo_copy(z_streamp dest, z_streamp source);
void ZLIB_INTERNAL zo_reset(deflate_state *s);
ulg ZLIB_INTERNAL zo_pending(deflate_state *s);
void ZLIB_INTERNAL zo_copy_out(deflate_state *s);
ulg ZLIB_INTERNAL zo_buffered(deflate_state *s);
uInt ZLIB_INTERNAL zo_dictionary(deflate_state *s, Bytef *dictionary);
void ZLIB_INTERNAL zo_threads_stop(deflate_state *s);
void ZLIB_INTERNAL zo_lost(deflate_state *s);
int ZLIB_INTERNAL zo_deflate(deflate_state *s, int flush);
/* zo_deflate() returns deflate.c's block_state values: */
#define ZO_NEED_MORE 0
#define ZO_BLOCK_DONE 1
#define ZO_FINISH_DONE 3

/* deflate.c: zlib's read_buf() (checksum, counters) for zo_deflate() */
unsigned ZLIB_INTERNAL zo_read_buf(z_streamp strm, Bytef *buf,
                                   unsigned size);

#endif /* DEFLATE_OPT_H */
