/* deflate_opt.c -- the stream side of levels 10 to 12
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * deflate() at levels 10-12 calls zo_deflate() in place of zlib's
 * compression functions.  The input is copied into a buffer that keeps the
 * window before it (2^windowBits bytes, or fewer after the start of the
 * stream, a dictionary or a full flush) and cut into segments of ZO_SEG
 * bytes: a segment is compressed once a byte after it has been read, or
 * when a flush has taken all the input so far (then the last segment is
 * shorter).  So where segments begin and end depends only on the input and
 * the flush points, never on how deflate() was called.  Each segment is
 * compressed alone (opt_parse.c), with its window as the only context, so
 * that several can be compressed at once, one per thread, and the blocks
 * are then written in order by the calling thread into an output buffer,
 * continuing the stream's bit buffer, and copied out as space allows.
 *
 * Flushes keep zlib's meaning: after Z_SYNC_FLUSH and Z_FULL_FLUSH every
 * byte read so far can be decompressed from the output (deflate() adds the
 * empty stored block), Z_FULL_FLUSH also forgets the window, Z_FINISH ends
 * with a last block, Z_BLOCK and Z_PARTIAL_FLUSH end the blocks.
 *
 * Memory, all from zalloc on the calling thread: at deflateInit2() the
 * buffers for one segment; threads' at the first deflate() call with 64 KiB
 * or more to work on: when it is a Z_FINISH call with one segment in all,
 * a helper's arrays for one other thread (it can only take the segment's
 * parts), else whole contexts and buffers for three segments per thread
 * (without them, fewer threads: the same bytes).
 */

#include "deflate_opt.h"
#include "zpool.h"                  /* ZT_THREADS, the threads */
#include "zturbo.h"

#ifdef ZO_LEVELS

/* A segment to compress and, once compressed, its blocks and items. */
typedef struct {
    const Bytef *base;          /* window, then the segment */
    zo_u32 hist, n;
    int last;
    zo_item *items;             /* ZO_SEG, swapped with the context's */
    zo_block *blocks;           /* ZO_MAX_BLOCKS, the same */
    int nblocks;
    int done;                   /* compressed (set with the lock held) */
} zo_plan;

#define ZO_JOBS_PER_THREAD 3    /* segments per batch: evens out their cost */

struct zo_state_s {
    /* input: in[0 .. have), new bytes from cur, the window from hstart */
    Bytef *in;
    ulg insize, have, cur, hstart;
    /* output: out[outpos .. outlen) still to be copied out */
    Bytef *out;
    ulg outsize, outpos, outlen;
    int final;                  /* the last block has been written */
    int nctx;                   /* contexts for whole segments: ctx[0 ..
                                   nctx - 1] */
    int nhelp;                  /* and helpers' for parts: ctx[nctx ..
                                   nhelp - 1] (a thread each, but ctx[0]) */
    zo_ctx *ctx[ZLIB_TURBO_MAX_THREADS];
    int nplan;                  /* segments compressed in one batch */
    zo_plan *plans;             /* nplan of them */
    int level, strategy;        /* of the batch */
    uInt wsize;
#ifdef ZT_THREADS
    zt_pool *pool;              /* the threads (zpool.c; waits spin): worker
                                   t works on ctx[t]; any change is a
                                   zt_pool_post() */
    int next, njobs, ndone;
    int pooled;                 /* the batch runs on the threads */
    int nparts;                 /* parts offered and not taken */
    zo_part *parts[ZLIB_TURBO_MAX_THREADS];
#endif
};

/* ===========================================================================
 * A context's arrays: allocated all, or none.  Those that never change
 * hands are carved from one allocation (c->mem): an allocator that keeps a
 * freed block for the next request of its size (glibc's malloc does once a
 * block of this size has been freed) then gives the next stream the same
 * pages instead of new ones to fault in and zero.  items, best and blocks
 * are passed between the context and the plans, so they stay apart.
 */
local void ctx_free(z_streamp strm, zo_ctx *c) {
    if (c == Z_NULL)
        return;
    TRY_FREE(strm, c->blocks);
    TRY_FREE(strm, c->best);
    TRY_FREE(strm, c->items);
    TRY_FREE(strm, c->mem);
    ZFREE(strm, c);
}

/* Bytes of an array of n elements of size sz in c->mem, rounded up to 64. */
#define ZO_AREA(n, sz) ((((ulg)(n) * (sz)) + 63) & ~(ulg)63)

