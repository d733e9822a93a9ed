/* zthreads.c -- threaded deflate against pristine zlib, call by call, on any
 * target (run_cross.sh builds it for 32-bit x86, s390x and 64-bit Windows).
 *
 * usage: zthreads [-v] [-t MIN-MAX] [-r ROUNDS] [FILE...]
 *        zthreads -i INPUT...
 *
 * Drives the lockstep engine of turbo/tests/fuzz/fuzz_deflate_threads.c
 * (LLVMFuzzerTestOneInput(), linked in without libFuzzer; pristine zlib and
 * zlib-turbo renamed side by side by turbo/harness/pair.sh) with inputs
 * made here instead of by a fuzzer: for each data source (the first 300 KiB
 * of each FILE, then 256 KiB generated here: text-like words, runs and
 * noise), each thread count MIN..MAX (default 2-4), each level 4..9 and
 * each round (default 2), a 16-byte header that sets those and varies the
 * strategy (default, filtered, fixed), the wrapper (zlib, raw, gzip), the
 * windowBits, the memLevel, a dictionary and how dense the plan's other
 * calls are; the engine's generator then slices input and output, flushes,
 * switches parameters, overwrites unconsumed input, changes the thread
 * count and compares everything after every call.  zlib-turbo is meant to
 * be built with small segments (-DZT_SEG_BITS=12) so that these inputs
 * cross many of them.
 *
 * With -i, each INPUT is a whole input of the engine (its 16-byte header
 * and data), run as it is: the fuzzer's corpus and regression inputs
 * replay on any target (with zlib-turbo built with the fuzzer's
 * ZT_SEG_BITS, 10).
 *
 * Prints one line with the counts (-v: also one per run, with its number
 * of deflate() calls); on a difference the engine abort()s after naming
 * it, and on a difference or a crash the input is written to
 * ZTHREADS_FAIL (default zthreads-failed.bin): replay it with the fuzzer
 * built with the same ZT_SEG_BITS (fuzz_deflate_threads FILE).  Exit 0
 * when all were the same, 2 on bad usage.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern unsigned long fuzz_deflate_threads_calls;

#define MAXDATA (300u << 10)

static unsigned char *cur;         /* the input being run */
static size_t cur_len;
static char cur_what[200];

