/* ver.c -- the versions a program linked with zlib-turbo sees: zlib's
 * "1.3.2", and zlib-turbo's own, the same in the header and the library and
 * equal to VERSION (-DVERSION="\"...\"", the top Makefile's, which reads
 * src/zturbo.h).  Used by tools/check/interface.sh and install.sh. */
#include <stdio.h>
#include <string.h>
#include "zturbo.h"
int main(void) {
    printf("zlibVersion() = %s, zlibTurboVersion() = %s, expected %s\n",
           zlibVersion(), zlibTurboVersion(), VERSION);
    return strcmp(zlibVersion(), "1.3.2") != 0 ||
           strcmp(zlibTurboVersion(), ZLIB_TURBO_VERSION) != 0 ||
           strcmp(ZLIB_TURBO_VERSION, VERSION) != 0;
}