/* Bytes of the arrays that zo_part_run() takes from the context that runs
   a part (the scratch arrays), and of the others, in c->mem. */
#define ZO_SCRATCH(wsize) (ZO_AREA(ZO_HASH_SIZE, sizeof(zo_u32)) + \
        ZO_AREA(ZO_HASH3_SIZE, sizeof(zo_u32)) + \
        ZO_AREA(wsize, sizeof(zo_u32)) + \
        ZO_AREA(4 * (ulg)(wsize), sizeof(zo_u32)) + \
        ZO_AREA((ZO_NLV + 1) * ZO_LVL_N, sizeof(zt_u64)) + \
        ZO_AREA(ZO_WIN, sizeof(zo_u32)) + \
        ZO_AREA(ZO_SEG + 1, sizeof(zo_u32)))
#define ZO_REST (ZO_AREA(ZO_CACHE, sizeof(zo_match)) + \
        ZO_AREA(ZO_SEG + 1, sizeof(zo_u32)) + \
        ZO_AREA(ZO_MAX_BLOCKS, sizeof(zo_block)) + \
        ZO_AREA(ZO_MAX_BLOCKS, sizeof(zo_costs)) + \
        ZO_AREA((ZO_MAX_CAND + 1) * ZO_HSYMS, sizeof(zo_u32)) + \
        ZO_AREA(ZO_MAX_BLOCKS + 1, sizeof(zo_u32)) + \
        ZO_AREA(ZO_EST, sizeof(zt_u64)) + \
        ZO_AREA(1, sizeof(zo_part)))

/* A context that compresses whole segments (full), or a helper's: only
   the scratch arrays, for the parts of another context's segment (a
   quarter of the memory: 2.4 MiB against 11.4 at windowBits 15). */
local zo_ctx *ctx_new(z_streamp strm, uInt wsize, int full) {
    zo_ctx *c = (zo_ctx *)ZALLOC(strm, 1, sizeof(zo_ctx));
    ulg at;
    Bytef *m;
    unsigned i;
    if (c == Z_NULL)
        return Z_NULL;
    zmemzero(c, sizeof(zo_ctx));
    c->mem = ZALLOC(strm, (uInt)(ZO_SCRATCH(wsize) + (full ? ZO_REST : 0)),
                    1);
    if (c->mem == Z_NULL) {
        ZFREE(strm, c);
        return Z_NULL;
    }
    if (full) {
        c->items = (zo_item *)ZALLOC(strm, ZO_SEG, sizeof(zo_item));
        c->best = (zo_item *)ZALLOC(strm, ZO_SEG, sizeof(zo_item));
        c->blocks = (zo_block *)ZALLOC(strm, ZO_MAX_BLOCKS,
                                       sizeof(zo_block));
        if (c->items == Z_NULL || c->best == Z_NULL || c->blocks == Z_NULL) {
            ctx_free(strm, c);
            return Z_NULL;
        }
    }
    /* the areas, each at a multiple of 64 bytes from the block's start */
    m = (Bytef *)c->mem;
    at = 0;
#define ZO_CARVE(ptr, type, n) do { \
        ptr = (type *)(m + at); \
        at += ZO_AREA(n, sizeof(type)); \
    } while (0)
    ZO_CARVE(c->head, zo_u32, ZO_HASH_SIZE);
    ZO_CARVE(c->head3, zo_u32, ZO_HASH3_SIZE);
    ZO_CARVE(c->prev3, zo_u32, wsize);
    ZO_CARVE(c->child, zo_u32, 4 * (ulg)wsize);
    ZO_CARVE(c->win, zt_u64, (ZO_NLV + 1) * ZO_LVL_N);
    ZO_CARVE(c->cost, zo_u32, ZO_WIN);
    ZO_CARVE(c->from, zo_u32, ZO_SEG + 1);
    if (!full)
        return c;
    ZO_CARVE(c->cache, zo_match, ZO_CACHE);
    ZO_CARVE(c->moff, zo_u32, ZO_SEG + 1);
    ZO_CARVE(c->bblocks, zo_block, ZO_MAX_BLOCKS);
    ZO_CARVE(c->costs, zo_costs, ZO_MAX_BLOCKS);
    ZO_CARVE(c->prefix, zo_u32, (ZO_MAX_CAND + 1) * ZO_HSYMS);
    ZO_CARVE(c->starts, zo_u32, ZO_MAX_BLOCKS + 1);
    ZO_CARVE(c->est, zt_u64, ZO_EST);
    ZO_CARVE(c->part, zo_part, 1);
