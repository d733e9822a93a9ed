/* deflate_mt.c -- threaded deflate with zlib's exact bytes
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * deflateSetThreads() lets deflate() at levels 4 to 9 (deflate_slow()) use
 * several threads and still write, call by call, exactly what zlib 1.3.2
 * writes on one.
 *
 * Why it can be done.  deflate_slow() puts every string on the hash chains,
 * so the chains a search walks are a function of the bytes alone (from the
 * last point where the chains were cleared on), never of the parse.  Its
 * state at the top of its loop (strstart, match_available, match_length,
 * match_start, prev_length: a zt_snap) and the bytes therefore decide every
 * later step, as long as the lookahead is at least MIN_LOOKAHEAD (always so
 * with Z_NO_FLUSH; only the last MIN_LOOKAHEAD bytes before a flush see a
 * shorter one).  And block ends do not change the parse.
 *
 * How.  The input is cut into segments of ZT_SEG bytes (shorter when the
 * input would not give every thread four; see deflate_mt_enter()).  A job runs zlib's
 * own deflate_slow() (deflate_job_run() in deflate.c, on a scratch state
 * with its own window and hash tables) over a copy of a segment and the
 * w_size bytes of history before it, and records the symbols it chose.  A
 * speculative job starts afresh a 32nd of a segment before it; the lazy parse falls into
 * step with zlib's within a few matches, and the job reports its whole state
 * at the first loop top at or after the segment's start.  The calling
 * thread stitches: a job is taken up only where its reported state equals
 * the state that the previous job (zlib's parse, by induction) ended in, at
 * the same position; from an equal state at one position the two parses are
 * the same.  Where they differ, the job is run again exactly, from the
 * previous job's end state.  The first job of a session starts from the
 * stream's own state and is exact.
 *
 * The calling thread (deflate_slow_threads() in deflate.c) then does
 * everything else as zlib does it, in zlib's order: the same loop tops, so
 * fill_window() runs at the same points and consumes the same input, the
 * same tallies, blocks ended and coded at the same symbols, and deflate()
 * returning at the same points with the same counters and pending output.
 * The hash chains are not kept while jobs parse: when the stream goes back
 * to zlib's own code (a flush's last bytes, deflateParams(), deflateCopy()
 * ...), deflate_rebuild_chains() puts on them the strings zlib would have,
 * and deflate_mt_exit() sets the state from the job's report (or from a
 * replay of the job up to that loop top, for an early stop).
 *
 * What the jobs read.  Each job gets its own copy of its bytes, made on the
 * calling thread when the job is planned, from zlib's window, the caller's
 * next_in and the previous job's copy: jobs may run while deflate() has
 * returned and the caller moves or reuses its buffer.  Every byte that
 * fill_window() later reads from the caller is compared with the copies
 * (deflate_mt_verify()); on a difference the session ends there, before any
 * symbol that depends on it, and zlib's own code goes on with the bytes
 * actually given.
 *
 * Which position is never a match.  zlib never matches the string at
 * window[0] (NIL), nor one before it; a job never matches the one at its
 * own window[0].  A slide leaves window[0] MAX_DIST or more behind
 * strstart: within reach only when it came at strstart == w_size + MAX_DIST
 * exactly, which needs a window that was not full (the input had ended
 * there).  The planner makes the two agree: a job's window[0] is either
 * too far back to be reached, or the start of the chains (zt_hist), which
 * is zlib's window[0] then, or, for a job planned at the current loop top
 * (a session's first, or one made at the end of the job before), zlib's
 * window[0] itself.  A job's history never starts before zlib's window[0]
 * then: the bytes before it may be nowhere (with segments shorter than
 * MIN_LOOKAHEAD, the job before copied less).  A slide to within reach
 * while jobs planned before it are live, also at a session's first loop
 * top, ends the session there (deflate_slow_threads()).
 *
 * Threads, memory.  All memory comes from the stream's zalloc, on the
 * calling thread: a few small blocks in deflateSetThreads(), the job
 * buffers at the first deflate() call that uses threads (if they cannot be
 * had, that call runs on one thread: the same bytes).  Threads start then
 * too and are joined by deflateEnd() and deflateSetThreads(strm, 1); if
 * some cannot start, the calling thread runs the jobs that nobody takes
 * (slower, the same bytes).  Per thread: two job
 * slots (a copy of up to w_size + ZT_SEG + MIN_LOOKAHEAD bytes and
 * room for ZT_SYM_CAP symbols) and a scratch state (a window, prev[] and
 * head[]).  The threads are a pool of the stream's (zpool.c: one mutex,
 * a condition variable for the workers, one for the calling thread).
 *
 * What bounds the speed: the calling thread still makes every loop step,
 * tallies every symbol and codes every block, and waits for a job when the
 * workers are behind; a job's history and warm-up cost w_size insertions and
 * a 32nd of a segment of extra parsing; and where the parse does not fall into step
 * (long runs of one period, whose matches all have the longest length) the
 * jobs are run again one after the other.
 */

