/* diffinf.c -- quick differential driver: inflate() and inflateBack() of
 * pristine zlib 1.3.2 (zapi_ref) against zlib-turbo (zapi_tur).
 *
 * diffinf SEED ITER FILE...
 * For each iteration: pick a file, compress a random piece of it (random
 * level, strategy, wrapper, windowBits), optionally damage it, then inflate
 * it with both libraries using the same random slicing of input and output
 * and the same random flush values, comparing after every call everything
 * inflate() exposes; then the same for inflateBack() with random in()
 * piece sizes.  Exits 1 at the first difference, printing it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zapi.h"

#ifdef COUNTED
extern unsigned long ref_zt_fast_syms, tur_zt_fast_syms;
#endif
static unsigned long long rs;
static unsigned rnd(void) {
    rs = rs * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(rs >> 33);
}
static unsigned rn(unsigned n) { return n ? rnd() % n : 0; }

static unsigned char *readfile(const char *p, size_t *n) {
    FILE *f = fopen(p, "rb");
    unsigned char *b;
    if (f == NULL) { perror(p); exit(2); }
    fseek(f, 0, SEEK_END); *n = (size_t)ftell(f); fseek(f, 0, SEEK_SET);
    b = malloc(*n + 1);
    if (fread(b, 1, *n, f) != *n) exit(2);
    fclose(f);
    return b;
}

static const char *what;
static unsigned long long iter;
static void fail(const char *m, long a, long b) {
    fprintf(stderr, "DIFF iter %llu (%s): %s ref=%ld tur=%ld\n", iter, what,
            m, a, b);
    exit(1);
}

#define MAXOUT (1u << 22)
static unsigned char obr[MAXOUT + 64], obt[MAXOUT + 64];

/* inflate both with identical slicing; return 0 or exit on difference */
static void diff_inflate(const unsigned char *in, size_t n, int wbits,
                         int mode) {
    z_stream r, t;
    int rr, rt, calls = 0;
    size_t pos = 0, opos = 0, ein = 0, eout = 0;
    if (mode >= 4) {
        /* find where the reference stops with everything at once, then
           end the first call's input or output just around there */
        memset(&r, 0, sizeof r);
        if (ZAPI_INFLATE_INIT2(&zapi_ref, &r, wbits) != Z_OK) return;
        r.next_in = (unsigned char *)in; r.avail_in = (unsigned)n;
        r.next_out = obr; r.avail_out = MAXOUT;
        zapi_ref.inflate(&r, Z_NO_FLUSH);
        ein = r.total_in; eout = r.total_out;
        zapi_ref.inflateEnd(&r);
        ein = ein + rn(14) < 7 ? 0 : ein + rn(14) - 7;
        eout = eout + rn(600) < 300 ? 0 : eout + rn(600) - 300;
    }
    memset(&r, 0, sizeof r); memset(&t, 0, sizeof t);
#ifdef COUNTED
    ref_zt_fast_syms = tur_zt_fast_syms = 0;
#endif
    rr = ZAPI_INFLATE_INIT2(&zapi_ref, &r, wbits);
    rt = ZAPI_INFLATE_INIT2(&zapi_tur, &t, wbits);
    if (rr != rt) fail("init", rr, rt);
    if (rr != Z_OK) return;
    memset(obr, 0xa5, sizeof obr); memset(obt, 0xa5, sizeof obt);
    for (;;) {
        unsigned ai, ao;
        int fl;
        switch (mode) {
        case 0: ai = (unsigned)(n - pos); ao = (unsigned)(MAXOUT - opos); break;
        case 1: ai = 16384; ao = 65536; break;
        case 2: ai = 1 + rn(rn(2) ? 16 : 3000); ao = 1 + rn(rn(2) ? 300 : 70000); break;
        case 3: ai = rn(40); ao = rn(600); break;
        case 4: ai = calls ? 1 + rn(3000) : (unsigned)ein; ao = calls ? 1 + rn(70000) : MAXOUT; break;
        default: ai = calls ? 1 + rn(3000) : (unsigned)n; ao = calls ? 1 + rn(70000) : (unsigned)eout; break;
        }
        if (ai > n - pos) ai = (unsigned)(n - pos);
        if (ao > MAXOUT - opos) ao = (unsigned)(MAXOUT - opos);
        fl = rn(8) == 0 ? (int)rn(6) : Z_NO_FLUSH;
        if (fl == Z_FULL_FLUSH) fl = Z_NO_FLUSH;
        r.next_in = t.next_in = (unsigned char *)in + pos;
        r.avail_in = t.avail_in = ai;
        r.next_out = obr + opos; t.next_out = obt + opos;
        r.avail_out = t.avail_out = ao;
        rr = zapi_ref.inflate(&r, fl);
        rt = zapi_tur.inflate(&t, fl);
        calls++;
        if (rr != rt) fail("ret", rr, rt);
        if ((r.msg == NULL) != (t.msg == NULL) ||
            (r.msg && strcmp(r.msg, t.msg))) {
            fprintf(stderr, "msg %s / %s\n", r.msg ? r.msg : "-", t.msg ? t.msg : "-");
            fail("msg", 0, 0);
        }
        if (r.avail_in != t.avail_in) fail("avail_in", r.avail_in, t.avail_in);
#ifdef COUNTED
        if (getenv("DIFFINF_C")) fprintf(stderr, "call %d ai %u ao %u: %lu %lu ret %d in %lu out %lu\n", calls, ai, ao, ref_zt_fast_syms, tur_zt_fast_syms, rr, r.total_in, r.total_out);
        if (ref_zt_fast_syms != tur_zt_fast_syms)
            fail("fast symbols", (long)ref_zt_fast_syms, (long)tur_zt_fast_syms);
#endif
        if (r.avail_out != t.avail_out) fail("avail_out", r.avail_out, t.avail_out);
        if (r.total_in != t.total_in) fail("total_in", r.total_in, t.total_in);
        if (r.total_out != t.total_out) fail("total_out", r.total_out, t.total_out);
        if (r.adler != t.adler) fail("adler", r.adler, t.adler);
        if (r.data_type != t.data_type) fail("data_type", r.data_type, t.data_type);
        if (zapi_ref.inflateMark(&r) != zapi_tur.inflateMark(&t))
            fail("mark", zapi_ref.inflateMark(&r), zapi_tur.inflateMark(&t));
        if (r.next_in - in != t.next_in - in) fail("next_in", 0, 0);
        pos += ai - r.avail_in;
        if (memcmp(obr + opos, obt + opos, ao + 64 > MAXOUT - opos + 64 ?
                   MAXOUT - opos + 64 : ao + 64))
            fail("output bytes", (long)opos, 0);
        opos += ao - r.avail_out;
        if (rr != Z_OK && rr != Z_BUF_ERROR) {
            if (getenv("DIFFINF_V"))
                fprintf(stderr, "mode %d call %d ret %d msg %s in %lu out %lu mark %ld\n",
                        mode, calls, rr, r.msg ? r.msg : "-", r.total_in,
                        r.total_out, zapi_ref.inflateMark(&r));
            break;
        }
        if (rr == Z_BUF_ERROR && pos == n && mode != 3) break;
        if (opos == MAXOUT) break;
        if (calls > 2000000) break;
    }
    zapi_ref.inflateEnd(&r); zapi_tur.inflateEnd(&t);
}

