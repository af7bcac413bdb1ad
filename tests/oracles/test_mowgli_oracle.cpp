// The MOWGLI oracle (mowgli_oracle.hpp) against check() on hand-written programs,
// the corpora of litmus/ with their expected.csv, random programs and the tool's
// own generator, and its stamp table against RMW Fig. 9.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../mowgli_stamp_orders.hpp"
#include "../test_support.hpp"
#include "mowgli_compare.hpp"
#include "mowgli_oracle.hpp"
#include "mowgli_programs.hpp"
#include "rdmacheck/generate.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;
using namespace rdmacheck::oracles::mowgli;

// The typed table equals RMW Fig. 9, the 12-stamp order of RDMA^WAIT_RMW, as
// the Y/N/SN block of kMowgliStampOrders.
TEST(MowgliOracle, StampTableIsMowgliSection33) {
    const std::string spec = kMowgliStampOrders;
    const size_t block = spec.find("#      aCR aCW aCAS aMF aWT");
    ASSERT_NE(block, std::string::npos);
    std::istringstream in(spec.substr(block));
    std::string line;
    std::getline(in, line);
    for (int row = 0; row < kStampCount; ++row) {
        ASSERT_TRUE(std::getline(in, line));
        std::istringstream words(line);
        std::string name, cell;
        words >> name;
        EXPECT_EQ(name, kStampNames[row]);
        for (int col = 0; col < kStampCount; ++col) {
            ASSERT_TRUE(static_cast<bool>(words >> cell));
            const char want = cell == "SN" ? 'S' : cell[0];
            EXPECT_EQ(kSto[row][col], want) << kStampNames[row] << " -> " << kStampNames[col];
        }
    }
}

TEST(MowgliOracle, HandWrittenPrograms) {
    const auto start = std::chrono::steady_clock::now();
    Tally tally;
    for (const HandTest& h : kHandTests) {
        OracleResult o = expectAgreement(h.text, tally);
        EXPECT_EQ(o.positive > 0, h.allowed) << h.text;
    }
    report("hand-written", tally, start);
}

// Every test of litmus/rdma-wait/: one that does not parse or unfold is a failure.
TEST(MowgliOracle, RdmaWaitCorpus) {
    const auto start = std::chrono::steady_clock::now();
    const std::string dir = sourceDir() + "/litmus/rdma-wait";
    const std::vector<std::string> files = litmusFiles(dir);
    Tally tally;
    for (const std::string& f : files) expectAgreement(readFile(f), tally, f);
    report("litmus/rdma-wait", tally, start);
    EXPECT_GT(tally.programs, 0u);
}

TEST(MowgliOracle, BalHandWrittenPrograms) {
    const auto start = std::chrono::steady_clock::now();
    Tally tally;
    for (const HandTest& h : kBalHandTests) {
        OracleResult o = expectAgreement(h.text, tally);
        EXPECT_EQ(o.positive > 0, h.allowed) << h.text;
    }
    report("hand-written BAL", tally, start);
    EXPECT_GT(tally.features["bal:so"], 0u);
}

namespace {

// Every test of litmus/<corpus>/, against check() and against expected.csv (Ok/No
// per model, read as the condition's verdict).
void expectCorpusAgreement(const std::string& corpus) {
    const auto start = std::chrono::steady_clock::now();
    const std::string dir = sourceDir() + "/litmus/" + corpus;
    std::map<std::pair<std::string, std::string>, bool> expected;  // (file, model) -> Ok
    std::istringstream csv(readFile(dir + "/expected.csv"));
    std::string line;
    std::getline(csv, line);  // header
    while (std::getline(csv, line)) {
        std::istringstream fields(line);
        std::string file, m, expect;
        std::getline(fields, file, ',');
        std::getline(fields, m, ',');
        std::getline(fields, expect, ',');
        if (!file.empty()) expected[{file, m}] = expect == "Ok";
    }
    ASSERT_FALSE(expected.empty()) << "no rows in " << dir << "/expected.csv";
    const std::vector<std::string> files = litmusFiles(dir);
    Tally tally;
    size_t verdicts = 0;
    for (const std::string& f : files) {
        const std::string text = readFile(f), name = std::filesystem::path(f).filename().string();
        SCOPED_TRACE(name);
        expectAgreement(text, tally, f);
        if (corpus == "rbl") expectWeakRblAgreement(text, tally, f);
        LitmusTest test = parseLitmus(text, f);
        showEverything(test);
        for (const std::string m : {"rdma-wait", "rdma-wait-rmw"})
            if (!expected.count({name, m})) ADD_FAILURE() << "no expected.csv row for " << name << " " << m;
        for (const auto& [row, ok] : expected) {
            if (row.first != name) continue;
            const std::string& m = row.second;
            Variant variant;
            variant.rblWeak = m == "rdma-wait-rmw-rblweak";
            const CheckResult r = check(test, model(m), CheckOptions{});
            const OracleResult o = MowgliOracle(test, r.shown, variant).run();
            EXPECT_EQ(verdict(test, o), ok) << m;
            EXPECT_EQ(r.ok, ok) << m;
            ++verdicts;
        }
    }
    std::cout << "[mowgli-oracle] litmus/" << corpus << ": " << files.size() << " files, " << verdicts
              << " (file, model) verdicts against expected.csv\n";
    report(("litmus/" + corpus).c_str(), tally, start);
    EXPECT_EQ(verdicts, expected.size());
}

}  // namespace

