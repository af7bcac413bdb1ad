// Whole-pipeline checks with verdicts argued from the model definitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "../test_support.hpp"
#include "rdmacheck/encode.hpp"
#include "rdmacheck/explain.hpp"
#include "rdmacheck/least_kept.hpp"

using namespace rdmacheck;
using rdmacheck::testing::run;

namespace {

const char* kSbPolls = R"(RDMA SB+polls
{ y@1 = 0; a@1; x@2 = 0; b@2; }
P0@1 { x^2 := 1; poll(2); a := y; }
P1@2 { y^1 := 1; poll(1); b := x; }
exists (a = 0 /\ b = 0)
)";

const char* kFig3e = R"(RDMA Fig3e
{ y@1 = 0; w@1 = 0; a@1; c@1; x@2 = 0; z@2 = 0; b@2; d@2; }
P0@1 { x^2 := 1; c := z^2; poll(2); poll(2); a := y; }
P1@2 { y^1 := 1; d := w^1; poll(1); poll(1); b := x; }
exists (a = 0 /\ b = 0)
)";

}  // namespace

// The RDMA^TSO paper's worked figures: Figs. 2b, 3d and 3e.
TEST(WorkedChecks, Fig2bPutThenWrite) {
    CheckResult r = run("RDMA 2b\n{ x@1; z@2; }\nP0@1 { z^2 := x; x := 1 }\nexists (z = 1)\n", "rdma-tso");
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.states.size(), 2u);
}

TEST(WorkedChecks, Fig3dPolledPutsDoNotForbidStoreBuffering) {
    EXPECT_TRUE(run(kSbPolls, "rdma-tso").ok);
    EXPECT_FALSE(run(kSbPolls, "sc").ok);
}

TEST(WorkedChecks, Fig3eNeedsThePcieGuarantee) {
    CheckResult pcie = run(kFig3e, "rdma-tso");
    EXPECT_FALSE(pcie.ok);
    EXPECT_GT(pcie.negative, 0u);
    EXPECT_TRUE(run(kFig3e, "rdma-tso-nopcie").ok);
}

TEST(Semantics, CpuCasIsAtomic) {
    CheckResult r = run(R"(RDMA cas
{ x@1 = 0; }
P0@1 { a := CAS(x, 0, 1) }
P1@1 { b := CAS(x, 0, 1) }
exists (a = 0 /\ b = 0)
)", "rdma-tso");
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.states.size(), 2u);  // exactly one of them wins
}

// An XOR of a read is a table over the values the read can take, when few,
// and goes through bit-vectors when many (src/encode/values.cpp): both give
// each value the read takes, xor 5, and no other (asked of the solver, as
// --speedcheck asks it).
TEST(Semantics, XorOfFewAndOfManyValues) {
    for (int writes : {3, 17}) {
        std::string program = "X86 xor\n{ x=0; y=0; }\n P0 | P1 ;\n";
        program += " MOV EAX,[x] | MOV [x],$1 ;\n XOR EAX,$5 | MOV [x],$2 ;\n MOV [y],EAX | MOV [x],$3 ;\n";
        for (int k = 4; k <= writes; ++k) program += " | MOV [x],$" + std::to_string(k) + " ;\n";
        CheckOptions options;
        options.mode = CheckMode::Speedcheck;
        for (long long y = 0; y < 24; ++y) {
            const LitmusTest test = parseLitmus(program + "exists (y=" + std::to_string(y) + ")\n", "xor.litmus");
            SCOPED_TRACE(std::to_string(writes) + " writes, y=" + std::to_string(y));
            EXPECT_EQ(check(test, loadModel(rdmacheck::testing::modelsDir(), "tso"), options).ok, (y ^ 5) <= writes);
        }
    }
}

// X86 values are 32-bit (src/unfold/wrap32.cpp): a chain of 60 increments of
// one register is 60 steps of its interval analysis (each operand once; the
// first version took 2^60), and wraps only past the range.
TEST(Semantics, LongX86SumsStayInRangeAndCheckAtOnce) {
    std::string program = "X86 deep\n{ x=0; 0:EAX=2147483590; }\n P0 ;\n";
    for (int i = 0; i < 60; ++i) program += " INC EAX ;\n";
    const CheckResult inRange = run(program + " MOV [x],EAX ;\nexists (x=2147483647)\n", "tso");
    EXPECT_FALSE(inRange.ok);  // 2147483590 + 60 = 2147483650 wraps to -2147483646
    EXPECT_TRUE(run(program + " MOV [x],EAX ;\nexists (x=-2147483646)\n", "tso").ok);
}

