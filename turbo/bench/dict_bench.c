/* dict_bench.c -- small messages with a shared 32 KiB dictionary: pristine
 * zlib 1.3.2's deflateSetDictionary() against zlib-turbo's
 * deflateUseDictionary() (a prepared dictionary), in one process.
 *
 * Both libraries are linked side by side, renamed by turbo/harness/mkzobj.sh
 * (ref_*, tur_*), reached through the zapi tables (turbo/harness/zapi.h).
 * Each message is its own zlib stream (windowBits 15, memLevel 8, default
 * strategy) on one z_stream per library: deflateReset(), then the
 * dictionary (ref: deflateSetDictionary() with the 32 KiB; tur:
 * deflateUseDictionary() with the object prepared once before timing), then
 * deflate(Z_FINISH) of the message into a buffer large enough for it.
 * Messages are cut one after another from the data that follows the
 * dictionary in the same text, so they refer back to it as real traffic
 * would.  Every message's compressed bytes are compared between the two
 * libraries before timing (exit status 2 on any difference).
 *
 * Data sets: "text", a corpus text (dictionary = its first 32 KiB); and
 * "json", JSON-like records made from the words of that text
 * ({"id":N,"user":"...","tags":[...],"text":"..."} one per line), the
 * dictionary being 32 KiB of earlier records.
 *
 * Timing: for each (data, level, size), ROUNDS rounds; in each round each
 * library compresses the whole message list (repeated to about TARGET
 * seconds) and the mean time per message is recorded; the two libraries
 * alternate within a round and the order flips every round.  Reported:
 * medians in microseconds per message and the ratio ref/tur (the speedup).
 * "setup" rows time deflateReset() + dictionary alone, without deflate().
 *
 * Build: turbo/bench/dict_bench.sh.
 * Run:   dict_bench [--rounds=N] [--target=SECONDS] [--levels=1,6]
 *                   [--sizes=256,1024,4096] FILE
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "zapi.h"
#include "bench_time.h"

#define DICT 32768
#define MAXMSG 256

static unsigned char *load(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    unsigned char *b;
    long n;
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b = malloc((size_t)n + 1);
    if (b == NULL || fread(b, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(b);
        return NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* JSON-like records from the words of a text: about outlen bytes */
static unsigned char *make_json(const unsigned char *t, size_t tlen,
                                size_t outlen, size_t *len) {
    unsigned char *o = malloc(outlen + 4096);
    size_t n = 0, p = 0;
    unsigned long id = 100000, seed = 12345;
    static const char *tags[] = {"news", "sports", "tech", "music", "travel",
                                 "food", "science", "books"};
    while (n < outlen) {
        char word[32], text[600];
        size_t w = 0, k = 0, want;
        int i;
        /* a word for the user name */
        while (p < tlen && !((t[p] | 32) >= 'a' && (t[p] | 32) <= 'z')) p = (p + 1) % tlen;
        while (p < tlen && w < 20 && ((t[p] | 32) >= 'a' && (t[p] | 32) <= 'z'))
            word[w++] = (char)(t[p++] | 32);
        word[w] = 0;
        /* some text, printable and without quotes */
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        want = 40 + (seed >> 33) % 300;
        while (k < want) {
            unsigned char c = t[p];
            p = (p + 1) % tlen;
            if (c == '\n' || c == '\r' || c == '\t') c = ' ';
            if (c < 32 || c > 126 || c == '"' || c == '\\') continue;
            text[k++] = (char)c;
        }
        text[k] = 0;
        i = sprintf((char *)o + n,
                    "{\"id\":%lu,\"user\":\"%s\",\"verified\":%s,\"tags\":[\"%s\",\"%s\"],"
                    "\"score\":%lu,\"text\":\"%s\"}\n",
                    id, word, (seed >> 20) & 1 ? "true" : "false",
                    tags[(seed >> 21) & 7], tags[(seed >> 24) & 7],
                    (seed >> 40) % 1000, text);
        n += (size_t)i;
        id += 1 + (seed >> 50) % 7;
        if (p >= tlen) p = 0;
    }
    *len = n;
    return o;
}

