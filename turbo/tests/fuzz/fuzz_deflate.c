/* fuzz_deflate.c -- differential libFuzzer target for deflate.
 *
 * fuzz-args: -max_len=4096
 *
 * Pristine zlib 1.3.2 (zapi_ref) and zlib-turbo (zapi_tur), renamed by
 * turbo/harness/mkzobj.sh and linked into one program, get the same calls
 * with the same arguments; after every call everything observable is
 * compared: return code, next_in/avail_in/total_in, the bytes written and
 * avail_out/total_out, adler, data_type, msg, deflatePending(),
 * deflateUsed(), deflateBound().  Any difference abort()s.
 *
 * The fuzzer's bytes choose: the data (the input after a 12-byte header, up
 * to 4 KiB (fuzz-args) for cheap executions, optionally repeated with
 * changes to make long matches and slide the window), level, strategy,
 * windowBits (raw, zlib or gzip; 8..15), memLevel (1..9), a dictionary
 * (given to zlib-turbo, now and then, as a prepared dictionary:
 * deflatePrepareDictionary() on its stream, then deflateUseDictionary()
 * where pristine gets deflateSetDictionary(), which must be the same to the
 * byte; the object is kept for the dictionary set again after
 * deflateReset(), perhaps after deflateParams() changed the level), a gzip
 * header, deflatePrime() bits (also ones that fail with Z_BUF_ERROR), and a
 * sequence of steps, each with its own input and output slice sizes, flush
 * mode, and now and then deflateParams(), deflatePrime(), deflateTune(),
 * deflateCopy() or deflateReset().
 *
 * Built and run by turbo/tests/fuzz/run.sh deflate (clang -fsanitize=fuzzer
 * plus ASan and UBSan).
 * One fuzz target per API: this one is deflate's.
 */
#define FUZZ_NAME "fuzz_deflate"
#define FUZZ_STEP 0
#include "fuzz_deflate_pair.h"

#define OUTCAP (1u << 20)
static unsigned char *obuf_r, *obuf_t;   /* each side's compressed stream */
static size_t olen;                      /* both sides must agree */

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
    compare(p, rr, rt);
    if (memcmp(obuf_r + olen, obuf_t + olen, before - p->r.avail_out)) {
        size_t k = 0;
        while (obuf_r[olen + k] == obuf_t[olen + k]) k++;
        fprintf(stderr, "fuzz_deflate: flush %d, in %u, out %u, olen %zu: "
                "byte %zu of %zu differs\n", flush, inn, outn, olen, k,
                before - p->r.avail_out);
        CHECK(0, "compressed bytes");
    }
    olen += before - p->r.avail_out;
    *pos += inn - p->r.avail_in;
    return rr;
}

static const int flushes[] = { Z_NO_FLUSH, Z_NO_FLUSH, Z_NO_FLUSH,
    Z_NO_FLUSH, Z_PARTIAL_FLUSH, Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_BLOCK };

static unsigned slice(void) {
    switch (rnd(6)) {
    case 0: return rnd(4);
    case 1: return 1 + rnd(300);
    case 2: return 1 + rnd(5000);
    case 3: return 1 + rnd(70000);
    default: return 1u << 30;
    }
}

/* deflateSetDictionary() of dict on both; zlib-turbo's stream gets the
 * prepared object *zd instead when use says so and the library has them
 * (prepared on that stream at the first use) */