TEST(Semantics, ReadOrderOfAnExpressionMatters) {
    // doc/model-notes.md §N17: e = 2*y + z can be 1 only when y is read first.
    CheckResult r = run(R"(RDMA order
{ y@1; z@1; e@1; }
P0@1 { y := 1; z := 1 }
P1@1 { e := 2*y + z }
exists (e = 1)
)", "rdma-tso");
    EXPECT_TRUE(r.ok);
}

TEST(Semantics, UnrollBoundIsReported) {
    const char* spin = R"(RDMA spin
{ f@1; }
P0@1 { f := 1 }
P1@1 { while (f != 1) { mfence } }
exists (f = 1)
)";
    EXPECT_FALSE(run(spin, "rdma-tso", 0).cutLoops.empty());
    CheckResult r = run(spin, "rdma-tso", 2);
    EXPECT_FALSE(r.cutLoops.empty());  // the flag may stay unseen for any number of spins
    EXPECT_TRUE(r.ok);
    // Nobody writes f: the loop can never run, so the bound cuts nothing.
    CheckResult none = run("RDMA n\n{ f@1; }\nP0@1 { while (f != 0) { mfence } }\nexists (f = 0)\n", "rdma-tso");
    EXPECT_TRUE(none.cutLoops.empty());
    EXPECT_TRUE(none.ok);
}

TEST(Semantics, FilterDropsExecutions) {
    CheckResult all = run(kSbPolls, "rdma-tso");
    std::string filtered = kSbPolls;
    filtered.replace(filtered.find("exists"), 0, "filter a = 0\n");
    CheckResult some = run(filtered, "rdma-tso");
    EXPECT_LT(some.positive + some.negative, all.positive + all.negative);
    EXPECT_EQ(some.positive, all.positive);
}

TEST(Semantics, LoopbackPutBehavesLikeAnyQueuePair) {
    // A loopback put's NIC local read may still miss a later CPU write (ippo F1 ✗).
    CheckResult r = run("RDMA lb\n{ x@1; z@1; }\nP0@1 { z^1 := x; x := 1 }\nexists (z = 1)\n", "rdma-tso");
    EXPECT_TRUE(r.ok);
}

TEST(Semantics, TsoRejectsNicEvents) {
    EXPECT_THROW(run(kSbPolls, "tso"), InputError);
}

// Pictures and explanations show the least executions in canonicallyBefore's
// order, whatever order the search found them in: on a test with several path
// combinations, the order is strict on distinct executions and LeastKept picks
// the same least ones from every shuffle of them.
TEST(CanonicalOrder, LeastKeptIgnoresTheOrderFound) {
    const LitmusTest test = parseLitmus(R"(RDMA paths
{ x@1 = 0; y@1 = 0; a@1; b@1; z@2 = 0; }
P0@1 { x := 1; if (y = 1) { a := 1 } else { a := 2 }; choice { z^2 := 1; poll(2) } or { y := 2 } }
P1@1 { y := 1; b := x; z^2 := 2 }
exists (a = 1 /\ b = 1)
)",
                                        "paths.litmus");
    std::vector<ExecutionGraph> found;
    check(test, loadModel(rdmacheck::testing::modelsDir(), "rdma-tso"), CheckOptions{},
          [&](const UnfoldedProgram&, const ExecutionGraph& ex, const FinalState&, bool) { found.push_back(ex); });
    ASSERT_GT(found.size(), 10u);
    for (size_t i = 0; i < found.size(); ++i)
        for (size_t j = 0; j < found.size(); ++j)
            EXPECT_EQ(canonicallyBefore(found[i], found[j]) + canonicallyBefore(found[j], found[i]), i == j ? 0 : 1);
    std::vector<ExecutionGraph> sorted = found;
    std::sort(sorted.begin(), sorted.end(), canonicallyBefore);
    std::mt19937 shuffle(7);
    for (int round = 0; round < 5; ++round) {
        std::shuffle(found.begin(), found.end(), shuffle);
        LeastKept<ExecutionGraph, bool (*)(const ExecutionGraph&, const ExecutionGraph&)> least(3, canonicallyBefore);
        for (const ExecutionGraph& ex : found) least.offer(ex);
        const std::vector<ExecutionGraph> kept = least.sorted();
        ASSERT_EQ(kept.size(), 3u);
        EXPECT_EQ(least.offered(), found.size());
        for (size_t k = 0; k < 3; ++k)
            EXPECT_FALSE(canonicallyBefore(kept[k], sorted[k]) || canonicallyBefore(sorted[k], kept[k]));
    }
}

