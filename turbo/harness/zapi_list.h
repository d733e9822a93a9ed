/* zapi_list.h -- the zlib functions the differential harness calls, as an
 * X-macro list: ZFN(return type, name, (parameter list)).
 *
 * The harness links two zlib libraries into one program, each renamed with
 * its own prefix (see mkzobj.sh), and reaches each through a table of
 * function pointers built from this list (zapi.h).  Add a function here and
 * both tables, and every program using them, get it.  Functions that only
 * zlib-turbo has (zturbo.h) are not listed: they are looked up separately.
 */
ZFN(const char *, zlibVersion, (void))
ZFN(uLong, zlibCompileFlags, (void))
ZFN(const char *, zError, (int err))

ZFN(int, deflateInit_, (z_streamp strm, int level, const char *version,
                        int stream_size))
ZFN(int, deflateInit2_, (z_streamp strm, int level, int method,
                         int windowBits, int memLevel, int strategy,
                         const char *version, int stream_size))
ZFN(int, deflate, (z_streamp strm, int flush))
ZFN(int, deflateEnd, (z_streamp strm))
ZFN(int, deflateSetDictionary, (z_streamp strm, const Bytef *dictionary,
                                uInt dictLength))
ZFN(int, deflateGetDictionary, (z_streamp strm, Bytef *dictionary,
                                uInt *dictLength))
ZFN(int, deflateCopy, (z_streamp dest, z_streamp source))
ZFN(int, deflateReset, (z_streamp strm))
ZFN(int, deflateResetKeep, (z_streamp strm))
ZFN(int, deflateParams, (z_streamp strm, int level, int strategy))
ZFN(int, deflateTune, (z_streamp strm, int good_length, int max_lazy,
                       int nice_length, int max_chain))
ZFN(uLong, deflateBound, (z_streamp strm, uLong sourceLen))
ZFN(z_size_t, deflateBound_z, (z_streamp strm, z_size_t sourceLen))
ZFN(int, deflatePending, (z_streamp strm, unsigned *pending, int *bits))
ZFN(int, deflateUsed, (z_streamp strm, int *bits))
ZFN(int, deflatePrime, (z_streamp strm, int bits, int value))
ZFN(int, deflateSetHeader, (z_streamp strm, gz_headerp head))

ZFN(int, inflateInit_, (z_streamp strm, const char *version, int stream_size))
ZFN(int, inflateInit2_, (z_streamp strm, int windowBits, const char *version,
                         int stream_size))
ZFN(int, inflate, (z_streamp strm, int flush))
ZFN(int, inflateEnd, (z_streamp strm))
ZFN(int, inflateSetDictionary, (z_streamp strm, const Bytef *dictionary,
                                uInt dictLength))
ZFN(int, inflateGetDictionary, (z_streamp strm, Bytef *dictionary,
                                uInt *dictLength))
ZFN(int, inflateSync, (z_streamp strm))
ZFN(int, inflateSyncPoint, (z_streamp strm))
ZFN(int, inflateCopy, (z_streamp dest, z_streamp source))
ZFN(int, inflateReset, (z_streamp strm))
ZFN(int, inflateResetKeep, (z_streamp strm))
ZFN(int, inflateReset2, (z_streamp strm, int windowBits))
ZFN(int, inflatePrime, (z_streamp strm, int bits, int value))
ZFN(long, inflateMark, (z_streamp strm))
ZFN(int, inflateGetHeader, (z_streamp strm, gz_headerp head))
ZFN(int, inflateValidate, (z_streamp strm, int check))
ZFN(unsigned long, inflateCodesUsed, (z_streamp strm))
ZFN(int, inflateUndermine, (z_streamp strm, int subvert))
ZFN(int, inflateBackInit_, (z_streamp strm, int windowBits,
                            unsigned char FAR *window, const char *version,
                            int stream_size))
ZFN(int, inflateBack, (z_streamp strm, in_func in, void FAR *in_desc,
                       out_func out, void FAR *out_desc))
ZFN(int, inflateBackEnd, (z_streamp strm))

ZFN(int, compress2, (Bytef *dest, uLongf *destLen, const Bytef *source,
                     uLong sourceLen, int level))
ZFN(uLong, compressBound, (uLong sourceLen))
ZFN(int, uncompress2, (Bytef *dest, uLongf *destLen, const Bytef *source,
                       uLong *sourceLen))

ZFN(uLong, adler32, (uLong adler, const Bytef *buf, uInt len))
ZFN(uLong, adler32_z, (uLong adler, const Bytef *buf, z_size_t len))
ZFN(uLong, adler32_combine, (uLong adler1, uLong adler2, z_off_t len2))
ZFN(uLong, crc32, (uLong crc, const Bytef *buf, uInt len))
ZFN(uLong, crc32_z, (uLong crc, const Bytef *buf, z_size_t len))
ZFN(uLong, crc32_combine, (uLong crc1, uLong crc2, z_off_t len2))
ZFN(uLong, crc32_combine_gen, (z_off_t len2))
ZFN(uLong, crc32_combine_op, (uLong crc1, uLong crc2, uLong op))
ZFN(const z_crc_t FAR *, get_crc_table, (void))

ZFN(gzFile, gzopen, (const char *path, const char *mode))
ZFN(gzFile, gzdopen, (int fd, const char *mode))
ZFN(int, gzbuffer, (gzFile file, unsigned size))
ZFN(int, gzsetparams, (gzFile file, int level, int strategy))
ZFN(int, gzread, (gzFile file, voidp buf, unsigned len))
ZFN(int, gzwrite, (gzFile file, voidpc buf, unsigned len))
ZFN(int, gzflush, (gzFile file, int flush))
ZFN(z_off_t, gzseek, (gzFile file, z_off_t offset, int whence))
ZFN(int, gzclose, (gzFile file))
ZFN(const char *, gzerror, (gzFile file, int *errnum))
ZFN(int, gzputc, (gzFile file, int c))
ZFN(int, gzputs, (gzFile file, const char *s))
ZFN(int, gzprintf, (gzFile file, const char *format, ...))
ZFN(z_size_t, gzfwrite, (voidpc buf, z_size_t size, z_size_t nitems,
                         gzFile file))
ZFN(int, gzclose_w, (gzFile file))
