/* fuzz_inflate.c -- libFuzzer target: pristine zlib 1.3.2 against zlib-turbo
 * on one input, inflate() and inflateBack(); abort() on any difference.
 *
 * Input layout: byte 0: wrapper (bits 0-1: raw, zlib, gzip, auto-detect) and
 * windowBits (bits 2-4: 8 + value, 8 meaning 15 for gzip/auto); byte 1:
 * input slicing, byte 2: output slicing (bits 0-1 a size class, the rest
 * seed the sizes), byte 3: bit 0 use flush values other than Z_NO_FLUSH,
 * bit 1 also run inflateBack() (raw streams), bit 2 a dictionary (set at
 * the start of a raw stream, or when inflate() asks for one), bit 3
 * inflateGetHeader() with small buffers (gzip and auto-detect), bit 4
 * inflateSync() after a Z_DATA_ERROR (up to 8 times), bit 5
 * inflateValidate(, 0), bit 6 inflateCopy() once midway (copied back
 * into the ended originals, which go on), bit 7 inflateGetDictionary() after every
 * call; the rest is the stream.
 *
 * After every inflate() call: return code, msg, next_in, avail_in,
 * avail_out, total_in, total_out, adler, data_type, inflateMark(),
 * inflateSyncPoint(), inflateCodesUsed() (zero or not), the output bytes
 * and the bytes past next_out must be the same; so must the gzip header
 * fields, the dictionaries returned and every other call's return code.  inflateBack()
 * must give the same return code, msg, output, next_in and avail_in, except
 * where zlib 1.3.2's own answer depends on the slicing (it read window bytes
 * it never wrote); there zlib-turbo must give what zlib 1.3.2 gives with one
 * input byte per in() call, which never reaches its inflate_fast().
 *
 * Build and run: turbo/tests/fuzz/run.sh inflate (clang -fsanitize=fuzzer,
 * address,undefined, with both libraries renamed by turbo/harness/mkzobj.sh).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "zapi.h"

#define CAP (1u << 18)          /* output cap per stream */

/* what was compared, for drivers (turbo/tests/cross/zdamaged.c): inflate()
   calls, inflateBack() runs, and the runs where the libraries differed as
   README's intentional difference 1 allows */
unsigned long fuzz_inflate_calls, fuzz_inflate_back_runs,
              fuzz_inflate_back_allowed;

static uint32_t rs;

/* next pseudo-random number of the slicing */
static uint32_t rnd(void) {
    rs = rs * 1103515245u + 12345u;
    return rs >> 8;
}

/* a slice size for size class c: 1..4, 1..64, 1..4096, or everything */
static unsigned slice(unsigned c) {
    switch (c & 3) {
    case 0: return 1 + rnd() % 4;
    case 1: return 1 + rnd() % 64;
    case 2: return 1 + rnd() % 4096;
    default: return 1u << 30;
    }
}

static unsigned char ob_r[CAP + 64], ob_t[CAP + 64];

/* compare two streams after a call; abort on any difference */
static void same(z_stream *r, z_stream *t, int rr, int rt) {
    if (rr != rt) abort();
    if ((r->msg == NULL) != (t->msg == NULL)) abort();
    if (r->msg && strcmp(r->msg, t->msg)) abort();
    if (r->next_in != t->next_in || r->avail_in != t->avail_in) abort();
    if (r->avail_out != t->avail_out) abort();
    if (r->total_in != t->total_in || r->total_out != t->total_out) abort();
    if (r->adler != t->adler || r->data_type != t->data_type) abort();
    if (zapi_ref.inflateMark(r) != zapi_tur.inflateMark(t)) abort();
}

/* the dictionary of option bit 2: len bytes of a fixed text */
static const unsigned char *dictionary(void) {
    static unsigned char d[32768];
    static const char words[] = "the of and to in that is was he for it with as his "
        "on be at by had this not are but from or have an they which one you were "
        "her all she there would their we him been has when who will more no if ";
    unsigned i;
    if (d[0] == 0)
        for (i = 0; i < sizeof d; i++)
            d[i] = (unsigned char)words[(i * 7 + i / 61) % (sizeof words - 1)];
    return d;
}

