// The MOWGLI oracle can fail: each mutant of its definitions (Variant) changes
// what it allows on some program, so agreeing with check() means something.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "../test_support.hpp"
#include "mowgli_compare.hpp"
#include "mowgli_oracle.hpp"
#include "mowgli_programs.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;
using namespace rdmacheck::oracles::mowgli;

// The oracle can fail: without iso's aNAR→aNLW component (doc/model-notes.md §N5) the
// OOTA-RMW test of §11.3 becomes allowed, and without [Inst];ib in so a Wait on a
// put no longer orders the put's local read (LOCO Fig. 3a shape). check() keeps
// both forbidden.
TEST(MowgliOracle, MutantsChangeVerdicts) {
    Variant noIsoNarNlw, noInstIb;
    noIsoNarNlw.isoNarNlw = false;
    noInstIb.instIbInSo = false;
    for (const auto& [text, variant] : {std::pair{kOotaRmw, noIsoNarNlw}, std::pair{kPfpLocalRead, noInstIb}}) {
        SCOPED_TRACE(text);
        LitmusTest test = parseLitmus(text, "mutant.litmus");
        showEverything(test);
        const CheckResult r = check(test, model("rdma-wait-rmw"), CheckOptions{});
        const OracleResult full = MowgliOracle(test, r.shown).run();
        const OracleResult mutant = MowgliOracle(test, r.shown, variant).run();
        EXPECT_EQ(r.positive, 0u);
        EXPECT_EQ(full.positive, 0u);
        EXPECT_GT(mutant.positive, 0u);
        EXPECT_NE(r.states, mutant.states);
    }
    // BAL: bar-mp-write-get forbids a = 0 only through BAL's so (litmus/bal/README.md).
    {
        Variant noBalSo;
        noBalSo.name = "no BAL so", noBalSo.balSo = false;
        const std::string dir = sourceDir() + "/litmus/bal/bar-mp-write-get.litmus";
        const std::string text = std::filesystem::exists(dir) ? readFile(dir) : std::string(kBarMpWriteGet);
        SCOPED_TRACE(text);
        LitmusTest test = parseLitmus(text, "mutant.litmus");
        showEverything(test);
        const CheckResult r = check(test, model("rdma-wait-rmw"), CheckOptions{});
        const OracleResult full = MowgliOracle(test, r.shown).run();
        const OracleResult mutant = MowgliOracle(test, r.shown, noBalSo).run();
        EXPECT_EQ(r.positive, 0u);
        EXPECT_EQ(full.positive, 0u);
        EXPECT_GT(mutant.positive, 0u);
        EXPECT_NE(r.states, mutant.states);
    }
    // OOTA-RMW without the iso component: a = 5 comes from a value cycle.
    LitmusTest test = parseLitmus(kOotaRmw, "mutant.litmus");
    test.shown = everyName(test);
    EXPECT_GT(MowgliOracle(test, shownNames(test), noIsoNarNlw).run().thinAir, 0u);
}

// Every ingredient matters: each mutant of the definition changes the states or
// counts of some hand-written, corpus or random program, so the comparisons
// above would catch check() making the same change.
TEST(MowgliOracle, EveryMutantIsCaught) {
    std::vector<std::string> programs;
    for (const HandTest& h : kHandTests) programs.push_back(h.text);
    const std::string dir = sourceDir() + "/litmus/rdma-wait";
    if (std::filesystem::is_directory(dir))
        for (const std::string& f : litmusFiles(dir)) programs.push_back(readFile(f));
    for (const HandTest& h : kBalHandTests) programs.push_back(h.text);
    for (const std::string corpus : {"bal", "locks", "sc", "rbl"}) {
        const std::string libraryDir = sourceDir() + "/litmus/" + corpus;
        if (!std::filesystem::is_directory(libraryDir)) continue;
        for (const std::string& f : litmusFiles(libraryDir)) programs.push_back(readFile(f));
    }
    Rng rng(20261201);
    for (int i = 0; i < kRandomPrograms; ++i) programs.push_back(randomWaitTest(rng, i % 3 != 0));

    std::vector<Variant> mutants(19);
    mutants[0].name = "no iso aNAR->aNLW", mutants[0].isoNarNlw = false;
    mutants[1].name = "no [Inst];ib in so", mutants[1].instIbInSo = false;
    mutants[2].name = "G10 aNRW->aRF SN", mutants[2].g10Sn = true;
    mutants[3].name = "ppo from immediate po", mutants[3].immediatePpo = true;
    mutants[4].name = "ippo = ppo", mutants[4].ippoExtra = false;
    mutants[5].name = "no nfo", mutants[5].nfo = false;
    mutants[6].name = "no rb_i in ib", mutants[6].rbI = false;
    mutants[7].name = "rf_i in so", mutants[7].rfIInSo = true;
    mutants[8].name = "no pfg in so", mutants[8].pfgInSo = false;
    mutants[9].name = "pfp in so", mutants[9].pfpInSo = true;
    mutants[10].name = "no [aNRW];iso^-1;rao", mutants[10].arRao = false;
    mutants[11].name = "no SV [aCR];(po^-1 ∩ rb);[aCW] = ∅", mutants[11].svCondition = false;
    mutants[12].name = "no BAL so", mutants[12].balSo = false;
    mutants[13].name = "no BAL call-count condition", mutants[13].balCount = false;
    mutants[14].name = "no lock so", mutants[14].lockSo = false;
    mutants[15].name = "no NLOCK aRF_n -> aNRW_n", mutants[15].nlIntraCall = false;
    mutants[16].name = "no SC so", mutants[16].scSo = false;
    mutants[17].name = "no RBL fb", mutants[17].rblFb = false;
    mutants[18].name = "RBL values from the buffer's first submit", mutants[18].rblValuesFromRf = false;

    std::vector<size_t> caught(mutants.size(), 0);
    std::vector<std::string> first(mutants.size());
    for (const std::string& text : programs) {
        LitmusTest test;
        try {
            test = parseLitmus(text, "mutant.litmus");
            showEverything(test);
        } catch (const InputError&) {
            continue;  // reported by RdmaWaitCorpus
        }
        const std::vector<ObservedName> shown = shownNames(test);
        const OracleResult full = MowgliOracle(test, shown).run();
        for (size_t m = 0; m < mutants.size(); ++m) {
            const OracleResult o = MowgliOracle(test, shown, mutants[m]).run();
            if (o.states != full.states || o.positive != full.positive || o.negative != full.negative) {
                if (caught[m]++ == 0) first[m] = text.substr(0, text.find('\n'));
            }
        }
    }
    for (size_t m = 0; m < mutants.size(); ++m) {
        std::cout << "[mowgli-oracle] mutant '" << mutants[m].name << "': " << caught[m] << " of " << programs.size()
                  << " programs differ (first: " << first[m] << ")\n";
        EXPECT_GT(caught[m], 0u) << mutants[m].name;
    }
}