#undef ZO_CARVE
    /* log2(1 + i/256) * 65536 by repeated squaring: integers only */
    for (i = 0; i < 256; i++) {
        zt_u64 z = (zt_u64)(256 + i) << 23;     /* (1 + i/256) * 2^31 */
        zo_u32 f = 0;
        int k;
        for (k = 0; k < 16; k++) {
            z = (z * z) >> 31;
            f <<= 1;
            if (z >= ((zt_u64)1 << 32)) {
                f |= 1;
                z >>= 1;
            }
        }
        c->lg[i] = f;
    }
    zo_parse_tables(c);
    for (i = 0; i < 259; i++)
        c->lcode[i] = (uch)(i < 3 ? 0 : zo_len_code(i));
    for (i = 0; i < 259; i++) {
        unsigned j = i + 1;
        while (j < 259 && c->lcode[j] == c->lcode[i])
            j++;
        c->lnext[i] = (ush)j;
    }
    /* each length code's lengths lo .. hi (s of them) as the least of two
       minima over 2^t positions, 2^t <= s < 2^(t + 1) */
    for (i = 3; i < 259; i = c->lnext[i]) {
        unsigned hi = c->lnext[i] - 1U, t = 0;
        while ((2U << t) <= hi - i + 1)
            t++;
        c->lvq[c->lcode[i]].lo = i;
        c->lvq[c->lcode[i]].o1 = t * ZO_LVL_N + i;
        c->lvq[c->lcode[i]].o2 = t * ZO_LVL_N + hi + 1 - (1U << t);
    }
    for (i = 0; i < 512; i++)
        c->dcode[i] = (uch)zo_dist_code(i < 256 ? i + 1 : ((i - 256) << 7) + 1);
    return c;
}

#define OUT_PER_SEG (ZO_SEG + 2048)

/* Plans: free the arrays of plans[from .. n-1]. */
local void plans_free(z_streamp strm, zo_plan *p, int from, int n) {
    while (n-- > from) {
        TRY_FREE(strm, p[n].blocks);
        TRY_FREE(strm, p[n].items);
    }
}

/* n plans, with their arrays; Z_NULL if any allocation fails. */
local zo_plan *plans_new(z_streamp strm, int n) {
    zo_plan *p = (zo_plan *)ZALLOC(strm, (uInt)n, sizeof(zo_plan));
    int i;
    if (p == Z_NULL)
        return Z_NULL;
    zmemzero(p, (unsigned)n * sizeof(zo_plan));
    for (i = 0; i < n; i++) {
        p[i].items = (zo_item *)ZALLOC(strm, ZO_SEG, sizeof(zo_item));
        p[i].blocks = (zo_block *)ZALLOC(strm, ZO_MAX_BLOCKS,
                                         sizeof(zo_block));
        if (p[i].items == Z_NULL || p[i].blocks == Z_NULL) {
            plans_free(strm, p, 0, i + 1);
            ZFREE(strm, p);
            return Z_NULL;
        }
    }
    return p;
}

#ifdef ZT_THREADS
local void part_offer(zo_ctx *c);
local void part_finish(zo_ctx *c);
#endif

/* Compress plan j on context t; the plan takes the blocks and items. */
local void run_job(struct zo_state_s *z, int t, int j) {
    zo_ctx *c = z->ctx[t];
    zo_plan *p = &z->plans[j];
    zo_item *it;
    zo_block *bl;
    c->base = p->base;
    c->hist = p->hist;
    c->n = p->n;
    c->wsize = z->wsize;
    c->level = z->level;
    c->strategy = z->strategy;
    c->last = p->last;
    c->offer = Z_NULL;
    c->finish = Z_NULL;
#ifdef ZT_THREADS
    if (z->pooled) {
        c->offer = part_offer;
        c->finish = part_finish;
        c->team = z;
    }
#endif
    zo_segment(c);
    it = p->items;
    p->items = c->items;
    c->items = it;
    bl = p->blocks;
    p->blocks = c->blocks;
    c->blocks = bl;
    p->nblocks = c->nblocks;
}

/* ===========================================================================
 * The state for one thread, at deflateInit2() or deflateParams().
 */