typedef struct {
    const zapi *A;
    int use;                    /* 1: deflateUseDictionary */
    z_stream s;
    struct z_dict_s *pd;
} lib;

static const unsigned char *dict;
static const unsigned char *msg[MAXMSG];
static size_t msglen[MAXMSG];
static int nmsg;
static unsigned char outbuf[1 << 17];
static unsigned long sink;

/* one message; returns the compressed length */
static size_t one(lib *L, int m, int setup_only) {
    z_stream *s = &L->s;
    L->A->deflateReset(s);
    if (L->use)
        L->A->deflateUseDictionary(s, L->pd);
    else
        L->A->deflateSetDictionary(s, dict, DICT);
    if (setup_only) {
        sink += s->adler;
        return 0;
    }
    s->next_in = (Bytef *)msg[m];
    s->avail_in = (uInt)msglen[m];
    s->next_out = outbuf;
    s->avail_out = sizeof outbuf;
    if (L->A->deflate(s, Z_FINISH) != Z_STREAM_END) {
        fprintf(stderr, "dict_bench: deflate did not finish\n");
        exit(1);
    }
    sink += outbuf[0];
    return sizeof outbuf - s->avail_out;
}

/* seconds per message for reps passes over the message list */
static double run(lib *L, long reps, int setup_only) {
    double t0 = bench_now();
    long r;
    int m;
    for (r = 0; r < reps; r++)
        for (m = 0; m < nmsg; m++)
            one(L, m, setup_only);
    return (bench_now() - t0) / ((double)reps * nmsg);
}

static int parse_list(const char *s, long *v, int max) {
    int n = 0;
    while (*s && n < max) {
        v[n++] = strtol(s, (char **)&s, 10);
        if (*s == ',') s++;
    }
    return n;
}

