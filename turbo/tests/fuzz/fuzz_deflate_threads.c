/* fuzz_deflate_threads.c -- differential libFuzzer target for threaded
 * deflate (deflateSetThreads(), zturbo.h).
 *
 * tur-cflags: -DZT_SEG_BITS=10
 * fuzz-args: -max_len=16384
 *
 * Pristine zlib 1.3.2 (zapi_ref, one thread, as always) and zlib-turbo
 * (zapi_tur, given 2..16 threads with deflateSetThreads()) get the same
 * calls with the same arguments; after every call everything observable is
 * compared: return code, next_in/avail_in/total_in, the bytes written and
 * avail_out/total_out, adler, data_type, msg, deflatePending(),
 * deflateUsed(), deflateBound().  Any difference abort()s.
 *
 * The turbo side is built with the tur-cflags line (run.sh reads it):
 * segments of 1 KiB instead of 256 KiB, so threads are used from 2 KiB of
 * input in a call and inputs of a few KiB cross many segments; inputs stop
 * at 16 KiB (fuzz-args), which crosses 16 of them.
 *
 * The fuzzer's bytes choose, in a 16-byte header: level (mostly 4..9, the
 * threaded ones; sometimes -1..3), strategy (mostly the default, filtered
 * and fixed ones, which use threads), windowBits (raw, zlib, gzip; 8..15),
 * memLevel, the thread count (2..5, sometimes up to 16), how the data after
 * the header is expanded (repeated with changes, pieces of it shuffled,
 * mixed with runs and noise, or as given) and to how many KiB (up to 64), a
 * dictionary and a gzip header.  Bits that were spare in the first form of
 * the header bias it toward the extremes where the threaded code has its
 * edges (each is clear in an input of that first form, which is read as
 * before): windowBits 8..11 (a window shorter than a segment of this build
 * or only a few times longer: sessions end and start again right after the
 * window slid), memLevel 1..3 (blocks of 127..511 symbols: returns in the
 * middle of jobs), at most 16 KiB of data (cheap runs over many segments),
 * a plan of only the special steps below (deflateTune(), copies, moved and
 * overwritten input, calls with tiny output), and flushes that end blocks
 * but not the parse (Z_BLOCK, Z_PARTIAL_FLUSH).  Then a plan of up to 300 steps drawn from a
 * generator seeded by the header: deflate() calls, each with its own input
 * and output slice sizes and flush mode; deflateParams() switches (also to
 * levels 0..3 and back), deflateTune(), deflateReset(), deflateCopy(),
 * deflateBound(); deflateSetThreads() with another count (0, 1, 2..16, or
 * an invalid one; now and then with an allocation failing: Z_MEM_ERROR,
 * then one thread) on the turbo side; the unconsumed input overwritten with
 * other bytes before the next call (zturbo.h: deflate() must see it and
 * compress the bytes actually given), or moved to a new buffer (the old one
 * freed).
 *
 * Built and run by turbo/tests/fuzz/run.sh deflate_threads (clang
 * -fsanitize=fuzzer plus ASan and UBSan).  turbo/tests/cross/zthreads.c
 * drives this same function (without libFuzzer) on other targets.
 */
#define FUZZ_NAME "fuzz_deflate_threads"
#define FUZZ_STEP cur_step
static int cur_step;                     /* for the messages */
#include "fuzz_deflate_pair.h"

/* zlib-turbo's deflateSetThreads(), renamed by mkzobj.sh (not in zapi) */
extern int tur_deflateSetThreads(z_streamp strm, int threads);

/* FUZZ_TRACE=1 in the environment: each call on stderr, to follow a
 * regression input step by step */
static int tracing = -1;
#define TRACE(args) do { if (tracing < 0) tracing = getenv("FUZZ_TRACE") != NULL; \
    if (tracing) { fprintf(stderr, "step %d: ", cur_step); fprintf args; } } while (0)
unsigned long fuzz_deflate_threads_calls;   /* deflate() calls compared */

#define OUTCAP (1u << 20)
#define MAXLEN 600000
static unsigned char *obuf_r, *obuf_t;   /* each side's compressed stream */
static size_t olen;                      /* both sides must agree */

/* zlib-turbo's allocator can be told to fail: the fail_at'th allocation
 * from now (1 the next one) returns Z_NULL; 0 never */
static unsigned fail_at, failed;
static voidpf tur_alloc(voidpf opaque, uInt items, uInt size) {
    if (fail_at && --fail_at == 0) {
        failed = 1;
        return Z_NULL;
    }
    return zero_alloc(opaque, items, size);
}

