/* zdamaged.c -- damaged streams through inflate() and inflateBack(),
 * pristine zlib against zlib-turbo, on any target (run_cross.sh builds it
 * for each target it checks, both libraries built for that target and
 * linked side by side by turbo/harness/pair.sh).
 *
 * usage: zdamaged [-n STREAMS] [-s SEED] [-m MAXLEN] FILE...
 *        zdamaged -i INPUT...
 *
 * Makes STREAMS (default 2000) streams from SEED (default 1): a piece of one
 * of the FILEs (or, one time in four, data made here), compressed by
 * pristine zlib at every level in turn with a random strategy, memLevel,
 * windowBits and wrapper (raw, zlib, gzip in turn), sometimes with flushes
 * every few hundred bytes (many blocks); then damaged, one to three times,
 * in the ways of turbo/tests/damaged_stream_test.cpp: a bit flipped, a byte
 * overwritten, the stream cut short, bytes inserted or deleted, the block
 * header fields (BFINAL, BTYPE, HLIT, HDIST, HCLEN) and the first bytes of
 * a block changed (block starts found with inflate(Z_BLOCK)), the zlib or
 * gzip header and trailer changed.  One stream in eight stays undamaged.
 * Each stream is read with the windowBits it was written with or 15 (and
 * zlib and gzip streams sometimes through automatic detection).
 *
 * The comparison is the engine of the inflate fuzzer,
 * turbo/tests/fuzz/fuzz_inflate.c (LLVMFuzzerTestOneInput(), linked in
 * without libFuzzer): both libraries inflate() the stream with the same
 * random slicing of input and output and the same flush values, and after
 * every call the return code, msg, next_in, avail_in, avail_out, total_in,
 * total_out, adler, data_type, inflateMark() and the output bytes (and the
 * 64 bytes past them) must be the same; raw streams also go through
 * inflateBack() with random in() sizes: same return code, msg, output,
 * next_in and avail_in, except where zlib 1.3.2's answer depends on the
 * slicing because it read window bytes it never wrote (README,
 * "Intentional differences", 1): there zlib-turbo must give what zlib
 * 1.3.2 gives with one input byte per in() call.  The engine abort()s on a
 * difference; the stream's engine input (4-byte header and stream) is
 * then written to ZDAMAGED_FAIL (default zdamaged-failed.bin), which
 * zdamaged -i replays on any target, and fuzz_inflate on the host.
 *
 * Prints one line with the counts, among them pristine zlib's answer to
 * each stream read in one call (so that a run that damaged nothing shows).
 * Exit 0 when all were the same, 1 when a generated stream was wrong (an
 * undamaged stream that pristine zlib does not read back), 2 on bad usage.
 * C89.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zapi.h"

extern int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
extern unsigned long fuzz_inflate_calls, fuzz_inflate_back_runs,
                     fuzz_inflate_back_allowed;

#define MAXFILE (1ul << 20)     /* what is read of each FILE */
#define CAP (1ul << 18)         /* the engine's output cap */
#define MAXBLK 512              /* block starts kept */

static unsigned char *cur;      /* the engine input being run */
static size_t cur_len;
static char cur_what[300];

