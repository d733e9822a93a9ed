/* fuzz_optimal.c -- libFuzzer target for compression levels 10-12
 * (zturbo.h: Z_TURBO_OPTIMAL_FAST, Z_TURBO_OPTIMAL, Z_TURBO_OPTIMAL_BEST).
 *
 * tur-cflags: -DZO_SEG_BITS=10
 * fuzz-args: -max_len=2048
 *
 * These levels are not zlib's bytes, so nothing is compared with pristine
 * zlib's deflate.  Each input is a plan: parameters, a list of events at
 * input positions and the data.  zlib-turbo (zapi_tur) runs the plan twice:
 *   - "sliced": input and output in slices drawn from the fuzzer's bytes
 *     (down to one byte; a call that writes a flush marker -- Z_SYNC_FLUSH,
 *     Z_FULL_FLUSH, Z_PARTIAL_FLUSH -- gets room for all, since zlib's
 *     deflate() cannot say whether such a flush is complete when it returns
 *     with avail_out == 0), with deflateSetThreads() (before the first call
 *     and between calls), deflateCopy() (each copy is then given the rest
 *     of the plan on its own, sliced its own way, and must end with the
 *     stream's bytes), input moved to a new buffer for each call or
 *     overwritten after a call that left some of it unconsumed;
 *   - "one call": one deflate() per event with room for all, one thread, on
 *     the input as the sliced run was finally given it.
 * Both must write the same bytes; the stream must then inflate with
 * pristine zlib (zapi_ref) initialised with the same windowBits (and the
 * dictionary) to exactly the input, with nothing left over; after each
 * Z_SYNC_FLUSH / Z_FULL_FLUSH the output so far must inflate to exactly the
 * input so far; up to 16 KiB of input, the stream is inflated once more
 * with one byte of output per call, so that a distance beyond the window is
 * "invalid distance too far back".  Any failure abort()s with its reason.
 *
 * The turbo side is built with the tur-cflags line (run.sh reads it):
 * segments of 1 KiB instead of 256 KiB, so the data (mostly up to 2 KiB,
 * now and then up to 64 KiB) crosses several of them and the threads take
 * up many; the fuzzer's input stops at 2 KiB (fuzz-args).
 *
 * The header (16 bytes): 0-7 the generator's seed; 8 the level (10-12);
 * 9 the strategy; 10 windowBits 8-15 and the wrapper (raw, zlib, gzip);
 * 11 memLevel and how the data is expanded; 12 the thread count (1-8);
 * 13 the size: 8 bytes times 1-252, or 16 KiB times 1-4 (0xfc and up);
 * 14 flags: a dictionary (1), prepared (2), a gzip header (4),
 * deflateParams() switches (8), dense flushes (16), copies (32), input
 * moved (64), input overwritten (128); 15 how often the thread count
 * changes.  Built and run by turbo/tests/fuzz/run.sh optimal
 * (clang -fsanitize=fuzzer plus ASan and UBSan).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zapi.h"

#define FAIL(what) do { fprintf(stderr, "fuzz_optimal: %s (line %d)\n", what, \
    __LINE__); abort(); } while (0)

/* the generator, seeded from the header */
static uint64_t rng;
static unsigned rnd(unsigned n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return n ? (unsigned)((rng >> 11) % n) : 0;
}

#define MAXLEN (64u << 10)
#define MAXEV 48
#define MAXCOPY 3

enum { EV_FLUSH, EV_PARAMS, EV_THREADS, EV_COPY, EV_FINISH };
typedef struct {
    size_t pos;
    int kind, a, b;
} event;

typedef struct {
    int level, strategy, wbits, memlevel, threads;
    const unsigned char *dict;
    unsigned dlen;
    int prepared;
    gz_header *head;
    int move, overwrite;
    event ev[MAXEV + 1];
    int nev;
} plan;

typedef struct {
    unsigned char *buf;
    size_t len, cap;
} outbuf;

static void room(outbuf *o, size_t n) {
    if (o->len + n + 1 > o->cap) {
        o->cap = (o->len + n + 1) * 2;
        o->buf = realloc(o->buf, o->cap);
        if (o->buf == NULL) FAIL("out of memory");
    }
}

/* flush points of the one-call run: input position, output so far */
typedef struct {
    size_t in, out;
} mark;
static mark marks[MAXEV + 1];
static int nmarks;

/* the streams of one run: the plan's (0) and its copies, each continued
 * on its own from the event after the one that made it */