static void same_bytes(size_t n, const char *what) {
    if (memcmp(obuf_r + olen, obuf_t + olen, n)) {
        size_t k = 0;
        while (obuf_r[olen + k] == obuf_t[olen + k]) k++;
        fprintf(stderr, "fuzz_deflate_threads: olen %lu: byte %lu of %lu "
                "differs\n", (unsigned long)olen, (unsigned long)k,
                (unsigned long)n);
        CHECK(0, what);
    }
}

/* one deflate() on both with the same slices; returns its rc */
static int step(pair *p, const unsigned char *in, size_t *pos, size_t len,
                unsigned inn, unsigned outn, int flush) {
    int rr, rt;
    size_t before;
    if (inn > len - *pos) inn = (unsigned)(len - *pos);
    if (outn > OUTCAP - olen) outn = (unsigned)(OUTCAP - olen);
    p->r.next_in = p->t.next_in = (Bytef *)in + *pos;
    p->r.avail_in = p->t.avail_in = inn;
    p->r.next_out = obuf_r + olen;
    p->t.next_out = obuf_t + olen;
    p->r.avail_out = p->t.avail_out = outn;
    before = p->r.avail_out;
    rr = zapi_ref.deflate(&p->r, flush);
    rt = zapi_tur.deflate(&p->t, flush);
    TRACE((stderr, "deflate(flush %d) in %u out %u: rc %d/%d, in left %u/%u, "
           "out left %u/%u\n", flush, inn, outn, rr, rt, p->r.avail_in,
           p->t.avail_in, p->r.avail_out, p->t.avail_out));
    fuzz_deflate_threads_calls++;
    compare(p, rr, rt);
    same_bytes(before - p->r.avail_out, "compressed bytes");
    olen += before - p->r.avail_out;
    *pos += inn - p->r.avail_in;
    if (olen > OUTCAP - 1024) olen = 0;   /* keep comparing new bytes */
    return rr;
}

static const int flushes[] = { Z_NO_FLUSH, Z_NO_FLUSH, Z_NO_FLUSH,
    Z_NO_FLUSH, Z_NO_FLUSH, Z_NO_FLUSH, Z_PARTIAL_FLUSH, Z_SYNC_FLUSH,
    Z_FULL_FLUSH, Z_BLOCK };
/* the biased header's flushes: blocks end, the parse goes on */
static const int block_flushes[] = { Z_NO_FLUSH, Z_NO_FLUSH, Z_NO_FLUSH,
    Z_NO_FLUSH, Z_PARTIAL_FLUSH, Z_PARTIAL_FLUSH, Z_BLOCK, Z_BLOCK,
    Z_BLOCK, Z_SYNC_FLUSH };
static const int *flush_set = flushes;

/* input slices: tiny, small, about a segment, many segments, all */
static unsigned in_slice(void) {
    switch (rnd(8)) {
    case 0: return rnd(4);
    case 1: return 1 + rnd(300);
    case 2: return 1 + rnd(3000);
    case 3: case 4: return 2048 + rnd(30000);
    case 5: return 1 + rnd(200000);
    default: return 1u << 30;
    }
}

/* output slices: a few bytes (returns in the middle of a job), or more */
static unsigned out_slice(void) {
    switch (rnd(6)) {
    case 0: return rnd(4);
    case 1: return 1 + rnd(300);
    case 2: return 1 + rnd(5000);
    default: return 1u << 30;
    }
}

/* levels and strategies: mostly the threaded ones */
static int some_level(void) {
    return rnd(4) ? 4 + (int)rnd(6) : (int)rnd(11) - 1;
}
static const int strategies[] = { Z_DEFAULT_STRATEGY, Z_DEFAULT_STRATEGY,
    Z_DEFAULT_STRATEGY, Z_FILTERED, Z_FILTERED, Z_FIXED, Z_HUFFMAN_ONLY,
    Z_RLE };
static int some_threads(int threads) {
    switch (rnd(8)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return rnd(8) ? threads : (rnd(2) ? -1 - (int)rnd(3) : 257);
    case 3: return 2 + (int)rnd(15);
    default: return 2 + (int)rnd(4);
    }
}

/* The data: the input, expanded to about `target` bytes (mode 0: copies
 * with a few bytes changed; 1: pieces of it in any order; 2: pieces, runs
 * of one byte or of a short period, and noise; 3: as given). */