#include "zutil.h"
#include "zturbo.h"
#include "deflate_mt.h"
#include "deflate_opt.h"            /* deflateSetThreads() for 10-12 too */

#ifdef ZT_THREADS

/* a scratch state for deflate_job_run(): one per thread */
typedef struct {
    deflate_state ds;
    z_stream zs;
    zt_mt *mt;
} zt_scratch;

struct zt_mt_s {
    int threads;            /* asked for, >= 2 */
    int nslots;             /* job slots, a ring */
    zt_job *slots;
    int head, count;        /* the current job and the live ones after it */
    uInt next;              /* index of the current job's next symbol */
    zt_snap from;           /* the state where the current job was taken up */
    int active;             /* a session is on */
    zt_pos_t hist;          /* the session's zt_hist */
    long seg;               /* the session's segment length */
    long warm;              /* and warm-up */
    zt_scratch *scratch;    /* [0] for the calling thread, [t] worker t's */
    int ready;              /* the job buffers are allocated */
    zt_pool *pool;          /* the workers (zpool.c): a post_work() when a
                               job is ready, a post_done() when one is
                               done */
#ifdef ZT_STATS
    unsigned long st_taken, st_rerun, st_made, st_replay, st_exit;
#endif
};

/* -DZT_STATS: count what the planner did, print it at deflateEnd() */
#ifdef ZT_STATS
#  include <stdio.h>
#  define STAT(mt, x) ((mt)->st_##x++)
#else
#  define STAT(mt, x)
#endif

local int buffers_new(z_streamp strm, zt_mt *mt);

#define MT(s) ((s)->zt_mt)
#define SLOT(mt, i) (&(mt)->slots[((mt)->head + (i)) % (mt)->nslots])
#define BUF_BYTES(s) ((s)->w_size + ZT_SEG + MIN_LOOKAHEAD)

/* the oldest job ready to run, or Z_NULL; lock held */
local zt_job *ready_job(zt_mt *mt) {
    int i;

    for (i = 0; i < mt->count; i++)
        if (SLOT(mt, i)->state == ZT_READY)
            return SLOT(mt, i);
    return Z_NULL;
}

/* worker t's task (zpool.h): run the oldest ready job, if any; lock held */
local int take(void *owner, int t) {
    zt_mt *mt = (zt_mt *)owner;
    zt_job *j = ready_job(mt);

    if (j == Z_NULL)
        return 0;
    j->state = ZT_RUNNING;
    zt_pool_unlock(mt->pool);
    deflate_job_run(&mt->scratch[t].ds, j);
    zt_pool_lock(mt->pool);
    j->state = ZT_DONE;
    zt_pool_post_done(mt->pool);
    return 1;
}

/* Wait until j is done, running ready jobs (j first) on the calling thread
 * meanwhile. */
local void wait_done(zt_mt *mt, zt_job *j) {
    zt_job *r;

    zt_pool_lock(mt->pool);
    while (j->state != ZT_DONE) {
        r = j->state == ZT_READY ? j : ready_job(mt);
        if (r == Z_NULL) {
            zt_pool_wait(mt->pool);
            continue;
        }
        r->state = ZT_RUNNING;
        zt_pool_unlock(mt->pool);
        deflate_job_run(&mt->scratch[0].ds, r);
        zt_pool_lock(mt->pool);
        r->state = ZT_DONE;
        zt_pool_post_done(mt->pool);
    }
    zt_pool_unlock(mt->pool);
}

/* Copy stream bytes [a, b) to dst from the caller's input, zlib's window or
 * prev's copy, whichever holds them.  Returns 0 if none does. */
