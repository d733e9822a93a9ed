/* max_level_test.cpp -- catches a most level (ZLIB_TURBO_MAX_LEVEL=9) that
 * answers a call taking a level otherwise than pristine zlib 1.3.2, a bad
 * value of the variable that is obeyed, and a Z_TURBO_LEVEL(n) that does
 * not reach level n.
 *
 * The variable is read by each call given a level from 10 to 12, so it is
 * set and unset here around the calls, in-process.  The build switch
 * (./configure --max-level=9, cmake -DZLIB_TURBO_MAX_LEVEL=9) is checked
 * by make check's max-level step, which also runs CPython's test_zlib.
 */
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

#include "zt_harness.h"

using zt::REF;
using zt::TUR;

namespace {

using Bytes = std::vector<uint8_t>;

/* zturbo.h's Z_TURBO_LEVEL(n) (the tests see only zlib.h) */
int turbo_level(int n) { return 0x4000 + n; }

/* the length and CRC-32 of n bytes, as text */
std::string digest(const uint8_t *p, size_t n) {
    return std::to_string(n) + ":" +
           std::to_string(REF->crc32(0, p, (uInt)n));
}

/* ZLIB_TURBO_MAX_LEVEL set (or unset, for nullptr) while it lives */
struct EnvMaxLevel : zt::ScopedEnv {
    explicit EnvMaxLevel(const char *v) : zt::ScopedEnv("ZLIB_TURBO_MAX_LEVEL", v) {}
};

Bytes input() {
    Bytes in(30000);
    zt::Rng rng(42);
    for (auto &b : in) b = (uint8_t)("abcdef \n"[rng.next() % 8]);
    return in;
}

/* What a library answers to the calls that take a level, at `level`:
 * deflateInit2_() (zlib and gzip wrappers), deflateParams() before and
 * after data, compress2(), gzsetparams() with gzwrite() and gzclose(); each
 * return code and the bytes written, as one text. */
std::string answers(const zapi *A, int level, const std::string &gzname) {
    static const Bytes in = input();
    std::string r;
    Bytes out(2 * in.size() + 100);
    auto finish = [&](z_stream &s) {
        s.next_in = const_cast<Bytef *>(in.data());
        s.avail_in = (uInt)in.size();
        s.next_out = out.data();
        s.avail_out = (uInt)out.size();
        r += " finish " + std::to_string(A->deflate(&s, Z_FINISH));
        r += " " + digest(out.data(), out.size() - s.avail_out);
        A->deflateEnd(&s);
    };
    for (int wb : {15, 31}) {
        z_stream s;
        memset(&s, 0, sizeof s);
        int ret = ZAPI_DEFLATE_INIT2(A, &s, level, Z_DEFLATED, wb, 8, 0);
        r += "\ninit2 wb " + std::to_string(wb) + " " + std::to_string(ret);
        if (ret == Z_OK) finish(s);
    }
    for (int later : {0, 1}) {
        z_stream s;
        memset(&s, 0, sizeof s);
        r += "\nparams later " + std::to_string(later) + " " +
             std::to_string(ZAPI_DEFLATE_INIT2(A, &s, 6, Z_DEFLATED, 15, 8, 0));
        if (later) {
            s.next_in = const_cast<Bytef *>(in.data());
            s.avail_in = (uInt)in.size() / 2;
            s.next_out = out.data();
            s.avail_out = (uInt)out.size();
            r += " " + std::to_string(A->deflate(&s, Z_NO_FLUSH));
        }
        r += " " + std::to_string(A->deflateParams(&s, level, 0));
        finish(s);
    }
    uLongf n = (uLongf)out.size();
    int ret = A->compress2(out.data(), &n, in.data(), (uLong)in.size(), level);
    r += "\ncompress2 " + std::to_string(ret);
    if (ret == Z_OK) r += " " + digest(out.data(), n);
    gzFile gz = A->gzopen(gzname.c_str(), "wb");
    if (gz == nullptr) return r + "\ngzopen failed";
    r += "\ngzsetparams " + std::to_string(A->gzsetparams(gz, level, 0));
    r += " gzwrite " + std::to_string(A->gzwrite(gz, in.data(), (unsigned)in.size()));
    r += " gzclose " + std::to_string(A->gzclose(gz));
    std::ifstream f(gzname, std::ios::binary);
    Bytes file((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    r += " " + digest(file.data(), file.size());
    return r;
}

std::string gz_name() {
    return testing::TempDir() + "max_level_" +
           std::to_string((long)getpid()) + ".gz";
}

/* The most level of 9 answers every call at levels -2 to 13 as pristine
 * does; without it levels 10-12 are answered otherwise (the control). */
TEST(MaxLevel, EnvNineAnswersDiffer) {
    ZT_NEED("optimal", zt::have_optimal(), "no levels 10-12 in this library");
    std::string gz = gz_name();
    int differ = 0;
    for (int level = -2; level <= 13; level++) {
        std::string ref = answers(REF, level, gz);
        {
            EnvMaxLevel e("9");
            EXPECT_EQ(ref, answers(TUR, level, gz)) << "level " << level;
        }
        EnvMaxLevel e(nullptr);
        differ += ref != answers(TUR, level, gz);
    }
    EXPECT_EQ(differ, 3) << "without the variable, levels 10-12 (only) differ";
    remove(gz.c_str());
}

/* Only a decimal 9 to 12 sets the most level: the rest is ignored. */
TEST(MaxLevel, EnvBadValuesObeyed) {
    ZT_NEED("optimal", zt::have_optimal(), "no levels 10-12 in this library");
    auto accepts = [](int level) {
        z_stream s;
        memset(&s, 0, sizeof s);
        int ret = ZAPI_DEFLATE_INIT2(TUR, &s, level, Z_DEFLATED, 15, 8, 0);
        if (ret == Z_OK) TUR->deflateEnd(&s);
        return ret == Z_OK;
    };
    for (const char *v : {"", "8", "13", "9x", " 9", "09", "+9", "1", "0",
                          "90", "1 0", "-9", "120"}) {
        EnvMaxLevel e(v);
        for (int level = 10; level <= 12; level++)
            EXPECT_TRUE(accepts(level)) << "ZLIB_TURBO_MAX_LEVEL=\"" << v
                                        << "\" refused level " << level;
    }
    for (int most = 9; most <= 12; most++) {
        EnvMaxLevel e(std::to_string(most).c_str());
        for (int level = 9; level <= 13; level++)
            EXPECT_EQ(accepts(level), level <= most)
                << "ZLIB_TURBO_MAX_LEVEL=" << most << ", level " << level;
    }
}

/* Z_TURBO_LEVEL(n) is level n whatever the most level, in every call. */
TEST(MaxLevel, TurboLevelNotLevel) {
    ZT_NEED("optimal", zt::have_optimal(), "no levels 10-12 in this library");
    std::string gz = gz_name();
    for (int level = 0; level <= 12; level++) {
        std::string plain;
        {
            EnvMaxLevel e(nullptr);
            plain = answers(TUR, level, gz);
        }
        EnvMaxLevel e("9");
        EXPECT_EQ(plain, answers(TUR, turbo_level(level), gz))
            << "Z_TURBO_LEVEL(" << level << ")";
    }
    EnvMaxLevel e("9");
    EXPECT_NE(answers(REF, 13, gz), answers(TUR, turbo_level(12), gz));
    remove(gz.c_str());
}

}  // namespace
