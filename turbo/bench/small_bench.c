/* small_bench.c -- per-stream cost of inflating small zlib streams, two zlibs.
 *
 * The reference (zapi_ref, pristine zlib 1.3.2) and the library under test
 * (zapi_tur) are linked into one program (turbo/harness/pair.sh).  Messages
 * of each --sizes size are cut from a text FILE at NMSG evenly spaced
 * offsets and compressed by the reference at each --levels level (zlib
 * wrapper, deflateInit() defaults).  Two ways of inflating a message:
 *   init    inflateInit2(15) + one inflate(Z_FINISH) + inflateEnd()
 *   reset   inflateReset() + one inflate(Z_FINISH), on a stream set up once
 * and two output spaces: "exact" (avail_out = the message's size, so the
 * last 257 bytes go through inflate()'s own loop) and "big" (64 KiB more).
 * Every inflated message is compared with the original.
 *
 * Time mode (default): for each (size, level, way, out) and each of --reps
 * repetitions, both libraries in turn (order flipped each repetition), each
 * inflating all NMSG messages again and again until --min-time seconds have
 * passed; a repetition records the mean nanoseconds per stream.  Printed:
 * the medians and ref/tur (the speed ratio, > 1 = zlib-turbo faster), then
 * the minimums and their ratio (less disturbed by other load).
 *
 * Count mode (--count ref|tur, one --sizes, --levels, --ways, --outs value):
 * one untimed pass over the messages, then --passes passes inside
 * counted_region(), made to be run under
 *   valgrind --tool=callgrind --toggle-collect=counted_region
 * (small_bench.sh icount): instructions / (passes * NMSG) = per stream.
 *
 * Exit status: 0, 1 on bad usage or a failed call, 2 on wrong output.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zapi.h"
#include "bench_time.h"

#define NMSG 64
#define MAXSIZES 8
#define MAXLEVELS 10
#define MAXREPS 101
#define SLACK 65536

/* one compressed message set: NMSG messages of one size at one level */
typedef struct {
    unsigned size;
    int level;
    unsigned char *plain[NMSG];
    unsigned char *comp[NMSG];
    unsigned long clen[NMSG];
} msgset;

static unsigned char *text;
static unsigned long textlen;
static unsigned char *outbuf;
static int bad;

/* die(): prints a message and exits with status 1 */
static void die(const char *what, const char *arg)
{
    fprintf(stderr, "small_bench: %s%s\n", what, arg ? arg : "");
    exit(1);
}

/* make_set(): cuts NMSG messages of size bytes from the text and compresses
   each with the reference library at level; exits on failure */
static void make_set(msgset *m, unsigned size, int level)
{
    int i;
    unsigned long step;

    if (textlen < size)
        die("text shorter than a message", NULL);
    step = (textlen - size) / NMSG;
    m->size = size;
    m->level = level;
    for (i = 0; i < NMSG; i++) {
        z_stream s;
        unsigned long bound = size + size / 8 + 64;

        m->plain[i] = text + (unsigned long)i * step;
        m->comp[i] = malloc(bound);
        if (m->comp[i] == NULL)
            die("out of memory", NULL);
        memset(&s, 0, sizeof(s));
        if (ZAPI_DEFLATE_INIT2(&zapi_ref, &s, level, Z_DEFLATED, 15, 8,
                               Z_DEFAULT_STRATEGY) != Z_OK)
            die("deflateInit2 failed", NULL);
        s.next_in = m->plain[i];
        s.avail_in = size;
        s.next_out = m->comp[i];
        s.avail_out = (uInt)bound;
        if (zapi_ref.deflate(&s, Z_FINISH) != Z_STREAM_END)
            die("deflate failed", NULL);
        m->clen[i] = s.total_out;
        zapi_ref.deflateEnd(&s);
    }
}

/* one_stream(): inflates message i of m with library A into outbuf, given
   outspace bytes of room; the stream s is initialised first when init is
   true (and ended after), else reset; counts a wrong result in bad */