int main(int argc, char **argv) {
    int rounds = 11, i, j, k, nl = 2, ns = 3, set, mismatches = 0;
    double target = 0.05;
    long levels[10] = {1, 6}, sizes[10] = {256, 1024, 4096};
    const char *file = NULL;
    unsigned char *text, *json, *data;
    size_t tlen, jlen, dlen;
    lib L[2];

    for (i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--rounds=", 9)) rounds = atoi(argv[i] + 9);
        else if (!strncmp(argv[i], "--target=", 9)) target = atof(argv[i] + 9);
        else if (!strncmp(argv[i], "--levels=", 9)) nl = parse_list(argv[i] + 9, levels, 10);
        else if (!strncmp(argv[i], "--sizes=", 8)) ns = parse_list(argv[i] + 8, sizes, 10);
        else file = argv[i];
    }
    if (file == NULL || rounds < 1 || rounds > 999) {
        fprintf(stderr, "usage: dict_bench [--rounds=N] [--target=S] "
                        "[--levels=1,6] [--sizes=256,1024,4096] FILE\n");
        return 1;
    }
    if (zapi_tur.deflateUseDictionary == NULL) {
        fprintf(stderr, "dict_bench: the library under test has no "
                        "deflateUseDictionary\n");
        return 1;
    }
    text = load(file, &tlen);
    if (text == NULL || tlen < DICT + 64 * 1024) {
        fprintf(stderr, "dict_bench: %s: unreadable or under 96 KiB\n", file);
        return 1;
    }
    json = make_json(text, tlen, DICT + 1024 * 1024, &jlen);
    printf("# dict_bench: %s (%zu bytes); json records made from it (%zu bytes)\n",
           file, tlen, jlen);
    printf("# each message its own zlib stream (windowBits 15, memLevel 8): "
           "deflateReset + dictionary (%d bytes) + deflate(Z_FINISH)\n", DICT);
    printf("# ref = pristine zlib %s, deflateSetDictionary; tur = zlib-turbo %s, "
           "deflateUseDictionary (prepared once)\n", zapi_ref.zlibVersion(),
           zapi_tur.zlibTurboVersion ? zapi_tur.zlibTurboVersion() : "?");
    printf("# %d rounds, alternating (order flipped every round), ~%.3f s per "
           "library per round; medians; us = microseconds per message\n",
           rounds, target);
    printf("%-5s %-5s %5s %6s %11s %11s %8s %9s\n", "data", "level", "size",
           "msgs", "ref_us", "tur_us", "speedup", "identical");

    for (set = 0; set < 2; set++) {
        data = set ? json : text;
        dlen = set ? jlen : tlen;
        dict = data;
        for (i = 0; i < nl; i++) {
            for (j = 0; j <= ns; j++) {
                /* j == ns: the setup alone (reset + dictionary) */
                int setup = j == ns;
                size_t size = setup ? 0 : (size_t)sizes[j];
                double tr[1000], tt[1000], t;
                long reps;
                int same = 1;
                size_t off = DICT;
                nmsg = 0;
                while (nmsg < MAXMSG && off + (size ? size : 1) <= dlen &&
                       (nmsg < 16 || off < DICT + 256 * 1024)) {
                    msg[nmsg] = data + off;
                    msglen[nmsg] = size;
                    off += size ? size : 1;
                    nmsg++;
                }
                for (k = 0; k < 2; k++) {
                    memset(&L[k], 0, sizeof L[k]);
                    L[k].A = k ? &zapi_tur : &zapi_ref;
                    L[k].use = k;
                    if (ZAPI_DEFLATE_INIT2(L[k].A, &L[k].s, (int)levels[i],
                                           Z_DEFLATED, 15, 8,
                                           Z_DEFAULT_STRATEGY) != Z_OK)
                        return 1;
                    if (k && L[k].A->deflatePrepareDictionary(
                                 &L[k].s, dict, DICT, &L[k].pd) != Z_OK)
                        return 1;
                }
                /* the same bytes, message by message */
                if (!setup)
                    for (k = 0; k < nmsg; k++) {
                        static unsigned char a[1 << 17];
                        size_t na = one(&L[0], k, 0), nb;
                        memcpy(a, outbuf, na);
                        nb = one(&L[1], k, 0);
                        if (na != nb || memcmp(a, outbuf, na) != 0) same = 0;
                    }
                if (!same) mismatches++;
                /* calibrate: passes over the list for ~target seconds */
                t = run(&L[0], 1, setup);
                reps = (long)(target / (t * nmsg)) + 1;
                for (k = 0; k < rounds; k++) {
                    if (k % 2 == 0) {
                        tr[k] = run(&L[0], reps, setup);
                        tt[k] = run(&L[1], reps, setup);
                    } else {
                        tt[k] = run(&L[1], reps, setup);
                        tr[k] = run(&L[0], reps, setup);
                    }
                }
                {
                    double mr = bench_median(tr, rounds) * 1e6,
                           mt = bench_median(tt, rounds) * 1e6;
                    char sz[16];
                    if (setup) strcpy(sz, "setup");
                    else sprintf(sz, "%zu", size);
                    printf("%-5s %-5ld %5s %6d %11.2f %11.2f %7.2fx %9s\n",
                           set ? "json" : "text", levels[i], sz, nmsg, mr, mt,
                           mr / mt, setup ? "-" : same ? "yes" : "NO");
                    fflush(stdout);
                }
                for (k = 0; k < 2; k++) {
                    if (L[k].pd) L[k].A->deflateFreeDictionary(L[k].pd);
                    L[k].A->deflateEnd(&L[k].s);
                }
            }
        }
    }
    free(text);
    free(json);
    if (sink == 42) printf("#\n");
    return mismatches ? 2 : 0;
}