static unsigned char *make_data(const uint8_t *d, size_t n, size_t target,
                                int mode, size_t *plen) {
    size_t len = n, i = 0;
    unsigned char *buf;

    if (mode != 3 && target > len) len = target;
    if (len > MAXLEN) len = MAXLEN;
    buf = malloc(len + 1);
    if (n == 0 || mode == 3) {
        for (i = 0; i < len; i++) buf[i] = n ? d[i % n] : (unsigned char)rnd(256);
        *plen = len;
        return buf;
    }
    while (i < len) {
        size_t k, a, m;
        switch (mode) {
        case 0:
            m = n;
            a = 0;
            break;
        case 1:
            a = rnd((unsigned)n);
            m = 1 + rnd((unsigned)(n - a));
            break;
        default:
            switch (rnd(4)) {
            case 0:                              /* a run of a short period */
                m = 1 + rnd(rnd(2) ? 8 : 3000);
                a = 1 + rnd(rnd(2) ? 4 : 300);
                for (k = 0; k < m && i < len; k++, i++)
                    buf[i] = i >= a ? buf[i - a] : d[k % n];
                continue;
            case 1:                              /* noise */
                m = 1 + rnd(500);
                for (k = 0; k < m && i < len; k++, i++)
                    buf[i] = (unsigned char)rnd(rnd(2) ? 256 : 4);
                continue;
            default:
                a = rnd((unsigned)n);
                m = 1 + rnd((unsigned)(n - a));
                break;
            }
        }
        if (m > len - i) m = len - i;
        memcpy(buf + i, d + a, m);
        i += m;
    }
    if (mode == 0 && len > n)
        for (i = rnd(64); i; i--) {
            size_t at = rnd((unsigned)len);
            buf[at] = (unsigned char)rnd(256);
        }
    *plen = len;
    return buf;
}

/* Other bytes in buf[pos..len-1], the input not consumed yet: where the
 * threads may have read ahead (zturbo.h: deflate() must see the change). */
static void overwrite(unsigned char *buf, size_t pos, size_t len) {
    size_t a, m, i;

    if (pos >= len) return;
    a = pos + (rnd(2) ? rnd(64) : rnd((unsigned)(len - pos)));
    m = 1 + rnd(rnd(2) ? 16 : 20000);
    if (a >= len) a = pos;
    if (m > len - a) m = len - a;
    switch (rnd(3)) {
    case 0:
        for (i = 0; i < m; i++) buf[a + i] = (unsigned char)rnd(256);
        break;
    case 1:
        buf[a] ^= (unsigned char)(1 + rnd(255));
        break;
    default: {
        size_t from = rnd((unsigned)len);
        if (m > len - from) m = len - from;
        memmove(buf + a, buf + from, m);
        break;
    }
    }
}

/* deflateSetThreads(strm, n) on zlib-turbo (pristine has no such function)
 * with zturbo.h's return codes; now and then one of its allocations fails:
 * Z_MEM_ERROR, and the stream goes on with one thread, the same bytes */