static void one_stream(const zapi *A, z_stream *s, const msgset *m, int i,
                       int init, unsigned outspace)
{
    int ret;

    if (init) {
        s->zalloc = Z_NULL;
        s->zfree = Z_NULL;
        s->opaque = Z_NULL;
        s->next_in = Z_NULL;
        s->avail_in = 0;
        if (ZAPI_INFLATE_INIT2(A, s, 15) != Z_OK)
            die("inflateInit2 failed", NULL);
    }
    else
        A->inflateReset(s);
    s->next_in = m->comp[i];
    s->avail_in = (uInt)m->clen[i];
    s->next_out = outbuf;
    s->avail_out = outspace;
    ret = A->inflate(s, Z_FINISH);
    if (ret != Z_STREAM_END || s->total_out != m->size)
        bad++;
    if (init)
        A->inflateEnd(s);
}

/* passes(): inflates every message of m passes times; returns the number
   of streams inflated */
static long passes(const zapi *A, const msgset *m, long n, int init,
                   unsigned outspace)
{
    z_stream s;
    long p;
    int i;

    if (!init) {
        memset(&s, 0, sizeof(s));
        if (ZAPI_INFLATE_INIT2(A, &s, 15) != Z_OK)
            die("inflateInit2 failed", NULL);
    }
    for (p = 0; p < n; p++)
        for (i = 0; i < NMSG; i++)
            one_stream(A, &s, m, i, init, outspace);
    if (!init)
        A->inflateEnd(&s);
    return n * NMSG;
}

/* counted_region(): the part that callgrind counts in count mode */
__attribute__((noinline)) long counted_region(const zapi *A, const msgset *m,
                                              long n, int init,
                                              unsigned outspace)
{
    return passes(A, m, n, init, outspace);
}

/* check(): inflates each message once with A and compares it with the
   original; counts differences in bad */
static void check(const zapi *A, const msgset *m, unsigned outspace)
{
    z_stream s;
    int i;

    for (i = 0; i < NMSG; i++) {
        memset(outbuf, 0, m->size);
        one_stream(A, &s, m, i, 1, outspace);
        if (memcmp(outbuf, m->plain[i], m->size) != 0)
            bad++;
    }
}

/* timed(): mean nanoseconds per stream over passes until min_time */
static double timed(const zapi *A, const msgset *m, int init,
                    unsigned outspace, double min_time)
{
    double t0 = bench_now(), t;
    long streams = 0, n = 1;

    do {
        streams += passes(A, m, n, init, outspace);
        t = bench_now() - t0;
        if (n < 1 << 20)
            n *= 2;
    } while (t < min_time);
    return t * 1e9 / streams;
}

/* parse_list(): comma-separated numbers into v (at most max); returns the
   count */