local int fetch(deflate_state *s, const zt_job *prev, Bytef *dst,
                zt_pos_t a, zt_pos_t b) {
    zt_pos_t wb = s->zt_in - s->lookahead - s->strstart;    /* window[0] */
    zt_pos_t e;
    const Bytef *src;

    if (b > s->zt_in + s->strm->avail_in)
        return 0;
    while (a < b) {
        if (a >= s->zt_in) {
            src = s->strm->next_in + (a - s->zt_in);
            e = b;
        } else if (a >= wb) {
            src = s->window + (a - wb);
            e = b < s->zt_in ? b : s->zt_in;
        } else {
            if (prev == Z_NULL || a < prev->jb || a >= prev->je)
                return 0;
            src = prev->buf + (a - prev->jb);
            e = b < prev->je ? b : prev->je;
            if (e > wb)
                e = wb;
        }
        zmemcpy(dst, src, (uInt)(e - a));
        dst += e - a;
        a = e;
    }
    return 1;
}

/* Make slot j, the next after the live ones, an exact job from state f, and
 * fill it.  Its window[0] is w_size bytes before f's position, or the start
 * of the chains, or zlib's window[0] (s's now), whichever is latest: the
 * window holds every byte from there on, and a position before zlib's
 * window[0] is either out of reach or not on zlib's chains.  Returns 0 if
 * the bytes are not there (then nothing else changed). */
local int plan_exact(deflate_state *s, zt_job *j, const zt_snap *f) {
    zt_mt *mt = MT(s);
    zt_pos_t end = s->zt_in + s->strm->avail_in;
    zt_pos_t wb = s->zt_in - s->lookahead - s->strstart;    /* window[0] */

    j->exact = 1;
    j->init = *f;
    j->start = j->P = f->pos;
    j->Q = f->pos + mt->seg;
    if (j->Q + (MIN_LOOKAHEAD - 1) > end)
        j->Q = end - (MIN_LOOKAHEAD - 1);
    j->je = j->Q + (MIN_LOOKAHEAD - 1);
    j->jb = f->pos > mt->hist + s->w_size ? f->pos - s->w_size : mt->hist;
    if (j->jb < wb)
        j->jb = wb;
    return j->Q > j->P && fetch(s, Z_NULL, j->buf, j->jb, j->je);
}

/* Start workers as the planned jobs need them: one per job after the
 * current one, up to threads - 1.  A thread that cannot be started is not
 * tried again: the calling thread runs the jobs nobody takes. */
local void more_workers(zt_mt *mt) {
    int want = mt->count - 1 < mt->threads - 1 ? mt->count - 1 :
                                                 mt->threads - 1;

    if (zt_pool_workers(mt->pool) < want)
        (void)zt_pool_start(mt->pool, want);
}

/* Plan speculative jobs for the segments after the last live job, while
 * there are free slots and input for them. */
local void top_up(deflate_state *s) {
    zt_mt *mt = MT(s);
    zt_pos_t end = s->zt_in + s->strm->avail_in;

    while (mt->count < mt->nslots) {
        zt_job *prev = SLOT(mt, mt->count - 1);
        zt_job *j = SLOT(mt, mt->count);
        zt_pos_t P = prev->Q;

        if (end < P + MIN_LOOKAHEAD)
            break;
        j->exact = 0;
        j->P = P;
        j->Q = P + mt->seg;
        if (j->Q + (MIN_LOOKAHEAD - 1) > end)
            j->Q = end - (MIN_LOOKAHEAD - 1);
        j->je = j->Q + (MIN_LOOKAHEAD - 1);
        j->jb = P > mt->hist + s->w_size ? P - s->w_size : mt->hist;
        j->start = P > j->jb + mt->warm ? P - mt->warm : j->jb;
        if (!fetch(s, prev, j->buf, j->jb, j->je))
            break;
        zt_pool_lock(mt->pool);
        j->state = ZT_READY;
        mt->count++;
        zt_pool_post_work(mt->pool);
        zt_pool_unlock(mt->pool);
        more_workers(mt);       /* at once: it may start on this job */
    }
}