typedef struct {
    z_stream s[1 + MAXCOPY];
    outbuf o[1 + MAXCOPY];
    size_t pos[1 + MAXCOPY];    /* a copy's input position when made */
    int next[1 + MAXCOPY];      /* and its next event */
    int n;
} streams;

static unsigned char *work;     /* the input as given (sliced run) */
static size_t worklen;

/* one deflate() (or deflateParams(), params != 0) on stream i, with nin
 * bytes from pos and nout bytes of room */
static int call(streams *st, int i, int flush, size_t pos, size_t nin, size_t nout,
                int move, int params, int level, int strategy,
                size_t *used, size_t *made) {
    int rc;
    unsigned char *moved = NULL;
    const unsigned char *in = work + pos;
    static const unsigned char none[1] = {0};
    z_stream *s = &st->s[i];
    outbuf *o = &st->o[i];

    if (move) {
        moved = malloc(nin + 1);
        if (moved == NULL) FAIL("out of memory");
        memcpy(moved, work + pos, nin);
        in = moved;
    }
    if (nin == 0) in = none;
    room(o, nout);
    s->next_in = (Bytef *)in;
    s->avail_in = (uInt)nin;
    s->next_out = o->buf + o->len;
    s->avail_out = (uInt)nout;
    rc = params ? zapi_tur.deflateParams(s, level, strategy) : zapi_tur.deflate(s, flush);
    *used = nin - s->avail_in;
    *made = nout - s->avail_out;
    if (s->next_in != in + *used || s->next_out != o->buf + o->len + *made)
        FAIL("next_in/next_out do not match avail_in/avail_out");
    o->len += *made;
    s->next_in = Z_NULL;
    s->avail_in = 0;
    if (moved) {
        memset(moved, 0x5a, nin);
        free(moved);
    }
    if (getenv("FUZZ_OPTIMAL_TRACE"))
        fprintf(stderr, "fuzz_optimal: stream %d: %s(%d) in=%lu@%lu out=%lu -> %d took %lu wrote %lu\n",
                i, params ? "deflateParams" : "deflate", params ? level : flush,
                (unsigned long)nin, (unsigned long)pos, (unsigned long)nout, rc,
                (unsigned long)*used, (unsigned long)*made);
    return rc;
}

/* input slices: one to three bytes, small, medium, large, all */
static size_t in_slice(size_t left) {
    size_t n;
    switch (rnd(6)) {
    case 0: n = 1 + rnd(3); break;
    case 1: n = 1 + rnd(64); break;
    case 2: n = 1 + rnd(4096); break;
    case 3: n = 1 + rnd(40000); break;
    default: n = left; break;
    }
    if (getenv("FUZZ_OPTIMAL_WHOLE_IN")) n = left;
    return n < left ? n : left;
}
static size_t out_slice(size_t all) {
    size_t n;
    switch (rnd(6)) {
    case 0: n = 1; break;
    case 1: n = 1 + rnd(64); break;
    case 2: n = 1 + rnd(4096); break;
    default: n = all; break;
    }
    return getenv("FUZZ_OPTIMAL_WHOLE_OUT") ? all : n;
}

/* changes some input bytes not consumed yet (after pos) */
static void overwrite(size_t pos) {
    size_t a, m, i;
    if (pos >= worklen) return;
    a = pos + (rnd(2) ? rnd(64) : rnd((unsigned)(worklen - pos)));
    if (a >= worklen) a = pos;
    m = 1 + rnd(rnd(2) ? 16 : 3000);
    if (m > worklen - a) m = worklen - a;
    for (i = 0; i < m; i++) work[a + i] = (unsigned char)(work[a + i] + 1 + rnd(200));
}

