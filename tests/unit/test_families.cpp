// The test families of `generate --family` (rdmacheck/families.hpp): the text
// of small cases, the exs no-credit state count against brute force and its
// closed forms, each test's expected verdict (and for exs its number of final
// states, doc/case-studies/exs.md §4) against the declarative engine, and the
// parameters a family refuses.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "../test_support.hpp"
#include "rdmacheck/families.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

FamilyOutput family(const std::string& name, std::optional<int> n, std::optional<int> s = std::nullopt,
                    std::vector<std::string> variants = {}) {
    FamilyOutput out;
    generateFamily(name, FamilyParameters{n, s, std::move(variants)}, out);
    return out;
}

// Every non-decreasing T with j <= T_j <= n, and the distinct tuples
// o_j = max{m <= T_j : m = j mod s} they give.
void enumerate(int n, int s, std::vector<int>& t, std::set<std::vector<int>>& tuples) {
    const int j = static_cast<int>(t.size()) + 1;
    if (j > n) {
        std::vector<int> o;
        for (int i = 1; i <= n; ++i) o.push_back(t[i - 1] - (t[i - 1] - i) % s);
        tuples.insert(o);
        return;
    }
    for (int tj = std::max(j, t.empty() ? 0 : t.back()); tj <= n; ++tj) {
        t.push_back(tj);
        enumerate(n, s, t, tuples);
        t.pop_back();
    }
}

uint64_t bruteForceNoCreditStates(int n, int s) {
    std::vector<int> t;
    std::set<std::vector<int>> tuples;
    enumerate(n, s, t, tuples);
    return tuples.size();
}

uint64_t catalan(int n) {
    std::vector<uint64_t> c = {1};
    for (int m = 1; m <= n; ++m) {
        c.push_back(0);
        for (int i = 0; i < m; ++i) c[m] += c[i] * c[m - 1 - i];
    }
    return c[n];
}

uint64_t motzkin(int n) {
    std::vector<uint64_t> m = {1, 1};
    for (int k = 2; k <= n; ++k) {
        m.push_back(m[k - 1]);
        for (int i = 0; i <= k - 2; ++i) m[k] += m[i] * m[k - 2 - i];
    }
    return m[n];
}

// Each test's verdict, and its number of final states where the row gives one,
// from the declarative engine in --states mode.
void expectVerdicts(const FamilyOutput& out) {
    std::map<std::string, std::string> texts;
    for (const FamilyTest& t : out.tests) texts[t.file] = t.text;
    std::map<std::string, Model> models;
    for (const FamilyExpectation& e : out.expectations) {
        SCOPED_TRACE(e.test + " under " + e.model + " (" + e.source + ")");
        if (!models.count(e.model)) models.emplace(e.model, loadModel(modelsDir(), e.model));
        CheckOptions options;
        options.mode = CheckMode::States;
        const CheckResult r = check(parseLitmus(texts.at(e.test), e.test), models.at(e.model), options);
        EXPECT_EQ(r.ok ? "Ok" : "No", e.expect);
        if (e.states) {
            EXPECT_EQ(r.states.size(), *e.states);
        }
    }
}

void expectExsVerdicts(int fromN, int toN) {
    for (int n = fromN; n <= toN; ++n)
        for (int s = 1; s <= 3; ++s) {
            const FamilyOutput out = family("exs", n, s, {"all"});
            ASSERT_EQ(out.tests.size(), 4u);
            ASSERT_EQ(out.expectations.size(), 8u);  // rdma-tso and rdma-tso-nopcie
            expectVerdicts(out);
        }
}