/* inflateBack with pieces */
struct src { const unsigned char *p; size_t n, pos; unsigned piece; };
struct dst { unsigned char *p; size_t n; unsigned calls; };
static unsigned in_fn(void *d, z_const unsigned char **buf) {
    struct src *s = d;
    unsigned k = s->piece ? s->piece : 1 + rn(2000);
    if (k > s->n - s->pos) k = (unsigned)(s->n - s->pos);
    *buf = (unsigned char *)s->p + s->pos;
    s->pos += k;
    return k;
}
static int out_fn(void *d, unsigned char *buf, unsigned len) {
    struct dst *o = d;
    if (o->n + len > MAXOUT) return 1;
    memcpy(o->p + o->n, buf, len);
    o->n += len; o->calls++;
    return 0;
}
static unsigned char bwin_r[32768], bwin_t[32768];
static unsigned long back_fixed;
static long force_piece = -1;
static void diff_back(const unsigned char *in, size_t n, int wbits) {
    z_stream r, t;
    struct src sr, st;
    struct dst dr, dt;
    unsigned piece = force_piece >= 0 ? (unsigned)force_piece :
        rn(3) == 0 ? 0 : 1 + rn(rn(2) ? 10 : 3000);
    unsigned long long save;
    int rr, rt;
    memset(&r, 0, sizeof r); memset(&t, 0, sizeof t);
    if (ZAPI_INFLATE_BACK_INIT(&zapi_ref, &r, wbits, bwin_r) != Z_OK) return;
    if (ZAPI_INFLATE_BACK_INIT(&zapi_tur, &t, wbits, bwin_t) != Z_OK) exit(3);
    memset(bwin_r, 0x11, sizeof bwin_r); memset(bwin_t, 0x11, sizeof bwin_t);
    sr.p = st.p = in; sr.n = st.n = n; sr.pos = st.pos = 0;
    sr.piece = st.piece = piece;
    dr.p = obr; dt.p = obt; dr.n = dt.n = 0; dr.calls = dt.calls = 0;
    save = rs;
    rr = zapi_ref.inflateBack(&r, in_fn, &sr, out_fn, &dr);
    rs = save;
    rt = zapi_tur.inflateBack(&t, in_fn, &st, out_fn, &dt);
    if (rr != rt || dr.n != dt.n || memcmp(obr, obt, dr.n) ||
        (r.msg == NULL) != (t.msg == NULL) || (r.msg && strcmp(r.msg, t.msg))) {
        /* allowed only where zlib 1.3.2's answer depends on the slicing
           (its inflate_fast() took window bytes it never wrote): then
           turbo must give what zlib 1.3.2 gives with one byte per in()
           call, which never reaches inflate_fast() */
        z_stream r1;
        struct src s1;
        struct dst d1;
        int r1r, r2r;
        static unsigned char o2[MAXOUT];
        memset(&r1, 0, sizeof r1);
        ZAPI_INFLATE_BACK_INIT(&zapi_ref, &r1, wbits, bwin_r);
        s1.p = in; s1.n = n; s1.pos = 0; s1.piece = 1;
        d1.p = o2; d1.n = 0; d1.calls = 0;
        r1r = zapi_ref.inflateBack(&r1, in_fn, &s1, out_fn, &d1);
        if (r1r != rt || d1.n != dt.n || memcmp(o2, obt, dt.n) ||
            (r1.msg == NULL) != (t.msg == NULL) ||
            (r1.msg && strcmp(r1.msg, t.msg)))
            fail("back differs, and not as zlib's own slow path", r1r, rt);
        /* and zlib 1.3.2 with that slicing must really have used bytes it
           never wrote (or, windowBits < 15, overwritten ones): its output
           changes with what the window held before */
        zapi_ref.inflateBackEnd(&r1);
        memset(&r1, 0, sizeof r1);
        ZAPI_INFLATE_BACK_INIT(&zapi_ref, &r1, wbits, bwin_r);
        memset(bwin_r, 0xee, sizeof bwin_r);
        s1.p = in; s1.n = n; s1.pos = 0; s1.piece = piece;
        d1.p = o2; d1.n = 0; d1.calls = 0;
        rs = save;
        r2r = zapi_ref.inflateBack(&r1, in_fn, &s1, out_fn, &d1);
        zapi_ref.inflateBackEnd(&r1);
        if (r2r == rr && d1.n == dr.n && memcmp(o2, obr, dr.n) == 0 && wbits == 15)
            fail("back differs, but zlib 1.3.2 did not read unwritten bytes", rr, rt);
        back_fixed++;
        zapi_ref.inflateBackEnd(&r); zapi_tur.inflateBackEnd(&t);
        return;
    }
    if (dr.calls != dt.calls) fail("back out calls", dr.calls, dt.calls);
    if (r.avail_in != t.avail_in) fail("back avail_in", r.avail_in, t.avail_in);
    if (sr.pos != st.pos) fail("back in pos", (long)sr.pos, (long)st.pos);
    if ((r.next_in ? r.next_in - in : -1) != (t.next_in ? t.next_in - in : -1))
        fail("back next_in", 0, 0);
    zapi_ref.inflateBackEnd(&r); zapi_tur.inflateBackEnd(&t);
}