int ZLIB_INTERNAL zo_init(deflate_state *s) {
    z_streamp strm = s->strm;
    struct zo_state_s *z;

    if (s->zo != Z_NULL)
        return Z_OK;
    z = (struct zo_state_s *)ZALLOC(strm, 1, sizeof(struct zo_state_s));
    if (z == Z_NULL)
        return Z_MEM_ERROR;
    zmemzero(z, sizeof(struct zo_state_s));
    z->insize = s->w_size + ZO_SEG + 1;
    z->outsize = OUT_PER_SEG;
    z->in = (Bytef *)ZALLOC(strm, z->insize, 1);
    z->out = (Bytef *)ZALLOC(strm, z->outsize, 1);
    z->ctx[0] = ctx_new(strm, s->w_size, 1);
    z->plans = plans_new(strm, 1);
    if (z->in == Z_NULL || z->out == Z_NULL || z->ctx[0] == Z_NULL ||
        z->plans == Z_NULL) {
        if (z->plans != Z_NULL) {
            plans_free(strm, z->plans, 0, 1);
            ZFREE(strm, z->plans);
        }
        ctx_free(strm, z->ctx[0]);
        TRY_FREE(strm, z->out);
        TRY_FREE(strm, z->in);
        ZFREE(strm, z);
        return Z_MEM_ERROR;
    }
    z->nctx = z->nhelp = 1;
    z->nplan = 1;
    s->zo = z;
    return Z_OK;
}

/* ===========================================================================
 * Threads: workers take segments from ctx[next], the calling thread too;
 * a thread with no segment left takes a part another one offered.
 */
#ifdef ZT_THREADS
#define post(z) zt_pool_post((z)->pool)
#define wait_post(z) zt_pool_wait((z)->pool)

#define ZO_OFFERED 1
#define ZO_TAKEN 2
#define ZO_DONE 3

/* With the lock held: run the first part offered, if any, on context t,
   and return 1 (the lock held again). */
local int help(struct zo_state_s *z, int t) {
    zo_part *p;
    int i;
    if (z->nparts == 0)
        return 0;
    p = z->parts[0];
    for (i = 1; i < z->nparts; i++)
        z->parts[i - 1] = z->parts[i];
    z->nparts--;
    p->state = ZO_TAKEN;
    zt_pool_unlock(z->pool);
    zo_part_run(p, z->ctx[t]);
    zt_pool_lock(z->pool);
    p->state = ZO_DONE;
    post(z);
    return 1;
}

/* c's part 1, for the first thread that has nothing else to do. */
local void part_offer(zo_ctx *c) {
    struct zo_state_s *z = (struct zo_state_s *)c->team;
    zt_pool_lock(z->pool);
    c->part->state = ZO_OFFERED;
    z->parts[z->nparts++] = c->part;
    post(z);
    zt_pool_unlock(z->pool);
}

/* c's part 1 done: run here if still offered, else wait for it. */
local void part_finish(zo_ctx *c) {
    struct zo_state_s *z = (struct zo_state_s *)c->team;
    zo_part *p = c->part;
    zt_pool_lock(z->pool);
    if (p->state == ZO_OFFERED) {
        int i = 0;
        while (z->parts[i] != p)
            i++;
        for (i++; i < z->nparts; i++)
            z->parts[i - 1] = z->parts[i];
        z->nparts--;
        p->state = ZO_TAKEN;
        zt_pool_unlock(z->pool);
        zo_part_run(p, c);
        zt_pool_lock(z->pool);
        p->state = ZO_DONE;
    }
    while (p->state != ZO_DONE)
        wait_post(z);
    zt_pool_unlock(z->pool);
}

/* Worker t's task (zpool.h), the lock held: the next segment, if there is
   one and a context for it, else a part offered, if any. */
local int take(void *owner, int t) {
    struct zo_state_s *z = (struct zo_state_s *)owner;
    int j;
    if (z->next >= z->njobs || t >= z->nctx)
        return help(z, t);
    j = z->next++;
    zt_pool_unlock(z->pool);
    run_job(z, t, j);
    zt_pool_lock(z->pool);
    z->plans[j].done = 1;
    z->ndone++;
    post(z);
    return 1;
}

/* Forget the threads if they were started in the parent of a fork() (see
   zpool.c): between deflate() calls they only wait for work, and another
   batch runs on the calling thread. */
