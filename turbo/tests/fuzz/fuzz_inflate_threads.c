/* fuzz_inflate_threads.c -- libFuzzer target for threaded inflate
 * (inflateSetThreads(), zturbo.h).
 *
 * tur-cflags: -DZI_CHUNK_BITS=12
 * fuzz-args: -max_len=4096
 *
 * Pristine zlib 1.3.2 (zapi_ref, one thread) and zlib-turbo (zapi_tur,
 * given 2..9 threads with inflateSetThreads()) inflate the same stream with
 * the same calls; after every call the return code, msg, next_in,
 * avail_in, next_out, avail_out, total_in, total_out, adler, data_type,
 * inflateMark(), the output bytes (and the bytes after them) and now and
 * then inflateGetDictionary() must be the same.  Any difference abort()s.
 *
 * Threads take over only streams of many dynamic blocks, several chunks
 * long, so the stream is made here: the fuzzer's bytes are a plan, and its
 * data (the input after a 12-byte header, expanded to 2-64 KiB) is
 * compressed by pristine deflate with a small memLevel (blocks of a few
 * hundred bytes; memLevel 1 would spend the time building Huffman trees),
 * then damaged as the plan says.  The turbo side is built
 * with the tur-cflags line (run.sh reads it): chunks of 4 KiB instead of
 * 1 MiB, so a stream of 12 KiB already has worker hand-offs.
 *
 * The header: 0-3 the generator's seed; 4 the wrapper (raw, zlib, gzip,
 * two gzip members) and windowBits 9-15; 5 the level (1-9) and strategy;
 * 6 memLevel (2-5) and how the data is expanded; 7 the thread count; 8 the
 * input slicing, 9 the output slicing (a size class each, the rest seeds
 * them); 10 flags: a dictionary (1), flushes other than Z_NO_FLUSH (2),
 * inflateGetDictionary() after every call (4), input moved to a new buffer
 * for every call (8), inflateSetThreads() between calls (16), the stream
 * cut short (32); 11 the number of bytes changed (0-7, and where: low bits
 * of the seed).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "zapi.h"

#define MAXDATA (64u << 10)
#define CAP (MAXDATA + 1024)

static uint64_t rng;
static unsigned rnd(unsigned n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return n ? (unsigned)((rng >> 11) % n) : 0;
}

/* a slice size for class c: 1..4, 1..300, 1..20000, or everything */
static unsigned slice(unsigned c) {
    switch (c & 3) {
    case 0: return 1 + rnd(4);
    case 1: return 1 + rnd(300);
    case 2: return 1 + rnd(20000);
    default: return 1u << 30;
    }
}

static unsigned char data[MAXDATA], z[3 * MAXDATA], dict[4096];
static unsigned char ob_r[CAP + 64], ob_t[CAP + 64];

/* the data: the input's bytes repeated with changes, or pieces of them in
   any order, or pieces and noise; about target bytes */
static size_t expand(const uint8_t *d, size_t n, size_t target, int mode) {
    size_t i = 0;
    if (n == 0) {
        for (; i < target; i++) data[i] = (unsigned char)rnd(256);
        return target;
    }
    while (i < target) {
        size_t a = mode == 0 ? 0 : rnd((unsigned)n), m = mode == 0 ? n :
                   1 + rnd((unsigned)(n - a)), k;
        if (mode == 2 && rnd(3) == 0) {
            m = 1 + rnd(400);
            for (k = 0; k < m && i < target; k++, i++) data[i] = (unsigned char)rnd(256);
            continue;
        }
        if (m > target - i) m = target - i;
        memcpy(data + i, d + a, m);
        if (mode == 0 && m) data[i + rnd((unsigned)m)] ^= (unsigned char)(1 + rnd(255));
        i += m;
    }
    return target;
}

/* one member (or raw/zlib stream) of data[0..len) at z + at; its size */
static size_t compress_one(size_t at, size_t len, int level, int wbits,
                           int memlevel, int strategy, unsigned dl) {
    z_stream s;
    size_t got;
    memset(&s, 0, sizeof s);
    if (ZAPI_DEFLATE_INIT2(&zapi_ref, &s, level, Z_DEFLATED, wbits, memlevel,
                           strategy) != Z_OK) abort();
    if (dl && zapi_ref.deflateSetDictionary(&s, dict, dl) != Z_OK) abort();
    s.next_in = data;
    s.avail_in = (uInt)len;
    s.next_out = z + at;
    s.avail_out = (uInt)(sizeof z - at);
    if (zapi_ref.deflate(&s, Z_FINISH) != Z_STREAM_END) abort();
    got = s.total_out;
    zapi_ref.deflateEnd(&s);
    return got;
}