/* Drop every job, waiting for the running ones; no session after. */
local void discard(zt_mt *mt) {
    int i, busy;

    zt_pool_lock(mt->pool);
    do {
        busy = 0;
        for (i = 0; i < mt->nslots; i++) {
            if (mt->slots[i].state == ZT_RUNNING)
                busy = 1;
            else
                mt->slots[i].state = ZT_FREE;
        }
        if (busy)
            zt_pool_wait(mt->pool);
    } while (busy);
    mt->head = mt->count = 0;
    zt_pool_unlock(mt->pool);
    mt->active = 0;
}

/* Equal as far as anything later can tell: match_start is read only when
 * match_length or prev_length is at least MIN_MATCH (by deflate_slow(), or
 * by deflate_fast() after deflateParams()); below, every later search that
 * finds a match sets it before it is read. */
local int snap_equal(const zt_snap *a, const zt_snap *b) {
    return a->pos == b->pos && a->mlen == b->mlen && a->plen == b->plen &&
           a->avail == b->avail &&
           (a->mstart == b->mstart ||
            (a->mlen < MIN_MATCH && a->plen < MIN_MATCH));
}

/* ===========================================================================
 * At a loop top of deflate_slow(): go on with the session, or start one if
 * it is worth it (at least two of the shortest segments of input: ZT_SEG_MIN
 * bytes at levels 8 and 9, twice that at 6 and 7, four times at 4 and 5)
 * and safe (the chains that searches can reach all hold what jobs will put
 * on theirs).  Segments are made shorter, down to that, when the input
 * would not give every thread four; the warm-up is a 32nd of a segment, at
 * least ZT_WARM_MIN.  Returns 1 when
 * deflate_slow_threads() is to run.
 */
int ZLIB_INTERNAL deflate_mt_enter(deflate_state *s) {
    zt_mt *mt = MT(s);
    zt_pos_t t = s->zt_in - s->lookahead;
    zt_pos_t end = s->zt_in + s->strm->avail_in;
    zt_snap f;
    long least;
    int i;

    if (mt->active)
        return 1;
    /* windowBits 8 and 9 (a 512-byte window, MAX_DIST below MIN_LOOKAHEAD):
     * zlib's own code, always (fuzz-deflate_threads found parses that
     * differ there, turbo/results/threads-wbits9-2026-12-08.md) */
    if (s->w_size < 1024)
        return 0;
    /* a job's history costs w_size insertions: worth more parsing at the
     * faster levels */
    least = ZT_SEG_MIN << (s->level <= 5 ? 2 : s->level <= 7 ? 1 : 0);
    if (least > ZT_SEG)
        least = ZT_SEG;
    if (end - t < 2 * (zt_pos_t)least ||
        (!s->zt_hist_exact && t < s->zt_hist + s->w_size))
        return 0;
    if (buffers_new(s->strm, mt))
        return 0;
    mt->seg = ZT_SEG;
    while (mt->seg > least &&
           (zt_pos_t)mt->seg * 4 * mt->threads > end - t)
        mt->seg >>= 1;
    mt->warm = mt->seg >> 5 > ZT_WARM_MIN ? mt->seg >> 5 : ZT_WARM_MIN;
    for (i = 0; i < mt->threads; i++) {
        deflate_state *js = &mt->scratch[i].ds;

        js->level = s->level;
        js->strategy = s->strategy;
        js->max_lazy_match = s->max_lazy_match;
        js->good_match = s->good_match;
        js->nice_match = s->nice_match;
        js->max_chain_length = s->max_chain_length;
    }
    mt->hist = s->zt_hist;
    deflate_snap_get(s, &f);
    if (!plan_exact(s, SLOT(mt, 0), &f))
        return 0;
    zt_pool_lock(mt->pool);
    SLOT(mt, 0)->state = ZT_READY;
    mt->count = 1;
    zt_pool_post_work(mt->pool);
    zt_pool_unlock(mt->pool);
    mt->from = f;
    mt->next = 0;
    mt->active = 1;
    s->zt_stale = 1;
    top_up(s);
    return 1;
}

/* The current job, done; *next is its cursor. */
zt_jobp ZLIB_INTERNAL deflate_mt_job(deflate_state *s, uInt **next) {
    zt_mt *mt = MT(s);

    wait_done(mt, SLOT(mt, 0));
    *next = &mt->next;
    return SLOT(mt, 0);
}

/* ===========================================================================
 * At the current job's last loop top: take up the next job if its parse is
 * zlib's from here (its state here is the current job's), else run it again
 * exactly from here; make one if there is none.  Returns it, done.
 */
