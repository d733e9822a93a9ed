#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"
/* chk FILE.zz ORIG : inflate in one call and in 16K/64K chunks, compare with ORIG */
static unsigned char in[1<<26], out[1<<27], orig[1<<27];
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); size_t len = fread(in, 1, sizeof in, f); fclose(f);
    f = fopen(argv[2], "rb"); size_t olen = fread(orig, 1, sizeof orig, f); fclose(f);
    z_stream s; int rc, bad = 0;
    memset(&s, 0, sizeof s); inflateInit(&s);
    s.next_in = in; s.avail_in = len; s.next_out = out; s.avail_out = sizeof out;
    rc = inflate(&s, Z_FINISH);
    if (rc != Z_STREAM_END || s.total_out != olen || memcmp(out, orig, olen)) bad |= 1;
    inflateEnd(&s);
    memset(&s, 0, sizeof s); inflateInit(&s); memset(out, 0, olen);
    { size_t ip = 0; unsigned char *o = out; rc = Z_OK;
      while (rc == Z_OK) { size_t n = len - ip < 16384 ? len - ip : 16384; s.next_in = in + ip; s.avail_in = n;
        s.next_out = o; s.avail_out = 65536; rc = inflate(&s, Z_NO_FLUSH); ip += n - s.avail_in; o = s.next_out; if (rc == Z_BUF_ERROR && n == 0) break; } }
    if (rc != Z_STREAM_END || s.total_out != olen || memcmp(out, orig, olen)) bad |= 2;
    inflateEnd(&s);
    printf("%s %s\n", argv[1], bad ? "BAD" : "ok"); return bad;
}