/* The events from e0 on, on stream i, from input position pos. */
static void play(const plan *p, int sliced, streams *st, int i, int e0, size_t pos) {
    size_t all = 2 * worklen + 65536, used, made;
    int e, k, rc;

    for (e = e0; e <= p->nev; e++) {
        const event *ev = &p->ev[e];
        int flushy = ev->kind == EV_FLUSH || ev->kind == EV_FINISH;
        size_t stop = ev->pos;
        int stall = 0;
        if (flushy && (!sliced || rnd(3) == 0)) stop = pos;
        else if (flushy && rnd(2)) stop = ev->pos - in_slice(ev->pos - pos);
        while (pos < stop) {            /* input before the event */
            size_t nin = sliced ? in_slice(stop - pos) : stop - pos;
            size_t nout = sliced ? out_slice(all) : all;
            rc = call(st, i, Z_NO_FLUSH, pos, nin, nout, sliced && p->move, 0, 0, 0,
                      &used, &made);
            if (rc != Z_OK) FAIL("deflate(Z_NO_FLUSH) failed");
            pos += used;
            stall = used || made ? 0 : stall + 1;
            if (stall > 3) FAIL("deflate(Z_NO_FLUSH) makes no progress");
            if (sliced && p->overwrite && i == 0 && made == nout && rnd(3) == 0) overwrite(pos);
        }
        switch (ev->kind) {
        case EV_FLUSH:
        case EV_FINISH: {
            int flush = ev->a;
            int marker = flush == Z_SYNC_FLUSH || flush == Z_FULL_FLUSH ||
                         flush == Z_PARTIAL_FLUSH;
            for (k = 0;; k++) {
                size_t nout = marker || !sliced ? all : out_slice(all);
                rc = call(st, i, flush, pos, ev->pos - pos, nout,
                          sliced && p->move, 0, 0, 0, &used, &made);
                pos += used;
                if (flush == Z_FINISH && rc == Z_STREAM_END) {
                    if (pos != ev->pos) FAIL("Z_STREAM_END before all input was consumed");
                    break;
                }
                if (rc != Z_OK) FAIL("deflate with a flush failed");
                if (pos == ev->pos && made < nout) break;
                if (marker && k > 0) FAIL("a flush fills all the room it is given, twice");
                if (k > 10000000) FAIL("a flush never completes");
            }
            if (flush != Z_FINISH) {
                unsigned pend = 1;
                int bits = 9;
                zapi_tur.deflatePending(&st->s[i], &pend, &bits);
                if (pend != 0 || bits > 7 ||
                    ((flush == Z_SYNC_FLUSH || flush == Z_FULL_FLUSH) && bits != 0))
                    FAIL("deflatePending says output is held after a complete flush");
                if (!sliced && (flush == Z_SYNC_FLUSH || flush == Z_FULL_FLUSH)) {
                    marks[nmarks].in = pos;
                    marks[nmarks].out = st->o[i].len;
                    nmarks++;
                }
            }
            break;
        }
        case EV_PARAMS:
            for (k = 0;; k++) {
                size_t nout = sliced ? out_slice(all) : all;
                rc = call(st, i, 0, pos, 0, nout, 0, 1, ev->a, ev->b, &used, &made);
                if (rc == Z_OK) break;
                if (rc != Z_BUF_ERROR || made < nout)
                    FAIL("deflateParams among levels 10-12 failed");
                if (k > 10000000) FAIL("deflateParams never completes");
            }
            break;
        case EV_THREADS:
            if (sliced && !getenv("FUZZ_OPTIMAL_NO_THREADS") &&
                zapi_tur.deflateSetThreads(&st->s[i], ev->a) != Z_OK)
                FAIL("deflateSetThreads between calls refused");
            break;
        case EV_COPY:
            if (sliced && st->n <= MAXCOPY) {
                int c = st->n++;
                if (zapi_tur.deflateCopy(&st->s[c], &st->s[i]) != Z_OK)
                    FAIL("deflateCopy failed");
                room(&st->o[c], st->o[i].len);
                memcpy(st->o[c].buf, st->o[i].buf, st->o[i].len);
                st->o[c].len = st->o[i].len;
                st->pos[c] = pos;
                st->next[c] = e + 1;
            }
            break;
        }
    }
}

/* Runs the plan on zlib-turbo, sliced or in one call per event, into
 * out (the stream's bytes); the copies of the sliced run must end with the
 * same bytes. */