zt_jobp ZLIB_INTERNAL deflate_mt_advance(deflate_state *s, uInt **next) {
    zt_mt *mt = MT(s);
    zt_job *old = SLOT(mt, 0);
    zt_job *j = SLOT(mt, 1);
    zt_snap f;

    f = old->last;
    Assert(mt->next == old->nsyms, "job not used up");
    if (mt->count > 1) {
        wait_done(mt, j);
        if (snap_equal(&j->first, &f))
            STAT(mt, taken);
        else {
            STAT(mt, rerun);
            j->exact = 1;
            j->init = f;
            j->start = j->P = f.pos;
            deflate_job_run(&mt->scratch[0].ds, j);
        }
    } else {
        /* the lookahead is at least MIN_LOOKAHEAD: there is input */
        int ok = plan_exact(s, j, &f);

        STAT(mt, made);
        Assert(ok, "no input for the next job");
        (void)ok;
        deflate_job_run(&mt->scratch[0].ds, j);
        zt_pool_lock(mt->pool);
        j->state = ZT_DONE;
        mt->count = 2;
        zt_pool_unlock(mt->pool);
    }
    zt_pool_lock(mt->pool);
    old->state = ZT_FREE;
    mt->head = (mt->head + 1) % mt->nslots;
    mt->count--;
    zt_pool_unlock(mt->pool);
    mt->from = f;
    mt->next = 0;
    top_up(s);
    *next = &mt->next;
    return SLOT(mt, 0);
}

/* ===========================================================================
 * fill_window() just read stream bytes [from, zt_in) from the caller: the
 * same as the copies the jobs were given?  Returns 1 if so.
 */
int ZLIB_INTERNAL deflate_mt_verify(deflate_state *s, zt_pos_t from) {
    zt_mt *mt = MT(s);
    const Bytef *w = s->window + s->strstart + s->lookahead -
                     (uInt)(s->zt_in - from);
    int i;

    for (i = 0; i < mt->count; i++) {
        zt_job *j = SLOT(mt, i);
        zt_pos_t a = from > j->jb ? from : j->jb;
        zt_pos_t b = s->zt_in < j->je ? s->zt_in : j->je;

        if (a < b && zmemcmp(w + (a - from), j->buf + (a - j->jb),
                             (uInt)(b - a)) != 0)
            return 0;
    }
    return 1;
}

/* ===========================================================================
 * End the session at the current loop top: set s's state to zlib's there
 * (the job's report, or a replay of the current job up to here), drop the
 * jobs.  The chains stay stale until deflate_rebuild_chains().
 */
void ZLIB_INTERNAL deflate_mt_exit(deflate_state *s) {
    zt_mt *mt = MT(s);
    zt_job *j = SLOT(mt, 0);
    zt_pos_t t = s->zt_in - s->lookahead;
    zt_snap f;

    if (t == j->last.pos)
        f = j->last;
    else if (t == mt->from.pos)
        f = mt->from;
    else {
        STAT(mt, replay);
        j->exact = 1;
        j->init = mt->from;
        j->start = j->P = mt->from.pos;
        j->Q = t;
        j->je = t + (MIN_LOOKAHEAD - 1);
        deflate_job_run(&mt->scratch[0].ds, j);
        f = j->last;
        Assert(f.pos == t, "replay missed");
    }
    STAT(mt, exit);
    deflate_snap_set(s, &f);
    discard(mt);
}

/* Make sc a scratch state with s's geometry for jobs; 0 on success (else
 * what it allocated is left for scratch_free()). */
local int scratch_init(z_streamp strm, zt_scratch *sc, zt_mt *mt) {
    deflate_state *s = (deflate_state *)strm->state;
    deflate_state *js = &sc->ds;

    zmemzero(sc, sizeof(zt_scratch));
    sc->mt = mt;
    sc->zs.state = (struct internal_state FAR *)js;
    js->strm = &sc->zs;
    js->status = BUSY_STATE;
    js->w_bits = s->w_bits;
    js->w_size = s->w_size;
    js->w_mask = s->w_mask;
    js->window_size = s->window_size;
    js->hash_bits = s->hash_bits;
    js->hash_size = s->hash_size;
    js->hash_mask = s->hash_mask;
    js->hash_shift = s->hash_shift;
    js->zt_mt = Z_NULL;
    js->window = (Bytef *)ZALLOC(strm, s->w_size, 2 * sizeof(Byte));
    js->prev = (Posf *)ZALLOC(strm, s->w_size, sizeof(Pos));
    js->head = (Posf *)ZALLOC(strm, s->hash_size, sizeof(Pos));
    return js->window == Z_NULL || js->prev == Z_NULL || js->head == Z_NULL;
}