local void threads_lost(struct zo_state_s *z) {
    if (z->pool == Z_NULL || !zt_pool_lost(z->pool))
        return;
    z->next = z->njobs = z->ndone = 0;
    z->nparts = 0;
    z->pooled = 0;
}

local void threads_stop(z_streamp strm, struct zo_state_s *z) {
    if (z->pool == Z_NULL)
        return;
    threads_lost(z);
    zt_pool_free(strm, z->pool);
    z->pool = Z_NULL;
}
#endif

/* Write plan j's blocks with w, after what w holds. */
local void write_plan(struct zo_state_s *z, zo_bits *w, int j) {
    const zo_plan *p = &z->plans[j];
    int b;
    for (b = 0; b < p->nblocks; b++)
        zo_write_block(w, &p->blocks[b], p->items,
                       p->base + p->hist + p->blocks[b].start,
                       p->last && b == p->nblocks - 1);
}

/* Compress plans 0 .. k - 1 and write their blocks in order with w.  On
   the threads where there are, each takes the next plan not taken, the
   calling thread too, then parts offered until every plan is done; and
   the calling thread writes each plan as soon as it and those before it
   are compressed, before it takes another job: so the writing,
   serial by nature, overlaps the compression of the plans after it and
   only the last plans' is left when the batch ends.  The order of the
   writes, and so the bytes, are those of the plain loop below. */
local void run_segments(struct zo_state_s *z, int k, zo_bits *w) {
    int j;
    for (j = 0; j < k; j++)
        z->plans[j].done = 0;
#ifdef ZT_THREADS
    if (z->pool != Z_NULL && zt_pool_workers(z->pool) > 0) {
        int wrote = 0;
        zt_pool_lock(z->pool);
        z->next = 0;
        z->njobs = k;
        z->ndone = 0;
        z->pooled = 1;
        post(z);
        for (;;) {
            if (wrote < k && z->plans[wrote].done) {
                zt_pool_unlock(z->pool);
                write_plan(z, w, wrote++);
                zt_pool_lock(z->pool);
                continue;
            }
            if (z->next < z->njobs) {
                j = z->next++;
                zt_pool_unlock(z->pool);
                run_job(z, 0, j);
                zt_pool_lock(z->pool);
                z->plans[j].done = 1;
                z->ndone++;
                post(z);
                continue;
            }
            if (z->ndone == z->njobs)   /* and so all written, above */
                break;
            if (!help(z, 0))
                wait_post(z);
        }
        z->njobs = 0;
        z->next = 0;
        z->pooled = 0;
        zt_pool_unlock(z->pool);
        return;
    }
#endif
    for (j = 0; j < k; j++) {
        run_job(z, 0, j);
        write_plan(z, w, j);
    }
}

/* ===========================================================================
 * More contexts and bigger buffers for up to s->zo_threads segments at
 * once, or, for a Z_FINISH call with one segment in all, one helper's
 * context (a part at a time); on any failure keep what there is (the
 * output is the same).
 */