static void run(const plan *p, int sliced, outbuf *out) {
    streams st;
    int i, rc;

    memset(&st, 0, sizeof st);
    st.n = 1;
    rc = ZAPI_DEFLATE_INIT2(&zapi_tur, &st.s[0], p->level, Z_DEFLATED,
                            p->wbits, p->memlevel, p->strategy);
    if (rc != Z_OK) FAIL("deflateInit2 at a level 10-12 refused");
    if (p->head && zapi_tur.deflateSetHeader(&st.s[0], p->head) != Z_OK)
        FAIL("deflateSetHeader refused");
    if (p->dict) {
        if (p->prepared && zapi_tur.deflatePrepareDictionary) {
            z_stream q;
            struct z_dict_s *d = NULL;
            memset(&q, 0, sizeof q);
            if (ZAPI_DEFLATE_INIT2(&zapi_tur, &q, 10, Z_DEFLATED, p->wbits,
                                   p->memlevel, 0) != Z_OK ||
                zapi_tur.deflatePrepareDictionary(&q, p->dict, p->dlen, &d) != Z_OK)
                FAIL("deflatePrepareDictionary failed");
            zapi_tur.deflateEnd(&q);
            if (zapi_tur.deflateUseDictionary(&st.s[0], d) != Z_OK)
                FAIL("deflateUseDictionary refused");
            zapi_tur.deflateFreeDictionary(d);
        } else if (zapi_tur.deflateSetDictionary(&st.s[0], p->dict, p->dlen) != Z_OK) {
            FAIL("deflateSetDictionary refused");
        }
    }
    if (sliced && p->threads > 1 && !getenv("FUZZ_OPTIMAL_NO_THREADS") &&
        zapi_tur.deflateSetThreads(&st.s[0], p->threads) != Z_OK)
        FAIL("deflateSetThreads refused");
    if (!sliced) nmarks = 0;
    play(p, sliced, &st, 0, 0, 0);
    /* copies (made in the sliced run only), each given the rest of the plan */
    for (i = 1; i < st.n; i++) {
        play(p, sliced, &st, i, st.next[i], st.pos[i]);
        if (st.o[i].len != st.o[0].len || memcmp(st.o[i].buf, st.o[0].buf, st.o[0].len)) {
            fprintf(stderr, "fuzz_optimal: the copy made at input %lu ends with %lu bytes, the "
                    "stream with %lu\n", (unsigned long)st.pos[i], (unsigned long)st.o[i].len,
                    (unsigned long)st.o[0].len);
            FAIL("a copy (deflateCopy) given the rest of the plan writes other bytes");
        }
    }
    for (i = 0; i < st.n; i++) {
        if (zapi_tur.deflateEnd(&st.s[i]) != Z_OK) FAIL("deflateEnd after the end failed");
        if (i) free(st.o[i].buf);
    }
    *out = st.o[0];
}

/* the stream through pristine inflate: must give data, all of it used;
 * step: room per call (1: distances inside the window only) */
static void check(const plan *p, const unsigned char *z, size_t zn,
                  const unsigned char *data, size_t len, size_t step) {
    z_stream s;
    /* (consumed input counted by next_in: zlib's inflate leaves the
     * header out of total_in when it returns Z_NEED_DICT) */
    unsigned char *o = malloc(len + 1024);
    size_t have = 0, k = 0;
    int rc, wb = p->wbits;

    if (o == NULL) FAIL("out of memory");
    if (wb == 8) wb = 9;                        /* as deflate made it */
    memset(&s, 0, sizeof s);
    if (ZAPI_INFLATE_INIT2(&zapi_ref, &s, wb) != Z_OK) FAIL("inflateInit2");
    if (p->dict && wb < 0) zapi_ref.inflateSetDictionary(&s, p->dict, p->dlen);
    s.next_in = (Bytef *)z;
    s.avail_in = (uInt)zn;
    for (;;) {
        size_t r = len + 1024 - have;
        if (step && r > step) r = step;
        /* after each flush point, the output so far gives the input so far */
        if (!step && k < (size_t)nmarks && (size_t)(s.next_in - z) < marks[k].out) {
            s.avail_in = (uInt)(marks[k].out - (size_t)(s.next_in - z));
        }
        s.next_out = o + have;
        s.avail_out = (uInt)r;
        rc = zapi_ref.inflate(&s, Z_NO_FLUSH);
        have += r - s.avail_out;
        if (rc == Z_NEED_DICT) {
            if (!p->dict || zapi_ref.inflateSetDictionary(&s, p->dict, p->dlen) != Z_OK)
                FAIL("the stream asks for a dictionary it was not given");
            continue;
        }
        if (rc == Z_STREAM_END) break;
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            fprintf(stderr, "fuzz_optimal: inflate: %s\n", s.msg ? s.msg : "?");
            FAIL("pristine inflate rejects the stream");
        }
        if (!step && k < (size_t)nmarks && (size_t)(s.next_in - z) == marks[k].out && s.avail_in == 0) {
            if (have != marks[k].in || memcmp(o, data, have))
                FAIL("after Z_SYNC_FLUSH/Z_FULL_FLUSH the output so far does not give the input so far");
            k++;
            s.avail_in = (uInt)(zn - (size_t)(s.next_in - z));
            continue;
        }
        if (rc == Z_BUF_ERROR && s.avail_in == 0) FAIL("the stream ends early");
        if (have > len) FAIL("the stream gives more than the input");
    }
    if (have != len || memcmp(o, data, len)) FAIL("pristine inflate gives other bytes");
    if ((size_t)(s.next_in - z) != zn) {
        fprintf(stderr, "fuzz_optimal: the stream ends after %lu of its %lu bytes\n",
                (unsigned long)(size_t)(s.next_in - z), (unsigned long)zn);
        FAIL("bytes after the end of the stream");
    }
    zapi_ref.inflateEnd(&s);
    free(o);
}

