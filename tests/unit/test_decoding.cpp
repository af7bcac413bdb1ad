// Executions read off the watched choices at Z3's final check
// (src/encode/watched_choices.hpp) against Z3's model: with the cross-check
// on, every execution is also decoded from the model, and a difference throws.
// The counts make sure the choices were read, not bypassed by the fallback.
#include <gtest/gtest.h>

#include "../test_support.hpp"
#include "rdmacheck/encode.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

// Turns the cross-check on for one test.
class ChoiceDecoding : public ::testing::Test {
protected:
    void SetUp() override { crossCheckDecoding(true); }
    void TearDown() override { crossCheckDecoding(false); }
};

TEST_F(ChoiceDecoding, AgreesWithTheModelOnTheCorpus) {
    const DecodeCounts before = decodeCounts();
    std::map<std::string, Model> models;
    for (const std::string& file : litmusFiles(sourceDir() + "/litmus")) {
        const LitmusTest test = parseLitmusFile(file);
        const std::string name = defaultModelName(test);
        if (!models.count(name)) models.emplace(name, loadModel(modelsDir(), name));
        EXPECT_NO_THROW(check(test, models.at(name), CheckOptions{})) << file;
    }
    const DecodeCounts after = decodeCounts();
    EXPECT_GT(after.fromChoices - before.fromChoices, after.fromModel - before.fromModel) << "mostly off the choices";
}

TEST_F(ChoiceDecoding, AgreesWithTheModelOnRandomPrograms) {
    const std::vector<std::pair<std::string, std::string>> mixes = {
        {"rdma-tso", "put=3,get=3,poll=2,assume=1,if=1,expr=1"},
        {"rdma-tso-rmw", "rcas=2,rfaa=2,poll=2,expr=1"},
        {"rdma-wait-rmw", "wait=2,rcas=1,rfaa=1,svwrite=1,svread=1,svbcast=1,gfence=1"},
        {"tso", "put=0,get=0,poll=0,rfence=0"}};
    const DecodeCounts before = decodeCounts();
    for (const auto& [modelName, mix] : mixes) {
        const Model model = loadModel(modelsDir(), modelName);
        GeneratorOptions options;
        parseMix(mix, options);
        for (uint64_t seed = 1; seed <= 40; ++seed) {
            const std::string text = generateLitmus(seed, options);
            EXPECT_NO_THROW(check(parseLitmus(text, "random.litmus"), model, CheckOptions{})) << text;
        }
    }
    EXPECT_GT(decodeCounts().fromChoices - before.fromChoices, 0u);
}

// SB across four threads: one skeleton, 2^4 executions under tso.
const char* const kSbRing = R"(X86 SB4
{ x0=0; x1=0; x2=0; x3=0; }
 P0          | P1          | P2          | P3          ;
 MOV [x0],$1 | MOV [x1],$1 | MOV [x2],$1 | MOV [x3],$1 ;
 MOV EAX,[x1] | MOV EAX,[x2] | MOV EAX,[x3] | MOV EAX,[x0] ;
exists (0:EAX=0 /\ 1:EAX=0 /\ 2:EAX=0 /\ 3:EAX=0)
)";

// Each execution's rf and mo, as the search finds them.
using RfMo = std::pair<std::vector<int>, std::vector<std::vector<int>>>;

struct Search {
    LitmusTest test;
    Model model;
    UnfoldedProgram program;
    ExecutionGraph skeleton;
    explicit Search(const char* text)
        : test(parseLitmus(text, "search.litmus")), model(loadModel(modelsDir(), "tso")),
          program(unfoldFor(test, model, 0)), skeleton(program.skeleton(std::vector<size_t>(program.paths.size(), 0))) {}
};

