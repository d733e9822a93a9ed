/* deflate_identity_test.cpp -- catches a deflate that does not produce, call
 * for call, exactly what pristine zlib 1.3.2 produces: different compressed
 * bytes (match finding, lazy evaluation, block splitting, Huffman trees, bit
 * packing), different amounts consumed or written per call, different return
 * codes, checksums, messages, pending/used bits, bounds.  Covers levels 0-9,
 * all strategies, windowBits 8-15 with raw/zlib/gzip wrappers, memLevel 1-9,
 * any slicing of input and output, every flush mode, and the stream
 * functions around deflate() (Params, Copy, Prime, dictionaries, Reset,
 * SetHeader, Tune, Bound, Pending, Used), plus compress2/compressBound. */
#include <vector>

#include "zt_harness.h"

namespace {

/* Runs one scenario in lockstep and reports with everything needed to
 * repeat it. */
bool run_case(const char *test, const std::string &data_name,
              const std::vector<uint8_t> &data, const zt::DeflateScenario &sc,
              uint64_t seed) {
    zt::Ctx ctx;
    ctx.test = test;
    ctx.data = data_name + " (" + std::to_string(data.size()) + " bytes)";
    ctx.params = sc.p.str() + " in=" + zt::slice_name(sc.in_slice) +
                 " out=" + zt::slice_name(sc.out_slice) +
                 " flush%=" + std::to_string(sc.flush_pct) +
                 " params%=" + std::to_string(sc.params_pct) +
                 " copy%=" + std::to_string(sc.copy_pct) +
                 " tune=" + std::to_string(sc.tune) + " prime=" + std::to_string(sc.prime) +
                 " dict=" + std::to_string(sc.dict) + " gzheader=" + std::to_string(sc.gzheader) +
                 " resets=" + std::to_string(sc.resets);
    ctx.seed = seed;
    zt::Rng rng(seed);
    return zt::deflate_lockstep(ctx, sc, data, rng);
}

/* Whole files (capped) at every level: the bulk of real-world output.
 * Text longer than 4 KiB at levels 4-9 exercises the lazy matcher and the
 * TOO_FAR rule (the harness self-test relies on this test). */
TEST(DeflateIdentity, FilesAllLevels) {
    const auto &files = zt::file_samples();
    for (size_t f = 0; f < files.size() && !zt::too_many_failures(); f++) {
        for (int level = 0; level <= 9 && !zt::too_many_failures(); level++) {
            uint64_t seed = zt::case_seed("files-all-levels", f * 10 + (size_t)level);
            zt::Rng rng(seed);
            zt::DeflateScenario sc;
            sc.p.level = level;
            sc.in_slice = rng.chance(50) ? zt::SLICE_LARGE : zt::SLICE_MEDIUM;
            sc.out_slice = rng.chance(50) ? zt::SLICE_LARGE : zt::SLICE_MEDIUM;
            run_case("DeflateIdentity.FilesAllLevels", files[f].name, files[f].bytes, sc, seed);
        }
    }
}

/* Every level x strategy x wrapper x windowBits, memLevel at random, on
 * generated data and file pieces. */
TEST(DeflateIdentity, ParameterMatrix) {
    const size_t maxlen = (size_t)zt::by_mode(24 << 10, 160 << 10);
    uint64_t n = 0;
    for (int level = 0; level <= 9; level++)
        for (int strategy = 0; strategy <= 4; strategy++)
            for (int wrap = 0; wrap < 3; wrap++)
                for (int w = 8; w <= 15 && !zt::too_many_failures(); w++) {
                    uint64_t seed = zt::case_seed("parameter-matrix", n++);
                    zt::Rng rng(seed);
                    zt::DeflateScenario sc;
                    sc.p.level = level;
                    sc.p.strategy = strategy;
                    sc.p.windowBits = wrap == 0 ? -w : wrap == 1 ? w : w + 16;
                    sc.p.memLevel = (int)rng.range(1, 9);
                    sc.in_slice = (int)rng.below(zt::SLICE_MODES);
                    sc.out_slice = (int)rng.below(zt::SLICE_MODES);
                    if (sc.in_slice == zt::SLICE_TINY || sc.out_slice == zt::SLICE_TINY)
                        sc.in_slice = zt::SLICE_SMALL;   /* keep the run short */
                    sc.flush_pct = rng.chance(30) ? 2 : 0;
                    zt::Sample s = zt::any_sample(rng, maxlen);
                    run_case("DeflateIdentity.ParameterMatrix", s.name, s.bytes, sc, seed);
                }
}

/* Input and output sliced down to 1 byte, flushes of every kind at random
 * points, sometimes no output space at all. */
TEST(DeflateIdentity, SlicedWithFlushes) {
    long cases = zt::by_mode(1000, 10000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        uint64_t seed = zt::case_seed("sliced-flushes", (uint64_t)i);
        zt::Rng rng(seed);
        zt::DeflateScenario sc;
        sc.p = zt::random_params(rng);
        sc.in_slice = (int)rng.below(zt::SLICE_MODES);
        sc.out_slice = (int)rng.below(zt::SLICE_MODES);
        sc.flush_pct = (int)rng.pick(std::vector<int>{0, 1, 5, 20, 60});
        sc.zero_out_pct = rng.chance(20) ? 5 : 0;
        bool tiny = sc.in_slice == zt::SLICE_TINY || sc.out_slice == zt::SLICE_TINY;
        zt::Sample s = zt::any_sample(rng, tiny ? 6000 : 40000);
        run_case("DeflateIdentity.SlicedWithFlushes", s.name, s.bytes, sc, seed);
    }
}

/* deflateParams() mid-stream: level and strategy switched back and forth. */
TEST(DeflateIdentity, ParamsSwitching) {
    long cases = zt::by_mode(400, 6000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        uint64_t seed = zt::case_seed("params-switching", (uint64_t)i);
        zt::Rng rng(seed);
        zt::DeflateScenario sc;
        sc.p = zt::random_params(rng);
        sc.in_slice = rng.chance(50) ? zt::SLICE_MEDIUM : zt::SLICE_MIXED;
        sc.out_slice = (int)rng.below(zt::SLICE_MODES);
        if (sc.out_slice == zt::SLICE_TINY) sc.out_slice = zt::SLICE_SMALL;
        sc.params_pct = (int)rng.pick(std::vector<int>{2, 10, 40});
        sc.flush_pct = rng.chance(30) ? 5 : 0;
        zt::Sample s = zt::any_sample(rng, 60000);
        run_case("DeflateIdentity.ParamsSwitching", s.name, s.bytes, sc, seed);
    }
}

/* The stream functions around deflate(): Copy (continue on the copy),
 * SetDictionary/GetDictionary, Prime, SetHeader (gzip), Tune, Reset. */
TEST(DeflateIdentity, StreamFunctions) {
    long cases = zt::by_mode(1000, 10000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        uint64_t seed = zt::case_seed("stream-functions", (uint64_t)i);
        zt::Rng rng(seed);
        zt::DeflateScenario sc;
        sc.p = zt::random_params(rng);
        sc.in_slice = (int)rng.below(zt::SLICE_MODES);
        if (sc.in_slice == zt::SLICE_TINY) sc.in_slice = zt::SLICE_SMALL;
        sc.out_slice = (int)rng.below(zt::SLICE_MODES);
        sc.copy_pct = rng.chance(50) ? (int)rng.range(1, 10) : 0;
        sc.tune = rng.chance(25);
        sc.prime = rng.chance(30);
        sc.dict = rng.chance(40) ? (int)rng.pick(std::vector<int>{1, 10, 300, 5000, 32768, 40000}) : 0;
        sc.gzheader = sc.p.windowBits > 15 ? rng.chance(70) : rng.chance(5);
        sc.resets = rng.chance(30) ? (int)rng.range(1, 2) : 0;
        sc.flush_pct = rng.chance(30) ? 5 : 0;
        zt::Sample s = zt::any_sample(rng, 30000);
        run_case("DeflateIdentity.StreamFunctions", s.name, s.bytes, sc, seed);
    }
}

/* Empty and very short inputs, every level/strategy/wrapper, with flushes. */
TEST(DeflateIdentity, ShortInputs) {
    uint64_t n = 0;
    for (size_t len = 0; len <= 40; len++)
        for (int level = 0; level <= 9; level++)
            for (int strategy = 0; strategy <= 4 && !zt::too_many_failures(); strategy++) {
                uint64_t seed = zt::case_seed("short-inputs", n++);
                zt::Rng rng(seed);
                zt::DeflateScenario sc;
                sc.p.level = level;
                sc.p.strategy = strategy;
                int wrap = (int)rng.below(3), w = (int)rng.range(9, 15);
                sc.p.windowBits = wrap == 0 ? -w : wrap == 1 ? w : w + 16;
                sc.p.memLevel = (int)rng.range(1, 9);
                sc.in_slice = (int)rng.below(zt::SLICE_MODES);
                sc.out_slice = (int)rng.below(zt::SLICE_MODES);
                sc.flush_pct = (int)rng.pick(std::vector<int>{0, 30, 100});
                sc.prime = rng.chance(10);
                std::vector<uint8_t> data = zt::generate(rng, (int)rng.below(zt::GEN_KINDS), len);
                run_case("DeflateIdentity.ShortInputs", std::string("short:") + std::to_string(len),
                         data, sc, seed);
            }
}

/* compress2() and compressBound(): same bytes, same lengths, same codes,
 * also when the destination is too small. */
TEST(DeflateIdentity, OneShotCompress2) {
    long cases = zt::by_mode(300, 3000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        uint64_t seed = zt::case_seed("compress2", (uint64_t)i);
        zt::Rng rng(seed);
        zt::Sample s = zt::any_sample(rng, 100000);
        int level = (int)rng.range(0, 10) - 1;
        uLong bound = zt::REF->compressBound(s.bytes.size());
        ASSERT_EQ(bound, zt::TUR->compressBound(s.bytes.size())) << s.name;
        uLong cap = rng.chance(80) ? bound : rng.range(0, bound);
        std::vector<uint8_t> o[2];
        uLongf ol[2];
        int rc[2];
        for (int k = 0; k < 2; k++) {
            const zapi *A = k ? zt::TUR : zt::REF;
            o[k].assign(cap + 1, 0);
            ol[k] = cap;
            rc[k] = A->compress2(o[k].data(), &ol[k], s.bytes.data(), s.bytes.size(), level);
        }
        EXPECT_TRUE(rc[0] == rc[1] && ol[0] == ol[1] && o[0] == o[1])
            << "compress2 " << s.name << " level=" << level << " cap=" << cap
            << " seed=0x" << std::hex << seed << std::dec << ": rc ref=" << rc[0]
            << " tur=" << rc[1] << " len ref=" << ol[0] << " tur=" << ol[1];
    }
}

}  /* namespace */