/* gzip header receivers with small buffers: one per library */
static unsigned char hx_r[40], hx_t[40], hn_r[24], hn_t[24], hc_r[24], hc_t[24];

static void header_init(gz_header *h, unsigned char *x, unsigned char *nm,
                        unsigned char *cm, unsigned sz) {
    memset(h, 0, sizeof *h);
    memset(x, 0x5a, sizeof hx_r);
    memset(nm, 0x5a, sizeof hn_r);
    memset(cm, 0x5a, sizeof hc_r);
    h->extra = x;
    h->extra_max = sz % sizeof hx_r;
    h->name = nm;
    h->name_max = sz % sizeof hn_r;
    h->comment = cm;
    h->comm_max = (sz / 3) % sizeof hc_r;
}

static void header_same(const gz_header *a, const gz_header *b) {
    if (a->text != b->text || a->time != b->time || a->xflags != b->xflags ||
        a->os != b->os || a->extra_len != b->extra_len || a->hcrc != b->hcrc ||
        a->done != b->done) abort();
    if (memcmp(hx_r, hx_t, sizeof hx_r) || memcmp(hn_r, hn_t, sizeof hn_r) ||
        memcmp(hc_r, hc_t, sizeof hc_r)) abort();
}

/* inflate the stream with both libraries in lockstep; opt: byte 3 of the
 * input (bits 2-7), dl: the dictionary's length */