std::string invalid(const std::string& name, FamilyParameters parameters) {
    FamilyOutput out;
    try {
        generateFamily(name, parameters, out);
    } catch (const std::invalid_argument& e) {
        EXPECT_TRUE(out.tests.empty()) << name;
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(Families, ExsProgramText) {
    const FamilyOutput out = family("exs", 2, 1, {"early-ack"});
    ASSERT_EQ(out.tests.size(), 1u);
    EXPECT_EQ(out.tests[0].file, "exs-ring-n2-s1-early-ack.litmus");
    EXPECT_EQ(out.tests[0].text,
              "RDMA EXS-ring-n2-s1-early-ack\n"
              "\"EXS stream (MacArthur & Russell, Fig. 2 l.17 and Fig. 5; doc/case-studies/exs.md §4), generated: "
              "indirect-only stream, 2 messages, ring of 1 slot(s), variant early-ack.\"\n"
              "{ s0@2 = 0; imm@2 = 0; o1@2; o2@2; ack@1 = 0; }\n\n"
              "S@1 {\n  s0^2 := 1;\n  imm^2 := 1;\n  assume(ack >= 1);\n  s0^2 := 2;\n  imm^2 := 2;\n}\n\n"
              "R@2 {\n  assume(imm >= 1);\n  ack^1 := 1;\n  o1 := s0;\n"
              "  assume(imm >= 2);\n  ack^1 := 2;\n  o2 := s0;\n}\n\n"
              "forall (o1 = 1 /\\ o2 = 2)\n");
    const std::string flagFirst = family("exs", 3, 2, {"flag-first"}).tests.at(0).text;
    EXPECT_NE(flagFirst.find("{ s0@2 = 0; s1@2 = 0; imm@2 = 0; o1@2; o2@2; o3@2; ack@1 = 0; }\n\nS@1 {\n"
                             "  imm^2 := 1;\n  s0^2 := 1;\n  imm^2 := 2;\n  s1^2 := 2;\n  assume(ack >= 1);\n"
                             "  imm^2 := 3;\n  s0^2 := 3;\n}\n"),
              std::string::npos)
        << flagFirst;
    EXPECT_NE(flagFirst.find("  assume(imm >= 3);\n  o3 := s0;\n  ack^1 := 3;\n}\n"), std::string::npos) << flagFirst;
}

// herd7's columns, each padded to its widest cell.
TEST(Families, X86ColumnsAndRdmaRingText) {
    EXPECT_EQ(family("MP-chain", 3).tests.at(0).text,
              "X86 MP-chain3\n"
              "{ x0=0; x1=0; x2=0; }\n"
              " P0          | P1           | P2           ;\n"
              " MOV [x0],$1 | MOV EAX,[x1] | MOV EAX,[x2] ;\n"
              " MOV [x1],$1 | MOV [x2],$1  | MOV EBX,[x0] ;\n"
              "exists (1:EAX=1 /\\ 2:EAX=1 /\\ 2:EBX=0)\n");
    EXPECT_EQ(family("SBg-ring", 2).tests.at(0).text,
              "RDMA SBg-ring2\n\"generated SB ring over 2 nodes (g)\"\n"
              "{ x1@1 = 0; a1@1; w1@1 = 0; c1@1; x2@2 = 0; a2@2; w2@2 = 0; c2@2; }\n\n"
              "P0@1 {\n  x2^2 := 1;\n  c1 := w2^2;\n  poll(2);\n  poll(2);\n  a1 := x1;\n}\n\n"
              "P1@2 {\n  x1^1 := 1;\n  c2 := w1^1;\n  poll(1);\n  poll(1);\n  a2 := x2;\n}\n\n"
              "exists (a1 = 0 /\\ a2 = 0)\n");
}

TEST(Families, NoCreditStatesAreTheDistinctCopies) {
    for (int n = 1; n <= 8; ++n)
        for (int s = 1; s <= 4; ++s)
            EXPECT_EQ(exsNoCreditStates(n, s), bruteForceNoCreditStates(n, s)) << "n " << n << ", s " << s;
    const std::vector<uint64_t> threeSlots = {1, 1, 1, 2, 4, 8, 17};
    for (int n = 1; n <= 7; ++n) EXPECT_EQ(exsNoCreditStates(n, 3), threeSlots[n - 1]) << n;
    for (int n = 1; n <= 32; ++n) {
        EXPECT_EQ(exsNoCreditStates(n, 1), catalan(n)) << n;
        EXPECT_EQ(exsNoCreditStates(n, 2), motzkin(n - 1)) << n;
        EXPECT_EQ(exsNoCreditStates(n, n), 1u) << n;  // as many slots as messages: nothing overwritten
    }
}

TEST(Families, ExpectationsCsv) {
    const FamilyOutput out = family("exs", 3, 1, {"no-credit", "ok", "no-credit"});
    ASSERT_EQ(out.tests.size(), 2u);  // each variant once, in the order given
    EXPECT_EQ(out.tests[0].file, "exs-ring-n3-s1-no-credit.litmus");
    const std::string csv = expectationsCsv(out.expectations);
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "test,model,expect,source,states");
    EXPECT_NE(csv.find("\nexs-ring-n3-s1-no-credit.litmus,rdma-tso-nopcie,No,\"doc/case-studies/exs.md §4: "),
              std::string::npos)
        << csv;
    EXPECT_NE(csv.find("S=2)\",5\nexs-ring-n3-s1-ok.litmus,rdma-tso,Ok,"), std::string::npos) << csv;
}

TEST(Families, ExsVerdictsAndStatesUpToFive) { expectExsVerdicts(1, 5); }
TEST(FamiliesSlow, ExsVerdictsAndStatesSixToEight) { expectExsVerdicts(6, 8); }

TEST(Families, ScalingFamilyVerdicts) {
    for (const std::string& name : familyNames()) {
        if (name == "exs") continue;
        for (int n : {2, 3, 4, 5}) expectVerdicts(family(name, n));
    }
}

// Without --n a family writes the benchmarks' sizes.
TEST(Families, DefaultSizes) {
    const std::map<std::string, size_t> sizes = {{"SB-ring", 19},  {"SB+mfences-ring", 29}, {"2+2W-ring", 29},
                                                  {"IRIW-ring", 9}, {"IRIW-K", 9},          {"MP-chain", 39},
                                                  {"SBpp-ring", 19}, {"SBp-ring", 19},      {"SBg-ring", 19}};
    for (const auto& [name, count] : sizes) {
        const FamilyOutput out = family(name, std::nullopt);
        ASSERT_EQ(out.tests.size(), count) << name;
        EXPECT_EQ(out.tests.front().file.find(name + "2.litmus"), 0u) << name;
    }
    EXPECT_EQ(family("MP-chain", std::nullopt).tests.back().file, "MP-chain40.litmus");
}

TEST(Families, RefusedParameters) {
    EXPECT_EQ(invalid("SB", {}), "unknown family 'SB' (families: exs, SB-ring, SB+mfences-ring, 2+2W-ring, "
                                 "IRIW-ring, IRIW-K, MP-chain, SBpp-ring, SBp-ring, SBg-ring)");
    EXPECT_EQ(invalid("SB-ring", {1, {}, {}}), "--n 1 is out of range for family SB-ring: 2..256");
    EXPECT_EQ(invalid("exs", {33, 2, {}}), "--n 33 is out of range for family exs: 1..32");
    EXPECT_EQ(invalid("exs", {4, 0, {}}), "--s 0 is out of range for family exs: 1..32");
    EXPECT_EQ(invalid("exs", {std::nullopt, 2, {}}), "family exs needs --n (1..32)");
    EXPECT_EQ(invalid("exs", {4, std::nullopt, {}}), "family exs needs --s (1..32)");
    EXPECT_EQ(invalid("MP-chain", {4, 2, {}}), "family MP-chain takes no --s");
    EXPECT_EQ(invalid("exs", {4, 2, {"ok", "late-ack"}}),
              "unknown variant 'late-ack' of family exs (variants: ok, early-ack, no-credit, flag-first, all)");
    EXPECT_EQ(invalid("IRIW-K", {4, {}, {"ok"}}), "family IRIW-K has no variants");
}
