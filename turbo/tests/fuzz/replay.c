/* replay.c -- runs a fuzz target on given inputs without libFuzzer
 *
 * A main() for the fuzz targets fuzz_*.c: each argument is a file, whose
 * bytes are passed to LLVMFuzzerTestOneInput() once, in the order given.
 * The targets abort() on any difference between pristine zlib and
 * zlib-turbo, so a replay that returns has found none.  This lets make
 * check replay every regression input (regressions/TARGET-*.bin) with any
 * C compiler, where clang's libFuzzer is missing too
 * (tools/check/fuzz-replay.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* read all of the file at path into a malloc()ed buffer; *len its length */
static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL, *more;
    size_t cap = 0, n = 0, got;

    if (f == NULL)
        return NULL;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            more = (uint8_t *)realloc(buf, cap);
            if (more == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = more;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got != 0);
    if (ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv) {
    int i;
    size_t len;
    uint8_t *buf;

    for (i = 1; i < argc; i++) {
        buf = slurp(argv[i], &len);
        if (buf == NULL) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 2;
        }
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        printf("replay: %s (%lu bytes): no difference\n", argv[i],
               (unsigned long)len);
    }
    return 0;
}
