// The shrinker: from generated and written tests it reaches a minimum that
// keeps a syntactic property, a checker property or a cross difference.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include "../test_support.hpp"
#include "print_support.hpp"
#include "rdmacheck/crosscheck.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/shrink.hpp"

using namespace rdmacheck;
using rdmacheck::testing::checkRdmaTso;
using rdmacheck::testing::modelsDir;
using rdmacheck::testing::remoteRmwCount;
using rdmacheck::testing::reparse;
using rdmacheck::testing::statementCount;

namespace {

bool containsConstantPut(const Block& b) {
    for (const Stmt& s : b) {
        if ((s.kind == Stmt::Kind::Put && s.sourceIsConst) || containsConstantPut(s.body) ||
            containsConstantPut(s.orelse))
            return true;
        for (const Block& branch : s.branches)
            if (containsConstantPut(branch)) return true;
    }
    return false;
}

// Some thread gets from node n and later polls n.
bool getThenPoll(const LitmusTest& t) {
    for (const ThreadDecl& thread : t.threads) {
        std::set<int> gotFrom;
        for (const Stmt& s : thread.body) {
            if (s.kind == Stmt::Kind::Get) gotFrom.insert(*s.source.node);
            if (s.kind == Stmt::Kind::Poll && gotFrom.count(s.node)) return true;
        }
    }
    return false;
}

}  // namespace

TEST(ShrinkLitmus, SyntacticPropertyShrinksToGetThenPoll) {
    uint64_t seed = 0;
    LitmusTest start;
    for (;; ++seed) {
        start = parseLitmus(generateLitmus(seed, GeneratorOptions{}), "gen.litmus");
        if (getThenPoll(start) && statementCount(start) >= 6) break;
    }
    const LitmusTest small = shrink(start, getThenPoll);
    SCOPED_TRACE(printLitmus(start) + "shrinks to\n" + printLitmus(small));
    EXPECT_TRUE(getThenPoll(small));
    ASSERT_EQ(small.threads.size(), 1u);
    const Block& body = small.threads[0].body;
    ASSERT_EQ(body.size(), 2u);
    EXPECT_EQ(body[0].kind, Stmt::Kind::Get);
    EXPECT_EQ(body[1].kind, Stmt::Kind::Poll);
    EXPECT_EQ(small.quantifier, Quantifier::Exists);
    EXPECT_EQ(small.condition.kind, Cond::Kind::True);
    EXPECT_LE(small.locations.size(), 2u);  // only the get's source and target may stay declared
    EXPECT_EQ(printLitmus(reparse(small)), printLitmus(small));
}

TEST(ShrinkLitmus, ReducesInsideBlocksAndConstants) {
    const LitmusTest start = parseLitmus(R"(RDMA nested
"nested"
{ x@1 = 5; y@2 = 3; unused@1 = 7; }
P0@1 {
  a := x + 2;
  if (x = 4) { b := 1 } else { choice { mfence } or { loop { while (x != 3) { y^2 := 4; } } } };
}
P1@2 { c := y * 2 }
locations [x; y;]
filter y = 3 \/ x = 5
forall (x = 5 /\ c = 6 /\ a != 1)
)", "nested.litmus");
    const auto putsAConstant = [](const LitmusTest& t) {
        for (const ThreadDecl& thread : t.threads)
            if (containsConstantPut(thread.body)) return true;
        return false;
    };
    const LitmusTest small = shrink(start, putsAConstant);
    EXPECT_EQ(printLitmus(small), "RDMA nested\n\"nested\"\n{ y@2 = 0; }\n\nP0@1 {\n  y^2 := 0;\n}\n\nexists (true)\n");
}

TEST(ShrinkLitmus, ReducesRemoteRmws) {
    const LitmusTest start = parseLitmus(R"(RDMA rmws
{ x@1 = 0; y@2 = 0; a@1 = 0; b@1 = 0; }
P0@1 {
  RCAS(a, y^2, 2, 3);
  b := RFAA(x^1, 2);
}
exists (a = 2 /\ b = 1)
)", "rmws.litmus");
    const auto hasRcas = [](const LitmusTest& t) {
        for (const ThreadDecl& thread : t.threads)
            for (const Stmt& s : thread.body)
                if (s.kind == Stmt::Kind::RCas) return true;
        return false;
    };
    const LitmusTest small = shrink(start, hasRcas);
    EXPECT_EQ(printLitmus(small), "RDMA rmws\n{ y@2 = 0; }\n\nP0@1 {\n  RCAS(_, y^2, 0, 0);\n}\n\nexists (true)\n");
}

// A model without ar;rao lets two RMWs on one location read the same value (a lost
// update): the shrinker keeps that difference from rdma-tso-rmw, down to two RMWs.
TEST(ShrinkLitmus, KeepsACrossDifferenceOnRemoteRmws) {
    std::map<std::string, Model> models;
    models.emplace("rdma-tso-rmw", loadModel(modelsDir(), "rdma-tso-rmw"));
    std::string text = rdmacheck::testing::readFile(modelsDir() + "/rdma-tso-rmw.cat");
    const std::string arRao = " | ar;rao";
    ASSERT_NE(text.find(arRao), std::string::npos);
    text.erase(text.find(arRao), arRao.size());
    models.emplace("lossy", parseModel(text, modelsDir() + "/lossy.cat", modelsDir()));
    CrossOptions options;
    options.configs = {{"declarative", "rdma-tso-rmw"}, {"declarative", "lossy"}};
    options.againstFirst = true;
    GeneratorOptions generator;
    parseMix("rcas=2,rfaa=2", generator);
    for (uint64_t seed = 0; seed < 200; ++seed) {
        const LitmusTest start = parseLitmus(generateLitmus(seed, generator), "gen.litmus");
        if (statementCount(start) < 6) continue;
        const std::optional<Difference> d = crossCheck(start, models, options);
        if (!d) continue;
        SCOPED_TRACE(printLitmus(start) + "shrinks to\n" + d->reproducer);
        EXPECT_TRUE(d->onlySecond.size() > 0 && d->onlyFirst.empty());  // lossy only adds states
        const LitmusTest small = parseLitmus(d->reproducer, "small.litmus");
        EXPECT_EQ(remoteRmwCount(small), 2u);
        EXPECT_EQ(statementCount(small), 2u);
        CrossOptions noShrink = options;
        noShrink.shrink = false;
        EXPECT_TRUE(crossCheck(small, models, noShrink).has_value());
        return;
    }
    ADD_FAILURE() << "no generated test shows the lost update";
}

TEST(ShrinkLitmus, CheckerPropertyShrinksToASmallTest) {
    const auto severalStates = [](const LitmusTest& t) { return checkRdmaTso(t).states.size() > 1; };
    LitmusTest start;
    for (uint64_t seed = 0;; ++seed) {
        start = parseLitmus(generateLitmus(seed, GeneratorOptions{}), "gen.litmus");
        if (statementCount(start) >= 6 && severalStates(start)) break;
    }
    const LitmusTest small = shrink(start, severalStates);
    SCOPED_TRACE(printLitmus(start) + "shrinks to\n" + printLitmus(small));
    EXPECT_TRUE(severalStates(small));
    EXPECT_LE(statementCount(small), 2u);
}

TEST(ShrinkLitmus, RefusesATestWithoutTheProperty) {
    const LitmusTest t = parseLitmus("RDMA t\n{ x@1; }\nP0@1 { x := 1 }\nexists (x = 1)\n", "t.litmus");
    EXPECT_THROW(shrink(t, [](const LitmusTest&) { return false; }), std::invalid_argument);
}