static void set_dictionary(pair *p, const unsigned char *dict, unsigned dlen,
                           struct z_dict_s **zd, int use, unsigned char *buf) {
    int rr, rt;
    rr = zapi_ref.deflateSetDictionary(&p->r, dict, dlen);
    if (use && zapi_tur.deflatePrepareDictionary && *zd == NULL &&
        zapi_tur.deflatePrepareDictionary(&p->t, dict, dlen, zd) != Z_OK)
        *zd = NULL;
    if (use && *zd != NULL)
        rt = zapi_tur.deflateUseDictionary(&p->t, *zd);
    else
        rt = zapi_tur.deflateSetDictionary(&p->t, dict, dlen);
    compare(p, rr, rt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct z_dict_s *zd = NULL;
    pair slots[2], *p = &slots[0];
    const uint8_t *h = data;
    unsigned char *buf, *dict = NULL;
    size_t len, pos = 0, i;
    int level, strategy, wbits, memlevel, rr, rt, reps, steps, finished = 0;
    unsigned dlen = 0;
    gz_header gzh;

    if (size < 12) return 0;
    if (!obuf_r) {
        obuf_r = malloc(OUTCAP);
        obuf_t = malloc(OUTCAP);
    }
    rng = 0x9e3779b97f4a7c15ull;
    for (i = 0; i < 8; i++) rng = (rng << 8 | rng >> 56) ^ h[i];
    rng |= 1;
    level = h[8] % 11 - 1;                   /* -1 .. 9 */
    strategy = (h[9] & 7) % 5;               /* 0 .. 4 */
    wbits = 8 + (h[10] & 7);                 /* 8 .. 15 */
    switch ((h[10] >> 3) & 3) {
    case 0: wbits = -wbits; break;           /* raw */
    case 2: wbits += 16; break;              /* gzip */
    default: break;                          /* zlib */
    }
    memlevel = 1 + (h[11] & 15) % 9;
    reps = (h[11] >> 4) & 3 ? 1 : 1 + rnd(6);
    data += 12, size -= 12;

    /* the data: the input, or several copies of it with a few bytes changed */
    len = size * (size_t)reps;
    if (len > 600000) len = 600000;
    buf = malloc(len + 1);
    for (i = 0; i < len; i++) buf[i] = data[i % (size ? size : 1)];
    if (reps > 1)
        for (i = rnd(64); i; i--) buf[rnd((unsigned)len)] = (unsigned char)rnd(256);

    memset(slots, 0, sizeof slots);
    p->r.zalloc = p->t.zalloc = zero_alloc;
    p->r.zfree = p->t.zfree = zero_free;
    rr = ZAPI_DEFLATE_INIT2(&zapi_ref, &p->r, level, Z_DEFLATED, wbits,
                            memlevel, strategy);
    rt = ZAPI_DEFLATE_INIT2(&zapi_tur, &p->t, level, Z_DEFLATED, wbits,
                            memlevel, strategy);
    CHECK(rr == rt, "deflateInit2 rc");
    if (rr != Z_OK) { free(buf); return 0; }

    if (wbits > 16 && rnd(3) == 0) {         /* a gzip header */
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
    if (len && rnd(4) == 0) {                /* a dictionary from the data */
        dlen = rnd((unsigned)(len < 40000 ? len : 40000)) + 1;
        dict = buf + rnd((unsigned)(len - dlen + 1));
        set_dictionary(p, dict, dlen, &zd, rnd(2), buf);
    }
    olen = 0;
    steps = 0;
    while (!finished && steps < 400) {
        unsigned op = rnd(40);
        steps++;
        if (getenv("FUZZ_TRACE")) fprintf(stderr, "op %u pos %zu olen %zu\n", op, pos, olen);
        if (op == 0) {                       /* deflateParams */
            int l = (int)rnd(11) - 1, st = (int)rnd(5);
            p->r.next_out = obuf_r + olen; p->t.next_out = obuf_t + olen;
            p->r.avail_out = p->t.avail_out = rnd(3) ? (unsigned)(OUTCAP - olen) : rnd(8);
            {
                size_t before = p->r.avail_out;
                p->r.next_in = p->t.next_in = buf + pos;
                p->r.avail_in = p->t.avail_in = (unsigned)rnd((unsigned)(len - pos + 1));
                rr = zapi_ref.deflateParams(&p->r, l, st);
                rt = zapi_tur.deflateParams(&p->t, l, st);
                compare(p, rr, rt);
                CHECK(memcmp(obuf_r + olen, obuf_t + olen,
                             before - p->r.avail_out) == 0, "params bytes");
                olen += before - p->r.avail_out;
                pos = (size_t)(p->r.next_in - buf);
            }
        } else if (op == 1) {                /* deflatePrime, 0 .. 17 bits */
            int bits = (int)rnd(18), value = (int)rnd(1u << 17);
            unsigned pend = 0;
            int pbits;
            /* not while output is pending: zlib's deflatePrime() then puts
               its bits at pending_buf[pending], before or inside the
               pending bytes, and sends bytes after them (even past
               pending_buf); after deflateCopy() those are never-written
               memory in pristine's copy and the original's bytes in
               zlib-turbo's (patch 0015, an intentional difference) */
            zapi_ref.deflatePending(&p->r, &pend, &pbits);
            if (pend) continue;
            rr = zapi_ref.deflatePrime(&p->r, bits, value);
            rt = zapi_tur.deflatePrime(&p->t, bits, value);
            compare(p, rr, rt);
        } else if (op == 2) {                /* deflateTune */
            int g = rnd(40), l = rnd(300), n = rnd(300), c = rnd(5000);
            rr = zapi_ref.deflateTune(&p->r, g, l, n, c);
            rt = zapi_tur.deflateTune(&p->t, g, l, n, c);
            compare(p, rr, rt);
        } else if (op == 3) {                /* deflateCopy, continue on copies */
            pair *c = p == &slots[0] ? &slots[1] : &slots[0];
            memset(c, 0, sizeof *c);
            rr = zapi_ref.deflateCopy(&c->r, &p->r);
            rt = zapi_tur.deflateCopy(&c->t, &p->t);
            CHECK(rr == rt, "deflateCopy rc");
            if (rr == Z_OK) {
                rr = zapi_ref.deflateEnd(&p->r);
                rt = zapi_tur.deflateEnd(&p->t);
                CHECK(rr == rt, "deflateEnd rc");
                p = c;
            }
        } else if (op == 4 && rnd(4) == 0) { /* deflateReset: a new stream */
            rr = zapi_ref.deflateReset(&p->r);
            rt = zapi_tur.deflateReset(&p->t);
            compare(p, rr, rt);
            olen = 0;
            if (dict && rnd(2))
                set_dictionary(p, dict, dlen, &zd, rnd(2), buf);
        } else if (op == 5) {                /* deflateBound */
            uLong n = rnd(100000);
            CHECK(zapi_ref.deflateBound(&p->r, n) == zapi_tur.deflateBound(&p->t, n),
                  "deflateBound");
        } else {
            int fl = op == 6 ? Z_FINISH : flushes[rnd(8)];
            rr = step(p, buf, &pos, len, slice(), slice(), fl);
            if (rr == Z_STREAM_END) finished = 1;
            if (olen > OUTCAP - 1024) olen = 0;   /* keep comparing new bytes */
        }
    }
    /* finish, output in random slices */
    for (i = 0; !finished && i < 100000; i++) {
        rr = step(p, buf, &pos, len, slice(), 1 + rnd(70000), Z_FINISH);
        if (rr == Z_STREAM_END) finished = 1;
        else if (rr != Z_OK && rr != Z_BUF_ERROR) break;   /* both agree */
        if (olen > OUTCAP - 1024) olen = 0;
    }
    rr = zapi_ref.deflateEnd(&p->r);
    rt = zapi_tur.deflateEnd(&p->t);
    CHECK(rr == rt, "deflateEnd rc");
    if (zd != NULL)
        zapi_tur.deflateFreeDictionary(zd);
    free(buf);
    return 0;
}