int main(int argc, char **argv) {
    unsigned long long its, seed;
    int nf = argc - 3, i;
    unsigned char **fd;
    size_t *fl;
    static unsigned char comp[MAXOUT * 2];
    if (argc == 3 && strcmp(argv[1], "--back-raw") == 0) {
        /* a raw stream through inflateBack() with many slicings; 0 = all */
        static const long pieces[] = {1, 2, 3, 5, 7, 10, 50, 100, 1000, 4096, 0};
        size_t n;
        unsigned char *b = readfile(argv[2], &n);
        unsigned k;
        what = "inflateBack raw";
        for (k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
            force_piece = pieces[k] ? pieces[k] : 1L << 30;
            diff_back(b, n, 15);
            diff_inflate(b, n, -15, 0);
            diff_inflate(b, n, -15, 2);
        }
        printf("diffinf: %s: %lu slicings zlib 1.3.2 got wrong, all refused\n",
               argv[2], back_fixed);
        return 0;
    }
    if (argc < 4) { fprintf(stderr, "usage: diffinf SEED ITER FILE...\n"); return 2; }
    seed = strtoull(argv[1], 0, 10); its = strtoull(argv[2], 0, 10);
    fd = malloc(nf * sizeof *fd); fl = malloc(nf * sizeof *fl);
    for (i = 0; i < nf; i++) fd[i] = readfile(argv[i + 3], &fl[i]);
    for (iter = 0; iter < its; iter++) {
        int f = (int)rn(nf), lvl = (int)rn(10), wb = 9 + (int)rn(7);
        int wrap = (int)rn(4), strat = rn(3) == 0 ? (int)rn(5) : 0, mode;
        int dwb, dmg;
        size_t off, len, clen;
        z_stream d;
        rs = seed * 1000003ULL + iter; rnd(); rnd();
        len = fl[f] < 2 ? fl[f] : rn(2) ? fl[f] : 1 + rn((unsigned)fl[f]);
        if (rn(3) == 0 && len > 40000) len = 1 + rn(40000);
        if (len > MAXOUT) len = MAXOUT;
        off = rn((unsigned)(fl[f] - len + 1));
        memset(&d, 0, sizeof d);
        if (ZAPI_DEFLATE_INIT2(&zapi_ref, &d, lvl, 8, wrap == 0 ? -wb : wrap == 1 ? wb : 16 + wb,
                               8, strat) != Z_OK) return 3;
        d.next_in = fd[f] + off; d.avail_in = (unsigned)len;
        d.next_out = comp; d.avail_out = sizeof comp;
        if (zapi_ref.deflate(&d, Z_FINISH) != Z_STREAM_END) return 4;
        clen = d.total_out;
        zapi_ref.deflateEnd(&d);
        dmg = (int)rn(3);
        if (dmg) {
            int k, nd = 1 + (int)rn(4);
            for (k = 0; k < nd; k++) {
                size_t at = rn((unsigned)clen);
                if (rn(2)) comp[at] ^= (unsigned char)(1u << rn(8));
                else comp[at] = (unsigned char)rnd();
            }
            if (rn(4) == 0) clen = rn((unsigned)clen + 1);
        }
        dwb = wrap == 0 ? -wb : wrap == 1 ? wb : wrap == 2 ? 16 + wb : 32 + wb;
        if (rn(5) == 0) dwb = wrap == 0 ? -15 : wrap == 1 ? 15 : 47;
        mode = dmg ? (int)rn(6) : (int)rn(4);
        what = "inflate";
        diff_inflate(comp, clen, dwb, mode);
        if (wrap == 0 && rn(2)) {
            what = "inflateBack";
            diff_back(comp, clen, rn(3) ? 15 : wb);
        }
    }
    printf("diffinf: %llu iterations, no difference (%lu inflateBack streams where zlib 1.3.2 read unwritten window bytes, refused as its slow path does)\n", its, back_fixed);
    return 0;
}
