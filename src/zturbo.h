/* zturbo.h -- zlib-turbo's additions to the zlib interface
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * zlib-turbo is an altered version of zlib 1.3.2: it is not the original
 * zlib by Jean-loup Gailly and Mark Adler.  It keeps zlib's interface, its
 * compressed bytes at levels 0-9 and its decompression results, and only
 * makes them faster.  zlib.h is unchanged; what zlib-turbo adds is declared
 * here, and exported under the symbol versions ZLIB_TURBO_1.0 and
 * ZLIB_TURBO_1.1 (inflateSetThreads()), so a program that uses none of it
 * runs on any zlib 1.3.2.
 *
 * Include it after zlib.h, or alone (it includes zlib.h):
 *
 *     #include <zturbo.h>
 */

#ifndef ZTURBO_H
#define ZTURBO_H

#include "zlib.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ZLIB_TURBO_VERSION "1.1.0"
#define ZLIB_TURBO_VERNUM 0x1100
#define ZLIB_TURBO_VER_MAJOR 1
#define ZLIB_TURBO_VER_MINOR 1
#define ZLIB_TURBO_VER_REVISION 0

ZEXTERN const char * ZEXPORT zlibTurboVersion(void);
/*
     Returns the version of zlib-turbo, ZLIB_TURBO_VERSION ("1.1.0"), as the
   library was built.  zlibVersion() still returns the zlib version whose
   interface and results zlib-turbo keeps ("1.3.2"), so programs that check it
   against ZLIB_VERSION keep working.  A program can tell at run time whether
   it is running on zlib-turbo by looking this symbol up (for example with
   dlsym()) before calling it.
*/


                        /* prepared dictionaries */

typedef struct z_dict_s z_dict;
/*
     A prepared deflate dictionary: a dictionary indexed once, in the form
   deflateSetDictionary() would leave it in a stream's window and hash
   tables, so that it can be given to many streams at the cost of a few
   memory copies each.  Opaque; made by deflatePrepareDictionary(), used by
   deflateUseDictionary(), freed by deflateFreeDictionary().  Once made it is
   never changed, so one object may be used by any number of streams in any
   number of threads at the same time (but must not be freed while in use).
*/

ZEXTERN int ZEXPORT deflatePrepareDictionary(z_streamp strm,
                                             const Bytef *dictionary,
                                             uInt dictLength,
                                             z_dict **dict);
/*
     Prepares dictionary[0..dictLength-1] for the streams that compress like
   strm, and stores the new object in *dict.  strm must be a deflate stream
   initialised with deflateInit() or deflateInit2() with the windowBits and
   memLevel the dictionary will be used with, typically one that is about
   to compress the first message; it is only read, never changed (its state
   may be anything deflateSetDictionary() accepts or refuses).  The level and
   strategy do not matter: in zlib 1.3.2 deflateSetDictionary() indexes a
   dictionary the same way at every level, and the object is used as it is
   with any level and strategy.  As with deflateSetDictionary(), only the
   last 2^windowBits bytes of a longer dictionary go into the window, but the
   Adler-32 of a zlib stream covers the whole dictionary.

     Memory: every block, including a temporary copy of strm's state while
   the dictionary is indexed (deflateCopy()), is allocated with strm->zalloc
   and strm->opaque (zlib's defaults if they were Z_NULL at
   deflateInit2()).  The object remembers strm->zfree and strm->opaque as
   they are now, and deflateFreeDictionary() returns its blocks to them: the
   allocator must stay usable until then.  The object holds a copy of the
   whole dictionary (dictLength bytes), the dictionary's hash chains (2 bytes
   per byte of the window's dictionary part) and its hash heads (4 bytes per
   head set, or 2 << (memLevel + 7) bytes when many are set), about 160 KiB
   for a 32 KiB dictionary of text at the default memLevel.

     Returns Z_OK on success; Z_STREAM_ERROR if dict is Z_NULL, strm is not
   a valid deflate stream, dictionary is Z_NULL, or strm writes the gzip
   wrapper (deflateSetDictionary() never accepts a dictionary there);
   Z_MEM_ERROR if memory could not be allocated.  On any error *dict is set
   to Z_NULL (when dict is not Z_NULL) and nothing stays allocated.
*/