/* a difference (abort()) or a crash: name the stream, keep its input */
static void on_fatal(int sig) {
    const char *name = getenv("ZDAMAGED_FAIL");
    FILE *f;

    if (name == NULL) name = "zdamaged-failed.bin";
    fprintf(stderr, "zdamaged: %s: %s\n", sig == SIGABRT ? "DIFFERENT" :
            "CRASHED", cur_what);
    if (cur != NULL && (f = fopen(name, "wb")) != NULL) {
        fwrite(cur, 1, cur_len, f);
        fclose(f);
        fprintf(stderr, "zdamaged: the input is in %s (replay: zdamaged -i "
                "%s)\n", name, name);
    }
    fflush(stderr);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* xorshift32 */
static unsigned long rs = 1;
static unsigned long rnd(void) {
    unsigned long x = rs;
    x ^= (x << 13) & 0xffffffffUL;
    x ^= x >> 17;
    x ^= (x << 5) & 0xffffffffUL;
    rs = x;
    return x;
}
static unsigned long below(unsigned long n) { return n ? rnd() % n : 0; }

static unsigned char *read_file(const char *name, size_t *len) {
    FILE *f = fopen(name, "rb");
    unsigned char *b;

    if (f == NULL) return NULL;
    b = malloc(MAXFILE);
    if (b == NULL) return NULL;
    *len = fread(b, 1, MAXFILE, f);
    fclose(f);
    return b;
}

/* n bytes of words, copies, runs and noise into b */
static void generate(unsigned char *b, size_t n) {
    static const char *words[] = { "the ", "zlib ", "inflate ", "back ",
        "window ", "of ", "and ", "distance ", "too ", "far ", "\n",
        "0123456789", "<td>", "</td>", "{\"a\":", ", " };
    size_t i = 0, k;

    while (i < n) {
        unsigned long r = below(100);
        if (r < 70) {
            const char *w = words[below(16)];
            for (k = 0; w[k] && i < n; k++) b[i++] = (unsigned char)w[k];
        } else if (r < 85) {
            size_t d = 1 + below(i < 32768 ? i + 1 : 32768), m = 3 + below(258);
            if (d > i) continue;
            for (k = 0; k < m && i < n; k++, i++) b[i] = b[i - d];
        } else if (r < 92) {
            size_t m = 4 + below(600);
            unsigned char c = (unsigned char)rnd();
            for (k = 0; k < m && i < n; k++) b[i++] = c;
        } else {
            size_t m = 1 + below(500);
            for (k = 0; k < m && i < n; k++) b[i++] = (unsigned char)rnd();
        }
    }
}

/* the stream: engine header (4 bytes) then the compressed bytes */
static unsigned char *zbuf, *obuf;
static size_t zcap;
static size_t blk[MAXBLK];
static int nblk;

/* compress src[0..n-1] with pristine zlib into zbuf + 4; its length */
static size_t compress_ref(const unsigned char *src, size_t n, int level,
                           int wbits, int mem, int strat, size_t every,
                           int flush) {
    z_stream s;
    size_t pos = 0;
    int ret;

    memset(&s, 0, sizeof s);
    if (ZAPI_DEFLATE_INIT2(&zapi_ref, &s, level, Z_DEFLATED, wbits, mem,
                           strat) != Z_OK)
        return 0;
    s.next_out = zbuf + 4;
    s.avail_out = (uInt)(zcap - 4);
    do {
        size_t k = every && n - pos > every ? every : n - pos;
        s.next_in = (Bytef *)src + pos;
        s.avail_in = (uInt)k;
        pos += k;
        ret = zapi_ref.deflate(&s, pos == n ? Z_FINISH : flush);
    } while (pos < n && ret == Z_OK);
    n = ret == Z_STREAM_END ? (size_t)s.total_out : 0;
    zapi_ref.deflateEnd(&s);
    return n;
}

/* the bit positions of the block headers of the valid stream zbuf + 4,
   found with inflate(Z_BLOCK) by pristine zlib, into blk[] */
static void block_starts(size_t n, int wbits) {
    z_stream s;
    int ret;

    nblk = 0;
    memset(&s, 0, sizeof s);
    if (ZAPI_INFLATE_INIT2(&zapi_ref, &s, wbits) != Z_OK) return;
    s.next_in = zbuf + 4;
    s.avail_in = (uInt)n;
    do {
        s.next_out = obuf;
        s.avail_out = (uInt)CAP;
        ret = zapi_ref.inflate(&s, Z_BLOCK);
        if ((s.data_type & 128) && !(s.data_type & 64) && nblk < MAXBLK &&
            ret == Z_OK)
            blk[nblk++] = (size_t)s.total_in * 8 - (s.data_type & 7);
    } while (ret == Z_OK);
    zapi_ref.inflateEnd(&s);
}

static void flip_bit(unsigned char *z, size_t n, size_t bit) {
    if (bit / 8 < n) z[bit / 8] ^= (unsigned char)(1u << (bit % 8));
}

static void put_bits(unsigned char *z, size_t n, size_t bit,
                     unsigned long v, int bits) {
    int i;
    for (i = 0; i < bits; i++, bit++)
        if (bit / 8 < n) {
            unsigned char m = (unsigned char)(1u << (bit % 8));
            z[bit / 8] = (unsigned char)((v >> i) & 1 ? z[bit / 8] | m :
                                         z[bit / 8] & ~m);
        }
}

static unsigned long kinds[10];

/* one damage to the stream z[0..*n-1] (room for 4 more bytes) */
static void damage(unsigned char *z, size_t *n) {
    size_t at, k, b0 = nblk ? blk[below((unsigned long)nblk)] : 0;
    unsigned kind = (unsigned)below(10);

    kinds[kind]++;
    if (*n == 0) {
        z[0] = (unsigned char)rnd();
        *n = 1;
        return;
    }
    switch (kind) {
    case 0:                                     /* a bit */
        flip_bit(z, *n, below((unsigned long)*n * 8));
        break;
    case 1:                                     /* a byte */
        z[below((unsigned long)*n)] = (unsigned char)rnd();
        break;
    case 2:                                     /* cut short */
        *n = below((unsigned long)*n);
        break;
    case 3:                                     /* bytes inserted */
        at = below((unsigned long)*n + 1);
        k = 1 + below(4);
        memmove(z + at + k, z + at, *n - at);
        *n += k;
        while (k--) z[at + k] = (unsigned char)rnd();
        break;
    case 4:                                     /* bytes deleted */
        at = below((unsigned long)*n);
        k = 1 + below(4);
        if (k > *n - at) k = *n - at;
        memmove(z + at, z + at + k, *n - at - k);
        *n -= k;
        break;
    case 5: case 6: {                           /* block header fields */
        /* after a block start: 0 BFINAL, 1-2 BTYPE, 3-7 HLIT, 8-12 HDIST,
           13-16 HCLEN */
        static const int fat[] = {0, 3, 8, 13}, flen[] = {0, 5, 5, 4};
        int field = (int)below(4);
        if (field == 0)
            flip_bit(z, *n, b0 + below(17));
        else
            put_bits(z, *n, b0 + (size_t)fat[field], below(2) ?
                     below(1ul << flen[field]) :
                     (1ul << flen[field]) - 1 - below(3), flen[field]);
        break;
    }
    case 7: case 8:                             /* the first bytes of a block */
        flip_bit(z, *n, b0 + below(320));
        break;
    default:                                    /* wrapper header, trailer */
        at = below(2) ? below(*n < 12 ? (unsigned long)*n : 12) :
             *n - 1 - below(*n < 8 ? (unsigned long)*n : 8);
        z[at] ^= (unsigned char)(1u << below(8));
        break;
    }
}

/* pristine zlib's answer to the stream in one call: 0 Z_STREAM_END,
   1 Z_DATA_ERROR, 2 Z_BUF_ERROR, 3 Z_NEED_DICT, 4 other */
static int one_call(const unsigned char *z, size_t n, int wbits) {
    z_stream s;
    int ret;

    memset(&s, 0, sizeof s);
    if (ZAPI_INFLATE_INIT2(&zapi_ref, &s, wbits) != Z_OK) return 4;
    s.next_in = (Bytef *)z;
    s.avail_in = (uInt)n;
    s.next_out = obuf;
    s.avail_out = (uInt)CAP;
    ret = zapi_ref.inflate(&s, Z_FINISH);
    zapi_ref.inflateEnd(&s);
    return ret == Z_STREAM_END ? 0 : ret == Z_DATA_ERROR ? 1 :
           ret == Z_BUF_ERROR ? 2 : ret == Z_NEED_DICT ? 3 : 4;
}

int main(int argc, char **argv) {
    unsigned long streams = 2000, seed = 1, k, intact = 0;
    unsigned long answers[5] = {0, 0, 0, 0, 0};
    size_t maxlen = 65536, len[64], gen_len = 1ul << 16;
    unsigned char *data[64], *gen;
    const char *names[64];
    int nf = 0, i, inputs = 0;
    static const int strats[] = {Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE,
                                 Z_FIXED};
    static const int flushes[] = {Z_FULL_FLUSH, Z_SYNC_FLUSH, Z_BLOCK,
                                  Z_PARTIAL_FLUSH};
    static const char *wraps[] = {"raw", "zlib", "gzip"};

    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            streams = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
            seed = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc &&
                 (maxlen = strtoul(argv[i + 1], NULL, 10)) >= 1 &&
                 maxlen <= CAP)
            i++;
        else if (strcmp(argv[i], "-i") == 0)
            inputs = 1;
        else {
            fprintf(stderr, "usage: zdamaged [-n STREAMS] [-s SEED] "
                    "[-m MAXLEN] FILE...\n       zdamaged -i INPUT...\n");
            return 2;
        }
    }
    signal(SIGABRT, on_fatal);
    signal(SIGSEGV, on_fatal);
    signal(SIGFPE, on_fatal);
    signal(SIGILL, on_fatal);
    if (inputs) {
        for (k = 0; i < argc; i++) {
            if ((cur = read_file(argv[i], &cur_len)) == NULL) {
                fprintf(stderr, "zdamaged: cannot read %s\n", argv[i]);
                return 2;
            }
            sprintf(cur_what, "%.200s", argv[i]);
            LLVMFuzzerTestOneInput(cur, cur_len);
            free(cur);
            k++;
        }
        cur = NULL;
        printf("zdamaged: %lu inputs replayed, all identical (%lu inflate() "
               "calls, %lu inflateBack() runs, %lu answered as zlib's "
               "one-byte in() path)\n", k, fuzz_inflate_calls,
               fuzz_inflate_back_runs, fuzz_inflate_back_allowed);
        return 0;
    }
    for (; i < argc && nf < 64; i++) {
        if ((data[nf] = read_file(argv[i], &len[nf])) == NULL) {
            fprintf(stderr, "zdamaged: cannot read %s\n", argv[i]);
            return 2;
        }
        names[nf] = argv[i];
        if (len[nf]) nf++;
    }
    zcap = 2 * maxlen + 1024;
    zbuf = malloc(zcap + 16);
    obuf = malloc(CAP);
    rs = 0x9e3779b9UL ^ (seed & 0xffffffffUL);
    if (rs == 0) rs = 1;
    gen = malloc(gen_len);
    if (zbuf == NULL || obuf == NULL || gen == NULL) return 2;
    generate(gen, gen_len);
    cur = zbuf;
    for (k = 0; k < streams; k++) {
        const unsigned char *src;
        size_t n, zn, off, every = 0;
        int f = -1, level = (int)(k % 10), wrap = (int)((k / 10) % 3);
        int strat, mem, w, wbits, rw, rwrap, flush = Z_NO_FLUSH, nd = 0;
        int small;

        rs = (seed * 1000003UL + k * 2654435761UL) & 0xffffffffUL;
        if (rs == 0) rs = 1;
        rnd(); rnd();
        /* the data: mostly short pieces (many calls per byte when sliced
           finely), now and then up to maxlen */
        n = below(10) < 7 ? 1 + below(4096) : 1 + below((unsigned long)maxlen);
        if (nf && below(4)) {
            f = (int)below((unsigned long)nf);
            src = data[f];
            if (n > len[f]) n = len[f];
            off = below((unsigned long)(len[f] - n + 1));
        } else {
            src = gen;
            if (n > gen_len) n = gen_len;
            off = below((unsigned long)(gen_len - n + 1));
        }
        src += off;
        if (below(16) == 0) n = below(3);       /* empty and tiny */
        strat = below(2) ? Z_DEFAULT_STRATEGY : strats[below(4)];
        mem = below(5) < 2 ? 1 + (int)below(3) : 4 + (int)below(6);
        w = 9 + (int)below(7);
        wbits = wrap == 0 ? -w : wrap == 1 ? w : 16 + w;
        if (below(2)) {
            every = 64 + below(4000);
            flush = flushes[below(4)];
        }
        zn = compress_ref(src, n, level, wbits, mem, strat, every, flush);
        if (zn == 0) {
            fprintf(stderr, "zdamaged: pristine deflate failed (stream %lu)"
                    "\n", k);
            return 1;
        }
        block_starts(zn, wbits);
        /* read with the same windowBits or 15; zlib and gzip streams
           sometimes detected automatically */
        rw = below(10) < 7 ? 15 : w;
        rwrap = wrap == 0 || below(4) ? wrap : 3;
        if (below(8) == 0) {
            intact++;
            if (one_call(zbuf + 4, zn, rwrap == 0 ? -rw : rwrap == 1 ? rw :
                         16 * rwrap - 16 + rw) != 0) {
                fprintf(stderr, "zdamaged: stream %lu: pristine zlib does "
                        "not read back its own stream\n", k);
                return 1;
            }
        } else
            for (nd = below(10) < 7 ? 1 : 2 + (int)below(2), i = 0; i < nd;
                 i++)
                damage(zbuf + 4, &zn);
        /* the engine's header: wrapper and windowBits, input and output
           slicing (class in the low 2 bits: 1-4, 1-64, 1-4096 bytes or
           all; the rest seeds the sizes), flushes and inflateBack */
        small = zn < 2048 && n < 16384;
        zbuf[0] = (unsigned char)(rwrap | (rw == 15 && rwrap >= 2 ? 0 :
                                           rw - 8) << 2);
        zbuf[1] = (unsigned char)rnd();
        zbuf[2] = (unsigned char)rnd();
        if (!small) {           /* no 1-4 byte slices of long streams */
            if ((zbuf[1] & 3) == 0) zbuf[1] |= 1 + (unsigned char)below(3);
            if ((zbuf[2] & 3) == 0) zbuf[2] |= 1 + (unsigned char)below(3);
        }
        zbuf[3] = (unsigned char)(below(2) | (below(4) ? 2 : 0));
        answers[one_call(zbuf + 4, zn, rwrap == 0 ? -rw : rwrap == 1 ? rw :
                         16 * rwrap - 16 + rw)]++;
        sprintf(cur_what, "stream %lu (seed %lu): %lu bytes of %.100s at "
                "%lu, level %d, strategy %d, memLevel %d, %s windowBits %d, "
                "flush %d every %lu, %d damages, read as %s windowBits %d",
                k, seed, (unsigned long)n, f < 0 ? "generated data" :
                names[f], (unsigned long)off, level, strat, mem,
                wraps[wrap], w, flush, (unsigned long)every, nd,
                rwrap == 3 ? "auto" : wraps[rwrap], rw);
        cur_len = zn + 4;
        LLVMFuzzerTestOneInput(zbuf, zn + 4);
    }
    printf("zdamaged: %lu streams (seed %lu, %lu undamaged), all identical: "
           "%lu inflate() calls and %lu inflateBack() runs compared (%lu "
           "answered as zlib's one-byte in() path, README's difference 1); "
           "pristine zlib in one call: Z_STREAM_END %lu, Z_DATA_ERROR %lu, "
           "Z_BUF_ERROR %lu, Z_NEED_DICT %lu, other %lu; damages: bit %lu, "
           "byte %lu, cut %lu, insert %lu, delete %lu, block header %lu, "
           "block start %lu, wrapper %lu\n", streams, seed, intact,
           fuzz_inflate_calls, fuzz_inflate_back_runs,
           fuzz_inflate_back_allowed, answers[0], answers[1], answers[2],
           answers[3], answers[4], kinds[0], kinds[1], kinds[2], kinds[3],
           kinds[4], kinds[5] + kinds[6], kinds[7] + kinds[8], kinds[9]);
    return 0;
}