/* The data: the input expanded to about target bytes (mode 0: copies with
 * a few bytes changed; 1: pieces of it in any order; 2: pieces, runs and
 * noise; 3: as given). */
static unsigned char *expand(const uint8_t *d, size_t n, size_t target, int mode,
                             size_t *plen) {
    size_t len = mode == 3 || target < n ? n : target, i = 0;
    unsigned char *b;
    if (len > MAXLEN) len = MAXLEN;
    b = malloc(len + 1);
    if (b == NULL) FAIL("out of memory");
    if (n == 0 || mode == 3) {
        for (i = 0; i < len; i++) b[i] = n ? d[i % n] : (unsigned char)rnd(256);
        *plen = len;
        return b;
    }
    while (i < len) {
        size_t a, m, k;
        if (mode == 2 && rnd(3) == 0) {
            m = 1 + rnd(rnd(2) ? 300 : 5000);
            if (rnd(2)) {
                size_t per = 1 + rnd(rnd(2) ? 4 : 200);
                for (k = 0; k < m && i < len; k++, i++) b[i] = i >= per ? b[i - per] : d[k % n];
            } else {
                for (k = 0; k < m && i < len; k++, i++) b[i] = (unsigned char)rnd(256);
            }
            continue;
        }
        if (mode == 0) {
            a = 0;
            m = n;
        } else {
            a = rnd((unsigned)n);
            m = 1 + rnd((unsigned)(n - a));
        }
        if (m > len - i) m = len - i;
        memcpy(b + i, d + a, m);
        i += m;
    }
    if (mode == 0)
        for (i = rnd(32); i; i--) b[rnd((unsigned)len)] ^= (unsigned char)(1 + rnd(255));
    *plen = len;
    return b;
}

static const int strategies[8] = {Z_DEFAULT_STRATEGY, Z_DEFAULT_STRATEGY, Z_DEFAULT_STRATEGY,
                                  Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED, Z_FIXED};