ZEXTERN int ZEXPORT deflateUseDictionary(z_streamp strm, const z_dict *dict);
/*
     Does exactly what deflateSetDictionary(strm, dictionary, dictLength)
   would do with the dictionary that dict was prepared from, and returns what
   it would return: the same strm->adler (the Adler-32 of the dictionary for
   a zlib stream), strm->total_in, internal state and thus the same
   compressed bytes for everything that follows, and the same errors.  It is
   fast when strm is a raw or zlib stream that has just been initialised or
   reset (deflateInit2(), deflateReset()), with the windowBits and memLevel
   of the stream dict was prepared with, at any level and strategy: the
   prepared window, hash heads and hash chains are then copied into strm.
   In every other case (other windowBits or memLevel, a gzip stream, data or
   a dictionary already given, deflate() already called) it calls
   deflateSetDictionary() with the dictionary itself, so the result is still
   identical.  deflateReset() followed by deflateUseDictionary() starts the
   next message with the same dictionary.

     dict is only read: any number of streams in any number of threads may
   use one object at the same time.

     Returns Z_OK, or Z_STREAM_ERROR if dict is Z_NULL or freed (as far as
   can be detected: its memory must still be readable), or if
   deflateSetDictionary() would return it (strm not a valid deflate stream,
   a gzip stream, a zlib stream after its first deflate() call, input
   pending in the window).
*/

ZEXTERN void ZEXPORT deflateFreeDictionary(z_dict *dict);
/*
     Frees a prepared dictionary: every block goes back to the zfree
   function, with the opaque value, that the stream given to
   deflatePrepareDictionary() had.  The streams that used it are unaffected
   (they hold their own copy).  Z_NULL is ignored, and so is an object
   already freed, as far as that can be detected (its memory must still be
   readable: the free marks the object dead before returning it).
*/


                        /* threaded deflate */

#define ZLIB_TURBO_MAX_THREADS 256

ZEXTERN int ZEXPORT deflateSetThreads(z_streamp strm, int threads);
/*
     Lets deflate() on strm use up to threads threads, the calling one
   included, and still write exactly the bytes zlib 1.3.2 writes on one: the
   same compressed data, return codes, next_in/avail_in/total_in,
   next_out/avail_out/total_out, adler and deflatePending() after every
   call.  0 or 1 means one thread (the default); the most is
   ZLIB_TURBO_MAX_THREADS.  Threads are used at levels 10 to 12 (below), and
   at levels 4 to 9 with windowBits 10 to 15 (not 8 and 9) and the
   Z_DEFAULT_STRATEGY, Z_FILTERED and Z_FIXED strategies, when a deflate()
   call is given at least 64 KiB of input at levels 8 and 9, 128 KiB at 6
   and 7, 256 KiB at 4 and 5 (its input and what is left of earlier calls'
   input in the window); every other call, and the last bytes before a
   flush, run on the calling thread as in zlib.

     It may be called after deflateInit*() and between any two deflate()
   calls, also after deflateReset() (which keeps the threads),
   deflateParams() and deflateSetDictionary().  deflateCopy() gives the copy
   one thread (call deflateSetThreads() on it for more).  deflateEnd(), and
   deflateSetThreads(strm, 1), stop and join the threads; no thread outlives
   the stream.

     Memory: every block is allocated with strm->zalloc on the calling
   thread, a few small ones in this call and the rest in the first deflate()
   call that uses the threads; the threads never allocate, so zalloc need not
   be thread-safe.  About 3 MiB per thread with the default windowBits and
   memLevel (two job slots of 1.3 MiB each, and a window and hash tables).
   The threads are started in that deflate() call too.  If that memory
   cannot be allocated, or a thread cannot be started, compression goes on
   with fewer threads (the same bytes): deflate() never fails because of
   threads.

     Input: while deflate() has returned, the threads may go on reading their
   own copies of input that zlib has not consumed yet (next_in ..
   next_in + avail_in).  The caller may move that input or give it again
   from another buffer.  If it gives other bytes there instead, deflate()
   sees the difference when it reads them, drops the work done ahead and
   compresses the bytes actually given: the output is still zlib's for
   them.

     Returns Z_OK; Z_STREAM_ERROR if strm is not a valid deflate stream or
   threads is below 0 or above ZLIB_TURBO_MAX_THREADS, or above 1 in a
   library built without threads (./configure --no-threads, cmake
   -DZLIB_TURBO_THREADS=OFF); Z_MEM_ERROR if memory could not be allocated
   (then the stream is left with one thread, and usable).

     Programs that do not call deflateSetThreads(): the environment
   variable ZLIB_TURBO_THREADS=n (a decimal number; above
   ZLIB_TURBO_MAX_THREADS it is taken as that; 0, 1 or anything else: one
   thread) gives every deflate stream of the process up to n threads, as if
   deflateSetThreads(strm, n) had been called, with the same bytes.  A
   stream reads it once, in the first deflate() call after which it has
   taken 1 MiB of input (total_in plus avail_in) at levels 4 to 12 (not with
   Z_HUFFMAN_ONLY or Z_RLE below 10): until then it allocates and starts
   nothing more than without it, so programs with many small streams are
   unaffected, and the thresholds above still decide which calls use the
   threads.  It is not read once the program has set a count itself
   (deflateSetThreads() with any count, 0 and 1 included, wins), nor by a
   copy made by deflateCopy() of a stream that has read it or been given a
   count, nor in a set-user-ID or set-group-ID program.  Memory as above; if it cannot be
   had, the stream simply stays on one thread.

     fork(): the child process has only the thread that called fork().  A
   stream it inherits with worker threads goes on in the child on the
   calling thread alone, with the same bytes (work that a worker had not
   finished is done again), and deflateEnd() ends it normally; the stream
   starts no threads in the child.  And in a child of a process where
   zlib-turbo had started threads, ZLIB_TURBO_THREADS starts none (such a
   child should only call async-signal-safe functions until it calls
   exec(); a program that calls deflateSetThreads() there takes that on
   itself).  The parent is unaffected.
*/


                        /* threaded inflate */