// nfo is not counted, so a picture shows the least nfo consistent with the
// execution's rf and mo (withLeastFlushes): the execution stays consistent,
// group orders included (rdma-tso-rmw's rao), and no pair drawn backward could
// be drawn forward alone.
TEST(CanonicalOrder, PicturesShowTheLeastFlushOrder) {
    const std::string raoTest = R"(RDMA rao
{ x@2 = 0; y@2 = 0; z@2 = 0; u@2 = 0; a@1; c@1; b@3; d@3; }
P0@1 { a := x^2; RFAA(c, y^2, 1); u^2 := 1 }
P1@3 { b := u^2; RFAA(d, z^2, 1); x^2 := 1 }
exists (a = 1 /\ b = 1)
)";
    const std::string dir = rdmacheck::testing::sourceDir() + "/litmus/";
    const std::vector<std::pair<LitmusTest, std::string>> cases = {
        {parseLitmusFile(dir + "exs/exs-pull-norfence.litmus"), "rdma-tso"},
        {parseLitmusFile(dir + "rdma-wait/rmw-fig7a-get-lb.litmus"), "rdma-wait"},
        {parseLitmusFile(dir + "rdma-tso-rmw/fig6a-rcas-vs-cpu-write.litmus"), "rdma-tso-rmw"},
        {parseLitmus(raoTest, "rao.litmus"), "rdma-tso-rmw"}};
    size_t backward = 0;
    for (const auto& testAndModel : cases) {
        const LitmusTest& test = testAndModel.first;
        const Model model = loadModel(rdmacheck::testing::modelsDir(), testAndModel.second);
        check(test, model, CheckOptions{},
              [&](const UnfoldedProgram& program, const ExecutionGraph& found, const FinalState&, bool) {
                  const ExecutionGraph ex = withLeastFlushes(found, model, program.locations.size());
                  EXPECT_EQ(ex.rf, found.rf);
                  EXPECT_EQ(ex.mo, found.mo);
                  EXPECT_FALSE(shortestViolation(ex, model)) << test.name;
                  for (size_t i = 0; i < ex.nfo.size(); ++i) {
                      if (ex.nfo[i].first < ex.nfo[i].second) continue;
                      ++backward;
                      ExecutionGraph flipped = ex;
                      std::swap(flipped.nfo[i].first, flipped.nfo[i].second);
                      EXPECT_TRUE(shortestViolation(flipped, model)) << test.name << ": pair " << i << " goes forward";
                  }
              });
    }
    EXPECT_GT(backward, 0u);  // some pair is forced backward: the test sees flips
}

// A path combination in which some read's own tests refuse every source has
// no execution and no candidate: the search passes it over without an
// encoding, and the verdict and the counts stay those of the others.
TEST(Semantics, ReadWithoutAllowedSource) {
    const char* text = R"(RDMA no-source
{ x@1 = 0; y@1 = 0; a@1; }
P0@1 { choice { x := 1; } or { x := 2; }; }
P1@1 { assume(x = 1); a := y; }
exists (a = 0)
)";
    const LitmusTest test = parseLitmus(text, "no-source.litmus");
    const UnfoldedProgram program = unfold(test, UnfoldOptions());
    ASSERT_EQ(program.skeletonCount(), 2u);
    const size_t locations = program.locations.size();
    EXPECT_FALSE(hasReadWithoutSource(program.skeleton({0, 0}), locations)) << "x := 1 can be read";
    EXPECT_TRUE(hasReadWithoutSource(program.skeleton({1, 0}), locations)) << "neither 0 nor 2 passes x = 1";
    const CheckResult r = run(text, "rdma-tso");
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.positive, 1u);
    EXPECT_EQ(r.negative, 0u);
}