static const int flushes[6] = {Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_PARTIAL_FLUSH, Z_BLOCK,
                               Z_SYNC_FLUSH, Z_BLOCK};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *h = data;
    plan p;
    unsigned char *given, *dict = NULL;
    size_t len, i, pos, target, gap;
    int flags, mode, wsize, copies = 0;
    gz_header head;
    outbuf a, b;

    if (size < 16) return 0;
    rng = 0x9e3779b97f4a7c15ull;
    for (i = 0; i < 8; i++) rng = (rng << 8 | rng >> 56) ^ h[i];
    rng |= 1;
    memset(&p, 0, sizeof p);
    p.level = 10 + h[8] % 3;
    p.strategy = strategies[h[9] & 7];
    wsize = 8 + (h[10] & 7);
    switch ((h[10] >> 3) & 3) {
    case 0: p.wbits = -(wsize == 8 ? 9 : wsize); break;
    case 2: p.wbits = (wsize == 8 ? 9 : wsize) + 16; break;
    default: p.wbits = wsize; break;
    }
    p.memlevel = 1 + (h[11] & 15) % 9;
    mode = (h[11] >> 4) & 3;
    p.threads = 1 + (h[12] & 7);
    /* mostly small data, whose executions are cheap: each 1 KiB segment of
     * this build inserts the window before it again, and inputs of 4-64 KiB,
     * 3% of a corpus, took 70% of its replay time; a small windowBits
     * slides the window within 2 KiB, so large data is kept for one header
     * value in 64 */
    if (h[13] >= 0xfc)
        target = (size_t)((h[13] & 3) + 1) << 14;
    else
        target = (size_t)(h[13] + 1) << 3;
    flags = h[14];
    data += 16;
    size -= 16;

    given = expand(data, size, target, mode, &len);
    if ((flags & 1) && p.wbits <= 15 && len) {   /* a dictionary from the data */
        p.dlen = 1 + rnd((unsigned)(len < 40000 ? len : 40000));
        dict = malloc(p.dlen);
        if (dict == NULL) FAIL("out of memory");
        memcpy(dict, given + rnd((unsigned)(len - p.dlen + 1)), p.dlen);
        p.dict = dict;
        p.prepared = (flags & 2) != 0;
    }
    if ((flags & 4) && p.wbits > 15) {
        memset(&head, 0, sizeof head);
        head.text = rnd(2);
        head.time = rnd(1000000);
        head.os = rnd(256);
        head.hcrc = rnd(2);
        head.name = (Bytef *)"fuzz_optimal";
        p.head = &head;
    }
    p.move = (flags & 64) != 0;
    p.overwrite = (flags & 128) != 0;
    /* events */
    gap = flags & 16 ? 1 + rnd(2000) : 1 + rnd(20000);
    for (pos = 0; p.nev < MAXEV;) {
        event *ev = &p.ev[p.nev];
        pos += 1 + rnd((unsigned)(2 * gap));
        if (pos >= len) break;
        ev->pos = pos;
        switch (rnd(8)) {
        case 0: case 1: case 2:
            ev->kind = EV_FLUSH;
            ev->a = flushes[rnd(6)];
            break;
        case 3: case 4:
            if (!(flags & 8)) continue;
            ev->kind = EV_PARAMS;
            ev->a = 10 + (int)rnd(3);
            ev->b = rnd(3) ? p.strategy : strategies[rnd(8)];
            break;
        case 5: case 6:
            if (!h[15] || rnd(256) >= h[15]) continue;
            ev->kind = EV_THREADS;
            ev->a = (int)rnd(9);
            break;
        default:
            if (!(flags & 32) || copies++ >= MAXCOPY) continue;
            ev->kind = EV_COPY;
            break;
        }
        p.nev++;
    }
    p.ev[p.nev].pos = len;
    p.ev[p.nev].kind = EV_FINISH;
    p.ev[p.nev].a = Z_FINISH;

    if (getenv("FUZZ_OPTIMAL_VERBOSE")) {        /* the plan, for a report */
        static const char *kinds[] = {"flush", "deflateParams", "deflateSetThreads",
                                      "deflateCopy", "finish"};
        int e;
        fprintf(stderr, "fuzz_optimal: level %d strategy %d windowBits %d memLevel %d "
                "threads %d, %lu bytes, dictionary %u%s%s%s%s\n", p.level, p.strategy,
                p.wbits, p.memlevel, p.threads, (unsigned long)len, p.dlen,
                p.prepared && p.dict ? " (prepared)" : "", p.head ? ", gzip header" : "",
                p.move ? ", input moved" : "", p.overwrite ? ", input overwritten" : "");
        for (e = 0; e <= p.nev; e++)
            fprintf(stderr, "fuzz_optimal:   @%lu %s %d %d\n", (unsigned long)p.ev[e].pos,
                    kinds[p.ev[e].kind], p.ev[e].a, p.ev[e].b);
        if (getenv("FUZZ_OPTIMAL_DATA")) {          /* the data, to a file */
            FILE *f = fopen(getenv("FUZZ_OPTIMAL_DATA"), "wb");
            if (f) {
                fwrite(given, 1, len, f);
                fclose(f);
            }
        }
    }
    /* the sliced run on the buffer it may change, then the one-call run on
     * the input as it was finally given */
    worklen = len;
    work = malloc(len + 1);
    if (work == NULL) FAIL("out of memory");
    memcpy(work, given, len);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    run(&p, 1, &a);
    run(&p, 0, &b);
    if (a.len != b.len || memcmp(a.buf, b.buf, a.len)) {
        size_t k = 0;
        while (k < a.len && k < b.len && a.buf[k] == b.buf[k]) k++;
        fprintf(stderr, "fuzz_optimal: sliced run %lu bytes, one-call run %lu, first "
                "difference at %lu\n", (unsigned long)a.len, (unsigned long)b.len,
                (unsigned long)k);
        FAIL("the sliced run (threads, copies, slices) writes other bytes than one call per event");
    }
    check(&p, b.buf, b.len, work, len, 0);
    if (len <= 16384) check(&p, b.buf, b.len, work, len, 1);
    free(a.buf);
    free(b.buf);
    free(work);
    work = NULL;
    free(dict);
    free(given);
    return 0;
}
