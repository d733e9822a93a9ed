/* deflate_mt.h -- internal interface of zlib-turbo's threaded deflate
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * Between deflate.c, which parses and codes, and deflate_mt.c, which plans
 * the jobs, hands them to its pool's threads (zpool.c) and keeps the copies
 * of the input.  How the
 * two together keep zlib's bytes: deflate_mt.c's opening comment.
 */
#ifndef DEFLATE_MT_H
#define DEFLATE_MT_H

#include "deflate.h"
#include "zpool.h"              /* ZT_THREADS: whether threads are built */

#ifdef ZT_THREADS

/* deflate_slow()'s whole state at the top of its loop, before the string
 * there is inserted: what decides every later step there, given the input.
 * Positions are stream positions (zt_pos_t); match_start is kept as one too,
 * through its distance from strstart modulo 2^32, as zlib's unsigned
 * arithmetic keeps it when the window slides.
 */
typedef struct {
    zt_pos_t pos;       /* strstart */
    zt_pos_t mstart;    /* match_start */
    uInt mlen;          /* match_length */
    uInt plen;          /* prev_length */
    int avail;          /* match_available */
} zt_snap;

/* One job: deflate_slow() run over stream bytes [jb, je), kept in buf.
 * Speculative: starts afresh at `start` (a little before P) and reports its
 * state at the first loop top at or after P (first).  Exact: starts at
 * start == P in state init, zlib's own.  Either way it records the symbols
 * of the loop tops from there up to the first loop top at or after Q, where
 * it stops (je == Q + MIN_LOOKAHEAD - 1) and reports its state (last).
 */
typedef struct {
    int state;          /* ZT_FREE, ZT_READY, ZT_RUNNING, ZT_DONE */
    int exact;
    zt_pos_t jb, je;    /* the bytes in buf */
    zt_pos_t start;     /* first loop top parsed */
    zt_pos_t P, Q;
    zt_snap init;       /* exact only */
    zt_snap first;      /* out: at the first loop top >= P */
    zt_snap last;       /* out: at the first loop top >= Q */
    uInt nsyms;         /* out: symbols from first to last */
    Bytef *buf;
    uchf *syms;         /* sym_buf (or d_buf, l_buf with LIT_MEM) */
} zt_job, *zt_jobp;

#define ZT_FREE 0
#define ZT_READY 1
#define ZT_RUNNING 2
#define ZT_DONE 3

typedef struct zt_mt_s zt_mt;

/* Segments are ZT_SEG bytes, or down to ZT_SEG_MIN for shorter inputs; a
 * speculative job parses a 32nd of a segment (at least ZT_WARM_MIN bytes)
 * before its own to fall into zlib's parse; a job holds up to ZT_SYM_CAP
 * symbols (ZT_WARM + MAX_MATCH for the warm-up, ZT_SEG + MAX_MATCH after).
 * Threads are used from 2 * ZT_SEG_MIN bytes of input on (levels 8-9; twice
 * that at 6-7, four times at 4-5).  ZT_SEG_BITS may
 * be set at build time (10 .. 24); the tests also use small segments, so
 * that small inputs cross many of them.
 */
#ifndef ZT_SEG_BITS
#  define ZT_SEG_BITS 18
#endif
#if ZT_SEG_BITS < 10 || ZT_SEG_BITS > 24
#  error ZT_SEG_BITS out of range
#endif
#define ZT_SEG (1L << ZT_SEG_BITS)
#define ZT_SEG_MIN (ZT_SEG >> 3)
#define ZT_WARM_MIN 1024L
#define ZT_WARM (ZT_SEG >> 5 > ZT_WARM_MIN ? ZT_SEG >> 5 : ZT_WARM_MIN)
#define ZT_SYM_CAP (ZT_SEG + ZT_WARM + 2 * MAX_MATCH)

/* ZLIB_TURBO_THREADS in the environment gives a stream that the program
 * gave no thread count threads once it has taken ZT_AUTO_MIN bytes of input
 * (deflate_mt_check()): a megabyte by default, enough to pay for starting
 * them many times over, so that programs with many small streams run as
 * before. */
#define ZT_AUTO_MIN (4 * ZT_SEG)

/* deflate.c: run job j on the scratch state js (made by deflate_mt.c with
 * the stream's geometry and the session's parameters); read or set the
 * state at a loop top */
void ZLIB_INTERNAL deflate_job_run(deflate_state *js, zt_job *j);
void ZLIB_INTERNAL deflate_snap_get(deflate_state *s, zt_snap *sn);
void ZLIB_INTERNAL deflate_snap_set(deflate_state *s, const zt_snap *sn);

/* deflate_mt.c, called by deflate_slow() on the calling thread */
int ZLIB_INTERNAL deflate_mt_enter(deflate_state *s);
zt_jobp ZLIB_INTERNAL deflate_mt_job(deflate_state *s, uInt **cursor);
zt_jobp ZLIB_INTERNAL deflate_mt_advance(deflate_state *s, uInt **cursor);
int ZLIB_INTERNAL deflate_mt_verify(deflate_state *s, zt_pos_t from);
void ZLIB_INTERNAL deflate_mt_exit(deflate_state *s);

/* one symbol of a job: dist 0 for a literal lc, else a match of length
 * lc + MIN_MATCH at distance dist */
#ifdef LIT_MEM
#  define ZT_JOB_SYM(j, i, dist, lc) \
    (dist = ((ushf *)(j)->syms)[i], \
     lc = (j)->syms[2 * ZT_SYM_CAP + (i)])
#else
#  define ZT_JOB_SYM(j, i, dist, lc) \
    (dist = (unsigned)(j)->syms[3 * (i)] + \
            ((unsigned)(j)->syms[3 * (i) + 1] << 8), \
     lc = (j)->syms[3 * (i) + 2])
#endif

#endif /* ZT_THREADS */

/* deflate_mt.c, called by deflate.c whether or not threads are built in */
void ZLIB_INTERNAL deflate_mt_check(deflate_state *s);
void ZLIB_INTERNAL deflate_mt_stop(deflate_state *s);
void ZLIB_INTERNAL deflate_mt_free(z_streamp strm);

#endif /* DEFLATE_MT_H */