static void set_threads(pair *p, int n) {
    int rt, want = n < 0 || n > 256 ? Z_STREAM_ERROR : Z_OK;

    failed = 0;
    fail_at = rnd(8) ? 0 : 1 + rnd(60);
    rt = tur_deflateSetThreads(&p->t, n);
    TRACE((stderr, "deflateSetThreads(%d)%s: rc %d\n", n,
           failed ? " (an allocation failed)" : "", rt));
    fail_at = 0;
    if (failed) want = Z_MEM_ERROR;
    CHECK(rt == want, "deflateSetThreads rc");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pair slots[2], *p = &slots[0];
    const uint8_t *h = data;
    unsigned char *buf, *dict = NULL;
    size_t len, pos = 0, i, target;
    int level, strategy, wbits, memlevel, threads, mode, flags;
    int rr, rt, finished = 0;
    unsigned dlen = 0;
    gz_header gzh;

    if (size < 16) return 0;
    if (!obuf_r) {
        obuf_r = malloc(OUTCAP);
        obuf_t = malloc(OUTCAP);
    }
    rng = 0x9e3779b97f4a7c15ull;
    for (i = 0; i < 8; i++) rng = (rng << 8 | rng >> 56) ^ h[i];
    rng |= 1;
    level = h[8] < 224 ? 4 + h[8] % 6 : (int)(h[8] % 5) - 1;
    strategy = strategies[h[9] & 7];
    wbits = h[10] & 0x20 ? 8 + (h[10] & 3)   /* 8 .. 11 */
                         : 8 + (h[10] & 7);  /* 8 .. 15 */
    switch ((h[10] >> 3) & 3) {
    case 0: wbits = -wbits; break;           /* raw */
    case 2: wbits += 16; break;              /* gzip */
    default: break;                          /* zlib */
    }
    memlevel = h[11] & 0x40 ? 1 + (h[11] & 3) % 3 : 1 + (h[11] & 15) % 9;
    mode = (h[11] >> 4) & 3;
    /* 2 .. 5 threads, or now and then up to 16 (each costs memory to
       clear and a thread to start: fewer runs per second) */
    threads = h[12] < 0xe0 ? 2 + (h[12] & 3) : 2 + h[12] % 15;
    target = (size_t)((h[13] & (h[13] & 0x40 ? 15 : 63)) + 1) << 10;
    flags = h[14];
    flush_set = flags & 0x20 ? block_flushes : flushes;
    data += 16, size -= 16;
    TRACE((stderr, "level %d, strategy %d, windowBits %d, memLevel %d, "
           "%d threads, mode %d, %lu KiB, flags %d\n", level, strategy, wbits,
           memlevel, threads, mode, (unsigned long)(target >> 10), flags));
    cur_step = 0;

    buf = make_data(data, size, target, mode, &len);

    memset(slots, 0, sizeof slots);
    p->r.zalloc = zero_alloc;
    p->t.zalloc = tur_alloc;
    p->r.zfree = p->t.zfree = zero_free;
    rr = ZAPI_DEFLATE_INIT2(&zapi_ref, &p->r, level, Z_DEFLATED, wbits,
                            memlevel, strategy);
    rt = ZAPI_DEFLATE_INIT2(&zapi_tur, &p->t, level, Z_DEFLATED, wbits,
                            memlevel, strategy);
    CHECK(rr == rt, "deflateInit2 rc");
    if (rr != Z_OK) { free(buf); return 0; }
    if (!(flags & 1)) set_threads(p, threads);

    if (wbits > 16 && (flags & 2)) {         /* a gzip header */
        memset(&gzh, 0, sizeof gzh);
        gzh.text = rnd(2);
        gzh.time = rnd(1000000);
        gzh.os = rnd(256);
        gzh.hcrc = rnd(2);
        gzh.name = (Bytef *)"fuzz";
        rr = zapi_ref.deflateSetHeader(&p->r, &gzh);
        rt = zapi_tur.deflateSetHeader(&p->t, &gzh);
        CHECK(rr == rt, "deflateSetHeader");
    }
    if (len && (flags & 4)) {                /* a dictionary from the data */
        dlen = rnd((unsigned)(len < 40000 ? len : 40000)) + 1;
        dict = malloc(dlen);
        memcpy(dict, buf + rnd((unsigned)(len - dlen + 1)), dlen);
        rr = zapi_ref.deflateSetDictionary(&p->r, dict, dlen);
        rt = zapi_tur.deflateSetDictionary(&p->t, dict, dlen);
        TRACE((stderr, "deflateSetDictionary(%u bytes)\n", dlen));
        compare(p, rr, rt);
    }
    if (flags & 1) set_threads(p, threads);  /* after the dictionary */

    olen = 0;
    while (!finished && cur_step < 300) {
        unsigned op = rnd(flags & 0x10 ? 16 : flags & 8 ? 24 : 64);
        cur_step++;
        if (op == 0) {                       /* deflateParams */
            int l = some_level(), st = strategies[rnd(8)];
            size_t before;
            p->r.next_out = obuf_r + olen; p->t.next_out = obuf_t + olen;
            p->r.avail_out = p->t.avail_out =
                rnd(3) ? (unsigned)(OUTCAP - olen) : rnd(8);
            before = p->r.avail_out;
            p->r.next_in = p->t.next_in = buf + pos;
            p->r.avail_in = p->t.avail_in =
                (unsigned)rnd((unsigned)(len - pos + 1));
            rr = zapi_ref.deflateParams(&p->r, l, st);
            rt = zapi_tur.deflateParams(&p->t, l, st);
            TRACE((stderr, "deflateParams(%d, %d): rc %d/%d\n", l, st, rr, rt));
            compare(p, rr, rt);
            same_bytes(before - p->r.avail_out, "params bytes");
            olen += before - p->r.avail_out;
            if (olen > OUTCAP - 1024) olen = 0;
            pos = (size_t)(p->r.next_in - buf);
        } else if (op == 1) {                /* deflateTune */
            int g = rnd(40), l = rnd(300), n = rnd(300), c = rnd(5000);
            if (rnd(2)) g = 4 + rnd(28), l = 4 + rnd(250), n = 8 + rnd(250),
                        c = 1 + rnd(rnd(2) ? 16 : 4096);
            rr = zapi_ref.deflateTune(&p->r, g, l, n, c);
            rt = zapi_tur.deflateTune(&p->t, g, l, n, c);
            TRACE((stderr, "deflateTune(%d, %d, %d, %d)\n", g, l, n, c));
            compare(p, rr, rt);
        } else if (op == 2 && rnd(3) == 0) { /* deflateReset: a new stream */
            rr = zapi_ref.deflateReset(&p->r);
            rt = zapi_tur.deflateReset(&p->t);
            TRACE((stderr, "deflateReset()\n"));
            compare(p, rr, rt);
            olen = 0;
            if (rnd(3) == 0) pos = rnd((unsigned)len + 1);
            if (dict && rnd(2)) {
                rr = zapi_ref.deflateSetDictionary(&p->r, dict, dlen);
                rt = zapi_tur.deflateSetDictionary(&p->t, dict, dlen);
                compare(p, rr, rt);
            }
        } else if (op == 3) {                /* another thread count */
            set_threads(p, some_threads(threads));
        } else if (op == 4) {                /* overwrite unconsumed input */
            TRACE((stderr, "input overwritten\n"));
            overwrite(buf, pos, len);
        } else if (op == 5) {                /* move the input, free the old */
            unsigned char *nb = malloc(len + 1);
            TRACE((stderr, "input moved\n"));
            memcpy(nb, buf, len);
            memset(buf, 0x5a, len);
            free(buf);
            buf = nb;
        } else if (op == 6 && rnd(2) == 0) { /* deflateCopy, go on with it */
            pair *c = p == &slots[0] ? &slots[1] : &slots[0];
            memset(c, 0, sizeof *c);
            rr = zapi_ref.deflateCopy(&c->r, &p->r);
            rt = zapi_tur.deflateCopy(&c->t, &p->t);
            TRACE((stderr, "deflateCopy(): rc %d/%d\n", rr, rt));
            CHECK(rr == rt, "deflateCopy rc");
            if (rr == Z_OK) {
                rr = zapi_ref.deflateEnd(&p->r);
                rt = zapi_tur.deflateEnd(&p->t);
                CHECK(rr == rt, "deflateEnd rc");
                p = c;
                if (rnd(2)) set_threads(p, some_threads(threads));
            }
        } else if (op == 7) {                /* deflateBound */
            uLong n = rnd(100000);
            CHECK(zapi_ref.deflateBound(&p->r, n) ==
                  zapi_tur.deflateBound(&p->t, n), "deflateBound");
        } else if (op < 16) {                /* a call with small output */
            int fl = op == 8 ? Z_FINISH : flush_set[rnd(10)];
            unsigned inn = in_slice(), outn = out_slice();
            rr = step(p, buf, &pos, len, inn, outn, fl);
            if (rr == Z_STREAM_END) finished = 1;
            /* returned with input left: jobs may hold copies of it */
            else if (p->r.avail_out == 0 && p->r.avail_in && rnd(2))
            {
                TRACE((stderr, "input overwritten\n"));
                overwrite(buf, pos, len);
            }
        } else {                             /* an ordinary call */
            unsigned inn = in_slice();
            int fl = rnd(8) ? Z_NO_FLUSH : flush_set[rnd(10)];
            rr = step(p, buf, &pos, len, inn, 1u << 30, fl);
            if (rr == Z_STREAM_END) finished = 1;
        }
    }
    /* finish, output in random slices */
    for (i = 0; !finished && i < 100000; i++) {
        cur_step++;
        unsigned inn = in_slice(), outn = 1 + rnd(70000);
        rr = step(p, buf, &pos, len, inn, outn, Z_FINISH);
        if (rr == Z_STREAM_END) finished = 1;
        else if (rr != Z_OK && rr != Z_BUF_ERROR) break;   /* both agree */
    }
    rr = zapi_ref.deflateEnd(&p->r);
    rt = zapi_tur.deflateEnd(&p->t);
    CHECK(rr == rt, "deflateEnd rc");
    free(dict);
    free(buf);
    return 0;
}
