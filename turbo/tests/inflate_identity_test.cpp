/* inflate_identity_test.cpp -- catches an inflate or inflateBack that does
 * not behave, call for call, like pristine zlib 1.3.2 on valid streams: wrong
 * output, or the same output delivered in different amounts, different
 * return codes at block boundaries (Z_BLOCK, Z_TREES), different counters,
 * adler, data_type, inflateMark(), messages; gzip header fields; dictionary
 * handling; inflateSync; inflateCopy, inflateReset2, inflatePrime,
 * inflateValidate; windowBits auto-detection; multi-member gzip; and
 * uncompress2.  Streams come from pristine deflate with varied parameters. */
#include <vector>

#include "zt_harness.h"

namespace {

struct Case {
    zt::Ctx ctx;
    zt::InflateScenario sc;
    std::vector<uint8_t> stream, original;
    uint64_t seed;
};

/* A random valid stream of random data plus the inflate settings to read
 * it (slicing, flush mix, copies). */
Case make_case(const char *test, uint64_t idx, size_t maxlen) {
    Case c;
    c.seed = zt::case_seed(test, idx);
    zt::Rng rng(c.seed);
    zt::Sample s = zt::any_sample(rng, maxlen);
    zt::DefParams p = zt::random_params(rng);
    int every = rng.chance(30) ? (int)rng.range(1, 5000) : 0;
    static const int flushes[] = {Z_PARTIAL_FLUSH, Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_BLOCK};
    int flush = flushes[rng.below(4)];
    c.original = s.bytes;
    c.stream = zt::ref_deflate(p, s.bytes.data(), s.bytes.size(), every, flush);
    int w = p.windowBits < 0 ? -p.windowBits : p.windowBits & 15;
    if (w == 8) w = 9;
    int rw = rng.chance(30) ? 15 : w;   /* reading with a larger window is fine */
    c.sc.windowBits = p.windowBits < 0 ? -rw : p.windowBits > 15 ? rw + 16 : rw;
    if (p.windowBits >= 0 && rng.chance(25)) c.sc.windowBits = rw + 32;   /* auto-detect */
    if (p.windowBits >= 0 && p.windowBits <= 15 && rng.chance(5))
        c.sc.windowBits = 0;    /* zlib: window size from the header */
    c.sc.in_slice = (int)rng.below(zt::SLICE_MODES);
    c.sc.out_slice = (int)rng.below(zt::SLICE_MODES);
    if (c.sc.in_slice == zt::SLICE_TINY && c.sc.out_slice == zt::SLICE_TINY)
        c.sc.out_slice = zt::SLICE_SMALL;
    c.sc.flush_mix = (int)rng.below(zt::FLUSH_MIXES);
    c.sc.copy_pct = rng.chance(20) ? (int)rng.range(1, 10) : 0;
    c.sc.zero_in_pct = rng.chance(10) ? 5 : 0;
    c.ctx.test = test;
    c.ctx.data = s.name;
    c.ctx.params = "stream: " + p.str() + " flush " + std::to_string(flush) + " every " +
                   std::to_string(every);
    c.ctx.seed = c.seed;
    return c;
}

std::string scen(const zt::InflateScenario &sc) {
    return " | inflate windowBits=" + std::to_string(sc.windowBits) +
           " in=" + zt::slice_name(sc.in_slice) + " out=" + zt::slice_name(sc.out_slice) +
           " flushmix=" + std::to_string(sc.flush_mix) + " copy%=" + std::to_string(sc.copy_pct) +
           " header=" + std::to_string(sc.get_header) + " prime=" + std::to_string(sc.prime_bytes) +
           " validate_off=" + std::to_string(sc.validate_off) +
           " members=" + std::to_string(sc.multi_member) + " reset2=" + std::to_string(sc.reset2_wbits);
}

/* Runs c and checks that the output is the original data. */
void run(Case &c, bool expect_original = true) {
    c.ctx.params += scen(c.sc);
    zt::InflateResult r = zt::inflate_lockstep(c.ctx, c.sc, c.stream, c.seed ^ 0x51ce);
    if (r.same && expect_original)
        EXPECT_TRUE(r.rc == Z_STREAM_END && r.out == c.original)
            << c.ctx.describe() << "\n  ref itself did not reproduce the data (test bug?) rc="
            << r.rc;
}

/* Random valid streams, random slicing down to 1 byte, random flush modes
 * (Z_NO_FLUSH, Z_SYNC_FLUSH, Z_BLOCK, Z_TREES, Z_FINISH), inflateCopy. */
TEST(InflateIdentity, SlicedStreams) {
    long cases = zt::by_mode(3000, 30000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        Case c = make_case("InflateIdentity.SlicedStreams", (uint64_t)i, 48000);
        run(c);
    }
}

/* Whole files at every level, read in larger pieces. */
TEST(InflateIdentity, FilesAllLevels) {
    const auto &files = zt::file_samples();
    for (size_t f = 0; f < files.size() && !zt::too_many_failures(); f++) {
        for (int level = 0; level <= 9; level += zt::full_mode() ? 1 : 3) {
            Case c;
            c.seed = zt::case_seed("inflate-files", f * 10 + (size_t)level);
            zt::Rng rng(c.seed);
            zt::DefParams p;
            p.level = level;
            p.strategy = (int)rng.below(5);
            c.original = files[f].bytes;
            c.stream = zt::ref_deflate(p, c.original.data(), c.original.size());
            c.sc.in_slice = rng.chance(50) ? zt::SLICE_LARGE : zt::SLICE_MEDIUM;
            c.sc.out_slice = rng.chance(50) ? zt::SLICE_LARGE : zt::SLICE_MEDIUM;
            c.sc.flush_mix = (int)rng.below(zt::FLUSH_MIXES);
            c.ctx.test = "InflateIdentity.FilesAllLevels";
            c.ctx.data = files[f].name;
            c.ctx.params = p.str();
            c.ctx.seed = c.seed;
            run(c);
        }
    }
}

/* gzip headers made with deflateSetHeader (extra, name, comment, hcrc) read
 * with inflateGetHeader into small buffers; several members in a row. */
TEST(InflateIdentity, GzipHeadersAndMembers) {
    long cases = zt::by_mode(400, 6000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        Case c;
        c.seed = zt::case_seed("gzip-headers", (uint64_t)i);
        zt::Rng rng(c.seed);
        int members = rng.chance(50) ? 1 : (int)rng.range(2, 4);
        for (int m = 0; m < members; m++) {
            zt::Sample s = zt::any_sample(rng, 20000);
            zt::DefParams p = zt::random_params(rng);
            p.windowBits = (int)rng.range(9, 15) + 16;
            gz_header h;
            memset(&h, 0, sizeof h);
            std::vector<uint8_t> extra = zt::generate(rng, zt::GEN_RANDOM, rng.range(0, 60));
            std::string name, comment;
            for (size_t k = rng.range(0, 50); k; k--) name += (char)('a' + rng.below(26));
            for (size_t k = rng.range(0, 90); k; k--) comment += (char)('A' + rng.below(26));
            h.text = (int)rng.below(2);
            h.time = (uLong)rng.below(0x7fffffff);
            h.os = (int)rng.below(256);
            if (rng.chance(70)) { h.extra = extra.data(); h.extra_len = (uInt)extra.size(); }
            if (rng.chance(80)) h.name = (Bytef *)name.c_str();
            if (rng.chance(60)) h.comment = (Bytef *)comment.c_str();
            h.hcrc = (int)rng.below(2);
            std::vector<uint8_t> z = zt::ref_deflate(p, s.bytes.data(), s.bytes.size(), 0,
                                                     Z_NO_FLUSH, nullptr, &h);
            c.stream.insert(c.stream.end(), z.begin(), z.end());
            c.original.insert(c.original.end(), s.bytes.begin(), s.bytes.end());
            c.ctx.data += (m ? " + " : "") + s.name;
        }
        c.sc.windowBits = rng.chance(50) ? 31 : 47;
        c.sc.get_header = 1;
        c.sc.multi_member = 1;
        c.sc.in_slice = (int)rng.below(zt::SLICE_MODES);
        c.sc.out_slice = rng.chance(50) ? zt::SLICE_MEDIUM : zt::SLICE_MIXED;
        c.sc.flush_mix = (int)rng.below(zt::FLUSH_MIXES);
        c.sc.copy_pct = rng.chance(20) ? 5 : 0;
        c.ctx.test = "InflateIdentity.GzipHeadersAndMembers";
        c.ctx.params = std::to_string(members) + " gzip members";
        c.ctx.seed = c.seed;
        c.ctx.params += scen(c.sc);
        zt::InflateResult r = zt::inflate_lockstep(c.ctx, c.sc, c.stream, c.seed ^ 0x51ce);
        if (r.same) {
            /* the header is re-read only for the first member, so only the
             * concatenated data is checked here */
            EXPECT_TRUE(r.out == c.original && (int)r.members == members)
                << c.ctx.describe() << "\n  ref did not reproduce the data";
        }
    }
}

/* Z_NEED_DICT then inflateSetDictionary (zlib), raw streams with a preset
 * dictionary, inflateGetDictionary at the end. */
TEST(InflateIdentity, Dictionaries) {
    long cases = zt::by_mode(400, 6000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        Case c;
        c.seed = zt::case_seed("dictionaries", (uint64_t)i);
        zt::Rng rng(c.seed);
        zt::Sample s = zt::any_sample(rng, 30000);
        std::vector<uint8_t> dict = rng.chance(50) && !s.bytes.empty()
            ? std::vector<uint8_t>(s.bytes.begin(), s.bytes.begin() +
                                   (long)rng.range(1, std::min<size_t>(s.bytes.size(), 40000)))
            : zt::generate(rng, (int)rng.below(zt::GEN_KINDS), rng.range(1, 40000));
        zt::DefParams p = zt::random_params(rng);
        if (p.windowBits > 15) p.windowBits -= 16;   /* gzip has no dictionary */
        c.original = s.bytes;
        c.stream = zt::ref_deflate(p, s.bytes.data(), s.bytes.size(), 0, Z_NO_FLUSH, &dict);
        int w = p.windowBits < 0 ? -p.windowBits : p.windowBits;
        if (w == 8) w = 9;
        c.sc.windowBits = p.windowBits < 0 ? -w : w;
        c.sc.dict = &dict;
        c.sc.in_slice = (int)rng.below(zt::SLICE_MODES);
        c.sc.out_slice = rng.chance(50) ? zt::SLICE_MEDIUM : zt::SLICE_MIXED;
        c.sc.flush_mix = (int)rng.below(zt::FLUSH_MIXES);
        c.ctx.test = "InflateIdentity.Dictionaries";
        c.ctx.data = s.name + " dict " + std::to_string(dict.size());
        c.ctx.params = p.str();
        c.ctx.seed = c.seed;
        run(c);
    }
}

/* inflateSync() over garbage prefixes and from the middle of streams with
 * full-flush points, then inflate the rest. */
TEST(InflateIdentity, SyncPoints) {
    long cases = zt::by_mode(400, 6000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        Case c;
        c.seed = zt::case_seed("sync-points", (uint64_t)i);
        zt::Rng rng(c.seed);
        zt::Sample s = zt::any_sample(rng, 40000);
        zt::DefParams p = zt::random_params(rng);
        p.windowBits = -15;
        std::vector<uint8_t> z = zt::ref_deflate(p, s.bytes.data(), s.bytes.size(),
                                                 (int)rng.range(100, 4000), Z_FULL_FLUSH);
        size_t cut = z.empty() ? 0 : rng.range(0, z.size() - 1);
        std::vector<uint8_t> prefix = zt::generate(rng, (int)rng.below(zt::GEN_KINDS),
                                                   rng.chance(50) ? rng.range(0, 100) : 0);
        c.stream = prefix;
        c.stream.insert(c.stream.end(), z.begin() + (long)cut, z.end());
        c.sc.windowBits = -15;
        c.sc.sync_first = 1;
        c.sc.in_slice = (int)rng.below(zt::SLICE_MODES);
        c.sc.out_slice = rng.chance(50) ? zt::SLICE_MEDIUM : zt::SLICE_MIXED;
        c.sc.flush_mix = (int)rng.below(zt::FLUSH_MIXES);
        c.ctx.test = "InflateIdentity.SyncPoints";
        c.ctx.data = s.name + " from stream byte " + std::to_string(cut) + " after " +
                     std::to_string(prefix.size()) + " garbage bytes";
        c.ctx.params = p.str();
        c.ctx.seed = c.seed;
        run(c, false);
    }
}

/* inflatePrime() with the first bytes of raw streams; inflateValidate(0)
 * with damaged check values; inflateReset2() between streams of different
 * formats. */
TEST(InflateIdentity, PrimeValidateReset2) {
    long cases = zt::by_mode(400, 6000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        Case c;
        c.seed = zt::case_seed("prime-validate-reset2", (uint64_t)i);
        zt::Rng rng(c.seed);
        zt::Sample s = zt::any_sample(rng, 20000);
        zt::DefParams p = zt::random_params(rng);
        int kind = (int)rng.below(3);
        c.ctx.test = "InflateIdentity.PrimeValidateReset2";
        c.ctx.data = s.name;
        c.ctx.seed = c.seed;
        c.original = s.bytes;
        c.sc.in_slice = (int)rng.below(zt::SLICE_MODES);
        c.sc.out_slice = rng.chance(50) ? zt::SLICE_MEDIUM : zt::SLICE_MIXED;
        c.sc.flush_mix = (int)rng.below(zt::FLUSH_MIXES);
        bool expect = true;
        if (kind == 0) {                    /* prime */
            p.windowBits = -15;
            c.stream = zt::ref_deflate(p, s.bytes.data(), s.bytes.size());
            c.sc.windowBits = -15;
            c.sc.prime_bytes = (int)rng.range(1, 3);
            c.ctx.params = "prime " + p.str();
        } else if (kind == 1) {             /* validate off, damaged check */
            if (p.windowBits < 0) p.windowBits = -p.windowBits;
            if (p.windowBits == 8 || p.windowBits == 24) p.windowBits = 9;
            c.stream = zt::ref_deflate(p, s.bytes.data(), s.bytes.size());
            if (c.stream.size() > 4 && rng.chance(70))
                c.stream[c.stream.size() - 1 - rng.below(4)] ^= (uint8_t)(1 + rng.below(255));
            c.sc.windowBits = p.windowBits > 15 ? 31 : 15;
            c.sc.validate_off = 1;
            c.ctx.params = "validate off " + p.str();
            expect = false;
        } else {                            /* zlib member, then raw ones via Reset2 */
            zt::DefParams z = p;
            z.windowBits = 15;
            c.stream = zt::ref_deflate(z, s.bytes.data(), s.bytes.size());
            p.windowBits = -15;
            int more = (int)rng.range(1, 3);
            for (int m = 0; m < more; m++) {
                std::vector<uint8_t> r = zt::ref_deflate(p, s.bytes.data(), s.bytes.size() / (m + 1));
                c.stream.insert(c.stream.end(), r.begin(), r.end());
                c.original.insert(c.original.end(), s.bytes.begin(),
                                  s.bytes.begin() + (long)(s.bytes.size() / (m + 1)));
            }
            c.sc.windowBits = 15;
            c.sc.multi_member = 1;
            c.sc.reset2_wbits = -15;
            c.ctx.params = "reset2 " + p.str();
            c.ctx.params += scen(c.sc);
            zt::InflateResult r = zt::inflate_lockstep(c.ctx, c.sc, c.stream, c.seed ^ 0x51ce);
            if (r.same) EXPECT_EQ(r.out, c.original) << c.ctx.describe();
            continue;
        }
        run(c, expect);
    }
}

/* inflateBack(): in() slices at random, sometimes some input handed over
 * before the call; compare return code, message, every out() byte and
 * where the input stopped. */
TEST(InflateIdentity, InflateBack) {
    long cases = zt::by_mode(2500, 25000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        uint64_t seed = zt::case_seed("inflate-back", (uint64_t)i);
        zt::Rng rng(seed);
        zt::Sample s = zt::any_sample(rng, 60000);
        zt::DefParams p = zt::random_params(rng);
        int w = p.windowBits < 0 ? -p.windowBits : p.windowBits & 15;
        if (w == 8) w = 9;
        p.windowBits = -w;
        std::vector<uint8_t> z = zt::ref_deflate(p, s.bytes.data(), s.bytes.size(),
                                                 rng.chance(30) ? (int)rng.range(1, 5000) : 0,
                                                 Z_SYNC_FLUSH);
        int bw = rng.chance(50) ? 15 : w;
        int mode = (int)rng.below(zt::SLICE_MODES);
        size_t first = rng.chance(30) ? rng.range(1, z.size() + 10) : 0;
        if (rng.chance(10)) z.resize(rng.range(0, z.size()));  /* truncated */
        zt::InfBackRun a = zt::infback_run(zt::REF, z, bw, seed, mode, 0, first, 1 << 26);
        zt::InfBackRun b = zt::infback_run(zt::TUR, z, bw, seed, mode, 0, first, 1 << 26);
        EXPECT_TRUE(a == b) << "[zt] inflateBack differs\n  data: " << s.name << "\n  params: "
                            << p.str() << " window=" << bw << " in=" << zt::slice_name(mode)
                            << " first=" << first << "\n  seed: 0x" << std::hex << seed
                            << std::dec << "\n  ref: " << a.str() << "\n  tur: " << b.str();
        if (a.rc == Z_STREAM_END) EXPECT_EQ(a.out, s.bytes) << "ref inflateBack round trip";
    }
}

/* uncompress2(): same result, consumed length and code, also with a
 * destination too small and truncated sources. */
TEST(InflateIdentity, OneShotUncompress2) {
    long cases = zt::by_mode(300, 3000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        uint64_t seed = zt::case_seed("uncompress2", (uint64_t)i);
        zt::Rng rng(seed);
        zt::Sample s = zt::any_sample(rng, 60000);
        zt::DefParams p = zt::random_params(rng);
        p.windowBits = 15;
        std::vector<uint8_t> z = zt::ref_deflate(p, s.bytes.data(), s.bytes.size());
        if (rng.chance(15)) z.resize(rng.range(0, z.size()));
        uLong cap = rng.chance(80) ? s.bytes.size() : rng.range(0, s.bytes.size() + 1);
        std::vector<uint8_t> o[2];
        uLongf ol[2];
        uLong il[2];
        int rc[2];
        for (int k = 0; k < 2; k++) {
            const zapi *A = k ? zt::TUR : zt::REF;
            o[k].assign(cap + 1, 0);
            ol[k] = cap;
            il[k] = z.size();
            rc[k] = A->uncompress2(o[k].data(), &ol[k], z.data(), &il[k]);
        }
        EXPECT_TRUE(rc[0] == rc[1] && ol[0] == ol[1] && il[0] == il[1] && o[0] == o[1])
            << "uncompress2 " << s.name << " cap=" << cap << " seed=0x" << std::hex << seed
            << std::dec << ": rc ref=" << rc[0] << " tur=" << rc[1] << " out ref=" << ol[0]
            << " tur=" << ol[1] << " in ref=" << il[0] << " tur=" << il[1];
    }
}

}  /* namespace */