TEST(Search, StoppedAndResumedFindsEveryExecutionOnce) {
    Search sb(kSbRing);
    std::set<RfMo> whole;
    {
        ExecutionEncoding all(threadContext(), sb.skeleton, sb.model, sb.program.locations.size());
        all.forEach([&](const ExecutionGraph& ex) { return whole.insert({ex.rf, ex.mo}).second; });
    }
    EXPECT_EQ(whole.size(), 16u);
    ExecutionEncoding pieces(threadContext(), sb.skeleton, sb.model, sb.program.locations.size());
    std::vector<RfMo> found;
    for (size_t stop : {3u, 1u, 5u}) {
        size_t seen = 0;
        pieces.forEach([&](const ExecutionGraph& ex) {
            found.push_back({ex.rf, ex.mo});
            return ++seen < stop;
        });
        EXPECT_EQ(seen, stop);
    }
    ASSERT_TRUE(pieces.next());  // one more, then the rest
    found.push_back({pieces.current().rf, pieces.current().mo});
    pieces.forEach([&](const ExecutionGraph& ex) {
        found.push_back({ex.rf, ex.mo});
        return true;
    });
    EXPECT_FALSE(pieces.next());
    EXPECT_EQ(std::set<RfMo>(found.begin(), found.end()), whole);
    EXPECT_EQ(found.size(), whole.size()) << "an execution found twice";
}

// MP: three of its four candidate executions are consistent under tso; the
// fourth (1:EAX=1, 1:EBX=0) is refuted by arithmetic only (a cycle of clocks),
// which a solver configured before its assertions were in once let through.
TEST(Search, VisitsOnlyConsistentExecutions) {
    const char* const mp = R"(X86 MP
{ x=0; y=0; }
 P0         | P1          ;
 MOV [x],$1 | MOV EAX,[y] ;
 MOV [y],$1 | MOV EBX,[x] ;
exists (1:EAX=1 /\ 1:EBX=0)
)";
    Search test(mp);
    ExecutionEncoding encoding(threadContext(), test.skeleton, test.model, test.program.locations.size());
    int visits = 0;
    encoding.forEach([&](const ExecutionGraph&) { return ++visits < 10; });
    EXPECT_EQ(visits, 3);
    const CheckResult result = run(mp, "tso");
    EXPECT_EQ(result.positive, 0u);
    EXPECT_EQ(result.negative, 3u);
}

// --states's search: an execution visited is refuted with every one that
// ends as it does. SB across four threads has 16 executions; 0:EAX has two
// endings (read from the initial write or from P1's), [x0] one (its only
// write), the four registers together 16.
TEST(Search, EndingsAreVisitedOnceEach) {
    Search sb(kSbRing);
    auto visits = [&](const std::vector<int>& locations, const std::vector<int>& threads) {
        std::vector<Value> values;
        for (int t : threads) values.push_back(sb.skeleton.registers[t].at("EAX"));
        ExecutionEncoding encoding(threadContext(), sb.skeleton, sb.model, sb.program.locations.size());
        std::set<std::vector<long long>> endings;
        size_t n = 0;
        encoding.forEachEnding(locations, values, [&](const ExecutionGraph& ex) {
            std::vector<long long> ending;
            for (const Value& v : values) ending.push_back(v.eval(ex.readValues));
            endings.insert(ending);
            ++n;
            return true;
        });
        EXPECT_EQ(n, endings.size()) << "an ending visited twice";
        return n;
    };
    EXPECT_EQ(visits({}, {0}), 2u);
    EXPECT_EQ(visits({sb.program.locationIndex("x0")}, {}), 1u);
    EXPECT_EQ(visits({}, {0, 1, 2, 3}), 16u);
}

TEST(Search, WhatTheVisitorThrowsLeavesTheSearch) {
    Search sb(kSbRing);
    {
        ExecutionEncoding encoding(threadContext(), sb.skeleton, sb.model, sb.program.locations.size());
        int visits = 0;
        EXPECT_THROW(encoding.forEach([&](const ExecutionGraph&) -> bool {
            if (++visits == 2) throw std::runtime_error("stop here");
            return true;
        }),
                     std::runtime_error);
        EXPECT_EQ(visits, 2);
    }
    // The thread's solver serves the next encoding as before.
    EXPECT_EQ(run(kSbRing, "tso").positive, 1u);
    EXPECT_EQ(run(kSbRing, "tso").negative, 15u);
}

}  // namespace