local void grow(deflate_state *s, int flush) {
    z_streamp strm = s->strm;
    struct zo_state_s *z = s->zo;
    int want = s->zo_threads;

    if (want > ZLIB_TURBO_MAX_THREADS)
        want = ZLIB_TURBO_MAX_THREADS;
    if (want <= z->nctx)
        return;
#ifdef ZT_THREADS
    if (flush == Z_FINISH && z->have - z->cur + strm->avail_in <= ZO_SEG) {
        /* all there is to compress is one segment: it offers one part at
           a time, so one other thread can help, and it needs only a
           helper's arrays */
        int n = z->nhelp;
        if (want > 2)
            want = 2;
        if (want <= n)
            return;
        while (n < want) {
            zo_ctx *c = ctx_new(strm, s->w_size, 0);
            if (c == Z_NULL)
                break;
            z->ctx[n++] = c;
        }
        z->nhelp = n;
    }
    else {
        int n0 = z->nctx, n = n0, np, i;
        zo_ctx *c[ZLIB_TURBO_MAX_THREADS];
        zo_plan *plans;
        Bytef *in, *out;
        ulg insize, outsize;

        while (n < want) {
            c[n] = ctx_new(strm, s->w_size, 1);
            if (c[n] == Z_NULL)
                break;
            n++;
        }
        np = n * ZO_JOBS_PER_THREAD;
        insize = s->w_size + (ulg)np * ZO_SEG + 1;
        outsize = (ulg)np * OUT_PER_SEG;
        if (insize < z->have)           /* read before the threads stopped */
            insize = z->have;
        plans = n > n0 ? plans_new(strm, np) : Z_NULL;
        in = plans != Z_NULL ? (Bytef *)ZALLOC(strm, (uInt)insize, 1) : Z_NULL;
        out = in != Z_NULL ? (Bytef *)ZALLOC(strm, (uInt)outsize, 1) : Z_NULL;
        if (out == Z_NULL) {
            TRY_FREE(strm, in);
            if (plans != Z_NULL) {
                plans_free(strm, plans, 0, np);
                ZFREE(strm, plans);
            }
            while (n > n0)
                ctx_free(strm, c[--n]);
            return;
        }
        zmemcpy(in, z->in, z->have);
        zmemcpy(out, z->out, z->outlen);
        ZFREE(strm, z->in);
        ZFREE(strm, z->out);
        plans_free(strm, z->plans, 0, z->nplan);
        ZFREE(strm, z->plans);
        z->in = in;
        z->out = out;
        z->insize = insize;
        z->outsize = outsize;
        z->plans = plans;
        z->nplan = np;
        /* the new contexts in place of helpers' (their threads wait for
           work, and read nctx with the lock held) */
        if (z->pool != Z_NULL)
            zt_pool_lock(z->pool);
        for (i = n0; i < n; i++) {
            zo_ctx *old = i < z->nhelp ? z->ctx[i] : Z_NULL;
            z->ctx[i] = c[i];
            c[i] = old;
        }
        z->nctx = n;
        if (z->nhelp < n)
            z->nhelp = n;
        if (z->pool != Z_NULL)
            zt_pool_unlock(z->pool);
        for (i = n0; i < n; i++)
            ctx_free(strm, c[i]);
    }
    if (z->pool == Z_NULL) {
        z->pool = zt_pool_new(strm, ZLIB_TURBO_MAX_THREADS - 1, take, z, 1);
        if (z->pool == Z_NULL)
            return;             /* no threads: the batches run in turn */
    }
    (void)zt_pool_start(z->pool, z->nhelp - 1);
#endif
}

/* ===========================================================================
 * At each deflate() call: forget threads lost in a fork().
 */
void ZLIB_INTERNAL zo_lost(deflate_state *s) {
#ifdef ZT_THREADS
    if (s->zo != Z_NULL)
        threads_lost(s->zo);
#else
    (void)s;
#endif
}

/* ===========================================================================
 * Stop the threads (deflateSetThreads(strm, 1), deflateEnd()).
 */
void ZLIB_INTERNAL zo_threads_stop(deflate_state *s) {
    struct zo_state_s *z = s->zo;
    if (z == Z_NULL)
        return;
#ifdef ZT_THREADS
    threads_stop(s->strm, z);
#endif
    while (z->nhelp > 1) {
        z->nhelp--;
        ctx_free(s->strm, z->ctx[z->nhelp]);
        z->ctx[z->nhelp] = Z_NULL;
    }
    z->nctx = 1;
}

void ZLIB_INTERNAL zo_free(z_streamp strm) {
    deflate_state *s = (deflate_state *)strm->state;
    struct zo_state_s *z = s->zo;
    int i;
    if (z == Z_NULL)
        return;
#ifdef ZT_THREADS
    threads_stop(strm, z);
#endif
    for (i = z->nhelp - 1; i >= 0; i--)
        ctx_free(strm, z->ctx[i]);
    plans_free(strm, z->plans, 0, z->nplan);
    ZFREE(strm, z->plans);
    TRY_FREE(strm, z->out);
    TRY_FREE(strm, z->in);
    ZFREE(strm, z);
    s->zo = Z_NULL;
}