static void same(z_stream *r, z_stream *t, int rr, int rt, unsigned ao) {
    if (rr != rt) abort();
    if ((r->msg == NULL) != (t->msg == NULL)) abort();
    if (r->msg && strcmp(r->msg, t->msg)) abort();
    if (r->avail_in != t->avail_in || r->avail_out != t->avail_out) abort();
    if (r->total_in != t->total_in || r->total_out != t->total_out) abort();
    if (r->adler != t->adler || r->data_type != t->data_type) abort();
    if (r->next_out - ob_r != t->next_out - ob_t) abort();
    if (zapi_ref.inflateMark(r) != zapi_tur.inflateMark(t)) abort();
    (void)ao;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size) {
    const uint8_t *h = in;
    z_stream r, t;
    size_t len, n, ip = 0, op = 0, i;
    int wrap, wbits, level, strategy, memlevel, threads, flags, rr, rt, members;
    unsigned ic, oc, dl = 0, flips, calls = 0;
    static const int strategies[4] = {Z_DEFAULT_STRATEGY, Z_DEFAULT_STRATEGY,
                                      Z_FILTERED, Z_FIXED};
    unsigned char *moved = NULL;

    if (size < 12 || !zapi_tur.inflateSetThreads) return 0;
    rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)h[0] | (uint64_t)h[1] << 8 |
                                  (uint64_t)h[2] << 16 | (uint64_t)h[3] << 24);
    rng |= 1;
    wrap = h[4] & 3;
    wbits = 9 + (h[4] >> 2) % 7;
    level = 1 + h[5] % 9;
    strategy = strategies[(h[5] >> 4) & 3];
    memlevel = 2 + (h[6] & 3);
    threads = 2 + h[7] % 8;
    ic = h[8];
    oc = h[9];
    flags = h[10];
    flips = h[11] & 7;
    in += 12;
    size -= 12;
    len = expand(in, size, (size_t)(2 + rnd(63)) << 10, (h[6] >> 2) % 3);

    /* the stream */
    if ((flags & 1) && wrap < 2) {              /* a dictionary, from the data */
        dl = 1 + rnd(sizeof dict);
        if (dl > len) dl = (unsigned)len;
        memcpy(dict, data + rnd((unsigned)(len - dl + 1)), dl);
    }
    members = wrap == 3 ? 2 : 1;
    n = 0;
    for (i = 0; i < (size_t)members; i++) {
        int wb = wrap == 0 ? -wbits : wrap == 1 ? wbits : wbits + 16;
        n += compress_one(n, len, level, wb, memlevel, strategy, dl);
    }
    for (i = 0; i < flips && n > 20; i++)
        z[10 + rnd((unsigned)(n - 10))] ^= (unsigned char)(1 + rnd(255));
    if (flags & 32)
        n -= rnd((unsigned)(n / 4 + 1));

    /* inflate in lockstep */
    memset(&r, 0, sizeof r);
    memset(&t, 0, sizeof t);
    {
        int wb = wrap == 0 ? -wbits : wrap == 1 ? wbits : wbits + 16;
        rr = ZAPI_INFLATE_INIT2(&zapi_ref, &r, wb);
        rt = ZAPI_INFLATE_INIT2(&zapi_tur, &t, wb);
        if (rr != Z_OK || rt != Z_OK) abort();
        if (wrap == 0 && dl) {
            if (zapi_ref.inflateSetDictionary(&r, dict, dl) !=
                zapi_tur.inflateSetDictionary(&t, dict, dl)) abort();
        }
    }
    if (zapi_tur.inflateSetThreads(&t, threads) != Z_OK) abort();
    memset(ob_r, 0x5a, sizeof ob_r);
    memset(ob_t, 0x5a, sizeof ob_t);
    for (;;) {
        unsigned ai = slice(ic), ao = slice(oc);
        const unsigned char *src = z + ip;
        int fl = Z_NO_FLUSH;
        if (ai > n - ip) ai = (unsigned)(n - ip);
        if (ao > CAP - op) ao = (unsigned)(CAP - op);
        if ((flags & 2) && rnd(4) == 0) {
            static const int f[5] = {Z_NO_FLUSH, Z_SYNC_FLUSH, Z_FINISH,
                                     Z_BLOCK, Z_TREES};
            fl = f[rnd(5)];
        }
        if (flags & 8) {                        /* the input in a new buffer */
            free(moved);
            moved = (unsigned char *)malloc(ai + 1);
            if (moved == NULL) abort();
            memcpy(moved, z + ip, ai);
            src = moved;
        }
        if ((flags & 16) && rnd(8) == 0 &&
            zapi_tur.inflateSetThreads(&t, (int)rnd(10)) != Z_OK) abort();
        r.next_in = (z_const Bytef *)z + ip;
        t.next_in = (z_const Bytef *)src;
        r.avail_in = t.avail_in = ai;
        r.next_out = ob_r + op;
        t.next_out = ob_t + op;
        r.avail_out = t.avail_out = ao;
        rr = zapi_ref.inflate(&r, fl);
        rt = zapi_tur.inflate(&t, fl);
        calls++;
        if (r.next_in - (z + ip) != t.next_in - src) abort();
        same(&r, &t, rr, rt, ao);
        if (memcmp(ob_r + op, ob_t + op, ao + 64 <= CAP + 64 - op ? ao + 64 : CAP + 64 - op))
            abort();
        if (flags & 4) {
            static unsigned char gr[32768], gt[32768];
            uInt lr = 0, lt = 0;
            if (zapi_ref.inflateGetDictionary(&r, gr, &lr) !=
                zapi_tur.inflateGetDictionary(&t, gt, &lt)) abort();
            if (lr != lt || memcmp(gr, gt, lr)) abort();
        }
        ip += ai - r.avail_in;
        op += ao - r.avail_out;
        if (rr == Z_NEED_DICT && dl) {
            if (zapi_ref.inflateSetDictionary(&r, dict, dl) !=
                zapi_tur.inflateSetDictionary(&t, dict, dl)) abort();
            continue;
        }
        if (rr == Z_STREAM_END && ip < n && wrap >= 2) {   /* the next member */
            if (zapi_ref.inflateReset(&r) != zapi_tur.inflateReset(&t)) abort();
            continue;
        }
        if (rr != Z_OK && rr != Z_BUF_ERROR) break;
        if (op >= CAP) break;
        if (rr == Z_BUF_ERROR && ai == 0 && ip >= n) break;
        if (calls > 200000) break;
    }
    free(moved);
    zapi_ref.inflateEnd(&r);
    if (zapi_tur.inflateEnd(&t) != Z_OK) abort();
    return 0;
}
