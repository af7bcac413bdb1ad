// The answer-only modes against full enumeration: --states finds exactly the
// final states (and the verdict) that enumerating every execution finds, and
// --speedcheck the same verdict, from a state that full enumeration also
// reaches and that decides the condition; --deciding-executions counts the
// executions of full enumeration that decide the condition, and no other.
#include <gtest/gtest.h>

#include <filesystem>

#include "../test_support.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/machine.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

CheckResult runIn(const LitmusTest& test, const Model& model, CheckMode mode) {
    CheckOptions options;
    options.mode = mode;
    return check(test, model, options);
}

void expectModesAgree(const LitmusTest& test, const Model& model) {
    SCOPED_TRACE(test.name + " under " + model.name);
    const CheckResult full = runIn(test, model, CheckMode::Executions);
    const CheckResult states = runIn(test, model, CheckMode::States);
    EXPECT_EQ(states.states, full.states);
    EXPECT_EQ(states.ok, full.ok);
    EXPECT_EQ(states.cutLoops.size(), full.cutLoops.size());
    EXPECT_EQ(states.positive + states.negative, full.states.size()) << "each state is found once";
    EXPECT_EQ(states.completes, full.completes);
    if (!test.filter) {
        EXPECT_EQ(full.completes, !full.states.empty());
    }

    const CheckResult speed = runIn(test, model, CheckMode::Speedcheck);
    EXPECT_EQ(speed.ok, full.ok);
    EXPECT_EQ(speed.completes, full.completes);
    ASSERT_LE(speed.states.size(), 1u);
    for (const auto& [state, satisfies] : speed.states) {
        ASSERT_TRUE(full.states.count(state)) << "a state no execution reaches";
        EXPECT_EQ(satisfies, full.states.at(state));
        EXPECT_EQ(satisfies, test.quantifier != Quantifier::Forall) << "the state found must decide the verdict";
    }
    // Nothing found: no execution satisfies the condition (exists, ~exists) or breaks it (forall).
    if (speed.states.empty()) {
        for (const auto& [state, satisfies] : full.states)
            EXPECT_EQ(satisfies, test.quantifier == Quantifier::Forall);
    }

    const CheckResult deciding = runIn(test, model, CheckMode::Deciding);
    const bool forall = test.quantifier == Quantifier::Forall;
    std::map<FinalState, bool> decidingStates;
    for (const auto& [state, satisfies] : full.states)
        if (satisfies != forall) decidingStates.emplace(state, satisfies);
    EXPECT_EQ(deciding.states, decidingStates);
    EXPECT_EQ(deciding.ok, full.ok);
    EXPECT_EQ(deciding.completes, full.completes);
    EXPECT_EQ(deciding.positive, forall ? 0 : full.positive);
    EXPECT_EQ(deciding.negative, forall ? full.negative : 0);
}

TEST(CheckModes, CorpusTests) {
    std::map<std::string, Model> models;
    const std::vector<std::string> files = litmusFiles(sourceDir() + "/litmus");
    ASSERT_GT(files.size(), 100u) << "the corpus is missing";
    for (const std::string& file : files) {
        const LitmusTest test = parseLitmusFile(file);
        const std::string name = defaultModelName(test);
        if (!models.count(name)) models.emplace(name, loadModel(modelsDir(), name));
        expectModesAgree(test, models.at(name));
    }
}

TEST(CheckModes, FilterAndForall) {
    const Model tso = loadModel(modelsDir(), "tso");
    for (const char* question : {"exists (0:EAX=0 /\\ 1:EAX=0)", "~exists (0:EAX=0 /\\ 1:EAX=0)",
                                 "forall (0:EAX=1 \\/ 1:EAX=1)", "forall (0:EAX=0 \\/ 0:EAX=1)"})
        for (const char* filter : {"", "filter (1:EAX=0)\n"}) {
            const std::string text = std::string("X86 SB\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n"
                                                 " MOV EAX,[y] | MOV EAX,[x] ;\n") +
                                     filter + question + "\n";
            expectModesAgree(parseLitmus(text, "sb.litmus"), tso);
        }
}

// A credit deadlock (each side waits for the other's first message): no
// execution completes, on both engines and in every mode, and the filter,
// which leaves no final state either, is not taken for one.
TEST(CheckModes, NoExecutionCompletes) {
    const Model model = loadModel(modelsDir(), "rdma-tso");
    const std::string declarations = "RDMA Deadlock\n{ x@1 = 0; y@2 = 0; a@1; }\n";
    const std::string deadlock = "P0@1 { assume(x = 1); y^2 := 1; } P1@2 { assume(y = 1); x^1 := 1; }\n";
    const std::string live = "P0@1 { y^2 := 1; a := x; } P1@2 { assume(y = 1); x^1 := 1; }\n";
    for (const char* question : {"exists (x = 1)", "~exists (x = 1)", "forall (x = 1)"})
        for (const auto& [program, completes] : {std::pair{deadlock, false}, std::pair{live, true}})
            for (const char* filter : {"", "filter (x = 2)\n"}) {
                const LitmusTest test = parseLitmus(declarations + program + filter + question, "d.litmus");
                SCOPED_TRACE(program + filter + question);
                expectModesAgree(test, model);
                EXPECT_EQ(runIn(test, model, CheckMode::Speedcheck).completes, completes);
                for (MachineKind kind : {MachineKind::Concrete, MachineKind::Simplified}) {
                    MachineOptions options;
                    options.kind = kind;
                    EXPECT_EQ(explore(test, model, options).completes, completes) << machineName(kind);
                }
            }
}

TEST(CheckModesSlow, X86Suite) {
    const Model tso = loadModel(modelsDir(), "tso");
    for (const std::string& file : litmusFiles(sharedDir() + "/conformance/x86-tso/tests")) {
        if (std::filesystem::path(file).filename() == "pso.litmus") continue;  // 9 s of the 10 alone
        expectModesAgree(parseLitmusFile(file), tso);
    }
}

// Random programs with control flow, arithmetic and remote RMWs on every RDMA model.
TEST(CheckModesSlow, RandomPrograms) {
    const std::vector<std::pair<std::string, std::string>> mixes = {
        {"rdma-tso", "put=3,get=3,poll=2,assume=1,if=1,expr=1"},
        {"rdma-tso-nopcie", "put=3,get=3,poll=2,choice=1"},
        {"rdma-tso-rmw", "rcas=2,rfaa=2,poll=2,expr=1"},
        {"rdma-wait-rmw", "wait=2,rcas=1,rfaa=1,svwrite=1,svread=1,gfence=1"},
        {"sc", "put=3,get=3,poll=2,loop=1"}};
    for (const auto& [modelName, mix] : mixes) {
        const Model model = loadModel(modelsDir(), modelName);
        GeneratorOptions options;
        parseMix(mix, options);
        for (uint64_t seed = 1; seed <= 60; ++seed)
            expectModesAgree(parseLitmus(generateLitmus(seed, options), "random.litmus"), model);
    }
}

}  // namespace