/* deflateCopy(): the copy gets one context and the same buffered data. */
int ZLIB_INTERNAL zo_copy(z_streamp dest, z_streamp source) {
    deflate_state *ds = (deflate_state *)dest->state;
    struct zo_state_s *sz = ((deflate_state *)source->state)->zo, *z;

    ds->zo = Z_NULL;
    if (sz == Z_NULL)
        return Z_OK;
    z = (struct zo_state_s *)ZALLOC(dest, 1, sizeof(struct zo_state_s));
    if (z == Z_NULL)
        return Z_MEM_ERROR;
    zmemzero(z, sizeof(struct zo_state_s));
    z->insize = sz->have > ds->w_size + ZO_SEG + 1 ? sz->have :
                ds->w_size + ZO_SEG + 1;
    z->outsize = sz->outlen > OUT_PER_SEG ? sz->outlen : OUT_PER_SEG;
    z->in = (Bytef *)ZALLOC(dest, (uInt)z->insize, 1);
    z->out = (Bytef *)ZALLOC(dest, (uInt)z->outsize, 1);
    z->ctx[0] = ctx_new(dest, ds->w_size, 1);
    z->plans = plans_new(dest, 1);
    if (z->in == Z_NULL || z->out == Z_NULL || z->ctx[0] == Z_NULL ||
        z->plans == Z_NULL) {
        if (z->plans != Z_NULL) {
            plans_free(dest, z->plans, 0, 1);
            ZFREE(dest, z->plans);
        }
        ctx_free(dest, z->ctx[0]);
        TRY_FREE(dest, z->out);
        TRY_FREE(dest, z->in);
        ZFREE(dest, z);
        return Z_MEM_ERROR;
    }
    z->nctx = z->nhelp = 1;
    z->nplan = 1;
    zmemcpy(z->in, sz->in, sz->have);
    zmemcpy(z->out, sz->out, sz->outlen);
    z->have = sz->have;
    z->cur = sz->cur;
    z->hstart = sz->hstart;
    z->outpos = sz->outpos;
    z->outlen = sz->outlen;
    z->final = sz->final;
    ds->zo = z;
    return Z_OK;
}

void ZLIB_INTERNAL zo_reset(deflate_state *s) {
    struct zo_state_s *z = s->zo;
    if (z == Z_NULL)
        return;
    z->have = z->cur = z->hstart = 0;
    z->outpos = z->outlen = 0;
    z->final = 0;
}

/* Bytes written but not yet copied out. */
ulg ZLIB_INTERNAL zo_pending(deflate_state *s) {
    return s->zo == Z_NULL ? 0 : s->zo->outlen - s->zo->outpos;
}

/* Bytes read but not yet compressed. */
ulg ZLIB_INTERNAL zo_buffered(deflate_state *s) {
    return s->zo == Z_NULL ? 0 : s->zo->have - s->zo->cur;
}

/* deflateGetDictionary(): the last bytes read, up to the window size. */
uInt ZLIB_INTERNAL zo_dictionary(deflate_state *s, Bytef *dictionary) {
    struct zo_state_s *z = s->zo;
    ulg len = z->have - z->hstart;
    if (len > s->w_size)
        len = s->w_size;
    if (dictionary != Z_NULL && len)
        zmemcpy(dictionary, z->in + z->have - len, (unsigned)len);
    return (uInt)len;
}

/* ===========================================================================
 * Take a dictionary that deflateSetDictionary() or deflateUseDictionary()
 * left in zlib's window (window[0 .. strstart)) into the window here.
 */
local void take_dictionary(deflate_state *s) {
    struct zo_state_s *z = s->zo;
    ulg n = s->strstart, keep;
    if (n == 0)
        return;
    if (n > s->w_size)
        n = s->w_size;
    /* the new bytes go after what is here, the window stays w_size */
    keep = z->have - z->hstart;
    if (keep + n > s->w_size)
        keep = s->w_size - n;
    zo_move(z->in, z->in + z->have - keep, keep);
    zmemcpy(z->in + keep, s->window + s->strstart - n, n);
    z->have = z->cur = keep + n;
    z->hstart = 0;
    s->strstart = 0;
    s->block_start = 0;
    s->insert = 0;
}

/* Copy out what the output buffer holds, as space allows. */
local void copy_out(z_streamp strm, struct zo_state_s *z) {
    ulg n = z->outlen - z->outpos;
    if (n > strm->avail_out)
        n = strm->avail_out;
    if (n == 0)
        return;
    zmemcpy(strm->next_out, z->out + z->outpos, (unsigned)n);
    strm->next_out += n;
    strm->avail_out -= (uInt)n;
    strm->total_out += n;
    z->outpos += n;
    if (z->outpos == z->outlen)
        z->outpos = z->outlen = 0;
}

/* deflate(): the output of earlier calls first, as zlib's pending bytes. */
void ZLIB_INTERNAL zo_copy_out(deflate_state *s) {
    copy_out(s->strm, s->zo);
}