static int parse_list(const char *s, int *v, int max)
{
    int n = 0;
    char *e;

    while (*s && n < max) {
        v[n++] = (int)strtol(s, &e, 10);
        if (e == s)
            die("bad list: ", s);
        s = *e == ',' ? e + 1 : e;
        if (*e == 'k' || *e == 'K') {
            v[n - 1] *= 1024;
            s = e[1] == ',' ? e + 2 : e + 1;
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    int sizes[MAXSIZES] = {100, 1024, 4096, 16384}, nsizes = 4;
    int levels[MAXLEVELS] = {1, 6, 9}, nlevels = 3;
    int reps = 11, w, o, si, li, r, a;
    int ways[2] = {1, 0}, nways = 2, outs[2] = {0, 1}, nouts = 2;
    double min_time = 0.02;
    long npasses = 20;
    const char *count = NULL, *file = NULL;
    const zapi *L[2];
    FILE *f;
    long got;

    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--sizes") == 0 && a + 1 < argc)
            nsizes = parse_list(argv[++a], sizes, MAXSIZES);
        else if (strcmp(argv[a], "--levels") == 0 && a + 1 < argc)
            nlevels = parse_list(argv[++a], levels, MAXLEVELS);
        else if (strcmp(argv[a], "--reps") == 0 && a + 1 < argc)
            reps = atoi(argv[++a]);
        else if (strcmp(argv[a], "--min-time") == 0 && a + 1 < argc)
            min_time = atof(argv[++a]);
        else if (strcmp(argv[a], "--passes") == 0 && a + 1 < argc)
            npasses = atol(argv[++a]);
        else if (strcmp(argv[a], "--count") == 0 && a + 1 < argc)
            count = argv[++a];
        else if (strcmp(argv[a], "--ways") == 0 && a + 1 < argc) {
            a++;
            nways = 0;
            if (strstr(argv[a], "init"))
                ways[nways++] = 1;
            if (strstr(argv[a], "reset"))
                ways[nways++] = 0;
        }
        else if (strcmp(argv[a], "--outs") == 0 && a + 1 < argc) {
            a++;
            nouts = 0;
            if (strstr(argv[a], "exact"))
                outs[nouts++] = 0;
            if (strstr(argv[a], "big"))
                outs[nouts++] = 1;
        }
        else if (argv[a][0] != '-' && file == NULL)
            file = argv[a];
        else
            die("usage: small_bench [--sizes 100,1k,...] [--levels 1,6,9] "
                "[--ways init,reset] [--outs exact,big] [--reps N] "
                "[--min-time S] [--count ref|tur --passes N] FILE", NULL);
    }
    if (file == NULL || nsizes < 1 || nlevels < 1 || nways < 1 || nouts < 1
        || reps < 1 || reps > MAXREPS)
        die("bad arguments (see the top of small_bench.c)", NULL);
    if ((f = fopen(file, "rb")) == NULL)
        die("cannot open ", file);
    text = malloc(64L << 20);
    if (text == NULL)
        die("out of memory", NULL);
    textlen = (unsigned long)fread(text, 1, 64L << 20, f);
    fclose(f);
    outbuf = malloc(16384 + 16384 * 4 + SLACK);
    if (outbuf == NULL)
        die("out of memory", NULL);

    if (count != NULL) {
        msgset m;
        const zapi *A = strcmp(count, "ref") == 0 ? &zapi_ref : &zapi_tur;
        unsigned space;

        make_set(&m, (unsigned)sizes[0], levels[0]);
        space = m.size + (outs[0] ? SLACK : 0);
        check(A, &m, space);
        if (bad)
            die("wrong output", NULL);
        passes(A, &m, 1, ways[0], space);
        got = counted_region(A, &m, npasses, ways[0], space);
        printf("streams %ld bad %d\n", got, bad);
        return bad ? 2 : 0;
    }

    printf("# columns: size level way out ref_ns tur_ns ref/tur (medians "
           "of %d reps, %d messages, min-time %g s; ratio > 1: zlib-turbo "
           "faster), then the same of the fastest reps (steadier on a "
           "loaded machine)\n", reps, NMSG, min_time);
    for (si = 0; si < nsizes; si++)
        for (li = 0; li < nlevels; li++) {
            msgset m;
            unsigned long ctot = 0;
            int i;

            make_set(&m, (unsigned)sizes[si], levels[li]);
            for (i = 0; i < NMSG; i++)
                ctot += m.clen[i];
            printf("# size %u level %d: compressed %lu bytes on average\n",
                   m.size, m.level, ctot / NMSG);
            for (o = 0; o < nouts; o++) {
                unsigned space = m.size + (outs[o] ? SLACK : 0);

                check(&zapi_ref, &m, space);
                check(&zapi_tur, &m, space);
                if (bad)
                    die("wrong output", NULL);
                for (w = 0; w < nways; w++) {
                    double t[2][MAXREPS];

                    for (r = 0; r < reps; r++) {
                        int first = r & 1;      /* 0: ref first */

                        L[0] = &zapi_ref;
                        L[1] = &zapi_tur;
                        t[first][r] = timed(L[first], &m, ways[w], space,
                                            min_time);
                        t[!first][r] = timed(L[!first], &m, ways[w], space,
                                             min_time);
                    }
                    qsort(t[0], (size_t)reps, sizeof(double), bench_cmp_double);
                    qsort(t[1], (size_t)reps, sizeof(double), bench_cmp_double);
                    printf("%6u %d %-5s %-5s %9.1f %9.1f %6.3f %9.1f "
                           "%9.1f %6.3f\n", m.size, m.level,
                           ways[w] ? "init" : "reset",
                           outs[o] ? "big" : "exact", t[0][reps / 2],
                           t[1][reps / 2], t[0][reps / 2] / t[1][reps / 2],
                           t[0][0], t[1][0], t[0][0] / t[1][0]);
                    fflush(stdout);
                }
            }
            for (i = 0; i < NMSG; i++)
                free(m.comp[i]);
        }
    return bad ? 2 : 0;
}
