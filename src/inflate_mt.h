/* inflate_mt.h -- inflate() on many threads (inflate_mt.c)
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * inflate.c calls these; nothing else does.
 */
#ifndef INFLATE_MT_H
#define INFLATE_MT_H

#include "zpool.h"

#ifdef ZT_THREADS
#  define ZI_THREADS
#endif

/* Chunks of 2^ZI_CHUNK_BITS bytes of compressed input: each worker job
   starts at the first block it finds in one of them.  Tests build with
   small ones (-DZI_CHUNK_BITS=12) so that hand-offs happen on small
   inputs. */
#ifndef ZI_CHUNK_BITS
#  define ZI_CHUNK_BITS 20
#endif
#if ZI_CHUNK_BITS < 12 || ZI_CHUNK_BITS > 24
#  error "ZI_CHUNK_BITS must be 12..24"
#endif

/* ZLIB_TURBO_THREADS is read by the first inflate() call that holds this
   much input, at a block boundary. */
#define ZI_AUTO_MIN (1UL << 20)

typedef struct zi_mt_s zi_mt;

#ifdef ZI_THREADS

/* inflate() at a block boundary (mode TYPEDO, not after the last block,
   fewer than 8 bits held, flush neither Z_BLOCK nor Z_TREES), between RESTORE()
   and LOAD(): used is the input consumed and written the output written so
   far in this call.  Takes the blocks the workers decoded ahead that begin
   exactly here and that the call has room for, leaving the stream as
   decoding them on this thread would; posts more work. */
void ZLIB_INTERNAL inflate_mt_ahead(z_streamp strm, unsigned long used,
                                    unsigned long written);

/* At the end of an inflate() call: used bytes of input were consumed. */
void ZLIB_INTERNAL inflate_mt_leave(z_streamp strm, unsigned long used);

/* inflateSetThreads() after the stream check: threads is 0..
   ZLIB_TURBO_MAX_THREADS. */
int ZLIB_INTERNAL inflate_mt_set(z_streamp strm, int threads);

/* Join the workers and free everything (inflateEnd(), one thread again). */
void ZLIB_INTERNAL inflate_mt_free(z_streamp strm);

#endif /* ZI_THREADS */

#endif /* INFLATE_MT_H */