local void scratch_free(z_streamp strm, zt_scratch *sc) {
    deflate_state *js = &sc->ds;

    TRY_FREE(strm, js->head);
    TRY_FREE(strm, js->prev);
    TRY_FREE(strm, js->window);
    js->head = js->prev = Z_NULL;
    js->window = Z_NULL;
}

/* Free the job slots' copies and symbols and the scratch states (no job
 * running). */
local void buffers_free(z_streamp strm, zt_mt *mt) {
    int i;

    for (i = 0; i < mt->nslots; i++) {
        TRY_FREE(strm, mt->slots[i].syms);
        TRY_FREE(strm, mt->slots[i].buf);
        mt->slots[i].syms = Z_NULL;
        mt->slots[i].buf = Z_NULL;
    }
    for (i = 0; i < mt->threads; i++)
        scratch_free(strm, &mt->scratch[i]);
    mt->ready = 0;
}

/* Allocate what jobs need, at the first session, on the calling thread:
 * 0 on success; on failure nothing stays allocated, and the stream goes on
 * with one thread (the next session tries again). */
local int buffers_new(z_streamp strm, zt_mt *mt) {
    deflate_state *s = (deflate_state *)strm->state;
    int i;

    if (mt->ready)
        return 0;
    for (i = 0; i < mt->nslots; i++) {
        zt_job *j = &mt->slots[i];

        j->buf = (Bytef *)ZALLOC(strm, BUF_BYTES(s), 1);
        j->syms = (uchf *)ZALLOC(strm, ZT_SYM_CAP, 4);
        if (j->buf == Z_NULL || j->syms == Z_NULL) {
            buffers_free(strm, mt);
            return 1;
        }
    }
    for (i = 0; i < mt->threads; i++)
        if (scratch_init(strm, &mt->scratch[i], mt)) {
            buffers_free(strm, mt);
            return 1;
        }
    mt->ready = 1;
    return 0;
}

/* Free mt (its workers joined). */
local void mt_release(z_streamp strm, zt_mt *mt) {
    if (mt->slots != Z_NULL && mt->scratch != Z_NULL)
        buffers_free(strm, mt);
    TRY_FREE(strm, mt->slots);
    TRY_FREE(strm, mt->scratch);
    ZFREE(strm, mt);
}

/* Give strm's state a set of threads: the small blocks only, the job
 * buffers come at the first session.  Returns Z_OK or Z_MEM_ERROR (then
 * nothing stays allocated). */
local int mt_new(z_streamp strm, int threads) {
    deflate_state *s = (deflate_state *)strm->state;
    zt_mt *mt;

    mt = (zt_mt *)ZALLOC(strm, 1, sizeof(zt_mt));
    if (mt == Z_NULL)
        return Z_MEM_ERROR;
    zmemzero(mt, sizeof(zt_mt));
    mt->threads = threads;
    mt->nslots = 2 * threads;
    mt->slots = (zt_job *)ZALLOC(strm, mt->nslots, sizeof(zt_job));
    mt->scratch = (zt_scratch *)ZALLOC(strm, threads, sizeof(zt_scratch));
    if (mt->slots != Z_NULL)
        zmemzero(mt->slots, mt->nslots * sizeof(zt_job));
    if (mt->scratch != Z_NULL)
        zmemzero(mt->scratch, threads * sizeof(zt_scratch));
    if (mt->slots == Z_NULL || mt->scratch == Z_NULL)
        goto fail;
    mt->pool = zt_pool_new(strm, threads - 1, take, mt, 0);
    if (mt->pool == Z_NULL)
        goto fail;
    s->zt_mt = mt;
    return Z_OK;
fail:
    mt_release(strm, mt);
    return Z_MEM_ERROR;
}

/* ===========================================================================
 * fork(): a stream whose workers were started in the parent (zpool.c's
 * watch) goes on without them: jobs that a worker was running are run again
 * by the calling thread (a job's result depends only on its copy of the
 * input and its plan, so the bytes are the same), and the stream starts no
 * more workers.
 */
