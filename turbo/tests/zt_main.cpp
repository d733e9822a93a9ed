/* zt_main.cpp -- main() of zt_tests: gtest plus the suite's own options
 * (mode, seed, data), printed first so every run can be repeated. */
#include <cstdio>

#include "zt_harness.h"

int main(int argc, char **argv) {
    testing::InitGoogleTest(&argc, argv);
    zt::init_options(argc, argv);
    const zt::Options &o = zt::opt();
    const char *tv = zt::TUR->zlibTurboVersion ? zt::TUR->zlibTurboVersion() : nullptr;
    fprintf(stderr, "[zt] mode=%s ZT_SEED=0x%llx ref=%s tur=%s%s%s\n",
            o.full ? "full" : "quick", (unsigned long long)o.seed,
            zt::REF->zlibVersion(), zt::TUR->zlibVersion(),
            tv ? " turbo=" : "", tv ? tv : "");
    zt::file_samples();         /* load and report the data up front */
    return RUN_ALL_TESTS();
}