TEST(MowgliOracle, BalCorpus) { expectCorpusAgreement("bal"); }

// litmus/locks/README.md: the lock tests, each library's so through the oracle's own lo.
TEST(MowgliOracle, LockCorpus) { expectCorpusAgreement("locks"); }

// litmus/sc/README.md: RDMA^SC_RMW.
TEST(MowgliOracle, ScCorpus) { expectCorpusAgreement("sc"); }

// litmus/rbl/README.md: RBL, its rf enumerated from Def. 5.1.
TEST(MowgliOracle, RblCorpus) { expectCorpusAgreement("rbl"); }

// Slow tier (suite name ending in Slow, tests/CMakeLists.txt).
TEST(MowgliOracleSlow, RandomPrograms) {
    const auto start = std::chrono::steady_clock::now();
    const Sweep sweep = sweepFromEnvironment();
    Rng rng(sweep.seed);
    Tally tally;
    for (int i = 0; i < sweep.count; ++i) {
        // rdma-wait (check() is most of the time) on the programs drawn without RMWs
        const bool rmws = i % 3 != 0;
        expectAgreement(randomWaitTest(rng, rmws, sweep.threads, sweep.maxLength), tally, "random.litmus", !rmws);
        if (::testing::Test::HasFailure()) break;
    }
    report("random", tally, start);
}

// Random programs with lock calls, kRandomLockPrograms per lock library, under
// both models (issue 15: at least 300 per library).
TEST(MowgliOracleSlow, RandomLockPrograms) {
    const auto start = std::chrono::steady_clock::now();
    Rng rng(20261124);
    Tally tally;
    for (const std::string lock : {"wl", "sl", "nl"})
        for (int i = 0; i < kRandomLockPrograms && !::testing::Test::HasFailure(); ++i)
            expectAgreement(randomLockTest(rng, lock), tally, "random-lock.litmus");
    report("random locks", tally, start);
    EXPECT_GT(tally.features["lo"], 0u);
}

// Random programs with RDMA^SC_RMW calls among RDMA^WAIT statements, under both models.
TEST(MowgliOracleSlow, RandomScPrograms) {
    const auto start = std::chrono::steady_clock::now();
    Rng rng(20261125);
    Tally tally;
    for (int i = 0; i < kRandomLockPrograms && !::testing::Test::HasFailure(); ++i)
        expectAgreement(randomScTest(rng), tally, "random-sc.litmus");
    report("random SC", tally, start);
    EXPECT_GT(tally.features["sc:so"], 0u);
}

// The tool's own generator with lock and SC calls (weight 0 in its default
// mix): `rdmacheck generate --mix wl=2` and so on, 100 programs per kind.
TEST(MowgliOracleSlow, GeneratedLibraryPrograms) {
    const auto start = std::chrono::steady_clock::now();
    Tally tally;
    for (const std::string kind : {"wl", "sl", "nl", "sc"}) {
        GeneratorOptions options;
        options.threads = 2;
        options.maxLength = 3;
        parseMix(kind + "=20", options);
        for (uint64_t seed = 0; seed < 100 && !::testing::Test::HasFailure(); ++seed)
            expectAgreement(generateLitmus(seed, options), tally, "generated.litmus");
    }
    report("generated with library calls", tally, start);
    EXPECT_GT(tally.features["lo"], 0u);
    EXPECT_GT(tally.features["sc:so"], 0u);
}

// The tool's generator with ring-buffer calls (`--mix rbl=20`): thread 0 submits,
// the others receive, among RDMA^WAIT and SV statements; 300 programs of 2 or 3
// threads, each through `expect` (issue 15: at least 300 per library).
template <class Expect>
Tally generatedRingBufferSweep(const char* what, const Expect& expect) {
    const auto start = std::chrono::steady_clock::now();
    Tally tally;
    for (uint64_t seed = 0; seed < 300 && !::testing::Test::HasFailure(); ++seed) {
        GeneratorOptions options;
        options.threads = 2 + static_cast<int>(seed % 2);
        options.maxLength = 3;
        parseMix("rbl=20,write=5,read=5,put=5,get=5,wait=3,gfence=3,svwrite=3,svread=3", options);
        expect(generateLitmus(seed, options), tally, "generated-rbl.litmus");
    }
    report(what, tally, start);
    return tally;
}

// Under both models.
TEST(MowgliOracleSlow, GeneratedRingBufferPrograms) {
    Tally tally = generatedRingBufferSweep("generated with ring-buffer calls",
                                           [](const std::string& text, Tally& t, const std::string& file) {
                                               expectAgreement(text, t, file);
                                           });
    EXPECT_GT(tally.features["rbl:so"], 0u);
    EXPECT_GT(tally.features["rbl:values"], 0u);  // receives bound by the oracle itself
}

// Under RBL's weak specification, where fb;hb must see the whole hb ([Inst];ib
// included), against the oracle's weak variant.
TEST(MowgliOracleSlow, GeneratedRingBufferProgramsWeak) {
    Tally tally = generatedRingBufferSweep("generated with ring-buffer calls, weak RBL", expectWeakRblAgreement);
    EXPECT_GT(tally.features["rbl:so"], 0u);
}