static void run_inflate(const uint8_t *in, size_t n, int wbits,
                        unsigned ic, unsigned oc, int flushes, unsigned opt,
                        unsigned dl) {
    z_stream r, t, cr, ct;
    gz_header hr, ht;
    size_t ip = 0, op = 0;
    int rr, rt, calls = 0, syncs = 0, copied = 0;
    const unsigned char *dict = dictionary();
    memset(&r, 0, sizeof r);
    memset(&t, 0, sizeof t);
    rr = ZAPI_INFLATE_INIT2(&zapi_ref, &r, wbits);
    rt = ZAPI_INFLATE_INIT2(&zapi_tur, &t, wbits);
    if (rr != rt) abort();
    if (rr != Z_OK) return;
    if ((opt & 4) && wbits < 0) {
        rr = zapi_ref.inflateSetDictionary(&r, dict, dl);
        rt = zapi_tur.inflateSetDictionary(&t, dict, dl);
        if (rr != rt) abort();
    }
    if ((opt & 8) && wbits > 15) {
        header_init(&hr, hx_r, hn_r, hc_r, dl);
        header_init(&ht, hx_t, hn_t, hc_t, dl);
        rr = zapi_ref.inflateGetHeader(&r, &hr);
        rt = zapi_tur.inflateGetHeader(&t, &ht);
        if (rr != rt) abort();
    }
    if (opt & 32) {
        rr = zapi_ref.inflateValidate(&r, 0);
        rt = zapi_tur.inflateValidate(&t, 0);
        if (rr != rt) abort();
    }
    memset(ob_r, 0x5a, sizeof ob_r);
    memset(ob_t, 0x5a, sizeof ob_t);
    for (;;) {
        unsigned ai = slice(ic), ao = slice(oc);
        int fl = Z_NO_FLUSH;
        if (ai > n - ip) ai = (unsigned)(n - ip);
        if (ao > CAP - op) ao = (unsigned)(CAP - op);
        if (flushes && rnd() % 4 == 0) {
            static const int f[5] = {Z_NO_FLUSH, Z_SYNC_FLUSH, Z_FINISH,
                                     Z_BLOCK, Z_TREES};
            fl = f[rnd() % 5];
        }
        r.next_in = t.next_in = (z_const Bytef *)in + ip;
        r.avail_in = t.avail_in = ai;
        r.next_out = ob_r + op;
        t.next_out = ob_t + op;
        r.avail_out = t.avail_out = ao;
        rr = zapi_ref.inflate(&r, fl);
        rt = zapi_tur.inflate(&t, fl);
        fuzz_inflate_calls++;
        if (r.next_in - in != t.next_in - in || rr != rt) abort();
        r.next_in = t.next_in;          /* same offset: compare the rest */
        same(&r, &t, rr, rt);
        if (memcmp(ob_r + op, ob_t + op, ao + 64)) abort();
        if (zapi_ref.inflateSyncPoint(&r) != zapi_tur.inflateSyncPoint(&t)) abort();
        if ((zapi_ref.inflateCodesUsed(&r) == 0) != (zapi_tur.inflateCodesUsed(&t) == 0))
            abort();
        if ((opt & 8) && wbits > 15) header_same(&hr, &ht);
        if (opt & 128) {
            static unsigned char gr[32768], gt[32768];
            uInt lr = 0, lt = 0;
            if (zapi_ref.inflateGetDictionary(&r, gr, &lr) !=
                zapi_tur.inflateGetDictionary(&t, gt, &lt)) abort();
            if (lr != lt || memcmp(gr, gt, lr)) abort();
        }
        ip += ai - r.avail_in;
        op += ao - r.avail_out;
        if (rr == Z_NEED_DICT && (opt & 4)) {
            rr = zapi_ref.inflateSetDictionary(&r, dict, dl);
            rt = zapi_tur.inflateSetDictionary(&t, dict, dl);
            if (rr != rt) abort();
            same(&r, &t, rr, rt);
            if (rr == Z_OK) continue;
            break;
        }
        if (rr == Z_DATA_ERROR && (opt & 16) && syncs++ < 8) {
            /* inflateSync() over the rest of the input */
            r.avail_in = t.avail_in = (uInt)(n - ip);
            rr = zapi_ref.inflateSync(&r);
            rt = zapi_tur.inflateSync(&t);
            if (r.next_in - in != t.next_in - in || rr != rt) abort();
            r.next_in = t.next_in;
            same(&r, &t, rr, rt);
            ip = n - r.avail_in;
            if (rr == Z_OK) continue;
            break;
        }
        if ((opt & 64) && !copied && calls >= 2) {
            /* go on with copies; the originals end here */
            copied = 1;
            memset(&cr, 0, sizeof cr);
            memset(&ct, 0, sizeof ct);
            int cpr = zapi_ref.inflateCopy(&cr, &r);
            if (cpr != zapi_tur.inflateCopy(&ct, &t)) abort();
            if (cpr == Z_OK) {
                /* a z_stream cannot be moved (its state points back to
                 * it): copy the copy back into the ended original */
                zapi_ref.inflateEnd(&r);
                zapi_tur.inflateEnd(&t);
                if (zapi_ref.inflateCopy(&r, &cr) != Z_OK ||
                    zapi_tur.inflateCopy(&t, &ct) != Z_OK) abort();
                zapi_ref.inflateEnd(&cr);
                zapi_tur.inflateEnd(&ct);
                same(&r, &t, Z_OK, Z_OK);
            }
        }
        if (rr != Z_OK && rr != Z_BUF_ERROR) break;
        if (rr == Z_BUF_ERROR && ip == n) break;
        if (op == CAP || ++calls > 200000) break;
    }
    zapi_ref.inflateEnd(&r);
    zapi_tur.inflateEnd(&t);
}

struct src { const uint8_t *p; size_t n, pos; unsigned c; uint32_t seed; };
struct dst { unsigned char *p; size_t n; };

/* in() for inflateBack(): slices of class c, from its own seed */
static unsigned in_fn(void *d, z_const unsigned char **buf) {
    struct src *s = (struct src *)d;
    uint32_t save = rs;
    unsigned k;
    rs = s->seed;
    k = s->c == 4 ? 1 : slice(s->c);
    s->seed = rs;
    rs = save;
    if (k > s->n - s->pos) k = (unsigned)(s->n - s->pos);
    *buf = (z_const unsigned char *)s->p + s->pos;
    s->pos += k;
    return k;
}