/* ===========================================================================
 * Compress k segments from z->cur, write their blocks; the last of them
 * ends the stream if last.
 */
local void segments(deflate_state *s, int k, ulg nbytes, int last) {
    struct zo_state_s *z = s->zo;
    zo_bits w;
    ulg pos = z->cur;
    int j;

    z->wsize = s->w_size;
    z->level = s->level;
    z->strategy = s->strategy;
    for (j = 0; j < k; j++) {
        zo_plan *p = &z->plans[j];
        ulg n = nbytes - (ulg)j * ZO_SEG, h = pos - z->hstart;
        if (n > ZO_SEG)
            n = ZO_SEG;
        if (h > s->w_size)
            h = s->w_size;
        p->base = z->in + pos - h;
        p->hist = (zo_u32)h;
        p->n = (zo_u32)n;
        p->last = last && j == k - 1;
        pos += n;
    }
    /* compress and write, after the bits the stream holds */
    w.out = z->out + z->outlen;
    w.pos = 0;
    w.buf = s->bi_buf;
    w.nbits = s->bi_valid;
    w.used = -1;
    run_segments(z, k, &w);
    if (last) {
        while (w.nbits > 0) {           /* the end: byte aligned */
            w.used = ((w.nbits - 1) & 7) + 1;
            w.out[w.pos++] = (Bytef)w.buf;
            w.buf >>= 8;
            w.nbits = w.nbits > 8 ? w.nbits - 8 : 0;
        }
        w.buf = 0;
        z->final = 1;
    }
    while (w.nbits >= 8) {
        w.out[w.pos++] = (Bytef)w.buf;
        w.buf >>= 8;
        w.nbits -= 8;
    }
    s->bi_buf = (bi_buf_t)w.buf;
    s->bi_valid = w.nbits;
    if (w.used >= 0)
        s->bi_used = w.used;
    z->outlen += w.pos;
    z->cur = pos;

    /* keep the window before the new bytes, move the rest down */
    {
        ulg keep = z->cur - z->hstart, drop;
        if (keep > s->w_size)
            keep = s->w_size;
        drop = z->cur - keep;
        if (drop) {
            zo_move(z->in, z->in + drop, z->have - drop);
            z->have -= drop;
            z->cur -= drop;
            z->hstart = z->hstart > drop ? z->hstart - drop : 0;
        }
    }
}

/* ===========================================================================
 * deflate() at levels 10-12: read, compress whole segments, copy out.
 * Returns as zlib's compression functions do.
 */
int ZLIB_INTERNAL zo_deflate(deflate_state *s, int flush) {
    z_streamp strm = s->strm;
    struct zo_state_s *z = s->zo;

    if (s->strstart != 0)
        take_dictionary(s);
    for (;;) {
        ulg nw, k;
        int ending;

        copy_out(strm, z);
        if (z->outlen != 0)
            return ZO_NEED_MORE;
        if (strm->avail_in != 0 && z->have < z->insize) {
            if (s->zo_threads > z->nctx &&
                z->have - z->cur + strm->avail_in >= ZO_CUT_MIN)
                grow(s, flush);
            z->have += zo_read_buf(strm, z->in + z->have,
                                   (unsigned)(z->insize - z->have));
        }
        nw = z->have - z->cur;
        ending = flush != Z_NO_FLUSH && strm->avail_in == 0;
        k = ending ? (nw + ZO_SEG - 1) / ZO_SEG :
            nw ? (nw - 1) / ZO_SEG : 0;
        if (k == 0) {
            if (!ending)
                return ZO_NEED_MORE;
            if (flush == Z_FINISH) {
                if (!z->final) {
                    segments(s, 1, 0, 1);       /* an empty last block */
                    continue;
                }
                return ZO_FINISH_DONE;
            }
            if (flush == Z_FULL_FLUSH)
                z->hstart = z->cur;
            return ZO_BLOCK_DONE;
        }
        if (k > (ulg)z->nplan)
            k = (ulg)z->nplan;
        if (k * ZO_SEG < nw)
            nw = k * ZO_SEG;
        segments(s, (int)k, nw, ending && flush == Z_FINISH &&
                 z->cur + nw == z->have);
    }
}

#else /* !ZO_LEVELS */
int ZLIB_INTERNAL zo_levels_unused = 0;
#endif