/* a difference (abort()) or a crash: name the run, keep its input */
static void on_fatal(int sig) {
    const char *name = getenv("ZTHREADS_FAIL");
    FILE *f;

    if (name == NULL) name = "zthreads-failed.bin";
    fprintf(stderr, "zthreads: %s: %s\n", sig == SIGABRT ? "DIFFERENT" :
            "CRASHED", cur_what);
    if (cur != NULL && (f = fopen(name, "wb")) != NULL) {
        fwrite(cur, 1, cur_len, f);
        fclose(f);
        fprintf(stderr, "zthreads: the input is in %s\n", name);
    }
    fflush(stderr);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* a small deterministic generator */
static uint64_t gen;
static unsigned next(unsigned n) {
    gen ^= gen << 13; gen ^= gen >> 7; gen ^= gen << 17;
    return (unsigned)((gen >> 11) % n);
}

/* 256 KiB of words, runs and noise */
static unsigned char *generated(size_t *len) {
    static const char *words[] = { "the ", "zlib ", "deflate ", "thread ",
        "segment ", "of ", "and ", "window ", "match ", "lazy ", "\n",
        "0123456789", "<a href=\"", "\">", "</a>", ", " };
    size_t n = 256u << 10, i = 0, k;
    unsigned char *b = malloc(n);

    gen = 0x2545f4914f6cdd1dull;
    while (i < n) {
        unsigned r = next(100);
        if (r < 80) {                          /* a word */
            const char *w = words[next(16)];
            for (k = 0; w[k] && i < n; k++) b[i++] = (unsigned char)w[k];
        } else if (r < 90) {                   /* a copy from back there */
            size_t d = 1 + next(i < 40000 ? (unsigned)i + 1 : 40000u);
            size_t m = 3 + next(300);
            if (d > i) continue;
            for (k = 0; k < m && i < n; k++, i++) b[i] = b[i - d];
        } else if (r < 95) {                   /* a run of a short period */
            size_t p = 1 + next(4), m = 10 + next(5000);
            if (p > i) continue;
            for (k = 0; k < m && i < n; k++, i++) b[i] = b[i - p];
        } else {                               /* noise */
            size_t m = 1 + next(2000);
            for (k = 0; k < m && i < n; k++) b[i++] = (unsigned char)next(256);
        }
    }
    *len = n;
    return b;
}

static unsigned char *read_file(const char *name, size_t *len) {
    FILE *f = fopen(name, "rb");
    unsigned char *b;

    if (f == NULL) return NULL;
    b = malloc(MAXDATA);
    *len = fread(b, 1, MAXDATA, f);
    fclose(f);
    return b;
}

/* the header byte that makes the engine use t threads (2 .. 16) */
static unsigned char threads_byte(int t) {
    if (t <= 5) return (unsigned char)(t - 2);
    return (unsigned char)(0xe0 + ((t - 2) - 0xe0 % 15 + 15) % 15);
}

int main(int argc, char **argv) {
    int tmin = 2, tmax = 4, rounds = 2, i, t, level, k, sources = 0;
    int verbose = 0, inputs = 0;
    unsigned long runs = 0, calls;
    static const unsigned char strat[] = { 0, 3, 5 };   /* default, filtered, fixed */

    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-t") == 0 && i + 1 < argc &&
            sscanf(argv[i + 1], "%d-%d", &tmin, &tmax) == 2 &&
            tmin >= 2 && tmax >= tmin && tmax <= 16)
            i++;
        else if (strcmp(argv[i], "-v") == 0)
            verbose = 1;
        else if (strcmp(argv[i], "-i") == 0)
            inputs = 1;
        else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc &&
                 (rounds = atoi(argv[i + 1])) > 0)
            i++;
        else {
            fprintf(stderr, "usage: zthreads [-v] [-t MIN-MAX] [-r ROUNDS] "
                    "[FILE...]\n       zthreads -i INPUT...\n");
            return 2;
        }
    }
    signal(SIGABRT, on_fatal);
    signal(SIGSEGV, on_fatal);
    signal(SIGFPE, on_fatal);
    signal(SIGILL, on_fatal);
    if (inputs) {
        for (; i < argc; i++) {
            if ((cur = read_file(argv[i], &cur_len)) == NULL) {
                fprintf(stderr, "zthreads: cannot read %s\n", argv[i]);
                return 2;
            }
            snprintf(cur_what, sizeof cur_what, "%s", argv[i]);
            calls = fuzz_deflate_threads_calls;
            LLVMFuzzerTestOneInput(cur, cur_len);
            runs++;
            if (verbose)
                printf("%s: %lu calls\n", cur_what,
                       fuzz_deflate_threads_calls - calls);
            free(cur);
        }
        printf("zthreads: %lu inputs, %lu deflate() calls compared, all "
               "identical\n", runs, fuzz_deflate_threads_calls);
        return 0;
    }
    for (;; i++) {
        const char *name = i < argc ? argv[i] : "(generated)";
        size_t len;
        unsigned char *data = i < argc ? read_file(name, &len) :
                                         generated(&len);

        if (data == NULL) {
            fprintf(stderr, "zthreads: cannot read %s\n", name);
            return 2;
        }
        sources++;
        cur = malloc(16 + len);
        memcpy(cur + 16, data, len);
        cur_len = 16 + len;
        for (t = tmin; t <= tmax; t++)
            for (level = 4; level <= 9; level++)
                for (k = 0; k < rounds; k++) {
                    unsigned char *h = cur;
                    int r = (t * 10 + level) * rounds + k, wrap = (k + level) % 3;
                    int wb = k % 4 == 3 ? 9 + (level + t) % 6 : 15;
                    int j;

                    for (j = 0; j < 8; j++)
                        h[j] = (unsigned char)((r * 0x9e3779b9u + sources * 77u)
                                               >> (j * 3));
                    h[8] = (unsigned char)(level - 4);
                    h[9] = strat[(k + t) % 3];
                    /* windowBits 8 + (h & 7); wrapper (h >> 3) & 3:
                       0 raw, 1 zlib, 2 gzip */
                    h[10] = (unsigned char)((wb - 8) |
                                            (wrap == 0 ? 8 : wrap == 1 ? 0 : 16));
                    h[11] = (unsigned char)(0x30 | (k % 5 == 1 ? (level % 9) : 7));
                    h[12] = threads_byte(t);
                    h[13] = 63;
                    h[14] = (unsigned char)((k & 1 ? 8 : 0) |
                                            (k % 5 == 4 ? 5 : 0));
                    h[15] = 0;
                    snprintf(cur_what, sizeof cur_what,
                             "%s: threads %d, level %d, round %d", name, t,
                             level, k);
                    calls = fuzz_deflate_threads_calls;
                    LLVMFuzzerTestOneInput(cur, cur_len);
                    runs++;
                    if (verbose)
                        printf("%s: %lu calls\n", cur_what,
                               fuzz_deflate_threads_calls - calls);
                }
        free(cur);
        cur = NULL;
        free(data);
        if (i >= argc) break;
    }
    printf("zthreads: %lu runs, %lu deflate() calls compared, all identical "
           "(%d sources, threads %d-%d, levels 4-9)\n", runs,
           fuzz_deflate_threads_calls, sources, tmin, tmax);
    return 0;
}