/* out() for inflateBack(): append, up to CAP */
static int out_fn(void *d, unsigned char *buf, unsigned len) {
    struct dst *o = (struct dst *)d;
    if (o->n + len > CAP) return 1;
    memcpy(o->p + o->n, buf, len);
    o->n += len;
    return 0;
}

static unsigned char win_r[32768], win_t[32768], ob_s[CAP];

/* one inflateBack() run of library A; returns its return code */
static int back(const zapi *A, const uint8_t *in, size_t n, int wb,
                unsigned c, uint32_t seed, unsigned char *win,
                unsigned char *ob, size_t *on, const char **msg,
                long *noff, unsigned *navail) {
    z_stream s;
    struct src sr;
    struct dst d;
    int ret;
    memset(&s, 0, sizeof s);
    memset(win, 0xa5, 32768);
    if (ZAPI_INFLATE_BACK_INIT(A, &s, wb, win) != Z_OK) abort();
    sr.p = in; sr.n = n; sr.pos = 0; sr.c = c; sr.seed = seed;
    d.p = ob; d.n = 0;
    ret = A->inflateBack(&s, in_fn, &sr, out_fn, &d);
    *on = d.n;
    *msg = s.msg;
    *noff = s.next_in ? (long)(s.next_in - in) : -1;
    *navail = s.avail_in;
    A->inflateBackEnd(&s);
    return ret;
}

/* inflateBack() with both libraries and the same slicing */
static void run_back(const uint8_t *in, size_t n, int wb, unsigned c,
                     uint32_t seed) {
    size_t nr, nt, ns;
    const char *mr, *mt, *ms;
    long fr, ft, fs;
    unsigned ar, at, as;
    int rr, rt, rsl;
    rr = back(&zapi_ref, in, n, wb, c, seed, win_r, ob_r, &nr, &mr, &fr, &ar);
    rt = back(&zapi_tur, in, n, wb, c, seed, win_t, ob_t, &nt, &mt, &ft, &at);
    fuzz_inflate_back_runs++;
    if (rr == rt && nr == nt && memcmp(ob_r, ob_t, nr) == 0 &&
        (mr == NULL) == (mt == NULL) && (mr == NULL || strcmp(mr, mt) == 0) &&
        fr == ft && ar == at)
        return;
    /* differs: allowed only as zlib 1.3.2's slow path (one byte per in()),
     * which must give zlib-turbo's return code, output, msg and input
     * position.  The outputs can agree while the positions differ: out()
     * stops taking output at CAP, so where zlib 1.3.2 read history it never
     * wrote and went on past CAP before its "invalid distance too far back",
     * only next_in shows it (regressions/inflate-back-cap-hides-toofar.bin,
     * found on the 16-core Xeon) */
    rsl = back(&zapi_ref, in, n, wb, 4, seed, win_r, ob_s, &ns, &ms, &fs, &as);
    if (rsl != rt || ns != nt || memcmp(ob_s, ob_t, nt)) abort();
    if ((ms == NULL) != (mt == NULL) || (ms && strcmp(ms, mt))) abort();
    if (fs != ft) abort();
    fuzz_inflate_back_allowed++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    int wrap, w, wbits;
    if (size < 4) return 0;
    wrap = data[0] & 3;
    w = 8 + ((data[0] >> 2) & 7);
    if (w == 8 && wrap >= 2) w = 15;
    wbits = wrap == 0 ? -w : wrap == 1 ? w : wrap == 2 ? 16 + w : 32 + w;
    rs = (uint32_t)data[1] << 16 | (uint32_t)data[2] << 8 | data[0];
    run_inflate(data + 4, size - 4, wbits, data[1], data[2], data[3] & 1,
                data[3] & ~3u, 1 + ((unsigned)data[1] << 7 | data[2]) % 32768);
    if ((data[3] & 2) && wrap == 0)
        run_back(data + 4, size - 4, w < 9 ? 9 : w, data[1] & 3,
                 (uint32_t)data[2] * 2654435761u);
    return 0;
}
