/* identity_test.cpp -- catches a zlib-turbo that no longer says what it is
 * (identity.patch, src/zturbo.c): a zlibVersion(), a zlibCompileFlags() or
 * a version check of the init functions that differ from pristine zlib
 * 1.3.2's (the drop-in promise: a program built for zlib 1.3.2 asks these
 * and must get zlib's answers), and a zlibTurboVersion() that is missing,
 * answers zlib's version string instead of zlib-turbo's own, or is not of
 * the form N.N.N.
 *
 * zlibCompileFlags() is compared as it is: both libraries are built alike
 * by the suite (pair.sh), where they must agree bit for bit; a run that
 * builds one side with other defines (selftest.sh's PKZIP_BUG_WORKAROUND)
 * does not run these tests.
 */
#include <cctype>
#include <cstring>
#include <string>

#include "zt_harness.h"

using zt::REF;
using zt::TUR;

namespace {

/* whether v is N.N.N: three decimal numbers, no sign, no other character */
bool three_numbers(const char *v) {
    int parts = 0;
    const char *p = v;
    for (;;) {
        if (!isdigit((unsigned char)*p)) return false;
        while (isdigit((unsigned char)*p)) p++;
        parts++;
        if (*p == 0) return parts == 3;
        if (*p != '.' || parts == 3) return false;
        p++;
    }
}

/* The version and the build facts a program reads are pristine's: the
 * string "1.3.2" (zlib.h's ZLIB_VERSION, which programs compare with
 * zlibVersion() at run time) and the same zlibCompileFlags() bits (sizes
 * of uInt, uLong, pointers and z_off_t, and the build's options). */
TEST(Identity, ZlibVersionOrFlagsDiffer) {
    ASSERT_NE(REF->zlibVersion(), nullptr);
    ASSERT_NE(TUR->zlibVersion(), nullptr);
    EXPECT_STREQ(REF->zlibVersion(), ZLIB_VERSION)
        << "the reference is not the zlib of the headers (ZINC)";
    EXPECT_STREQ(TUR->zlibVersion(), REF->zlibVersion())
        << "zlibVersion() is not pristine's: programs built for zlib "
        << ZLIB_VERSION << " see another library";
    EXPECT_STREQ(TUR->zlibVersion(), "1.3.2");
    EXPECT_EQ(TUR->zlibCompileFlags(), REF->zlibCompileFlags())
        << std::hex << "zlibCompileFlags(): pristine 0x"
        << REF->zlibCompileFlags() << ", turbo 0x"
        << TUR->zlibCompileFlags();
}

/* The init functions check the caller's version and z_stream size as
 * pristine does (a first digit that differs, a null version, a wrong
 * size: Z_VERSION_ERROR), and zError() has pristine's texts. */
TEST(Identity, VersionCheckOrErrorTextsDiffer) {
    struct Case {
        const char *version;
        int size;
    };
    const Case cases[] = {
        {ZLIB_VERSION, (int)sizeof(z_stream)},
        {"1.3.1", (int)sizeof(z_stream)},
        {"1.0", (int)sizeof(z_stream)},
        {"2.0.0", (int)sizeof(z_stream)},
        {"", (int)sizeof(z_stream)},
        {nullptr, (int)sizeof(z_stream)},
        {ZLIB_VERSION, (int)sizeof(z_stream) - 8},
        {ZLIB_VERSION, (int)sizeof(z_stream) + 8},
    };
    for (const Case &c : cases) {
        std::string what = std::string("version ") +
                           (c.version ? "\"" + std::string(c.version) + "\""
                                      : std::string("null")) +
                           ", size " + std::to_string(c.size);
        int r[2], i[2];
        const zapi *libs[2] = {REF, TUR};
        for (int k = 0; k < 2; k++) {
            z_stream s;
            memset(&s, 0, sizeof s);
            r[k] = libs[k]->deflateInit_(&s, 6, c.version, c.size);
            if (r[k] == Z_OK) libs[k]->deflateEnd(&s);
            memset(&s, 0, sizeof s);
            i[k] = libs[k]->inflateInit_(&s, c.version, c.size);
            if (i[k] == Z_OK) libs[k]->inflateEnd(&s);
        }
        EXPECT_EQ(r[0], r[1]) << "deflateInit_(), " << what;
        EXPECT_EQ(i[0], i[1]) << "inflateInit_(), " << what;
    }
    for (int err = 3; err >= -7; err--)   /* 1.3.2: "" outside 2..-6 */
        EXPECT_STREQ(REF->zError(err), TUR->zError(err)) << "zError(" << err
                                                         << ")";
}

/* zlib-turbo names itself only with zlibTurboVersion() (zturbo.h), which
 * exists, answers its own version of the form N.N.N (ZLIB_TURBO_VERSION),
 * the same string each time, and not zlib's "1.3.2": a program that asks
 * which zlib it runs on must be able to tell. */
TEST(Identity, TurboVersionMissingOrZlibs) {
    ZT_NEED("identity", TUR->zlibTurboVersion != nullptr,
            "no zlibTurboVersion() in this library (pristine zlib)");
    EXPECT_EQ(REF->zlibTurboVersion, nullptr)
        << "the reference has zlibTurboVersion(): it is not pristine zlib";
    const char *v = TUR->zlibTurboVersion();
    ASSERT_NE(v, nullptr) << "zlibTurboVersion() returned a null pointer";
    EXPECT_STRNE(v, TUR->zlibVersion())
        << "zlibTurboVersion() answers zlib's version, not zlib-turbo's";
    EXPECT_STRNE(v, ZLIB_VERSION)
        << "zlibTurboVersion() answers zlib's version, not zlib-turbo's";
    EXPECT_TRUE(three_numbers(v))
        << "zlibTurboVersion() is \"" << v << "\", not of the form N.N.N";
    EXPECT_STREQ(TUR->zlibTurboVersion(), v) << "a second call differs";
}

}  // namespace