ZEXTERN int ZEXPORT inflateSetThreads(z_streamp strm, int threads);
/*
     Lets inflate() on strm use up to threads threads, the calling one
   included, with exactly the results of one thread (so of zlib 1.3.2):
   after every call the same output bytes, return code, msg, next_in/
   avail_in/total_in, next_out/avail_out/total_out, adler, data_type,
   inflateGetDictionary() and inflateMark(), for valid and damaged streams,
   every flush value and every slicing of input and output.  0 or 1 means
   one thread (the default); the most is ZLIB_TURBO_MAX_THREADS.  Exported
   under the symbol version ZLIB_TURBO_1.1.

     The workers decode ahead, in the input a call holds, from block starts
   they find on their own; the calling thread takes their blocks only where
   one begins exactly where it stands and the call has room for it, and
   decodes everything else itself.  So threads help a call given a few MiB
   of compressed input beyond where it stands (chunks of 1 MiB, from the
   second one ahead on) and room for the blocks' output, and never a call
   with flush Z_BLOCK or Z_TREES; a stream without dynamic blocks (all stored or fixed), or one
   huge block, is decoded by the calling thread alone.  A gzip or zlib
   stream is decoded in parallel up to its end; the next member of a
   multi-member gzip file starts its own stream in most readers.

     It may be called after inflateInit*() and between any two inflate()
   calls.  inflateReset*() keeps the threads and inflateSetDictionary() and
   inflatePrime() work as always; inflateCopy() gives the copy one thread;
   inflateEnd(), and inflateSetThreads(strm, 1), join the threads: no
   thread outlives the stream.  inflateBack() streams are refused.

     Memory: allocated with strm->zalloc on the calling thread, in the
   first inflate() call that uses the threads; the threads never allocate.
   About 5.7 MiB per job slot, two slots per thread (the chunk's input and
   half a chunk more, 1.5 MiB; a 4 MiB output arena; a 64 KiB map; a raw
   inflate stream and its window).
   The threads read only their own copies of the input: the program may
   free or reuse its input and output buffers whenever inflate() has
   returned.  Without that memory, or a thread, decoding goes on with fewer
   threads and the same results.

     Returns Z_OK; Z_STREAM_ERROR if strm is not a valid inflate stream (or
   is an inflateBack() one) or threads is below 0 or above
   ZLIB_TURBO_MAX_THREADS, or above 1 in a library built without threads;
   Z_MEM_ERROR if memory could not be allocated (then the stream is left
   with one thread, and usable).

     ZLIB_TURBO_THREADS=n (see deflateSetThreads()) gives inflate streams
   up to n threads too: a stream reads it once, in the first inflate() call
   that holds 1 MiB of input at a block boundary, unless the program has set
   a count itself; not in a set-user-ID or set-group-ID program, nor in a
   child of a process where zlib-turbo started threads.  fork(): as for
   deflate, the child goes on with the calling thread alone and the same
   results.
*/


                        /* levels 10 to 12: optimal parsing */