/* s's workers, if it has any, were started in this process?  If not (we
 * are a child of fork()), forget them as above. */
local void lost(deflate_state *s) {
    zt_mt *mt = s->zt_mt;
    int i;

    if (mt == Z_NULL || !zt_pool_lost(mt->pool))
        return;
    for (i = 0; i < mt->nslots; i++)
        if (mt->slots[i].state == ZT_RUNNING)
            mt->slots[i].state = ZT_READY;
}

/* Threads for a stream whose program gave it no count, from
 * ZLIB_TURBO_THREADS, once it has ZT_AUTO_MIN bytes of input at a level
 * and strategy that use them; not in a child of a process that started
 * threads here (there only the calling thread should run until exec()).
 * The environment is read once per stream.  Nothing is observable: if the
 * memory cannot be had the stream goes on with one thread. */
local void auto_threads(deflate_state *s) {
    z_streamp strm = s->strm;
    int n;

    if (s->level < 4 || (s->level <= 9 && (s->strategy == Z_HUFFMAN_ONLY ||
                                           s->strategy == Z_RLE)) ||
        strm->total_in + strm->avail_in < (uLong)ZT_AUTO_MIN)
        return;
    s->zt_auto = 1;
    n = zt_env_threads();
    if (n < 2 || zt_forks() != 0)
        return;
#ifdef ZO_LEVELS
    s->zo_threads = n;
#endif
    if (s->zt_mt == Z_NULL)
        (void)mt_new(strm, n);
}

#endif /* ZT_THREADS */

/* ===========================================================================
 * At the start of each deflate() call: threads from the environment, and
 * the threads lost in a fork().
 */
void ZLIB_INTERNAL deflate_mt_check(deflate_state *s) {
#ifdef ZT_THREADS
    if (!s->zt_auto)
        auto_threads(s);
    lost(s);
#  ifdef ZO_LEVELS
    zo_lost(s);
#  endif
#else
    (void)s;
#endif
}

/* ===========================================================================
 * End the session, if one is on, with s in zlib's state (chains aside).
 */
void ZLIB_INTERNAL deflate_mt_stop(deflate_state *s) {
#ifdef ZT_THREADS
    lost(s);
    if (s->zt_mt != Z_NULL && s->zt_mt->active)
        deflate_mt_exit(s);
#else
    (void)s;
#endif
}

/* Join the threads and free everything (deflateEnd(), one thread). */
void ZLIB_INTERNAL deflate_mt_free(z_streamp strm) {
#ifdef ZT_THREADS
    deflate_state *s = (deflate_state *)strm->state;
    zt_mt *mt = s->zt_mt;

    if (mt == Z_NULL)
        return;
    lost(s);
    discard(mt);
#ifdef ZT_STATS
    fprintf(stderr, "zlib-turbo threads: %lu sessions, %lu jobs taken up "
            "as planned, %lu run again, %lu made at a job's end, "
            "%lu replays\n", mt->st_exit, mt->st_taken, mt->st_rerun,
            mt->st_made, mt->st_replay);
#endif
    zt_pool_free(strm, mt->pool);
    mt->pool = Z_NULL;
    mt_release(strm, mt);
    s->zt_mt = Z_NULL;
#else
    (void)strm;
#endif
}

/* ========================================================================= */
int ZEXPORT deflateSetThreads(z_streamp strm, int threads) {
    if (deflatePending(strm, Z_NULL, Z_NULL) != Z_OK ||
        threads < 0 || threads > ZLIB_TURBO_MAX_THREADS)
        return Z_STREAM_ERROR;
#ifdef ZT_THREADS
    {
        deflate_state *s = (deflate_state *)strm->state;

        s->zt_auto = 1;                 /* the program's own count */
#ifdef ZO_LEVELS
        s->zo_threads = threads;        /* levels 10-12 (deflate_opt.c) */
        if (threads <= 1)
            zo_threads_stop(s);
#endif
        if (threads <= 1 || s->zt_mt == Z_NULL ||
            s->zt_mt->threads != threads) {
            deflate_mt_stop(s);
            deflate_mt_free(strm);
            if (threads > 1)
                return mt_new(strm, threads);
        }
        return Z_OK;
    }
#else
    return threads <= 1 ? Z_OK : Z_STREAM_ERROR;
#endif
}