#define Z_TURBO_OPTIMAL_FAST 10
#define Z_TURBO_OPTIMAL      11
#define Z_TURBO_OPTIMAL_BEST 12
#define Z_TURBO_LEVEL(n) (0x4000 + (n))
/*
     Levels 10, 11 and 12 may be given wherever zlib takes a level:
   deflateInit(), deflateInit2() (every wrapper, windowBits 9..15, memLevel
   1..9), compress2(), deflateParams(), gzsetparams().  They are another
   compressor: an optimal parse (every match at each position, found in
   binary trees, then the cheapest parse under exact bit prices, repeated
   with the prices of each block's own Huffman codes), block boundaries
   chosen by dynamic programming, and each block written as the smallest of
   dynamic, fixed and stored.  Their output is valid deflate that any
   inflater reads, smaller than level 9's, but not zlib 1.3.2's bytes (zlib
   has no such levels).  Level 10 is the fastest, 12 the smallest;
   Z_BEST_COMPRESSION stays 9 and levels 0-9 are unchanged.  Levels above 12
   are refused (Z_STREAM_ERROR), as zlib refuses 10.

     Determinism: the output depends only on the input, the parameters
   (level, strategy, wrapper, windowBits, dictionary, deflateParams()
   calls) and the flush points (the input position of each flush other
   than Z_NO_FLUSH), not on how the input and output are sliced into
   deflate() calls, nor on the thread count (deflateSetThreads()), the
   machine, its word size or byte order.  Every price is an integer.
   memLevel is accepted and does not change the output.  As with zlib,
   repeating a flush that already completed (a call that ended with
   avail_out == 0 exactly at its end, called again) adds one more empty
   block.

     The input is compressed in segments of 256 KiB counted from the start
   of the stream or the last flush; each sees the 2^windowBits bytes before
   it (never a distance beyond the window declared).  A segment of 64 KiB or
   more is searched and parsed as two parts, cut a little past its middle
   at a place that depends only on its length and the window before it:
   no match crosses the cut.  deflate() keeps up to
   256 KiB of input (more with threads, below) until a segment is complete
   or a flush comes: Z_SYNC_FLUSH and Z_FULL_FLUSH still make everything given so far
   decompressible from the output so far, Z_FULL_FLUSH also forgets the
   window, and Z_FINISH, Z_BLOCK and Z_PARTIAL_FLUSH have zlib's meaning.
   deflatePending() counts the output not yet copied out.
   deflateSetDictionary() and prepared dictionaries (above) work as at
   other levels: matches may reach into the dictionary.  deflateBound() is
   a true bound for these levels too.

     deflateParams() may move among 10, 11 and 12 at any time (as at other
   levels, it first compresses what was given so far with Z_BLOCK).  Moving
   between 0-9 and 10-12 is allowed only before the first deflate() call
   after deflateInit*() or deflateReset(); afterwards it returns
   Z_STREAM_ERROR and changes nothing (the stream goes on at its level).

     Strategies: Z_DEFAULT_STRATEGY and Z_FILTERED (the same: the optimal
   parse already weighs literals against short matches by their exact
   cost); Z_HUFFMAN_ONLY: literals only, with the block boundaries and
   codes chosen as above; Z_RLE: matches at distance 1 only, parsed
   optimally; Z_FIXED: fixed codes only (or stored blocks where smaller),
   the parse priced with the fixed codes.

     Threads: deflateSetThreads(strm, n) (or ZLIB_TURBO_THREADS=n, above)
   lets n segments be compressed at once, and a thread with no segment left
   take the second part of another's, when a deflate() call has 64 KiB or
   more of input to work on (its own and what earlier calls left); the
   bytes are the same for every n.  A thread with nothing to do reads a
   counter, yielding its CPU between reads, for about a millisecond before
   it sleeps (waking a sleeping thread takes longer than most waits here).

     Memory, all from zalloc: 13.0 MiB per stream at every level 10-12
   (binary trees and match lists, parse arrays and plans for one 256 KiB
   segment, input and output buffers), allocated by deflateInit2() (or by
   deflateParams() moving to these levels; Z_MEM_ERROR if it cannot be
   had).  With n threads, about 17 MiB per thread instead, allocated by the
   first deflate() call that can use them (each thread compresses segments
   three at a time in turn, so up to 768 KiB of input per thread is held);
   but when that call is deflate(Z_FINISH) with at most one segment to
   compress in all (compress2() of 64 to 256 KiB, say), only one other
   thread can help, and it takes 2.4 MiB (15.4 MiB in all, and one thread
   started, for any n of 2 or more).  Without that memory, fewer threads
   and the same bytes.  Levels 10-12 are
   not available in a library built with FASTEST or without a 64-bit
   integer type; there they are refused.

     zlib's level check: a library built with ./configure --max-level=9
   (cmake -DZLIB_TURBO_MAX_LEVEL=9), or run with the environment variable
   ZLIB_TURBO_MAX_LEVEL=9, refuses levels above 9 in deflateInit(),
   deflateInit2(), deflateParams(), compress2() and gzsetparams() exactly as
   zlib 1.3.2 does, for programs (and test suites) that rely on zlib
   refusing level 10.  The variable, a decimal number from 9 to 12, replaces
   the built-in most (12 unless built otherwise) in either direction; any
   other value is ignored, as it is in a set-user-ID or set-group-ID
   program.  It is read by each call given a level above 9, never by the
   others.  A program that includes zturbo.h reaches levels 10-12 whatever
   the most: Z_TURBO_LEVEL(n), for n from 0 to 12, means level n in every
   call that takes a level (the zturbo command asks that way), and
   Z_TURBO_LEVEL(Z_TURBO_OPTIMAL) is level 11.
*/

#ifdef __cplusplus
}
#endif

#endif /* ZTURBO_H */
